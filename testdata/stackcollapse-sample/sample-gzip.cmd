gzip -c sample.txt | stackcollapse-sample -
