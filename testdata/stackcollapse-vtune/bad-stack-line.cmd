stackcollapse-vtune bad-stack-line.csv
