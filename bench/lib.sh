# Helpers for bench/*.sh: sourced, not run.
# best_time CMD...: the best wall time of 3 runs, in seconds.
best_time() {
	local best= t i
	for i in 1 2 3; do
		t=$( { /usr/bin/time -f %e "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -n 1)
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
	done
	echo "$best"
}
# peak_mb CMD...: peak resident memory of one run, in MB.
peak_mb() {
	{ /usr/bin/time -f %M "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -n 1 |
		awk '{ printf "%.1f\n", $1 / 1024 }'
}
# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", b > 0 ? a / b : 0 }'; }
# verdict NAME VALUE LIMIT: prints a PASS/MISS line.
verdict() {
	if awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then
		echo "PASS $1: $2 (target <= $3)"
	else
		echo "MISS $1: $2 (target <= $3)"
	fi
}
# synthetic N [SEED]: path of a cached gen_folded.py output.
synthetic() {
	local f=$BENCH_TMP/synthetic-$1-${2:-1}.folded
	[ -s "$f" ] || python3 "$BENCH_DIR/gen_folded.py" "$1" "${2:-1}" > "$f"
	echo "$f"
}
