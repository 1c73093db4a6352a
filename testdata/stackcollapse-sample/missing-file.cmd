stackcollapse-sample no-such-file.txt differences.txt
