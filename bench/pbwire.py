"""The protocol buffer wire format, for what writes or reads profiles by
hand: gen_fleet.py, testdata/pprof2folded/bad/make.py and the tests
(t-pprof, t-pprofmerge, t-hostile), which import it with bench/ on
sys.path."""


def varint(v):
    """The varint of v (negative numbers as their 64-bit two's complement,
    as protobuf writes an int64)."""
    out = bytearray()
    v &= (1 << 64) - 1
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field(num, wt, payload):
    """Field num of wire type wt: 0 a varint (payload a number), 2 bytes
    with their length (payload bytes)."""
    key = varint(num << 3 | wt)
    if wt == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def num(n, v):
    """Field n, a varint."""
    return field(n, 0, v)


def msg(n, body):
    """Field n, a message or bytes."""
    return field(n, 2, body)


def read_varint(b, i):
    """The varint at b[i:] and the index after it."""
    x = s = 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return x, i


def fields(b):
    """The fields of message b, in order: (number, wire type, value, raw
    bytes), the value a number for a varint, bytes for the others."""
    i = 0
    while i < len(b):
        start = i
        key, i = read_varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = read_varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 2:
            n, i = read_varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        yield num, wt, v, b[start:i]
