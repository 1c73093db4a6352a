#!/usr/bin/env bash
# The cost per file on small real profiles: pprofmerge and pprof2folded
# --files-from over N (100) copies of real Go CPU captures, against
# `go tool pprof -proto` on the same files, in the same run. Three sets:
# bench/go-cpu.pb.gz alone (15 KB gzipped, 30 KB decoded); it in turn
# with testdata/pprof2folded's cpu.pb.gz and labels.pb.gz (under 1 KB);
# and the ten captures of bench/go-varied in turn (6 to 14 KB, of ten
# different mixes of work): profiles that differ, as a fleet's do, whose
# merge is as large as their union, and whose decoding no processor can
# learn by heart from the copies before.
# Prints the CPU time (user + system) per file of each and the ratio to go
# tool pprof's (target: 20x), and the ratio of elapsed times. Each is the
# best of 5 times RUNS (3) runs, go tool pprof's and ours in turn, round
# after round (best_times in lib.sh): a stretch where the machine runs
# slower slows both alike. Each run is timed alone, to the microsecond:
# timed as a sum of 10 runs in a row, ours gave two identical runs
# (pprofmerge and pprofmerge -j1, which a small fleet sends the same way)
# 0.112 and 0.132 ms a file in one bench, a slow stretch in one sum.
# The merges are checked against go tool pprof's (go tool pprof -raw).
# Then where the time of a run goes: starting the process, the first
# file (its tables and buffers touched for the first time, the output
# compressed) and each further file; and go tool pprof's first file and
# each further one, the ratio of the further ones' (ours start in about a
# millisecond and a half, go tool pprof in 14 to 21: its start is a
# smaller part of its run, and the whole runs' ratio is below the further
# files').
# usage: bench/pprof-small.sh BUILDDIR [N]
set -eu
b=$(cd "${1:?usage: $0 BUILDDIR [N]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
n=${2:-100}
if ! command -v go >/dev/null 2>&1; then
	echo "# pprof-small: go is not installed, no baseline: skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C GOCACHE="$tmp/gocache" HOME="$tmp"
export RUNS=${RUNS:-3}
BENCH_TMP=$tmp
. "$top/bench/lib.sh"
cd "$tmp"

# set NAME CAPTURE...: n copies of the captures in turn, each a file of
# its own (as a fleet's are), then the timings
set_of() {
	local name=$1 i k
	shift
	mkdir -p "$name"
	for i in $(seq "$n"); do
		k=$(( (i - 1) % $# + 1 ))
		cp "${!k}" "$name/$i.pb.gz"
	done
	ls "$name"/*.pb.gz >"$name.list"
	gz=$(cat "$name"/*.pb.gz | wc -c)

	"$b/pprofmerge" --files-from "$name.list" >ours.pb.gz
	go tool pprof -proto $(cat "$name.list") >go.pb.gz 2>/dev/null
	go tool pprof -raw ours.pb.gz >ours.raw 2>&1
	go tool pprof -raw go.pb.gz >go.raw 2>&1
	cmp -s ours.raw go.raw ||
		{ echo "FAIL $name: pprofmerge and go tool pprof -proto differ (-raw)"; exit 1; }

	# go's times vary by a fifth from run to run: its best of 3 runs
	# was 2.26 to 2.76 ms a file
	read -r gw gc mw mc jw jc fw fc < <(RUNS=$((RUNS * 5)) best_times \
	    go tool pprof -proto $(cat "$name.list") ::: \
	    "$b/pprofmerge" --files-from "$name.list" ::: \
	    "$b/pprofmerge" -j1 --files-from "$name.list" ::: \
	    "$b/pprof2folded" --files-from "$name.list")
	head -n 1 "$name.list" >one.list
	read -r _ oc _ g1 < <(RUNS=$((RUNS * 5)) best_times \
	    "$b/pprofmerge" -j1 --files-from one.list ::: \
	    go tool pprof -proto $(cat one.list))
	awk -v name="$name" -v n="$n" -v gz="$gz" -v gw="$gw" \
	    -v gc="$gc" -v mw="$mw" -v mc="$mc" -v jw="$jw" -v jc="$jc" \
	    -v fw="$fw" -v fc="$fc" -v oc="$oc" -v hc="$hc" -v g1="$g1" '
	function line(what, w, c) {
		printf "%s: %-32s %.3f ms cpu a file, %5.1fx go tool pprof " \
		    "(target 20x); elapsed %5.1fx\n", name, what, c * 1000 / n,
		    (c > 0 ? gc / c : 0), (w > 0 ? gw / w : 0)
	}
	BEGIN {
		printf "%s: %d files, %.1f KB gzipped each; go tool pprof -proto " \
		    "%.3f ms cpu a file (%.2f s elapsed)\n", name, n,
		    gz / n / 1000, gc * 1000 / n, gw
		line("pprofmerge", mw, mc)
		line("pprofmerge -j1", jw, jc)
		line("pprof2folded --files-from", fw, fc)
		# where the -j1 run goes: a process started (--help), what
		# the first file costs past that, and each file after it
		printf "%s: pprofmerge -j1 %.2f ms cpu in all: starting the " \
		    "process %.2f ms (--help), the first file %.2f ms more, " \
		    "each other %.3f ms\n", name, jc * 1000, hc * 1000,
		    (oc - hc) * 1000, (jc - oc) * 1000 / (n - 1)
		# the same split of go tool pprof: its start and first file
		# apart, the ratio of what each further file costs
		printf "%s: go tool pprof -proto %.2f ms cpu for the first " \
		    "file, each other %.3f ms: %.1fx pprofmerge -j1 on those\n",
		    name, g1 * 1000, (gc - g1) * 1000 / (n - 1),
		    (jc > oc ? (gc - g1) / (jc - oc) : 0)
	}'
}

read -r _ hc < <(RUNS=$((RUNS * 5)) best_times "$b/pprofmerge" --help)
set_of go-cpu "$top/bench/go-cpu.pb.gz"
set_of mixed "$top/bench/go-cpu.pb.gz" "$top/testdata/pprof2folded/cpu.pb.gz" \
    "$top/testdata/pprof2folded/labels.pb.gz"
set_of varied "$top"/bench/go-varied/*.pb.gz
