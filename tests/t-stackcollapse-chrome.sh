#!/usr/bin/env bash
# stackcollapse-chrome beyond golden files: every capture against an
# independent reading of the format (tests/chrome_oracle.py), and the
# conservation of counts: samples by default, the span from the earliest
# sample to endTime with --time.
# usage: tests/t-stackcollapse-chrome.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/stackcollapse-chrome

gzip -dc $d/closures.cpuprofile.gz > "$tmp/closures.cpuprofile"
for f in $d/cpu.cpuprofile $d/async.cpuprofile "$tmp/closures.cpuprofile" \
    $d/devtools.json $d/time.cpuprofile $d/huge-ok.cpuprofile; do
	n=$(basename "$f")
	for o in "" --time; do
		python3 "$top/tests/chrome_oracle.py" $o "$f" | sort > "$tmp/want"
		"$b/stackcollapse-chrome" $o "$f" > "$tmp/got"
		compare "stackcollapse-chrome: $n ${o:-samples} as the format says" \
		    "$tmp/want" "$tmp/got"
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
	verdict "stackcollapse-chrome: $n: total is the number of samples ($samples)" $?
	[ "$("$b/stackcollapse-chrome" --time "$f" | python3 -c '
import sys; print(sum(int(l.rsplit(None, 1)[1]) for l in sys.stdin))')" = "$span" ]
	verdict "stackcollapse-chrome: $n: --time total is the sampled span ($span us)" $?
done

# An input that is no JSON object fails at its first byte, with little
# memory, not after reading up to the cap.
zero() {
	! bounded 300000 timeout 10 "$b/stackcollapse-chrome" /dev/zero 2>"$tmp/e" &&
	    grep -q '^stackcollapse-chrome: /dev/zero:1: not a .cpuprofile: a JSON object expected$' "$tmp/e"
}
zero
verdict "stackcollapse-chrome: /dev/zero refused at its first byte" $?

# A .cpuprofile of endless nodes stops at --max-size with a message (the
# default, 2 GiB, the same way: bench sizes are far below it).
endless() {
	python3 -c '
import sys
w = sys.stdout.write
try:
    w("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]}")
    i = 2
    while True:
        w(",{\"id\":%d,\"callFrame\":{\"functionName\":\"f%d\",\"url\":\"app.js\",\"lineNumber\":%d},\"hitCount\":1,\"children\":[%d]}" % (i, i, i, i + 1))
        i += 1
except (BrokenPipeError, OSError):
    sys.stderr.close()
' | timeout 20 "$b/stackcollapse-chrome" --max-size 8M >/dev/null 2>"$tmp/e"
	[ "${PIPESTATUS[1]}" = 1 ] &&
	    grep -q '^stackcollapse-chrome: <stdin>: input larger than the limit of 8388608 bytes$' "$tmp/e"
}
endless
verdict "stackcollapse-chrome: endless nodes stop at --max-size" $?
