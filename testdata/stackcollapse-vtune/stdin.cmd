stackcollapse-vtune < vtune.csv
