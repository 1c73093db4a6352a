stackcollapse-jfr bad.txt
