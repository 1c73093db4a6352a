#!/usr/bin/env python3
"""Writes a big synthetic OTLP profiles request in OTLP/JSON, for benchmarks.

usage: gen_otlp.py [MBYTES] > big.json
Writes about MBYTES megabytes (default 120), made the same on every run
(fixed seed), as an eBPF profiler's export looks: a dictionary of 20,000
functions, 40,000 locations (lines of a function, or a mapping and an
address) and 60,000 stacks up to 40 deep, then resource profiles of 20
services, each a CPU profile whose samples name a stack with one value
(a decimal string, as OTLP/JSON writes 64-bit integers) and a thread
attribute. The samples are most of the bytes.
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


strings = ["", "cpu", "nanoseconds", "thread.name", "libc.so.6",
           "app.go"]
nf = 20000
for i in range(nf):
    strings.append("pkg%d.(*Type%d).method%d" % (i % 97, i % 31, i))
threads = ["worker-%d" % i for i in range(16)]
attr_base = len(strings)
strings += threads
w('{"resourceProfiles":[')
samples_per_service = None
stop = budget * 0.9
for svc in range(20):
    w(('' if svc == 0 else ',') +
      '{"resource":{"attributes":[{"key":"service.name","value":'
      '{"stringValue":"svc-%d"}}]},"scopeProfiles":[{"scope":{},'
      '"profiles":[{"sampleType":{"typeStrindex":1,"unitStrindex":2},'
      '"samples":[' % svc)
    first = True
    target = stop * (svc + 1) / 20
    while written < target:
        rows = []
        for _ in range(1000):
            rows.append('{"stackIndex":%d,"values":["%d"],'
                        '"attributeIndices":[%d]}' % (
                            rnd.randrange(1, 60001),
                            rnd.choice((10000000, 20000000, 30000000)),
                            rnd.randrange(1, 17)))
        w(("" if first else ",") + ",".join(rows))
        first = False
    w(']}]}]}')
w('],"dictionary":{"mappingTable":[{},{"memoryStart":"4194304",'
  '"fileOffset":"0","filenameStrindex":4}],')
locs = ['{}']
for i in range(1, 40001):
    if i % 10 == 0:
        locs.append('{"mappingIndex":1,"address":"%d"}' %
                    (4194304 + rnd.randrange(1 << 20)))
    else:
        locs.append('{"lines":[{"functionIndex":%d,"line":"%d"}]}' %
                    (rnd.randrange(1, nf + 1), rnd.randrange(1, 900)))
w('"locationTable":[%s],' % ",".join(locs))
w('"functionTable":[{},%s],' % ",".join(
    '{"nameStrindex":%d,"filenameStrindex":5}' % (6 + i)
    for i in range(nf)))
stacks = ['{}']
for i in range(1, 60001):
    stacks.append('{"locationIndices":[%s]}' % ",".join(
        str(rnd.randrange(1, 40001)) for _ in range(rnd.randrange(3, 41))))
w('"stackTable":[%s],' % ",".join(stacks))
w('"attributeTable":[{},%s],' % ",".join(
    '{"keyStrindex":3,"value":{"stringValue":"%s"}}' % t for t in threads))
w('"stringTable":[%s]}}' % ",".join('"%s"' % s for s in strings))
