# semicolons, quotes, a stack twice (summed), a level skipped
stackcollapse-vsprof forms.csv
