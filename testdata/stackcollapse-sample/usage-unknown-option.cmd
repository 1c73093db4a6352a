stackcollapse-sample --nomodules sample.txt
