stackcollapse-jfr --event ObjectAllocationOutsideTLAB --signatures binary/alloc.jfr
