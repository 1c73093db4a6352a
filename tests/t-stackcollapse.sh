#!/usr/bin/env bash
# stackcollapse against every converter's goldens, and the reference perf
# suite. usage: tests/t-stackcollapse.sh
# BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
# the same readers run under the sanitizers in every tool's own goldens:
# the identity is checked on the plain build only, for time
plain_only "identity with the tools: plain build only"

# Every golden of every converter, good and bad, run again as
# `stackcollapse --format NAME`: the same stdout, the same stderr (but
# the program name) and the same exit status, since both are one run
# path. Each successful golden with stacks also through format detection
# (plain `stackcollapse`): the same stdout. --help differs by design
# (stackcollapse lists every format's options).
for pair in stackcollapse-perf:perf stackcollapse-jfr:jfr \
    stackcollapse-bcc:bcc pprof2folded:pprof stackcollapse-dtrace:dtrace \
    stackcollapse-sample:sample stackcollapse-chrome:chrome \
    stackcollapse-chrome-tracing:chrome-tracing \
    stackcollapse-speedscope:speedscope stackcollapse-firefox:firefox \
    stackcollapse-otlp:otlp \
    svg2folded:svg \
    stackcollapse-vtune:vtune stackcollapse-vsprof:vsprof \
    stackcollapse-ghcprof:ghcprof; do
	tool=${pair%%:*} fmt=${pair##*:} dir=$top/testdata/${pair%%:*}
	# a golden that runs the tool (grep -w's words), in the shell: a
	# process costs more than most of these runs
	word="(^|[^[:alnum:]_])$tool([^[:alnum:]_]|\$)"
	for c in "$dir"/*.cmd; do
		base=${c%.cmd} name=$tool/${c##*/} name=${name%.cmd}
		read -r -d '' cmd <"$c"
		[[ $cmd =~ $word ]] || continue
		[[ $cmd == *--help* ]] && continue
		# the tool's own run is its golden's, which run.sh checks
		out1=$base.out err1=$base.err rc1=0
		[ -e "$err1" ] || err1=/dev/null
		[ -e "$base.rc" ] && read -r rc1 <"$base.rc"
		# the command through the front door, with --format and without
		sed -n -e "h; s/\\b$tool\\b/stackcollapse --format $fmt/g; w $tmp/cmd" \
		    -e "g; s/\\b$tool\\b/stackcollapse/g; w $tmp/cmd2" "$c"
		(cd "$dir" && sh "$tmp/cmd") >"$tmp/out2" 2>"$tmp/err2" </dev/null
		rc2=$?
		# the program's name, in messages and the synopsis
		sed -i -e "s/^stackcollapse: /$tool: /" \
		    -e "s/^usage: stackcollapse /usage: $tool /" \
		    -e "s/^       stackcollapse --help/       $tool --help/" \
		    "$tmp/out2" "$tmp/err2"
		if [ "$rc1" -ne "$rc2" ]; then
			notok "stackcollapse --format $fmt as $name (exit status $rc2, the tool's $rc1)"
			excerpt "$tmp/err2" 5
		elif ! cmp -s "$out1" "$tmp/out2"; then
			notok "stackcollapse --format $fmt as $name (stdout)"
			diff -u "$out1" "$tmp/out2" | head -n 20 | sed 's/^/# /'
		elif ! cmp -s "$err1" "$tmp/err2"; then
			notok "stackcollapse --format $fmt as $name (stderr)"
			diff -u "$err1" "$tmp/err2" | head -n 20 | sed 's/^/# /'
		else
			ok "stackcollapse --format $fmt as $name"
		fi
		# detection, where the input shows its format
		[ "$rc1" -eq 0 ] && [ -s "$out1" ] || continue
		[[ $cmd == *--list* || $cmd == *--format* ]] && continue
		case $name in
		stackcollapse-vtune/end-before-header) continue ;;
		stackcollapse-ghcprof/no-tree) continue ;;
		# OTLP's protobuf has no first bytes of its own
		stackcollapse-otlp/pb-*) continue ;;
		esac
		(cd "$dir" && sh "$tmp/cmd2") >"$tmp/out2" 2>"$tmp/err2" </dev/null
		rc2=$?
		sed -i "s/^stackcollapse: /$tool: /" "$tmp/out2"
		if [ "$rc2" -eq 0 ] && cmp -s "$out1" "$tmp/out2"; then
			ok "stackcollapse as $name"
		else
			notok "stackcollapse as $name (exit status $rc2)"
			diff -u "$out1" "$tmp/out2" | head -n 20 | sed 's/^/# /'
			excerpt "$tmp/err2" 5
		fi
	done
done

cd "$top/testdata/stackcollapse-perf/suite" || exit 2
for opt in pid tid kernel jit all addrs; do
	for in in *.txt.gz; do
		name=${in%.txt.gz}
		gzip -dc "results/$name-collapsed-$opt.txt.gz" >"$tmp/want"
		capture stackcollapse --"$opt" "$in"
		# the reference has no unit line (folded(5))
		grep -v '^# unit=' "$tmp/out" >"$tmp/ours"
		judge "stackcollapse suite $name --$opt" 0 "" &&
		    compare "stackcollapse suite $name --$opt" "$tmp/want" "$tmp/ours"
	done
done

# UTF-16 with a byte order mark reads as its UTF-8: 50,000 lines of
# two-, three- and four-byte characters (surrogate pairs), so that units
# and pairs are cut at every kind of read boundary, gzipped and piped too
python3 - "$tmp" <<'PY'
import sys
t = sys.argv[1]
text = "".join("main;f\u00e9%d;\U0001F525x%d;\u4e2d %d\n" % (i % 97, i % 13,
    i % 7 + 1) for i in range(50000))
open(t + "/u8", "w", encoding="utf-8").write(text)
open(t + "/u16le", "wb").write(b"\xff\xfe" + text.encode("utf-16-le"))
open(t + "/u16be", "wb").write(b"\xfe\xff" + text.encode("utf-16-be"))
PY
"$b/stackcollapse" "$tmp/u8" >"$tmp/want"
for v in u16le u16be; do
	"$b/stackcollapse" "$tmp/$v" >"$tmp/got"
	compare "stackcollapse: $v as its UTF-8" "$tmp/want" "$tmp/got"
	gzip -c "$tmp/$v" | "$b/stackcollapse" >"$tmp/got"
	compare "stackcollapse: $v gzipped, piped, as its UTF-8" "$tmp/want" \
	    "$tmp/got"
done
"$b/flamegraph-svg" "$tmp/u8" >"$tmp/want"
"$b/flamegraph-svg" "$tmp/u16be" >"$tmp/got"
compare "flamegraph-svg: UTF-16 as its UTF-8" "$tmp/want" "$tmp/got"
