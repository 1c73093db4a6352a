stackcollapse-firefox bytes.json
