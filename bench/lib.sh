# Helpers for bench/*.sh: sourced, not run. Scripts set BENCH_TMP (a
# scratch directory; bench/run.sh shares one between scripts) before use.

# best_times CMD...: the best wall time and the best CPU time (user +
# system) of RUNS runs (default 3), in seconds: "WALL CPU". The output goes
# to a file, not /dev/null: GNU grep stops at its first match when it
# writes to /dev/null. CPU time is the steadier figure on a shared
# machine: a single-threaded tool and its baseline are charged alike for
# the cycles they use.
best_times() {
	local i w u s c minw= minc=
	for i in $(seq "${RUNS:-3}"); do
		/usr/bin/time -f '%e %U %S' -o "$BENCH_TMP/time" "$@" \
			>"$BENCH_TMP/out" 2>/dev/null || true
		read -r w u s <"$BENCH_TMP/time"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$minw" ] || awk "BEGIN { exit !($w < $minw) }"; then minw=$w; fi
		if [ -z "$minc" ] || awk "BEGIN { exit !($c < $minc) }"; then minc=$c; fi
	done
	rm -f "$BENCH_TMP/out"
	echo "$minw $minc"
}
# best_time CMD...: the best CPU time, in seconds.
best_time() { best_times "$@" | cut -d' ' -f2; }
# peak_mb CMD...: peak resident memory of one run, in MB.
peak_mb() {
	/usr/bin/time -f %M -o "$BENCH_TMP/mem" "$@" >"$BENCH_TMP/out" 2>&1
	rm -f "$BENCH_TMP/out"
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
