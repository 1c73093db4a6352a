stackcollapse-bcc --kernel --pid offcputime.txt.gz
