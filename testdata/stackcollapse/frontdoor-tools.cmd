# each tool names them too, before its own reading fails on them
stackcollapse-perf frontdoor/perf.data frontdoor/mutex.txt
pprof2folded frontdoor/trace.zip frontdoor/perf.data
pprofmerge frontdoor/perf.data frontdoor/trace.zip >/dev/null
stackcollapse-jfr frontdoor/safari-timeline.json
stackcollapse-chrome frontdoor/heap.heapprofile frontdoor/old-layout.cpuprofile frontdoor/snapshot-head.heapsnapshot
echo "status $?"
