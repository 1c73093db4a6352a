stackcollapse-jfr --event ObjectAllocationSample < bad.txt
