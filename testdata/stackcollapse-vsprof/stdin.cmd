stackcollapse-vsprof < CallTreeSummary.csv
