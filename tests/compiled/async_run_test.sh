#!/usr/bin/env bash
# A module compiled with --execution-model=async-external (coarse-fences
# exports: wait and signal fences as the last two arguments, IREE's
# iree.abi.model = "coarse-fences") runs with kiln-run-module and
# kiln-run-mlir on both devices: the tools pass the fences and wait.
# Usage: async_run_test.sh BIN_DIR REPO_ROOT
set -euo pipefail
bin=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/kiln-compile" --iree-execution-model=async-external \
  "$root/samples/simple_abs.mlir" -o "$work/abs.kmod"
"$bin/kiln-dump-module" "$work/abs.kmod" | grep -q 'attr "iree.abi.model" "coarse-fences"'
for device in local-sync local-task; do
  out=$("$bin/kiln-run-module" --module="$work/abs.kmod" --device=$device --function=abs --input=f32=-3)
  [ "$out" = $'EXEC @abs\nresult[0]: hal.buffer_view\nf32=3' ] || { echo "$out"; exit 1; }
  out=$("$bin/kiln-run-mlir" "$root/samples/simple_abs.mlir" --device=$device --input=f32=-5 \
        --Xcompiler,execution-model=async-external)
  [ "$(echo "$out" | tail -1)" = "f32=5" ] || { echo "$out"; exit 1; }
done
echo "async-external modules run on local-sync and local-task"
