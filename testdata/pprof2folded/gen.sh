#!/bin/sh
# Re-makes the real profiles of this directory (run it here, on Debian
# with golang-go and nodejs installed; it writes the *.pb* files).
#
# The generators are built (Go with -trimpath) and run in /opt/pprofgen
# so that the profiles name no directory of the machine that made them.
set -eu
export GOCACHE="${GOCACHE:-$(mktemp -d)}" GOFLAGS=-trimpath
bin=/opt/pprofgen/pprofgen
mkdir -p "$(dirname "$bin")"
(cd gen && go build -o "$bin" .)
"$bin"

# two CPU profiles merged by pprof itself
go tool pprof -proto cpu.pb.gz labels.pb.gz >merged.pb.gz 2>/dev/null

# a non-Go producer: Node's @datadog/pprof (wall time and heap)
if [ "${NODE:-1}" = 1 ]; then
	d=/opt/pprofgen/node
	mkdir -p "$d"
	cp node/gen.js "$d/"
	(cd "$d" && npm init -y >/dev/null && npm install @datadog/pprof@5 \
	    >/dev/null 2>&1 && node gen.js)
	cp "$d"/node-wall.pb.gz "$d"/node-heap.pb.gz .
fi
