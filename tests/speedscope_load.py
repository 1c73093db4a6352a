"""Loads profiles into the real speedscope app in headless Chromium and
prints what speedscope computed: the helper of tests/speedscope-load.sh.

usage: python3 speedscope_load.py [--time-order] [--by-file] [--export OUT]
                                  CHROME INDEX_HTML FILE...

For each FILE: a fresh load of speedscope's index.html (file://), then
the file is given to the landing page's <input type=file> (its "Browse"
button) with DOM.setFileInputFiles, so speedscope reads it as a File
the way it does when a user picks or drops one (same loadFromFile path,
same file name for format detection).

How the values are read. speedscope keeps no global state: its atoms
feed the Application component as props (profileGroup, loading, error,
glCanvas). Preact keeps its virtual tree on the element it rendered
into (the bundle's own <script> element, which it replaced): the root
vnode is that element's `__k`, each vnode's children are in `__k` and
a component instance in `__c` (Preact 10's stable mangled names). A
walk finds the component whose props hold `profileGroup` and calls
speedscope's own methods on each imported Profile: getName(),
getTotalNonIdleWeight() (the sum of the grouped call tree's roots: the
span of the Left Heavy flame graph, and the total the profile selector
shows), getWeightUnit(), and with --time-order getTotalWeight() (the
span of the Time Order view: for a speedscope file at least endValue -
startValue) as a fourth column.

Readiness is polled (every 50 ms, up to $SPEEDSCOPE_TIMEOUT s, 40 by
default) on that state, never on a sleep: first glCanvas set (speedscope
ignores a file before its WebGL canvas exists), then one of: the
profile group set and loading over (printed), the error flag set (the
importer threw: its "Failed to load format" console message is the
MESSAGE), or an alert() (unrecognized or empty file: the alert's text).

Prints NAME<TAB>TOTAL<TAB>UNIT per profile, or error<TAB>MESSAGE for a
file speedscope refuses, with --by-file after a line file<TAB>FILE for
each file (one browser for many files: its start-up is most of a file's
time); exit status 1 when any file was refused, 2 when the harness
itself failed (timeout, no state found).
"""
import json, os, pathlib, select, signal, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

# WebGL through SwiftShader: speedscope needs a WebGL canvas to load
cdp.FLAGS = cdp.FLAGS + ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]

TIMEOUT = float(os.environ.get("SPEEDSCOPE_TIMEOUT", "40"))

STATE_JS = r"""(function (withTime) {
    function find(v, depth) {
        if (!v || depth > 200) return null;
        var c = v.__c;
        if (c && c.props && ('profileGroup' in c.props) && ('glCanvas' in c.props))
            return c.props;
        var kids = v.__k;
        if (kids && kids.length !== undefined)
            for (var i = 0; i < kids.length; i++) {
                var r = find(kids[i], depth + 1);
                if (r) return r;
            }
        return null;
    }
    var hosts = [document.body].concat(Array.prototype.slice.call(document.body.children));
    var props = null;
    for (var i = 0; i < hosts.length && !props; i++)
        if (hosts[i].__k) props = find(hosts[i].__k, 0);
    if (!props) return {found: false};
    var out = {found: true, loading: !!props.loading, error: !!props.error,
               canvas: !!props.glCanvas, group: null};
    var g = props.profileGroup;
    if (g) {
        out.group = {name: g.name, profiles: g.profiles.map(function (s) {
            var p = s.profile || s;
            var r = {name: p.getName(), total: String(p.getTotalNonIdleWeight()),
                     unit: p.getWeightUnit()};
            if (withTime) r.time = String(p.getTotalWeight());
            return r;
        })};
    }
    return out;
})(%s)"""


class Page:
    """A cdp.Browser with reads bounded by a deadline, alert() dialogs
    answered (and remembered) and speedscope's import failures noted."""

    def __init__(self, browser):
        self.b = browser
        self.replies = {}
        self.dialogs = []
        self.failures = []
        self.downloads = {}

    def _next(self, deadline):
        b = self.b
        while b"\0" not in b.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no answer from the browser")
            ready, _, _ = select.select([b.r], [], [], left)
            if ready:
                chunk = os.read(b.r.fileno(), 1 << 20)
                if not chunk:
                    raise RuntimeError("browser closed the pipe")
                b.buf += chunk
        msg, b.buf = b.buf.split(b"\0", 1)
        return json.loads(msg)

    def _handle(self, m):
        if "id" in m:
            self.replies[m["id"]] = m
            return
        method, p = m.get("method"), m.get("params", {})
        if method == "Page.javascriptDialogOpening":
            self.dialogs.append(p.get("message", ""))
            self.b.send("Page.handleJavaScriptDialog", {"accept": True}, wait=False)
        elif method == "Page.loadEventFired":
            self.loaded = True
        elif method == "Browser.downloadProgress" and p.get("state") != "inProgress":
            self.downloads[p.get("guid")] = p.get("state")
        elif method == "Runtime.consoleAPICalled":
            args = p.get("args", [])
            if args and args[0].get("value") == "Failed to load format":
                err = args[1] if len(args) > 1 else {}
                text = err.get("description") or str(err.get("value", ""))
                self.failures.append(text.split("\n")[0])

    def call(self, method, params=None, timeout=None, browser=False):
        deadline = time.time() + (timeout or TIMEOUT)
        session = self.b.session
        if browser:  # a command to the browser, not to the page
            self.b.session = None
        try:
            want = self.b.send(method, params, wait=False)
        finally:
            self.b.session = session
        while want not in self.replies:
            self._handle(self._next(deadline))
        m = self.replies.pop(want)
        self.replies.clear()  # replies to sends nobody waits for
        if "error" in m:
            raise RuntimeError(json.dumps(m["error"]))
        return m.get("result", {})

    def js(self, expr, by_value=True):
        r = self.call("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": by_value})
        if "exceptionDetails" in r:
            raise RuntimeError(json.dumps(r["exceptionDetails"])[:300])
        return r["result"].get("value") if by_value else r["result"]

    def navigate(self, url):
        self.loaded = False
        deadline = time.time() + TIMEOUT
        self.call("Page.navigate", {"url": url})
        while not self.loaded:
            self._handle(self._next(deadline))

    def poll(self, test, what):
        """test() until it returns something true; at most TIMEOUT s."""
        deadline = time.time() + TIMEOUT
        while True:
            r = test()
            if r:
                return r
            if time.time() > deadline:
                raise TimeoutError("%s after %g s" % (what, TIMEOUT))
            # let events in (dialogs) while waiting 50 ms
            try:
                self._handle(self._next(time.time() + 0.05))
            except TimeoutError:
                pass


def clean(s):
    return " ".join(str(s).replace("\t", " ").splitlines()) if s is not None else ""


def load(page, index, path, with_time):
    page.dialogs, page.failures = [], []
    page.navigate(pathlib.Path(index).as_uri())
    state = lambda: page.js(STATE_JS % ("true" if with_time else "false"))
    page.poll(lambda: (lambda s: s["found"] and s["canvas"])(state()),
              "speedscope did not start (no state or no WebGL canvas)")
    inp = page.js("document.querySelector('input[type=file]')", by_value=False)
    if not inp.get("objectId"):
        raise RuntimeError("no file input on speedscope's landing page")
    page.call("DOM.setFileInputFiles", {"files": [os.path.abspath(path)],
                                        "objectId": inp["objectId"]})

    def done():
        if page.dialogs:
            return {"error": page.dialogs[0]}
        s = state()
        if s.get("error"):
            return {"error": page.failures[0] if page.failures
                    else "speedscope: Something went wrong"}
        if s.get("group") and not s.get("loading"):
            return s
        return None
    return page.poll(done, "speedscope did not finish importing")


def export(page, out):
    """Clicks speedscope's Export button (which saves the loaded profile
    group as a speedscope file through a download) and moves the file the
    browser wrote to out."""
    import shutil, tempfile
    with tempfile.TemporaryDirectory() as where:
        page.call("Browser.setDownloadBehavior", {
            "behavior": "allowAndName", "downloadPath": where,
            "eventsEnabled": True}, browser=True)
        xy = page.js("""(function () {
            var els = document.querySelectorAll('div');
            for (var i = 0; i < els.length; i++)
                if (els[i].children.length === 1 &&
                    /Export$/.test(els[i].textContent)) {
                    var r = els[i].getBoundingClientRect();
                    return [r.left + r.width / 2, r.top + r.height / 2];
                }
            return null;
        })()""")
        if not xy:
            raise RuntimeError("no Export button")
        page.downloads = {}
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            page.call("Input.dispatchMouseEvent", {
                "type": kind, "x": xy[0], "y": xy[1], "clickCount": 1,
                "button": "left" if kind != "mouseMoved" else "none"})
        page.poll(lambda: page.downloads, "the export wrote no file")
        guid, state = next(iter(page.downloads.items()))
        if state != "completed":
            raise RuntimeError("the export's download " + state)
        shutil.move(os.path.join(where, guid), out)


def main(argv):
    with_time, by_file, out = False, False, None
    while argv and argv[0] in ("--time-order", "--by-file", "--export"):
        if argv[0] == "--time-order":
            with_time, argv = True, argv[1:]
        elif argv[0] == "--by-file":
            by_file, argv = True, argv[1:]
        elif len(argv) > 1:
            out, argv = argv[1], argv[2:]
        else:
            argv = []
    if len(argv) < 3 or (out and len(argv) != 3):
        sys.stderr.write("usage: speedscope_load.py [--time-order] [--by-file] [--export OUT] "
                         "CHROME INDEX FILE...\n")
        return 2
    chrome, index, files = argv[0], os.path.abspath(argv[1]), argv[2:]
    for f in files:
        if not os.path.isfile(f):
            sys.stderr.write("speedscope-load: %s: no such file\n" % f)
            return 2
    import tempfile
    status = 0
    with tempfile.TemporaryDirectory() as prof:
        # cdp.Browser's start-up reads without a deadline: bound it here
        def late(signum, frame):
            raise TimeoutError("chromium did not start in %g s" % TIMEOUT)
        signal.signal(signal.SIGALRM, late)
        signal.alarm(max(1, int(TIMEOUT)))
        try:
            browser = cdp.Browser(chrome, prof)
        except (TimeoutError, RuntimeError, OSError) as e:
            sys.stderr.write("speedscope-load: %s\n" % e)
            return 2
        finally:
            signal.alarm(0)
        page = Page(browser)
        try:
            for f in files:
                try:
                    r = load(page, index, f, with_time)
                except (TimeoutError, RuntimeError) as e:
                    sys.stderr.write("speedscope-load: %s: %s\n" % (f, e))
                    return 2
                if by_file:
                    print("file\t" + f)
                if not r.get("group"):
                    print("error\t" + clean(r["error"]))
                    status = 1
                    continue
                for p in r["group"]["profiles"]:
                    cols = [clean(p["name"]), p["total"], clean(p["unit"])]
                    if with_time:
                        cols.append(p["time"])
                    print("\t".join(cols))
                sys.stdout.flush()
                if out:
                    try:
                        export(page, out)
                    except (TimeoutError, RuntimeError, OSError) as e:
                        sys.stderr.write("speedscope-load: %s: export: %s\n" % (f, e))
                        return 2
        finally:
            browser.close()
    return status


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Exception as e:  # a harness failure, never "refused" (1)
        sys.stderr.write("speedscope-load: %s: %s\n" % (type(e).__name__, e))
        sys.exit(2)
