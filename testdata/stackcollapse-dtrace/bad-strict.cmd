stackcollapse-dtrace --strict bad.txt
