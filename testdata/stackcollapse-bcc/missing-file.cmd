stackcollapse-bcc no-such-file.txt py-folded.txt
