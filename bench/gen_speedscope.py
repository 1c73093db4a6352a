#!/usr/bin/env python3
"""Writes a big deterministic speedscope file, for benchmarks.

usage: gen_speedscope.py MBYTES [sampled|evented] > big.speedscope.json
sampled (the default): as py-spy writes a long recording, one profile per
thread, each sample its own stack of frame indices with a weight in
seconds, the frames after the profiles. evented: as speedscope exports a
trace, "O" and "C" events at millisecond values with fractions. About
MBYTES megabytes either way.
"""
import random, sys

want = float(sys.argv[1]) * 1e6
mode = sys.argv[2] if len(sys.argv) > 2 else "sampled"
rng = random.Random(1)
w = sys.stdout.write

mods = ["app", "db", "http", "json", "re", "threading", "socket", "util"]
frames = []
for i in range(4000):
    frames.append('{"name":"%s_%d","file":"/srv/%s/%s.py","line":%d}' % (
        rng.choice(["get", "put", "run", "parse", "encode", "wait", "loop"]),
        i, rng.choice(mods), rng.choice(mods), rng.randint(1, 900)))
# call paths: a tree of frames, walked to make stacks
paths = []
for i in range(20000):
    depth = rng.randint(4, 40)
    base = paths[rng.randrange(len(paths))] if paths and rng.random() < .7 \
        else []
    p = list(base[:rng.randint(0, len(base))])
    while len(p) < depth:
        p.append(rng.randrange(len(frames)))
    paths.append(p)

w('{"$schema":"https://www.speedscope.app/file-format-schema.json",'
  '"profiles":[')
size = 0
if mode == "sampled":
    threads = ["MainThread", "Worker-1", "Worker-2", "Worker-3"]
    per = want / len(threads)
    for t, name in enumerate(threads):
        w(',' if t else '')
        w('{"type":"sampled","name":"%s","unit":"seconds","startValue":0,'
          '"samples":[' % name)
        n = 0
        got = 0
        while got < per:
            s = "[" + ",".join(map(str, rng.choice(paths))) + "]"
            w(("," if n else "") + s)
            got += len(s) + 6
            n += 1
        w('],"weights":[' + ",".join(["0.01"] * n) + ']')
        w(',"endValue":%s}' % format(n * 0.01, ".2f"))
else:
    w('{"type":"evented","name":"trace","unit":"milliseconds",'
      '"startValue":0,"events":[')
    at = 0.0
    got = 0
    first = True
    while got < want:
        p = rng.choice(paths)
        for f in p:
            at += rng.randint(1, 999) / 1000
            e = '{"type":"O","frame":%d,"at":%.3f}' % (f, at)
            w(("" if first else ",") + e)
            first = False
            got += len(e) + 1
        for f in reversed(p):
            at += rng.randint(1, 999) / 1000
            e = '{"type":"C","frame":%d,"at":%.3f}' % (f, at)
            w("," + e)
            got += len(e) + 1
    w('],"endValue":%.3f}' % at)
w('],"shared":{"frames":[' + ",\n".join(frames) + ']},'
  '"exporter":"gen_speedscope.py","name":"bench"}\n')
