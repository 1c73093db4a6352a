stackcollapse-bcc bpftrace-perl-exec.txt.gz | awk '{ n += $NF } END { print n }'
