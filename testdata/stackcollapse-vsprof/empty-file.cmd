stackcollapse-vsprof empty-file.csv
