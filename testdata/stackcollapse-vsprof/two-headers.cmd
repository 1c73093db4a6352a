stackcollapse-vsprof two-headers.csv
