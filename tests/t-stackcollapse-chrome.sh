#!/usr/bin/env bash
# stackcollapse-chrome beyond golden files: every capture against an
# independent reading of the format (tests/chrome_oracle.py), and the
# conservation of counts: samples by default, the span from the earliest
# sample to endTime with --time.
b=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=testdata/stackcollapse-chrome
export LC_ALL=C
check() { if [ "$2" = 0 ]; then echo "ok $1"; else echo "FAIL $1"; fi; }
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$@"; }

gzip -dc $d/closures.cpuprofile.gz > "$tmp/closures.cpuprofile"
for f in $d/cpu.cpuprofile $d/async.cpuprofile "$tmp/closures.cpuprofile" \
    $d/devtools.json $d/time.cpuprofile $d/huge-ok.cpuprofile; do
	n=$(basename "$f")
	for o in "" --time; do
		python3 tests/chrome_oracle.py $o "$f" | sort > "$tmp/want"
		"$b/stackcollapse-chrome" $o "$f" > "$tmp/got"
		cmp -s "$tmp/want" "$tmp/got"
		check "stackcollapse-chrome: $n ${o:-samples} as the format says" $?
	done
	# conservation, from the JSON itself
	read -r samples span <<<"$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
while "nodes" not in p:
    p = p.get("result", p).get("profile", p)
t, ts = p.get("startTime", 0), []
for x in p["timeDeltas"]:
    t += x
    ts.append(t)
print(len(p["samples"]), max(p.get("endTime", max(ts)), max(ts)) - min(ts))' "$f")"
	[ "$("$b/stackcollapse-chrome" "$f" | total)" = "$samples" ]
	check "stackcollapse-chrome: $n: total is the number of samples ($samples)" $?
	[ "$("$b/stackcollapse-chrome" --time "$f" | python3 -c '
import sys; print(sum(int(l.rsplit(None, 1)[1]) for l in sys.stdin))')" = "$span" ]
	check "stackcollapse-chrome: $n: --time total is the sampled span ($span us)" $?
done
