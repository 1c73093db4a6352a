stackcollapse-bcc --strict bad.txt
