#!/usr/bin/env bash
# util.buffer.load / store at a byte offset given at run time: an aligned
# offset inside the buffer reads (writes) the value; a misaligned one, or
# one past the end, fails the call with a clear error (never an access
# outside the buffer), as does a store into a constant (read-only) buffer
# or a copy past a buffer's end, or a util.buffer.subspan outside its
# source or an access outside a subspan or a !util.buffer block argument,
# on every backend and device. Expected
# values are worked out by hand.
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
func.func @store_at(%offset: index, %v: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %b = util.buffer.alloc uninitialized : !util.buffer{%c8}
  util.buffer.store %v, %b[%offset for %c4] : i32 -> !util.buffer{%c8}
  %r = util.buffer.load %b[%c4 for %c4] : !util.buffer{%c8} -> i32
  return %r : i32
}
func.func @store_constant(%v: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %b = util.buffer.constant : !util.buffer = dense<[7]> : tensor<1xi32>
  util.buffer.store %v, %b[%c0 for %c4] : i32 -> !util.buffer{%c4}
  %r = util.buffer.load %b[%c0 for %c4] : !util.buffer{%c4} -> i32
  return %r : i32
}
func.func @copy_len(%len: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s = util.buffer.constant : !util.buffer = dense<[1, 2]> : tensor<2xi32>
  %b = util.buffer.alloc uninitialized : !util.buffer{%c8}
  util.buffer.copy %s[%c0], %b[%c4], %len : !util.buffer{%c8} -> !util.buffer{%c8}
  %r = util.buffer.load %b[%c4 for %c4] : !util.buffer{%c8} -> i32
  return %r : i32
}
func.func @subspan_at(%offset: index) -> i32 {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %b = util.buffer.constant : !util.buffer = dense<[7, 8, 9]> : tensor<3xi32>
  %s = util.buffer.subspan %b[%offset] : !util.buffer{%c12} -> !util.buffer{%c8}
  %v = util.buffer.load %s[%c4 for %c4] : !util.buffer{%c8} -> i32
  return %v : i32
}
func.func @view_load(%offset: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %b = util.buffer.constant : !util.buffer = dense<[7, 8, 9]> : tensor<3xi32>
  %s = util.buffer.subspan %b[%c0] : !util.buffer{%c12} -> !util.buffer{%c4}
  %v = util.buffer.load %s[%offset for %c4] : !util.buffer{%c4} -> i32
  return %v : i32
}
func.func @view_fill(%length: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %p = arith.constant -1 : i8
  %b = util.buffer.alloc uninitialized : !util.buffer{%c12}
  %s = util.buffer.subspan %b[%c4] : !util.buffer{%c12} -> !util.buffer{%c4}
  util.buffer.fill %p, %s[%c0 for %length] : i8 -> !util.buffer{%c4}
  %v = util.buffer.load %b[%c8 for %c4] : !util.buffer{%c12} -> i32
  return %v : i32
}
// A block argument takes the whole buffer (which 0) or a view of its bytes
// 4..12, (8, 9) (which 1): accesses through it are checked against the
// bytes that arrived.
func.func @block_pick(%which: i32, %offset: index) -> i32 {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %z = arith.constant 0 : i32
  %b = util.buffer.constant : !util.buffer = dense<[7, 8, 9]> : tensor<3xi32>
  %s = util.buffer.subspan %b[%c4] : !util.buffer{%c12} -> !util.buffer{%c8}
  %whole = arith.cmpi eq, %which, %z : i32
  cf.cond_br %whole, ^bb1(%b : !util.buffer), ^bb1(%s : !util.buffer)
^bb1(%x: !util.buffer):
  %v = util.buffer.load %x[%offset for %c4] : !util.buffer{%c12} -> i32
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
    run[3]=--function=store_at
    check store_aligned --input=4 --input=42 -- 'result\[0\]: i32=42$'
    check store_misaligned --input=2 --input=42 -- \
      'util.buffer.store: the byte offset is not a multiple of 4.*INVALID_ARGUMENT'
    check store_past_end --input=8 --input=42 -- 'out of range of a 8 byte buffer'
    run[3]=--function=store_constant
    check store_constant --input=1 -- 'buffer.store: write to a read-only buffer'
    run[3]=--function=copy_len
    check copy_4 --input=4 -- 'result\[0\]: i32=1$'
    check copy_past_end --input=8 -- 'access \[4, 12\) out of range of a 8 byte buffer'
    # A subspan must lie in its source (an 8-byte view of a 12-byte buffer
    # at byte 4 holds (8, 9): byte 4 of it is 9); every access through a
    # view must lie in the view, even where the buffer has the bytes.
    run[3]=--function=subspan_at
    check subspan_4 --input=4 -- 'result\[0\]: i32=9$'
    check subspan_past_end --input=8 -- \
      'util.buffer.subspan: the byte range is outside its source buffer.*INVALID_ARGUMENT'
    check subspan_negative --input=-4 -- \
      'util.buffer.subspan: the byte range is outside its source buffer.*INVALID_ARGUMENT'
    run[3]=--function=view_load
    check view_load_0 --input=0 -- 'result\[0\]: i32=7$'
    check view_load_past_view --input=4 -- \
      'util.buffer.load: the byte range is outside its util.buffer.subspan.*INVALID_ARGUMENT'
    run[3]=--function=view_fill
    check view_fill_4 --input=4 -- 'result\[0\]: i32=0$'
    check view_fill_past_view --input=8 -- \
      'util.buffer.fill: the byte range is outside its util.buffer.subspan.*INVALID_ARGUMENT'
    run[3]=--function=block_pick
    check block_whole_8 --input=0 --input=8 -- 'result\[0\]: i32=9$'
    check block_view_4 --input=1 --input=4 -- 'result\[0\]: i32=9$'
    check block_view_past --input=1 --input=8 -- \
      'util.buffer.load: the byte range is outside the bytes of its !util.buffer block argument.*INVALID_ARGUMENT'
    check block_whole_past --input=0 --input=12 -- \
      'util.buffer.load: the byte range is outside the bytes of its !util.buffer block argument.*INVALID_ARGUMENT'
  done
done
[ $failed -eq 0 ] && echo "util.buffer loads and stores work and fail as expected"
exit $failed
