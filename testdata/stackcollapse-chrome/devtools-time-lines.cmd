stackcollapse-chrome --time --lines devtools.json
