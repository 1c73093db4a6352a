stackcollapse-bcc --kernel offcputime-v.txt.gz
