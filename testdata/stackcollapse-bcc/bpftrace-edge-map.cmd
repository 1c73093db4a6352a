stackcollapse-bcc --map bytes bpftrace-edge.txt
