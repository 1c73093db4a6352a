stackcollapse-bcc offcputime.txt.gz py-folded.txt py-profile.txt
