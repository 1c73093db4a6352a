stackcollapse-bcc --kernel bpftrace-perf.txt.gz
