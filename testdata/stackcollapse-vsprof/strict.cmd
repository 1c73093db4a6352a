# the first bad line is an error: status 1 and its message
stackcollapse-vsprof --strict invalid-depth.csv
