stackcollapse-sample < sample.txt
