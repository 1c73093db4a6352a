#!/usr/bin/env bash
# Progress on standard error (cmd_each_input): drawn on a terminal (a
# pseudo-terminal from python's pty module) with the size when the file
# has one, and erased at the end; nothing in a pipe unless --progress;
# nothing with --no-progress; and standard output the same either way.
# Every tool that reads through cmd_each_input is run with both options.
#
# No test here depends on timing: FOLD_PROGRESS_DELAY=0 draws the first
# line at the first read, where the default waits half a second (which a
# loaded machine may or may not take to start a tool under ASan).
# usage: tests/t-progress.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="progress: "
export FOLD_PROGRESS_DELAY=0

# Runs each shell command $1, $3, ... with standard error on a
# pseudo-terminal, writing what the terminal showed to $2, $4, ... (one
# python for all: it starts slowly on a loaded machine).
onpty() {
	python3 - "$@" <<'PYEOF'
import os, pty, select, subprocess, sys
args = sys.argv[1:]
# all at once
runs = {}
for cmd, path in zip(args[0::2], args[1::2]):
    m, s = pty.openpty()
    p = subprocess.Popen(cmd, shell=True, stderr=s)
    os.close(s)
    runs[m] = [p, path, b""]
while runs:
    r, _, _ = select.select(list(runs), [], [], 0.2)
    for m in list(runs):
        p, path, out = runs[m]
        d = b""
        if m in r:
            try:
                d = os.read(m, 65536)
            except OSError:
                d = b""
        if d:
            runs[m][2] += d
        elif m in r or p.poll() is not None:
            p.wait()
            os.close(m)
            open(path, "wb").write(out)
            del runs[m]
PYEOF
}

cap=$top/testdata/stackcollapse-perf/captures/cpp-default.perf.gz
FOLD_PROGRESS_DELAY= "$b/stackcollapse-perf" "$cap" >"$tmp/want" 2>/dev/null

tools="stackcollapse-perf:$cap
stackcollapse-jfr:$top/testdata/stackcollapse-jfr/cpu.txt.gz
stackcollapse-bcc:$top/testdata/stackcollapse-bcc/offcputime.txt.gz
pprof2folded:$top/testdata/pprof2folded/cpu.pb.gz
folded2pprof:$top/testdata/folded2pprof/in.folded
stackcollapse:$cap
stackcollapse-dtrace:$top/testdata/stackcollapse-dtrace/java.txt
stackcollapse-sample:$top/testdata/stackcollapse-sample/sample.txt
stackcollapse-chrome:$top/testdata/stackcollapse-chrome/cpu.cpuprofile
svg2folded:$top/testdata/flamegraph-svg/basic.out
stackcollapse-vtune:$top/testdata/stackcollapse-vtune/vtune.csv
stackcollapse-vsprof:$top/testdata/stackcollapse-vsprof/CallTreeSummary.csv
stackcollapse-ghcprof:$top/testdata/stackcollapse-ghcprof/ticks.prof
foldmerge:$top/testdata/folded2pprof/in.folded
foldfilter:$top/testdata/folded2pprof/in.folded
flamegraph-svg:$top/testdata/folded2pprof/in.folded
folddiff:$top/testdata/folded2pprof/in.folded
foldcost:$top/testdata/folded2pprof/in.folded
pprofmerge:$top/testdata/pprof2folded/cpu.pb.gz"
set -- "$b/stackcollapse-perf $cap >$tmp/out" "$tmp/tty" \
    "gzip -dc $cap | $b/stackcollapse-perf >/dev/null" "$tmp/tty-stdin" \
    "FOLD_PROGRESS_DELAY=3600 $b/stackcollapse-perf $cap >/dev/null" "$tmp/tty-delay"
for t in $tools; do
	set -- "$@" "$b/${t%%:*} --no-progress - ${t#*:} </dev/null >/dev/null" "$tmp/tty-${t%%:*}"
done
onpty "$@"
size=$(wc -c <"$cap")
if grep -qaE "stackcollapse-perf: cpp-default\.perf\.gz: [0-9.]+ [KM]?i?B of [0-9.]+ [KM]iB \([0-9]+%\), [0-9.]+ [KMG]?i?B/s, 0:0[0-9]" "$tmp/tty"; then
	ok "a terminal shows bytes of the size, rate and time"
else
	notok "a terminal shows bytes of the size, rate and time: $(od -c "$tmp/tty" | head -n 5)"
fi
if [ "$(tail -c 4 "$tmp/tty" | od -An -c | tr -d ' ')" = '\r033[K' ]; then
	ok "the line is erased at the end"
else
	notok "the line is erased at the end: $(tail -c 20 "$tmp/tty" | od -c | head -n 3)"
fi
compare "output unchanged" "$tmp/want" "$tmp/out"

"$b/stackcollapse-perf" "$cap" >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok "nothing in a pipe" || notok "nothing in a pipe: $(head -c 200 "$tmp/err")"
[ ! -s "$tmp/tty-delay" ] && ok "nothing before FOLD_PROGRESS_DELAY" ||
    notok "nothing before FOLD_PROGRESS_DELAY: $(od -c "$tmp/tty-delay" | head -n 5)"

if grep -qaE "<stdin>: [0-9.]+ (B|[KM]iB), [0-9.]+ [KMG]?i?B/s, 0:0[0-9]" "$tmp/tty-stdin" &&
    ! grep -qa ' of ' "$tmp/tty-stdin"; then
	ok "a pipe of unknown size shows bytes, rate and time"
else
	notok "a pipe of unknown size: $(od -c "$tmp/tty-stdin" | head -n 5)"
fi

# every tool of cmd_each_input, with --progress into a pipe and
# --no-progress on a terminal; an empty standard input first, then the
# file, whose name the line shows
for t in $tools; do
	"$b/${t%%:*}" --progress - "${t#*:}" </dev/null >/dev/null \
	    2>"$tmp/err-${t%%:*}"
done
for t in $tools; do
	set -- "${t%%:*}" "${t#*:}"
	if grep -qa "$1: $(basename "$2"): .* of .*/s, 0:0" "$tmp/err-$1"; then
		ok "$1 --progress into a pipe"
	else
		notok "$1 --progress into a pipe: $(head -c 300 "$tmp/err-$1")"
	fi
	if ! grep -qa '/s, 0:0' "$tmp/tty-$1"; then
		ok "$1 --no-progress on a terminal"
	else
		notok "$1 --no-progress on a terminal: $(head -c 300 "$tmp/tty-$1")"
	fi
done
