#!/usr/bin/env bash
# How well local-task spreads one dispatch over its workers: process CPU
# time against wall time of a CPU-heavy elementwise dispatch with 1 and 2
# workers, measured in one run and printed as ratios. A benchmark, not a
# test (it needs an idle machine): `bench/parallel_dispatch/run.sh [BIN_DIR]`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/kiln-compile" --target-backends=vmvx "$root/tests/parallel_dispatch/parallel_dispatch.mlir" -o "$work/heavy.kmod"
/usr/bin/python3 - "$work/in.npy" <<'PY'
import sys, numpy as np
np.save(sys.argv[1], np.linspace(-4.0, 4.0, 2097152, dtype=np.float32))
PY
for workers in 1 2; do
  "$bin/kiln-benchmark-module" --module="$work/heavy.kmod" --device=local-task \
    --task_topology_group_count=$workers --function=heavy --input=@"$work/in.npy" \
    --benchmark_min_time=1 --benchmark_format=json >"$work/w$workers.json"
done
/usr/bin/python3 - "$work/w1.json" "$work/w2.json" "$(nproc)" <<'PY'
import json, sys
def row(path):
    rows = [b for b in json.load(open(path))["benchmarks"]
            if b.get("run_type") != "aggregate"]
    return rows[0]
one, two = row(sys.argv[1]), row(sys.argv[2])
print(f"cores: {sys.argv[3]}")
for name, r in (("1 worker", one), ("2 workers", two)):
    print(f'{name:10s} real {r["real_time"]:9.2f} {r["time_unit"]}  '
          f'cpu {r["cpu_time"]:9.2f} {r["time_unit"]}  '
          f'cpu/real {r["cpu_time"] / r["real_time"]:.2f}')
print(f'speedup 2 workers / 1 worker: {one["real_time"] / two["real_time"]:.2f}x')
PY
