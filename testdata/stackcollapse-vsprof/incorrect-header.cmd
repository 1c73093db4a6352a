stackcollapse-vsprof incorrect-header.csv
