stackcollapse-firefox public/samply-profile-without-js-v64.json
