#!/usr/bin/env bash
# flamegraph-svg in a real browser: headless Chromium loads generated SVGs,
# driven over the DevTools protocol (on a pipe, no network port): a click
# zooms, hovering fills the details line, Search (and Ctrl-F) highlights
# and shows the matched share, Reset Zoom restores, two graphs in one page
# do not disturb each other, hostile frame names never run. A screenshot
# is saved as graph.png in the test's temporary directory (FG_SHOT=FILE
# saves a copy).
#
# Skipped under the sanitizer run, and when chromium is absent outside CI
# (CI installs it: a missing browser there is a failure).
# usage: tests/t-flamegraph-svg-browser.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
prefix="flamegraph-svg browser: "
data=$top/testdata/flamegraph-svg
plain_only "browser test skipped under the sanitizer run"
need_browser
need python3

"$b/flamegraph-svg" "$data/java.folded" >"$tmp/graph.svg" || notok "render"
"$b/flamegraph-svg" --title "Before" "$data/java.folded" >"$tmp/one.svg"
"$b/flamegraph-svg" --title "After" --inverted "$data/java.folded" >"$tmp/two.svg"
"$b/flamegraph-svg" "$data/hostile.folded" >"$tmp/hostile.svg" 2>/dev/null
"$b/flamegraph-svg" "$data/diff.folded" >"$tmp/diff.svg"
# two graphs inlined in one HTML page
{
	echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>two</title></head><body>'
	sed '1,2d' "$tmp/one.svg"
	sed '1,2d' "$tmp/two.svg"
	echo '</body></html>'
} >"$tmp/two.html"

timeout 120 python3 - "$chrome" "$tmp" "$data/java.folded" <<'EOF'
import base64, json, os, re, subprocess, sys, time

chrome, tmp, folded = sys.argv[1:4]
failed = 0

def ok(name, cond, note=""):
    global failed
    if cond:
        print("ok flamegraph-svg browser: " + name)
    else:
        failed += 1
        print("FAIL flamegraph-svg browser: " + name + (" (" + note + ")" if note else ""))

# Chromium reads commands on fd 3 and writes replies on fd 4.
cmd_r, cmd_w = os.pipe()
rep_r, rep_w = os.pipe()
os.set_inheritable(cmd_r, True)
os.set_inheritable(rep_w, True)
args = [chrome, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + os.path.join(tmp, "profile"),
        "--remote-debugging-pipe", "--window-size=1250,1300", "about:blank"]

def child():
    os.dup2(cmd_r, 3)
    os.dup2(rep_w, 4)

proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=child,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(cmd_r)
os.close(rep_w)
wfile = os.fdopen(cmd_w, "wb", buffering=0)
rfile = os.fdopen(rep_r, "rb", buffering=0)
buf = b""
nextid = 0
events = []
session = None

def read_msg():
    global buf
    while b"\0" not in buf:
        chunk = rfile.read(65536)
        if not chunk:
            raise RuntimeError("browser closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)

def send(method, params=None, sess=True, wait=True):
    global nextid
    nextid += 1
    m = {"id": nextid, "method": method, "params": params or {}}
    if sess and session:
        m["sessionId"] = session
    wfile.write(json.dumps(m).encode() + b"\0")
    if not wait:
        return nextid
    return reply(nextid)

def reply(want):
    for i, m in enumerate(events):
        if m.get("id") == want:
            events.pop(i)
            if "error" in m:
                raise RuntimeError(json.dumps(m["error"]))
            return m.get("result", {})
    while True:
        m = read_msg()
        if m.get("id") == want:
            if "error" in m:
                raise RuntimeError(json.dumps(m["error"]))
            return m.get("result", {})
        events.append(m)

def wait_event(method, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        for i, e in enumerate(events):
            if e.get("method") == method:
                return events.pop(i)
        events.append(read_msg())
    raise RuntimeError("no event " + method)

def js(expr):
    r = send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
    if "exceptionDetails" in r:
        raise RuntimeError(json.dumps(r["exceptionDetails"])[:300])
    return r["result"].get("value")

def load(path):
    events.clear()
    send("Page.navigate", {"url": "file://" + path})
    wait_event("Page.loadEventFired")

def mouse(kind, x, y, clicks=0, wait=True):
    return send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                "button": "left" if kind != "mouseMoved" else "none",
                "clickCount": clicks}, wait=wait)

def click(x, y, wait=True):
    mouse("mouseMoved", x, y)
    mouse("mousePressed", x, y, 1)
    return mouse("mouseReleased", x, y, 1, wait=wait)

def answer_prompt(text, x, y):
    """Clicks at x, y (which opens the search prompt) and types text.
    The click's reply comes only once the dialog is closed."""
    pending = click(x, y, wait=False)
    e = wait_event("Page.javascriptDialogOpening")
    send("Page.handleJavaScriptDialog", {"accept": True, "promptText": text})
    reply(pending)
    return e["params"]

try:
    t = send("Target.createTarget", {"url": "about:blank"}, sess=False)
    a = send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True},
             sess=False)
    session = a["sessionId"]
    send("Page.enable")
    send("Runtime.enable")

    # --- one graph: hover, click to zoom, reset, search ---
    load(os.path.join(tmp, "graph.svg"))
    errors = [e for e in events if e.get("method") == "Runtime.exceptionThrown"]
    ok("loads without script errors", not errors, json.dumps(errors)[:300])
    nframes = js("document.querySelectorAll('svg > g > g').length")
    ok("frames drawn", nframes and nframes > 10, str(nframes))

    # the widest frame at depth 2 (a child of a child of the root)
    info = js("""(function () {
        var gs = document.querySelectorAll('svg > g > g'), best = null;
        var rooty = parseFloat(gs[0].querySelector('rect').getAttribute('y'));
        for (var i = 0; i < gs.length; i++) {
            var r = gs[i].querySelector('rect');
            var y = parseFloat(r.getAttribute('y'));
            var w = parseFloat(r.getAttribute('width'));
            if (Math.abs(rooty - 32 - y) < 0.01 && w < 1000 &&
                (!best || w > best.w)) best = {i: i, w: w};
        }
        var r = gs[best.i].querySelector('rect').getBoundingClientRect();
        return {i: best.i, w: best.w, x: r.left + r.width / 2,
                y: r.top + r.height / 2,
                title: gs[best.i].querySelector('title').textContent};
    })()""")
    mouse("mouseMoved", info["x"], info["y"])
    details = js("document.querySelector('[id$=\"-details\"]').textContent")
    ok("hover shows details", details == "Function: " + info["title"], details)

    click(info["x"], info["y"])
    after = js("""(function () {
        var gs = document.querySelectorAll('svg > g > g');
        var r = gs[%d].querySelector('rect');
        var hidden = 0;
        for (var i = 0; i < gs.length; i++)
            if (getComputedStyle(gs[i]).display === 'none') hidden++;
        return {w: parseFloat(r.getAttribute('width')),
                x: parseFloat(r.getAttribute('x')), hidden: hidden,
                unzoom: getComputedStyle(document.querySelector('[id$="-unzoom"]')).display,
                rootop: getComputedStyle(gs[0]).opacity};
    })()""" % info["i"])
    ok("click zooms the frame to the full width",
       abs(after["w"] - 1180) < 0.2 and abs(after["x"] - 10) < 0.2, json.dumps(after))
    ok("zoom hides frames outside the clicked one", after["hidden"] > 0)
    ok("zoom shows Reset Zoom and fades the ancestors",
       after["unzoom"] != "none" and float(after["rootop"]) < 1, json.dumps(after))

    ur = js("(function(){var r=document.querySelector('[id$=\"-unzoom\"]').getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()")
    click(ur[0], ur[1])
    back = js("""(function () {
        var gs = document.querySelectorAll('svg > g > g'), hidden = 0;
        for (var i = 0; i < gs.length; i++)
            if (getComputedStyle(gs[i]).display === 'none') hidden++;
        return {w: parseFloat(gs[%d].querySelector('rect').getAttribute('width')),
                hidden: hidden};
    })()""" % info["i"])
    ok("Reset Zoom restores the graph",
       abs(back["w"] - info["w"]) < 0.01 and back["hidden"] == 0, json.dumps(back))

    # search: the share of samples under a frame matching the term
    term = "^sys_"
    total = matched = 0
    for line in open(folded, encoding="utf-8", errors="replace"):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        total += int(count)
        if any(re.search(term, f) for f in stack.split(";")):
            matched += int(count)
    want = 100.0 * matched / total
    sr = js("(function(){var r=document.querySelector('[id$=\"-search\"]').getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()")
    p = answer_prompt(term, sr[0], sr[1])
    ok("Search opens a prompt", p.get("type") == "prompt", json.dumps(p))
    res = js("""(function () {
        var n = 0, gs = document.querySelectorAll('svg > g > g');
        for (var i = 0; i < gs.length; i++)
            if (gs[i].querySelector('rect').getAttribute('fill') === 'rgb(230,0,230)') n++;
        return {n: n, matched: document.querySelector('[id$="-matched"]').textContent};
    })()""")
    m = re.match(r"Matched: ([0-9.]+)%$", res["matched"] or "")
    ok("search highlights matching frames", res["n"] > 0, json.dumps(res))
    ok("search shows the matched percentage (want %.1f%%)" % want,
       m and abs(float(m.group(1)) - want) < 0.15, json.dumps(res))

    # Ctrl-F opens the search too; an empty answer keeps the search
    pending = send("Input.dispatchKeyEvent", {"type": "rawKeyDown",
                   "modifiers": 2, "windowsVirtualKeyCode": 70, "key": "f",
                   "code": "KeyF"}, wait=False)
    e = wait_event("Page.javascriptDialogOpening")
    send("Page.handleJavaScriptDialog", {"accept": False})
    reply(pending)
    ok("Ctrl-F opens the search prompt", e["params"].get("type") == "prompt")

    shot = send("Page.captureScreenshot", {"format": "png",
                "captureBeyondViewport": True})
    png = base64.b64decode(shot["data"])
    with open(os.path.join(tmp, "graph.png"), "wb") as f:
        f.write(png)
    if os.environ.get("FG_SHOT"):
        with open(os.environ["FG_SHOT"], "wb") as f:
            f.write(png)
    ok("screenshot saved", png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000)

    # --- two graphs in one page ---
    load(os.path.join(tmp, "two.html"))
    two = js("""(function () {
        var svgs = document.querySelectorAll('svg');
        var ids = {}, dup = 0, all = document.querySelectorAll('[id]');
        for (var i = 0; i < all.length; i++) {
            if (ids[all[i].id]) dup++;
            ids[all[i].id] = 1;
        }
        var g = svgs[1].querySelectorAll('g > g')[1];
        g.scrollIntoView({block: 'center'});
        var r = g.querySelector('rect').getBoundingClientRect();
        return {n: svgs.length, dup: dup, x: r.left + 1, y: r.top + r.height / 2};
    })()""")
    ok("two graphs in one page have distinct ids", two["n"] == 2 and two["dup"] == 0,
       json.dumps(two))
    click(two["x"], two["y"])
    z = js("""(function () {
        var svgs = document.querySelectorAll('svg'), h = [0, 0];
        for (var k = 0; k < 2; k++) {
            var gs = svgs[k].querySelectorAll('g > g');
            for (var i = 0; i < gs.length; i++)
                if (getComputedStyle(gs[i]).display === 'none') h[k]++;
        }
        return h;
    })()""")
    ok("a click zooms only its own graph", z[0] == 0 and z[1] > 0, json.dumps(z))

    # --- differential graph: red and blue frames ---
    load(os.path.join(tmp, "diff.svg"))
    fills = js("Array.prototype.map.call(document.querySelectorAll('svg > g > g > rect'), function (r) { return r.getAttribute('fill'); })")
    ok("differential graph has red and blue frames",
       any(re.match(r"rgb\(255,(\d+),\1\)$", f) and f != "rgb(255,255,255)" for f in fills) and
       any(re.match(r"rgb\((\d+),\1,255\)$", f) and f != "rgb(255,255,255)" for f in fills),
       json.dumps(fills)[:300])

    # --- hostile names: nothing runs, names show as text ---
    load(os.path.join(tmp, "hostile.svg"))
    hs = js("""(function () {
        var gs = document.querySelectorAll('svg > g > g'), names = [];
        for (var i = 0; i < gs.length; i++)
            names.push(gs[i].querySelector('title').textContent);
        return {pwned: !!window.pwned, scripts: document.querySelectorAll('script').length,
                names: names};
    })()""")
    hx = js("(function(){var gs=document.querySelectorAll('svg > g > g');var out=[];for(var i=1;i<gs.length;i++){var r=gs[i].querySelector('rect').getBoundingClientRect();out.push([r.left+Math.min(3,r.width/2),r.top+r.height/2]);}return out;})()")
    for x, y in hx:
        mouse("mouseMoved", x, y)
    if hx:
        click(hx[0][0], hx[0][1])
    sr = js("(function(){var r=document.querySelector('[id$=\"-search\"]').getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()")
    answer_prompt("script|onload|\\]\\]>", sr[0], sr[1])
    hs2 = js("({pwned: !!window.pwned, scripts: document.querySelectorAll('script').length, matched: document.querySelector('[id$=\"-matched\"]').textContent})")
    errors = [e for e in events if e.get("method") == "Runtime.exceptionThrown"]
    ok("hostile names do not execute", not hs["pwned"] and not hs2["pwned"] and
       hs["scripts"] == 1 and hs2["scripts"] == 1 and not errors,
       json.dumps([hs2, errors])[:300])
    ok("hostile names show as text",
       any("</text><script>" in n for n in hs["names"]) and
       any('"onload=' in n for n in hs["names"]), json.dumps(hs["names"])[:300])
    ok("search over hostile names", hs2["matched"].startswith("Matched: "), hs2["matched"])
except Exception as ex:
    failed += 1
    print("FAIL flamegraph-svg browser: " + str(ex)[:500])
finally:
    try:
        send("Browser.close", sess=False, wait=False)
    except Exception:
        pass
    try:
        proc.wait(timeout=10)
    except Exception:
        proc.kill()
sys.exit(0)
EOF
