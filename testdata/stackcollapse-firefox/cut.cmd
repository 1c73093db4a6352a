stackcollapse-firefox cut.json
