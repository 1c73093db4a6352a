# a string of 1 TiB, then an endless stream: refused at once
cat bad/head-length.pb /dev/zero | timeout 10 pprof2folded
