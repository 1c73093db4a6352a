zcat cpu-deep.txt.gz | stackcollapse-jfr
