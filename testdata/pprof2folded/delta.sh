#!/bin/sh
# Re-makes the delta profiles of this directory (run it here, on Debian
# with golang-go installed): two CPU profiles of delta/main.go, a.pb.gz
# (before) and b.pb.gz (after), and what pprof makes of them:
#
#   delta.pb.gz       go tool pprof -proto -diff_base=a.pb.gz b.pb.gz:
#                     a's samples negated and labelled pprof::base=true,
#                     b's as they are (what a differential view reads)
#   delta-base.pb.gz  go tool pprof -proto -base=a.pb.gz b.pb.gz: a
#                     subtracted from b, stack by stack (as Parca writes
#                     its deltas), so the values are net and some negative
#
# The generator is built with -trimpath in /opt/pprofgen so that the
# profiles name no directory of the machine that made them.
set -eu
export GOCACHE="${GOCACHE:-$(mktemp -d)}" GOFLAGS=-trimpath
bin=/opt/pprofgen/pprofdelta
mkdir -p "$(dirname "$bin")"
(cd delta && go build -o "$bin" .)
"$bin"
mv a.pb.gz delta-a.pb.gz
mv b.pb.gz delta-b.pb.gz
go tool pprof -proto -diff_base=delta-a.pb.gz delta-b.pb.gz \
    >delta.pb.gz 2>/dev/null
go tool pprof -proto -base=delta-a.pb.gz delta-b.pb.gz \
    >delta-base.pb.gz 2>/dev/null
