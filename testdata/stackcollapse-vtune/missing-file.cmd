stackcollapse-vtune no-such-file.csv vtune.csv
