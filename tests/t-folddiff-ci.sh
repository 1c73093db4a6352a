#!/usr/bin/env bash
# folddiff's CI formats on hostile names: the JUnit report is well-formed
# XML (xmllint) with the testcases counted in its header (python's
# parser), and every GitHub workflow command stays one line whose
# escapes decode back to the report line.
# usage: tests/t-folddiff-ci.sh BUILDDIR
set -u
b=$1
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok folddiff ci: $1"; }
notok() { echo "FAIL folddiff ci: $1"; }

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
rc=$?
if [ $rc -eq 1 ]; then ok "junit: the gate fails"; else notok "junit: exit status $rc"; fi
if ! command -v xmllint >/dev/null; then
	notok "xmllint is missing (libxml2-utils)"
elif xmllint --noout "$tmp/junit.xml" 2>"$tmp/lint"; then
	ok "junit: well-formed XML (xmllint)"
else
	notok "junit: xmllint: $(head -n 3 "$tmp/lint")"
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
   any("\ufffd" in n and "::" in n for n in names), repr(names)[:300])
ok("failure holds the report line", all(f.find("failure").text.startswith(f.get("name") + ": ")
   for f in funcs if "\ufffd" not in f.get("name")), "")
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
ok("messages decode to the report lines", len(clean) >= len(errs) - 3,
   "%d of %d" % (len(clean), len(errs)))
ok("a notice with the verdict", lines[-1].startswith(b"::notice title=Profile comparison::fail: "),
   repr(lines[-1])[:200])
PYEOF
