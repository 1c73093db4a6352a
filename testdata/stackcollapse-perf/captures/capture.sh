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

# perf-map-agent's unfoldall maps name a JIT frame after the methods
# inlined into it, "Caller->LInlined;::m->...". No such capture was at
# hand: java-unfold.perf is the reference suite's perf-vertx-stacks-01
# capture (suite/) with runs of two or three JIT frames of one sample
# joined into one frame of that form, as the agent would have written
# them: the leaf-most frame's address, offset and map, the names root
# first. Its goldens are what stackcollapse-perf.pl prints for it.
gzip -dc ../suite/perf-vertx-stacks-01.txt.gz | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
fr = re.compile(r"^(\s+)([0-9a-f]+) (\S.*?)(\+0x[0-9a-f]+)? \((/tmp/perf-\d+\.map)\)$")
m = lambda k: fr.match(lines[k]) if k < len(lines) else None
out, i, n = [], 0, 0
while i < len(lines):
    a, b, c = m(i), m(i + 1), m(i + 2)
    if a and b and n % 3 != 2:
        if c and n % 2 == 0:
            name, i = c.group(3) + "->" + b.group(3) + "->" + a.group(3), i + 3
        else:
            name, i = b.group(3) + "->" + a.group(3), i + 2
        out.append("%s%s %s%s (%s)" % (a.group(1), a.group(2), name,
            a.group(4) or "", a.group(5)))
        n += 1
        continue
    n += bool(a)
    out.append(lines[i])
    i += 1
sys.stdout.write("\n".join(out) + "\n")' > java-unfold.perf
