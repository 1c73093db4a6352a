stackcollapse-vtune vtune.csv
