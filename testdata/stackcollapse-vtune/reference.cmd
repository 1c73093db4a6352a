# the goldens are the reference tool's results, CRs stripped and sorted;
# ours add the unit line of milliseconds (folded(5)), which it has not
for o in default no-modules; do
	tr -d '\r' < results/vtune-$o.txt | LC_ALL=C sort |
	    { grep -v '^# unit=' $o.out | cmp - /dev/fd/3; } 3<&0 &&
	    echo "$o: the same"
done
