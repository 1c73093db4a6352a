stackcollapse-firefox --lines --thread-root public/samply-profile-with-js-v61.json
