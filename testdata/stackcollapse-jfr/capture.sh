#!/bin/sh
# Re-makes the JFR captures of this directory (JDK 17: java, javac, jfr;
# the -exact capture uses the jfr of JDK 21 or later, given as $JFR21).
# Each workload runs 5 s under the "profile" settings; the text is what
# `jfr print` writes at its default stack depth (5) and at 2048. Events
# that carry host details (environment, system properties, processes,
# command lines, paths) are left out of the printout; the others are kept
# mixed in, as users see them.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/demo"
cp Workload.java "$work/demo/"
javac -d "$work/classes" "$work/demo/Workload.java"

S=settings=profile
TLAB=jdk.ObjectAllocationInNewTLAB#enabled=true,jdk.ObjectAllocationOutsideTLAB#enabled=true
java -XX:StartFlightRecording=$S,filename=$work/cpu.jfr \
	-cp "$work/classes" demo.Workload cpu 5
java -XX:StartFlightRecording=$S,filename=$work/alloc.jfr,$TLAB \
	-cp "$work/classes" demo.Workload alloc 5
java -XX:StartFlightRecording=$S,filename=$work/lock.jfr \
	-cp "$work/classes" demo.Workload lock 5

EV=jdk.ExecutionSample,jdk.NativeMethodSample,jdk.ObjectAllocationSample
EV=$EV,jdk.ObjectAllocationInNewTLAB,jdk.ObjectAllocationOutsideTLAB
EV=$EV,jdk.JavaMonitorEnter,jdk.JavaMonitorWait,jdk.ThreadPark,jdk.ThreadSleep
EV=$EV,jdk.OldObjectSample,jdk.ThreadStart,jdk.ThreadEnd,jdk.GarbageCollection
EV=$EV,jdk.GCHeapSummary,jdk.GCPhasePause,jdk.Compilation,jdk.Deoptimization
EV=$EV,jdk.CPULoad,jdk.ThreadCPULoad,jdk.TenuringDistribution
EV=$EV,jdk.SafepointBegin,jdk.ExecuteVMOperation,jdk.ClassLoaderStatistics
EV=$EV,jdk.G1HeapSummary,jdk.MetaspaceSummary,jdk.ThreadAllocationStatistics
EV=$EV,jdk.JavaThreadStatistics,jdk.CompilationFailure
for m in cpu alloc lock; do
	jfr print --events "$EV" "$work/$m.jfr" | gzip -9n >"$m.txt.gz"
	jfr print --events "$EV" --stack-depth 2048 "$work/$m.jfr" |
		gzip -9n >"$m-deep.txt.gz"
done
if [ -n "${JFR21:-}" ]; then
	"$JFR21" print --exact --events "$EV" --stack-depth 2048 "$work/lock.jfr" |
		gzip -9n >lock-exact.txt.gz
fi
