stackcollapse-chrome devtools.json
