#!/usr/bin/env bash
# util.buffer.load at a byte offset given at run time: an aligned offset
# inside the buffer reads the value; a misaligned one, or one past the end,
# fails the call with a clear error (never a read outside the buffer), on
# every backend and device. Expected values are worked out by hand.
# Usage: run_buffer_errors_test.sh BIN_DIR
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/buffer.mlir" <<'MLIR'
func.func @at(%offset: index) -> i32 {
  %b = util.buffer.constant : !util.buffer = dense<[7, 8, 9]> : tensor<3xi32>
  %n = util.buffer.size %b : !util.buffer
  %c4 = arith.constant 4 : index
  %v = util.buffer.load %b[%offset for %c4] : !util.buffer{%n} -> i32
  return %v : i32
}
MLIR
failed=0
# check NAME RUN-ARGS... -- PATTERN: the output matches PATTERN (grep -E).
check() {
  local name=$1 pattern=${*: -1} out
  out=$("${run[@]}" "${@:2:$#-3}" 2>&1)
  if ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAILED: $backend $device $name: expected /$pattern/, got:"
    echo "$out"
    failed=1
  fi
}
for backend in vmvx llvm-cpu; do
  "$bin/kiln-compile" --iree-hal-target-backends=$backend \
    "$work/buffer.mlir" -o "$work/$backend.kmod" || exit 1
  for device in local-sync local-task; do
    run=("$bin/kiln-run-module" "--module=$work/$backend.kmod"
         "--device=$device" --function=at)
    check aligned --input=8 -- 'result\[0\]: i32=9$'
    check misaligned --input=6 -- \
      'util.buffer.load: the byte offset is not a multiple of 4.*INVALID_ARGUMENT'
    check past_end --input=12 -- 'out of range of a 12 byte buffer'
  done
done
[ $failed -eq 0 ] && echo "util.buffer.load reads and fails as expected"
exit $failed
