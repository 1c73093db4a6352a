stackcollapse-vtune --no-modules forms.csv
