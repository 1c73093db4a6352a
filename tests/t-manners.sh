#!/usr/bin/env bash
# Pipeline manners shared by every tool (cmd/util.c): a reader that goes
# away ends a tool silently, as it ends cat; --help into a full disk is an
# error; descriptors 0-2 closed at start never receive output meant for
# another file; a file list is bounded and read once.
# usage: tests/t-manners.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="manners: "
cd "$tmp" || exit 2

tools=$(cd "$b" && for x in *; do [ -f "$x" ] && [ -x "$x" ] && echo "$x"; done)

# No tool starts with libxml2 (and its ICU and C++ runtime) loaded:
# formats/xmllib.c loads it when XML is first read or written. Then the
# tools that read or write XML still do.
for t in $tools; do
	check "$t does not load libxml2 at start" \
	    sh -c '! ldd "$0" | grep -q "libxml2"' "$b/$t"
done

# A converter loads the libraries of its own format alone: the other
# formats' ids and detectors, which its messages use, live apart from
# their readers (formats/detect.c)
check "stackcollapse-perf loads no JSON, regex or protobuf library" \
    sh -c '! ldd "$0" | grep -Eq "libyajl|libpcre2|libprotobuf-c"' \
    "$b/stackcollapse-perf"
check "pprof2folded loads no JSON library" \
    sh -c '! ldd "$0" | grep -q libyajl' "$b/pprof2folded"

# --help into a full disk: a message, and the status of any failure
# (folddiff's is 2: its 1 means the profiles differ)
for t in $tools; do
	want=1
	[ "$t" = folddiff ] && want=2
	expect "$t --help >/dev/full fails" $want "^$t: <stdout>: write error: No space left" \
	    sh -c '"$0" --help >/dev/full' "$t"
done

# A reader that goes away (head -c 0 exits at once; every output below
# is larger than a pipe holds): the tool ends by SIGPIPE, as cat does,
# with nothing on standard error.
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "main;f%06d;g %d\n", i, i % 7 + 1 }' >big.folded
folded2pprof big.folded >big.pb.gz
flamegraph-svg --minwidth 0 big.folded | head -c 3000000 >/dev/null
cap=$top/bench/perf-big.txt.gz
pipes="stackcollapse-perf $cap
stackcollapse big.folded
foldmerge big.folded
foldfilter --ignore x big.folded
folddiff big.folded big.folded
flamegraph-svg big.folded
folded2pprof big.folded
pprof2folded big.pb.gz
pprofmerge big.pb.gz
foldtop --top 100000 big.folded"
while read -r cmd; do
	# shellcheck disable=SC2086
	$cmd 2>err | head -c 0
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 141 ] && [ ! -s err ]; then
		ok "$cmd | head -c 0: ends silently by SIGPIPE"
	else
		notok "$cmd | head -c 0: status $rc, expected 141 and no message"
		excerpt err 3
	fi
done <<EOF
$pipes
EOF
# a closed pipe on standard error is no reason to stop: the output is whole
foldmerge big.folded 2> >(exec true) >/dev/null
check "a closed standard error does not end the run" [ $? = 0 ]

# closed descriptors at start: output to a closed standard output fails
# as it would have, even when the tool opens files (here, 300 sorted
# inputs merged through temporary files) that would have taken fd 1
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;f%05d 1\n", i }' >whole
awk '{ print > ("part" (NR % 300) ".folded") }' whole
sum=$(cat part*.folded | cksum)
foldmerge part*.folded >&- 2>err
rc=$?
check "foldmerge with standard output closed: status 1" [ "$rc" = 1 ]
check "foldmerge with standard output closed: says so" \
    grep -q '<stdout>: write error: Bad file descriptor' err
check "foldmerge with standard output closed: inputs untouched" \
    [ "$(cat part*.folded | cksum)" = "$sum" ]
stackcollapse-perf <&- >out 2>err
check "standard input closed: a read error" grep -q '<stdin>: read error: Bad file descriptor' err
flamegraph-svg big.folded >/dev/null 2>&-
check "standard error closed: the run goes on" [ $? = 0 ]

# --files-from: bounded (a runaway list fails at once, not after
# gigabytes), and standard input is read once
printf 'big.folded\n-\n' >list
{ printf 'a'; head -c 5000 /dev/zero | tr '\0' a; } >longname
for t in stackcollapse pprof2folded pprofmerge foldmerge foldcost; do
	expect "$t --files-from /dev/zero fails at once" 1 \
	    "^$t: /dev/zero:1: a NUL byte in a file name" "$t" --files-from /dev/zero
	expect "$t -0 --files-from /dev/zero fails at once" 1 \
	    "^$t: /dev/zero: name 1: an empty name" "$t" -0 --files-from /dev/zero
	expect "$t --files-from: a name longer than PATH_MAX" 1 \
	    "^$t: longname:1: a name longer than 4095 bytes" "$t" --files-from longname
	expect "$t --files-from - naming - fails" 1 \
	    "^$t: <stdin>:2: -: standard input is the file list" \
	    sh -c '"$0" --files-from - <list' "$t"
done
for t in stackcollapse pprof2folded pprofmerge foldmerge foldcost; do
	expect "$t - --files-from - fails" 2 "^$t: -: standard input is the file list" \
	    sh -c '"$0" - --files-from - </dev/null' "$t"
done

# a whole-input read stops at its cap without first doubling its buffer
# past it and filling that (a 2 GiB cap reached 4.2 GB): a file that
# looks like a pprof profile (field 1, then a huge length), capped at
# 64 MiB; a sparse file, since a read from a file fills all it is given
if ! sanitized; then	# ASan's shadow memory counts too
	truncate -s 300M sparse.pb
	printf '\n\377\377\377\177' | dd of=sparse.pb conv=notrunc status=none
	/usr/bin/time -o rss -f %M pprof2folded --max-size 64M sparse.pb >/dev/null 2>err
	rc=$?
	kb=$(tail -n 1 rss)
	check "pprof2folded --max-size 64M: fails at the cap" [ "$rc" = 1 ]
	check "pprof2folded --max-size 64M: peak memory $kb KiB, below 96 MiB" \
	    [ "$kb" -lt 98304 ]
fi

# the README's way onto PATH: make install PREFIX=$HOME/.local, then the
# first pipeline by name (plain build only: make must find it up to date)
if ! sanitized; then
	make -s -C "$top" install B="$b" PREFIX="$tmp/home/.local" >make.log 2>&1
	verdict "make install PREFIX=~/.local" $? || excerpt make.log 5
	(
		export PATH="$tmp/home/.local/bin:/usr/bin:/bin"
		gzip -dc "$top/testdata/stackcollapse-perf/captures/cpp-default.perf.gz" |
		    stackcollapse | flamegraph-svg >cpu.svg
	)
	check "the README's first pipeline, installed" grep -q '</svg>' cpu.svg
	[ -e "$tmp/home/.local/share/man/man1/foldmerge.1" ] &&
	    [ -e "$tmp/home/.local/share/man/man5/folded.5" ]
	verdict "the man pages installed" $?
fi
