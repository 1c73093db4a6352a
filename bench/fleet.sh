#!/usr/bin/env bash
# The fleet: FLEET_N (10,000) pprof CPU profiles made by gen_fleet.py from
# real Go captures, converted and merged into one folded profile three
# ways (one process; GNU parallel -j2 with a job per profile; parallel
# -j2 with a job per service, the README's recipe), and merged as pprof by
# pprofmerge;
# then pprofmerge against `go tool pprof -proto` on 1,000 of them. Prints
# profiles per second and peak memory of each, and pprof2folded and
# pprofmerge -j2 against -j1 (target 1.7x). Targets: pprofmerge 20x
# faster than go tool pprof -proto, peak memory under 3x the merged
# profile's decoded size. Every way's output is checked against the others.
# usage: bench/fleet.sh BUILDDIR
set -eu
b=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
n=${FLEET_N:-10000}
if ! command -v parallel >/dev/null 2>&1; then
	echo "# fleet: GNU parallel is not installed: skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C PATH="$b:$PATH" GOCACHE="$tmp/gocache" HOME="$tmp"
BENCH_TMP=$tmp
# shellcheck source=lib.sh
. "$top/bench/lib.sh"
cd "$tmp"

python3 "$top/bench/gen_fleet.py" "$n" fleet "$top/bench/go-cpu.pb.gz" \
    "$top/testdata/pprof2folded/cpu.pb.gz" \
    "$top/testdata/pprof2folded/labels.pb.gz"
find fleet -name '*.pb.gz' | sort >list
gz=$(cat $(cat list) | wc -c)
raw=$(cat $(cat list) | gzip -dc | wc -c)
printf 'fleet: %d profiles, %.1f MB gzipped, %.1f MB decoded\n' "$n" \
    "$(echo "$gz / 1000000" | bc -l)" "$(echo "$raw / 1000000" | bc -l)"

# timed NAME CMD: runs CMD (a shell string) once; prints a line with the
# elapsed time, profiles per second and the peak memory of the largest
# process; leaves the elapsed seconds in $el
timed() {
	/usr/bin/time -f '%e %M' -o time sh -c "$2" 2>/dev/null
	read -r el kb <time
	awk -v name="$1" -v n="$n" -v e="$el" -v kb="$kb" 'BEGIN {
		printf "%s: %.2f s, %.0f profiles/s, peak %.1f MB\n", name, e,
		    n / (e > 0 ? e : 0.01), kb / 1024 }'
	peak=$kb
}

timed "one process (pprof2folded --files-from)" \
    'pprof2folded --files-from list >one.folded'
one=$el
# every core: each profile read on a thread of its own, the stacks
# added in order; wall and CPU time, best of three
pprof2folded -j2 --files-from list | cmp -s - one.folded ||
	{ echo "FAIL pprof2folded -j2 differs from -j1"; exit 1; }
set -- $(best_times pprof2folded -j1 --files-from list ::: \
    pprof2folded -j2 --files-from list)
speedup "pprof2folded --files-from" "$1 $2" "$3 $4" 1 1.7

# a job per profile costs GNU parallel's start of a job each: timed on the
# first 1,000 profiles only
head -n 1000 list >list1k
n1k=$(wc -l <list1k)
pprof2folded --files-from list1k >one1k.folded
n=$n1k timed "parallel -j2, a job per profile, then foldmerge ($n1k profiles)" \
    'parallel --will-cite -j2 "pprof2folded {} > {.}.folded" <list1k &&
     find fleet -name "*.folded" | foldmerge --files-from - >each.folded'
cmp -s one1k.folded each.folded || { echo "FAIL parallel (each) differs"; exit 1; }
find fleet -name '*.folded' -delete
timed "parallel -j2, a job per service, then foldmerge" \
    'ls -d fleet/*/ | parallel --will-cite -j2 \
	"find {} -name \"*.pb.gz\" | pprof2folded --files-from - > {}cpu.folded" &&
     foldmerge fleet/*/cpu.folded >svc.folded'
cmp -s one.folded svc.folded || { echo "FAIL parallel (by service) differs"; exit 1; }
awk -v a="$one" -v b="$el" 'BEGIN {
	printf "parallel -j2 by service: %.2fx the speed of one process\n", a / b }'

timed "pprofmerge --files-from (all)" 'pprofmerge --files-from list >merged.pb.gz'
size=$(gzip -dc merged.pb.gz | wc -c)
pprof2folded merged.pb.gz | cmp -s - one.folded ||
	{ echo "FAIL pprofmerge's merge read back differs"; exit 1; }
awk -v kb="$peak" -v s="$size" 'BEGIN {
	printf "pprofmerge: merged profile %.1f MB decoded; peak memory %.2fx " \
	    "that (target under 3x)\n", s / 1e6, kb * 1024 / s }'

# every core: decoding on the jobs' threads, the merge in input order
pprofmerge -j1 --files-from list >j1.pb.gz
pprofmerge -j2 --files-from list >j2.pb.gz
cmp -s j1.pb.gz j2.pb.gz || { echo "FAIL pprofmerge -j2 differs from -j1"; exit 1; }
cmp -s j1.pb.gz merged.pb.gz || { echo "FAIL pprofmerge -j1 differs from the default"; exit 1; }
set -- $(best_times pprofmerge -j1 --files-from list ::: \
    pprofmerge -j2 --files-from list)
speedup "pprofmerge --files-from" "$1 $2" "$3 $4" 1 1.7
ceiling "pprofmerge --files-from" pprofmerge -j1 --files-from list

if command -v go >/dev/null 2>&1; then
	n=$n1k
	timed "pprofmerge, $n1k profiles" 'pprofmerge --files-from list1k >ours.pb.gz'
	ours=$el
	timed "go tool pprof -proto, $n1k profiles" \
	    'go tool pprof -proto $(cat list1k) >go.pb.gz'
	go tool pprof -raw ours.pb.gz >ours.raw 2>&1
	go tool pprof -raw go.pb.gz >go.raw 2>&1
	cmp -s ours.raw go.raw ||
		{ echo "FAIL pprofmerge and go tool pprof -proto differ (-raw)"; exit 1; }
	awk -v a="$el" -v b="$ours" 'BEGIN {
		printf "pprofmerge: %.1fx faster than go tool pprof -proto " \
		    "(target 20x)\n", a / b }'
else
	echo "# go is not installed: no go tool pprof baseline"
fi
