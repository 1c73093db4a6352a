#!/usr/bin/env python3
"""Cuts the sampled CPU profiles out of a Chrome trace, for
tests/t-stackcollapse-chrome-tracing.sh.

usage: trace_oracle.py TRACE OUTDIR
Writes OUTDIR/N.cpuprofile for each profile of the trace (its Profile and
ProfileChunk events, matched by pid and id), as V8 would have written it
whole: the nodes of every chunk with their children, the samples and
timeDeltas of every chunk in order, startTime and endTime. The .cpuprofile
reader's own test oracle (chrome_oracle.py) then says what each holds.
"""
import gzip, json, os, sys

raw = open(sys.argv[1], "rb").read()
if raw[:2] == b"\x1f\x8b":
    raw = gzip.decompress(raw)
t = json.loads(raw)
events = t["traceEvents"] if isinstance(t, dict) else t
profiles = {}
for e in events:
    if not isinstance(e, dict) or e.get("ph") != "P":
        continue
    key = (str(e.get("pid")), str(e.get("id")))
    p = profiles.setdefault(key, {"nodes": [], "samples": [],
                                  "timeDeltas": []})
    data = e.get("args", {}).get("data", {})
    if e.get("name") == "Profile" and "startTime" in data:
        p["startTime"] = data["startTime"]
    if e.get("name") != "ProfileChunk":
        continue
    if "endTime" in data:
        p["endTime"] = data["endTime"]
    cp = data.get("cpuProfile", {})
    p["nodes"] += cp.get("nodes", [])
    p["samples"] += cp.get("samples", [])
    p["timeDeltas"] += data.get("timeDeltas", [])
for i, p in enumerate(profiles.values()):
    if "endTime" not in p:
        # none given: the last sample is credited nothing (see
        # stackcollapse-chrome(1)), as if the profile ended at it
        t, latest = p.get("startTime", 0), p.get("startTime", 0)
        for d in p["timeDeltas"]:
            t += d
            latest = max(latest, t)
        p["endTime"] = latest
    byid = {n["id"]: n for n in p["nodes"]}
    for n in p["nodes"]:
        if "parent" in n:
            byid[n["parent"]].setdefault("children", []).append(n["id"])
    for n in p["nodes"]:
        n.pop("parent", None)
    json.dump(p, open(os.path.join(sys.argv[2], "%d.cpuprofile" % i), "w"))
