stackcollapse-bcc --pid py-stackcount.txt
