stackcollapse-sample --strict odd-indentation.txt
