#!/usr/bin/env python3
"""Writes the small hand-made profiles of this directory: one valid
profile (packed and unpacked fields), then copies broken in one way each.
Run it here: python3 make.py"""
import gzip
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
from pbwire import field, varint  # noqa: E402


def msg(*fields):
    return b"".join(fields)


def packed(num, values):
    return field(num, 2, b"".join(varint(v) for v in values))


def unpacked(num, values):
    return b"".join(field(num, 0, v) for v in values)


STRINGS = ["", "samples", "count", "main", "work", "leaf", "tenant", "acme",
           "size", "bytes"]


def profile(samples=None, functions=None, locations=None, strings=STRINGS,
            types=((1, 2),)):
    if samples is None:
        samples = [
            msg(packed(1, [3, 2, 1]), packed(2, [5]),
                field(3, 2, msg(field(1, 0, 6), field(2, 0, 7)))),
            # unpacked repeated fields, as Go writes one or two elements
            msg(unpacked(1, [2, 1]), unpacked(2, [7]),
                field(3, 2, msg(field(1, 0, 8), field(3, 0, 512), field(4, 0, 9)))),
            msg(unpacked(1, [1]), unpacked(2, [1])),
        ]
    if functions is None:
        functions = [msg(field(1, 0, i), field(2, 0, i + 2)) for i in (1, 2, 3)]
    if locations is None:
        locations = [msg(field(1, 0, i), field(4, 2, field(1, 0, i)))
                     for i in (1, 2, 3)]
    out = b"".join(field(1, 2, msg(field(1, 0, t), field(2, 0, u)))
                   for t, u in types)
    out += b"".join(field(2, 2, s) for s in samples)
    out += b"".join(field(4, 2, l) for l in locations)
    out += b"".join(field(5, 2, f) for f in functions)
    out += b"".join(field(6, 2, s.encode()) for s in strings)
    return out


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


good = profile()
write("good.pb", good)
write("trunc.pb", good[:-3])
# a sample sent as a varint instead of a message
write("wiretype.pb", field(2, 0, 5) + good)
# a location whose length runs far past the end
write("length.pb", good + varint(4 << 3 | 2) + varint(0xFFFFFFFF) + b"\x08\x01")
# a Location holding a 32-bit field where its id (a varint) belongs
write("nested.pb", good + field(4, 2, varint(1 << 3 | 5) + b"\x01\x00\x00\x00"))
write("strindex.pb", profile(functions=[msg(field(1, 0, 1), field(2, 0, 99)),
                                        msg(field(1, 0, 2), field(2, 0, 4)),
                                        msg(field(1, 0, 3), field(2, 0, 5))]))
write("noloc.pb", profile(samples=[msg(packed(1, [7, 1]), packed(2, [1]))]))
write("nofunc.pb", profile(locations=[msg(field(1, 0, 1), field(4, 2, field(1, 0, 9)))]
                           + [msg(field(1, 0, i), field(4, 2, field(1, 0, i)))
                              for i in (2, 3)]))
write("values.pb", profile(samples=[msg(packed(1, [1]), packed(2, [1, 2]))]))
write("negative.pb", profile(samples=[msg(packed(1, [2, 1]), unpacked(2, [-4])),
                                      msg(packed(1, [1]), unpacked(2, [3]))]))
write("dupid.pb", profile(locations=[msg(field(1, 0, 1), field(4, 2, field(1, 0, 1)))] * 2))
write("nostack.pb", profile(samples=[msg(packed(2, [4])),
                                     msg(packed(1, [1]), packed(2, [1]))]))
# ids in no order, not 1..n: looked up by id, the same stacks as good.pb
write("sparse.pb", profile(
    samples=[msg(packed(1, [30, 20, 10]), packed(2, [5])),
             msg(unpacked(1, [20, 10]), unpacked(2, [7])),
             msg(unpacked(1, [10]), unpacked(2, [1]))],
    functions=[msg(field(1, 0, f), field(2, 0, n))
               for f, n in ((300, 5), (100, 3), (200, 4))],
    locations=[msg(field(1, 0, l), field(4, 2, field(1, 0, f)))
               for l, f in ((20, 200), (30, 300), (10, 100))]))
# locations with no function: in a mapped file, and a bare address
write("unsym.pb", profile(
    samples=[msg(packed(1, [4, 1]), packed(2, [2])),
             msg(packed(1, [5, 2, 1]), packed(2, [3]))],
    locations=[msg(field(1, 0, i), field(4, 2, field(1, 0, i))) for i in (1, 2, 3)]
    + [msg(field(1, 0, 4), field(2, 0, 1), field(3, 0, 0x401234)),
       msg(field(1, 0, 5), field(3, 0, 0xDEADBEEF))],
    strings=STRINGS + ["/usr/lib/libc.so.6"]) + field(3, 2, msg(
        field(1, 0, 1), field(2, 0, 0x400000), field(3, 0, 0x500000),
        field(4, 0, 0x1000), field(5, 0, len(STRINGS)))))
# 5,000 empty locations: 10 KB that decode to far more
write("amplify.pb", profile() + field(4, 2, b"") * 5000)
# one location of 2,000 inlined lines, in stacks up to 100 deep
write("deep.pb", profile(
    samples=[msg(packed(1, [1] * i), packed(2, [1])) for i in range(1, 101)],
    locations=[msg(field(1, 0, 1), b"".join(field(4, 2, field(1, 0, 1))
                                            for _ in range(2000)))]))
write("empty.pb", b"")
write("text.pb", b"main;work;leaf 12\n")
# 4 MiB in 4 KiB of gzip, read with --max-size 1M: a valid profile, then
# strings of 512 KiB of zeros (every field is well formed: the cap stops
# it, at the first field that would end past it)
write("bomb.pb.gz", gzip.compress(
    good + field(6, 2, b"\0" * (512 << 10)) * 8, 9, mtime=0))
# a gzip stream cut short, and one with a damaged body
z = gzip.compress(good, 9, mtime=0)
write("trunc.pb.gz", z[:len(z) // 2])
write("corrupt.pb.gz", z[:12] + bytes(b ^ 0x55 for b in z[12:30]) + z[30:])
# a location with no line, address or mapping: the frame "[unknown]"
write("unknown.pb", profile(
    samples=[msg(packed(1, [4, 1]), packed(2, [2])),
             msg(packed(1, [1]), packed(2, [3]))],
    locations=[msg(field(1, 0, i), field(4, 2, field(1, 0, i))) for i in (1, 2, 3)]
    + [msg(field(1, 0, 4))]))
# heads that cannot begin a profile, each refused before the rest is read:
# a field Profile does not have, a string of 1 TiB (past any cap, read
# followed by an endless stream), a sample type that does not frame as
# fields
write("head-field.pb", field(99, 0, 1) + good)
write("head-length.pb", varint(6 << 3 | 2) + varint(1 << 40) + b"\0" * 16)
write("head-nested.pb", field(1, 2, b"\x08") + good)
# a sample in the first 4 KiB that does not frame as fields, after one
# that does (a negative value in the second case): a field numbered 0
# (which a decoder may skip), a wire type 7. The profile is refused before
# any of its samples is taken or said anything of.
for name, bad, v in (("head-sample-zero.pb", b"\x80\x00\x05", 5),
                     ("head-sample-wt.pb", b"\x0f", -4)):
    write(name, profile(samples=[msg(packed(1, [2, 1]), packed(2, [v])),
                                 msg(packed(1, [1]), bad, packed(2, [3]))]))
# the same two sample types, the default one not the same: the first
# profile's selection is the run's (count, then bytes)
two = [msg(packed(1, [3, 2, 1]), packed(2, [5, 500])),
       msg(packed(1, [2, 1]), packed(2, [7, 70]))]
write("deftype-count.pb", profile(samples=two, types=((1, 2), (8, 9)))
      + field(14, 0, 1))
write("deftype-bytes.pb", profile(samples=two, types=((1, 2), (8, 9)))
      + field(14, 0, 8))
# functions named "a;b", "a:b" and "c\nd": frames "a:b" (one, of both)
# and "c d", the same when their profile is read again and the frames
# are known
write("semicolon.pb", profile(
    samples=[msg(packed(1, [2, 1]), packed(2, [3])),
             msg(packed(1, [3, 1]), packed(2, [4]))],
    strings=STRINGS[:3] + ["a;b", "a:b", "c\nd"]))
# a function named "wo\0rk" and one named "wo": two frames, not one
write("nulname.pb", profile(
    samples=[msg(packed(1, [2, 1]), packed(2, [3])),
             msg(packed(1, [3, 1]), packed(2, [4]))],
    strings=STRINGS[:4] + ["wo\0rk", "wo"]))
# a function named "" (and its system name): the frame "" at a location
# with no address, the address at one with an address; a function at
# two lines of it, one frame
write("blankfunc.pb", profile(
    samples=[msg(packed(1, [2, 1]), packed(2, [3])),
             msg(packed(1, [3, 4]), packed(2, [4])),
             msg(packed(1, [2, 4]), packed(2, [5]))],
    functions=[msg(field(1, 0, 1), field(2, 0, 3)), msg(field(1, 0, 2))],
    locations=[msg(field(1, 0, 1), field(4, 2, msg(field(1, 0, 1), field(2, 0, 10)))),
               msg(field(1, 0, 2), field(4, 2, field(1, 0, 2))),
               msg(field(1, 0, 3), field(3, 0, 0xABC), field(4, 2, field(1, 0, 2))),
               msg(field(1, 0, 4), field(4, 2, msg(field(1, 0, 1), field(2, 0, 20))))]))
# a location in a mapping that is not there; a sample at location 0
write("nomap.pb", profile(
    locations=[msg(field(1, 0, 1), field(2, 0, 9), field(4, 2, field(1, 0, 1)))]
    + [msg(field(1, 0, i), field(4, 2, field(1, 0, i))) for i in (2, 3)]))
write("locid0.pb", profile(samples=[msg(packed(1, [2, 1]), packed(2, [1])),
                                    msg(packed(1, [1, 0]), packed(2, [1]))]))
