stackcollapse-bcc bpftrace-perl-exec.txt.gz | grep -E '^perl;8301 |;0x(1|12|6c)[; ]'
