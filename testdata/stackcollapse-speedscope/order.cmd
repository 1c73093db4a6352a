stackcollapse-speedscope order.speedscope.json
