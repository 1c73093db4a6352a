stackcollapse-speedscope no-such.json simple-sampled-0.1.2.speedscope.json
