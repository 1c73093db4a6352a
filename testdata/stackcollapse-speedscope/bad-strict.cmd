stackcollapse-speedscope --strict bad.speedscope.json
