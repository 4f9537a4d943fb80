#!/usr/bin/env python3
"""Merges matmul_bench JSON files, prints the summary against the targets
and plots GFLOP/s against size (squares) and per named shape."""
import argparse
import datetime
import json
import os
import platform
import shutil
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--json", required=True)
    parser.add_argument("--png", required=True)
    parser.add_argument("--docs-page",
                        help="the website page whose bench-matmul block "
                             "gets the table")
    parser.add_argument("--docs-png", help="where the page's chart goes")
    parser.add_argument("--command", default="make bench")
    args = parser.parse_args()
    peak = 0.0
    peak_by_threads = {}  # threads -> the peak of that many threads at once
    results = []
    for path in args.inputs:
        with open(path) as f:
            data = json.load(f)
        peak = max(peak, data["peak_gflops_1thread"])
        for t, g in data.get("peak_gflops_by_threads", {}).items():
            peak_by_threads[int(t)] = max(peak_by_threads.get(int(t), 0), g)
        results.extend(data["results"])
    with open(args.json, "w") as f:
        json.dump({"peak_gflops_1thread": peak,
                   "peak_gflops_by_threads": peak_by_threads,
                   "results": results}, f, indent=2)

    # Summary against the targets: big f32 shapes (>= 1024 squares and the
    # 128x768x3072 layer) vs OpenBLAS and peak; bf16 and i8 vs f32.
    big = [r for r in results
           if (r["shape"] == "square" and r["M"] >= 1024) or
           r["shape"] == "bert"]
    print("\nsummary (big f32 shapes: squares >= 1024 and 128x768x3072):")
    for threads in sorted({r["threads"] for r in results}):
        rs = [r for r in big if r["threads"] == threads]
        if not rs:
            continue
        ratio = min(r["ratio"] for r in rs)
        pct = min(r["percent_of_peak"] for r in rs)
        pct_1t = min(r["percent_of_1thread_peak_x_threads"] for r in rs)
        bf16 = min(r["kiln_bf16_gflops"] / r["kiln_f32_gflops"] for r in rs)
        i8 = min(r["kiln_i8_gflops"] / r["kiln_f32_gflops"] for r in rs)
        print(f"  {threads} thread(s): kiln/OpenBLAS >= {ratio:.2f} "
              f"(target 0.95), % of peak >= {pct:.1f} (target 85; "
              f"{pct_1t:.1f} of one thread's peak x {threads}), "
              f"bf16/f32 >= {bf16:.2f} (target 1.8), "
              f"i8/f32 >= {i8:.2f} (target 3.5)")
    # Shapes bound by memory: one read of the packed RHS allows less than
    # the FMA peak, so the peak target cannot apply; the roofline does.
    bound = [r for r in results
             if r.get("roofline_gflops", r["peak_gflops"]) < r["peak_gflops"]]
    if bound:
        print("bound by memory (one read of the packed RHS allows less than "
              "the FMA peak):")
    for r in bound:
        print(f'  {r["shape"]} {r["M"]}x{r["K"]}x{r["N"]}, {r["threads"]} '
              f'thread(s): roofline {r["roofline_gflops"]:.1f} GFLOP/s '
              f'({100 * r["roofline_gflops"] / r["peak_gflops"]:.1f}% of the '
              f'FMA peak; RHS read at {r["rhs_read_gbps"]:.0f} GB/s), kiln at '
              f'{r["percent_of_roofline"]:.1f}% of it')

    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 5))
    squares = [r for r in results if r["shape"] == "square"]
    for threads, style in ((1, "-"), (2, "--")):
        rs = sorted((r for r in squares if r["threads"] == threads),
                    key=lambda r: r["M"])
        if not rs:
            continue
        sizes = [r["M"] for r in rs]
        for key, label in (("kiln_f32_gflops", "kiln f32"),
                           ("openblas_f32_gflops", "OpenBLAS f32"),
                           ("kiln_bf16_gflops", "kiln bf16"),
                           ("kiln_i8_gflops", "kiln i8")):
            left.plot(sizes, [r[key] for r in rs], style, marker="o",
                      label=f"{label}, {threads}T")
        left.axhline(peak_by_threads.get(threads, peak * threads),
                     color="gray", linestyle=style,
                     linewidth=0.8, label=f"FMA peak, {threads}T")
    left.set_xlabel("M = K = N")
    left.set_ylabel("GFLOP/s")
    left.set_title("square matmuls")
    left.legend(fontsize=7)
    others = [r for r in results if r["shape"] != "square"]
    labels = []
    kiln = []
    blas = []
    for r in others:
        labels.append(f'{r["M"]}x{r["K"]}x{r["N"]}\n{r["threads"]}T')
        kiln.append(r["kiln_f32_gflops"])
        blas.append(r["openblas_f32_gflops"])
    xs = range(len(labels))
    right.bar([x - 0.2 for x in xs], kiln, width=0.4, label="kiln f32")
    right.bar([x + 0.2 for x in xs], blas, width=0.4, label="OpenBLAS f32")
    right.set_xticks(list(xs))
    right.set_xticklabels(labels, fontsize=7)
    right.set_ylabel("GFLOP/s")
    right.set_title("model shapes (M x K x N)")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    if args.docs_page:
        publish(args, peak, peak_by_threads, results)


def publish(args, peak, peak_by_threads, results):
    """The table (and the chart) on the website's benchmark page."""
    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), ".."))
    import website  # bench/website.py
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    lines = [
        "Made by `%s` on %s (%s, %d CPUs, load average %.1f at the end; "
        "OpenBLAS with `OPENBLAS_CORETYPE=SkylakeX`; best of the "
        "interleaved rounds; LHS packing and unpacking counted). The FMA "
        "peak is a register-only loop timed in the same interleaved rounds "
        "as each shape (*peak* column: that many threads running it at "
        "once), so that both are sampled at the same moments; at the start "
        "of the run it measured %.1f GFLOP/s on one thread%s. *%% of peak* "
        "is against the *peak* column; *%% of 1T peak x T* against one "
        "thread's peak (same rounds) times the thread count. *roofline* is "
        "the lower of the peak and the rate that one read of the packed f32 "
        "RHS allows (the read timed in the same rounds): below the peak, the "
        "shape is bound by memory, and *%% of roofline* is what counts."
        % (args.command,
           datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), cpu,
           os.cpu_count(), os.getloadavg()[0], peak,
           "".join(", %.1f GFLOP/s on %d threads at once" % (g, t)
                   for t, g in sorted(peak_by_threads.items()) if t > 1)),
        "",
        "| shape | M x K x N | threads | kiln f32 GFLOP/s | OpenBLAS GFLOP/s "
        "| kiln/OpenBLAS | peak GFLOP/s | % of peak | % of 1T peak x T "
        "| bf16 GFLOP/s (x f32) | i8 GOP/s (x f32) | roofline GFLOP/s "
        "| % of roofline | tile |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        lines.append(
            "| %s | %dx%dx%d | %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f "
            "| %.1f (%.2f) | %.1f (%.2f) | %.1f | %.1f | %s |" % (
                r["shape"], r["M"], r["K"], r["N"], r["threads"],
                r["kiln_f32_gflops"], r["openblas_f32_gflops"], r["ratio"],
                r["peak_gflops"], r["percent_of_peak"], r["percent_of_1thread_peak_x_threads"],
                r["kiln_bf16_gflops"],
                r["kiln_bf16_gflops"] / r["kiln_f32_gflops"],
                r["kiln_i8_gflops"],
                r["kiln_i8_gflops"] / r["kiln_f32_gflops"],
                r.get("roofline_gflops", r["peak_gflops"]),
                r.get("percent_of_roofline", r["percent_of_peak"]),
                r["tile"]))
    website.replace_block(args.docs_page, "bench-matmul",
                          "\n".join(lines) + "\n")
    if args.docs_png:
        shutil.copyfile(args.png, args.docs_png)


if __name__ == "__main__":
    main()
