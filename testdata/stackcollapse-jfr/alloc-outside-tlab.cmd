stackcollapse-jfr --event ObjectAllocationOutsideTLAB --threads alloc-deep.txt.gz
