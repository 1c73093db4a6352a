stackcollapse-firefox not-object.json
