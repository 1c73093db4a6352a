#!/bin/sh
# How the captures in this directory were made (perf 6.1, Linux 6.x,
# x86-64, no hardware PMU: the default event is cpu-clock). Run as root in
# a scratch directory holding hashwork.cc and gowork.go; the results were
# trimmed with head(1) where noted and gzipped.
set -eu
g++ -O2 -g -fno-omit-frame-pointer -o hashwork hashwork.cc -lpthread
go build -o gowork gowork.go

# C++: threads named "hash worker", lambdas, templates, operator new
perf record -g -F 2999 -o cpp.data -- ./hashwork
perf script -i cpp.data > cpp-default.perf
perf script -i cpp.data --header > cpp-header.perf
perf script -i cpp.data -F +srcline > cpp-srcline.perf
perf script -i cpp.data -F comm,tid,ip,sym > cpp-fields-nodso.perf
perf script -i cpp.data -F comm,pid,tid,time,period,event,ip,sym,dso > cpp-fields-all.perf

# without -g: one line per sample, the frame on the header line
perf record -F 2999 -o flat.data -- ./hashwork
perf script -i flat.data > cpp-flat.perf

# Go: method values such as main.(*conn).serve
perf record -g -F 2999 -o go.data -- ./gowork
perf script -i go.data > go.perf

# a tracepoint with arguments after its name, and two events at once
perf record -g -e syscalls:sys_enter_read -o tp.data -- \
    sh -c 'cat hashwork.cc > /dev/null; head -c 100000 /dev/zero | wc -c'
perf script -i tp.data > tracepoint.perf
perf record -g -e cpu-clock -e page-faults -o two.data -- ./hashwork
perf script -i two.data > two-events.perf

# node's JIT frames through /tmp/perf-PID.map
perf record -g -F 2999 -o node.data -- node --perf-basic-prof -e \
    'let s = 0; for (let i = 0; i < 3e7; i++) s += Math.sqrt(i); console.log(s)'
perf script -i node.data | awk 'NR > 30000 && /^$/ { print; exit } { print }' > node-jit.perf

# inlined functions as "(inlined)" frames (inlinework.c in the scratch
# directory). perf 6.1 adds inlined frames only to DWARF-unwound call
# chains: with -g (frame pointers) neither perf script, perf script --inline
# nor perf script -F +srcline --inline printed any. Without libbfd perf
# runs addr2line(1) from binutils for them.
gcc -O2 -g -fno-omit-frame-pointer -o inlinework inlinework.c
perf record --call-graph dwarf -F 999 -o inline.data -- ./inlinework
perf script -i inline.data > inline.perf

# Java 17 JIT frames through /tmp/perf-PID.map, written by the JVM at exit
# (Hot.java in the scratch directory); perf script must run while the map
# is still in /tmp
javac -d . Hot.java
perf record -g -F 499 -o java.data -- java -XX:+UnlockDiagnosticVMOptions \
    -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -cp . Hot
perf script -i java.data > java-jit.perf
# the same recording with source lines: perf then prints an inlined frame
# without its dso and puts "(inlined)" at the end of its source line
perf script -i inline.data -F +srcline --inline > inline-srcline.perf
