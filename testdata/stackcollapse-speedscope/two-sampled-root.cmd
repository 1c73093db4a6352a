stackcollapse-speedscope --profile-root two-sampled-0.6.0.speedscope.json
