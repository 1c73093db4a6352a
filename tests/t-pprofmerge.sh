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

# -j: every golden gives the same bytes, messages and status with 1, 2
# and 7 jobs (decoding runs on the jobs' threads, merging in input order)
for c in "$top"/testdata/pprofmerge/*.cmd; do
	base=${c%.cmd}
	name=$(basename "$base")
	case $name in help|bad-option*|bad-usage*) continue ;; esac
	for j in 1 2 7; do
		sed "s/\\bpprofmerge\\b/pprofmerge -j$j/g" "$c" >"$tmp/cmd"
		(cd "$(dirname "$c")" && PATH="$b:$PATH" sh "$tmp/cmd") \
		    >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		want=0
		[ -e "$base.rc" ] && want=$(cat "$base.rc")
		if [ "$rc" = "$want" ] && cmp -s "$tmp/out" "$base.out" &&
		    { [ ! -e "$base.err" ] || cmp -s "$tmp/err" "$base.err"; }; then
			ok "pprofmerge -j$j: $name as its golden"
		else
			notok "pprofmerge -j$j: $name as its golden (status $rc)"
			excerpt "$tmp/err" 5
		fi
	done
done

# a fleet: 60 real profiles and a bad one among them, with every job
# count, to the byte and with the one message in its place
for i in $(seq 1 20); do
	cp "$top/bench/go-cpu.pb.gz" "$tmp/f$i-a.pb.gz"
	cp "$d/cpu.pb.gz" "$tmp/f$i-b.pb.gz"
	cp "$d/labels.pb.gz" "$tmp/f$i-c.pb.gz"
done
printf 'not a profile\n' >"$tmp/f10-d.pb.gz"
ls "$tmp"/f*.pb.gz >"$tmp/list"
"$b/pprofmerge" -j1 --files-from "$tmp/list" >"$tmp/want" 2>"$tmp/wanterr"
for j in 2 3 7 64; do
	"$b/pprofmerge" -j$j --files-from "$tmp/list" >"$tmp/got" 2>"$tmp/goterr"
	compare "pprofmerge -j$j: a fleet as with -j1" "$tmp/want" "$tmp/got"
	compare "pprofmerge -j$j: a fleet's messages as with -j1" \
	    "$tmp/wanterr" "$tmp/goterr"
done

# a merge of 2 MB, written in chunks compressed on the threads: the same
# bytes with every job count, one gzip member, read back whole by pprof
awk 'BEGIN { for (i = 1; i <= 40000; i++)
    print "main;svc" i % 97 ";handler" i ";leaf" i % 13, i }' |
	"$b/folded2pprof" >"$tmp/wide.pb.gz"
"$b/pprofmerge" -j1 "$tmp/wide.pb.gz" "$tmp/wide.pb.gz" >"$tmp/want"
# the bytes of the one member, -1 when there is more after it
member() {
	python3 -c 'import sys, zlib
d = zlib.decompressobj(31)
out = d.decompress(open(sys.argv[1], "rb").read())
print(len(out) if d.eof and not d.unused_data else -1)' "$1"
}
check "pprofmerge: a merge of several chunks is one gzip member" \
    test "$(member "$tmp/want")" -gt $((3 << 19))
for j in 2 3 7; do
	"$b/pprofmerge" -j$j "$tmp/wide.pb.gz" "$tmp/wide.pb.gz" >"$tmp/got"
	compare "pprofmerge -j$j: a merge of several chunks as with -j1" \
	    "$tmp/want" "$tmp/got"
done
go tool pprof -raw "$tmp/want" 2>&1 | sed '/^Locations/q' |
	grep -c '^ *[0-9]*: ' >"$tmp/n"
equal "pprofmerge: pprof reads every sample of a merge of several chunks" \
    "$(cat "$tmp/n")" 40000

# A string with a NUL byte in it is kept whole, as pprof keeps it: the
# merge reads as the profile does ("wo\0rk" and "wo", two frames).
nul() {
	pprof2folded "$d/bad/nulname.pb" >"$tmp/want" &&
	    "$b/pprofmerge" "$d/bad/nulname.pb" | pprof2folded >"$tmp/got" &&
	    [ "$(wc -l <"$tmp/got")" = 2 ] && cmp -s "$tmp/want" "$tmp/got"
}
check "pprofmerge: a string with a NUL byte is kept whole" nul

# A small gzip input comes whole and is checked only when something is
# wrong with it: every message is the one its bytes give uncompressed.
mkdir -p "$tmp/raw" "$tmp/gz"
for f in "$d"/bad/*.pb; do
	n=$(basename "$f")
	cp "$f" "$tmp/raw/$n"
	gzip -c "$f" >"$tmp/gz/$n"
done
same_message() { # name
	(cd "$tmp/raw" && "$b/pprofmerge" "$1" >/dev/null 2>"$tmp/want")
	(cd "$tmp/gz" && "$b/pprofmerge" "$1" >/dev/null 2>"$tmp/got")
	cmp -s "$tmp/want" "$tmp/got" ||
	    { diff "$tmp/want" "$tmp/got"; return 1; }
}
for f in "$tmp"/raw/*.pb; do
	n=$(basename "$f")
	check "pprofmerge: $n says the same gzipped" same_message "$n"
done

# A function is its name, system name, file name and start line: two of
# one name in different files, or at different lines, stay two, in one
# profile or across two; the same in another profile is one.
funcs() { # NAME FILE START ...: a profile of one sample a function
	PYTHONPATH=$top/bench python3 - "$@" <<'PY'
import sys
from pbwire import varint as v, field as f
a = sys.argv[1:]
strs = ["", "samples", "count"]
def s(x):
    if x not in strs: strs.append(x)
    return strs.index(x)
out = f(1, 2, f(1, 0, 1) + f(2, 0, 2))
for i in range(len(a) // 3):
    name, file, start = a[3 * i], a[3 * i + 1], int(a[3 * i + 2])
    out += f(2, 2, f(1, 2, v(i + 1)) + f(2, 2, v(1)))
    out += f(4, 2, f(1, 0, i + 1) + f(4, 2, f(1, 0, i + 1)))
    out += f(5, 2, f(1, 0, i + 1) + f(2, 0, s(name)) + f(3, 0, s(name))
             + f(4, 0, s(file)) + f(5, 0, start))
out += b"".join(f(6, 2, x.encode()) for x in strs)
sys.stdout.buffer.write(out)
PY
}
# the functions of the merge, "NAME FILE START" a line, as go tool pprof
# -raw would list them
merged_funcs() {
	PYTHONPATH=$top/bench python3 - "$1" <<'PY'
import sys, gzip
from pbwire import fields
d = gzip.open(sys.argv[1]).read()
strs = [x.decode() for n, _, x, _ in fields(d) if n == 6]
for n, _, x, _ in fields(d):
    if n == 5:
        g = {k: v for k, _, v, _ in fields(x)}
        print(strs[g.get(2, 0)], strs[g.get(4, 0)], g.get(5, 0))
PY
}
funcs work a.go 10 work b.go 10 work a.go 20 >"$tmp/f1.pb"
funcs work b.go 10 main a.go 1 work a.go 10 >"$tmp/f2.pb"
"$b/pprofmerge" "$tmp/f1.pb" "$tmp/f2.pb" >"$tmp/f.pb.gz"
merged_funcs "$tmp/f.pb.gz" >"$tmp/got"
printf '%s\n' "work a.go 10" "work b.go 10" "work a.go 20" "main a.go 1" \
    >"$tmp/want"
compare "pprofmerge: functions of one name in other files or lines" \
    "$tmp/want" "$tmp/got"
