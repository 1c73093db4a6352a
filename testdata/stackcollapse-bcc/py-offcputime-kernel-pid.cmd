stackcollapse-bcc --kernel --pid py-offcputime.txt
