#!/bin/sh
# Re-makes the eBPF captures of this directory (as root; Debian packages
# libbpf-tools and bpftrace, with gcc and g++). Two small workloads run
# for a few seconds: blocker (threads that block in pipes and sleeps) and
# spinner (C++ code with long demangled names). The build directory is
# renamed /opt/demo in the captures, so that they name no local path.
set -u
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
gcc -O1 -g -fno-omit-frame-pointer -pthread -o "$work/blocker" blocker.c
g++ -O1 -g -fno-omit-frame-pointer -o "$work/spinner" spinner.cc
clean() { sed "s|$work|/opt/demo|g" | gzip -9n >"$1"; }

# libbpf-tools offcputime and wakeuptime against blocker
"$work/blocker" 12 & B=$!
sleep 1
offcputime -p $B 3 | clean offcputime.txt.gz
offcputime -v -p $B 3 | clean offcputime-v.txt.gz
wakeuptime -p $B 3 | clean wakeuptime.txt.gz
wait

# bpftrace: CPU samples of spinner, plain and perf-mode stacks
"$work/spinner" 10 & S=$!
sleep 1
timeout -s INT 3 bpftrace -e "profile:hz:99 /pid == $S/ {
	@[ustack, kstack, comm] = count(); }" | clean bpftrace-profile.txt.gz
timeout -s INT 3 bpftrace -e "profile:hz:99 /pid == $S/ {
	@[ustack(perf), kstack(perf), comm] = count(); }" |
	clean bpftrace-perf.txt.gz
wait

# bpftrace: context switches of blocker (scalar keys first; two maps)
"$work/blocker" 10 & B=$!
sleep 1
timeout -s INT 3 bpftrace -e "software:cs:1 /pid == $B/ {
	@[comm, pid, kstack, ustack] = count(); }" | clean bpftrace-cs.txt.gz
timeout -s INT 3 bpftrace -e "software:cs:1 /pid == $B/ {
	@stacks[kstack] = count(); @switches[comm] = count(); }" |
	clean bpftrace-maps.txt.gz
wait

# bpftrace: perf-mode stacks of short-lived perl processes. Frame pointers
# that perl does not keep give short addresses ("1 0x1 ([unknown])"); a
# process sampled while it exits has both stacks empty ("@[, , perl,
# PID]: 1").
(for i in $(seq 3000); do perl -e 1; done) & P=$!
sleep 0.2
timeout -s INT 3 bpftrace -e 'profile:hz:999 /comm == "perl"/ {
	@[ustack(perf), kstack(perf), comm, pid] = count(); }' |
	clean bpftrace-perl-exec.txt.gz
wait
