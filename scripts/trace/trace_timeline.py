#!/usr/bin/env python3
"""Draws a Chrome trace-event JSON trace (kiln's --trace_output) as an SVG
timeline: one row per thread, zones as bars stacked by nesting depth
(dispatch slices in a stronger colour, labelled where they are wide enough),
and the counters as step lines below. Hover a bar for its name, time and
args. Plain SVG, no dependencies beyond python3.

Usage: trace_timeline.py TRACE.json -o timeline.svg [--width 1400]
           [--max-depth 6] [--title TEXT]
"""
import argparse
import hashlib
import json
import sys
from collections import defaultdict
from xml.sax.saxutils import escape

ROW_LANE = 14      # height of one nesting level
LABEL_WIDTH = 170  # left column with the thread names
COUNTER_HEIGHT = 60
MARGIN = 10


def colour(name, strong):
    h = int(hashlib.md5(name.encode()).hexdigest()[:6], 16)
    hue = h % 360
    return f"hsl({hue},{70 if strong else 35}%,{45 if strong else 72}%)"


def load(path):
    with open(path) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    names, zones, counters = {}, defaultdict(list), defaultdict(list)
    open_b = defaultdict(list)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        ph = e.get("ph")
        if ph == "M" and e.get("name") == "thread_name":
            names[key] = e["args"]["name"]
        elif ph == "X":
            zones[key].append((e["ts"], e["ts"] + e["dur"], e))
        elif ph == "B":
            open_b[key].append(e)
        elif ph == "E" and open_b[key]:
            b = open_b[key].pop()
            zones[key].append((b["ts"], e["ts"], b))
        elif ph == "C":
            for series, value in e.get("args", {}).items():
                counters[f"{e['name']} {series}"].append((e["ts"], value))
    return names, zones, counters


def depths(zone_list):
    """(begin, end, event, depth) with depth from proper nesting."""
    out, stack = [], []
    for begin, end, e in sorted(zone_list, key=lambda z: (z[0], -z[1])):
        while stack and stack[-1] <= begin:
            stack.pop()
        out.append((begin, end, e, len(stack)))
        stack.append(end)
    return out


def render(names, zones, counters, width, max_depth, title):
    times = [t for zl in zones.values() for b, en, _ in zl for t in (b, en)]
    times += [t for series in counters.values() for t, _ in series]
    if not times:
        raise ValueError("the trace has no zones or counters to draw")
    t0, t1 = min(times), max(times)
    span = max(t1 - t0, 1e-3)
    plot = width - LABEL_WIDTH - 2 * MARGIN

    def x(t):
        return LABEL_WIDTH + MARGIN + (t - t0) / span * plot

    # Rows: threads with zones, the process's main thread (first seen) first.
    keys = sorted(zones, key=lambda k: (names.get(k, "").startswith(
        "kiln-hal"), names.get(k, ""), k))
    parts, y = [], 30 + MARGIN
    for key in keys:
        laid = [z for z in depths(zones[key]) if z[3] < max_depth]
        lanes = 1 + max(z[3] for z in laid)
        height = lanes * ROW_LANE
        label = names.get(key, f"thread {key[1]}")
        parts.append(f'<text class="row" x="{MARGIN}" y="{y + 11}">'
                     f'{escape(label)}</text>')
        parts.append(f'<line x1="{LABEL_WIDTH}" x2="{width - MARGIN}" '
                     f'y1="{y + height + 2}" y2="{y + height + 2}" '
                     'stroke="#ddd"/>')
        for begin, end, e, depth in laid:
            args = e.get("args", {})
            dispatch = "begin" in args or "workgroup_count_x" in args
            bx, bw = x(begin), max(x(end) - x(begin), 0.5)
            by = y + depth * ROW_LANE
            tip = f"{e['name']}: {end - begin:.3f} us at {begin - t0:.3f} us"
            if args:
                tip += " " + ", ".join(f"{k}={v}" for k, v in args.items())
            parts.append(
                f'<rect class="zone" x="{bx:.2f}" y="{by}" width="{bw:.2f}" '
                f'height="{ROW_LANE - 2}" fill="{colour(e["name"], dispatch)}">'
                f'<title>{escape(tip)}</title></rect>')
            if bw > 7 * len(e["name"]) * 0.6:
                parts.append(f'<text class="bar" x="{bx + 2:.2f}" '
                             f'y="{by + 10}">{escape(e["name"])}</text>')
        y += height + 8
    for series_name, samples in sorted(counters.items()):
        samples.sort()
        top = max(v for _, v in samples) or 1
        parts.append(f'<text class="row" x="{MARGIN}" y="{y + 11}">'
                     f'{escape(series_name)}</text>')
        parts.append(f'<text class="bar" x="{MARGIN}" y="{y + 24}">max '
                     f'{top:,}</text>')
        points, last = [], y + COUNTER_HEIGHT
        for t, v in samples:
            vy = y + COUNTER_HEIGHT - v / top * (COUNTER_HEIGHT - 4)
            points.append(f"{x(t):.2f},{last:.2f}")
            points.append(f"{x(t):.2f},{vy:.2f}")
            last = vy
        points.append(f"{x(t1):.2f},{last:.2f}")
        parts.append(f'<polyline class="counter" fill="none" stroke="#c33" '
                     f'points="{" ".join(points)}"/>')
        y += COUNTER_HEIGHT + 8
    axis = [f'<text class="bar" x="{x(t0 + span * i / 4):.2f}" y="{y + 12}" '
            f'text-anchor="{"end" if i == 4 else "start"}">'
            f'{span * i / 4 / 1000:.3f} ms</text>' for i in range(5)]
    height = y + 24
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}">'
            '<style>text{font-family:sans-serif;font-size:11px}'
            'text.bar{font-size:9px}</style>'
            f'<rect width="{width}" height="{height}" fill="white"/>'
            f'<text x="{MARGIN}" y="18" font-weight="bold">'
            f'{escape(title)}</text>')
    return head + "".join(parts + axis) + "</svg>\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--max-depth", type=int, default=6)
    parser.add_argument("--title", default=None)
    args = parser.parse_args()
    try:
        names, zones, counters = load(args.trace)
        svg = render(names, zones, counters, args.width, args.max_depth,
                     args.title or args.trace)
    except (OSError, ValueError, KeyError) as error:
        print(f"trace_timeline.py: {args.trace}: {error}", file=sys.stderr)
        return 1
    with open(args.output, "w") as f:
        f.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
