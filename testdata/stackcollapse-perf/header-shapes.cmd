# Header lines of every shape the fields after the pid can take, each
# sample its own frame (hN, N its header's number): "[CPU] TIME: PERIOD
# EVENT:" with each field left out, malformed or out of place. perf
# script's own layout is read by a fast path and the rest by the general
# one: the two must agree, and this output was recorded from the general
# one alone.
shapes() {
	awk 'BEGIN {
	nc = split(",[000],[],[0a],[7]x", cpu, ",")
	nt = split(",1.5:,.:,12.5,1.5:x,5:", tm, ",")
	np = split(",7,-5,12x,1.5,1234567890123456789,12345678901234567890", pe, ",")
	ne = split(",cycles:,cycles,PERF_RECORD_X:,9e:,_x:,a:b:", ev, ",")
	for (c = 1; c <= nc; c++) for (t = 1; t <= nt; t++)
	for (p = 1; p <= np; p++) for (e = 1; e <= ne; e++) {
		sep = (++n % 3 == 0) ? "\t" : (n % 3 == 1) ? " " : "   "
		s = "java 10/11"
		if (cpu[c] != "") s = s sep cpu[c]
		if (tm[t] != "") s = s sep tm[t]
		if (pe[p] != "") s = s sep pe[p]
		if (ev[e] != "") s = s sep ev[e]
		printf "%s%s\n\t1 h%d (x)\n\n", s, (n % 5 == 0) ? " rest" : "", n
	}
	}'
}
shapes | stackcollapse-perf --tid
shapes | stackcollapse-perf --event-filter a:b
shapes | stackcollapse-perf --event-filter _x
shapes | stackcollapse-perf --list-events
