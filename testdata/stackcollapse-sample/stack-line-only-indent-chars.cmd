stackcollapse-sample stack-line-only-indent-chars.txt
