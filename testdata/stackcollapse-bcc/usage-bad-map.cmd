stackcollapse-bcc --map "a b" py-folded.txt
