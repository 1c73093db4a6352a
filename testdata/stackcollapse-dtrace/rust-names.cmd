stackcollapse-dtrace rust-names.txt
