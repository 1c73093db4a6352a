stackcollapse-bcc --kernel bpftrace-edge.txt
