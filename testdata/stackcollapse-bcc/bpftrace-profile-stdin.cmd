zcat bpftrace-profile.txt.gz | stackcollapse-bcc
