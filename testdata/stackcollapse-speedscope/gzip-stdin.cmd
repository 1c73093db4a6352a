gzip -9n < simple-sampled-0.1.2.speedscope.json | stackcollapse-speedscope
