#!/usr/bin/env bash
# Functions with dynamically shaped (`?`) arguments, compiled once per
# backend and called with kiln-run-module on different input shapes on each
# device; every result is checked against values computed by hand in this
# script (not by kiln), and a shape that does not match the static dims must
# fail with a clear error.
# Usage: run_dynamic_args_test.sh BIN_DIR
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

cat >"$work/dyn.mlir" <<'MLIR'
func.func @colsum(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @rowsum(%x: tensor<3x?xi32>) -> tensor<3xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x?xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @scatter_add(%operand: tensor<5x2xi32>, %indices: tensor<?x1xi32>, %updates: tensor<?x2xi32>) -> tensor<5x2xi32> {
  %0 = "stablehlo.scatter"(%operand, %indices, %updates) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {
    indices_are_sorted = false,
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>,
    unique_indices = false
  } : (tensor<5x2xi32>, tensor<?x1xi32>, tensor<?x2xi32>) -> tensor<5x2xi32>
  return %0 : tensor<5x2xi32>
}
func.func @add_square(%x: tensor<?x2xf32>, %y: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.add %x, %y : tensor<?x2xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @to_static(%x: tensor<?x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.negate %x : tensor<?x2xf32>
  %1 = tensor.cast %0 : tensor<?x2xf32> to tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
func.func @shrink(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %n = arith.subi %d, %c3 : index
  %init = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%init : tensor<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    linalg.yield %f : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @empty_or_ones(%x: tensor<?xf32>, %flag: i8) -> (tensor<?x2xf32>, tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?x2xf32>
  %zero = arith.constant 0 : i8
  %cond = arith.cmpi eq, %flag, %zero : i8
  cf.cond_br %cond, ^empty, ^ones
^empty:
  %s = tensor.empty() : tensor<2x4xf32>
  return %e, %s : tensor<?x2xf32>, tensor<2x4xf32>
^ones:
  %o = arith.constant dense<1.0> : tensor<2x4xf32>
  return %e, %o : tensor<?x2xf32>, tensor<2x4xf32>
}
func.func @rows_1_2(%x: tensor<?x4xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.slice %x [1:3, 0:4:2] : (tensor<?x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @update(%x: tensor<?xi32>, %u: tensor<?xi32>, %i: tensor<i32>) -> tensor<?xi32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<?xi32>, tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
func.func @bcast(%x: tensor<3xf32>, %shape: tensor<2xi64>) -> tensor<?x3xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @concat(%x: tensor<?x2xf32>, %y: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.concatenate %x, %y, dim = 0 : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
func.func @tosa_pad(%x: tensor<?x2xf32>) -> tensor<?x5xf32> {
  %p = tosa.const_shape {values = dense<[1, 2, 0, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<-1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %c : (tensor<?x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}
func.func @tosa_concat(%x: tensor<?x2xf32>, %y: tensor<?x1xf32>) -> tensor<?x3xf32> {
  %0 = tosa.concat %x, %y {axis = 1 : i32} : (tensor<?x2xf32>, tensor<?x1xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @tosa_tile(%x: tensor<?x2xf32>) -> tensor<?x4xf32> {
  %m = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m : (tensor<?x2xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @tosa_slice(%x: tensor<?x4xf32>) -> tensor<2x2xf32> {
  %s = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %x, %s, %z : (tensor<?x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @tosa_gather(%v: tensor<?x?x2xf32>, %i: tensor<?x?xi32>) -> tensor<?x?x2xf32> {
  %0 = tosa.gather %v, %i : (tensor<?x?x2xf32>, tensor<?x?xi32>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}
func.func @tosa_max_pool(%x: tensor<?x3x3x1xf32>) -> tensor<?x2x2x1xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>} : (tensor<?x3x3x1xf32>) -> tensor<?x2x2x1xf32>
  return %0 : tensor<?x2x2x1xf32>
}
func.func @tosa_conv(%x: tensor<1x?x?x1xf32>, %w: tensor<1x2x2x1xf32>) -> tensor<1x?x?x1xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %b, %b {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>} : (tensor<1x?x?x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x1xf32>
  return %0 : tensor<1x?x?x1xf32>
}
func.func @conv_into(%x: tensor<1x?x?x1xf32>, %k: tensor<2x2x1x1xf32>, %o: tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x?x?x1xf32>, tensor<2x2x1x1xf32>) outs(%o : tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  return %0 : tensor<1x?x?x1xf32>
}
func.func @grow(%x: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %big = arith.constant 1000000000 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %n = arith.muli %d, %big : index
  %init = tensor.empty(%n, %n) : tensor<?x?xf32>
  %cst = arith.constant 1.0 : f32
  %0 = linalg.fill ins(%cst : f32) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @window_sums(%x: tensor<?xf32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @pool_grad(%x: tensor<?xf32>, %g: tensor<?xf32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @rng_uniform(%shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<10.0> : tensor<f32>
  %0 = "stablehlo.rng"(%lo, %hi, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @rng_normal(%shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %mu = stablehlo.constant dense<0.0> : tensor<f32>
  %sigma = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @chol_n(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @solve_n(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @rfft_real(%x: tensor<?x?xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<?x?xf32>) -> tensor<?x3xcomplex<f32>>
  %1 = stablehlo.real %0 : (tensor<?x3xcomplex<f32>>) -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
func.func @solve(%a: tensor<?x2x2xf32>, %b: tensor<?x2x1xf32>) -> tensor<?x2x1xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<?x2x2xf32>, tensor<?x2x1xf32>) -> tensor<?x2x1xf32>
  return %0 : tensor<?x2x1xf32>
}
func.func @tosa_conv_channels(%x: tensor<1x1x1x?xf32>, %w: tensor<?x1x1x?xf32>, %b: tensor<?xf32>) -> tensor<1x1x1x?xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x?xf32>, tensor<?x1x1x?xf32>, tensor<?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x?xf32>
  return %0 : tensor<1x1x1x?xf32>
}
func.func @tosa_rows_of_4(%x: tensor<?x6xf32>) -> tensor<?x4xf32> {
  %s = tosa.const_shape {values = dense<[-1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<?x6xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @reshape_to(%x: tensor<?x?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
MLIR

# Every backend compiles the same file; each module runs on every device.
for backend in vmvx llvm-cpu; do
  if ! "$bin/kiln-compile" --target-backends=$backend "$work/dyn.mlir" \
    -o "$work/dyn-$backend.kmod"; then
    echo "FAIL: compile ($backend)"
    exit 1
  fi
done

# expect NAME DEVICE EXPECTED -- run-module args...: a result line equal to
# EXPECTED, or (for EXPECTED starting with "error:") an error containing it.
expect() {
  local name=$1 device=$2 want=$3 match=-qxF
  shift 4
  [[ $want == error:* ]] && match=-qF
  # "contains:TEXT": an error line containing TEXT (after a source path).
  if [[ $want == contains:* ]]; then
    want=${want#contains:}
    match=-qF
  fi
  local out
  out=$("$bin/kiln-run-module" --module="$work/dyn-$backend.kmod" --device="$device" "$@" 2>&1)
  if ! grep $match -- "$want" <<<"$out"; then
    echo "FAIL: $name on $backend/$device: expected '$want', got:"
    echo "$out"
    fail=1
  fi
}

for backend in vmvx llvm-cpu; do for device in local-sync local-task; do
  # Column sums: 1+5=6, 2+6=8, ...; then with three rows 1+5+9=15, ...
  expect colsum2 "$device" "4xf32=6 8 10 12" -- --function=colsum \
    --input="2x4xf32=1 2 3 4 5 6 7 8"
  expect colsum3 "$device" "4xf32=15 18 21 24" -- --function=colsum \
    --input="3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12"
  expect colsum1 "$device" "4xf32=-1 0.5 2 4" -- --function=colsum \
    --input="1x4xf32=-1 0.5 2 4"
  # No rows: the sums are the init value.
  expect colsum0 "$device" "4xf32=0 0 0 0" -- --function=colsum \
    --input="0x4xf32="
  # Row sums over a dynamic number of columns (dynamic strides).
  expect rowsum2 "$device" "3xi32=3 7 11" -- --function=rowsum \
    --input="3x2xi32=1 2 3 4 5 6"
  expect rowsum4 "$device" "3xi32=10 26 42" -- --function=rowsum \
    --input="3x4xi32=1 2 3 4 5 6 7 8 9 10 11 12"
  # Scatter-add of 2 and then 3 rows into ones (index 1 twice: 1+10+30).
  expect scatter2 "$device" "5x2xi32=[1 1][1 1][11 21][1 1][31 41]" -- \
    --function=scatter_add --input="5x2xi32=1" \
    --input="2x1xi32=2 4" --input="2x2xi32=10 20 30 40"
  expect scatter3 "$device" "5x2xi32=[1 1][41 61][1 1][1 1][6 7]" -- \
    --function=scatter_add --input="5x2xi32=1" \
    --input="3x1xi32=1 4 1" --input="3x2xi32=10 20 5 6 30 40"
  # Static dims are still checked: 2x5 is not ?x4.
  expect mismatch "$device" \
    "error: @colsum input 0: expected ?x4xf32 but got 2x5xf32" \
    -- --function=colsum --input="2x5xf32=1 2 3 4 5 6 7 8 9 10"
  # Dynamically shaped results, returned with their run-time shapes:
  # (x + y)^2 and a 2x3 by 3x1 product (1*1 + 2*2 + 3*3 = 14, 4 + 10 + 18).
  expect add_square2 "$device" "2x2xf32=[1 4][9 16]" -- --function=add_square \
    --input="2x2xf32=0 1 2 3" --input="2x2xf32=1 1 1 1"
  expect add_square0 "$device" "0x2xf32=" -- --function=add_square \
    --input="0x2xf32=" --input="0x2xf32="
  expect matmul "$device" "2x1xf32=[14][32]" -- --function=matmul \
    --input="2x3xf32=1 2 3 4 5 6" --input="3x1xf32=1 2 3"
  expect to_static "$device" "3x2xf32=[-1 -2][-3 -4][-5 -6]" -- \
    --function=to_static --input="3x2xf32=1 2 3 4 5 6"
  # Run-time dims that break the program's assumptions fail the call
  # naming the op's location and operands, before any dispatch reads past
  # a buffer.
  expect add_rows "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x2xf32>) and dim 0 of operand 1 (tensor<?x2xf32>) differ; at module.add_square" \
    -- --function=add_square --input="2x2xf32=0" --input="3x2xf32=0"
  expect matmul_k "$device" \
    "contains:run-time shapes disagree: dim 1 of operand 0 (tensor<?x?xf32>) and dim 0 of operand 1 (tensor<?x?xf32>) differ; at module.matmul" \
    -- --function=matmul --input="2x3xf32=0" --input="4x1xf32=0"
  expect cast "$device" \
    "error: fail (code 3): tensor.cast to tensor<3x2xf32>: dim 0 of the run-time shape differs; at module.to_static" \
    -- --function=to_static --input="4x2xf32=0"
  # A static slice of a dynamic operand: rows 1..2, every other column;
  # two rows do not hold it.
  expect slice "$device" "2x2xf32=[4 6][8 10]" -- --function=rows_1_2 \
    --input="3x4xf32=0 1 2 3 4 5 6 7 8 9 10 11"
  expect slice_short "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x4xf32>) is below 3; at module.rows_1_2" \
    -- --function=rows_1_2 --input="2x4xf32=0"
  # dynamic_update_slice: [7, 8] at 3 clamps to 4 - 2 = 2; an empty update
  # leaves the operand; an update longer than the operand fails.
  expect update "$device" "4xi32=0 1 7 8" -- --function=update \
    --input="4xi32=0 1 2 3" --input="2xi32=7 8" --input=i32=3
  expect update_empty "$device" "4xi32=0 1 2 3" -- --function=update \
    --input="4xi32=0 1 2 3" --input="0xi32" --input=i32=1
  expect update_too_long "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 1 (tensor<?xi32>) exceeds dim 0 of operand 0 (tensor<?xi32>); at module.update" \
    -- --function=update --input="2xi32=0 1" --input="3xi32=7 8 9" --input=i32=0
  # A shape tensor passed in sizes the result; a negative entry fails.
  expect bcast "$device" "2x3xf32=[1 2 3][1 2 3]" -- --function=bcast \
    --input="3xf32=1 2 3" --input="2xi64=2 3"
  expect bcast_negative "$device" \
    "contains:dim 0 of its tensor<?x3xf32> result is negative or above 2^31-1 at run time; at module.bcast" \
    -- --function=bcast --input="3xf32=1 2 3" --input="2xi64=-1 3"
  # An empty operand is never read (bodies read 0 past a run-time length).
  expect concat_empty "$device" "2x2xf32=[1 2][3 4]" -- --function=concat \
    --input="0x2xf32" --input="2x2xf32=1 2 3 4"
  expect concat_empty_last "$device" "1x2xf32=[5 6]" -- --function=concat \
    --input="1x2xf32=5 6" --input="0x2xf32"
  # A tensor.empty returned as is (contents undefined: only the shape is
  # checked), on either side of a host branch.
  expect empty_returned "$device" "contains:4x2xf32=" -- \
    --function=empty_or_ones --input="4xf32=0" --input=0
  expect ones_returned "$device" "2x4xf32=[1 1 1 1][1 1 1 1]" -- \
    --function=empty_or_ones --input="4xf32=0" --input=1
  # Sizes computed at run time: dim - 3 (an iota), negative for 2 rows;
  # dim * 10^9 squared overflows the memory any buffer may take, and 3e9
  # does not fit a dim.
  expect shrink "$device" "2xf32=0 1" -- --function=shrink --input="5xf32=0"
  expect shrink_negative "$device" \
    "error: fail (code 3): 'shrink_dispatch_0_elementwise': dim 0 of its tensor<?xf32> result is negative or above 2^31-1 at run time; at module.shrink" \
    -- --function=shrink --input="2xf32=0"
  expect grow_bytes "$device" \
    "error: fail (code 3): 'grow_dispatch_0_fill': its tensor<?x?xf32> result would need more than 2^46 bytes at run time; at module.grow" \
    -- --function=grow --input="1xf32=0"
  expect grow_dim "$device" \
    "error: fail (code 3): 'grow_dispatch_0_fill': dim 0 of its tensor<?x?xf32> result is negative or above 2^31-1 at run time; at module.grow" \
    -- --function=grow --input="3xf32=0"
  # TOSA data movement on the sizes given: one row of -1 before and two
  # after, three columns after (1 + 2 + 2 rows by 2 + 3 columns; an empty
  # input pads to 3 rows of -1), a concat whose operands must have as many
  # rows, a tile of 1 and of 2 rows, and a slice the input must hold.
  expect tosa_pad "$device" "5x5xf32=[-1 -1 -1 -1 -1][1 2 -1 -1 -1][3 4 -1 -1 -1][-1 -1 -1 -1 -1][-1 -1 -1 -1 -1]" \
    -- --function=tosa_pad --input="2x2xf32=1 2 3 4"
  expect tosa_pad_empty "$device" "3x5xf32=[-1 -1 -1 -1 -1][-1 -1 -1 -1 -1][-1 -1 -1 -1 -1]" \
    -- --function=tosa_pad --input="0x2xf32="
  expect tosa_concat "$device" "2x3xf32=[1 2 5][3 4 6]" -- --function=tosa_concat \
    --input="2x2xf32=1 2 3 4" --input="2x1xf32=5 6"
  expect tosa_concat_rows "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x2xf32>) and dim 0 of operand 1 (tensor<?x1xf32>) differ; at module.tosa_concat" \
    -- --function=tosa_concat --input="2x2xf32=1 2 3 4" --input="3x1xf32=5 6 7"
  expect tosa_tile1 "$device" "2x4xf32=[1 2 1 2][1 2 1 2]" -- --function=tosa_tile \
    --input="1x2xf32=1 2"
  expect tosa_tile2 "$device" "4x4xf32=[1 2 1 2][3 4 3 4][1 2 1 2][3 4 3 4]" -- \
    --function=tosa_tile --input="2x2xf32=1 2 3 4"
  expect tosa_slice "$device" "2x2xf32=[5 6][9 10]" -- --function=tosa_slice \
    --input="3x4xf32=0 1 2 3 4 5 6 7 8 9 10 11"
  expect tosa_slice_short "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x4xf32>) is below 3; at module.tosa_slice" \
    -- --function=tosa_slice --input="2x4xf32=0"
  # gather: rows 2, 0, 1 of [[1, 2], [3, 4], [5, 6]]; an index past the
  # rows (TOSA leaves it undefined) reads the last row, never past the
  # buffer; values and indices must have as many batches.
  expect tosa_gather "$device" "1x3x2xf32=[[5 6][1 2][3 4]]" -- \
    --function=tosa_gather --input="1x3x2xf32=1 2 3 4 5 6" --input="1x3xi32=2 0 1"
  expect tosa_gather_clamped "$device" "1x2x2xf32=[[5 6][1 2]]" -- \
    --function=tosa_gather --input="1x3x2xf32=1 2 3 4 5 6" --input="1x2xi32=7 -1"
  expect tosa_gather_batches "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x?x2xf32>) and dim 0 of operand 1 (tensor<?x?xi32>) differ; at module.tosa_gather" \
    -- --function=tosa_gather --input="1x3x2xf32=0" --input="2x1xi32=0 0"
  # Max pooling over 1 and 3 images (2x2 windows, stride 2, padding after).
  expect tosa_max_pool1 "$device" "1x2x2x1xf32=[[[5][6]][[8][9]]]" -- \
    --function=tosa_max_pool --input="1x3x3x1xf32=1 2 3 4 5 6 7 8 9"
  expect tosa_max_pool3 "$device" "3x2x2x1xf32=[[[5][6]][[8][9]]][[[1][1]][[1][1]]][[[-1][-3]][[-7][-9]]]" -- \
    --function=tosa_max_pool --input="3x3x3x1xf32=1 2 3 4 5 6 7 8 9 1 1 1 1 1 1 1 1 1 -1 -2 -3 -4 -5 -6 -7 -8 -9"
  # TOSA conv2d over run-time image dims (2x2 windows of ones, stride 2
  # across): the output is (H - 1) x ((W - 2) / 2 + 1), e.g. 1 + 2 + 6 + 7
  # and 3 + 4 + 8 + 9 on the first row of 1..15; one row is smaller than
  # a window: the call fails, naming the dim.
  expect tosa_conv_2x3 "$device" "1x2x2x1xf32=[[[16][24]][[36][44]]]" -- \
    --function=tosa_conv --input="1x3x5x1xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" \
    --input="1x2x2x1xf32=1"
  expect tosa_conv_1x1 "$device" "1x1x1x1xf32=[[[10]]]" -- \
    --function=tosa_conv --input="1x2x2x1xf32=1 2 3 4" --input="1x2x2x1xf32=1"
  expect tosa_conv_no_rows "$device" \
    "contains:run-time shapes disagree: dim 1 of the input (tensor<1x?x?x1xf32>, padding included) is smaller than one window (2); at module.tosa_conv" -- \
    --function=tosa_conv --input="1x1x4x1xf32=1 2 3 4" --input="1x2x2x1xf32=1"
  # A convolution over run-time spatial dims into an output the caller
  # sizes (accumulating into it: 100 + top-left + bottom-right): the input
  # must hold oh + 1 rows and ow + 1 columns, unless the output is empty.
  expect conv_2x2 "$device" "1x2x2x1xf32=[[[106][108]][[112][114]]]" -- \
    --function=conv_into --input="1x3x3x1xf32=1 2 3 4 5 6 7 8 9" \
    --input="2x2x1x1xf32=1 0 0 1" --input="1x2x2x1xf32=100"
  expect conv_1x3 "$device" "1x1x3x1xf32=[[[7][9][11]]]" -- \
    --function=conv_into --input="1x2x4x1xf32=1 2 3 4 5 6 7 8" \
    --input="2x2x1x1xf32=1 0 0 1" --input="1x1x3x1xf32=0"
  expect conv_empty "$device" "1x0x2x1xf32=[]" -- --function=conv_into \
    --input="1x0x3x1xf32=" --input="2x2x1x1xf32=1 0 0 1" --input="1x0x2x1xf32="
  expect conv_too_small "$device" \
    "contains:run-time shapes disagree: dim 1 of operand 0 (tensor<1x?x?x1xf32>) is smaller than the window read over it needs; at module.conv_into" \
    -- --function=conv_into --input="1x3x3x1xf32=0" --input="2x2x1x1xf32=0" \
    --input="1x3x2x1xf32=0"
  # Sums of 3 at stride 2: 1+2+3, 3+4+5 over five; two elements are
  # smaller than one window (an error, not an empty result).
  expect window_sums "$device" "2xf32=6 12" -- \
    --function=window_sums --input="5xf32=1 2 3 4 5"
  expect window_sums_small "$device" \
    "contains:run-time shapes disagree: dim 0 of the input (tensor<?xf32>, padding included) is smaller than one window (3); at module.window_sums" \
    -- --function=window_sums --input="2xf32=1 2"
  # Max-pool gradient (windows of 2 at stride 2): each window's gradient
  # goes to its larger element (4 of (1, 4), 5 of (5, 2)); the gradient
  # must have one value per window, and an empty operand has no element to
  # select.
  expect pool_grad "$device" "4xf32=0 10 20 0" -- --function=pool_grad \
    --input="4xf32=1 4 5 2" --input="2xf32=10 20"
  expect pool_grad_count "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 1 (tensor<?xf32>) is not the window count of dim 0 of operand 0 (tensor<?xf32>); at module.pool_grad" \
    -- --function=pool_grad --input="4xf32=1 4 5 2" --input="3xf32=10 20 30"
  expect pool_grad_empty "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?xf32>) is below 1; at module.pool_grad" \
    -- --function=pool_grad --input="0xf32=" --input="0xf32="
  # stablehlo.rng UNIFORM sized by a shape passed in: IREE's LCG per
  # element index, values from a Python model of it (u = (i + u) *
  # 1103515245 + 12345 per index, mod 2^32; f32(u) * 10 * 2^-32).
  expect rng_2x3 "$device" "2x3xf32=[8.27577 0.845092 3.41441][5.87871 8.44803 1.01735]" -- \
    --function=rng_uniform --input="2xi64=2 3"
  expect rng_negative "$device" "contains:is negative or above 2^31-1 at run time" -- \
    --function=rng_uniform --input="2xi64=2 -3"
  # stablehlo.rng NORMAL sized at run time: 3 elements are pairs 0 and 1
  # (cos) and pair 0 (sin) of IREE's table (values from the Python model in
  # tests/e2e/stablehlo_rng/gen_rng_normal.py); the table holds 8192
  # elements, so 100 x 100 fails the call, as does a negative size.
  expect rng_normal_1x3 "$device" "1x3xf32=[0.570861 0.317593 -0.848389]" -- \
    --function=rng_normal --input="2xi64=1 3"
  expect rng_normal_big "$device" \
    "contains:run-time shapes disagree: the NORMAL result has more than 8192 elements (its table is built at compile time); at module.rng_normal" \
    -- --function=rng_normal --input="2xi64=100 100"
  expect rng_normal_negative "$device" "contains:is negative or above 2^31-1 at run time" -- \
    --function=rng_normal --input="2xi64=-1 3"
  # A run-time matrix size: [[4, 2], [2, 5]] = L L^T with L = [[2, 0],
  # [1, 2]]; [[2, 0], [1, 1]] x = (4, 3) gives x = (2, 1). A must be
  # square, and b must have N rows.
  expect chol_n "$device" "2x2xf32=[2 0][1 2]" -- --function=chol_n \
    --input="2x2xf32=4 2 2 5"
  expect chol_n_square "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x?xf32>) and dim 1 of operand 0 (tensor<?x?xf32>) differ; at module.chol_n" \
    -- --function=chol_n --input="2x3xf32=1 0 0 0 1 0"
  expect solve_n "$device" "2x1xf32=[2][1]" -- --function=solve_n \
    --input="2x2xf32=2 0 1 1" --input="2x1xf32=4 3"
  expect solve_n_rows "$device" \
    "contains:run-time shapes disagree: dim 1 of operand 0 (tensor<?x?xf32>) and dim 0 of operand 1 (tensor<?x?xf32>) differ; at module.solve_n" \
    -- --function=solve_n --input="2x2xf32=2 0 1 1" --input="3x1xf32=4 3 1"
  # RFFT of rows of a run-time length that must be fft_length (4): the
  # real parts of (10, -2 + 2i, -2) and (2, -2, 2) for 1 2 3 4 and 0 0 2 0.
  expect rfft_real "$device" "2x3xf32=[10 -2 -2][2 -2 2]" -- \
    --function=rfft_real --input="2x4xf32=1 2 3 4 0 0 2 0"
  expect rfft_real_length "$device" \
    "contains:run-time shapes disagree: dim 1 of the operand must be 4 for fft_length 4; at module.rfft_real" \
    -- --function=rfft_real --input="1x5xf32=1 2 3 4 5"
  # A batch of lower-triangular solves: [[2, 0], [1, 1]] x = (4, 3) gives
  # x = (2, 1); a and b must have the same batch count.
  expect solve "$device" "1x2x1xf32=[[2][1]]" -- --function=solve \
    --input="1x2x2xf32=2 0 1 1" --input="1x2x1xf32=4 3"
  expect solve_batch "$device" \
    "contains:run-time shapes disagree: dim 0 of operand 0 (tensor<?x2x2xf32>) and dim 0 of operand 1 (tensor<?x2x1xf32>) differ; at module.solve" \
    -- --function=solve --input="2x2x2xf32=2 0 1 1 2 0 1 1" --input="1x2x1xf32=4 3"
  # A 1x1 convolution over run-time channel counts: (1, 2) dotted with
  # (3, 4) plus 5 = 16; the input's and the weights' channels must agree.
  expect tosa_conv_channels "$device" "1x1x1x1xf32=[[[16]]]" -- \
    --function=tosa_conv_channels --input="1x1x1x2xf32=1 2" \
    --input="1x1x1x2xf32=3 4" --input="1xf32=5"
  expect tosa_conv_channels_bad "$device" \
    "contains:run-time shapes disagree: dim 3 of operand 0 (tensor<1x1x1x?xf32>) and dim 3 of operand 1 (tensor<?x1x1x?xf32>) differ; at module.tosa_conv_channels" \
    -- --function=tosa_conv_channels --input="1x1x1x2xf32=1 2" \
    --input="1x1x1x3xf32=3 4 5" --input="1xf32=5"
  # Reshapes with run-time dims: 2x6 holds three rows of 4, 1x6 does not
  # (6 is not a multiple of 4); a shape tensor must hold the operand's
  # element count with no negative size (-2 x -3 = 6 still fails).
  expect tosa_rows_of_4 "$device" "3x4xf32=[1 2 3 4][5 6 7 8][9 10 11 12]" -- \
    --function=tosa_rows_of_4 --input="2x6xf32=1 2 3 4 5 6 7 8 9 10 11 12"
  expect tosa_rows_of_4_bad "$device" \
    "contains:run-time shapes disagree: reshaping tensor<?x6xf32> into tensor<?x4xf32>: the element counts differ or a size is negative; at module.tosa_rows_of_4" \
    -- --function=tosa_rows_of_4 --input="1x6xf32=0"
  expect reshape_to_3x2 "$device" "3x2xf32=[1 2][3 4][5 6]" -- \
    --function=reshape_to --input="2x3xf32=1 2 3 4 5 6" --input="2xi64=3 2"
  expect reshape_to_count "$device" \
    "contains:run-time shapes disagree: reshaping tensor<?x?xf32> into tensor<?x?xf32>: the element counts differ or a size is negative; at module.reshape_to" \
    -- --function=reshape_to --input="2x3xf32=0" --input="2xi64=4 2"
  expect reshape_to_negative "$device" \
    "contains:the element counts differ or a size is negative; at module.reshape_to" \
    -- --function=reshape_to --input="2x3xf32=0" --input="2xi64=-2 -3"
done; done
if [ "$fail" != 0 ]; then exit 1; fi
echo "PASS"
