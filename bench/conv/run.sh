#!/usr/bin/env bash
# Convolution benchmark: ResNet-50's f32 convolution shapes (batch 1, NHWC,
# HWIO filters) compiled for llvm-cpu and timed with kiln-benchmark-module
# on one thread (local-sync), against the core's FMA peak measured in the
# same run by a register-only FMA loop (peak.c), both in CPU time. Prints per shape kiln's
# GFLOP/s, the peak and the fraction, plus the FLOP-weighted average (the
# total FLOPs of the shapes over their total time). Not a test: speed is
# never asserted; run it on an idle machine (numbers move with load).
#
# The 3x3 stride-1 shapes have constant filters (as in a model) and take
# the Winograd path; each is also timed computed directly ("direct" rows).
#
# Each convolution gets its image already padded, so the time is the
# convolution dispatch alone (stablehlo's padding is a separate copy
# dispatch before it).
#
# Usage: bench/conv/run.sh [BIN_DIR] [--quick]   (default build/bin)
# Writes results.txt and results.json under BIN_DIR/../bench/conv/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin}
shift || true
quick=0
[ "${1:-}" = "--quick" ] && quick=1
bin=$(cd "$bin" && pwd)
out_dir=$(cd "$bin/.." && pwd)/bench/conv
mkdir -p "$out_dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3

cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror "$root/bench/conv/peak.c" \
  -o "$work/peak"

# name H W C F kernel stride pad (ResNet-50 v1.5, torchvision's layout).
cat >"$work/shapes.txt" <<'SHAPES'
stem_7x7s2 224 224 3 64 7 2 3
c3x3_56 56 56 64 64 3 1 1
c3x3_28 28 28 128 128 3 1 1
c3x3_14 14 14 256 256 3 1 1
c3x3_7 7 7 512 512 3 1 1
c3x3s2_56 56 56 128 128 3 2 1
c3x3s2_28 28 28 256 256 3 2 1
c3x3s2_14 14 14 512 512 3 2 1
c1x1_56_64_256 56 56 64 256 1 1 0
c1x1_56_256_64 56 56 256 64 1 1 0
c1x1_28_512_128 28 28 512 128 1 1 0
c1x1_28_128_512 28 28 128 512 1 1 0
c1x1_14_1024_256 14 14 1024 256 1 1 0
c1x1_14_256_1024 14 14 256 1024 1 1 0
c1x1_7_2048_512 7 7 2048 512 1 1 0
c1x1_7_512_2048 7 7 512 2048 1 1 0
c1x1s2_56_256_512 56 56 256 512 1 2 0
c1x1s2_28_512_1024 28 28 512 1024 1 2 0
c1x1s2_14_1024_2048 14 14 1024 2048 1 2 0
SHAPES
if [ "$quick" = 1 ]; then
  grep -E '^(stem|c3x3_56|c3x3_14|c1x1_56_64_256|c1x1_14_1024_256|c1x1s2_28)' \
    "$work/shapes.txt" >"$work/s" && mv "$work/s" "$work/shapes.txt"
fi

"$py" - "$work" <<'PY'
import json, numpy as np, sys
w = sys.argv[1]
rng = np.random.default_rng(1)
src = []
for line in open(w + "/shapes.txt"):
    name, h, wd, c, f, k, s, p = line.split()
    h, wd, c, f, k, s, p = map(int, (h, wd, c, f, k, s, p))
    hp, wp = h + 2 * p, wd + 2 * p
    oh, ow = (hp - k) // s + 1, (wp - k) // s + 1
    x, wt, o = "tensor<1x%dx%dx%dxf32>" % (hp, wp, c), "tensor<%dx%dx%dx%dxf32>" % (k, k, c, f), "tensor<1x%dx%dx%dxf32>" % (oh, ow, f)
    xv = rng.standard_normal((1, hp, wp, c)).astype(np.float32)
    wv = rng.standard_normal((k, k, c, f)).astype(np.float32)
    np.save("%s/%s_x.npy" % (w, name), xv)
    conv = "  %%0 = stablehlo.convolution(%%x, %%w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [%d, %d], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (%s, %s) -> %s\n  return %%0 : %s\n}\n" % (s, s, x, wt, o, o)
    if k == 3 and s == 1:
        # A constant filter, as in a model: the Winograd path's condition
        # (it transforms the filter at compile time).
        src.append("func.func @%s(%%x: %s) -> %s {\n  %%w = stablehlo.constant dense<%s> : %s\n" % (name, x, o, json.dumps(wv.tolist()), wt) + conv)
        open("%s/constant.txt" % w, "a").write(name + "\n")
    else:
        src.append("func.func @%s(%%x: %s, %%w: %s) -> %s {\n" % (name, x, wt, o) + conv)
        np.save("%s/%s_w.npy" % (w, name), wv)
    with open(w + "/flops.txt", "a") as fl:
        fl.write("%s %d\n" % (name, 2 * oh * ow * f * c * k * k))
open(w + "/conv.mlir", "w").write("".join(src))
PY
touch "$work/constant.txt"
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu "$work/conv.mlir" \
  --iree-hal-dump-executable-sources-to="$work/src" -o "$work/conv.kmod"
# The same convolutions computed directly (im2col + mmt4d), the reference
# for the Winograd ones (3x3 stride 1, constant filters).
winograd=$(grep -c '^// f32 3x3 convolution .*Winograd' "$work/src/dispatches.c" || true)
if [ "$winograd" -gt 0 ]; then
  "$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
    --kiln-llvmcpu-winograd=false "$work/conv.mlir" -o "$work/direct.kmod"
fi
echo "conv bench: $winograd convolution(s) take the Winograd path (3x3 stride 1, constant filter); their direct time is the 'direct' row"

# kiln's CPU time per call (median of repetitions), ms, one thread
# (local-sync runs the dispatches on the calling thread). CPU time rather
# than wall time because the machine may be shared: time slices taken by
# other processes then count for neither kiln nor the peak loop (cache and
# memory contention still do).
kiln_ms() {
  local module=${2:-conv}
  local w=(--input=@"$work/$1_w.npy")
  grep -qx "$1" "$work/constant.txt" && w=()
  "$bin/kiln-benchmark-module" --module="$work/$module.kmod" --function="$1" \
    --device=local-sync --input=@"$work/$1_x.npy" "${w[@]}" \
    --benchmark_min_time=0.2 --benchmark_repetitions=3 \
    --benchmark_format=json 2>/dev/null |
    "$py" -c 'import json,sys; r=json.load(sys.stdin)["benchmarks"]; print([b for b in r if b.get("aggregate_name")=="median"][0]["cpu_time"])'
}

: >"$work/times.txt"
while read -r name flops; do
  # The peak right before each shape, so both see the same load.
  peak=$("$work/peak" | cut -d' ' -f1)
  if grep -qx "$name" "$work/constant.txt" && [ "$winograd" -gt 0 ]; then
    echo "$name $flops $(kiln_ms "$name") $peak winograd" >>"$work/times.txt"
    peak=$("$work/peak" | cut -d' ' -f1)
    echo "$name $flops $(kiln_ms "$name" direct) $peak direct" >>"$work/times.txt"
  else
    echo "$name $flops $(kiln_ms "$name") $peak direct" >>"$work/times.txt"
  fi
done <"$work/flops.txt"

"$py" - "$work/times.txt" "$out_dir/results.json" <<'PY' | tee "$out_dir/results.txt"
import json, sys
rows = [l.split() for l in open(sys.argv[1])]
# GFLOP counts the direct convolution's FLOPs for every path (Winograd's
# rate is effective: it does fewer multiplies). The average uses the path
# kiln takes; a shape's "direct" row with a Winograd row is its reference.
print("%-22s %10s %10s %10s %8s  %s" % ("shape", "GFLOP", "kiln GF/s", "peak GF/s", "%peak", "path"))
taken = {r[0]: r[4] for r in rows if r[4] == "winograd"}
res, tf, tt, tp = [], 0.0, 0.0, 0.0
for name, flops, ms, peak, path in rows:
    flops, ms, peak = float(flops), float(ms), float(peak)
    g = flops / (ms * 1e-3) / 1e9
    print("%-22s %10.3f %10.1f %10.1f %7.1f%%  %s" % (name, flops / 1e9, g, peak, 100 * g / peak, path))
    res.append({"shape": name, "path": path, "gflop": flops / 1e9, "ms": ms, "kiln_gflops": g, "peak_gflops": peak, "fraction": g / peak})
    if taken.get(name, "direct") != path:
        continue
    tf += flops; tt += ms * 1e-3; tp += peak * ms * 1e-3
avg = tf / tt / 1e9
peak_avg = tp / tt
print("FLOP-weighted average: %.1f GFLOP/s = %.1f%% of the %.1f GFLOP/s peak (target >= 75%%)" % (avg, 100 * avg / peak_avg, peak_avg))
json.dump({"results": res, "weighted_gflops": avg, "weighted_fraction": avg / peak_avg}, open(sys.argv[2], "w"), indent=1)
PY
echo "conv bench: wrote $out_dir/results.txt and results.json"
