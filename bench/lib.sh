# Helpers for bench/*.sh: sourced, not run.
# best_time CMD...: the best CPU time (user + system) of 3 runs, in seconds.
# CPU time, not wall time: the machines are shared, and a single-threaded
# tool and its baseline are charged alike for the cycles they use.
best_time() {
	local best= t i
	for i in 1 2 3; do
		/usr/bin/time -f '%U %S' -o "$BENCH_TMP/time" "$@" >/dev/null 2>&1
		t=$(tail -n 1 "$BENCH_TMP/time" | awk '{ printf "%.2f", $1 + $2 }')
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
	done
	echo "$best"
}
# peak_mb CMD...: peak resident memory of one run, in MB.
peak_mb() {
	/usr/bin/time -f %M -o "$BENCH_TMP/mem" "$@" >/dev/null 2>&1
	tail -n 1 "$BENCH_TMP/mem" | awk '{ printf "%.1f\n", $1 / 1024 }'
}
# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", (b > 0 ? a / b : 0) }'; }
# verdict NAME VALUE LIMIT: prints a PASS/MISS line.
verdict() {
	if [ -n "$2" ] && awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then
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
