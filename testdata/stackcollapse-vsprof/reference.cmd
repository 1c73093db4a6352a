# the reference tool's results, CRs stripped and sorted, against ours: they
# differ only where a stack appears twice in the tree, whose counts are
# summed here (the reference keeps the last): the frame on top and the
# counts of those lines
for f in sample-default vsprof-default; do
	echo "$f:"
	tr -d '\r' < results/$f.txt | LC_ALL=C sort | diff - default.out |
	    sed -n -E 's/^([<>]) .*;/\1 /p'
done
