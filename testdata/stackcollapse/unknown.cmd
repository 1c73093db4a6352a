# reported, nothing of it written; the other input still is
stackcollapse unknown.txt ../stackcollapse-bcc/py-folded.txt
