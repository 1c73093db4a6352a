stackcollapse-speedscope simple-sampled-0.1.2.speedscope.json
