# the goldens are the reference tool's results, CRs stripped and sorted
check() { # golden result
	tr -d '\r' < results/$2.txt | LC_ALL=C sort | cmp - $1.out &&
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
