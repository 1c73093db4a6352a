#!/usr/bin/env bash
# flamegraph-svg: every SVG it writes is well-formed XML (parsed with
# libxml2's xmllint), whatever the frame names and options; output is
# deterministic; file and stdin agree; --random, --cp, write errors,
# deep and huge stacks, random bytes.
# usage: tests/t-flamegraph-svg.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="flamegraph-svg: "
data=$top/testdata/flamegraph-svg
fg=$b/flamegraph-svg
need xmllint libxml2-utils

# wellformed NAME FILE: parsed by libxml2, one <svg> root, ids unique
wellformed() {
	if ! xmllint --noout --nonet "$2" 2>"$tmp/lint"; then
		notok "$1: not well-formed XML"
		excerpt "$tmp/lint" 5
		return 1
	fi
	local dup
	dup=$(grep -o ' id="[^"]*"' "$2" | sort | uniq -d | head -n 1)
	if [ -n "$dup" ]; then
		notok "$1: duplicate id$dup"
		return 1
	fi
	return 0
}

# render NAME ARGS...: runs flamegraph-svg, checks the status and the XML
render() {
	local name=$1 want=0
	shift
	# no stack count: the picture says so, and the status is 1
	case $name in empty.folded*) want=1 ;; esac
	capture "$fg" "$@"
	judge "$name" $want "" && wellformed "$name" "$tmp/out" && ok "$name"
}

# hostile and odd inputs under many option sets
printf '' >"$tmp/empty.folded"
python3 - "$tmp" <<'EOF'
import random, sys
tmp = sys.argv[1]
rng = random.Random(7)
with open(tmp + "/random.folded", "wb") as f:
    for i in range(300):
        n = rng.randint(1, 8)
        frames = [bytes(rng.randrange(256) for _ in range(rng.randint(0, 20)))
                  .replace(b"\n", b"").replace(b";", b"") for _ in range(n)]
        f.write(b";".join(frames) + b" %d\n" % rng.randint(0, 50))
with open(tmp + "/deep.folded", "w") as f:
    f.write(";".join("f%d" % (i % 97) for i in range(20000)) + " 3\n")
    f.write(";".join("g%d" % i for i in range(5000)) + " 1\n")
with open(tmp + "/wide.folded", "w") as f:
    for i in range(20000):
        f.write("root;child_%05d;leaf 1\n" % i)
    f.write("root;big " + "9" * 15 + "\n")
with open(tmp + "/huge-name.folded", "w") as f:
    f.write("main;" + "x" * 200000 + " 5\nmain;y 1\n")
with open(tmp + "/diff-hostile.folded", "wb") as f:
    for line in open(tmp + "/random.folded", "rb"):
        s, _, c = line.rstrip(b"\n").rpartition(b" ")
        f.write(s + b" %d %s\n" % (rng.randint(0, 50), c))
EOF
inputs="$data/hostile.folded $data/small.folded $data/diff.folded $data/chart.folded
$tmp/random.folded $tmp/deep.folded $tmp/wide.folded $tmp/huge-name.folded
$tmp/diff-hostile.folded $tmp/empty.folded $data/example.folded.gz"
for in in $inputs; do
	n=$(basename "$in")
	for opts in "" "--no-javascript" "--pretty-xml" "--inverted --reverse" \
	    "--flamechart" "--colors java --hash" "--colors js --minwidth 2%" \
	    "--negate --bgcolors grey --colors perl" "--random --colors chain" \
	    "--width 300 --height 10 --fontsize 8 --fontwidth 0.7"; do
		render "$n $opts" $opts "$in"
	done
done

# hostile strings in every text option, and a hostile nameattr file
render "hostile option values" --title '</text><script>alert(1)</script>' \
    --subtitle ']]> & "quoted" '\''s' --notes '-- --> <!-- ]]>' \
    --countname '<b>' --nametype '"onload="x' --fonttype 'x" onload="y' \
    "$data/hostile.folded"
printf 'main\thref=javascript:"x"&<>\ttitle=]]></title><script>\tclass=a"b\n' >"$tmp/attr.txt"
render "hostile nameattr values" --nameattr "$tmp/attr.txt" "$data/small.folded"

# the goldens that are SVGs parse too
for o in "$data"/*.out; do
	head -c 5 "$o" | grep -q '<?xml' || continue
	tail -n 1 "$o" | grep -q '^</svg>$' || continue
	wellformed "golden $(basename "$o")" "$o" && ok "golden $(basename "$o") is well-formed"
done

# no "]]>" can end the script early: only the one closing the CDATA
"$fg" "$data/hostile.folded" >"$tmp/h.svg"
check "one CDATA end in a hostile graph" [ "$(grep -o ']]>' "$tmp/h.svg" | wc -l)" -eq 1 ]
check "one script in a hostile graph" [ "$(grep -o '<script' "$tmp/h.svg" | wc -l)" -eq 1 ]

# deterministic: same bytes every run; file and stdin agree
"$fg" "$data/example.folded.gz" >"$tmp/a.svg"
"$fg" "$data/example.folded.gz" >"$tmp/b.svg"
check "same input, same bytes" cmp -s "$tmp/a.svg" "$tmp/b.svg"
"$fg" <"$data/example.folded.gz" >"$tmp/c.svg"
check "stdin and file give the same graph" cmp -s "$tmp/a.svg" "$tmp/c.svg"
"$fg" - <"$data/small.folded" >"$tmp/d.svg"
"$fg" "$data/small.folded" >"$tmp/e.svg"
check "'-' reads stdin" cmp -s "$tmp/d.svg" "$tmp/e.svg"
# input order does not matter (except for --flamechart)
zcat "$data/example.folded.gz" | sort -r >"$tmp/rev.folded"
"$fg" "$tmp/rev.folded" >"$tmp/f.svg"
check "input order does not change the graph" cmp -s "$tmp/a.svg" "$tmp/f.svg"
# two files are one profile
head -n 5 "$data/small.folded" >"$tmp/s1"
tail -n +6 "$data/small.folded" >"$tmp/s2"
"$fg" "$tmp/s1" "$tmp/s2" >"$tmp/g.svg"
check "several files add up" cmp -s "$tmp/e.svg" "$tmp/g.svg"
# a colour belongs to the name, in any graph: alloc in the graph of all
# of small.folded and in that of its second part
col() { grep -o "<title>$1 ([^<]*</title><rect [^>]*fill=\"[^\"]*\"" "$2" | grep -o 'fill="[^"]*"' | head -n 1; }
"$fg" "$tmp/s2" >"$tmp/s2.svg"
[ -n "$(col alloc "$tmp/e.svg")" ] &&
    [ "$(col alloc "$tmp/e.svg")" = "$(col alloc "$tmp/s2.svg")" ]
verdict "a name has the same colour in two graphs" $?
# different graphs get different ids
id1=$(grep -o 'svg version="1.1" id="[^"]*"' "$tmp/a.svg")
id2=$(grep -o 'svg version="1.1" id="[^"]*"' "$tmp/e.svg")
[ -n "$id1" ] && [ "$id1" != "$id2" ]
verdict "different graphs, different ids" $?

# --random: colours change between runs, the layout does not
"$fg" --random "$data/example.folded.gz" >"$tmp/r1.svg"
sleep 1
"$fg" --random "$data/example.folded.gz" >"$tmp/r2.svg"
check "--random changes colours" not cmp -s "$tmp/r1.svg" "$tmp/r2.svg"
check "--random keeps the layout" cmp -s <(grep -o '<rect x="[^"]*" y="[^"]*" width="[^"]*"' "$tmp/r1.svg") \
    <(grep -o '<rect x="[^"]*" y="[^"]*" width="[^"]*"' "$tmp/r2.svg")

# --cp: palette.map is written, then reused for the same names
mkdir "$tmp/cp" && cd "$tmp/cp" || exit 2
"$fg" --cp --random "$data/small.folded" >one.svg
check "--cp writes palette.map" grep -q '^alloc->rgb(' palette.map
check "--cp palette.map is sorted" cmp -s palette.map <(sort palette.map)
cp palette.map first.map
"$fg" --cp --random "$data/small.folded" >two.svg
check "--cp reuses the colours" cmp -s one.svg two.svg
check "--cp leaves a complete map alone" cmp -s palette.map first.map
"$fg" --cp "$data/java.folded" >/dev/null
check "--cp adds new names" [ "$(wc -l <palette.map)" -gt "$(wc -l <first.map)" ]
check "--cp keeps old names" grep -qF "$(grep '^alloc->' first.map)" palette.map
cd "$top" || exit 2

# empty input: a valid picture that says so, an error and status 1
"$fg" "$tmp/empty.folded" >"$tmp/empty.svg" 2>"$tmp/err"
check "empty input: status 1" [ $? -eq 1 ]
check "empty input: says there is no data" grep -q 'No stack counts found' "$tmp/empty.svg"
check "empty input: the picture is whole" grep -q '</svg>' "$tmp/empty.svg"
check "empty input: an error" grep -qx 'flamegraph-svg: no stack counts found' "$tmp/err"
printf 'a;b 0\nc 0\n' | "$fg" >"$tmp/zero.svg" 2>"$tmp/err"
check "all-zero counts: no data, status 1" [ $? -eq 1 ]
check "all-zero counts: no data" grep -q 'No stack counts found' "$tmp/zero.svg"

# write errors are reported
if [ -w /dev/full ]; then
	"$fg" "$data/example.folded.gz" >/dev/full 2>"$tmp/err"
	rc=$?
	check "write error: status 1" [ "$rc" -eq 1 ]
	check "write error: message" grep -q 'write error' "$tmp/err"
fi
# an unreadable file is reported, the others still drawn
"$fg" "$tmp/nonexistent" "$data/small.folded" >"$tmp/m.svg" 2>"$tmp/err"
rc=$?
check "missing file: status 1" [ "$rc" -eq 1 ]
check "missing file: the others drawn" cmp -s "$tmp/m.svg" "$tmp/e.svg"

# pruning bounds the output: 20,000 narrow frames are not drawn
"$fg" "$tmp/wide.folded" >"$tmp/w.svg"
check "narrow frames pruned" [ "$(grep -c '^<g><title>' "$tmp/w.svg")" -lt 10 ]
check "pruned image height follows what is drawn" grep -q 'height="118"' "$tmp/w.svg"
# huge counts are exact
check "huge counts shown exactly" grep -q 'big (999,999,999,999,999 samples' "$tmp/w.svg"
# overflowing counts are an error, not a wrap
printf 'a 18446744073709551615\nb 1\n' | "$fg" >/dev/null 2>"$tmp/err"
check "count overflow is an error" [ $? -eq 1 ]

# flame chart: a frame starts where its time starts
"$fg" --flamechart --no-javascript "$data/chart.folded" >"$tmp/fc.svg"
check "flame chart keeps time order" grep -q '<title>step (3 samples, 25.00%)</title><rect x="403.3"' "$tmp/fc.svg"
check "flame chart repeats frames that come back" [ "$(grep -c '<title>init ' "$tmp/fc.svg")" -eq 2 ]

# --no-javascript has no script and no controls; the default has them
check "--no-javascript: no script" not grep -q '<script' "$tmp/fc.svg"
check "default: one script" [ "$(grep -c '<script' "$tmp/a.svg")" -eq 1 ]
