#!/usr/bin/env python3
# Writes flame graph SVGs in the layouts of flamegraph.pl (its 2012
# versions and its current one) and of inferno, from a small folded
# profile, for svg2folded's tests: neither program is needed. Each layout
# follows what those programs are documented to write (see README).
# usage: python3 handmade.py   (writes the *.svg files of this folder)
import random

PROFILE = """main;parse (x);lex 12000
main;parse (x);parse 3000
main;run;exec 25000
main;run;exec;alloc<T> 15000
main;run;gc 8000
main;run 2000
main;samples (2 samples, 1%) 7000
main;tiny 1
main;"quoted" & amp 4000
other;x_[k] 20000
"""
BEFORE = """main;parse (x);lex 10000
main;parse (x);parse 3000
main;run;exec 30000
main;run;exec;alloc<T> 15000
main;run;gc 4000
main;run 2000
main;samples (2 samples, 1%) 7000
main;"quoted" & amp 4000
other;x_[k] 25000
"""


def parse(text):
    out = []
    for line in text.splitlines():
        stack, n = line.rsplit(" ", 1)
        out.append((stack.split(";"), int(n)))
    return out


def frames(after, before=None):
    """flamegraph.pl's flow(): merged frames (name, depth, stime, etime,
    self delta), siblings in name order; "" at depth 0 is "all"."""
    counts = {}
    for stack, n in after:
        counts.setdefault(tuple(stack), [0, 0])[1] += n
    for stack, n in before or []:
        counts.setdefault(tuple(stack), [0, 0])[0] += n
    nodes = []
    t = 0
    last = []
    opened = {}
    for stack in sorted(counts, key=lambda s: ";".join(s)):
        b, a = counts[stack]
        this = [""] + list(stack)
        same = 0
        while same < min(len(last), len(this)) and last[same] == this[same]:
            same += 1
        for i in range(len(last) - 1, same - 1, -1):
            name, st, d = opened.pop(i)
            nodes.append([name, i, st, t, d])
        for i in range(same, len(this)):
            opened[i] = (this[i], t, 0)
        name, st, d = opened[len(this) - 1]
        opened[len(this) - 1] = (name, st, d + a - b)
        t += a
        last = this
    for i in range(len(last) - 1, -1, -1):
        name, st, d = opened.pop(i)
        nodes.append([name, i, st, t, d])
    return nodes, t


def esc(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


def grouped(n):
    return "{:,}".format(n)


def pl_svg(path, after, before=None, inverted=False, countname="samples",
           old=False, seed=1):
    nodes, tmax = frames(after, before)
    width, xpad, fh, fontsize = 1200, 10, 16, 12
    wpt = (width - 2 * xpad) / tmax
    nodes = [n for n in nodes if (n[3] - n[2]) * wpt >= 0.1]
    depthmax = max(n[1] for n in nodes)
    ypad1, ypad2 = fontsize * 3, fontsize * 2 + 10
    height = (depthmax + 1) * fh + ypad1 + ypad2
    random.Random(seed).shuffle(nodes)	# Perl's hash order
    o = []
    o.append('<?xml version="1.0" standalone="no"?>\n<!DOCTYPE svg PUBLIC '
             '"-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/'
             'DTD/svg11.dtd">\n')
    o.append('<svg version="1.1" width="%d" height="%d" onload="init(evt)" '
             'viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg" '
             'xmlns:xlink="http://www.w3.org/1999/xlink">\n'
             % (width, height, width, height))
    o.append('<!-- Flame graph stack visualization. -->\n<!-- NOTES:  -->\n')
    o.append('<defs>\n\t<linearGradient id="background" y1="0" y2="1" '
             'x1="0" x2="0" >\n\t\t<stop stop-color="#eeeeee" offset="5%" />'
             '\n\t</linearGradient>\n</defs>\n')
    o.append('<script type="text/ecmascript">\n<![CDATA[\n\tfunction s(info)'
             ' { details.nodeValue = "Function: " + info; }\n'
             '\tvar t = "<title>x (1 samples, 1%)</title>";\n]]>\n</script>\n')
    o.append('<rect x="0.0" y="0" width="%.1f" height="%.1f" '
             'fill="url(#background)"  />\n' % (width, height))
    o.append('<text id="title" x="600.00" y="24" >%s</text>\n'
             % ("Icicle Graph" if inverted else "Flame Graph"))
    if not old:
        o.append('<g id="frames">\n')
    for k, (name, depth, st, et, delta) in enumerate(nodes):
        x1 = xpad + st * wpt
        x2 = xpad + et * wpt
        if inverted:
            y1 = ypad1 + depth * fh
            y2 = ypad1 + (depth + 1) * fh - 1
        else:
            y1 = height - ypad2 - (depth + 1) * fh + 1
            y2 = height - ypad2 - depth * fh
        samples = grouped(et - st)
        if name == "" and depth == 0:
            info = "all (%s %s, 100%%)" % (samples, countname)
        else:
            pct = "%.2f" % (100 * (et - st) / tmax)
            func = esc(name)
            if func.endswith(("_[k]", "_[w]", "_[i]", "_[j]")):
                func = func[:-4]
            info = "%s (%s %s, %s%%" % (func, samples, countname, pct)
            if before is not None:
                d = "%.2f" % (100 * delta / tmax)
                info += "; %s%%" % ("+" + d if delta > 0 else d)
            info += ")"
        rect = ('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" '
                'fill="rgb(230,%d,30)" rx="2" ry="2" />'
                % (x1, y1, x2 - x1, y2 - y1, 80 + k % 100))
        if old:
            # 2012: a class, mouse handlers with the info, no <g id="frames">
            mouse = info.replace("'", "\\'")
            o.append('<g class="func_g" onmouseover="s(\'%s\')" '
                     'onmouseout="c()">\n' % mouse)
            if k != 3:	# the oldest had no <title>: one frame without
                o.append('<title>%s</title>' % info)
            o.append(rect + '\n<text text-anchor="" x="%.2f" y="%.1f" '
                     'font-size="12" font-family="Verdana" fill="rgb(0,0,0)"'
                     '  ></text>\n</g>\n' % (x1 + 3, 3 + (y1 + y2) / 2))
        else:
            o.append('<g >\n<title>%s</title>%s\n<text  x="%.2f" y="%.1f" >'
                     '</text>\n</g>\n' % (info, rect, x1 + 3, 3 + (y1 + y2) / 2))
    if not old:
        o.append('</g>\n')
    o.append('</svg>\n')
    with open(path, "w") as f:
        f.write("".join(o))


def inferno_svg(path, after):
    nodes, tmax = frames(after)
    width, fh = 1200, 16
    nodes = [n for n in nodes if (n[3] - n[2]) / tmax * (width - 20) >= 0.1]
    depthmax = max(n[1] for n in nodes)
    height = (depthmax + 1) * fh + 36 + 34
    o = ['<?xml version="1.0" standalone="no"?><!DOCTYPE svg PUBLIC '
         '"-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/'
         'svg11.dtd"><svg version="1.1" width="1200" height="%d" '
         'onload="init(evt)" viewBox="0 0 1200 %d" '
         'xmlns="http://www.w3.org/2000/svg" '
         'xmlns:xlink="http://www.w3.org/1999/xlink" '
         'xmlns:fg="http://github.com/jonhoo/inferno">' % (height, height),
         '<!--Flame graph stack visualization.--><!--NOTES: --><defs>'
         '<script type="text/ecmascript"><![CDATA[var nametype = '
         '\'Function:\';]]></script></defs><rect x="0" y="0" width="100%%" '
         'height="%d" fill="url(#background)"/>' % height,
         '<svg id="frames" x="10" width="1180" total_samples="%d">' % tmax]
    # inferno writes a frame when it ends: children before parents
    for name, depth, st, et, delta in nodes:
        y = height - 34 - (depth + 1) * fh + 1
        if depth == 0:
            info = "all (%s samples, 100%%)" % grouped(et - st)
        else:
            func = esc(name)
            if func.endswith(("_[k]", "_[w]", "_[i]", "_[j]")):
                func = func[:-4]
            info = "%s (%s samples, %.2f%%)" % (func, grouped(et - st),
                                                100 * (et - st) / tmax)
        o.append('<g><title>%s</title><rect x="%.4f%%" y="%d" '
                 'width="%.4f%%" height="15" fill="rgb(240,100,30)" '
                 'fg:x="%d" fg:w="%d"/><text x="%.4f%%" y="%.2f"></text></g>'
                 % (info, 100 * st / tmax, y, 100 * (et - st) / tmax, st,
                    et - st, 100 * st / tmax + 0.25, y + 10.5))
    o.append('</svg></svg>')
    with open(path, "w") as f:
        f.write("".join(o))


after = parse(PROFILE)
pl_svg("flamegraph-pl.svg", after)
pl_svg("flamegraph-pl-icicle.svg", after, inverted=True, seed=2)
pl_svg("flamegraph-pl-us.svg", after, countname="us", seed=3)
pl_svg("flamegraph-pl-2012.svg", after, old=True, seed=4)
pl_svg("flamegraph-pl-diff.svg", after, before=parse(BEFORE), seed=5)
inferno_svg("inferno.svg", after)
