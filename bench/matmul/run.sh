#!/usr/bin/env bash
# Matmul benchmark: kiln's ukernel matmul vs OpenBLAS sgemm vs the core's
# FMA peak, 1 and 2 threads, f32 plus bf16 and i8 rates. Not part of
# `make test` (speed is never asserted); run it with `make bench`.
#
# Usage: bench/matmul/run.sh [BUILD_DIR] [matmul_bench flags...]
#   e.g. bench/matmul/run.sh build --quick --rounds 3
#   bench/matmul/run.sh build --shape gemv-like   (one shape; no docs update)
# Writes BUILD_DIR/bench/matmul/{results.txt,results.json,results.png}; a
# run without flags also updates the website's benchmark-suites page (its
# bench-matmul block and bench-matmul.png).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
shift || true
case "$build" in /*) ;; *) build="$root/$build" ;; esac

"$root/scripts/install-deps.sh" --bench

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target kiln_ukernel_matmul -j "$(nproc)" >/dev/null

out="$build/bench/matmul"
mkdir -p "$out"
lib="$build/runtime"
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$root" \
  "$root/bench/matmul/matmul_bench.c" -o "$out/matmul_bench" \
  "$lib/builtins/ukernel/libkiln_ukernel_matmul.a" \
  "$lib/builtins/ukernel/libkiln_ukernel.a" "$lib/task/libkiln_task.a" \
  "$lib/base/libkiln_base.a" -lopenblas -lpthread -lm

# OpenBLAS's Zen kernels are its AVX2 ones; SkylakeX selects its AVX-512
# sgemm, the fair reference on an AVX-512 core. One process per thread
# count so that OPENBLAS_NUM_THREADS sizes OpenBLAS's pool as it would be
# in an application.
export OPENBLAS_CORETYPE=SkylakeX
: >"$out/results.txt"
for threads in 1 2; do
  OPENBLAS_NUM_THREADS=$threads "$out/matmul_bench" --threads "$threads" \
    --json "$out/results-${threads}t.json" "$@" | tee -a "$out/results.txt"
done
# A full run (no flags) also puts its table and chart on the website's
# benchmark-suites page.
docs=()
if [ $# -eq 0 ]; then
  page="$root/docs/website/docs/developers/performance"
  docs=(--docs-page "$page/benchmark-suites.md"
        --docs-png "$page/bench-matmul.png")
fi
# Debian's python3 (the one python3-matplotlib installs into), not a
# python3 earlier in PATH.
/usr/bin/python3 "$root/bench/matmul/report.py" "$out/results-1t.json" \
  "$out/results-2t.json" --json "$out/results.json" --png "$out/results.png" \
  ${docs[@]+"${docs[@]}"} | tee -a "$out/results.txt"
echo "matmul bench: wrote $out/results.txt, results.json and results.png"
