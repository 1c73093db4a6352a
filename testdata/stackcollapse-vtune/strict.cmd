# the first bad line is an error: status 1 and its message
stackcollapse-vtune --strict invalid-time-field.csv
