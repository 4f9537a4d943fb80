#!/usr/bin/env bash
# Behaviour of the run tools on good and bad input: every bad input gets a
# clear one-line error and exit code 1, never a crash (exit code > 128).
# Usage: run_tools_test.sh BIN_DIR
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# expect NAME EXIT_CODE PATTERN -- command...: runs the command, checks its
# exit code and that its combined output matches the extended regex PATTERN.
expect() {
  local name=$1 want_code=$2 pattern=$3
  shift 4
  local out code
  out=$("$@" 2>&1)
  code=$?
  if [ "$code" -ne "$want_code" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAILED: $name (exit $code, wanted $want_code; pattern '$pattern')"
    echo "$out" | head -20
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

"$bin/kiln-as-module" "$here/identity.vmasm" -o "$work/identity.kmod" || exit 1
"$bin/kiln-as-module" "$here/failing_check.vmasm" -o "$work/failing.kmod" || exit 1
run="$bin/kiln-run-module"
m="--module=$work/identity.kmod"

# Results print as iree-run-module prints them.
expect "identity prints EXEC and the view" 0 $'^EXEC @identity\nresult\\[0\\]: hal.buffer_view\n2x2xf32=\\[1 2\\]\\[3 4\\]$' -- \
  $run "$m" --function=identity "--input=2x2xf32=1 2 3 4"
expect "bracketed input" 0 '2x2xf32=\[1 2\]\[3 4\]' -- $run "$m" --function=identity "--input=2x2xf32=[[1 2][3 4]]"
expect "rank-0 input" 0 '^f32=-2$' -- $run "$m" --function=identity --input=f32=-2
expect "comma input on local-sync" 0 '4xi32=1 2 3 4' -- $run "$m" --device=local-sync --function=identity --input=4xi32=1,2,3,4
expect "primitive values" 0 'result\[3\]: f64=0.25' -- $run "$m" --function=scalars --input=5 --input=-7 --input=1.5 --input=0.25
expect "stdin module" 0 'f32=3' -- sh -c "cat '$work/identity.kmod' | $run --module=- --function=identity --input=f32=3"
expect "expected output matches" 0 '\[SUCCESS\] all function outputs matched their expected values.' -- \
  $run "$m" --function=identity --input=3xf32=1,2,3 --expected_output=3xf32=1,2,3
expect "expected output mismatch" 1 '\[FAILED\] result\[0\]: element at index 1 \(2\) does not match the expected \(2.5\)' -- \
  $run "$m" --function=identity --input=3xf32=1,2,3 --expected_output=3xf32=1,2.5,3
expect "npy output round trip" 0 'f32=\[1 2 3\]|3xf32=1 2 3' -- \
  sh -c "$run '$m' --function=identity --input=3xf32=1,2,3 --output=@$work/out.npy && $run '$m' --function=identity --input=@$work/out.npy"

# Bad input: one clear line, exit 1.
expect "missing module file" 1 "error: .*no_such.kmod" -- $run --module=$work/no_such.kmod --function=identity
expect "no module flag" 1 "error: no module given" -- $run --function=identity
head -c 100 "$work/identity.kmod" >"$work/truncated.kmod"
expect "truncated module" 1 "error: " -- $run --module=$work/truncated.kmod --function=identity
cp "$work/identity.kmod" "$work/version.kmod"
printf '\x09' | dd of="$work/version.kmod" bs=1 seek=8 conv=notrunc 2>/dev/null
expect "other format version" 1 "error: .*version" -- $run --module=$work/version.kmod --function=identity
expect "missing function" 1 "error: function 'nope' not found in module 'identity'; exported functions: identity, two, scalars" -- \
  $run "$m" --function=nope
expect "wrong input count" 1 "error: .*expects 1 input" -- $run "$m" --function=identity --input=f32=1 --input=f32=2
expect "wrong element count" 1 "error: input 0: 2x2xf32 needs 4 elements, got 3" -- $run "$m" --function=identity "--input=2x2xf32=1 2 3"
expect "bad element type" 1 "error: .*input 0.*f33" -- $run "$m" --function=identity --input=2xf33=1,2
expect "malformed value" 1 "error: input 0: 'x1' is not a valid f32" -- $run "$m" --function=identity --input=2xf32=1,x1
expect "unreadable npy" 1 "error: input 0: .*missing.npy" -- $run "$m" --function=identity --input=@$work/missing.npy
echo "not numpy" >"$work/bad.npy"
expect "malformed npy" 1 "error: input 0: .*bad.npy.*not a valid .npy" -- $run "$m" --function=identity --input=@$work/bad.npy
expect "primitive slot given a view" 1 "error: input 0" -- $run "$m" --function=scalars --input=2xf32=1,2 --input=1 --input=1 --input=1
expect "unknown device" 1 "error: .*unknown device 'foo'" -- $run "$m" --device=foo --function=identity --input=f32=1
expect "unknown flag" 1 "error: unknown flag '--bogus'" -- $run "$m" --bogus
expect "help" 0 "--module" -- $run --help

# Inputs that once hung or exhausted memory end within 1 GB and do not hang
# (killed after 60 s: a hang, not a slow machine, must fail).
# (No address-space bound for ASan builds: their shadow memory needs it.)
if grep -qa __asan_init "$run"; then
  bounded() { timeout -s KILL 60 "$@"; }
else
  bounded() { (ulimit -v 1048576; timeout -s KILL 60 "$@"); }
fi
mkfifo "$work/fifo"
expect "module is a FIFO without a writer" 1 "error: module '.*fifo' is not a regular file" -- \
  bounded $run --module=$work/fifo --function=identity
expect "module is a device" 1 "error: module '/dev/zero' is not a regular file" -- \
  bounded "$bin/kiln-check-module" --module=/dev/zero
expect "printing an empty tensor of 9e17 rows is bounded" 0 '^3x299999999999999993x0xf32=\[\[\]\.\.\.\]\.\.\.$' -- \
  bounded $run "$m" --function=identity --input=3x299999999999999993x0xf32 --print_max_element_count=2
expect "printing many rows is bounded" 0 '^100000x1xi8=\[1\]\[1\]\[1\]\.\.\.$' -- \
  bounded $run "$m" --function=identity --input=100000x1xi8=1 --print_max_element_count=3
expect "dimension past INT64_MAX" 1 "error: input 0: dimension '18446744073709551615' in '18446744073709551615xf32' is too large" -- \
  $run "$m" --function=identity --input=18446744073709551615xf32
expect "unsupported element width" 1 "error: input 0: element type 'ui11' in '5xui11' is not supported" -- \
  $run "$m" --function=identity --input=5xui11
expect "unsupported element width with values" 1 "error: input 0: element type 'ui11' in '5xui11' is not supported" -- \
  $run "$m" --function=identity --input=5xui11=0
expect "bit count with a leading zero" 1 "error: input 0: unknown element type 'i01' in 'i01'" -- \
  $run "$m" --function=identity --input=i01=1

# kiln-check-module: gtest-style lines, failures show both values.
expect "check module reports failure" 1 '\[  FAILED  \] failing_check.views_differ' -- \
  "$bin/kiln-check-module" --module=$work/failing.kmod
expect "check failure shows values" 1 'expected: 3xf32=1 2.5 3' -- \
  "$bin/kiln-check-module" --module=$work/failing.kmod
expect "check passing test still OK" 1 '\[       OK \] failing_check.passes' -- \
  "$bin/kiln-check-module" --module=$work/failing.kmod --device=local-sync

# kiln-check-module on a module without test functions: said once, exit 0
# (as iree-check-module, whose gtest passes with no tests).
"$bin/kiln-as-module" "$here/identity.vmasm" -o "$work/no_tests.kmod"
expect "check module without tests" 0 '0 tests ran: module .* exports no test functions' -- \
  "$bin/kiln-check-module" --module=$work/no_tests.kmod
out=$("$bin/kiln-check-module" --module=$work/no_tests.kmod 2>&1)
if grep -q 'PASSED' <<<"$out"; then
  echo "FAILED: check module without tests prints PASSED: $out"; failed=$((failed + 1))
else
  passed=$((passed + 1))
fi

# An IREE .vmfb (a FlatBuffer with identifier "IREE" at byte 4) is named.
printf '\x18\x00\x00\x00IREE\x00\x00\x00\x00\x00\x00\x00\x00' >"$work/model.vmfb"
expect "IREE vmfb is named" 1 'this is an IREE module \(\.vmfb\), not a kiln module; compile the program.s source with kiln-compile' -- \
  $run --module=$work/model.vmfb --function=main

# IREE's device flags print and exit 0; a second --module is refused with
# what to do instead (it must not silently replace the first).
expect "--list_drivers" 0 '^  local-task: ' -- $run --list_drivers
expect "--list_devices" 0 '^local-sync://$' -- $run --list_devices
expect "--dump_devices" 0 'workers: 3 ' -- $run --dump_devices --task_topology_group_count=3
expect "--list_devices on kiln-check-module" 0 '^local-task://$' -- \
  "$bin/kiln-check-module" --list_devices

# --print_statistics prints IREE's line (scripts parse it).
expect "--print_statistics in IREE's format" 0 '^  HOST_LOCAL: +[0-9]+B peak / +[0-9]+B allocated / +[0-9]+B freed / +0B live$' -- \
  $run --module=$work/identity.kmod --function=identity --input=4xf32=1 --print_statistics

# --task_topology_cpu_ids pins one worker per listed CPU (and sets the
# count); a CPU the process may not use, or a bad list, is a clear error.
expect "--task_topology_cpu_ids=0 runs" 0 '^4xf32=1 1 1 1$' -- \
  $run --module=$work/identity.kmod --function=identity --input=4xf32=1 --device=local-task --task_topology_cpu_ids=0
expect "--task_topology_cpu_ids sets the worker count" 0 'workers: 1 ' -- \
  $run --dump_devices --task_topology_cpu_ids=0
expect "--task_topology_cpu_ids with a CPU out of reach" 1 'CPU 4095 \(worker 0\) is not one this process may run on' -- \
  $run --module=$work/identity.kmod --function=identity --input=4xf32=1 --device=local-task --task_topology_cpu_ids=4095
expect "--task_topology_cpu_ids not a list" 1 "task_topology_cpu_ids='0,x' is not a comma-separated list of CPU ids" -- \
  $run --module=$work/identity.kmod --function=identity --input=4xf32=1 --task_topology_cpu_ids=0,x

# kiln-dump-module: iree-dump-module's --output= and --function=.
dump="$bin/kiln-dump-module"
expect "dump --output=metadata has no instructions" 0 '^func @identity : ' -- \
  "$dump" --output=metadata "$work/identity.kmod"
if "$dump" --output=metadata "$work/identity.kmod" | grep -q '^  ret'; then
  echo "FAILED: --output=metadata prints instructions"; failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
expect "dump --function prints one function" 0 '^  ret' -- \
  "$dump" --function=identity "$work/identity.kmod"
expect "dump --function unknown" 1 "module has no function 'nope' \(exports: identity, " -- \
  "$dump" --function=nope "$work/identity.kmod"
expect "dump --output=flatbuffer-json" 1 "unknown --output='flatbuffer-json' \(metadata, disassembly" -- \
  "$dump" --output=flatbuffer-json "$work/identity.kmod"

# kiln-compile: IREE's informational flags, and bad input.
if [ -x "$bin/kiln-compile" ]; then
  expect "kiln-compile --version" 0 '^kiln [0-9]+\.[0-9]+\.[0-9]+: kiln-compile' -- \
    "$bin/kiln-compile" --version
  expect "kiln-compile --version lists backends" 0 'target backends: vmvx, llvm-cpu' -- \
    "$bin/kiln-compile" --version
  expect "--iree-llvmcpu-list-targets" 0 'aarch64-\*' -- \
    "$bin/kiln-compile" --iree-llvmcpu-list-targets
  expect "unknown --compile-to phase" 2 "unknown phase 'nonsense' for --compile-to \(input, structured" -- \
    "$bin/kiln-compile" --compile-to=nonsense "$here/../e2e/stablehlo/$(ls "$here/../e2e/stablehlo" | head -1)"
  abs_src="$here/../../samples/simple_abs.mlir"
  expect "--mlir-print-ir-before names one pass" 0 '^// -----// IR Dump Before cse //----- //$' -- \
    "$bin/kiln-compile" "$abs_src" --mlir-print-ir-before=cse -o "$work/x.kmod"
  expect "--mlir-print-ir-after takes a list" 0 'IR Dump After dce ' -- \
    "$bin/kiln-compile" "$abs_src" --mlir-print-ir-after=canonicalize,dce -o "$work/x.kmod"
  expect "--mlir-print-debuginfo prints locations" 0 'loc\(".*simple_abs.mlir":3:3\)' -- \
    "$bin/kiln-compile" "$abs_src" --compile-to=input --output-format=mlir --mlir-print-debuginfo
  "$bin/kiln-compile" "$abs_src" --dump-compilation-phases-to="$work/phases" -o "$work/x.kmod"
  got=$(ls "$work/phases" 2>/dev/null | tr '\n' ' ')
  want="simple_abs.1.input.mlir simple_abs.2.structured.mlir simple_abs.3.form-dispatch-regions.mlir simple_abs.4.vmvx-codegen.mlir simple_abs.5.schedule.mlir "
  if [ "$got" != "$want" ] || ! grep -q 'math.absf' "$work/phases/simple_abs.1.input.mlir" ||
     ! grep -q 'linalg.generic' "$work/phases/simple_abs.2.structured.mlir"; then
    echo "FAILED: --dump-compilation-phases-to wrote: $got"; failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  # --compile-from a dumped phase gives the same program.
  expect "--compile-from=structured" 0 '^f32=2$' -- bash -c \
    "'$bin/kiln-compile' --compile-from=structured '$work/phases/simple_abs.2.structured.mlir' -o '$work/from.kmod' && $run --module='$work/from.kmod' --function=abs --input=f32=-2"
  expect "unknown --compile-from phase" 2 "unknown phase 'flow' for --compile-from" -- \
    "$bin/kiln-compile" --compile-from=flow "$abs_src"
  # The flag the parser's error recommends exists: the op parses, and the
  # pass that cannot handle it names it.
  printf 'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n' >"$work/unregistered.mlir"
  expect "unregistered op: the error names the flag" 1 'use --allow-unregistered-dialect' -- \
    "$bin/kiln-compile" "$work/unregistered.mlir" -o "$work/x.kmod"
  expect "--allow-unregistered-dialect parses it" 0 '"foo.bar"\(\) : \(\) -> \(\)' -- \
    "$bin/kiln-compile" --allow-unregistered-dialect --compile-to=input --output-format=mlir "$work/unregistered.mlir"
  expect "--allow-unregistered-dialect: a pass names the op" 1 "'foo.bar' op vm-emission: unsupported op" -- \
    "$bin/kiln-compile" --allow-unregistered-dialect "$work/unregistered.mlir" -o "$work/x.kmod"
  expect "--mlir-elide-elementsattrs-if-larger" 0 'stablehlo.constant dense_resource<__elided__> : tensor<8x16xf32>' -- \
    "$bin/kiln-compile" "$here/../../samples/mlp.mlir" --compile-to=input --output-format=mlir --mlir-elide-elementsattrs-if-larger=8
  # The compiler hands constants to the assembler in place (`blob N`);
  # --output-format=vm-asm writes them as hex, and that text assembles to
  # the very same module.
  for backend in vmvx llvm-cpu; do
    "$bin/kiln-compile" --iree-hal-target-backends=$backend "$here/../../samples/mlp.mlir" \
      -o "$work/direct.kmod" &&
    "$bin/kiln-compile" --iree-hal-target-backends=$backend "$here/../../samples/mlp.mlir" \
      --output-format=vm-asm -o "$work/mlp.vmasm" &&
    "$bin/kiln-as-module" "$work/mlp.vmasm" -o "$work/reassembled.kmod"
    if ! cmp -s "$work/direct.kmod" "$work/reassembled.kmod" ||
       grep -q ': blob ' "$work/mlp.vmasm" || ! grep -q ': hex "' "$work/mlp.vmasm"; then
      echo "FAILED: $backend: the module from vm-asm text differs from the direct one"
      failed=$((failed + 1))
    else
      passed=$((passed + 1))
    fi
  done
  # kiln-run-mlir routes flags as iree-run-mlir does: --Xruntime, and a
  # `--` after which every flag is the compiler's.
  rm_=("$bin/kiln-run-mlir" "$abs_src")
  expect "run-mlir: compiler flags after --" 0 '^f32=5$' -- \
    "${rm_[@]}" --input=f32=-5 -- --iree-hal-target-backends=vmvx
  expect "run-mlir: --Xruntime, and --Xruntime ARG" 0 '^f32=3$' -- \
    "${rm_[@]}" --Xruntime,input=f32=-3 --Xruntime --device=local-sync
  expect "run-mlir: -Xcompiler ARG" 0 '^f32=4$' -- \
    "${rm_[@]}" --input=f32=-4 -Xcompiler --iree-hal-target-backends=vmvx
  expect "run-mlir: a bad compiler flag after -- is the compiler's error" 1 \
    "unsupported target backend 'bogus'" -- "${rm_[@]}" --input=f32=1 -- --iree-hal-target-backends=bogus
  expect "run-mlir: an unknown flag after --" 1 \
    "unknown compiler flag '--bogus' \(given with --Xcompiler or after --\)" -- \
    "${rm_[@]}" --input=f32=1 -- --bogus
  expect "run-mlir: --Xruntime,bogus is a runtime flag" 1 "unknown flag '--bogus'" -- \
    "${rm_[@]}" --input=f32=1 --Xruntime,bogus
  # As iree-run-mlir: kiln-compile's flags as they are, beside the runtime's
  # (IREE's RUN lines), and --function-input, iree-run-mlir's former --input.
  expect "run-mlir: compiler flags as they are" 0 '^f32=6$' -- \
    "${rm_[@]}" --iree-input-type=stablehlo --input=f32=-6 --iree-hal-target-backends=vmvx
  expect "run-mlir: a bad value of a bare compiler flag" 1 \
    "unsupported target backend 'bogus'" -- "${rm_[@]}" --input=f32=1 --iree-hal-target-backends=bogus
  expect "run-mlir: --function-input" 0 '^f32=7$' -- \
    "${rm_[@]}" --function-input=f32=-7 --iree-hal-target-backends=llvm-cpu
  expect "run-mlir: IREE's former dispatch tuning flags are accepted" 0 '^f32=8$' -- \
    "${rm_[@]}" --input=f32=-8 --iree-flow-dispatch-linalg-on-tensors-enable-fusion \
    --iree-flow-dispatch-linalg-on-tensors-tile-sizes=1,1
  expect "run-mlir: an unknown bare flag is still an error" 1 "unknown flag '--iree-bogus'" -- \
    "${rm_[@]}" --input=f32=1 --iree-bogus=1
  # Without --function, every export runs in order on the same inputs.
  printf 'func.func @neg(%%a: tensor<2xi32>) -> tensor<2xi32> {\n  %%0 = stablehlo.negate %%a : tensor<2xi32>\n  return %%0 : tensor<2xi32>\n}\nfunc.func @twice(%%a: tensor<2xi32>) -> tensor<2xi32> {\n  %%0 = stablehlo.add %%a, %%a : tensor<2xi32>\n  return %%0 : tensor<2xi32>\n}\n' >"$work/two.mlir"
  out=$("$bin/kiln-run-mlir" "$work/two.mlir" --input="2xi32=3 -4" 2>&1)
  if [ "$(grep -E '^(EXEC|2xi32)' <<<"$out" | tr '\n' '|')" = "EXEC @neg|2xi32=-3 4|EXEC @twice|2xi32=6 -8|" ]; then
    passed=$((passed + 1))
  else
    echo "FAILED: run-mlir without --function runs every export"
    echo "$out" | head -20
    failed=$((failed + 1))
  fi
  # A caller's input must have the function's declared shape and element
  # type: otherwise INVALID_ARGUMENT naming the function, the argument and
  # both types (never a silent truncation or padding), from every tool.
  printf 'func.func @add(%%a: tensor<2x3xf32>, %%b: tensor<3xi32>) -> tensor<2x3xf32> {\n  %%0 = stablehlo.add %%a, %%a : tensor<2x3xf32>\n  return %%0 : tensor<2x3xf32>\n}\n' >"$work/add.mlir"
  "$bin/kiln-compile" "$work/add.mlir" -o "$work/add.kmod" || exit 1
  for shape_case in "3x2xf32=1|3xi32=1|@add input 0: expected 2x3xf32 but got 3x2xf32" \
                    "2x3xf32=1|4xi32=1|@add input 1: expected 3xi32 but got 4xi32" \
                    "2x3xf32=1|3xf32=1|@add input 1: expected 3xi32 but got 3xf32" \
                    "2x3xi32=1|3xi32=1|@add input 0: expected 2x3xf32 but got 2x3xi32" \
                    "6xf32=1|3xi32=1|@add input 0: expected 2x3xf32 but got 6xf32"; do
    IFS='|' read -r in0 in1 want <<<"$shape_case"
    expect "run-module: $want" 1 "^error: $want; .*\(INVALID_ARGUMENT\)" -- \
      $run --module="$work/add.kmod" --function=add --input="$in0" --input="$in1"
    expect "run-mlir: $want" 1 "^error: $want; .*\(INVALID_ARGUMENT\)" -- \
      "$bin/kiln-run-mlir" "$work/add.mlir" --input="$in0" --input="$in1"
  done
  # Integers of the same width are the same bits (IREE's HAL allows them):
  # a signed or unsigned 32-bit input serves the i32 argument, as does an
  # int32 .npy (numpy's '<i4' loads as si32); another width or a float does
  # not.
  for ok_case in 3xsi32 3xui32; do
    expect "run-module: $ok_case for a 3xi32 argument" 0 '^result\[0\]: hal.buffer_view$' -- \
      $run --module="$work/add.kmod" --function=add --input=2x3xf32=1 --input="$ok_case=7"
  done
  /usr/bin/python3 -c 'import struct, sys
h = "{\x27descr\x27: \x27<i4\x27, \x27fortran_order\x27: False, \x27shape\x27: (3,), }"
h += " " * (63 - (10 + len(h)) % 64) + "\n"
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + struct.pack("<3i", 1, -2, 3))' >"$work/i4.npy"
  expect "run-module: an int32 .npy for a 3xi32 argument" 0 '^2x3xf32=\[2 2 2\]\[2 2 2\]$' -- \
    $run --module="$work/add.kmod" --function=add --input=2x3xf32=1 --input=@"$work/i4.npy"
  for bad_case in "3xi16|expected 3xi32 but got 3xi16" "3xsi64|expected 3xi32 but got 3xsi64"; do
    IFS='|' read -r in1 want <<<"$bad_case"
    expect "run-module: $want" 1 "^error: @add input 1: $want; .*\(INVALID_ARGUMENT\)" -- \
      $run --module="$work/add.kmod" --function=add --input=2x3xf32=1 --input="$in1=1"
  done
  # An ONNX model's argument is named after its graph input.
  onnx_abs=/usr/share/libonnx-testdata/data/node/test_abs/model.onnx
  if [ -f "$onnx_abs" ]; then
    expect "ONNX input named in the shape error" 1 "^error: @test_abs input 0 'x': expected 3x4x5xf32 but got 3x4x6xf32; .*\(INVALID_ARGUMENT\)" -- \
      "$bin/kiln-run-mlir" "$onnx_abs" --input=3x4x6xf32=1
  fi
  # TYPE=@file.pb takes a TensorProto's data as TYPE (ONNX stores bf16 test
  # data as uint16); the shape and the element width must match.
  bf16_pb=/usr/share/libonnx-testdata/data/node/test_cast_BFLOAT16_to_FLOAT/test_data_set_0/input_0.pb
  if [ -f "$bf16_pb" ]; then
    expect "TYPE=@file.pb of another width" 1 "holds a rank-2 ui16 tensor; 3x4xf32 needs the same shape and element width" -- \
      $run "$m" --function=identity --input=3x4xf32=@$bf16_pb
    expect "TYPE=@file.pb of another shape" 1 "holds a rank-2 ui16 tensor; 12xbf16 needs the same shape" -- \
      $run "$m" --function=identity --input=12xbf16=@$bf16_pb
    expect "TYPE=@file.pb as bf16" 0 "^3x4xbf16=" -- \
      $run "$m" --function=identity --input=3x4xbf16=@$bf16_pb
  fi
  # Control bytes in the input come back escaped, never raw.
  printf 'func.func @f(\x01\x02) {\n' >"$work/binary.mlir"
  out=$("$bin/kiln-compile" "$work/binary.mlir" -o "$work/x.kmod" 2>&1)
  if [ $? -ne 1 ] || ! grep -q 'found .\\x01.' <<<"$out" ||
     ! grep -qF 'func.func @f(\x01\x02) {' <<<"$out" ||
     LC_ALL=C grep -q "$(printf '[\x01\x02]')" <<<"$out"; then
    echo "FAILED: control bytes escaped in diagnostics: $out" | cat -A | head -5
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
fi

# Several --module flags: loaded in order into one context, a later module
# importing an earlier one's export (IREE's samples/multiple_modules).
"$bin/kiln-as-module" "$here/module_a.vmasm" -o "$work/module_a.kmod" || exit 1
"$bin/kiln-as-module" "$here/module_b.vmasm" -o "$work/module_b.kmod" || exit 1
ma="--module=$work/module_a.kmod"
mb="--module=$work/module_b.kmod"
expect "two modules: b calls a's export" 0 $'^EXEC @twice_add_one\nresult\\[0\\]: i32=7$' -- \
  $run "$ma" "$mb" --function=twice_add_one --input=5
expect "two modules: qualified name picks the first" 0 'result\[0\]: i32=6' -- \
  $run "$ma" "$mb" --function=module_a.add_one --input=5
expect "two modules: first from stdin" 0 'i32=3' -- \
  sh -c "cat '$work/module_a.kmod' | $run --module=- '$mb' --function=twice_add_one --input=1"
expect "two modules: check tests of the last" 0 '\[       OK \] module_b.test_twice_add_one' -- \
  "$bin/kiln-check-module" "$ma" "$mb"
# The sanitizer builds have no benchmark tool (KILN_BUILD_BENCHMARK_TOOL=OFF);
# the main build runs this case.
if [ -x "$bin/kiln-benchmark-module" ]; then
  expect "two modules: benchmark" 0 'BM_twice_add_one' -- \
    "$bin/kiln-benchmark-module" "$ma" "$mb" --function=twice_add_one --input=1 --benchmark_min_time=0.001
fi
expect "unresolved import is named" 1 "error: import 'module_a.add_one' of module 'module_b' not found" -- \
  $run "$mb" --function=twice_add_one --input=1
expect "modules out of order name the import and the flag" 1 "import 'module_a.add_one' of module 'module_b' not found.*loading --module=.*module_b.kmod \(#1 of 2\)" -- \
  $run "$mb" "$ma" --function=twice_add_one --input=1
expect "unresolved import in check-module" 1 "error: import 'module_a.add_one'" -- \
  "$bin/kiln-check-module" "$mb"
expect "the same module twice" 1 "already holds a module named 'module_a'.*#2 of 2" -- \
  $run "$ma" "$ma" --function=add_one --input=1
expect "stdin twice" 1 "error: --module=- \(standard input\) given 2 times" -- \
  $run --module=- --module=- --function=add_one

# A compiled module calling another module's functions (func.func
# declarations become imports, as in IREE's samples/multiple_modules).
if [ -x "$bin/kiln-compile" ]; then
  for backend in vmvx llvm-cpu; do
    "$bin/kiln-compile" --target-backends=$backend "$here/module_lib.mlir" -o "$work/lib.kmod" || exit 1
    "$bin/kiln-compile" --target-backends=$backend "$here/module_app.mlir" -o "$work/app.kmod" || exit 1
    # run(x) = 2x + (x + 1), by hand: 4 -5 2.5 10.
    expect "compiled modules: app calls lib ($backend)" 0 '^4xf32=4 -5 2.5 10$' -- \
      $run --module="$work/lib.kmod" --module="$work/app.kmod" --function=run "--input=4xf32=1 -2 0.5 3"
  done
  expect "compiled modules: app without lib names the import" 1 "error: import 'lib.scale' of module 'module' not found" -- \
    $run --module="$work/app.kmod" --function=run --input=4xf32=1
  expect "compiled modules: the import is listed by kiln-dump-module" 0 'import @lib.add : rrr->r' -- \
    "$bin/kiln-dump-module" "$work/app.kmod"
  # !util.buffer (and index) arguments and results across modules.
  for backend in vmvx llvm-cpu; do
    "$bin/kiln-compile" --target-backends=$backend "$here/module_buffer_lib.mlir" -o "$work/blib.kmod" || exit 1
    "$bin/kiln-compile" --target-backends=$backend "$here/module_buffer_app.mlir" -o "$work/bapp.kmod" || exit 1
    expect "compiled modules: buffers cross ($backend)" 0 $'result\\[0\\]: i32=4\nresult\\[1\\]: i32=42' -- \
      $run --module="$work/blib.kmod" --module="$work/bapp.kmod" --function=run
  done
  expect "compiled modules: the buffer import's signature" 0 'import @blib.peek : rI->i' -- \
    "$bin/kiln-dump-module" "$work/bapp.kmod"
  expect "a tensor where a !util.buffer is expected is an error" 1 'expected a vm.buffer, got hal.buffer_view' -- \
    $run --module="$work/blib.kmod" --function=peek --input=4xi32=1,2,3,4 --input=0
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
