stackcollapse-vtune end-before-header.csv
