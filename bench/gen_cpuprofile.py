#!/usr/bin/env python3
"""Builds a big valid .cpuprofile from a real one, for benchmarks.

usage: gen_cpuprofile.py IN.cpuprofile MBYTES > big.cpuprofile
The tree under the root is copied as many times as it takes to reach
about MBYTES megabytes (each copy's node ids shifted past the last), and
the samples and their time deltas are repeated once per copy, each run
naming the nodes of its copy: a profile with proportionally more nodes
and samples, written in V8's own layout (one line, no spaces).
"""
import json, sys

src = json.load(open(sys.argv[1]))
want = float(sys.argv[2]) * 1e6
nodes = src["nodes"]
root = nodes[0]
rest = nodes[1:]
shift = max(n["id"] for n in nodes)



def shifted(n, off):
    m = dict(n)
    m["id"] = n["id"] + off
    if "children" in m:
        m["children"] = [c + off for c in n["children"]]
    return m


# the bytes of one copy, its ids as long as those of the later copies
off = 1000 * shift
one = sum(len(json.dumps(shifted(n, off), separators=(",", ":"))) + 1
          for n in rest)
one += sum(len(str(s + off)) + 1 for s in src["samples"])
one += sum(len(str(d)) + 1 for d in src["timeDeltas"])
one += len(str(off)) * len(root.get("children", []))
copies = max(1, int(want / one + 0.5))

out = sys.stdout
w = out.write
kids = []
for k in range(copies):
    kids.extend(c + k * shift for c in root.get("children", []))
r = dict(root)
r["children"] = kids
w('{"nodes":[')
w(json.dumps(r, separators=(",", ":")))
for k in range(copies):
    off = k * shift
    for n in rest:
        w(",")
        w(json.dumps(shifted(n, off), separators=(",", ":")))
w('],"startTime":%d,' % src["startTime"])
total = sum(src["timeDeltas"])
w('"endTime":%d,' % (src["startTime"] + copies * total))
w('"samples":[')
w(",".join(str(s + (0 if s == root["id"] else k * shift))
           for k in range(copies) for s in src["samples"]))
w('],"timeDeltas":[')
w(",".join(str(d) for k in range(copies) for d in src["timeDeltas"]))
w("]}\n")
