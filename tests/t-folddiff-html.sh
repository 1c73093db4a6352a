#!/usr/bin/env bash
# folddiff --format html in a real browser (headless Chromium over the
# DevTools protocol, tests/cdp.py): the page of a failing gate shows its
# verdict and table, loads nothing from the network, logs no error, and
# its inline differential graph zooms and searches; the page of the
# hostile-name corpus runs nothing of the names, and shows the control
# and bidirectional characters of names as \xHH. A screenshot is saved
# as report.png in the test's temporary directory (REPORT_SHOT=FILE saves
# a copy).
#
# Skipped under the sanitizer run, and when chromium is absent outside CI.
# usage: tests/t-folddiff-html.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="folddiff html: "
data=$top/testdata/folddiff
plain_only "folddiff html browser test skipped under the sanitizer run"
need_browser

gate="--fail-if self>+1pp --fail-if total>+10%"
"$b/folddiff" --report --format html --top 15 $gate \
	"$data/base-1.folded" "$data/slow.folded" >"$tmp/fail.html" 2>/dev/null
[ $? -eq 1 ] || notok "the slow capture does not fail the gate"
"$b/folddiff" --report --format html --top 15 $gate \
	"$data/base-1.folded" "$data/base-2.folded" >"$tmp/pass.html" 2>/dev/null ||
	notok "two runs of one build fail the gate"
# the hostile names grow tenfold against a steady base: they fail the
# gate, so they show in the verdict too
hostile=$top/testdata/flamegraph-svg/hostile.folded
{ cat "$hostile"; echo 'main;base 1000'; } >"$tmp/hostile-before.folded"
{ awk '{ n = $NF; sub(/ [0-9]+$/, ""); print $0 " " n * 10 }' "$hostile"
  echo 'main;base 1000'; } >"$tmp/hostile-after.folded"
"$b/folddiff" --report --format html --fail-if 'total>+50%' --floor 0 \
	"$tmp/hostile-before.folded" "$tmp/hostile-after.folded" \
	>"$tmp/hostile.html" 2>/dev/null
rc=$?
[ $rc -le 1 ] || notok "hostile names (exit status $rc)"
# frames with a NUL, ESC sequences, bidi controls, a tab, bad UTF-8
"$b/folddiff" --report --format html --weight 1 --fail-if 'self>+1pp' \
	--floor 0 "$data/hostile-before.folded" "$data/hostile-after.folded" \
	>"$tmp/hostile2.html" 2>/dev/null
rc=$?
[ $rc -le 1 ] || notok "hostile bytes (exit status $rc)"

timeout 180 python3 - "$chrome" "$tmp" "$top/tests" <<'PYEOF'
import json, os, re, sys
chrome, tmp, tests = sys.argv[1:4]
sys.path.insert(0, tests)
from cdp import Browser

failed = 0
def ok(name, cond, note=""):
    global failed
    if cond:
        print("ok folddiff html: " + name)
    else:
        failed += 1
        print("FAIL folddiff html: " + name + (" (" + note + ")" if note else ""))

b = Browser(chrome, os.path.join(tmp, "profile"))
try:
    b.load(os.path.join(tmp, "fail.html"))
    p = b.problems()
    ok("loads with no error, warning or network request", not p, json.dumps(p)[:300])
    v = b.js("""(function () {
        var v = document.getElementById('verdict'), r = v.getBoundingClientRect();
        return {cls: v.className, text: v.textContent, top: r.top,
                h: r.height, vh: innerHeight};
    })()""")
    ok("the verdict leads the page and says Fail",
       "fail" in v["cls"] and v["text"].startswith("Fail: 1 function crosses") and
       "checksum" in v["text"] and 0 <= v["top"] < v["vh"] and v["h"] > 10,
       json.dumps(v)[:300])
    t = b.js("""(function () {
        var rows = document.querySelectorAll('#changes tbody tr');
        var r = document.getElementById('changes').getBoundingClientRect();
        return {n: rows.length, first: rows[0].querySelector('td.fn').textContent,
                sig: rows[0].className, up: rows[0].querySelectorAll('td.up').length,
                w: r.width, h: r.height};
    })()""")
    ok("the table of changes is visible, checksum first and marked",
       t["n"] == 15 and t["first"] == "checksum" and t["sig"] == "sig" and
       t["up"] == 4 and t["w"] > 300 and t["h"] > 100, json.dumps(t))
    tops = b.js("[document.querySelectorAll('#top-before tbody tr').length, document.querySelectorAll('#top-after tbody tr').length]")
    ok("top tables before and after", tops == [20, 20], json.dumps(tops))

    # the inline graph: zoom on the widest frame below the root
    g = b.js("""(function () {
        var gs = document.querySelectorAll('#graph svg > g > g'), best = null;
        for (var i = 1; i < gs.length; i++) {
            var w = parseFloat(gs[i].querySelector('rect').getAttribute('width'));
            if (w < 1100 && (!best || w > best.w)) best = {i: i, w: w};
        }
        gs[best.i].scrollIntoView({block: 'center'});
        var r = gs[best.i].querySelector('rect').getBoundingClientRect();
        return {n: gs.length, i: best.i, w: best.w, x: r.left + r.width / 2,
                y: r.top + r.height / 2};
    })()""")
    ok("the graph is inline", g["n"] > 10, json.dumps(g))
    b.click(g["x"], g["y"])
    z = b.js("""(function () {
        var gs = document.querySelectorAll('#graph svg > g > g'), hidden = 0;
        for (var i = 0; i < gs.length; i++)
            if (getComputedStyle(gs[i]).display === 'none') hidden++;
        return {w: parseFloat(gs[%d].querySelector('rect').getAttribute('width')),
                hidden: hidden};
    })()""" % g["i"])
    ok("a click zooms the inline graph", abs(z["w"] - 1180) < 0.2 and z["hidden"] > 0,
       json.dumps(z))
    sr = b.js("(function(){var e=document.querySelector('#graph [id$=\"-search\"]');var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()")
    b.answer_prompt("^checksum$", sr[0], sr[1])
    m = b.js("document.querySelector('#graph [id$=\"-matched\"]').textContent")
    ok("search in the inline graph", re.match(r"Matched: [0-9.]+%$", m or ""), m)
    b.js("window.scrollTo(0, 0)")
    png = b.screenshot(os.path.join(tmp, "report.png"))
    if os.environ.get("REPORT_SHOT"):
        with open(os.environ["REPORT_SHOT"], "wb") as f:
            f.write(png)
    ok("screenshot saved", png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000)
    p = b.problems()
    ok("no error after zoom and search", not p, json.dumps(p)[:300])

    b.load(os.path.join(tmp, "pass.html"))
    v = b.js("document.getElementById('verdict').className + ': ' + document.getElementById('verdict').textContent")
    ok("two runs of one build pass", v.startswith("verdict pass: Pass"), v)

    b.load(os.path.join(tmp, "hostile.html"))
    h = b.js("""(function () {
        var fns = Array.prototype.map.call(document.querySelectorAll('td.fn'),
            function (e) { return e.textContent; });
        return {pwned: !!window.pwned, scripts: document.querySelectorAll('script').length,
                fns: fns, frames: document.querySelectorAll('#graph svg > g > g').length};
    })()""")
    ok("hostile names do not run", not h["pwned"] and h["scripts"] == 1, json.dumps(h)[:300])
    vt = b.js("document.getElementById('verdict').textContent")
    ok("hostile names in the verdict, as text", vt.startswith("Fail: ") and "<script>" in vt, vt[:300])
    ok("hostile names show as text", any("<script>" in f for f in h["fns"]) and
       any('"onload="' in f for f in h["fns"]) and h["frames"] > 10, json.dumps(h["fns"])[:300])
    hx = b.js("(function(){var gs=document.querySelectorAll('#graph svg > g > g');var out=[];for(var i=1;i<gs.length;i++){gs[i].scrollIntoView({block:'center'});var r=gs[i].querySelector('rect').getBoundingClientRect();out.push([r.left+Math.min(3,r.width/2),r.top+r.height/2]);}return out.slice(0,8);})()")
    for x, y in hx:
        b.mouse("mouseMoved", x, y)
    p = b.problems()
    ok("hostile page: no error, nothing ran after hovering",
       not p and not b.js("!!window.pwned"), json.dumps(p)[:300])

    b.load(os.path.join(tmp, "hostile2.html"))
    fns = b.js("Array.prototype.map.call(document.querySelectorAll('td.fn, #verdict li'), function (e) { return e.textContent; })")
    ctl = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    ok("control and bidi characters in names shown as \\xHH",
       any(f.startswith("\\x1b[2K") for f in fns) and
       any("\\x00" in f for f in fns) and
       any("\\xe2\\x80\\xae" in f for f in fns) and
       not any(ctl.search(f) for f in fns), json.dumps(fns)[:300])
except Exception as ex:
    failed += 1
    print("FAIL folddiff html: " + str(ex)[:500])
finally:
    b.close()
PYEOF
