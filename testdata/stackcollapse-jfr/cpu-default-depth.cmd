stackcollapse-jfr cpu.txt.gz
