stackcollapse-bcc < py-offcputime.txt
