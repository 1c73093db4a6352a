stackcollapse-jfr no-such-file.txt units.txt
