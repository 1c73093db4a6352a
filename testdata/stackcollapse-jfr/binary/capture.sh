#!/bin/sh
# Re-makes the binary JFR recordings of this directory and their
# reference printouts (JDK 17: java, javac, jfr; run it from this
# directory). Each workload of ../Workload.java runs 3 s under the
# "profile" settings. Events that carry host details (environment,
# system properties, processes, command lines, the recording's path)
# are turned off, so the recordings hold none. multi.jfr has two
# chunks: a second recording of the same settings, stopped after 1 s,
# makes the JVM start a new chunk. For each recording R and event type
# E that R holds, R.E.txt.gz is what
# `jfr print --events jdk.E --stack-depth 2048 R.jfr` writes, and
# R.E.folded what the text reader makes of it (the expected output of
# the binary reader); $STACKCOLLAPSE_JFR names the text reader, by
# default ../../../build/stackcollapse-jfr (make it first).
set -eu
# the printout's numbers and times: "1.0 MB", not "1,0 MB"; UTC
LC_ALL=C TZ=UTC
export LC_ALL TZ
here=$(pwd)
scjfr=${STACKCOLLAPSE_JFR:-../../../build/stackcollapse-jfr}
case $scjfr in /*) ;; *) scjfr=$here/$scjfr ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/demo"
cp ../Workload.java "$work/demo/"
javac -d "$work/classes" "$work/demo/Workload.java"

S=settings=profile
S=$S,jdk.InitialEnvironmentVariable#enabled=false
S=$S,jdk.InitialSystemProperty#enabled=false
S=$S,jdk.SystemProcess#enabled=false
S=$S,jdk.JVMInformation#enabled=false
S=$S,jdk.ActiveRecording#enabled=false
TLAB=jdk.ObjectAllocationInNewTLAB#enabled=true
TLAB=$TLAB,jdk.ObjectAllocationOutsideTLAB#enabled=true
# relative class path and file names: nothing of this host in the files
cd "$work"
java -XX:StartFlightRecording=$S,filename=cpu.jfr \
	-cp classes demo.Workload cpu 3
java -XX:StartFlightRecording=$S,filename=alloc.jfr,$TLAB \
	-cp classes demo.Workload alloc 3
java -XX:StartFlightRecording=$S,filename=lock.jfr \
	-cp classes demo.Workload lock 3
java -XX:StartFlightRecording=$S,name=rotate,duration=1s \
	-XX:StartFlightRecording=$S,filename=multi.jfr \
	-cp classes demo.Workload cpu 3
cd "$here"

for r in cpu alloc lock multi; do
	cp "$work/$r.jfr" "$r.jfr"
done
n=$(jfr summary multi.jfr | awk '$1 == "Chunks:" { print $2 }')
if [ "$n" -lt 2 ]; then
	echo "capture.sh: multi.jfr has $n chunk(s), not 2 or more" >&2
	exit 1
fi

EV="ExecutionSample NativeMethodSample ObjectAllocationSample"
EV="$EV ObjectAllocationInNewTLAB ObjectAllocationOutsideTLAB"
EV="$EV JavaMonitorEnter JavaMonitorWait ThreadPark ThreadSleep"
for r in cpu alloc lock multi; do
	for e in $EV; do
		rm -f "$r.$e.txt.gz" "$r.$e.folded" "$r.$e.exact"
		jfr print --events "jdk.$e" --stack-depth 2048 "$r.jfr" \
			>"$work/print.txt"
		if [ ! -s "$work/print.txt" ]; then
			echo "$r.jfr: no jdk.$e" >&2
			continue
		fi
		gzip -9n <"$work/print.txt" >"$r.$e.txt.gz"
		gzip -dc "$r.$e.txt.gz" |
			"$scjfr" --event "$e" >"$r.$e.folded" 2>"$work/err"
		sed "s/^/$r.$e: /" "$work/err" >&2
		# the exact weights: jfr print --json, read by the oracle
		case $e in
		ObjectAllocationSample) w=weight ;;
		ObjectAllocation*TLAB) w=allocationSize ;;
		JavaMonitor* | ThreadPark | ThreadSleep) w=duration ;;
		*) w= ;;
		esac
		jfr print --json --events "jdk.$e" --stack-depth 2048 \
			"$r.jfr" | python3 ../../../tests/jfr_json_oracle.py \
			${w:+--weight $w} >"$r.$e.exact"
	done
done
