stackcollapse-vtune --no-modules vtune.csv
