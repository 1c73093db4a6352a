stackcollapse-speedscope bad.speedscope.json
