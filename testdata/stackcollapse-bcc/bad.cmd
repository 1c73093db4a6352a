stackcollapse-bcc bad.txt
