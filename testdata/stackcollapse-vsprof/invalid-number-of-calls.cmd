stackcollapse-vsprof invalid-number-of-calls.csv
