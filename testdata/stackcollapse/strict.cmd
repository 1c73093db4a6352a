stackcollapse --strict --format perf both.txt ../stackcollapse-bcc/py-folded.txt
