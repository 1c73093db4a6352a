# frames in another order than drawn (as flamegraph.pl writes them), half
# of them leaves, 0.04 pixel wide: which frame holds each "b" cannot be
# told from the coordinates, and that is an error, not a guess
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "main;a%06d%s 1\n", i, i % 2 ? ";b" : "" }' |
    flamegraph-svg --pretty-xml --minwidth 0 |
    awk 'BEGIN { srand(7) }
	/^    <g>$/ { inb = 1; blk = $0 "\n"; next }
	inb { blk = blk $0 "\n"; if ($0 ~ /^    <\/g>$/) { inb = 0; b[n++] = blk }; next }
	/^  <\/g>$/ && n { for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = b[i]; b[i] = b[j]; b[j] = t }
		for (i = 0; i < n; i++) printf "%s", b[i]; n = 0 }
	{ print }' | svg2folded
