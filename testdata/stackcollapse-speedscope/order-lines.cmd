stackcollapse-speedscope --lines --profile-root order.speedscope.json
