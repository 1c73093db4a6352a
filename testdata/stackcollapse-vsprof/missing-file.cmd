stackcollapse-vsprof no-such-file.csv CallTreeSummary.csv
