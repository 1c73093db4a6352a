stackcollapse-dtrace --includeoffset rust-names.txt
