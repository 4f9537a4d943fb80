#!/usr/bin/env bash
# The native CPU backend's benchmarks (issue targets in brackets), each
# printed with the reference measured in the same run and the ratio:
#   chain      tanh(exp(x) * x) over 4M f32 on 1 thread vs numpy   [>= 3x]
#              and on 2 workers vs 1                                [>= 1.8x]
#   sum        a sum over 16M f32 vs a plain C loop's read bandwidth [>= 80%]
#   compile    a program of about 100 dispatches                    [< 5 s]
# Not a test: run it on an idle machine. Usage: bench/cpu_backend/run.sh
# [BIN_DIR] (default build/bin). Writes results.json next to BIN_DIR
# (build/bench/cpu_backend/results.json).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin}
out_dir=$(cd "$bin/.." && pwd)/bench/cpu_backend
mkdir -p "$out_dir"
here=$root/bench/cpu_backend
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3

"$py" - "$work" <<'PY'
import numpy as np, sys
w = sys.argv[1]
np.save(w + "/x4m.npy", np.linspace(-3, 3, 4194304, dtype=np.float32))
np.save(w + "/x16m.npy", np.random.default_rng(1).random(16777216, dtype=np.float32))
PY
for f in chain sum; do
  "$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu "$here/$f.mlir" -o "$work/$f.kmod"
done

# kiln's time per call (median of repetitions), ms.
kiln_ms() {
  "$bin/kiln-benchmark-module" --module="$work/$1.kmod" --function="$1" \
    --input=@"$work/$2" "${@:3}" --benchmark_min_time=0.3 \
    --benchmark_repetitions=5 --benchmark_format=json 2>/dev/null |
    "$py" -c 'import json,sys; r=json.load(sys.stdin)["benchmarks"]; print([b for b in r if b.get("aggregate_name")=="median"][0]["real_time"])'
}

# The C references: a sum loop's bandwidth, built here with the same compiler.
cat >"$work/readbw.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(void) {
  size_t n = 16777216; float* x = malloc(n * 4);
  for (size_t i = 0; i < n; ++i) x[i] = (float)(i & 1023);
  double best = 1e9; volatile float sink = 0;
  for (int r = 0; r < 20; ++r) {
    // 64 independent partial sums (four 16-lane vectors): bound by reads,
    // not by an add's latency.
    double t0 = now(); float acc[64] = {0};
    for (size_t i = 0; i < n; i += 64)
      for (int k = 0; k < 64; ++k) acc[k] += x[i + k];
    float s = 0; for (int k = 0; k < 64; ++k) s += acc[k];
    sink = s; double t = now() - t0; if (t < best) best = t;
  }
  printf("%f\n", best * 1e3); return (int)sink * 0;
}
C
cc -O3 -march=native "$work/readbw.c" -o "$work/readbw"

numpy_ms=$("$py" - "$work" <<'PY'
import numpy as np, sys, time
x = np.load(sys.argv[1] + "/x4m.npy"); best = 1e9
for _ in range(20):
    t = time.perf_counter(); np.tanh(np.exp(x) * x); best = min(best, time.perf_counter() - t)
print(best * 1e3)
PY
)
chain1=$(kiln_ms chain x4m.npy --device=local-sync)
chain2=$(kiln_ms chain x4m.npy --device=local-task --task_topology_group_count=2)
sum1=$(kiln_ms sum x16m.npy --device=local-sync)
c_ms=$("$work/readbw")

# About 100 dispatches: 50 reductions and 50 subtractions that do not fuse.
"$py" - "$work/hundred.mlir" <<'PY'
import sys
lines = ["func.func @hundred(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {",
         "  %zero = stablehlo.constant dense<0.0> : tensor<f32>", "  %v0 = stablehlo.abs %x : tensor<64x64xf32>"]
for i in range(50):
    lines.append(f"  %r{i} = stablehlo.reduce(%v{i} init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>")
    lines.append(f"  %b{i} = stablehlo.broadcast_in_dim %r{i}, dims = [0] : (tensor<64xf32>) -> tensor<64x64xf32>")
    lines.append(f"  %v{i+1} = stablehlo.subtract %v{i}, %b{i} : tensor<64x64xf32>")
lines += ["  return %v50 : tensor<64x64xf32>", "}"]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
t0=$(date +%s.%N)
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu "$work/hundred.mlir" -o "$work/hundred.kmod"
t1=$(date +%s.%N)
dispatches=$("$bin/kiln-dump-module" "$work/hundred.kmod" | grep -c '^ *entry @' || true)

"$py" - "$numpy_ms" "$chain1" "$chain2" "$sum1" "$c_ms" "$t0" "$t1" "$dispatches" "$out_dir/results.json" <<'PY'
import json, sys
numpy_ms, chain1, chain2, sum1, c_ms, t0, t1 = map(float, sys.argv[1:8])
dispatches, out = int(sys.argv[8]), sys.argv[9]
gbs = lambda ms: 16777216 * 4 / (ms * 1e-3) / 1e9
rows = [
  ("chain 4M f32, 1 thread", f"{chain1:.2f} ms", f"numpy {numpy_ms:.2f} ms", numpy_ms / chain1, ">= 3"),
  ("chain 4M f32, 2 workers vs 1", f"{chain2:.2f} ms", f"1 thread {chain1:.2f} ms", chain1 / chain2, ">= 1.8"),
  ("sum 16M f32, 1 thread", f"{gbs(sum1):.1f} GB/s", f"C loop {gbs(c_ms):.1f} GB/s", c_ms / sum1, ">= 0.8"),
  (f"compile {dispatches} dispatches", f"{t1 - t0:.2f} s", "target 5 s", 5.0 / (t1 - t0), ">= 1"),
]
print(f"{'benchmark':32s} {'kiln':>12s} {'reference':>22s} {'ratio':>7s}  target")
for name, k, ref, ratio, target in rows:
    print(f"{name:32s} {k:>12s} {ref:>22s} {ratio:7.2f}  {target}")
json.dump([dict(name=r[0], kiln=r[1], reference=r[2], ratio=round(r[3], 3), target=r[4]) for r in rows],
          open(out, "w"), indent=1)
PY
