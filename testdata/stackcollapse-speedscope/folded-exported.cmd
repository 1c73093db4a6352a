stackcollapse-speedscope folded-exported.speedscope.json
