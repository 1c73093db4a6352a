stackcollapse two-sampled-0.6.0.speedscope.json simple-sampled-0.1.2.speedscope.json
