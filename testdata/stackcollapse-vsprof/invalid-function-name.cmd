stackcollapse-vsprof invalid-function-name.csv
