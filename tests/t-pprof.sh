#!/usr/bin/env bash
# pprof2folded and folded2pprof against each other and against pprof
# itself (go tool pprof, when Go is installed). usage: t-pprof.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/pprof2folded

profiles="cpu.pb.gz cpu.pb labels.pb.gz merged.pb.gz heap.pb.gz mutex.pb.gz
block.pb.gz goroutine.pb.gz node-wall.pb.gz node-heap.pb.gz"

# Our output is sorted exactly as libfold sorts (foldmerge re-sorts it).
sorted() {
	pprof2folded "$d/$1" >"$tmp/a" && foldmerge "$tmp/a" >"$tmp/b" &&
	    cmp "$tmp/a" "$tmp/b"
}
# Folded -> pprof -> folded gives back the identical file.
roundtrip() {
	pprof2folded --lines --filenames --tag-root endpoint "$d/$1" >"$tmp/a" &&
	    folded2pprof "$tmp/a" >"$tmp/p" && pprof2folded "$tmp/p" >"$tmp/c" &&
	    cmp "$tmp/a" "$tmp/c"
}
for p in $profiles; do
	# (foldmerge is another tool's: its own sanitizer run checks it)
	sanitized || check "pprof: $p sorted like libfold" sorted "$p"
	check "pprof: $p folded -> pprof -> folded" roundtrip "$p"
done

# Names that are prefixes of others, with bytes below and above ';':
# the order of our output is still libfold's.
tricky() {
	python3 - >"$tmp/t.folded" <<'EOF' || return 1
import random
rng = random.Random(3)
alpha = ["a", "b", "0", "1", " ", ":", "~", "\t", "ab", "a0", "\u00e9"]
names = sorted({"".join(rng.choice(alpha) for _ in range(rng.randint(1, 3)))
                for _ in range(40)})
names = [n for n in names if n.strip() == n]
seen = set()
for _ in range(3000):
    st = ";".join(rng.choice(names) for _ in range(rng.randint(1, 5)))
    if st not in seen:
        seen.add(st)
        print("%s %d" % (st, rng.randint(0, 9)))
EOF
	folded2pprof "$tmp/t.folded" >"$tmp/t.pb.gz" &&
	    pprof2folded "$tmp/t.pb.gz" >"$tmp/a" &&
	    foldmerge "$tmp/t.folded" >"$tmp/b" && cmp "$tmp/a" "$tmp/b"
}
sanitized || check "pprof: tricky names sorted like libfold" tricky

# Several profiles merge like pprof's own merge.
merge() {
	pprof2folded "$d/cpu.pb.gz" "$d/labels.pb.gz" >"$tmp/a" &&
	    pprof2folded "$d/merged.pb.gz" >"$tmp/b" && cmp "$tmp/a" "$tmp/b"
}
check "pprof: two profiles merge as go tool pprof -proto merges them" merge

# The same stacks in any line order give the same bytes.
determinism() {
	sort -r "$top/testdata/folded2pprof/in.folded" >"$tmp/r"
	folded2pprof "$top/testdata/folded2pprof/in.folded" >"$tmp/p1" &&
	    folded2pprof "$tmp/r" >"$tmp/p2" && cmp "$tmp/p1" "$tmp/p2"
}
check "folded2pprof: output depends on the stacks only" determinism

# A bad profile adds nothing; the others are written, status 1.
apart() {
	pprof2folded "$d/cpu.pb.gz" >"$tmp/want" &&
	! pprof2folded "$d/cpu.pb.gz" "$d/bad/noloc.pb" >"$tmp/o" 2>/dev/null &&
	    cmp -s "$tmp/want" "$tmp/o"
}
check "pprof2folded: a bad profile adds nothing to the others" apart

# A small gzip profile is inflated whole and checked by the reader as it
# goes (the check of its fields only where the reader has not framed
# them): each bad profile says the same, with the same status and output,
# read plain (checked as it comes) and gzipped, alone and between good ones.
same_gzipped() {
	local b=$1 o
	gzip -c "$d/bad/$b.pb" >"$tmp/$b.pb.gz"
	for o in "" --files-from; do
		if [ -n "$o" ]; then
			printf '%s\n' "$d/cpu.pb.gz" "$d/bad/$b.pb" "$d/cpu.pb.gz" \
			    >"$tmp/l1"
			printf '%s\n' "$d/cpu.pb.gz" "$tmp/$b.pb.gz" "$d/cpu.pb.gz" \
			    >"$tmp/l2"
			set -- --files-from "$tmp/l1" ::: --files-from "$tmp/l2"
		else
			set -- "$d/bad/$b.pb" ::: "$tmp/$b.pb.gz"
		fi
		pprof2folded "${@:1:$(($# / 2))}" >"$tmp/o1" 2>"$tmp/e1"
		echo "rc $?" >>"$tmp/o1"
		shift $(($# / 2 + 1))
		pprof2folded "$@" >"$tmp/o2" 2>"$tmp/e2"
		echo "rc $?" >>"$tmp/o2"
		sed "s|$tmp/$b.pb.gz|$d/bad/$b.pb|" "$tmp/e2" >"$tmp/e3"
		cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/e1" "$tmp/e3" ||
			return 1
	done
}
for f in "$d"/bad/*.pb; do
	b=$(basename "$f" .pb)
	check "pprof2folded: bad/$b.pb says the same gzipped" same_gzipped "$b"
done

# Decompression bombs stop at the cap with bounded memory.
bomb() {
	! bounded 400000 pprof2folded --max-size 1M "$d/bad/bomb.pb.gz" \
	    2>"$tmp/e" && grep -q 'limit of 1048576 bytes' "$tmp/e"
}
sanitized || check "pprof2folded: decompression bomb capped" bomb

# An input that is no profile fails at its first bytes, with little
# memory, not after reading up to the 2 GiB cap.
zero() { # tool
	! bounded 200000 timeout 10 "$1" /dev/zero 2>"$tmp/e" &&
	    grep -q '/dev/zero: not a pprof profile: field number 0 at byte 0' "$tmp/e"
}
check "pprof2folded: /dev/zero refused at its first byte" zero pprof2folded
check "pprofmerge: /dev/zero refused at its first byte" zero pprofmerge

# Random bytes whose first byte begins a field of a Profile: the rest of
# the head does not frame, so none is read up to the cap.
random_heads() {
	python3 - "$tmp" <<'EOF' || return 1
import random, sys
rng = random.Random(7)
for i in range(100):
    b = bytearray(rng.getrandbits(8) for _ in range(1 << 16)) * 24
    b[0] = rng.choice([0x0a, 0x12, 0x1a, 0x22, 0x2a, 0x32, 0x38, 0x5a, 0x60])
    open("%s/r%03d.pb" % (sys.argv[1], i), "wb").write(b)
EOF
	local f rc
	for f in "$tmp"/r*.pb; do
		pprof2folded --max-size 1M "$f" >/dev/null 2>"$tmp/e"
		rc=$?
		[ $rc = 1 ] || { echo "$f: status $rc"; return 1; }
		if grep -q 'larger than the limit' "$tmp/e"; then
			echo "$f: read to the cap"; return 1
		fi
	done
}
check "pprof2folded: 100 random inputs refused before the cap" random_heads

# A profile of megabytes of samples, each with a label: pass 2 gives back
# the pages of the samples it has read when they are all the fields there,
# and not when the strings the labels name come between them. Either way
# the stacks are the ones written.
released() {
	PYTHONPATH=$top/bench python3 - "$tmp" <<'EOF' || return 1
import random, sys
from pbwire import varint, msg as field, num
rng = random.Random(11)
funcs = ["fn%03d" % i for i in range(300)]
ends = ["/api/%d" % i for i in range(7)]
strs = ["", "samples", "count", "endpoint"] + funcs + ends
ix = {s: i for i, s in enumerate(strs)}
head = field(1, num(1, ix["samples"]) + num(2, ix["count"]))
tables = b""
for i, f in enumerate(funcs):
    tables += field(5, num(1, i + 1) + num(2, ix[f]))
    tables += field(4, num(1, i + 1) + field(4, num(1, i + 1)))
samples, want = [], {}
for _ in range(80000):
    st = [rng.randrange(300) + 1 for _ in range(rng.randint(5, 25))]
    e = rng.choice(ends)
    v = rng.randint(1, 9)
    body = field(1, b"".join(varint(x) for x in st)) + field(2, varint(v))
    body += field(3, num(1, ix["endpoint"]) + num(2, ix[e]))
    samples.append(field(2, body))
    k = ";".join(["endpoint=" + e] + [funcs[x - 1] for x in reversed(st)])
    want[k] = want.get(k, 0) + v
strtab = b"".join(field(6, s.encode()) for s in strs)
half = len(samples) // 2
open(sys.argv[1] + "/pure.pb", "wb").write(
    head + b"".join(samples) + tables + strtab)
# the same samples of another type: a fleet's commit reads it again
strs[1] = "alloc"
open(sys.argv[1] + "/other.pb", "wb").write(
    head + b"".join(samples) + tables +
    b"".join(field(6, s.encode()) for s in strs))
open(sys.argv[1] + "/mixed.pb", "wb").write(
    head + b"".join(samples[:half]) + tables + strtab +
    b"".join(samples[half:]))
with open(sys.argv[1] + "/want", "w") as o:
    for k in sorted(want, key=lambda k: k.encode()):
        o.write("%s %d\n" % (k, want[k]))
with open(sys.argv[1] + "/want2", "w") as o:
    for k in sorted(want, key=lambda k: k.encode()):
        o.write("%s %d\n" % (k, 2 * want[k]))
EOF
	[ "$(wc -c <"$tmp/pure.pb")" -gt 3000000 ] &&
	    pprof2folded --tag-root endpoint "$tmp/pure.pb" >"$tmp/a" &&
	    cmp "$tmp/a" "$tmp/want" &&
	    pprof2folded --tag-root endpoint "$tmp/mixed.pb" >"$tmp/b" &&
	    cmp "$tmp/b" "$tmp/want" &&
	    printf '%s\n' "$tmp/pure.pb" "$tmp/mixed.pb" >"$tmp/list" &&
	    pprof2folded --tag-root endpoint -j2 --files-from "$tmp/list" \
		>"$tmp/c" && cmp "$tmp/c" "$tmp/want2" &&
	    printf '%s\n' "$tmp/pure.pb" "$tmp/other.pb" >"$tmp/list" &&
	    pprof2folded -j2 --files-from "$tmp/list" >"$tmp/d" 2>"$tmp/de"
	[ $? -le 1 ] &&
	    pprof2folded "$tmp/pure.pb" "$tmp/other.pb" >"$tmp/e" 2>"$tmp/ee"
	[ $? -le 1 ] && cmp "$tmp/d" "$tmp/e" && cmp "$tmp/de" "$tmp/ee"
}
check "pprof2folded: samples given back as read, strings kept" released

# Random damage to a real profile: an error or output, never a crash.
fuzz() {
	python3 - "$d/cpu.pb" "$tmp" <<'EOF' || return 1
import random, sys
src = open(sys.argv[1], "rb").read()
rng = random.Random(5)
for i in range(200):
    b = bytearray(src)
    for _ in range(rng.randint(1, 8)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    if i % 4 == 0:
        b = b[:rng.randrange(len(b))]
    open("%s/f%03d.pb" % (sys.argv[2], i), "wb").write(b)
EOF
	local f rc
	for f in "$tmp"/f*.pb; do
		pprof2folded "$f" >/dev/null 2>"$tmp/e"
		rc=$?
		if [ $rc -gt 1 ] || crashed $rc "$tmp/e"; then
			echo "$f: status $rc"; cat "$tmp/e"; return 1
		fi
	done
}
check "pprof2folded: 200 damaged profiles, no crash" fuzz

# Against pprof itself.
plain_only "comparisons with go tool pprof run in the plain build only"
need go golang-go
export GOCACHE="$tmp/gocache" HOME="$tmp"

# go tool pprof -traces as folded stacks (zero stacks left out: pprof
# drops samples whose values are all zero).
traces() { # profile index unit
	go tool pprof -traces -sample_index="$2" ${3:+-unit=$3} "$1" 2>/dev/null |
	awk '
	/^-----------\+/ { flush(); inb = 1; next }
	!inb { next }
	{
		s = $0; sub(/^ +/, "", s)
		if (s ~ /^[^ ]+:  /) next		# a label line
		if (n == 0) {
			v = s; sub(/   .*/, "", v); neg = sub(/^-/, "", v)
			sub(/[^0-9].*/, "", v); if (neg) v = -v
			sub(/^[^ ]+   /, "", s)
		}
		sub(/ \(inline\)$/, "", s)
		f[n++] = s
	}
	function flush(   k, i) {
		if (n == 0) return
		k = f[n - 1]
		for (i = n - 2; i >= 0; i--) k = k ";" f[i]
		sum[k] += v; n = 0
	}
	END { for (k in sum) if (sum[k] != 0) printf "%s %.0f\n", k, sum[k] }' |
	sort
}
unit_of() {
	case $1 in
	*/nanoseconds) echo ns ;;
	*/bytes) echo B ;;
	esac
}
# Each stack as go tool pprof -traces sums it; with --differential (a
# delta profile), its net value (after less before).
against() { # profile [--differential]
	local p=$1 diff=${2:-} i=0 t
	pprof2folded --list "$d/$p" | while read -r t _; do
		pprof2folded $diff --sample-index $i "$d/$p" | if [ -n "$diff" ]; then
			awk '{ n = $NF - $(NF - 1); s = $0; sub(/ [0-9]+ [0-9]+$/, "", s)
				if (n != 0) printf "%s %.0f\n", s, n }'
		else
			awk '$NF != 0'
		fi | sort >"$tmp/ours"
		traces "$d/$p" $i "$(unit_of "$t")" >"$tmp/theirs"
		if ! cmp -s "$tmp/ours" "$tmp/theirs"; then
			echo "sample index $i ($t):"
			diff -u "$tmp/theirs" "$tmp/ours" | head -n 20
			return 1
		fi
		i=$((i + 1))
	done
}
for p in $profiles; do
	check "pprof: $p agrees with go tool pprof -traces" against "$p"
done

# Delta profiles: each stack's net value is pprof's sum of its samples,
# and the total its "accounting for".
delta_total() { # profile
	local ours theirs
	ours=$(pprof2folded --differential "$d/$1" |
	    awk '{ b += $(NF - 1); a += $NF } END { printf "%.0f\n", a - b }')
	theirs=$(go tool pprof -top -unit=ns -nodecount=1000000 "$d/$1" \
	    2>/dev/null | sed -n 's/.*accounting for \(-*[0-9]*\)ns,.*/\1/p')
	[ -n "$theirs" ] && [ "$ours" = "$theirs" ] ||
	    { echo "ours $ours, go tool pprof $theirs"; return 1; }
}
for p in delta.pb.gz delta-base.pb.gz; do
	check "pprof: $p agrees with go tool pprof -traces" against "$p" --differential
	check "pprof: $p total is go tool pprof -top's" delta_total "$p"
done

# What folded2pprof writes, pprof reads: same stacks, same total.
ours_in_pprof() {
	folded2pprof --sample-type cpu/nanoseconds --period 10000000 \
	    "$top/testdata/folded2pprof/in.folded" >"$tmp/p" &&
	go tool pprof -raw "$tmp/p" >/dev/null 2>&1 &&
	traces "$tmp/p" 0 ns >"$tmp/theirs" &&
	foldmerge "$top/testdata/folded2pprof/in.folded" | awk '$NF != 0' |
	    sort >"$tmp/ours" &&
	diff -u "$tmp/theirs" "$tmp/ours" &&
	total=$(go tool pprof -top -unit=ns "$tmp/p" 2>/dev/null |
	    sed -n 's/.* of \([0-9]*\)ns total.*/\1/p') &&
	[ "$total" = "$(awk '{s += $NF} END {print s}' "$tmp/ours")" ]
}
check "folded2pprof: go tool pprof -raw, -traces and -top read it" ours_in_pprof

# A gzip profile of more than the first read (64 KiB compressed) is
# inflated whole once its reader takes it whole, after the format's check
# has peeked at it: the same stacks as from a pipe (zlib's stream) and as
# decompressed. Two gzip members, which libdeflate does not take, and a
# truncated file are streamed as from a pipe, with the same message.
large_gzip() {
	python3 "$top/bench/gen_folded.py" 3000 >"$tmp/l.folded" &&
	    folded2pprof "$tmp/l.folded" >"$tmp/l.pb.gz" &&
	    [ "$(wc -c <"$tmp/l.pb.gz")" -gt 100000 ] &&
	    pprof2folded "$tmp/l.pb.gz" >"$tmp/a" &&
	    pprof2folded <"$tmp/l.pb.gz" >"$tmp/b" && cmp "$tmp/a" "$tmp/b" &&
	    gzip -dc "$tmp/l.pb.gz" >"$tmp/l.pb" &&
	    pprof2folded "$tmp/l.pb" >"$tmp/b" && cmp "$tmp/a" "$tmp/b" &&
	    pprofmerge "$tmp/l.pb.gz" >"$tmp/m1" &&
	    pprofmerge <"$tmp/l.pb.gz" >"$tmp/m2" && cmp "$tmp/m1" "$tmp/m2" &&
	    { head -c 100000 "$tmp/l.pb" | gzip -1 &&
	    tail -c +100001 "$tmp/l.pb" | gzip -1; } >"$tmp/two.pb.gz" &&
	    pprof2folded "$tmp/two.pb.gz" >"$tmp/b" && cmp "$tmp/a" "$tmp/b" &&
	    head -c 120000 "$tmp/l.pb.gz" >"$tmp/cut.pb.gz" || return 1
	pprof2folded "$tmp/cut.pb.gz" >/dev/null 2>"$tmp/e1"
	r1=$?
	pprof2folded <"$tmp/cut.pb.gz" >/dev/null 2>"$tmp/e2"
	r2=$?
	[ "$r1" != 0 ] && [ "$r1" = "$r2" ] && [ -s "$tmp/e2" ] &&
	    sed "s|$tmp/cut.pb.gz|<stdin>|" "$tmp/e1" | cmp - "$tmp/e2"
}
check "pprof: a large gzip profile read whole, as from a pipe" large_gzip

period() {
	folded2pprof --period 5 --period-type wall/seconds \
	    "$top/testdata/folded2pprof/in.folded" >"$tmp/p" &&
	go tool pprof -raw "$tmp/p" 2>/dev/null | head -n 2 >"$tmp/raw" &&
	printf 'PeriodType: wall seconds\nPeriod: 5\n' | diff -u - "$tmp/raw"
}
check "folded2pprof: --period and --period-type as pprof reads them" period
