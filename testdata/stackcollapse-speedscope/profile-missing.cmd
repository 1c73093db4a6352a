stackcollapse-speedscope --profile one --profile three two-sampled-0.6.0.speedscope.json
