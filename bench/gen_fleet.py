#!/usr/bin/env python3
"""gen_fleet.py N OUTDIR BASE.pb.gz... : writes N pprof CPU profiles,
OUTDIR/svcSS/hostNNNNN.pb.gz, made from real captures (BASE, used in
turn by service): every sample's values scaled by a factor from 1 to 4,
about one sample in ten dropped, and labels added (service and host on
every sample, an endpoint on each), so that no two profiles are alike.
Deterministic: the same arguments give the same bytes. The protobuf wire
format is rewritten by hand: only the Sample messages and the string
table change; every other field is copied as it is."""
import gzip
import os
import random
import sys
import zlib

from pbwire import fields, msg as lenfield, read_varint as varint, \
    varint as put_varint


def packed(vals):
    return b"".join(put_varint(v) for v in vals)


def label(key, s):
    return lenfield(3, put_varint(1 << 3) + put_varint(key) +
                    put_varint(2 << 3) + put_varint(s))


class Base:
    def __init__(self, path):
        data = gzip.open(path).read()
        self.head = []      # raw fields before the first sample
        self.tail = []      # raw fields after: all but samples
        self.samples = []   # (raw location field(s), values, labels raw)
        self.nstrings = 0
        for num, wt, v, raw in fields(data):
            if num == 2:
                locs, vals, rest = b"", [], b""
                for n2, w2, v2, r2 in fields(v):
                    if n2 == 1:
                        locs += r2
                    elif n2 == 2 and w2 == 2:
                        j = 0
                        while j < len(v2):
                            x, j = varint(v2, j)
                            vals.append(x)
                    elif n2 == 2:
                        vals.append(v2)
                    else:
                        rest += r2
                self.samples.append((locs, vals, rest))
            elif num != 9:     # time_nanos: each profile its own
                if num == 6:
                    self.nstrings += 1
                (self.tail if self.samples else self.head).append(raw)


def profile(base, i, service, rnd, endpoints):
    host = "host%05d" % i
    strs = ["service", service, "host", host, "endpoint"] + endpoints
    k = {s: base.nstrings + j for j, s in enumerate(strs)}
    out = [b"".join(base.head)]
    for locs, vals, rest in base.samples:
        if rnd.random() < 0.1:
            continue
        f = rnd.randint(1, 4)
        body = (locs + lenfield(2, packed(v * f for v in vals)) + rest +
                label(k["service"], k[service]) + label(k["host"], k[host]) +
                label(k["endpoint"], k[rnd.choice(endpoints)]))
        out.append(lenfield(2, body))
    out.append(b"".join(base.tail))
    out.extend(lenfield(6, s.encode()) for s in strs)
    # time_nanos: one profile every 10 s from 2026-11-16 00:00 UTC
    out.append(put_varint(9 << 3) + put_varint((1794787200 + 10 * i) * 10**9))
    return b"".join(out)


def main():
    n, outdir, paths = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    bases = [Base(p) for p in paths]
    endpoints = ["/api/users", "/api/orders", "/api/search", "/health"]
    nsvc = 20
    for s in range(nsvc):
        os.makedirs(os.path.join(outdir, "svc%02d" % s), exist_ok=True)
    for i in range(n):
        s = i % nsvc
        rnd = random.Random(i)
        pb = profile(bases[s % len(bases)], i, "svc%02d" % s, rnd, endpoints)
        z = zlib.compressobj(1, zlib.DEFLATED, 31)
        with open(os.path.join(outdir, "svc%02d" % s, "host%05d.pb.gz" % i),
                  "wb") as fh:
            fh.write(z.compress(pb) + z.flush())


if __name__ == "__main__":
    main()
