stackcollapse-sample odd-indentation.txt
