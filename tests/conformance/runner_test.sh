#!/usr/bin/env bash
# Tests run_iree_e2e.sh itself on a folder of small check-test files written
# here: a passing file, a file with one failing function, a file that does
# not compile, a run past --timeout, and IREE's run tests (RUN lines,
# iree-opt piped into iree-run-mlir among them). Asserts the table rows, the last
# line ("N passed, M failed" counting functions) and the JSON results.
# Usage: runner_test.sh BIN_DIR
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in/ops"

cat >"$work/in/ops/good.mlir" <<'MLIR'
func.func @add() {
  %a = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const(%0, dense<[2, 4]> : tensor<2xi32>) : tensor<2xi32>
  return
}
// func.func @commented_out() is not a test function.
func.func @neg() {
  %a = util.unfoldable_constant dense<3.0> : tensor<f32>
  %0 = stablehlo.negate %a : tensor<f32>
  check.expect_almost_eq_const(%0, dense<-3.0> : tensor<f32>) : tensor<f32>
  return
}
MLIR
cat >"$work/in/ops/one_wrong.mlir" <<'MLIR'
func.func @right() {
  %a = util.unfoldable_constant dense<2> : tensor<i32>
  %0 = stablehlo.multiply %a, %a : tensor<i32>
  check.expect_eq_const(%0, dense<4> : tensor<i32>) : tensor<i32>
  return
}
func.func @wrong() {
  %a = util.unfoldable_constant dense<2> : tensor<i32>
  %0 = stablehlo.multiply %a, %a : tensor<i32>
  check.expect_eq_const(%0, dense<5> : tensor<i32>) : tensor<i32>
  return
}
MLIR
cat >"$work/in/ops/bad_syntax.mlir" <<'MLIR'
func.func @broken() {
  %0 = stablehlo.add %missing, %missing : tensor<i32>
  return
}
MLIR
# A hang: the runner stops it at --timeout (1 s here). It runs from a
# folder of its own: the other files get the default timeout, so that a slow
# (ASan, loaded) machine cannot time them out and fail this test.
mkdir -p "$work/slow/ops"
cat >"$work/slow/ops/slow.mlir" <<'MLIR'
// Counts to 2^62 one by one: past any timeout on any machine (a hang the
// runner must stop), whatever kiln's speed.
func.func @slow() {
  %zero = util.unfoldable_constant dense<0> : tensor<i64>
  %one = util.unfoldable_constant dense<1> : tensor<i64>
  %lim = util.unfoldable_constant dense<4611686018427387904> : tensor<i64>
  %r = "stablehlo.while"(%zero) ({
  ^bb0(%i: tensor<i64>):
    %c = stablehlo.compare LT, %i, %lim : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%i: tensor<i64>):
    %n = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  check.expect_eq_const(%r, dense<0> : tensor<i64>) : tensor<i64>
  return
}
MLIR

# IREE's lit-style run tests: RUN lines of iree-run-mlir piped to
# FileCheck run with kiln-run-mlir (one passes, one prints another value);
# a RUN line of another IREE tool fails the file; a file with no test
# functions and no RUN lines passes when it compiles.
cat >"$work/in/ops/run_ok.mlir" <<'MLIR'
// RUN: iree-run-mlir --Xcompiler,iree-hal-target-device=local --Xcompiler,iree-hal-local-target-device-backends=vmvx %s --input=2xi32=3 | FileCheck %s
// CHECK-LABEL: EXEC @twice
func.func @twice(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}
// CHECK: 2xi32=6 6
MLIR
cat >"$work/in/ops/run_wrong.mlir" <<'MLIR'
// RUN: iree-run-mlir --Xcompiler,iree-hal-target-device=local \
// RUN:   --Xcompiler,iree-hal-local-target-device-backends=vmvx %s --input=2xi32=3 | FileCheck %s
func.func @twice(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}
// CHECK: 2xi32=7 7
MLIR
# IREE's older form: compiler flags given as they are, and lines guarded
# by `[[ $IREE_<DRIVER>_DISABLE == 1 ]] ||`, run for the CPU drivers only
# (the vulkan line would fail: no such backend).
cat >"$work/in/ops/run_guarded.mlir" <<'MLIR'
// RUN: iree-run-mlir --iree-hal-target-backends=llvm-cpu --function-input=2xi32=4 %s | FileCheck %s
// RUN: [[ $IREE_VMVX_DISABLE == 1 ]] || (iree-run-mlir --iree-hal-target-backends=vmvx --function-input=2xi32=4 %s | FileCheck %s)
// RUN: [[ $IREE_VULKAN_DISABLE == 1 ]] || (iree-run-mlir --iree-hal-target-backends=vulkan-spirv --function-input=2xi32=4 %s | FileCheck %s)
// RUN: [[ $IREE_VULKAn_DISABLE == 1 ]] || (iree-run-mlir --iree-hal-target-backends=vulkan-spirv --function-input=2xi32=4 %s | FileCheck %s)
// CHECK-LABEL: EXEC @twice
func.func @twice(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}
// CHECK: 2xi32=8 8
MLIR
cat >"$work/in/ops/run_guarded_wrong.mlir" <<'MLIR'
// RUN: [[ $IREE_VMVX_DISABLE == 1 ]] || (iree-run-mlir --iree-hal-target-backends=vmvx --function-input=2xi32=4 %s | FileCheck %s)
func.func @twice(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}
// CHECK: 2xi32=9 9
MLIR
cat >"$work/in/ops/run_opt.mlir" <<'MLIR'
// RUN: iree-opt --some-pass %s | FileCheck %s
func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  return %a : tensor<2xi32>
}
MLIR
# iree-opt with a pass that keeps every value, piped into iree-run-mlir:
# kiln-opt then kiln-run-mlir; an unknown pass fails the RUN line.
cat >"$work/in/ops/run_opt_pipe.mlir" <<'MLIR'
// RUN: iree-opt --pass-pipeline="builtin.module(func.func(iree-preprocessing-make-single-dispatch-for-function))" %s | iree-run-mlir --Xcompiler,iree-hal-target-device=local --Xcompiler,iree-hal-local-target-device-backends=vmvx --input="3" - | FileCheck %s
func.func @pick(%arg0 : i8) -> tensor<2xf32> {
  %c0 = arith.constant 0 : i8
  %cond = arith.cmpi eq, %arg0, %c0 : i8
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  %0 = arith.constant dense<0.0> : tensor<2xf32>
  return %0 : tensor<2xf32>
^bb2:
  %1 = arith.constant dense<2.5> : tensor<2xf32>
  return %1 : tensor<2xf32>
}
// CHECK-LABEL: EXEC @pick
// CHECK: 2xf32=2.5 2.5
MLIR
cat >"$work/in/ops/run_opt_pipe_unknown.mlir" <<'MLIR'
// RUN: iree-opt --pass-pipeline="builtin.module(iree-no-such-pass)" %s | iree-run-mlir - | FileCheck %s
func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  return %a : tensor<2xi32>
}
// CHECK: 2xi32
MLIR
cat >"$work/in/ops/compile_only.mlir" <<'MLIR'
func.func @g(%a: tensor<?xi32>) -> tensor<?xi32> {
  %0 = stablehlo.add %a, %a : tensor<?xi32>
  return %0 : tensor<?xi32>
}
MLIR

"$here/run_iree_e2e.sh" --bin="$bin" --results="$work/results.json" \
  "$work/in" >"$work/out.txt" 2>&1
"$here/run_iree_e2e.sh" --bin="$bin" --results="$work/slow.json" \
  --timeout=1 "$work/slow" >"$work/slow.txt" 2>&1
cat "$work/out.txt" "$work/slow.txt"
fail=0
expect() {  # expect REGEX [FILE]: a line of the output (or FILE) matches
  if ! grep -qE "$1" "${2:-$work/out.txt}"; then
    echo "FAILED: no line matching: $1"
    fail=1
  fi
}
expect '^ops/bad_syntax\.mlir +1 +0 +1 +ops/bad_syntax\.mlir:2:[0-9]+: error: '
expect '^ops/good\.mlir +2 +2 +0 *$'
expect '^ops/one_wrong\.mlir +2 +1 +1 +local-sync: '
expect '^ops/slow\.mlir +1 +0 +1 +local-sync: timed out after 1 s' "$work/slow.txt"
expect '^0 passed, 1 failed$' "$work/slow.txt"
expect '^ops/run_ok\.mlir +1 +1 +0 *$'
expect '^ops/run_wrong\.mlir +1 +0 +1 +local-sync: RUN line failed'
expect '^ops/run_opt\.mlir +1 +0 +1 +RUN line uses iree-opt'
expect '^ops/run_opt_pipe\.mlir +1 +1 +0 *$'
expect '^ops/run_opt_pipe_unknown\.mlir +1 +0 +1 +local-sync: RUN line failed'
expect '^ops/compile_only\.mlir +1 +1 +0 *$'
expect '^ops/run_guarded\.mlir +1 +1 +0 *$'
expect '^ops/run_guarded_wrong\.mlir +1 +0 +1 +local-sync: RUN line failed'
if [ "$(tail -1 "$work/out.txt")" != "7 passed, 6 failed" ]; then
  echo "FAILED: last line is '$(tail -1 "$work/out.txt")', want '7 passed, 6 failed'"
  fail=1
fi
/usr/bin/python3 - "$work/results.json" "$work/slow.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
assert (r["passed"], r["failed"]) == (7, 6), r
files = {f["file"]: f for f in r["files"]}
assert sorted(files) == ["ops/bad_syntax.mlir", "ops/compile_only.mlir",
                         "ops/good.mlir", "ops/one_wrong.mlir",
                         "ops/run_guarded.mlir", "ops/run_guarded_wrong.mlir",
                         "ops/run_ok.mlir", "ops/run_opt.mlir",
                         "ops/run_opt_pipe.mlir",
                         "ops/run_opt_pipe_unknown.mlir",
                         "ops/run_wrong.mlir"], sorted(files)
assert files["ops/one_wrong.mlir"]["failed_functions"] == ["wrong"], files
assert files["ops/good.mlir"]["failed_functions"] == [], files
slow = {f["file"]: f for f in json.load(open(sys.argv[2]))["files"]}
assert "timed out" in slow["ops/slow.mlir"]["first_error"], slow
print("results JSON as expected")
PY
exit $fail
