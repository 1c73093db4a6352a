stackcollapse-speedscope bytes.speedscope.json
