#!/usr/bin/env bash
# stackcollapse against every collapser's goldens: each successful golden
# of a format's own tool, run again with `stackcollapse` (its format
# detected) and with `stackcollapse --format NAME`, must print the same
# bytes; so must the reference perf suite. usage: tests/t-stackcollapse.sh
# BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
# the same readers run under the sanitizers in every tool's own goldens:
# the identity is checked on the plain build only, for time
plain_only "identity with the tools: plain build only"

# The format of each tool's goldens; the listing modes (--list-events,
# --list) belong to the tools alone.
for pair in stackcollapse-perf:perf stackcollapse-jfr:jfr \
    stackcollapse-bcc:bcc pprof2folded:pprof stackcollapse-dtrace:dtrace \
    stackcollapse-sample:sample stackcollapse-chrome:chrome svg2folded:svg \
    stackcollapse-vtune:vtune stackcollapse-vsprof:vsprof \
    stackcollapse-ghcprof:ghcprof; do
	tool=${pair%%:*} fmt=${pair##*:}
	for c in "$top/testdata/$tool"/*.cmd; do
		base=${c%.cmd} name=$tool/$(basename "$base")
		[ -e "$base.rc" ] && continue
		# no stack written: a run without one fails in stackcollapse
		# (svg2folded and pprof2folded have readers of their own)
		[ -s "$base.out" ] || continue
		# (and pprof2folded's differential output)
		grep -q -e '--list' -e '--help' -e '--differential' "$c" && continue
		grep -qw "$tool" "$c" || continue
		# inputs that show nothing of their format: no header, no tree
		case $name in
		stackcollapse-vtune/end-before-header) auto= ;;
		stackcollapse-ghcprof/no-tree) auto= ;;
		*) auto=stackcollapse ;;
		esac
		for how in $auto "stackcollapse --format $fmt"; do
			sed "s/\\b$tool\\b/$how/g" "$c" >"$tmp/cmd"
			(cd "$(dirname "$c")" && sh "$tmp/cmd") \
			    >"$tmp/raw" 2>"$tmp/err" </dev/null
			rc=$?
			# goldens that keep messages name the tool
			sed "s/^stackcollapse: /$tool: /" "$tmp/raw" >"$tmp/out"
			if [ "$rc" -ne 0 ]; then
				notok "$how as $name (exit status $rc)"
				excerpt "$tmp/err" 5
			# a differential graph's stacks in one column: "after"
			elif ! awk 'NF > 2 && $NF ~ /^[0-9.]+$/ && $(NF-1) ~ /^[0-9.]+$/ {
			    $(NF-1) = ""; sub(/  /, " ") } { print }' "$base.out" |
			    cmp -s - "$tmp/out"; then
				notok "$how as $name"
				diff -u "$base.out" "$tmp/out" | head -n 20 |
				    sed 's/^/# /'
			else
				ok "$how as $name"
			fi
		done
	done
done

cd "$top/testdata/stackcollapse-perf/suite" || exit 2
for opt in pid tid kernel jit all addrs; do
	for in in *.txt.gz; do
		name=${in%.txt.gz}
		gzip -dc "results/$name-collapsed-$opt.txt.gz" >"$tmp/want"
		capture stackcollapse --"$opt" "$in"
		judge "stackcollapse suite $name --$opt" 0 "" &&
		    compare "stackcollapse suite $name --$opt" "$tmp/want" "$tmp/out"
	done
done
