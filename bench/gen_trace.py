#!/usr/bin/env python3
"""Writes a big synthetic Chrome trace-event file, for benchmarks.

usage: gen_trace.py [--samples] [MBYTES] > big.json
Writes about MBYTES megabytes (default 120) of a trace laid out as the
DevTools Performance panel saves one, {"traceEvents":[ ... ]} with one
event a line and keys in Chromium's order, made the same on every run
(fixed seed):
  default    "M" process_name and thread_name events for a browser, a GPU
             process and a renderer, then mostly small nested duration
             events: tasks of "X" complete events (RunTask >
             ThreadControllerImpl::RunTask > FunctionCall > v8.callFunction
             > JS functions, ParseHTML, Layout, v8.compile, MinorGC, ...)
             in time order on each thread, one in eight as a "B"/"E" pair
             instead; ts and dur are microseconds as floats with 3
             decimals; every event has args {}.
  --samples  the same metadata and a few tasks, but the bulk is the
             sampled CPU profile of two renderers (each a "Profile" event
             with id "0x1" and many "ProfileChunk" events of 100 samples:
             args.data.cpuProfile.nodes (new nodes only, each naming its
             parent), .samples, args.data.timeDeltas, lines and columns,
             a few negative deltas), millions of samples in all; each
             profile ends in a chunk holding only endTime, as Chromium's do.
Nothing else is printed.
"""
import io, random, sys

args = sys.argv[1:]
samples_mode = "--samples" in args
args = [a for a in args if a != "--samples"]
want = float(args[0] if args else 120) * 1e6
rng = random.Random(20240611)
out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n",
                       write_through=False)
w = out.write
written = 0  # characters: the few names that are not ASCII hardly count


def emit(s):
    global written
    w(s)
    written += len(s)


def us(ns):
    """ns as microseconds with 3 decimals, exactly."""
    return "%d.%03d" % divmod(ns, 1000)


BROWSER, GPU, RENDERER, RENDERER2 = 31178, 31250, 31270, 31402
THREADS = [  # pid, tid, name, kind of work
    (BROWSER, BROWSER, "CrBrowserMain", "browser"),
    (BROWSER, 31209, "Chrome_IOThread", "io"),
    (GPU, 31286, "VizCompositorThread", "gpu"),
    (RENDERER, RENDERER, "CrRendererMain", "main"),
    (RENDERER, 31322, "Compositor", "compositor"),
    (RENDERER, 31304, "ThreadPoolForegroundWorker", "worker"),
    (RENDERER2, RENDERER2, "CrRendererMain", "main"),
]
PROCS = [(BROWSER, "Browser"), (GPU, "GPU Process"), (RENDERER, "Renderer"),
         (RENDERER2, "Renderer")]
PROFILER_TID = {RENDERER: 31342, RENDERER2: 31420}

JS = ["render", "reconcileChildren", "commitRoot", "performWorkUntilDeadline",
      "flushPassiveEffects", "beginWork", "completeWork", "updateFunctionComponent",
      "diffProps", "setState", "dispatchEvent", "handleClick", "formatDate",
      "parseResponse", "normalize", "mapRows", "filterVisible", "sortBy",
      "computeLayout", "measureText", "collatz", "longest", "sieve", "hash",
      "encodeURIComponent", "JSON.parse", "Array.prototype.map", "get items",
      "set value", "(anonymous)", "onload", "tick", "größe", "μ_update"]
CATS = {
    "RunTask": "disabled-by-default-devtools.timeline",
    "ThreadControllerImpl::RunTask": "toplevel",
    "ThreadPool_RunTask": "toplevel",
    "Receive mojo message": "toplevel,mojom",
    "SimpleWatcher::OnHandleReady": "toplevel",
    "FunctionCall": "devtools.timeline",
    "EvaluateScript": "devtools.timeline",
    "TimerFire": "devtools.timeline",
    "EventDispatch": "devtools.timeline",
    "v8.callFunction": "v8",
    "v8.compile": "v8,devtools.timeline",
    "v8.parseOnBackground": "v8,devtools.timeline,disabled-by-default-v8.compile",
    "V8.BytecodeBudgetInterrupt": "v8.execute",
    "ParseHTML": "devtools.timeline",
    "UpdateLayoutTree": "blink,devtools.timeline",
    "Layout": "blink,devtools.timeline",
    "Paint": "devtools.timeline,rail",
    "PrePaint": "blink,devtools.timeline",
    "Layerize": "blink,devtools.timeline",
    "MinorGC": "devtools.timeline,v8",
    "MajorGC": "devtools.timeline,v8",
    "BlinkScheduler_PerformMicrotaskCheckpoint": "toplevel",
    "RunMicrotasks": "v8.execute",
    "ProxyMain::BeginMainFrame": "cc,benchmark,disabled-by-default-devtools.timeline.frame",
    "Graphics.Pipeline.DrawAndSwap": "benchmark,graphics.pipeline",
}
JS_CAT = "devtools.timeline"


def children_of(name, kind, depth):
    """the names a task's node may have below it"""
    if name == "RunTask":
        return ["ThreadControllerImpl::RunTask"]
    if name in ("ThreadControllerImpl::RunTask", "ThreadPool_RunTask"):
        if kind == "main":
            return ["FunctionCall", "TimerFire", "EventDispatch", "ParseHTML",
                    "EvaluateScript", "BlinkScheduler_PerformMicrotaskCheckpoint",
                    "UpdateLayoutTree", "Layout", "Paint", "MinorGC"]
        if kind == "worker":
            return ["v8.parseOnBackground", "v8.compile", "MajorGC"]
        if kind == "compositor":
            return ["ProxyMain::BeginMainFrame", "Layerize", "PrePaint"]
        if kind == "gpu":
            return ["Graphics.Pipeline.DrawAndSwap"]
        return ["SimpleWatcher::OnHandleReady", "Receive mojo message"]
    if name == "SimpleWatcher::OnHandleReady":
        return ["Receive mojo message"]
    if name in ("FunctionCall", "TimerFire", "EventDispatch"):
        return ["v8.callFunction"]
    if name == "EvaluateScript":
        return ["v8.compile", "v8.callFunction"]
    if name == "BlinkScheduler_PerformMicrotaskCheckpoint":
        return ["RunMicrotasks"]
    if name in ("v8.callFunction", "RunMicrotasks") or name in JS:
        if depth > 18:
            return []
        return JS + ["MinorGC", "V8.BytecodeBudgetInterrupt",
                     "UpdateLayoutTree", "Layout"]
    if name == "ParseHTML":
        return ["EvaluateScript"]
    if name == "Layout":
        return ["UpdateLayoutTree"]
    return []


def node(out_list, pid, tid, kind, name, ts, dur, depth):
    """appends the lines of one node and its subtree, in time order"""
    cat = CATS.get(name, JS_CAT)
    kids = children_of(name, kind, depth)
    be = depth > 0 and rng.random() < 0.125
    if be:
        out_list.append('{"args":{},"cat":"%s","name":"%s","ph":"B","pid":%d,'
                        '"tid":%d,"ts":%s}' % (cat, name, pid, tid, us(ts)))
    else:
        out_list.append('{"args":{},"cat":"%s","dur":%s,"name":"%s","ph":"X",'
                        '"pid":%d,"tid":%d,"ts":%s}' % (cat, us(dur), name, pid,
                                                          tid, us(ts)))
    if kids and dur > 4000:
        n = 1 if name == "RunTask" else rng.choice((1, 1, 1, 2, 2, 3, 4))
        t = ts + rng.randrange(1000, 3000)
        end = ts + dur - 1000
        for k in range(n):
            left = end - t
            if left < 3000:
                break
            share = left if k == n - 1 else int(left * rng.uniform(0.2, 0.9))
            cd = max(1000, int(share * rng.uniform(0.5, 0.97)))
            node(out_list, pid, tid, kind, rng.choice(kids), t, cd, depth + 1)
            t += cd + rng.randrange(500, 2000)
    if be:
        out_list.append('{"args":{},"cat":"%s","name":"%s","ph":"E","pid":%d,'
                        '"tid":%d,"ts":%s}' % (cat, name, pid, tid, us(ts + dur)))


def task(pid, tid, kind, ts):
    """the lines of one top-level task at ts, and its length in ns"""
    dur = int(rng.lognormvariate(11.5, 1.3))  # about 100 us, long tail
    dur = max(2000, min(dur, 50000000))
    lines = []
    node(lines, pid, tid, kind, "RunTask", ts, dur, 0)
    return lines, dur


START = 11705252552 * 1000  # ns; the clock of the captures
clock = {(p, t): START + rng.randrange(0, 5000000) for p, t, _, _ in THREADS}
first = True


def line(s):
    global first
    emit(("\n" if first else ",\n") + s)
    first = False


def some_tasks(n):
    for _ in range(n):
        p, t, _, kind = THREADS[rng.randrange(len(THREADS))]
        ts = clock[(p, t)] + rng.randrange(2000, 400000)
        lines, dur = task(p, t, kind, ts)
        clock[(p, t)] = ts + dur
        for s in lines:
            line(s)


emit('{"traceEvents":[')
for pid, name in PROCS:
    line('{"args":{"name":"%s"},"cat":"__metadata","name":"process_name",'
         '"ph":"M","pid":%d,"tid":0,"ts":0}' % (name, pid))
for pid, tid, name, _ in THREADS:
    line('{"args":{"name":"%s"},"cat":"__metadata","name":"thread_name",'
         '"ph":"M","pid":%d,"tid":%d,"ts":0}' % (name, pid, tid))
for pid, tid in PROFILER_TID.items():
    line('{"args":{"name":"v8:ProfEvntProc"},"cat":"__metadata",'
         '"name":"thread_name","ph":"M","pid":%d,"tid":%d,"ts":0}' % (pid, tid))

if not samples_mode:
    while written < want:
        some_tasks(64)
else:
    # a call tree for each renderer, its nodes told the first time sampled
    class Prof:
        pass

    profs = []
    for pid in (RENDERER, RENDERER2):
        p = Prof()
        p.pid, p.tid = pid, PROFILER_TID[pid]
        # id 1 (root), 2 (program), 3 (idle), 4 (garbage collector)
        p.parent = {1: None, 2: 1, 3: 1, 4: 1}
        p.frame = {1: ("(root)", 0, "", -1, -1), 2: ("(program)", 0, "", -1, -1),
                   3: ("(idle)", 0, "", -1, -1),
                   4: ("(garbage collector)", 0, "", -1, -1)}
        nid = 5
        level = [1]
        for depth in range(12):
            nxt = []
            for par in level:
                for _ in range(rng.choice((1, 2, 3, 4)) if depth < 6 else
                               rng.choice((0, 1, 1, 2))):
                    if nid > 6000:
                        break
                    script = rng.randrange(3, 40)
                    p.parent[nid] = par
                    p.frame[nid] = (rng.choice(JS), script,
                                    "https://app.example/static/js/chunk-%d.js"
                                    % script, rng.randrange(0, 4000),
                                    rng.randrange(0, 120))
                    nxt.append(nid)
                    nid += 1
            level = nxt or level
        p.ids = list(p.frame)
        p.told = set()
        p.hot = rng.sample(p.ids[4:], 200)  # where most samples land
        p.ts = clock[(pid, pid)]
        p.started = False
        p.left = 0
        profs.append(p)

    def node_json(p, i):
        name, script, url, ln, col = p.frame[i]
        cf = '"codeType":"%s","functionName":"%s","scriptId":%d' % (
            "JS" if url else "other", name, script)
        if url:
            cf = ('"codeType":"JS","columnNumber":%d,"functionName":"%s",'
                  '"lineNumber":%d,"scriptId":%d,"url":"%s"' % (
                      col, name, ln, script, url))
        s = '{"callFrame":{%s},"id":%d' % (cf, i)
        if p.parent[i] is not None:
            s += ',"parent":%d' % p.parent[i]
        return s + "}"

    def chunk(p):
        if not p.started:
            p.started = True
            line('{"args":{"data":{"source":"Internal","startTime":%d}},'
                 '"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1",'
                 '"name":"Profile","ph":"P","pid":%d,"tid":%d,"ts":%d}' % (
                     p.ts // 1000, p.pid, p.pid, p.ts // 1000 + 2))
            new = [1]
            p.told.add(1)
        else:
            new = []
        cur = rng.choice(p.hot)
        samples, deltas, lines_, cols = [], [], [], []
        for _ in range(100):
            r = rng.random()
            if r < 0.15:
                cur = 3
            elif r < 0.18:
                cur = 4
            elif r < 0.20:
                cur = 2
            elif r < 0.35 or cur < 5:
                cur = rng.choice(p.hot) if rng.random() < 0.8 else \
                    rng.choice(p.ids[4:])
            # tell the node and those of its ancestors not yet told
            up, i = [], cur
            while i is not None and i not in p.told:
                up.append(i)
                p.told.add(i)
                i = p.parent[i]
            new.extend(reversed(up))
            samples.append(cur)
            d = int(rng.gauss(170, 20))
            if rng.random() < 0.004:
                d = -rng.randrange(1, 400)
            elif rng.random() < 0.01:
                d = rng.randrange(300, 3000)
            deltas.append(d)
            _, _, url, ln, col = p.frame[cur]
            lines_.append(ln + 1 + rng.randrange(0, 30) if url else 0)
            cols.append(col + rng.randrange(0, 40) if url else 0)
            p.ts += d * 1000
        nodes = ""
        if new:
            nodes = '"nodes":[%s],' % ",".join(node_json(p, i) for i in new)
        line('{"args":{"data":{"columns":[%s],"cpuProfile":{%s"samples":[%s]},'
             '"lines":[%s],"source":"Internal","timeDeltas":[%s]}},'
             '"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1",'
             '"name":"ProfileChunk","ph":"P","pid":%d,"tid":%d,"ts":%d}' % (
                 ",".join(map(str, cols)), nodes, ",".join(map(str, samples)),
                 ",".join(map(str, lines_)), ",".join(map(str, deltas)),
                 p.pid, p.tid, p.ts // 1000 + 500))

    k = 0
    while written < want:
        chunk(profs[k % 2])
        k += 1
        if k % 50 == 0:
            some_tasks(2)
    for p in profs:
        line('{"args":{"data":{"endTime":%d,"source":"Internal"}},'
             '"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1",'
             '"name":"ProfileChunk","ph":"P","pid":%d,"tid":%d,"ts":%d}' % (
                 p.ts // 1000, p.pid, p.pid, p.ts // 1000 + 20))
emit("\n]}\n")
out.flush()
