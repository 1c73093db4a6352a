# after less before: the sum of every value, as go tool pprof -top shows
# the nodes "accounting for" -90ms of the delta (t-pprof.sh checks it)
for p in delta.pb.gz delta-base.pb.gz; do
	pprof2folded --differential "$p" |
	    awk '{ b += $(NF - 1); a += $NF } END { print a - b }'
done
