#!/usr/bin/env bash
# pprofmerge against foldmerge of the parts and against go tool pprof's own
# merge (when Go is installed). usage: t-pprofmerge.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/pprof2folded

# sets of profiles with the same sample types: each alone, twice, and
# merged with the others of its kind
sets="cpu.pb.gz
cpu.pb.gz cpu.pb.gz
cpu.pb.gz labels.pb.gz
cpu.pb.gz labels.pb.gz merged.pb.gz cpu.pb
heap.pb.gz heap.pb.gz
mutex.pb.gz block.pb.gz
goroutine.pb.gz
node-wall.pb.gz node-wall.pb.gz
node-heap.pb.gz"

# Read back, every sample type equals foldmerge of the parts.
parts() { # profiles...
	local i=0 t f
	(cd "$d" && pprofmerge "$@") >"$tmp/m.pb.gz" || return 1
	pprof2folded --list "$tmp/m.pb.gz" | while read -r t _; do
		pprof2folded --sample-index $i "$tmp/m.pb.gz" |
		    awk '$NF != 0' >"$tmp/ours"
		for f in "$@"; do
			pprof2folded --sample-index $i "$d/$f" >"$tmp/p.$f" ||
			    return 1
		done
		(cd "$tmp" && for f in "$@"; do cat "p.$f"; done) |
		    foldmerge | awk '$NF != 0' >"$tmp/theirs"
		diff -u "$tmp/theirs" "$tmp/ours" || { echo "index $i ($t)"; return 1; }
		i=$((i + 1))
	done
}
while read -r set; do
	# shellcheck disable=SC2086
	check "pprofmerge: $set equals foldmerge of the parts" parts $set
done <<<"$sets"

plain_only "comparisons with go tool pprof run in the plain build only"
need go golang-go
export GOCACHE="$tmp/gocache" HOME="$tmp"

# go tool pprof -raw of our merge and of pprof's own: the same samples,
# locations, mappings and header (the ids too)
raw() { # profiles... (in $d, or in $dir when set)
	(cd "${dir:-$d}" && pprofmerge "$@") >"$tmp/ours.pb.gz" &&
	(cd "${dir:-$d}" && go tool pprof -proto "$@" 2>/dev/null) >"$tmp/go.pb.gz" &&
	go tool pprof -raw "$tmp/ours.pb.gz" >"$tmp/ours.raw" 2>&1 &&
	go tool pprof -raw "$tmp/go.pb.gz" >"$tmp/go.raw" 2>&1 &&
	diff -u "$tmp/go.raw" "$tmp/ours.raw"
}
while read -r set; do
	# shellcheck disable=SC2086
	check "pprofmerge: $set as go tool pprof -proto merges it" raw $set
done <<<"$sets"

# delta profiles (go tool pprof -proto -diff_base and -base, see
# testdata/pprof2folded/delta.sh): negative values kept and summed
# exactly, and a delta merged with its base gives back the profile after
deltas="delta.pb.gz
delta-base.pb.gz
delta.pb.gz delta.pb.gz
delta.pb.gz delta-base.pb.gz
delta-base.pb.gz delta-a.pb.gz"
while read -r set; do
	# shellcheck disable=SC2086
	check "pprofmerge: $set as go tool pprof -proto merges it" raw $set
done <<<"$deltas"

# two programs' profiles: their functions and locations are told apart,
# and each program's merged as one (a function's key once held struct
# padding, so that on a fleet some builds left functions unmerged;
# bench/fleet.sh compares 1,000 profiles the same way)
mkdir "$tmp/two"
cp "$d/cpu.pb.gz" "$d/labels.pb.gz" "$top/bench/go-cpu.pb.gz" "$tmp/two/"
dir=$tmp/two check "pprofmerge: two programs' profiles as go tool pprof -proto merges them" \
    raw go-cpu.pb.gz cpu.pb.gz go-cpu.pb.gz labels.pb.gz
