stackcollapse-speedscope simple-0.0.1.speedscope.json
