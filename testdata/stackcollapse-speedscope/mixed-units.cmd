stackcollapse-speedscope bytes.speedscope.json simple-sampled-0.1.2.speedscope.json
