stackcollapse-bcc --kernel bpftrace-cs.txt.gz
