#!/bin/sh
# Re-makes the *-exported.speedscope.json files of this directory: the real
# speedscope app (npm speedscope 1.25.0) in headless Chromium imports a
# capture of this project's testdata, and its Export button writes the
# file (tests/speedscope-load.sh --export; it also prints the totals the
# README gives). Speedscope exports every profile as "evented", whatever it
# imported:
#   cpu-exported     node --cpu-prof capture (Chrome .cpuprofile)
#   perf-exported    `perf script` text of a 3-thread C++ program (gzipped)
#   folded-exported  folded stacks (the collapsed-stack text format)
set -eu
cd "$(dirname "$0")"
load=../../tests/speedscope-load.sh
"$load" --export cpu-exported.speedscope.json \
	../stackcollapse-chrome/cpu.cpuprofile
"$load" --export perf-exported.speedscope.json \
	../stackcollapse-perf/captures/cpp-default.perf.gz
"$load" --export folded-exported.speedscope.json ../foldtop/capture.folded
