#!/usr/bin/env bash
# The llvm-cpu backend's contract beyond results (the check tests cover
# those): dump flags, temporary files, and every bad input named in its
# issue giving a one-line error and a non-zero exit, never a crash:
#  - a C compiler that is missing, fails, or is killed;
#  - --iree-llvmcpu-target-cpu=nonsense, an unknown triple;
#  - byte flips in the embedded shared object (CRC recomputed so that the
#    loader's own checks, digest first, must catch them).
# Usage: cpu_backend_test.sh BIN_DIR SOURCE_DIR
set -uo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mlp=$src/samples/mlp.mlir

# Expects kiln-compile ARGS... to fail with a message matching $1.
expect_compile_error() {
  local pattern=$1; shift
  "$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu "$@" "$mlp" \
    -o "$work/bad.kmod" >"$work/out.txt" 2>&1
  local rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "$*: exit $rc (want 1..127)"
  grep -Eq -- "$pattern" "$work/out.txt" ||
    { cat "$work/out.txt"; fail "$*: message does not match '$pattern'"; }
  [ ! -s "$work/bad.kmod" ] || fail "$*: wrote a module"
}

# Temporary files are removed, and the dumps hold the C and the .so.
mkdir -p "$work/tmp"
TMPDIR=$work/tmp "$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu "$mlp" \
  --iree-hal-dump-executable-sources-to="$work/src" \
  --iree-hal-dump-executable-binaries-to="$work/bin" -o "$work/mlp.kmod" ||
  fail "compiling the MLP"
[ -z "$(ls -A "$work/tmp")" ] || fail "temporary files left: $(ls "$work/tmp")"
grep -q 'kiln_hal_executable_library_query' "$work/src/dispatches.c" ||
  fail "no generated C dumped"
head -c 4 "$work/bin/dispatches.so" | grep -q 'ELF' || fail "no .so dumped"
# (Through a file: grep -q exiting early would fail the pipeline.)
"$bin/kiln-dump-module" "$work/mlp.kmod" >"$work/dump.txt" || fail "dumping the module"
grep -q 'native-elf' "$work/dump.txt" || fail "the module has no native executable"

expect_compile_error "C compiler '/nonexistent/cc'" --cc=/nonexistent/cc
expect_compile_error "C compiler 'false' failed" --cc=false
printf '#!/bin/sh\nkill -9 $$\n' >"$work/killed-cc"; chmod +x "$work/killed-cc"
expect_compile_error "killed by signal 9" --cc="$work/killed-cc"
expect_compile_error "target-cpu=nonsense" --iree-llvmcpu-target-cpu=nonsense
expect_compile_error "target-triple='riscv64" --iree-llvmcpu-target-triple=riscv64-linux-gnu
# A CPU of the other architecture, and the host's cc for an aarch64 triple
# (no cross compiler needed: both fail before anything is built).
expect_compile_error "target-cpu=x86-64-v3 is an x86-64 CPU, but the target is aarch64-linux-gnu" \
  --iree-llvmcpu-target-triple=aarch64-linux-gnu --iree-llvmcpu-target-cpu=x86-64-v3
if [ "$(uname -m)" = x86_64 ]; then
  expect_compile_error "target-cpu=cortex-a72 is an Arm CPU" --iree-llvmcpu-target-cpu=cortex-a72
  expect_compile_error "C compiler 'cc' does not build for aarch64" \
    --iree-llvmcpu-target-triple=aarch64-linux-gnu --cc=cc
fi
"$bin/kiln-compile" --iree-hal-target-backends=nonsense "$mlp" -o "$work/x.kmod" \
  >"$work/out.txt" 2>&1 && fail "unknown backend accepted"
grep -q "supported: vmvx, llvm-cpu" "$work/out.txt" || fail "backend list missing"

# --iree-opt-level=ON is the C compiler's -ON (default -O3), seen by a C
# compiler that logs its arguments; the results are the same bits at every
# level. A level kiln does not know is an error naming the choices.
printf '#!/bin/sh\necho "$@" >>"%s"\nexec cc "$@"\n' "$work/cc-args.txt" >"$work/logging-cc"
chmod +x "$work/logging-cc"
for level in O0 O3; do
  "$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu --cc="$work/logging-cc" \
    --iree-opt-level=$level "$mlp" -o "$work/opt-$level.kmod" || fail "compiling at $level"
  grep -q -- "-std=c11 -$level " "$work/cc-args.txt" || fail "--iree-opt-level=$level: cc not given -$level"
  rm -f "$work/cc-args.txt"
done
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu --cc="$work/logging-cc" "$mlp" \
  -o "$work/opt-default.kmod" || fail "compiling at the default level"
grep -q -- "-std=c11 -O3 " "$work/cc-args.txt" || fail "the default level is not -O3"
"$bin/kiln-run-module" --module="$work/opt-O3.kmod" --function=mlp \
  --input=4x8xf32=0.25 --output=@"$work/opt-ref.npy" >/dev/null || fail "running the O3 module"
"$bin/kiln-run-module" --module="$work/opt-O0.kmod" --function=mlp --input=4x8xf32=0.25 \
  --expected_output=@"$work/opt-ref.npy" --expected_f32_threshold=0 --expected_rtol=0 >"$work/run.txt" 2>&1 ||
  { cat "$work/run.txt"; fail "O0 and O3 results differ"; }
expect_compile_error "unknown optimization level 'O4' for --iree-opt-level \\(O0, O1, O2, O3\\)" \
  --iree-opt-level=O4

# --kiln-llvmcpu-compile-jobs=2 cuts the dispatch functions into two C
# files compiled side by side (two compiler runs on variant0_0.c and
# variant0_1.c, logged by the same cc); the module computes the same bits as
# the one-file build above. A count kiln does not take is an error.
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu --cc="$work/logging-cc" \
  --kiln-llvmcpu-compile-jobs=2 "$mlp" -o "$work/jobs2.kmod" || fail "compiling with 2 jobs"
grep -q -- "-c -o .*variant0_0.o .*variant0_0.c" "$work/cc-args.txt" &&
  grep -q -- "-c -o .*variant0_1.o .*variant0_1.c" "$work/cc-args.txt" ||
  { cat "$work/cc-args.txt"; fail "--kiln-llvmcpu-compile-jobs=2: not two parts"; }
rm -f "$work/cc-args.txt"
"$bin/kiln-run-module" --module="$work/jobs2.kmod" --function=mlp --input=4x8xf32=0.25 \
  --expected_output=@"$work/opt-ref.npy" --expected_f32_threshold=0 --expected_rtol=0 >"$work/run.txt" 2>&1 ||
  { cat "$work/run.txt"; fail "2-job and 1-file results differ"; }
expect_compile_error "--kiln-llvmcpu-compile-jobs=-1: expected a number of processes from 0 \\(one per CPU\\) to 64" \
  --kiln-llvmcpu-compile-jobs=-1

# Dispatches whose C is the same share one function: the two 8x8 matmuls
# (each with its add, fused or not) need fewer C functions than entries, and
# the result is numpy's.
cat >"$work/twice.mlir" <<'MLIR'
func.func @twice(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %v: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %z = tensor.empty() : tensor<8x8xf32>
  %c = arith.constant 0.0 : f32
  %zf = linalg.fill ins(%c : f32) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%zf : tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = linalg.add ins(%a, %v : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %d = linalg.matmul ins(%b, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%zf : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = linalg.add ins(%d, %v : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}
MLIR
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu "$work/twice.mlir" -o "$work/twice.kmod" \
  --iree-hal-dump-executable-sources-to="$work/twice-src" || fail "compiling twice.mlir"
entries=$("$bin/kiln-dump-module" "$work/twice.kmod" | grep -c '  entry @')
functions=$(grep -c '^int KILN_CPU_DISPATCH(' "$work/twice-src/dispatches.c")
[ "$entries" -ge 3 ] && [ "$functions" -lt "$entries" ] ||
  fail "identical dispatches: $entries entries, $functions C functions (want fewer functions)"
/usr/bin/python3 - "$work" <<'PY' || fail "writing the twice inputs"
import sys, numpy as np
w = sys.argv[1]
rng = np.random.default_rng(3)
x, m, v = (rng.standard_normal((8, 8)).astype(np.float32) for _ in range(3))
for name, a in (("x", x), ("m", m), ("v", v)):
  np.save(f"{w}/twice_{name}.npy", a)
b = (x.astype(np.float64) @ m + v)
np.save(f"{w}/twice_ref.npy", (b @ m + v).astype(np.float32))
PY
"$bin/kiln-run-module" --module="$work/twice.kmod" --function=twice \
  --input=@"$work/twice_x.npy" --input=@"$work/twice_m.npy" --input=@"$work/twice_v.npy" \
  --expected_output=@"$work/twice_ref.npy" --expected_f32_threshold=1e-4 --expected_rtol=1e-4 \
  >"$work/run.txt" 2>&1 || { cat "$work/run.txt"; fail "identical dispatches give wrong results"; }

# Byte flips in the native executable: a clean error (or a normal run).
/usr/bin/python3 - "$work/mlp.kmod" "$work/flipped.kmod" <<'PY' >"$work/offsets.txt"
import random, sys, zlib
data = bytearray(open(sys.argv[1], "rb").read())
start = data.find(b"\x7fELF")
assert start > 0, "no ELF image in the module"
random.seed(7)
# Offsets across the whole shared object, header first.
offsets = list(range(start, start + 64)) + random.sample(
    range(start, len(data)), min(120, len(data) - start))
for off in offsets:
  print(off)
PY
n=0
while read -r off; do
  /usr/bin/python3 - "$work/mlp.kmod" "$work/flipped.kmod" "$off" <<'PY'
import struct, sys, zlib
data = bytearray(open(sys.argv[1], "rb").read())
off = int(sys.argv[3])
data[off] ^= 0x5a
data[24:28] = b"\0\0\0\0"
struct.pack_into("<I", data, 24, zlib.crc32(bytes(data)) & 0xffffffff)
open(sys.argv[2], "wb").write(bytes(data))
PY
  timeout 60 "$bin/kiln-run-module" --module="$work/flipped.kmod" --function=mlp \
    --input=4x8xf32=1 >"$work/run.txt" 2>&1
  rc=$?
  if [ $rc -ge 124 ]; then cat "$work/run.txt"; fail "flip at $off: exit $rc"; fi
  if [ $rc -ne 0 ] && ! grep -q 'error' "$work/run.txt"; then
    cat "$work/run.txt"; fail "flip at $off: exit $rc without an error message"
  fi
  n=$((n + 1))
done <"$work/offsets.txt"
echo "cpu backend: dumps, temp files, 6 bad-input cases, $n byte flips: ok"

# ISA variants: one module with x86-64-v4, x86-64-v3 and generic code runs
# with the CPU's features capped to each level (KILN_HAL_CPU_ISA_CAP) and
# gives the same result; a module with only a v4 variant refuses to load on
# a v3 CPU, naming the missing features, instead of faulting.
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
  --iree-llvmcpu-target-cpu=x86-64-v4,x86-64-v3,generic "$mlp" -o "$work/variants.kmod" ||
  fail "compiling three variants"
"$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
  --iree-llvmcpu-target-cpu=x86-64-v4 "$mlp" -o "$work/v4.kmod" || fail "compiling v4"
"$bin/kiln-run-module" --module="$work/variants.kmod" --function=mlp \
  --input=4x8xf32=1 --output=@"$work/ref.npy" >/dev/null || fail "running the variants"
for cap in x86-64-v4 x86-64-v3 x86-64-v2 generic; do
  KILN_HAL_CPU_ISA_CAP=$cap "$bin/kiln-run-module" --module="$work/variants.kmod" \
    --function=mlp --input=4x8xf32=1 --expected_output=@"$work/ref.npy" \
    >"$work/run.txt" 2>&1 || { cat "$work/run.txt"; fail "variant for $cap"; }
done
KILN_HAL_CPU_ISA_CAP=x86-64-v3 "$bin/kiln-run-module" --module="$work/v4.kmod" \
  --function=mlp --input=4x8xf32=1 >"$work/run.txt" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "v4-only module on a v3 CPU: exit $rc"
grep -q 'lacks: avx512f, avx512bw, avx512dq, avx512vl' "$work/run.txt" ||
  { cat "$work/run.txt"; fail "missing features not named"; }
echo "cpu backend: 3 ISA variants run under every cap; a v4-only module refuses a v3 CPU: ok"
