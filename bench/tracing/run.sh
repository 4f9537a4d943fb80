#!/usr/bin/env bash
# Tracing overhead (a benchmark, not a test: it needs a quiet machine).
#   1. zone_cost.c: one zone compiled in with no sink, and while recording.
#   2. A small one-dispatch function under kiln-benchmark-module, per call:
#      tracing compiled out (a second, runtime-only build with
#      -DKILN_ENABLE_TRACING=OFF in BUILD_DIR-notrace), compiled in without
#      --trace_output, and recording with --trace_output. The builds run in
#      alternation, ROUNDS times each; the fastest round of each is kept.
# Usage: bench/tracing/run.sh [BUILD_DIR] [ROUNDS]   (default build, 5)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rounds=${2:-5}
notrace="$build-notrace"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== zone cost (thread CPU time per zone) =="
cc -O2 -std=c11 -D_GNU_SOURCE -I"$root" "$here/zone_cost.c" \
  "$build/runtime/base/libkiln_base.a" -lpthread -lm -o "$work/zone_cost"
"$work/zone_cost" | tee "$work/zone_cost.txt"
no_sink_ns=$(awk '/no sink installed/ {print $(NF-1)}' "$work/zone_cost.txt")

if [ ! -x "$notrace/bin/kiln-benchmark-module" ]; then
  cmake -S "$root" -B "$notrace" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DKILN_ENABLE_TRACING=OFF -DKILN_BUILD_COMPILER=OFF \
    -DKILN_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$notrace" --target kiln-benchmark-module >/dev/null

"$build/bin/kiln-compile" --target-backends=vmvx "$here/dispatch.mlir" \
  -o "$work/dispatch.kmod"
run() {  # run BINARY OUT.json [extra flags]
  local binary=$1 out=$2
  shift 2
  "$binary" --module="$work/dispatch.kmod" --device=local-sync \
    --function=small_dispatch --input=4096xf32=1 --input=4096xf32=2 \
    --benchmark_min_time=0.5 --benchmark_format=json "$@" >"$out"
}
for r in $(seq "$rounds"); do
  run "$notrace/bin/kiln-benchmark-module" "$work/off.$r.json"
  run "$build/bin/kiln-benchmark-module" "$work/idle.$r.json"
  run "$build/bin/kiln-benchmark-module" "$work/on.$r.json" \
    --trace_output="$work/trace.$r.json"
done
echo "== one small dispatch per call, local-sync (best of $rounds rounds) =="
/usr/bin/python3 - "$work" "$rounds" "$no_sink_ns" <<'PY'
import glob, json, os, sys
work, rounds, no_sink_ns = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def best(kind, field):
    times = []
    for path in glob.glob(os.path.join(work, f"{kind}.*.json")):
        rows = [b for b in json.load(open(path))["benchmarks"]
                if b.get("run_type") != "aggregate"]
        times.append(min(b[field] for b in rows))
    return min(times), rows[0]["time_unit"]
trace = json.load(open(os.path.join(work, f"trace.{rounds}.json")))["traceEvents"]
calls = max(1, sum(1 for e in trace if e.get("name") == "small_dispatch"))
zones = sum(1 for e in trace if e.get("ph") == "X") / calls
for field in ("real_time", "cpu_time"):
    off, unit = best("off", field)
    idle, _ = best("idle", field)
    on, _ = best("on", field)
    print(f"[{field}]")
    print(f"  tracing compiled out:          {off:8.3f} {unit}/call")
    print(f"  compiled in, no trace output:  {idle:8.3f} {unit}/call  "
          f"({100 * (idle - off) / off:+.1f}%)")
    print(f"  recording (--trace_output):    {on:8.3f} {unit}/call  "
          f"({100 * (on - off) / off:+.1f}%)")
scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]
bound = zones * no_sink_ns / (off * scale)
print(f"{zones:.0f} zones per call; at {no_sink_ns:.1f} ns per zone without a "
      f"sink that is {100 * bound:.4f}% of a call (the bound that machine "
      "load cannot blur)")
PY
