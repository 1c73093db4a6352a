#!/usr/bin/env bash
# Times the JSON readers on 100 MB inputs made by the generators, each
# against `wc -w` (one pass over every byte) and, when node is installed,
# against a node process that only runs JSON.parse on the same file, what
# DevTools and speedscope begin with (target: 5 times as fast); and the
# peak memory, which must not grow with the file. The inputs:
#   speedscope sampled   py-spy-like: a profile per thread, a stack a sample
#   speedscope evented   speedscope's export of a trace: O/C events
#   trace durations      DevTools-like: small nested X and B/E events
#   trace samples        DevTools-like: ProfileChunks, millions of samples
#   firefox gecko        a Firefox start-up profile: samples and markers
#   otlp                 an eBPF profiler's OTLP/JSON export: samples
#                        naming stacks of one dictionary, 20 services
# (the .cpuprofile reader has bench/stackcollapse-chrome.sh).
# usage: bench/json-readers.sh BUILDDIR [MBYTES]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [MBYTES]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
mb=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
export RUNS=${RUNS:-3}

BENCH_TMP=$tmp
. "$top/bench/lib.sh"

run() { # label tool generator-args...
	local label=$1 tool=$2 f=$tmp/in.json base t mem bytes js=0
	shift 2
	python3 "$@" >"$f"
	"$b/$tool" "$f" >/dev/null 2>&1	# warm the page cache
	base=$(best_time wc -w "$f")
	t=$(best_time "$b/$tool" "$f")
	mem=$(peak_mb "$b/$tool" "$f")
	bytes=$(wc -c <"$f")
	command -v node >/dev/null 2>&1 &&
	    js=$(best_time node --max-old-space-size=16384 -e \
		'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$f")
	awk -v l="$label" -v t="$t" -v g="$base" -v m="$mem" -v n="$bytes" \
	    -v j="$js" 'BEGIN {
		printf "%s: %.0f MB; %.3f s, %.2fx wc -w, %.0f MB/s; peak %.1f MB (%.2fx the file)\n",
		    l, n / 1e6, t, (g > 0 ? t / g : 0), (t > 0 ? n / t / 1e6 : 0),
		    m, m * 1e6 * 1.048576 / n
		if (j > 0)
			printf "%s: node JSON.parse %.3f s; %.2fx as fast (target >= 5)\n",
			    l, j, (t > 0 ? j / t : 0)
	}'
	rm -f "$f"
}

run "speedscope sampled" stackcollapse-speedscope \
    "$top/bench/gen_speedscope.py" "$mb" sampled
run "speedscope evented" stackcollapse-speedscope \
    "$top/bench/gen_speedscope.py" "$mb" evented
run "trace durations" stackcollapse-chrome-tracing \
    "$top/bench/gen_trace.py" "$mb"
run "trace samples" stackcollapse-chrome-tracing \
    "$top/bench/gen_trace.py" --samples "$mb"
run "firefox gecko" stackcollapse-firefox \
    "$top/bench/gen_firefox.py" "$mb"
run "otlp" stackcollapse-otlp "$top/bench/gen_otlp.py" "$mb"
