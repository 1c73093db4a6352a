stackcollapse-bcc --map @stacks bpftrace-maps.txt.gz
