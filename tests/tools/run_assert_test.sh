#!/usr/bin/env bash
# cf.assert at run time: an input that satisfies the assertion gives the
# result, one that does not fails the invocation with exit code 1,
# INVALID_ARGUMENT and the assertion's message; every backend and device.
# Usage: run_assert_test.sh BIN_DIR
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for backend in vmvx llvm-cpu; do
  "$bin/kiln-compile" --iree-hal-target-backends=$backend \
    "$here/assert_input.mlir" -o "$work/$backend.kmod" || exit 1
  for device in local-sync local-task; do
    run=("$bin/kiln-run-module" "--module=$work/$backend.kmod"
         "--device=$device" --function=main)
    # 1 2 3 sums to 6 > 0: the squares.
    out=$("${run[@]}" "--input=3xi32=1 2 3" 2>&1)
    if [ $? -ne 0 ] || ! grep -q '^3xi32=1 4 9$' <<<"$out"; then
      echo "FAILED: $backend $device: passing input"; echo "$out"
      failed=1
    fi
    # 1 -5 3 sums to -1.
    out=$("${run[@]}" "--input=3xi32=1 -5 3" 2>&1)
    code=$?
    if [ $code -ne 1 ] ||
       ! grep -q 'the sum of "x" must be positive.*(INVALID_ARGUMENT)' \
         <<<"$out"; then
      echo "FAILED: $backend $device: failing input (exit $code)"
      echo "$out"
      failed=1
    fi
  done
done
[ $failed -eq 0 ] && echo "cf.assert passes and fails as expected"
exit $failed
