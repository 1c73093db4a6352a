zcat ../stackcollapse-bcc/bpftrace-profile.txt.gz | stackcollapse --detect
