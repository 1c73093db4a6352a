stackcollapse-vtune forms.csv semicolon.csv
