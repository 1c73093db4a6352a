#!/usr/bin/env bash
# folddiff's CI formats on hostile names: the JUnit report is well-formed
# XML (xmllint) with the testcases counted in its header (python's
# parser), every GitHub workflow command stays one line whose escapes
# decode back to the report line, and the names of the report lines, the
# text table and the HTML page read back to the input's frames.
# usage: tests/t-folddiff-ci.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="folddiff ci: "

hostile=$top/testdata/flamegraph-svg/hostile.folded
# the hostile names grow tenfold against a steady base; one more holds
# control bytes, '::', '%' and ','
{ cat "$hostile"; echo 'main;base 1000'; } >"$tmp/before.folded"
{ awk '{ n = $NF; sub(/ [0-9]+$/, ""); print $0 " " n * 10 }' "$hostile"
  echo 'main;base 1000'; } >"$tmp/after.folded"
printf 'main;a\001\002\003\010\011\013\014\015\016\033b::%%0A,c 1\n' >>"$tmp/before.folded"
printf 'main;a\001\002\003\010\011\013\014\015\016\033b::%%0A,c 90\n' >>"$tmp/after.folded"
gate="--fail-if self>+1pp --fail-if total>+10% --floor 0"

"$b/folddiff" --report --format junit $gate "$tmp/before.folded" \
	"$tmp/after.folded" >"$tmp/junit.xml" 2>"$tmp/err"
equal "junit: the gate fails" $? 1
if have xmllint libxml2-utils; then
	xmllint --noout "$tmp/junit.xml" 2>"$tmp/lint"
	verdict "junit: well-formed XML (xmllint)" $? || excerpt "$tmp/lint" 3
fi
python3 - "$tmp/junit.xml" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
cases = suite.findall("testcase")
fails = [c for c in cases if c.find("failure") is not None]
def ok(name, cond, note=""):
    print(("ok" if cond else "FAIL") + " folddiff ci: junit: " + name +
          ("" if cond else " (" + note + ")"))
ok("counts in the header", int(suite.get("tests")) == len(cases) and
   int(suite.get("failures")) == len(fails) and root.get("tests") == suite.get("tests"),
   "%s %s %d %d" % (suite.get("tests"), suite.get("failures"), len(cases), len(fails)))
gates = [c for c in cases if c.get("classname") == "folddiff.gate"]
funcs = [c for c in cases if c.get("classname") == "folddiff.function"]
ok("one testcase per gate", [g.get("name") for g in gates] == ["self>+1pp", "total>+10%"],
   str([g.get("name") for g in gates]))
names = [f.get("name") for f in funcs]
ok("hostile names as text", any("<script>" in n for n in names) and
   any("\\x1b" in n and "::" in n for n in names), repr(names)[:300])
ok("failure holds the report line", all(f.find("failure").text.startswith(f.get("name") + ": ")
   for f in funcs), "")
PYEOF

"$b/folddiff" --report --format github $gate "$tmp/before.folded" \
	"$tmp/after.folded" >"$tmp/gh.txt" 2>/dev/null
python3 - "$tmp/gh.txt" "$tmp/err" <<'PYEOF'
import re, sys
data = open(sys.argv[1], "rb").read()
lines = data.split(b"\n")
def ok(name, cond, note=""):
    print(("ok" if cond else "FAIL") + " folddiff ci: github: " + name +
          ("" if cond else " (" + note + ")"))
ok("ends in a newline", data.endswith(b"\n"))
lines = lines[:-1]
ok("every line is a command", all(re.match(rb"::(error|notice) title=[^:]*::", l) for l in lines),
   repr(lines)[:300])
ok("no control character", not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", data), "")
errs = [l for l in lines if l.startswith(b"::error")]
def unesc(s):
    return s.replace(b"%0A", b"\n").replace(b"%0D", b"\r").replace(b"%3A", b":").replace(b"%2C", b",").replace(b"%25", b"%")
msgs = [unesc(l.split(b"::", 2)[2]) for l in errs]
stderr = [l[len(b"folddiff: regression: "):] for l in open(sys.argv[2], "rb").read().split(b"\n")
          if l.startswith(b"folddiff: regression: ")]
clean = [m for m, s in zip(msgs, stderr) if m == s]
ok("an error per failing function", len(errs) == len(stderr) and len(errs) > 2,
   "%d %d" % (len(errs), len(stderr)))
ok("messages decode to the report lines", len(clean) == len(errs),
   "%d of %d" % (len(clean), len(errs)))
ok("a notice with the verdict", lines[-1].startswith(b"::notice title=Profile comparison::fail: "),
   repr(lines[-1])[:200])
PYEOF

# The names in the report lines on standard error, the text table and the
# HTML page: no byte a terminal acts on, and each "\xHH" read back gives
# a frame of the input exactly (NUL, tab, ESC, bidi controls, bad UTF-8).
data=$top/testdata/folddiff
cat "$tmp/before.folded" "$data/hostile-before.folded" >"$tmp/b2.folded"
cat "$tmp/after.folded" "$data/hostile-after.folded" >"$tmp/a2.folded"
"$b/folddiff" --report --weight 1 $gate "$tmp/b2.folded" "$tmp/a2.folded" \
	>"$tmp/text" 2>"$tmp/err2"
"$b/folddiff" --report --format html --weight 1 $gate "$tmp/b2.folded" \
	"$tmp/a2.folded" >"$tmp/page.html" 2>/dev/null
python3 - "$tmp/b2.folded" "$tmp/err2" "$tmp/text" "$tmp/page.html" <<'PYEOF'
import html, re, sys
def ok(name, cond, note=""):
    print(("ok" if cond else "FAIL") + " folddiff ci: names: " + name +
          ("" if cond else " (" + note + ")"))
frames = set()
for l in open(sys.argv[1], "rb").read().split(b"\n"):
    if l:
        frames.update(l.rsplit(b" ", 1)[0].split(b";"))
def unvis(s):
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), s)
bad = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")
err = open(sys.argv[2], "rb").read()
text = open(sys.argv[3], "rb").read()
ok("no control or bidi character on stderr", not bad.search(err), repr(err)[:200])
ok("no control or bidi character in the table", not bad.search(text.replace(b"\t", b"")))
names = [re.match(rb"folddiff: regression: (.*?): (self|total) ", l).group(1)
         for l in err.split(b"\n") if l.startswith(b"folddiff: regression: ")]
miss = [n for n in names if unvis(n) not in frames]
ok("report lines name the frames exactly", len(names) > 12 and not miss,
   "%d lines, %r" % (len(names), miss[:3]))
rows = text.split(b"\n")[5:-1]
miss = [r for r in rows if unvis(r.split(b"  ")[-1].lstrip()) not in frames]
ok("table rows name the frames exactly", len(rows) > 15 and not miss, repr(miss[:3]))
page = open(sys.argv[4], "rb").read().decode("utf-8")
fns = [html.unescape(m) for m in re.findall(r'<td class="fn">(.*?)</td>', page)]
miss = [f for f in fns if unvis(f.encode()) not in frames]
ok("HTML cells name the frames exactly", len(fns) > 15 and not miss, repr(miss[:3]))
PYEOF
# The page is HTML5 with inline SVG: libxml2's HTML parser knows no SVG
# element, and nothing else may be wrong; the graph itself is XML.
if have xmllint libxml2-utils; then
	xmllint --html --noout "$tmp/page.html" 2>&1 |
		grep 'parser error' | grep -v 'Tag [A-Za-z]* invalid' >"$tmp/lint"
	[ ! -s "$tmp/lint" ]
	verdict "html: parses (xmllint --html)" $? || excerpt "$tmp/lint" 3
	sed -n '/<svg /,/<\/svg>/p' "$tmp/page.html" >"$tmp/graph.svg"
	[ -s "$tmp/graph.svg" ] && xmllint --noout "$tmp/graph.svg" 2>"$tmp/lint"
	verdict "html: the inline graph is well-formed XML (xmllint)" $? ||
	    excerpt "$tmp/lint" 3
fi

# A change below the gate's floor is not emphasised on the page: small
# grows +0.19pp with a tiny q, yet its share stays below 1% in both
# profiles, so the gate lets it pass; with --floor 0 the gate judges it.
printf 'main;big 100001\nmain;small 11\n' >"$tmp/floor-before.folded"
printf 'main;big 100003\nmain;small 201\n' >"$tmp/floor-after.folded"
small='<tr[^>]*><td class="fn">small</td>'
for floor in 1 0; do
	"$b/folddiff" --report --format html --fail-if 'self>+0.1pp' \
		--floor "$floor" "$tmp/floor-before.folded" \
		"$tmp/floor-after.folded" >"$tmp/floor.html" 2>/dev/null
	rc=$?
	n=$(grep -c "${small}.*class=\"up\"" "$tmp/floor.html")
	want=$([ "$floor" = 0 ] && echo "1 1" || echo "0 0")
	# emphasised rows of small, and the exit status
	equal "html: --floor $floor: emphasis as the gate judges (rc $rc)" \
	    "$n $rc" "$want"
done
