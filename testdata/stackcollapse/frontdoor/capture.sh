#!/bin/sh
# Re-makes every file of this directory from scratch: inputs for the tests
# of stackcollapse's input-format detector. Run as root (for perf record),
# with node, go, perf, zip and gzip on PATH (Debian 12: golang-go,
# linux-perf, zip; node from nodejs). The programs (alloc.js, snap.js,
# goprof.go, beside this script) run in a scratch directory from mktemp -d
# that is renamed /opt/demo in the outputs, so that they name no local path.
# The captures differ from run to run (addresses, times, counts); the
# hand-written files and trace.zip come out byte for byte the same.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
parent=$(dirname "$work")
# the scratch directory, and its parent in the JSON strings of node's
# module look-ups (a package.json one level up, the directory itself)
clean() {
	sed -e "s|$work|/opt/demo|g" -e "s|\"$parent/|\"/opt/|g" \
	    -e "s|\"$parent\"|\"/opt\"|g"
}
cp alloc.js snap.js "$work/"
mkdir "$work/go"
cp goprof.go "$work/go/"

# heap.heapprofile: node --heap-prof (V8's sampling heap profiler, JSON
# {"head":{"callFrame":...,"selfSize":...},"samples":[...]}) of alloc.js,
# one sample per 64 KiB allocated; node names it Heap.DATE.TIME.PID...
(cd "$work" && env -i PATH="$PATH" HOME="$work" node --heap-prof \
    --heap-prof-dir=prof --heap-prof-interval=65536 alloc.js >/dev/null)
cat "$work"/prof/*.heapprofile | clean >heap.heapprofile

# snapshot-head.heapsnapshot: the first 4 KiB of a V8 heap snapshot of
# snap.js, written by node's require('v8').writeHeapSnapshot(file): a
# whole one holds node's heap (4 MB), and its first key names it
(cd "$work" && env -i PATH="$PATH" HOME="$work" node snap.js)
clean <"$work/snapshot.heapsnapshot" | head -c 4096 >snapshot-head.heapsnapshot

# mutex.txt, block.txt, heap.txt, goroutine.txt: Go's legacy text
# profiles, runtime/pprof's pprof.Lookup(NAME).WriteTo(f, 1), written by
# goprof.go built with go build -trimpath (frames read demo/goprof.go,
# runtime/proc.go)
printf 'module demo\n\ngo 1.19\n' >"$work/go/go.mod"
(cd "$work/go" && env HOME="$work" GOCACHE="$work/gocache" \
    GOPATH="$work/gopath" GOPROXY=off GOFLAGS= GO111MODULE=on \
    go build -trimpath -o goprof . && ./goprof)
for p in mutex block heap goroutine; do
	clean <"$work/go/$p.txt" >"$p.txt"
done

# perf.data: perf record -g of sleep 0.01, as root (perf's binary file:
# "PERFILE2", header, attributes, records, features). Kept whole when
# under 100 KiB; else only its first 4096 bytes, as perf-head.data.
(cd "$work" && env HOME="$work" perf record -g -o perf.data -- sleep 0.01)
rm -f perf.data perf-head.data
if [ "$(wc -c <"$work/perf.data")" -le 102400 ]; then
	cat "$work/perf.data" >perf.data
else
	head -c 4096 "$work/perf.data" >perf-head.data
fi

# trace.zip: a zip archive of one small text file, standing in for an
# Instruments .trace.zip; zip -X (no extra fields), a fixed mtime and
# mode and TZ=UTC0 make it the same on every run
mkdir "$work/Recording.trace"
printf '%s\n' 'Stand-in for an Instruments recording (Recording.trace).' \
    'Not a real trace: a test input for format detection.' \
    >"$work/Recording.trace/README.txt"
chmod 644 "$work/Recording.trace/README.txt"
TZ=UTC0 touch -t 202001010000.00 "$work/Recording.trace/README.txt"
(cd "$work" && TZ=UTC0 zip -q -X -D -9 trace.zip Recording.trace/README.txt)
cat "$work/trace.zip" >trace.zip

# safari-timeline.json: hand-written, not a capture. The structure of
# Safari Web Inspector's "Export" of a timeline recording (JSON.stringify
# with a 2-space indent): version, recording (records, markers, ...),
# overview. Times are in seconds.
cat >safari-timeline.json <<'EOF'
{
  "version": 1,
  "recording": {
    "displayName": "Timeline Recording 1",
    "startTime": 12.5,
    "endTime": 14.25,
    "discontinuities": [],
    "instrumentTypes": [
      "timeline-record-type-script"
    ],
    "records": [
      {
        "type": "timeline-record-type-script",
        "eventType": "script-evaluated",
        "startTime": 12.625,
        "endTime": 12.75
      }
    ],
    "markers": [],
    "memoryPressureEvents": [],
    "sampleStackTraces": [],
    "sampleDurations": []
  },
  "overview": {
    "secondsPerPixel": 0.01,
    "scrollStartTime": 0,
    "selectedTimeRange": {
      "startValue": 0,
      "endValue": 1
    }
  }
}
EOF

# old-layout.cpuprofile: hand-written, not a capture. The .cpuprofile
# layout of V8 and Chrome DevTools before 2016: a nested tree under
# "head" (each node with its own "children", "hitCount", "callUID", 1-based
# lines), "startTime"/"endTime" in seconds, "samples" (node ids) and
# "timestamps" in microseconds; on one line, as DevTools saved it.
# (root) > (program); main > handleRequest > parseBody, render;
# (garbage collector). 10 samples.
sed 's/^[[:space:]]*//' <<'EOF' | tr -d '\n' >old-layout.cpuprofile
{"head":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":0,"columnNumber":0,"hitCount":0,"callUID":1,"children":[
	{"functionName":"(program)","scriptId":"0","url":"","lineNumber":0,"columnNumber":0,"hitCount":1,"callUID":2,"children":[],"deoptReason":"","id":2,"positionTicks":[]},
	{"functionName":"main","scriptId":"42","url":"/app/server.js","lineNumber":40,"columnNumber":1,"hitCount":1,"callUID":3,"children":[
		{"functionName":"handleRequest","scriptId":"42","url":"/app/server.js","lineNumber":18,"columnNumber":23,"hitCount":1,"callUID":4,"children":[
			{"functionName":"parseBody","scriptId":"42","url":"/app/server.js","lineNumber":5,"columnNumber":19,"hitCount":4,"callUID":5,"children":[],"deoptReason":"","id":5,"positionTicks":[{"line":7,"ticks":3},{"line":9,"ticks":1}]},
			{"functionName":"render","scriptId":"42","url":"/app/server.js","lineNumber":30,"columnNumber":16,"hitCount":2,"callUID":6,"children":[],"deoptReason":"","id":6,"positionTicks":[{"line":32,"ticks":2}]}
		],"deoptReason":"","id":4,"positionTicks":[{"line":20,"ticks":1}]}
	],"deoptReason":"","id":3,"positionTicks":[{"line":44,"ticks":1}]},
	{"functionName":"(garbage collector)","scriptId":"0","url":"","lineNumber":0,"columnNumber":0,"hitCount":1,"callUID":7,"children":[],"deoptReason":"","id":7,"positionTicks":[]}
],"deoptReason":"","id":1,"positionTicks":[]},
"startTime":1000.5,"endTime":1001.5,
"samples":[5,5,6,4,2,5,6,7,3,5],
"timestamps":[1000510000,1000610000,1000710000,1000810000,1000910000,1001010000,1001110000,1001210000,1001310000,1001410000]}
EOF
