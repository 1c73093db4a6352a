stackcollapse-jfr --event jdk.ObjectAllocationSample alloc-deep.txt.gz
