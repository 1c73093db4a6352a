stackcollapse-bcc py-folded.txt
