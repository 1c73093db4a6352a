stackcollapse-vsprof invalid-depth.csv
