# 20,000 one-sample stacks, each frame 0.06 pixel wide: every title's
# count is exact, so the profile comes back whole at either --minwidth
gen() { awk 'BEGIN { for (i = 0; i < 20000; i++) printf "main;a%06d;b 1\n", i }'; }
for w in 0 0.05; do
	gen | flamegraph-svg --minwidth $w | svg2folded |
	    awk -v w=$w '{ s += $NF; n++ } END { printf "--minwidth %s: %d stacks, %d samples\n", w, n, s }'
	[ "$(gen | flamegraph-svg --minwidth $w | svg2folded | cksum)" = "$(gen | cksum)" ] &&
	    echo "--minwidth $w: the profile, byte for byte"
done
