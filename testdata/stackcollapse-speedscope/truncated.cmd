head -c 300 simple-0.0.1.speedscope.json | stackcollapse-speedscope
