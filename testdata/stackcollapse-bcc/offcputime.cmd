stackcollapse-bcc offcputime.txt.gz
