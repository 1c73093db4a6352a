# what is not a profile this reads is named, with what to do instead:
# real captures of V8 heap profiles and snapshots, Go's debug=1 text,
# perf.data, a zip archive; the pre-2016 .cpuprofile and a Safari timeline
# hand-written to their layouts (frontdoor/README)
for f in frontdoor/*; do
	case $f in *README|*.sh|*.js|*.go) continue ;; esac
	stackcollapse "$f"; echo "status $?"
done 2>&1
