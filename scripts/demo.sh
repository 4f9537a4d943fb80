#!/usr/bin/env bash
# `make demo`: compile the bundled samples, run them on both CPU devices and
# benchmark them. Every command here is one a user can type.
set -euo pipefail
build=${1:-build}
bin="$build/bin"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== kiln-compile samples/simple_abs.mlir"
"$bin/kiln-compile" --target-backends=vmvx samples/simple_abs.mlir -o "$out/abs.kmod"
for device in local-sync local-task; do
  echo "== kiln-run-module --device=$device --function=abs --input=f32=-2"
  "$bin/kiln-run-module" --module="$out/abs.kmod" --device=$device --function=abs --input=f32=-2
done

echo "== kiln-compile samples/mlp.mlir"
"$bin/kiln-compile" --target-backends=vmvx samples/mlp.mlir -o "$out/mlp.kmod"
input="4x8xf32=[[1 2 3 4 5 6 7 8][-1 -2 -3 -4 -5 -6 -7 -8][0.5 0.25 0 1 2 -1 3 -3][1 1 1 1 1 1 1 1]]"
"$bin/kiln-run-module" --module="$out/mlp.kmod" --device=local-task --function=mlp "--input=$input"

echo "== kiln-benchmark-module"
"$bin/kiln-benchmark-module" --module="$out/mlp.kmod" --device=local-task --function=mlp \
  "--input=$input" --benchmark_min_time=0.2
