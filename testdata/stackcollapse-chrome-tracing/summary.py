#!/usr/bin/env python3
"""Prints what README says of each trace-event capture.

usage: summary.py [-x] FILE[.gz]...
For each file: its form (object and its keys in order, or bare array) and
layout, the number of events per ph, the processes and threads that the
"M" events name, the Profile and ProfileChunk events (ids, samples, time
deltas), and the oddities a reader must live with. -x adds one example
event of each kind, shortened.
"""
import collections, gzip, json, sys


def load(path):
    raw = open(path, "rb").read()
    text = gzip.decompress(raw) if path.endswith(".gz") else raw
    return raw, text, json.loads(text)


def short(v, depth=0):
    """v with long lists and strings cut, for quoting."""
    if isinstance(v, list):
        s = [short(x, depth + 1) for x in v[:3]]
        if len(v) > 3:
            s.append("...%d more" % (len(v) - 3))
        return s
    if isinstance(v, dict):
        keys = list(v)
        d = {k: short(v[k], depth + 1) for k in keys[:12]}
        if len(keys) > 12:
            d["..."] = "%d more keys" % (len(keys) - 12)
        return d
    if isinstance(v, str) and len(v) > 70:
        return v[:60] + "...(%d chars)" % len(v)
    return v


def nonascii(s):
    return isinstance(s, str) and any(ord(c) > 127 for c in s)


def main(argv):
    examples = False
    if argv and argv[0] == "-x":
        examples, argv = True, argv[1:]
    for path in argv:
        summarize(path, examples)


def summarize(path, examples):
    try:
        raw, text, doc = load(path)
    except ValueError as err:
        print("== %s: not valid JSON as it stands (%s)\n" % (path, err))
        return
    print("== %s (%d bytes%s)" % (path, len(raw),
                                  ", gzipped" if path.endswith(".gz") else ""))
    if path.endswith(".gz"):
        print("decoded: %d bytes" % len(text))
    lines = text.count(b"\n")
    if isinstance(doc, dict):
        print("form: object, keys in order: %s" % list(doc))
        evs = doc["traceEvents"]
        if "metadata" in doc:
            m = doc["metadata"]
            print("metadata: %d keys, %d bytes as JSON: %s" % (
                len(m), len(json.dumps(m)), list(m)[:8] +
                (["..."] if len(m) > 8 else [])))
    else:
        print("form: bare array")
        evs = doc
    print("events: %d, lines in the file: %d" % (len(evs), lines))

    ph = collections.Counter(e.get("ph") for e in evs)
    print("ph: " + ", ".join("%s %d" % (k, v) for k, v in ph.most_common()))

    # processes and threads named by "M" events
    procs, threads, dupm = {}, {}, 0
    seenm = set()
    for e in evs:
        if e.get("ph") != "M":
            continue
        key = (e.get("name"), e.get("pid"), e.get("tid"),
               json.dumps(e.get("args"), sort_keys=True))
        if key in seenm:
            dupm += 1
        seenm.add(key)
        if e.get("name") == "process_name":
            procs[e["pid"]] = e["args"].get("name")
        elif e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"].get("name")
    mnames = collections.Counter(e.get("name") for e in evs
                                 if e.get("ph") == "M")
    print("M event names: " + ", ".join("%s %d" % kv
                                        for kv in mnames.most_common()))
    if dupm:
        print("M events repeated verbatim: %d" % dupm)
    per = collections.Counter((e.get("pid"), e.get("tid")) for e in evs
                              if e.get("ph") != "M")
    print("processes (process_name):")
    for pid, name in procs.items():
        print("  pid %s: %s" % (pid, short(name)))
    print("threads (thread_name) pid/tid: name [events on it]:")
    for (pid, tid), name in sorted(threads.items(),
                                   key=lambda kv: -per[kv[0]]):
        print("  %s/%s: %s [%d]" % (pid, tid, name, per[(pid, tid)]))
    unnamed = [(k, n) for k, n in per.items() if k not in threads]
    if unnamed:
        print("threads with events but no thread_name: " + ", ".join(
            "%s/%s [%d]" % (k[0], k[1], n) for k, n in unnamed))

    profile_section(evs, threads)
    odd_section(evs, threads)
    if examples:
        example_section(evs)
    print()


def profile_section(evs, threads):
    prof = [e for e in evs if e.get("name") == "Profile"]
    chunks = [e for e in evs if e.get("name") == "ProfileChunk"]
    print("Profile events: %d, ProfileChunk events: %d" % (len(prof),
                                                           len(chunks)))
    if not prof and not chunks:
        return
    ids = collections.OrderedDict()
    for e in prof + chunks:
        i = (e.get("pid"), e.get("id"))
        d = ids.setdefault(i, {"profile": [], "chunks": 0, "samples": 0,
                               "deltas": 0, "nodes": 0, "neg": 0,
                               "sum": 0, "mism": 0, "where": set(),
                               "zero": 0, "nocpu": 0, "parentless": 0})
        d["where"].add((e.get("pid"), e.get("tid")))
        if e["name"] == "Profile":
            d["profile"].append(e)
            continue
        d["chunks"] += 1
        data = e.get("args", {}).get("data", {})
        cp = data.get("cpuProfile")
        if cp is None:
            d["nocpu"] += 1
            cp = {}
        s = cp.get("samples", [])
        td = data.get("timeDeltas", [])
        nodes = cp.get("nodes", [])
        d["samples"] += len(s)
        d["deltas"] += len(td)
        d["nodes"] += len(nodes)
        d["neg"] += sum(1 for t in td if t < 0)
        d["zero"] += sum(1 for t in td if t == 0)
        d["sum"] += sum(td)
        d["parentless"] += sum(1 for n in nodes if "parent" not in n)
        if len(s) != len(td):
            d["mism"] += 1
    total = 0
    for i, d in ids.items():
        total += d["samples"]
        where = ", ".join("%s/%s (%s)" % (p, t, threads.get((p, t), "?"))
                          for p, t in sorted(d["where"], key=str))
        print("  pid %s id %r (%s): Profile %d, ProfileChunk %d, nodes %d "
              "(%d without parent), samples %d, timeDeltas %d (sum %d us, "
              "negative %d, zero %d)%s%s; on %s" % (
                  i[0], i[1], type(i[1]).__name__, len(d["profile"]),
                  d["chunks"],
                  d["nodes"], d["parentless"], d["samples"], d["deltas"],
                  d["sum"], d["neg"], d["zero"],
                  ", %d chunks with samples/timeDeltas of unequal length"
                  % d["mism"] if d["mism"] else "",
                  ", %d chunks without cpuProfile" % d["nocpu"]
                  if d["nocpu"] else "", where))
        for p in d["profile"]:
            print("    Profile args.data: %s" % short(p["args"].get("data")))
    print("  total samples in ProfileChunks: %d" % total)
    fn = collections.Counter()
    for e in chunks:
        for n in e["args"].get("data", {}).get("cpuProfile", {}).get(
                "nodes", []):
            fn[n.get("callFrame", {}).get("functionName")] += 1
    print("  functionNames of the nodes (most common 25): %s" %
          ", ".join("%r %d" % kv for kv in fn.most_common(25)))
    other = sorted(set(k for e in chunks
                       for k in e["args"].get("data", {})))
    print("  keys of ProfileChunk args.data: %s" % other)


def odd_section(evs, threads):
    print("oddities:")
    f = lambda fmt, *a: print("  " + fmt % a)
    tsf = [e for e in evs if isinstance(e.get("ts"), float)]
    f("ts as float: %d events%s", len(tsf),
      " (e.g. %r)" % tsf[0]["ts"] if tsf else "")
    durf = [e for e in evs if isinstance(e.get("dur"), float)]
    f("dur as float: %d events", len(durf))
    nots = [e for e in evs if "ts" not in e]
    f("events without ts: %d", len(nots))
    strts = [e for e in evs if isinstance(e.get("ts"), str)]
    f("ts as string: %d", len(strts))
    ids = collections.Counter()
    for e in evs:
        if "id" in e:
            i = e["id"]
            ids["hex string" if isinstance(i, str) and i.startswith("0x")
                else type(i).__name__] += 1
        if "id2" in e:
            ids["id2 " + ",".join(sorted(e["id2"]))] += 1
    f("ids: %s", dict(ids) or "none")
    uni = sorted(set(e.get("name") for e in evs if nonascii(e.get("name"))))
    f("non-ASCII event names: %s", uni or "none")
    uniargs = sum(1 for e in evs if nonascii(json.dumps(e.get("args"),
                                                       ensure_ascii=False)))
    f("events with non-ASCII text in args: %d", uniargs)
    cats = collections.Counter(e.get("cat") for e in evs)
    f("categories: %d distinct; with a comma: %d", len(cats),
      sum(1 for c in cats if c and "," in c))
    # B/E balance per thread, in file order
    stacks = collections.defaultdict(list)
    e_orphan, e_mismatch, ebefore = 0, 0, 0
    lastts = {}
    for e in evs:
        p = e.get("ph")
        k = (e.get("pid"), e.get("tid"))
        if p == "B":
            stacks[k].append(e)
        elif p == "E":
            if not stacks[k]:
                e_orphan += 1
                continue
            b = stacks[k].pop()
            if e.get("name") and e.get("name") != b.get("name"):
                e_mismatch += 1
            if e.get("ts", 0) < b.get("ts", 0):
                ebefore += 1
    open_b = sum(len(s) for s in stacks.values())
    f('"E" without a "B" (per pid/tid, file order): %d', e_orphan)
    f('"E" whose name differs from the "B" it closes: %d', e_mismatch)
    f('"E" earlier than its "B": %d', ebefore)
    f('"B" never closed by an "E": %d%s', open_b,
      " (%s)" % ", ".join(sorted(set("%s on %s" % (b.get("name"),
                                                   threads.get(k, k))
                                     for k, s in stacks.items() for b in s)))
      if open_b else "")
    ee = [e for e in evs if e.get("ph") == "E"]
    f('"E" events that carry a name: %d of %d', sum(1 for e in ee
                                                   if "name" in e), len(ee))
    # async "b"/"e" by pid, cat and id (or id2)
    bal = collections.Counter()
    for e in evs:
        if e.get("ph") in ("b", "e"):
            i = e.get("id", json.dumps(e.get("id2"), sort_keys=True))
            bal[(e.get("pid"), e.get("cat"), i)] += 1 if e["ph"] == "b" else -1
    f('async "b" left open: %d, "e" without a "b": %d (by pid, cat and id)',
      sum(v for v in bal.values() if v > 0),
      -sum(v for v in bal.values() if v < 0))
    # file order against time, per thread
    back = collections.Counter()
    for e in evs:
        if e.get("ph") == "M" or not isinstance(e.get("ts"), (int, float)):
            continue
        k = (e.get("pid"), e.get("tid"))
        if k in lastts and e["ts"] < lastts[k]:
            back[e.get("ph")] += 1
        lastts[k] = e["ts"]
    f("events earlier than the one before on their thread (file order not "
      "time order), by ph: %s", dict(back) or "none")
    # X nesting per thread
    xs = collections.defaultdict(list)
    for n, e in enumerate(evs):
        if e.get("ph") == "X" and isinstance(e.get("ts"), (int, float)):
            xs[(e.get("pid"), e.get("tid"))].append((n, e))
    partial = zero = nodur = child_first = 0
    for k, lst in xs.items():
        srt = sorted(lst, key=lambda ne: (ne[1]["ts"], -ne[1].get("dur", 0),
                                          ne[0]))
        st = []
        for n, e in srt:
            if "dur" not in e:
                nodur += 1
            d = e.get("dur", 0)
            if d == 0:
                zero += 1
            end = e["ts"] + d
            while st and st[-1][1]["ts"] + st[-1][1].get("dur", 0) <= e["ts"]:
                st.pop()
            if st:
                pn, pe = st[-1]
                if end > pe["ts"] + pe.get("dur", 0):
                    partial += 1
                if n < pn:
                    child_first += 1
            st.append((n, e))
    f('"X" without dur: %d; with dur 0 or none: %d', nodur, zero)
    f('"X" overlapping the enclosing "X" on its thread without nesting in '
      'it: %d', partial)
    f('"X" written before the "X" that encloses it (file order by end): %d',
      child_first)
    nopid = sum(1 for e in evs if "pid" not in e or "tid" not in e)
    f("events without pid or tid: %d", nopid)
    strtid = sum(1 for e in evs if isinstance(e.get("tid"), str)
                 or isinstance(e.get("pid"), str))
    f("pid or tid as string: %d", strtid)
    big = sum(1 for e in evs if isinstance(e.get("ts"), (int, float))
              and abs(e["ts"]) >= 2 ** 53)
    f("ts beyond 2^53: %d", big)


def example_section(evs):
    print("examples (shortened):")
    seen = set()
    for e in evs:
        p = e.get("ph")
        k = (p, e.get("name")) if p == "M" or e.get("name") in (
            "Profile", "ProfileChunk") else p
        if k in seen:
            continue
        seen.add(k)
        print("  " + json.dumps(short(e), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
