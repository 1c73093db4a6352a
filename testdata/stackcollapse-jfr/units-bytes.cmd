stackcollapse-jfr --event ObjectAllocationSample units.txt
