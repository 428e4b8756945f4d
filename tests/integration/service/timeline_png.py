#!/usr/bin/env python3
"""Checks a screenshot of the server's /timeline page against its trace.

usage: timeline_png.py SHOT.png PAGE.html TRACE.json

The page's SVG says where it drew (data-x0/data-width/data-from-ns/data-to-ns
of the plot, data-y0/data-y1 of each lane, data-color of each legend entry);
the trace says where the spans are. In the screenshot (decoded here: zlib and
the five PNG filters, no imaging library) each lane must be one horizontal
band of bar colours, nothing of a bar colour may lie between lanes, and in
each lane the columns inside a proof or synthesis must be painted and those
away from every span left blank (the idle gaps). Prints what differs; exit 1.
"""
import json
import re
import struct
import sys
import zlib


def decode_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit(f"{path}: PNG of depth {depth}, colour type {ctype}, interlace {interlace}: not handled")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def main():
    shot, page_path, trace_path = sys.argv[1:4]
    page = open(page_path, encoding="utf-8").read()
    trace = json.load(open(trace_path, encoding="utf-8"))
    svg = re.search(r'<svg [^>]*data-x0="(\d+)" data-width="(\d+)" data-from-ns="(\d+)" data-to-ns="(\d+)"', page)
    if not svg:
        raise SystemExit("the page has no plot geometry")
    x0, pw, from_ns, to_ns = (int(v) for v in svg.groups())
    lanes = [(m.group(1), int(m.group(2)), int(m.group(3)))
             for m in re.finditer(r'<g class="lane" data-lane="([^"]*)" data-y0="(\d+)" data-y1="(\d+)"', page)]
    palette = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
               for c in re.findall(r'<g class="legend" data-kind="[^"]*" data-color="(#[0-9a-f]{6})"', page)]
    if not lanes or len(palette) < 2:
        raise SystemExit(f"the page names {len(lanes)} lanes and {len(palette)} colours")

    width, height, px = decode_png(shot)
    problems = []
    if height < lanes[-1][2] or width < x0 + pw:
        raise SystemExit(f"the screenshot ({width}x{height}) does not hold the plot (to x {x0 + pw}, y {lanes[-1][2]})")

    def bar(c):
        return any(abs(c[0] - p[0]) <= 6 and abs(c[1] - p[1]) <= 6 and abs(c[2] - p[2]) <= 6 for p in palette)

    painted = [[bar(px[y][x]) for x in range(x0, x0 + pw)] for y in range(height)]
    row_has = [any(r) for r in painted]

    # one band of bar colours a lane: the rows from the first lane's top to the last lane's bottom
    top, bottom = lanes[0][1], lanes[-1][2]
    bands, inside = [], False
    for y in range(max(0, top - 4), min(height, bottom + 4)):
        if row_has[y] and not inside:
            bands.append([y, y])
        if row_has[y]:
            bands[-1][1] = y
        inside = row_has[y]
    if len(bands) != len(lanes):
        problems.append(f"{len(bands)} horizontal bands of bar colours for {len(lanes)} lanes: {bands}")
    for (name, y0, y1) in lanes:
        if not any(y0 <= b[0] and b[1] < y1 for b in bands):
            problems.append(f"lane {name} ({y0}..{y1}) holds no band of its own")

    # the columns of each lane: painted inside its spans, blank away from them
    names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
    per_lane = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "X" and e["tid"] == 0:
            per_lane.setdefault(names[e["pid"]], []).append((e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000))
    scale = pw / (to_ns - from_ns)
    for (name, y0, y1) in lanes:
        spans = per_lane.get(name.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
        if not spans:
            problems.append(f"lane {name} is drawn but the trace has no span on it")
            continue
        xs = [((a - from_ns) * scale, (b - from_ns) * scale) for a, b in spans]
        col = [any(painted[y][x] for y in range(y0, y1)) for x in range(pw)]
        inside_bad = [x for x in range(pw) if any(a + 2 <= x and x + 1 <= b - 2 for a, b in xs) and not col[x]]
        outside_bad = [x for x in range(pw) if all(x + 1 < a - 2 or x > b + 2 for a, b in xs) and col[x]]
        if inside_bad:
            problems.append(f"lane {name}: {len(inside_bad)} columns inside spans are blank, e.g. {inside_bad[:5]}")
        if outside_bad:
            problems.append(f"lane {name}: {len(outside_bad)} columns away from spans are painted, e.g. {outside_bad[:5]}")
        busy = sum(col)
        print(f"lane {name}: rows {y0}..{y1}, {len(spans)} spans, {busy} of {pw} columns painted")
        if busy == 0 or busy == pw:
            problems.append(f"lane {name}: {busy} of {pw} columns painted: no bars, or no idle gap to see")
    print(f"{len(bands)} bands for {len(lanes)} lanes: {bands}")
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
