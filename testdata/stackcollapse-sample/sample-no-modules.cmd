stackcollapse-sample --no-modules sample.txt
