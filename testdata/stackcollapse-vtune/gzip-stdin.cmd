gzip -c vtune.csv | stackcollapse-vtune --no-modules -
