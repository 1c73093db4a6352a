#!/usr/bin/env python3
"""An independent, exact reading of a JFR recording, for the tests.

usage: jfr print --json --stack-depth 2048 --events E R.jfr |
           jfr_json_oracle.py [--threads] [--weight FIELD]

Reads what `jfr print --json` writes (the JDK's own parser of the
recording, its values exact: durations as ISO-8601 "PT0.01112304S",
sizes in bytes) and prints folded stacks, byte-sorted, as
stackcollapse-jfr should read the recording itself: frames
"package.Class.method" root first, hidden methods (lambda proxies,
LambdaForms) left out as jfr print leaves them out, the thread
(sampledThread, else eventThread: its javaName when it has a Java thread
id, else its osName) at the root with --threads, and each event weighed
by FIELD (a duration in nanoseconds, a number as it is), else 1.
"""
import json
import re
import sys
from decimal import Decimal

args = sys.argv[1:]
threads = '--threads' in args
weight = args[args.index('--weight') + 1] if '--weight' in args else None


def clean(s):
    return ''.join('_' if c == ';' or ord(c) < 32 else c for c in s)


def duration(s):
    m = re.fullmatch(r'(-?)PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?', s)
    if not m:
        raise ValueError(s)
    ns = Decimal(m.group(4) or 0) * 10**9 + \
        int(m.group(3) or 0) * 60 * 10**9 + int(m.group(2) or 0) * 3600 * 10**9
    return -int(ns) if m.group(1) else int(ns)


out = {}
for ev in json.load(sys.stdin)['recording']['events']:
    v = ev['values']
    st = v.get('stackTrace')
    if not st:
        continue
    names = [clean(f['method']['type']['name'].replace('/', '.') + '.' +
                   f['method']['name'])
             for f in st['frames'] if not f['method'].get('hidden')]
    if not names:
        continue
    names.reverse()
    w = 1
    if weight:
        x = v.get(weight)
        if x is None:
            continue
        w = duration(x) if isinstance(x, str) else int(x)
        if w <= 0:
            continue
    if threads:
        t = v.get('sampledThread') or v.get('eventThread')
        if t:
            names.insert(0, clean(t['javaName'] if (t.get('javaThreadId') or 0) > 0
                                  else t['osName']))
    k = ';'.join(names)
    out[k] = out.get(k, 0) + w
for k in sorted(out, key=lambda s: s.encode()):
    print(k, out[k])
