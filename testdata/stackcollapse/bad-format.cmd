stackcollapse --format gprof ../stackcollapse-bcc/py-folded.txt
