stackcollapse-jfr --strict bad.txt
