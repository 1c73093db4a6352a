stackcollapse-speedscope cpu-exported.speedscope.json
