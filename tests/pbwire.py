"""Protocol buffer wire format for the tests that write or read profiles
by hand (t-pprof, t-pprofmerge, t-hostile): imported with tests/ on
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
    """The fields of message b, in order: (number, value), the value a
    number for a varint, bytes for a length-delimited field."""
    i = 0
    while i < len(b):
        k, i = read_varint(b, i)
        if k & 7 == 0:
            x, i = read_varint(b, i)
            yield k >> 3, x
        else:
            n, i = read_varint(b, i)
            yield k >> 3, b[i:i + n]
            i += n
