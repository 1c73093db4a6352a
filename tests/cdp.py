"""Headless Chromium driven over the DevTools protocol on a pipe (no
network port), python3 only: for the browser tests.

    b = Browser(chrome, profile_dir)
    b.load("/path/page.html"); b.js("document.title"); b.close()
"""
import base64, json, os, subprocess, time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class Browser:
    def __init__(self, chrome, profile, size="1300,1400"):
        cmd_r, cmd_w = os.pipe()
        rep_r, rep_w = os.pipe()
        os.set_inheritable(cmd_r, True)
        os.set_inheritable(rep_w, True)

        def child():
            # Chromium reads commands on fd 3 and writes replies on fd 4
            os.dup2(cmd_r, 3)
            os.dup2(rep_w, 4)
        args = [chrome] + FLAGS + ["--user-data-dir=" + profile,
                                   "--remote-debugging-pipe",
                                   "--window-size=" + size, "about:blank"]
        # 3 and 4 are kept open: the fds the child closes come after
        self.proc = subprocess.Popen(args, pass_fds=(3, 4),
                                     preexec_fn=child,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(rep_w)
        self.w = os.fdopen(cmd_w, "wb", buffering=0)
        self.r = os.fdopen(rep_r, "rb", buffering=0)
        self.buf = b""
        self.nextid = 0
        self.events = []
        self.session = None
        t = self.send("Target.createTarget", {"url": "about:blank"})
        a = self.send("Target.attachToTarget",
                      {"targetId": t["targetId"], "flatten": True})
        self.session = a["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")

    def _read(self):
        while b"\0" not in self.buf:
            chunk = self.r.read(1 << 20)
            if not chunk:
                raise RuntimeError("browser closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, wait=True):
        self.nextid += 1
        m = {"id": self.nextid, "method": method, "params": params or {}}
        if self.session:
            m["sessionId"] = self.session
        self.w.write(json.dumps(m).encode() + b"\0")
        return self.reply(self.nextid) if wait else self.nextid

    def reply(self, want):
        while True:
            for i, m in enumerate(self.events):
                if m.get("id") == want:
                    self.events.pop(i)
                    if "error" in m:
                        raise RuntimeError(json.dumps(m["error"]))
                    return m.get("result", {})
            self.events.append(self._read())

    def wait_event(self, method, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read())
        raise RuntimeError("no event " + method)

    def load(self, path):
        """Loads a file; returns the seconds until its load event."""
        self.events.clear()
        t0 = time.time()
        self.send("Page.navigate", {"url": "file://" + path})
        self.wait_event("Page.loadEventFired")
        return time.time() - t0

    def problems(self):
        """Script exceptions, console errors, log errors (CSP among them)
        and network requests other than file:// ones seen so far."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p)
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append(p)
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append(p)
            elif m == "Network.requestWillBeSent" and not p.get("request", {}).get("url", "").startswith("file:"):
                out.append(p)
        return out

    def js(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(json.dumps(r["exceptionDetails"])[:300])
        return r["result"].get("value")

    def mouse(self, kind, x, y, clicks=0, wait=True):
        return self.send("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "clickCount": clicks,
            "button": "left" if kind != "mouseMoved" else "none"}, wait=wait)

    def click(self, x, y, wait=True):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y, 1)
        return self.mouse("mouseReleased", x, y, 1, wait=wait)

    def answer_prompt(self, text, x, y):
        """Clicks at x, y (which opens a prompt) and types text; the
        click's reply comes only once the dialog is closed."""
        pending = self.click(x, y, wait=False)
        e = self.wait_event("Page.javascriptDialogOpening")
        self.send("Page.handleJavaScriptDialog",
                  {"accept": True, "promptText": text})
        self.reply(pending)
        return e["params"]

    def screenshot(self, path):
        shot = self.send("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": True})
        png = base64.b64decode(shot["data"])
        with open(path, "wb") as f:
            f.write(png)
        return png

    def close(self):
        try:
            self.session = None
            self.send("Browser.close", wait=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
