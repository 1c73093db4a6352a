stackcollapse-speedscope simple-no-pretty-print-0.0.1.speedscope.json
