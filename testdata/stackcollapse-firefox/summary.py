#!/usr/bin/env python3
"""Prints what README says of each Firefox profiler capture.

usage: summary.py [-x] FILE[.gz]...
Raw Gecko profiles (what Firefox writes): meta.version and the profiler
configuration, then each process (the top level, then "processes" nested
in it, to any depth) and each of its threads: name, processName,
processType, pid, tid, sample count, samples whose stack is null, table
sizes, the schemas of samples/stackTable/frameTable/markers, the lengths
of the frameTable rows, the kinds of frame location strings, the
implementation and category values in use. Processed profiles (what
profiler.firefox.com saves): preprocessedProfileVersion, where the
string array and tables live, and per thread the same counts.
-x adds shortened example rows and the five heaviest folded stacks of
each thread that has samples.
"""
import collections, gzip, json, re, sys

JS_RE = re.compile(r"^(.*) \((.+):(\d+):(\d+)\)(\[\d+\])?$")
ADDR_RE = re.compile(r"^0x[0-9a-f]+$")


def load(path):
    raw = open(path, "rb").read()
    text = gzip.decompress(raw) if path.endswith(".gz") else raw
    return raw, json.loads(text)


def short(v, n=70):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 10] + "...(%d)" % len(s)


def kind(loc):
    """The kind of a raw frame location string."""
    if ADDR_RE.match(loc):
        return "address"
    m = JS_RE.match(loc)
    if m:
        return "js name (url:line:col)" + ("[source]" if m.group(5) else "")
    if re.match(r"^[a-z-]+:.*\[\d+\]$", loc) or re.match(
            r"^(file|blob|resource|chrome|moz-src|https?):", loc):
        return "js url only" + ("[source]" if loc.endswith("]") else "")
    if loc == "(root)":
        return "(root)"
    return "label or symbol"


def processes(p, depth=0, path="top"):
    """Yields (depth, path, process) for p and every nested process."""
    yield depth, path, p
    for i, c in enumerate(p.get("processes", [])):
        yield from processes(c, depth + 1, "%s.processes[%d]" % (path, i))


def raw_thread(t, ex):
    st = t["stringTable"]
    ss, fs, ks = (t["samples"]["schema"], t["frameTable"]["schema"],
                  t["stackTable"]["schema"])
    samples, frames, stacks = (t["samples"]["data"], t["frameTable"]["data"],
                               t["stackTable"]["data"])
    si, ti = ss["stack"], ss["time"]
    print("    thread %r processName=%r processType=%r pid=%r tid=%r" % (
        t.get("name"), t.get("processName"), t.get("processType"),
        t.get("pid"), t.get("tid")))
    nulls = sum(1 for s in samples if s[si] is None)
    print("      samples=%d null-stack=%d stacks=%d frames=%d strings=%d "
          "markers=%d" % (len(samples), nulls, len(stacks), len(frames),
                          len(st), len(t["markers"]["data"])))
    if samples:
        print("      time %.3f .. %.3f ms; sample row lengths %s" % (
            samples[0][ti], samples[-1][ti],
            dict(collections.Counter(len(s) for s in samples))))
        c = ss.get("threadCPUDelta")
        if c is not None:
            vals = [s[c] for s in samples if len(s) > c]
            nums = [v for v in vals if v is not None]
            print("      threadCPUDelta: %d rows have it (%d null), sum %s, "
                  "max %s" % (len(vals), len(vals) - len(nums), sum(nums),
                              max(nums) if nums else None))
        if "weight" in ss:
            print("      weight column present")
    print("      samples.schema %s" % json.dumps(ss))
    print("      stackTable.schema %s" % json.dumps(ks))
    print("      frameTable.schema %s" % json.dumps(fs))
    print("      markers.schema %s" % json.dumps(t["markers"]["schema"]))
    used = set(x[si] for x in samples)
    mstacks = sum(1 for m in t["markers"]["data"]
                  if len(m) > 5 and isinstance(m[5], dict) and "stack" in m[5])
    locs = [st[r[fs["location"]]] for r in frames]
    print("      stacks used by samples=%d, markers with a stack=%d, "
          "locations with ';'=%d, repeated locations=%d" % (
              len(used - {None}), mstacks, sum(1 for x in locs if ";" in x),
              len(locs) - len(set(locs))))
    print("      page JS samples (a page.html or blob: JS frame)=%d" % (
        page_js(samples, si, stacks, ks, frames, fs, st)))
    bad = sum(1 for i, r in enumerate(stacks)
              if r[ks["prefix"]] is not None and r[ks["prefix"]] >= i)
    roots = sum(1 for r in stacks if r[ks["prefix"]] is None)
    print("      stack roots=%d, prefixes not below their row=%d" % (
        roots, bad))
    print("      frame row lengths %s" % dict(
        collections.Counter(len(r) for r in frames)))
    kinds = collections.Counter(kind(st[r[fs["location"]]]) for r in frames)
    print("      frame kinds %s" % dict(kinds))
    impl = fs.get("implementation")
    if impl is not None:
        used = collections.Counter(
            st[r[impl]] if len(r) > impl and r[impl] is not None else None
            for r in frames)
        print("      implementation %s" % dict(used))
    rel = fs.get("relevantForJS")
    print("      relevantForJS true in %d frames" % sum(
        1 for r in frames if r[rel]))
    cat = fs.get("category")
    cats = collections.Counter(
        (r[cat], r[fs["subcategory"]]) if len(r) > cat else "absent"
        for r in frames)
    print("      (category, subcategory) %s" % dict(sorted(
        cats.items(), key=lambda kv: -kv[1])[:8]))
    iw = fs.get("innerWindowID")
    print("      innerWindowID values %s" % sorted(set(
        r[iw] for r in frames if len(r) > iw)))
    if ex:
        print("      e.g. samples %s" % short(samples[:3], 200))
        print("      e.g. stackTable %s" % short(stacks[:4], 200))
        seen = set()
        for r in frames:
            k = kind(st[r[fs["location"]]])
            if k not in seen:
                seen.add(k)
                row = [st[r[0]]] + r[1:]
                print("      e.g. frame (%s) %s" % (k, short(row, 160)))
        folded(t, st, samples, si, stacks, ks, frames, fs)


def page_js(samples, si, stacks, ks, frames, fs, st):
    """Samples whose stack holds a JS frame of page.html or its worker."""
    memo = {}

    def has(i):
        chain = []
        while i is not None and i not in memo:
            chain.append(i)
            i = stacks[i][ks["prefix"]]
        found = memo.get(i, False)
        for j in reversed(chain):
            loc = st[frames[stacks[j][ks["frame"]]][fs["location"]]]
            found = found or (" (" in loc and ("page.html" in loc or
                                               "blob:null" in loc))
            memo[j] = found
        return found

    return sum(1 for x in samples if x[si] is not None and has(x[si]))


def folded(t, st, samples, si, stacks, ks, frames, fs):
    c = collections.Counter()
    for s in samples:
        names, i = [], s[si]
        while i is not None:
            names.append(st[frames[stacks[i][ks["frame"]]][fs["location"]]])
            i = stacks[i][ks["prefix"]]
        c[";".join(reversed(names))] += 1
    for k, v in c.most_common(5):
        print("      top %d %s" % (v, k if len(k) < 300 else
                                   "..." + k[-290:]))


def raw(p, ex):
    m = p["meta"]
    print("  raw Gecko profile: meta.version=%s interval=%s ms "
          "startTime=%s stackwalk=%s" % (m.get("version"), m.get("interval"),
                                         m.get("startTime"),
                                         m.get("stackwalk")))
    print("  configuration %s" % json.dumps(m.get("configuration")))
    print("  sampleUnits %s" % json.dumps(m.get("sampleUnits")))
    print("  top-level keys %s" % list(p))
    allb = len(json.dumps(p, separators=(",", ":"), ensure_ascii=False))
    parts = collections.Counter()
    for depth, path, proc in processes(p):
        for t in proc["threads"]:
            for k in ("markers", "samples", "stackTable", "frameTable",
                      "stringTable"):
                parts[k] += len(json.dumps(t[k], separators=(",", ":"),
                                           ensure_ascii=False))
    print("  share of the JSON: %s" % ", ".join(
        "%s %.0f%%" % (k, 100.0 * v / allb) for k, v in parts.items()))
    for depth, path, proc in processes(p):
        pm = proc["meta"]
        print("  %s: meta.processType=%s version=%s %d threads, %d "
              "processes, sources=%d, libs=%d" % (
                  path, pm.get("processType"), pm.get("version"),
                  len(proc["threads"]), len(proc.get("processes", [])),
                  len(proc.get("sources", {}).get("data", [])),
                  len(proc.get("libs", []))))
        for t in proc["threads"]:
            raw_thread(t, ex)


def processed(p, ex):
    m = p["meta"]
    shared = p.get("shared", {})
    print("  processed profile: preprocessedProfileVersion=%s "
          "meta.version=%s interval=%s" % (m.get("preprocessedProfileVersion"),
                                           m.get("version"),
                                           m.get("interval")))
    print("  top-level keys %s; shared keys %s" % (list(p), list(shared)))
    for t in p["threads"]:
        strings = shared.get("stringArray", t.get("stringArray"))
        print("    thread %r processName=%r processType=%r pid=%r tid=%r" % (
            t.get("name"), t.get("processName"), t.get("processType"),
            t.get("pid"), t.get("tid")))
        s = t["samples"]
        stk = s["stack"]
        print("      samples length=%s (stack column %d) null-stack=%d "
              "columns %s weightType=%r weight=%s" % (
                  s.get("length"), len(stk),
                  sum(1 for x in stk if x is None), list(s),
                  s.get("weightType", "absent"),
                  short(s.get("weight", "absent"))))
        for tab in ("stackTable", "frameTable", "funcTable", "resourceTable",
                    "nativeSymbols"):
            where = t if tab in t else shared
            if tab in where:
                print("      %s (%s) length=%s columns %s" % (
                    tab, "thread" if where is t else "shared",
                    where[tab].get("length"), list(where[tab])))
        print("      strings: %s, %d" % (
            "shared.stringArray" if "stringArray" in shared
            else "thread.stringArray", len(strings)))
        if ex:
            st = t.get("stackTable", shared.get("stackTable"))
            ft = t.get("frameTable", shared.get("frameTable"))
            fn = t.get("funcTable", shared.get("funcTable"))
            c = collections.Counter()
            for x in stk:
                names = []
                while x is not None:
                    names.append(strings[fn["name"][ft["func"][
                        st["frame"][x]]]])
                    x = st["prefix"][x]
                c[";".join(reversed(names))] += 1
            for k, v in c.most_common(5):
                print("      top %d %s" % (v, k))


def main(argv):
    ex = "-x" in argv
    for path in [a for a in argv if a != "-x"]:
        raw_bytes, p = load(path)
        print("%s: %d bytes" % (path, len(raw_bytes)))
        if "preprocessedProfileVersion" in p.get("meta", {}):
            processed(p, ex)
        else:
            raw(p, ex)


if __name__ == "__main__":
    main(sys.argv[1:])
