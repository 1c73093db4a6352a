# Helpers for bench/*.sh: sourced, not run. Scripts set BENCH_TMP (a
# scratch directory; bench/run.sh shares one between scripts) before use.

# cpu_time CMD...: runs CMD with its output to $BENCH_TMP/out and its
# errors discarded; prints its elapsed and CPU (user + system) seconds to
# the microsecond. /usr/bin/time prints hundredths, too coarse for the runs
# of small files, which take a few hundredths in all. With BENCH_REPS=N,
# CMD runs N times in a row, and the times are of the N runs in all.
cpu_time() {
	python3 -c '
import os, sys, time
# spawned (vfork), not forked, and in a loop here, not a shell'"'"'s: a
# fork of this process or of a shell, and closing its descriptors, would
# be charged to the command (a shell'"'"'s fork costs about as much as
# starting a small program on a virtual machine)
w = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
cpu = wall = 0.0
for _ in range(int(os.environ.get("BENCH_REPS", "1"))):
    # the last run'"'"'s output emptied before the clock starts: dropping
    # megabytes of a file just written takes a file system milliseconds
    # (4.7 MB: 2.6 to 4 ms here), the work of no command timed
    if os.path.isfile(sys.argv[1]):
        os.truncate(sys.argv[1], 0)
    t = time.monotonic()
    pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ,
        file_actions=[(os.POSIX_SPAWN_OPEN, 1, sys.argv[1], w, 0o666),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)])
    _, _, r = os.wait4(pid, 0)
    wall += time.monotonic() - t
    cpu += r.ru_utime + r.ru_stime
print("%.6f %.6f" % (wall, cpu))' \
	    "$BENCH_TMP/out" "$@"
}

# best_times CMD... [::: CMD...]: the best wall time and the best CPU
# time (user + system) of RUNS runs (default 3), in seconds: "WALL CPU"
# for each command. The output goes to a file, not /dev/null: GNU grep
# stops at its first match when it writes to /dev/null. CPU time is the
# steadier figure on a shared machine: a single-threaded tool and its
# baseline are charged alike for the cycles they use. Commands apart
# (:::) are run in turn, each round a batch of BENCH_REPS runs of each:
# a processor that runs slower for a while, as those of a virtual machine
# do, slows them alike, and their ratio holds.
best_times() {
	local args=("$@") from=(0) best=() i k n w c
	for i in "${!args[@]}"; do
		[ "${args[i]}" = ":::" ] && from+=($((i + 1)))
	done
	from+=($(($# + 1)))
	n=$((${#from[@]} - 1))
	for i in $(seq "${RUNS:-3}"); do
		for ((k = 0; k < n; k++)); do
			read -r w c < <(cpu_time \
			    "${args[@]:from[k]:from[k + 1] - from[k] - 1}")
			best[2 * k]=$(lesser "${best[2 * k]:-}" "$w")
			best[2 * k + 1]=$(lesser "${best[2 * k + 1]:-}" "$c")
		done
	done
	rm -f "$BENCH_TMP/out"
	echo "${best[*]}"
}
# lesser A B: the lesser of two numbers; B when A is empty.
lesser() {
	if [ -z "$1" ] || awk "BEGIN { exit !($2 < $1) }"; then
		echo "$2"
	else
		echo "$1"
	fi
}
# processors LABEL: how fast each processor runs a loop now, the fastest
# 1.00: the processors of a virtual machine are slowed by the host at
# times, and a -j2 figure taken while one was means little (its -j1 runs
# went to the slow one or the fast one, as the system chose).
processors() {
	local n=$(nproc) c t line=
	for c in $(seq 0 $((n - 1))); do
		t=$(python3 -c '
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
t = time.process_time()
s = 0
for i in range(2000000):
    s += i
print("%.6f" % (time.process_time() - t))' "$c" 2>/dev/null) || return 0
		line="$line $t"
	done
	echo "$line" | awk -v l="$1" '{
		m = $1
		for (i = 2; i <= NF; i++) if ($i < m) m = $i
		s = ""
		for (i = 1; i <= NF; i++) s = s sprintf(" cpu%d %.2f", i - 1, m / $i)
		printf "%s: processor speeds%s (1.00 the fastest; below 0.9, its -j2 figure means little)\n", l, s
	}'
}
# best_reps N CMD...: best_times of N runs of CMD in a row, for a CMD
# that takes a few hundredths of a second, near the timer's resolution.
best_reps() {
	local n=$1
	shift
	BENCH_REPS=$n best_times "$@"
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
# bench_repeated TOOL INPUT MB [OPTION]: times $b/TOOL against `grep -c
# '^$'` (one pass over every byte) on MB megabytes made by repeating the
# real INPUT, in the same run (and again with OPTION when given); prints
# the ratio, the throughput (target: at least 500 MB/s) and the peak
# memory (target: at most 16 MB). Needs b and BENCH_TMP.
bench_repeated() {
	local t=$b/$1 one=$2 mb=$3 opt= base tool mem bytes copies i
	copies=$(( mb * 1000000 / $(wc -c <"$one") + 1 ))
	for i in $(seq "$copies"); do cat "$one"; done >"$BENCH_TMP/big"
	"$t" "$BENCH_TMP/big" >/dev/null 2>&1	# warm the page cache
	base=$(best_time grep -c '^$' "$BENCH_TMP/big")
	tool=$(best_time "$t" "$BENCH_TMP/big")
	[ -n "${4:-}" ] && opt=$(best_time "$t" "$4" "$BENCH_TMP/big")
	mem=$(peak_mb "$t" "$BENCH_TMP/big")
	bytes=$(wc -c <"$BENCH_TMP/big")
	rm -f "$BENCH_TMP/big"
	awk -v name="$1" -v t="$tool" -v o="$opt" -v g="$base" -v m="$mem" \
	    -v n="$bytes" 'BEGIN {
		printf "%s: %.0f MB input; grep -c: %.3f s\n", name, n / 1e6, g
		printf "%s: %.3f s, ratio %.2f, %.0f MB/s (target >= 500)\n",
		    name, t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0)
		if (o != "")
			printf "%s:  %.3f s, ratio %.2f, %.0f MB/s\n", name,
			    o, (g > 0 ? o / g : 0), (o > 0 ? n / o / 1e6 : 0)
		printf "%s: peak memory %.1f MB (target <= 16)\n", name, m
	}'
}
# speedup LABEL "W1 C1" "W2 C2" [REPS [TARGET]]: -j2 against -j1 (wall
# and CPU seconds of REPS runs), the serial fraction f that implies by
# Amdahl (1/s = f + (1 - f)/2) and what f predicts for 16 and 64 threads
# (not measured here). TARGET, the least speedup asked for, is printed
# where one is set (the perf capture and the fleets: 1.7).
speedup() {
	set -- "$1" $2 $3 "${4:-1}" "${5:-}"
	awk -v l="$1" -v tw="$2" -v tc="$3" -v w2="$4" -v c2="$5" -v r="$6" \
	    -v t="$7" 'BEGIN {
		tw /= r; tc /= r; w2 /= r; c2 /= r
		sp = w2 > 0 ? tw / w2 : 0
		f = sp > 0 ? 2 / sp - 1 : 1
		if (f < 0) f = 0
		printf "%s -j2: wall %.3f s vs -j1 %.3f s: %.2fx%s, cpu %.2f s vs %.2f s\n",
		    l, w2, tw, sp, (t != "" ? " (target >= " t ")" : ""), c2, tc
		printf "%s: serial fraction %.2f (measured at 2); predicted 16 threads %.1fx, 64 threads %.1fx\n",
		    l, f, 1 / (f + (1 - f) / 16), 1 / (f + (1 - f) / 64)
	}'
}

# ceiling NAME CMD...: the most -j2 can give on this machine, measured:
# the throughput of two runs of CMD (a -j1 run) at once against one run
# alone, best wall times of RUNS tries each. Two processors of a virtual
# machine may share a core, or the host: then two independent runs
# already fall short of twice the speed of one.
ceiling() {
	local name=$1 i one= two= s e
	shift
	for i in $(seq "${RUNS:-3}"); do
		# outputs emptied before the clock starts, as in cpu_time
		: >"$BENCH_TMP/c1"
		s=$(date +%s%N)
		"$@" >"$BENCH_TMP/c1" 2>/dev/null
		e=$(date +%s%N)
		if [ -z "$one" ] || [ $((e - s)) -lt "$one" ]; then one=$((e - s)); fi
		: >"$BENCH_TMP/c1"
		: >"$BENCH_TMP/c2"
		s=$(date +%s%N)
		"$@" >"$BENCH_TMP/c1" 2>/dev/null &
		"$@" >"$BENCH_TMP/c2" 2>/dev/null
		wait
		e=$(date +%s%N)
		if [ -z "$two" ] || [ $((e - s)) -lt "$two" ]; then two=$((e - s)); fi
	done
	rm -f "$BENCH_TMP/c1" "$BENCH_TMP/c2"
	awk -v l="$name" -v a="$one" -v b="$two" 'BEGIN {
		printf "%s: two -j1 runs at once: %.2fx the throughput of one (%.3f s vs %.3f s), the most -j2 can give here\n",
		    l, (b > 0 ? 2 * a / b : 0), b / 1e9, a / 1e9
	}'
}
