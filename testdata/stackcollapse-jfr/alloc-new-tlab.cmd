stackcollapse-jfr --event jdk.ObjectAllocationInNewTLAB alloc.txt.gz
