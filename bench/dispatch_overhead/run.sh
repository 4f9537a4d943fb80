#!/usr/bin/env bash
# Per-invocation overhead of local-task against local-sync (a benchmark,
# not a test: it needs a quiet machine). Three llvm-cpu programs:
# samples/simple_abs.mlir (one dispatch on a scalar),
# bench/tracing/dispatch.mlir (one small elementwise dispatch on 4096
# floats: one workgroup, run by the calling thread) and
# bench/dispatch_overhead/wide_dispatch.mlir (one elementwise dispatch on
# 512 x 512 floats: 16 workgroups, so local-task wakes its pool worker),
# each on local-sync and on local-task with 1 and 2 threads
# (--task_topology_group_count: the calling thread plus 0 or 1 pool workers).
# Prints the median time per call of 5 repetitions and local-task's excess
# over local-sync. Issue targets: simple_abs on local-task <= 10 us, and
# local-task adds <= 5 us per dispatch.
# Usage: bench/dispatch_overhead/run.sh [BIN_DIR]   (default build/bin)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
  "$root/samples/simple_abs.mlir" -o "$work/abs.kmod"
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
  "$root/bench/tracing/dispatch.mlir" -o "$work/small.kmod"
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
  "$root/bench/dispatch_overhead/wide_dispatch.mlir" -o "$work/wide.kmod"
median_us() {  # median_us MODULE FUNCTION DEVICE_FLAGS... -- INPUTS...
  "$bin/kiln-benchmark-module" "$@" --benchmark_min_time=0.3 \
    --benchmark_repetitions=5 --benchmark_format=json 2>/dev/null |
    /usr/bin/python3 -c '
import json, sys
rows = json.load(sys.stdin)["benchmarks"]
row = [b for b in rows if b.get("aggregate_name") == "median"][0]
scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[row["time_unit"]]
print("%.2f" % (row["real_time"] * scale))'
}
for case in abs small wide; do
  if [ $case = abs ]; then
    args=(--module="$work/abs.kmod" --function=abs --input=f32=-2.5)
  elif [ $case = wide ]; then
    args=(--module="$work/wide.kmod" --function=wide_dispatch
          --input=512x512xf32=1 --input=512x512xf32=2)
  else
    args=(--module="$work/small.kmod" --function=small_dispatch
          --input=4096xf32=1 --input=4096xf32=2)
  fi
  sync=$(median_us "${args[@]}" --device=local-sync)
  printf '%-6s local-sync            %8.2f us\n' $case "$sync"
  for workers in 1 2; do
    t=$(median_us "${args[@]}" --device=local-task \
      --task_topology_group_count=$workers)
    printf '%-6s local-task %d worker(s) %8.2f us  (%+.2f us over local-sync)\n' \
      $case $workers "$t" "$(/usr/bin/python3 -c "print($t - $sync)")"
  done
done
