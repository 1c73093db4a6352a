gzip -c CallTreeSummary.csv | stackcollapse-vsprof -
