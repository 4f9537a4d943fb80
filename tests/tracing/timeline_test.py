#!/usr/bin/env python3
"""trace_timeline.py on a generated trace: one row per thread, one bar per
zone placed by its time, nested zones one lane down, counters drawn."""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "..", "scripts", "trace", "trace_timeline.py")
SVG = {"s": "http://www.w3.org/2000/svg"}


def x_event(tid, name, ts, dur, **args):
    e = {"ph": "X", "pid": 1, "tid": tid, "name": name, "ts": ts, "dur": dur}
    if args:
        e["args"] = args
    return e


events = [
    {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name",
     "args": {"name": "main"}},
    {"ph": "M", "pid": 1, "tid": 2, "name": "thread_name",
     "args": {"name": "kiln-hal-worker-0"}},
    {"ph": "M", "pid": 1, "tid": 3, "name": "thread_name",
     "args": {"name": "kiln-hal-worker-1"}},
    x_event(1, "hal.command_buffer.execute", 0, 1000, commands=1),
    x_event(1, "dispatch_a", 10, 980, workgroup_count_x=30,
            workgroup_count_y=1, workgroup_count_z=1),
    x_event(1, "dispatch_a", 20, 300, begin=0, end=10),
    x_event(2, "dispatch_a", 30, 400, begin=10, end=20),
    x_event(3, "dispatch_a", 600, 300, begin=20, end=30),
    {"ph": "C", "pid": 1, "tid": 1, "name": "hal.allocator", "ts": 0,
     "args": {"live_bytes": 0}},
    {"ph": "C", "pid": 1, "tid": 1, "name": "hal.allocator", "ts": 500,
     "args": {"live_bytes": 4096}},
]

with tempfile.TemporaryDirectory() as work:
    trace = os.path.join(work, "trace.json")
    svg = os.path.join(work, "trace.svg")
    with open(trace, "w") as f:
        json.dump({"traceEvents": events}, f)
    subprocess.run([sys.executable, script, trace, "-o", svg], check=True)
    root = ET.parse(svg).getroot()
    rows = [t.text for t in root.iterfind(".//s:text[@class='row']", SVG)]
    assert rows == ["main", "kiln-hal-worker-0", "kiln-hal-worker-1",
                    "hal.allocator live_bytes"], rows
    bars = list(root.iterfind(".//s:rect[@class='zone']", SVG))
    assert len(bars) == 5, len(bars)
    by_title = {}
    for bar in bars:
        title = bar.find("s:title", SVG).text
        by_title.setdefault(title.split(":")[0], []).append(bar)
        assert float(bar.get("width")) > 0
    assert len(by_title["dispatch_a"]) == 4
    # Placed by time: the slice at 600 us starts right of the one at 30 us,
    # and a bar's width follows its duration (1000 us vs 300 us).
    slices = sorted(by_title["dispatch_a"], key=lambda b: float(b.get("x")))
    xs = [float(b.get("x")) for b in slices]
    assert xs == sorted(xs) and xs[-1] > xs[0]
    cb = by_title["hal.command_buffer.execute"][0]
    last = slices[-1]
    ratio = float(cb.get("width")) / float(last.get("width"))
    assert abs(ratio - 1000 / 300) < 0.01, ratio
    # Nesting: on the main thread the dispatch is one lane below the
    # command buffer and its slice one more.
    main_y = sorted(float(b.get("y")) for b in bars
                    if float(b.get("y")) < float(cb.get("y")) + 40)
    assert main_y[:3] == [main_y[0], main_y[0] + 14, main_y[0] + 28], main_y
    # Dispatch slices are drawn stronger than other zones.
    assert cb.get("fill") != slices[0].get("fill")
    assert root.find(".//s:polyline[@class='counter']", SVG) is not None
print("timeline test passed")
