#!/usr/bin/env bash
# foldmerge: merging a 300,000-stack profile with itself against
# awk '{s+=$NF} END{print s}' on the same file (target <= 3x, on one
# thread: the speed of one), its peak memory (target < 256 MB), -j2
# against -j1 on it (unsorted: read in pieces on the threads), and peak
# memory of sorted streaming merges (targets < 64 MB).
set -u
b=$1
. "$(dirname "$0")/lib.sh"
: "${BENCH_TMP:=$(mktemp -d)}" "${BENCH_DIR:=$(cd "$(dirname "$0")" && pwd)}"
f=$(synthetic 300000)
# in turn, round after round: the processors of a virtual machine slow
# down for a while at times, and timed apart, one or the other might
# fall in such a stretch (the ratio went from 2.56 to 5.40 so)
read -r _ base _ t < <(RUNS=$((${RUNS:-3} * 2)) best_times \
    awk '{ s += $NF } END { print s }' "$f" ::: "$b/foldmerge" -j1 "$f" "$f")
echo "awk sum: ${base}s  foldmerge -j1 self-merge: ${t}s"
verdict "foldmerge -j1 self-merge / awk" "$(ratio "$t" "$base")" 3
# unsorted inputs are read into memory that holds each distinct stack
# once: the file's size, not twice it, on any number of threads
mb=$(( $(wc -c <"$f") / 1000000 ))
verdict "foldmerge self-merge of the unsorted $mb MB, peak MB" \
	"$(peak_mb "$b/foldmerge" -j1 "$f" "$f")" 256
verdict "foldmerge -j2 self-merge of the unsorted $mb MB, peak MB" \
	"$(peak_mb "$b/foldmerge" -j2 "$f" "$f")" 256
set -- $(best_times "$b/foldmerge" -j1 "$f" "$f" ::: "$b/foldmerge" -j2 "$f" "$f")
speedup "foldmerge self-merge of the unsorted $mb MB" "$1 $2" "$3 $4"

sorted=$BENCH_TMP/sorted.folded
"$b/foldmerge" "$f" > "$sorted"
cp "$sorted" "$BENCH_TMP/sorted2.folded"
t=$(best_time "$b/foldmerge" "$sorted" "$BENCH_TMP/sorted2.folded")
echo "two 200 MB sorted files: ${t}s ($(ratio "$t" "$base")x awk on one)"
verdict "foldmerge two 200 MB sorted files, peak MB" \
	"$(peak_mb "$b/foldmerge" "$sorted" "$BENCH_TMP/sorted2.folded")" 64

d=$BENCH_TMP/many
mkdir -p "$d"
head -n 100000 "$sorted" | awk -v dir="$d" '{ print > (dir "/p" (NR % 1000) ".folded") }'
verdict "foldmerge 1,000 small sorted files, peak MB" \
	"$(peak_mb "$b/foldmerge" "$d"/p*.folded)" 64

# -j: 500 sorted files (the 200 MB profile dealt out line by line), merged
# through groups of 128, each on its own, and a last merge of their
# results
d=$BENCH_TMP/five
mkdir -p "$d"
awk -v dir="$d" '{ print > (dir "/p" sprintf("%03d", NR % 500) ".folded") }' "$sorted"
mem=$(peak_mb "$b/foldmerge" -j1 "$d"/p*.folded)
mem2=$(peak_mb "$b/foldmerge" -j2 "$d"/p*.folded)
set -- $(best_times "$b/foldmerge" -j1 "$d"/p*.folded ::: \
    "$b/foldmerge" -j2 "$d"/p*.folded)
awk -v a="$mem" -v b="$mem2" 'BEGIN {
	printf "foldmerge 500 sorted files -j2: peak memory %.1f MB, %.2fx -j1 (target <= 2)\n", b, (a > 0 ? b / a : 0)
}'
speedup "foldmerge 500 sorted files" "$1 $2" "$3 $4"
