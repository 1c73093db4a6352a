#!/usr/bin/env python3
"""An independent reading of a .cpuprofile, for tests/t-stackcollapse-chrome.sh.

usage: chrome_oracle.py [--time] FILE
Prints the folded stacks stackcollapse-chrome should print (in any order,
with --time the unit line of microseconds too)
for a well-formed profile, by the rules of its man page: the stack of a
sample is the path from the root to its node, "(root)" left out, a
function of the profiled scripts (a url that is a path or an address)
marked "_[j]"; with
--time, the samples in time order are each credited with the time to the
next, the last with endTime minus its time.
"""
import json, re, sys

time = sys.argv[1] == "--time"
p = json.load(open(sys.argv[-1]))
while "nodes" not in p:
    p = p.get("result", p.get("profile"))
    if "profile" in p:
        p = p["profile"]
nodes = {n["id"]: n for n in p["nodes"]}
parent = {}
for n in p["nodes"]:
    for c in n.get("children", []):
        parent[c] = n["id"]


def userscript(u):
    return not u.startswith("node:") and \
        re.match(r"/|\\|.:[\\/]|[^:]*://", u, re.S) is not None


def stack(i):
    out = []
    while i is not None:
        n = nodes[i]
        name = n["callFrame"]["functionName"] or "(anonymous)"
        if not (i not in parent and name == "(root)"):
            mark = "_[j]" if userscript(n["callFrame"].get("url", "")) else ""
            out.append(name.replace(";", "_") + mark)
        i = parent.get(i)
    return ";".join(reversed(out))


samples = p["samples"]
credit = [1] * len(samples)
if time:
    t, ts = p["startTime"], []
    for d in p["timeDeltas"]:
        t += d
        ts.append(t)
    order = sorted(range(len(samples)), key=lambda i: (ts[i], i))
    for k, i in enumerate(order):
        if k + 1 < len(order):
            credit[i] = ts[order[k + 1]] - ts[i]
        else:
            credit[i] = max(0, p["endTime"] - ts[i])
out = {}
for s, c in zip(samples, credit):
    k = stack(s)
    out[k] = out.get(k, 0) + c
for k, v in out.items():
    if v:
        print(k, v)
# microseconds are the unit of --time's counts (folded(5))
if time and any(out.values()):
    print("# unit=microseconds 0")
