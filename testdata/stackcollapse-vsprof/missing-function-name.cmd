stackcollapse-vsprof missing-function-name.csv
