#!/usr/bin/env python3
"""Checks a kiln trace (Chrome trace-event JSON) against the format and
against what kiln's zones promise.

Usage: validate_trace.py TRACE.json [--expect-zone NAME ...]
           [--dispatches-inside ZONE] [--min-dispatch-workers N]

Always checked: every event has ph/pid/tid (and ts, plus dur for complete
events); B/E events balance per thread; complete events nest properly per
thread; counter values are non-negative; each dispatch's workgroup slices
(events with args begin/end, named like the dispatch) cover its workgroups
exactly once. --dispatches-inside: every dispatch lies in time inside a zone
of that name. --min-dispatch-workers: some dispatch has slices on at least N
threads (pool threads kiln-hal-worker-* and the thread running the queue op,
which runs workgroups too). Prints a summary; exits 1 on a violation.
"""
import argparse
import json
import sys
from collections import defaultdict

PHASES = set("XBEiICMbensft")


class Invalid(Exception):
    pass


def ns(value):
    """Microseconds (kiln writes exact ns decimals) to integer ns."""
    if not isinstance(value, (int, float)) or value < 0:
        raise Invalid(f"bad timestamp {value!r}")
    return round(value * 1000)


def load(path):
    with open(path) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    if not isinstance(events, list):
        raise Invalid("traceEvents is not a list")
    return events


def zones_per_thread(events):
    """Complete zones as (begin_ns, end_ns, event) per (pid, tid)."""
    threads = defaultdict(list)
    open_b = defaultdict(list)
    for i, e in enumerate(events):
        for field in ("ph", "pid", "tid"):
            if field not in e:
                raise Invalid(f"event {i} has no '{field}': {e}")
        ph = e["ph"]
        if ph not in PHASES:
            raise Invalid(f"event {i}: unknown phase {ph!r}")
        if ph == "M":
            continue
        if "ts" not in e:
            raise Invalid(f"event {i} has no 'ts': {e}")
        key = (e["pid"], e["tid"])
        if ph == "X":
            if "dur" not in e or "name" not in e:
                raise Invalid(f"complete event {i} lacks dur or name: {e}")
            begin = ns(e["ts"])
            threads[key].append((begin, begin + ns(e["dur"]), e))
        elif ph == "B":
            open_b[key].append(e)
        elif ph == "E":
            if not open_b[key]:
                raise Invalid(f"event {i}: E without B on thread {key}")
            b = open_b[key].pop()
            threads[key].append((ns(b["ts"]), ns(e["ts"]), b))
        elif ph == "C":
            for series, value in e.get("args", {}).items():
                if not isinstance(value, (int, float)) or value < 0:
                    raise Invalid(f"counter {e.get('name')}.{series} = "
                                  f"{value!r} (must be a number >= 0)")
    for key, stack in open_b.items():
        if stack:
            raise Invalid(f"thread {key}: {len(stack)} B events never end")
    return threads


def check_nesting(threads):
    for key, zones in threads.items():
        zones.sort(key=lambda z: (z[0], -z[1]))
        stack = []
        for begin, end, e in zones:
            if end < begin:
                raise Invalid(f"{e['name']}: ends before it begins")
            while stack and stack[-1][1] <= begin:
                stack.pop()
            if stack and end > stack[-1][1]:
                raise Invalid(f"thread {key}: '{e['name']}' [{begin}, {end}] "
                              f"overlaps '{stack[-1][2]['name']}' "
                              f"[{stack[-1][0]}, {stack[-1][1]}] without "
                              "nesting")
            stack.append((begin, end, e))


def thread_names(events):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events
            if e["ph"] == "M" and e.get("name") == "thread_name"}


def check_dispatches(threads, names, inside, min_workers):
    """Dispatch zones carry workgroup_count_*; their slices carry begin/end."""
    dispatches = [(b, en, e) for zones in threads.values()
                  for b, en, e in zones
                  if "workgroup_count_x" in e.get("args", {})]
    slices = [(key, b, en, e) for key, zones in threads.items()
              for b, en, e in zones if "begin" in e.get("args", {})]
    containers = [(b, en) for zones in threads.values()
                  for b, en, e in zones if e["name"] == inside]
    most_workers = 0
    for begin, end, d in dispatches:
        a = d["args"]
        total = a["workgroup_count_x"] * a["workgroup_count_y"] * \
            a["workgroup_count_z"]
        mine = [(key, s) for key, b, en, s in slices
                if s["name"] == d["name"] and begin <= b and en <= end]
        ranges = sorted((s["args"]["begin"], s["args"]["end"])
                        for _, s in mine)
        covered = 0
        for lo, hi in ranges:
            if lo != covered or hi <= lo:
                raise Invalid(f"dispatch {d['name']}: workgroup slices "
                              f"{ranges} do not cover [0, {total}) once")
            covered = hi
        if covered != total:
            raise Invalid(f"dispatch {d['name']}: slices cover {covered} of "
                          f"{total} workgroups")
        if inside and not any(cb <= begin and end <= ce
                              for cb, ce in containers):
            raise Invalid(f"dispatch {d['name']} [{begin}, {end}] is not "
                          f"inside any '{inside}' zone")
        # Every thread that ran workgroups counts: local-task's N threads
        # are the queue op's thread and N - 1 kiln-hal-worker-* threads.
        workers = {key for key, _ in mine}
        most_workers = max(most_workers, len(workers))
    if min_workers and most_workers < min_workers:
        raise Invalid(f"no dispatch ran on {min_workers} threads "
                      f"(most: {most_workers})")
    return len(dispatches), len(slices), most_workers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--expect-zone", action="append", default=[])
    parser.add_argument("--dispatches-inside", default=None)
    parser.add_argument("--min-dispatch-workers", type=int, default=0)
    args = parser.parse_args()
    try:
        events = load(args.trace)
        threads = zones_per_thread(events)
        check_nesting(threads)
        present = {e["name"] for zones in threads.values()
                   for _, _, e in zones}
        present |= {e["name"] for e in events if e["ph"] == "C"}
        for name in args.expect_zone:
            if name not in present:
                raise Invalid(f"no '{name}' zone or counter in the trace")
        counts = check_dispatches(threads, thread_names(events),
                                  args.dispatches_inside,
                                  args.min_dispatch_workers)
    except (Invalid, KeyError, ValueError, TypeError) as error:
        print(f"{args.trace}: invalid trace: {error}", file=sys.stderr)
        return 1
    zones = sum(len(z) for z in threads.values())
    print(f"{args.trace}: ok: {len(events)} events, {zones} zones on "
          f"{len(threads)} threads, {counts[0]} dispatches, {counts[1]} "
          f"workgroup slices, up to {counts[2]} threads per dispatch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
