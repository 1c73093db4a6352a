#!/usr/bin/env python3
"""An independent reading of Firefox Profiler files, for the tests.

usage: firefox_oracle.py [--lines] [--no-jit] [--thread-root] FILE

Prints folded stacks, byte-sorted, as stackcollapse-firefox should: the
whole document is loaded (json), every thread of every process (raw
Gecko profiles nest them in "processes"), frames named as the Firefox
Profiler's process-profile.js names functions (the same regular
expressions, applied with Python's re), "(root)" left out at the root.
Processed profiles name frames by their funcTable, with strings per
thread or in shared.stringArray, and weights from samples.weight.
"""
import gzip
import json
import re
import sys

CPP = [re.compile(r'^(.*) \(in ([^)]*)\) (\+ [0-9]+)$'),
       re.compile(r'^(.*) \(in ([^)]*)\) (\(.*:.*\))$'),
       re.compile(r'^(.*) \(in ([^)]*)\)$')]
JS = [re.compile(r'^(.*) \((.+?):([0-9]+)(?::([0-9]+))?\)(?:\[(\d+)\])?$'),
      re.compile(r'^()(.+?):([0-9]+)(?::([0-9]+))?(?:\[(\d+)\])?$')]

opts = {a for a in sys.argv[1:] if a.startswith('--')}
path = [a for a in sys.argv[1:] if not a.startswith('--')][0]


def user_script(u):
    if not u or u.startswith('node:') or u.startswith('resource://') \
            or u.startswith('chrome://') \
            or u.startswith('moz-src://'):
        return False
    if u[0] in '/\\' or (len(u) >= 3 and u[1] == ':' and u[2] in '\\/'):
        return True
    i = u.find(':')
    return i >= 0 and u[i + 1:i + 3] == '//'


def clean(s):
    return ''.join('_' if c == ';' or ord(c) < 32 or c == '\x7f' else c
                   for c in s)


def fname(name, js, url, line):
    if js and name == '' and url:
        name = '(root scope) ' + url
    if not js:
        url = line = None
    if '--lines' in opts and url:
        name += ' ' + url
        if line is not None:
            name += ':%d' % line
    if name == '':
        name = '[unknown]'
    name = clean(name)
    if js and '--no-jit' not in opts and user_script(url):
        name += '_[j]'
    return name


def locname(s):
    if s.startswith('0x'):
        return fname(s, False, None, None)
    for r in CPP:
        m = r.match(s)
        if m:
            n = m.group(1)
            if n.startswith('non-virtual thunk to '):
                n = n[21:]
            return fname(n, False, None, None)
    for r in JS:
        m = r.match(s)
        if m:
            url = m.group(2).split(' -> ')[-1]
            return fname(m.group(1), True, url, int(m.group(3)))
    return fname(s, False, None, None)


out = {}


def add(stack, w):
    out[stack] = out.get(stack, 0) + w


def root_of(t):
    return clean('%s-%s/%s' % (t.get('name') or 'thread',
                               '' if t.get('pid') is None else t['pid'],
                               '' if t.get('tid') is None else t['tid']))


def col(table, name):
    i = table['schema'].get(name)
    return [r[i] if i is not None and i < len(r) else None
            for r in table['data']]


def raw_thread(t):
    strings = t['stringTable']
    loc = col(t['frameTable'], 'location')
    prefix = col(t['stackTable'], 'prefix')
    frame = col(t['stackTable'], 'frame')
    counts = {}
    for s in col(t['samples'], 'stack'):
        if s is not None:
            counts[s] = counts.get(s, 0) + 1
    emit(t, counts, prefix, frame, lambda f: locname(strings[loc[f]]))


def emit(t, counts, prefix, frame, name):
    for s, w in counts.items():
        names = []
        while s is not None:
            names.append(name(frame[s]))
            s = prefix[s]
        names.reverse()
        if len(names) > 1 and names[0] == '(root)':
            names = names[1:]
        if '--thread-root' in opts:
            names.insert(0, root_of(t))
        add(';'.join(names), w)


def processed_thread(t, shared):
    strings = t.get('stringArray') or t.get('stringTable') or \
        shared.get('stringArray')
    st = t.get('stackTable') or shared['stackTable']
    ft = t.get('frameTable') or shared['frameTable']
    fu = t.get('funcTable') or shared['funcTable']
    if 'prefixOffset' in st:    # v66
        prefix = [None if o == 0 else i - o
                  for i, o in enumerate(st['prefixOffset'])]
    else:
        prefix = [None if p is None or p < 0 else p for p in st['prefix']]
    smp = t.get('samples', {})
    w = smp.get('weight')
    counts = {}
    for i, s in enumerate(smp.get('stack', [])):
        if s is not None:
            counts[s] = counts.get(s, 0) + (1 if w is None else w[i])
    flags = fu.get('flags')     # v75

    def name(f):
        fn = ft['func'][f]
        fl = flags[fn] if flags else 0
        js = bool(fu['isJS'][fn]) if 'isJS' in fu else bool(fl & 1)
        fi = None
        if 'fileName' in fu:
            fi = fu['fileName'][fn]
        elif 'source' in fu and (not flags or fl & 8) and \
                fu['source'][fn] is not None:
            fi = shared['sources']['filename'][fu['source'][fn]]
        ln = fu['lineNumber'][fn]
        if flags and not fl & 16:
            ln = None
        return fname(strings[fu['name'][fn]], js,
                     strings[fi] if fi is not None else None, ln)
    emit(t, counts, prefix, st['frame'], name)


def walk(p):
    for t in p.get('threads', []):
        raw_thread(t)
    for c in p.get('processes', []):
        walk(c)


with open(path, 'rb') as f:
    b = f.read()
if b[:2] == b'\x1f\x8b':
    b = gzip.decompress(b)
doc = json.loads(b)
if 'preprocessedProfileVersion' in doc['meta']:
    for t in doc['threads']:
        processed_thread(t, doc.get('shared', {}))
else:
    walk(doc)
for k in sorted(out, key=lambda s: s.encode('utf-8', 'surrogateescape')):
    v = out[k]
    sys.stdout.write('%s %s\n' % (k, v))
