stackcollapse-dtrace --strict only-header-lines.txt
