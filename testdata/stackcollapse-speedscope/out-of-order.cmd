stackcollapse-speedscope invalid-out-of-order-events.json
