#!/bin/sh
# How base-1.folded, base-2.folded and slow.folded were made (as root, so
# that perf can sample; about 4 s and 11,000 samples each). base-1 and
# base-2 are two runs of the same build; slow is a build in which
# checksum() does 20% more work (CHECKSUM_WORK=120). Both binaries are
# named "workload" so that the process name, the root frame of every
# stack, is the same in all three.
#
# The captures were folded with the small awk script below (process name
# first, then the frames from the outermost caller to the leaf, offsets
# removed), the same stacks stackcollapse-perf(1) gives:
#	perf script -i base-1.data | stackcollapse-perf > base-1.folded
set -e
mkdir -p before after
cc -O2 -g -fno-omit-frame-pointer -o before/workload workload.c
cc -O2 -g -fno-omit-frame-pointer -DCHECKSUM_WORK=120 -o after/workload workload.c

fold() {
	awk '
	/^[^ \t]/ { comm = $1; n = 0; next }
	/^[ \t]+[0-9a-f]+ / {
		sym = $2
		for (i = 3; i < NF; i++) sym = sym " " $i
		sub(/\+0x[0-9a-f]+$/, "", sym)
		if (sym == "[unknown]") {
			m = $NF; gsub(/[()]/, "", m); sub(/.*\//, "", m)
			sym = "[" m "]"
		}
		f[++n] = sym; next
	}
	/^$/ { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ }
	       n = 0 }
	END { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ }
	      for (s in c) print s, c[s] }' | LC_ALL=C sort
}

for run in base-1:before base-2:before slow:after; do
	name=${run%%:*} build=${run#*:}
	perf record -F 2999 -g -o "$name.data" "./$build/workload" 5000
	perf script -i "$name.data" | fold > "$name.folded"
done
