#!/usr/bin/env python3
"""Writes a flame graph SVG in the layout of inferno's first releases
(early 2019), to test svg2folded on it: usage: inferno2019.py FOLDED > SVG

What that layout is (read from inferno's flamegraph writer of that time):
frames in the order they end while the sorted stacks are merged (at the
same end, the shallower first), each a <g class="func_g"
onmouseover="s(this)" ...> holding <title>NAME (N samples, P%)</title>
and a <rect> whose x and width are whole pixels, cut (not rounded) from
10 + start * 1180 / total: so narrow frames are 0 pixels wide. Frames
under 0.1 pixel are left out. The code below is this project's own."""
import sys
from xml.sax.saxutils import escape

XPAD, WIDTH, FRAMEHEIGHT, FRAMEPAD, YPAD1, YPAD2 = 10, 1200, 16, 1, 36, 34

lines = []
for line in open(sys.argv[1]):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    if stack and count.isdigit():
        lines.append((stack, int(count)))
lines.sort()

frames, tmp, last, time = [], {}, [], 0


def flow(last, this, time):
    same = 0
    while same < len(last) and same < len(this) and last[same] == this[same]:
        same += 1
    for i in range(same, len(last)):
        frames.append((last[i], i, tmp.pop((last[i], i)), time))
    for i in range(same, len(this)):
        tmp[(this[i], i)] = time


for stack, count in lines:
    this = [""] + stack.split(";")
    flow(last, this, time)
    last = this
    time += count
flow(last, [], time)

wpt = (WIDTH - 2 * XPAD) / time
frames = [f for f in frames if (f[3] - f[2]) >= 0.1 / wpt]
depthmax = max(f[1] for f in frames)
height = (depthmax + 1) * FRAMEHEIGHT + YPAD1 + YPAD2
out = [f'<?xml version="1.0" standalone="no"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg version="1.1" width="{WIDTH}" height="{height}" onload="init(evt)" viewBox="0 0 {WIDTH} {height}" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><linearGradient id="background" y1="0" y2="1" x1="0" x2="0"><stop stop-color="#eeeeee" offset="5%"/><stop stop-color="#eeeeb0" offset="95%"/></linearGradient></defs><rect x="0" y="0" width="{WIDTH}" height="{height}" fill="url(#background)"/><text text-anchor="middle" x="600" y="24" font-size="17" font-family="Verdana" fill="rgb(0, 0, 0)">Flame Graph</text>']
for name, depth, start, end in frames:
    x1 = XPAD + int(start * wpt)
    x2 = XPAD + int(end * wpt)
    y1 = height - YPAD2 - (depth + 1) * FRAMEHEIGHT + FRAMEPAD
    y2 = height - YPAD2 - depth * FRAMEHEIGHT
    n = end - start
    if name == "" and depth == 0:
        info = f"all ({n:,} samples, 100%)"
    else:
        info = f"{name} ({n:,} samples, {100 * n / time:.2f}%)"
    chars = int((x2 - x1) / (12 * 0.59))
    text = name if chars >= 3 else ""
    if chars >= 3 and len(name) >= chars:
        text = name[:chars - 2] + ".."
    out.append(f'<g class="func_g" onmouseover="s(this)" onmouseout="c()" onclick="zoom(this)"><title>{escape(info)}</title><rect x="{x1}" y="{y1}" width="{x2 - x1}" height="{y2 - y1}" fill="rgb(242,10,32)"/><text text-anchor="" x="{x1 + 3}" y="{3 + (y1 + y2) / 2}" font-size="12" font-family="Verdana" fill="rgb(0, 0, 0)">{escape(text)}</text></g>')
out.append("</svg>")
sys.stdout.write("\n".join(out) + "\n")
