#!/usr/bin/env python3
"""Writes a big synthetic Firefox (Gecko) profile, for benchmarks.

usage: gen_firefox.py [MBYTES] > big.json
Writes about MBYTES megabytes (default 120) of a profile laid out as
Firefox writes one (meta.version 34, one line, keys in Gecko's order),
made the same on every run (fixed seed): a parent process and two content
processes nested in "processes", each with a GeckoMain and a DOM Worker
thread. A thread has a frameTable of labels, JS frames ("name (url:l:c)"
with a JIT tier) and addresses, a stackTable of a few thousand stacks up
to 40 deep, and a stringTable; the bulk is its samples, rows
[stack, time, eventDelay, null, threadCPUDelta], and its markers, rows
[name, start, end, phase, category, {payload}] with a stack payload on
one in four, as in Firefox's own start-up profiles, where markers are
most of the bytes.
Nothing else is printed.
"""
import random
import sys

mb = float(sys.argv[1]) if len(sys.argv) > 1 else 120
rnd = random.Random(20261124)
out = sys.stdout
budget = mb * 1e6
written = 0


def w(s):
    global written
    written += len(s)
    out.write(s)


def thread(name, pid, tid, share):
    strings = ["(root)", "blinterp", "baseline", "ion", "Awake", "Paint",
               "DOMEvent", "GCMajor"]
    frames = [[0, False, 0]]
    for i in range(1, 3000):
        k = rnd.random()
        if k < 0.4:
            s = "mozilla::Label%d::Run" % i
            frames.append([len(strings), False, 0, None, None, None, 1, 0])
        elif k < 0.8:
            s = "fn%d (https://example.com/app%d.js:%d:%d)" % (
                i, i % 17, i % 900 + 1, i % 60 + 1)
            frames.append([len(strings), False, 10737418241,
                           rnd.choice([None, 1, 2, 3]), i % 900 + 3,
                           i % 60 + 5, 4, 4])
        else:
            s = "0x7f%010x" % rnd.getrandbits(40)
            frames.append([len(strings), False, 0])
        strings.append(s)
    stacks = [[None, 0]]
    for i in range(1, 6000):
        p = rnd.randrange(max(1, i - 300), i) if i > 1 else 0
        stacks.append([p, rnd.randrange(1, len(frames))])
    w('{"processType":"default","name":"%s","processName":"Web Content",'
      '"registerTime":0.19,"unregisterTime":null,' % name)
    w('"samples":{"schema":{"stack":0,"time":1,"eventDelay":2,'
      '"argumentValues":3,"threadCPUDelta":4},"data":[')
    t = 1.0
    stop = written + budget * share * 0.45
    first = True
    while written < stop:
        rows = []
        for _ in range(1000):
            t += 1 + rnd.random() * 0.3
            rows.append('[%d,%.6f,%d,null,%d]' % (
                rnd.randrange(len(stacks)), t, rnd.randrange(3),
                rnd.randrange(5300000)))
        w(("" if first else ",") + ",".join(rows))
        first = False
    w(']},"markers":{"schema":{"name":0,"startTime":1,"endTime":2,'
      '"phase":3,"category":4,"data":5},"data":[')
    stop = written + budget * share * 0.45
    first = True
    m = 1.0
    while written < stop:
        rows = []
        for _ in range(500):
            m += rnd.random() * 3
            if rnd.random() < 0.25:
                pay = ('{"type":"Text","name":"Preference Read pref.%d",'
                       '"stack":{"processType":"default","name":"",'
                       '"registerTime":null,"unregisterTime":null,'
                       '"samples":{"schema":{"stack":0,"time":1},'
                       '"data":[[%d,%.6f]]},"markers":{"schema":{},'
                       '"data":[]},"pid":%d,"tid":%d}}' % (
                           rnd.randrange(1000), rnd.randrange(len(stacks)),
                           m, pid, tid))
            else:
                pay = '{"type":"Awake","CPU Id":%d}' % rnd.randrange(8)
            rows.append('[%d,%.6f,%.6f,%d,1,%s]' % (
                rnd.randrange(4, 8), m, m + rnd.random(), rnd.randrange(4),
                pay))
        w(("" if first else ",") + ",".join(rows))
        first = False
    w(']},"pid":%d,"tid":%d,' % (pid, tid))
    w('"stackTable":{"schema":{"prefix":0,"frame":1},"data":[%s]},' %
      ",".join("[%s,%d]" % ("null" if p is None else p, f)
               for p, f in stacks))
    w('"frameTable":{"schema":{"location":0,"relevantForJS":1,'
      '"innerWindowID":2,"implementation":3,"line":4,"column":5,'
      '"category":6,"subcategory":7},"data":[%s]},' % ",".join(
          "[" + ",".join("null" if x is None else "false" if x is False
                         else str(x) for x in f) + "]" for f in frames))
    w('"stringTable":[%s],"tracedObjectShapes":[],"tracedValues":""}' %
      ",".join('"%s"' % s for s in strings))


def profile(pid, child):
    w('{"libs":[],"meta":{"version":34,"startTime":1795537046132.1196,'
      '"interval":1,"stackwalk":0,"processType":%d,'
      '"sampleUnits":{"time":"ms","eventDelay":"ms",'
      '"threadCPUDelta":"ns"}},"pages":[],"threads":[' % (2 if child else 0))
    thread("GeckoMain", pid, pid, 1 / 6)
    w(",")
    thread("DOM Worker", pid, pid + 7, 1 / 6)
    w('],"pausedRanges":[],"processes":[')
    if not child:
        profile(pid + 100, True)
        w(",")
        profile(pid + 200, True)
    w("]}")


profile(13624, False)
