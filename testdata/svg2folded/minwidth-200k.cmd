# 200,000 stacks of 3 to 5 frames (some ending where others go on) and
# counts of 1 to 999, about 85,000 samples to a pixel: the total and, with
# --minwidth 0, every stack come back exactly
t=$(mktemp) || exit 1
trap 'rm -f "$t" "$t.out"' EXIT
awk 'BEGIN { for (i = 0; i < 200000; i++) {
	s = sprintf("main;m%02d;f%05d", i % 37, i % 66667)
	if (i % 3) s = s sprintf(";g%06d", i)
	if (i % 7 == 0) s = s ";h"
	printf "%s %d\n", s, (i * 7919) % 999 + 1 } }' | LC_ALL=C sort >"$t"
awk '{ s += $NF } END { printf "profile: %d stacks, %d samples\n", NR, s }' "$t"
for w in 0 0.005 0.05; do
	flamegraph-svg --minwidth $w "$t" | svg2folded | tee "$t.out" |
	    awk -v w=$w '{ s += $NF; n++ } END { printf "--minwidth %s: %d stacks, %d samples\n", w, n, s }'
	if cmp -s "$t" "$t.out"; then echo "--minwidth $w: the profile, byte for byte"; fi
done
