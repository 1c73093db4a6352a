stackcollapse-bcc bpftrace-maps.txt.gz
