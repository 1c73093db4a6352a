stackcollapse --kernel < ../stackcollapse-bcc/offcputime.txt.gz
