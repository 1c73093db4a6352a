stackcollapse-speedscope --max-size 1K simple-0.0.1.speedscope.json
