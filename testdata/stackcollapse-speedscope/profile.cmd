stackcollapse-speedscope --profile two two-sampled-0.6.0.speedscope.json
