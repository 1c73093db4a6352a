stackcollapse-vtune invalid-time-field.csv
