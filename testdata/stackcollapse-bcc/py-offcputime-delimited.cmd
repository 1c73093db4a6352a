stackcollapse-bcc --kernel py-offcputime-d.txt
