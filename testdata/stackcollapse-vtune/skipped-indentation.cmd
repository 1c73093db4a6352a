stackcollapse-vtune skipped-indentation.csv
