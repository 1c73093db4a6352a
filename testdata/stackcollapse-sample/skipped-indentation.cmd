stackcollapse-sample skipped-indentation.txt
