stackcollapse-firefox public/samply-ls-profile-v41.json
