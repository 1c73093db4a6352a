# the goldens are the reference tool's results, CRs stripped and sorted;
# ours add a unit line (folded(5)), which it has not
check() { # golden result
	tr -d '\r' < results/$2.txt | LC_ALL=C sort |
	    { grep -v '^# unit=' $1.out | cmp - /dev/fd/3; } 3<&0 &&
	    echo "$1: the same as $2"
}
check percent percent
check ticks ticks
check ticks-time-stdin ticks
check ticks-ticks ticks_ticks
check ticks-bytes ticks_bytes
check utf8 utf8
check utf8-ticks-gzip utf8_ticks
check utf8-bytes utf8_bytes
