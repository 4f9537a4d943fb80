#!/usr/bin/python3
"""Interleaved A/B of two kiln builds on the model suite's inputs.

Each side is a kiln-benchmark-module binary and a module path pattern
(%s = model name), e.g. a main build against a branch build. For ROUNDS
rounds, every model runs on local-sync (1T) and on local-task with 2 workers
(2T), the two sides back to back, so that load from other processes hits
both alike; prints the median real time per inference of each. A
benchmark, not a test.

Usage: ab.py MODELS_DIR A_BENCH A_MODULES B_BENCH B_MODULES MODEL[,MODEL..]
             [ROUNDS] [MIN_TIME]
  e.g. ab.py build/bench/models/models main/bin/kiln-benchmark-module
       /tmp/a/%s.kmod build/bin/kiln-benchmark-module /tmp/b/%s.kmod bert 3 3x
"""
import json
import statistics
import subprocess
import sys


def main():
    models_dir, a_bin, a_mod, b_bin, b_mod, models = sys.argv[1:7]
    rounds = int(sys.argv[7]) if len(sys.argv) > 7 else 3
    min_time = sys.argv[8] if len(sys.argv) > 8 else "3x"
    sides = {"A": (a_bin, a_mod), "B": (b_bin, b_mod)}
    devices = {"1T": ["--device=local-sync"],
               "2T": ["--device=local-task", "--task_topology_group_count=2"]}
    times = {}
    for _ in range(rounds):
        for model in models.split(","):
            for dev, flags in devices.items():
                for side, (bench, mod) in sides.items():
                    out = subprocess.run(
                        [bench, "--module=" + mod % model, "--function=" + model,
                         "--input=@%s/%s_input.npy" % (models_dir, model),
                         "--benchmark_min_time=" + min_time,
                         "--benchmark_format=json"] + flags,
                        capture_output=True, text=True, check=True).stdout
                    row = json.loads(out)["benchmarks"][0]
                    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
                    times.setdefault((model, dev, side), []).append(
                        row["real_time"] * scale[row["time_unit"]])
    for (model, dev, side), v in sorted(times.items()):
        print("%-16s %s %s median %9.3f ms   rounds: %s" %
              (model, dev, side, statistics.median(v),
               " ".join("%.3f" % t for t in v)))


main()
