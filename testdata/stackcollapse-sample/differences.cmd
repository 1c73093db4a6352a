stackcollapse-sample differences.txt
