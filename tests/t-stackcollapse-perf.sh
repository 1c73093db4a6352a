#!/usr/bin/env bash
# stackcollapse-perf on hand-made inputs: what perf prints that the
# captures do not show, and bad input. usage: tests/t-stackcollapse-perf.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
scp=$b/stackcollapse-perf

# collapses NAME EXPECTED-STDOUT [ARGS...] < input: no crash, status 0,
# exactly that output, but for its unit line (checked below)
collapses() {
	local name=$1
	printf '%s' "$2" >"$tmp/want"
	shift 2
	capture "$scp" "$@"
	grep -v '^# unit=' "$tmp/out" >"$tmp/stacks"
	judge "$name" 0 "" && compare "$name" "$tmp/want" "$tmp/stacks"
}

H='app 100/101 [002] 10.000001:     250000 cpu-clock:ppp: '

# names perf prints today
printf '%s\n\t7f01 operator new(unsigned long)+0x1c (/usr/lib/libstdc++.so.6)\n\t7f02 std::function<void (int)>::operator()(int) const+0x20 (/opt/a/app)\n\t7f03 net/http.(*conn).serve+0x5 (/opt/a/app)\n\t7f04 fopen@@GLIBC_2.2.5+0x5 (/usr/lib/libc.so.6)\n\t7f05 (anonymous namespace)::run(int)+0x1 (/opt/a/app)\n\t7f06 main+0x9 (/opt/a/app)\n\n' "$H" >"$tmp/names"
collapses names "app;main;(anonymous namespace)::run;fopen@@GLIBC_2.2.5;net/http.(*conn).serve;std::function<void (int)>::operator();operator new 250000
" "$tmp/names"
# the unit: cpu-clock's periods are nanoseconds; --samples counts samples
"$scp" "$tmp/names" | head -1 >"$tmp/unit"
equal "cpu-clock periods count nanoseconds" "$(cat "$tmp/unit")" \
    "# unit=nanoseconds 0"
"$scp" --samples "$tmp/names" | grep -c '^# unit=' >"$tmp/unit"
equal "--samples: no unit line" "$(cat "$tmp/unit")" 0
sed 's/cpu-clock:ppp/cycles:u/' "$tmp/names" | "$scp" | head -1 >"$tmp/unit"
equal "cycles periods count cycles" "$(cat "$tmp/unit")" "# unit=cycles 0"
collapses stdin "app;main;(anonymous namespace)::run;fopen@@GLIBC_2.2.5;net/http.(*conn).serve;std::function<void (int)>::operator();operator new 1
" --samples <"$tmp/names"

# unknown symbols: the dso's name, raw addresses with --addrs, dsos with spaces
printf '%s\n\t7f0a [unknown] (/memfd:jit (deleted))\n\t7f0b [unknown] ([unknown])\n\t7f0c [unknown] (/usr/lib/libz.so.1)\n\n' "$H" >"$tmp/unk"
collapses unknown "app;[libz.so.1];[unknown];[memfd:jit (deleted)] 250000
" "$tmp/unk"
collapses addrs "app;[libz.so.1 <7f0c>];[unknown <7f0b>];[memfd:jit (deleted) <7f0a>] 250000
" --addrs "$tmp/unk"

# kernel frames: versioned vmlinux and modules; JIT maps anywhere
printf '%s\n\tffff01 ext4_write+0x1 (/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko.xz)\n\tffff02 vfs_write+0x2 (/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64)\n\t7f07 Lcom/acme/Foo;.bar(I)V+0x3 (/var/tmp/perf-4242.map)\n\t7f08 main (/opt/a/app)\n\n' "$H" >"$tmp/kj"
collapses kernel-jit "app;main;com/acme/Foo:.bar_[j];vfs_write_[k];ext4_write_[k] 250000
" --all "$tmp/kj"

# comms with spaces, pid -1, --pid and --tid, no pid at all
printf 'C2 CompilerThre  4242/4250 [001] 5.5: 10 cycles: \n\t7f09 compile (/opt/jvm/libjvm.so)\n\n:-1    -1 [000]   299.4:     7 cycles: \n\tffff03 do_exit+0x5 ([kernel.kallsyms])\n\n' >"$tmp/comm"
collapses comm ":-1;do_exit 7
C2_CompilerThre;compile 10
" "$tmp/comm"
collapses tid ":-1-?/-1;do_exit 7
C2_CompilerThre-4242/4250;compile 10
" --tid "$tmp/comm"

# perf 6 inlined frames, kept; _[i] with --inline
printf '%s\n\t7f10 spin (inlined)\n\t7f10 Box<int>::run(unsigned long)+0x10 (/opt/a/app)\n\n' "$H" >"$tmp/inl"
collapses inlined "app;Box<int>::run;spin 250000
" "$tmp/inl"
collapses inline-option "app;Box<int>::run;spin_[i] 250000
" --inline "$tmp/inl"

# perf-map-agent's inlined methods "A->LB->LC": one frame each, root
# first, "_[i]" after the first; the source line goes with the last; an
# arrow after a blank or in operator-> does not split
printf 'java 9/9 [000] 1.0: 3 cycles: \n\t7f20 Lp/A;::a->Lp/B;::b->Lp/C;::c+0x4 (/tmp/perf-9.map)\n  A.java:7\n\t7f21 std::unique_ptr<T>::operator->() const (/opt/a/app)\n  app.cc:3\n\t7f22 f -> g (/opt/a/app)\n  app.rs:1\n\n' >"$tmp/arrow"
collapses arrows "java;f -> g;std::unique_ptr<T>::operator->;p/A:::a;p/B:::b_[i];p/C:::c_[i] 3
" "$tmp/arrow"
collapses arrows-jit "java;f -> g;std::unique_ptr<T>::operator->;p/A:::a_[j];p/B:::b_[i];p/C:::c_[i] 3
" --jit "$tmp/arrow"
collapses arrows-srcline "java;f -> g:app.rs:1;std::unique_ptr<T>::operator->:app.cc:3;p/A:::a;p/B:::b_[i];p/C:::c_[i]:A.java:7 3
" --srcline "$tmp/arrow"

# CRLF, a blank line made of spaces, an empty stack, no final blank line
printf '%s\r\n\t7f11 f+0x1 (/opt/a/app)\r\n  \r\n%s\n\n%s\n\t7f12 g (/opt/a/app)\n' "$H" "$H" "$H" >"$tmp/crlf"
collapses crlf "app 250000
app;f 250000
" "$tmp/crlf"
expect unterminated 0 "last sample has no closing blank line" "$scp" "$tmp/crlf"

# a tracepoint with arguments, and --event-filter with a modifier suffix
printf 'cat 7/7 [000] 1.0: 1 syscalls:sys_enter_read: fd: 0x3, count: 0x10\n\t7f13 read (/usr/lib/libc.so.6)\n\n%s\n\t7f14 f (/opt/a/app)\n\n' "$H" >"$tmp/tp"
collapses tracepoint "cat;read 1
" "$tmp/tp"
collapses event-filter "app;f 250000
" --event-filter=cpu-clock "$tmp/tp"
expect event-dropped 0 "kept event syscalls:sys_enter_read \\(1 samples\\); dropped cpu-clock:ppp \\(1 samples\\)" "$scp" "$tmp/tp"

# bad input: counted and shown once with its line, fatal with --strict
printf '%s\n\t7f15 f (/opt/a/app)\nthis is not perf output\n\n???\n' "$H" >"$tmp/bad"
collapses bad-skipped "app;f 250000
" "$tmp/bad"
expect bad-reported 0 "bad:3: unrecognized line" "$scp" "$tmp/bad"
expect bad-count 0 "2 bad lines skipped" "$scp" "$tmp/bad"
expect strict 1 "bad:3: unrecognized line" "$scp" --strict "$tmp/bad"

# NUL bytes, binary garbage, a 10 MB line, truncated gzip, a directory:
# a NUL in the first 64 KiB is binary data, refused; further on, a bad line
printf '%s\n\t7f16 f\000x (/opt/a/app)\n\n' "$H" >"$tmp/nul"
expect nul 1 "nul: binary data \\(a NUL byte at byte 63\\), not perf script output" "$scp" "$tmp/nul"
{ i=0; while [ $i -lt 1000 ]; do printf '%s\n\t7f15 f (/opt/a/app)\n\n' "$H"; i=$((i + 1)); done
  cat "$tmp/nul"; } >"$tmp/nul-late"
expect nul-late 0 "nul-late:3002: NUL byte in line" "$scp" "$tmp/nul-late"
head -c 300000 /dev/urandom >"$tmp/garbage" 2>/dev/null ||
	awk 'BEGIN { srand(1); for (i = 0; i < 300000; i++) printf "%c", int(rand() * 256) }' >"$tmp/garbage"
expect garbage 1 "garbage: binary data" "$scp" "$tmp/garbage"
expect garbage-output 1 . "$scp" "$tmp/garbage"
[ ! -s "$tmp/out" ]
verdict garbage-nothing-written $?
{ printf '%s\n\t7f17 ' "$H"; head -c 10000000 /dev/zero | tr '\0' a; printf ' (/opt/a/app)\n\n'; } >"$tmp/long"
capture "$scp" "$tmp/long"
[ "$rc" = 0 ] && [ "$(grep -v '^# unit=' "$tmp/out" | wc -c)" -eq 10000012 ]
verdict long-line $? || excerpt "$tmp/err" 3
gzip -c "$tmp/names" | head -c 60 >"$tmp/trunc.gz"
expect truncated-gzip 1 "truncated gzip" "$scp" "$tmp/trunc.gz"
expect directory 1 "Is a directory" "$scp" "$tmp"

# --list-events, --help, usage errors
collapses list-events "syscalls:sys_enter_read 1
cpu-clock:ppp 1
" --list-events "$tmp/tp"
capture "$scp" --help
[ "$rc" = 0 ] && cat "$tmp/out" "$tmp/err" | grep -q '^usage: stackcollapse-perf'
verdict help $?
expect usage 2 "usage: stackcollapse-perf" "$scp" --bogus
expect usage-event 2 "event-filter" "$scp" --event-filter=
