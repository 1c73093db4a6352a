# the goldens are the reference tool's results, CRs stripped and sorted
for o in default no-modules; do
	tr -d '\r' < results/vtune-$o.txt | LC_ALL=C sort | cmp - $o.out &&
	    echo "$o: the same"
done
