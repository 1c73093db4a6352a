stackcollapse-sample differences.txt differences.txt
