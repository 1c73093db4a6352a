stackcollapse-sample sample.txt
