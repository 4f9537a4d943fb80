#!/usr/bin/env bash
# Cross-compiling with the llvm-cpu backend: the host kiln-compile builds
# aarch64 modules with Debian's cross compiler, an aarch64 build of the run
# tools (cmake/toolchains/aarch64-linux-gnu.cmake) runs them under
# qemu-user, and the results must match numpy's (or, for the check tests,
# their own expectations). Without aarch64-linux-gnu-gcc or qemu-aarch64 it
# prints why and exits 77, which ctest reports as skipped.
# Usage: cross_aarch64_test.sh BIN_DIR SOURCE_DIR CROSS_BUILD_DIR [unit]
# CROSS_BUILD_DIR keeps the aarch64 runtime build between runs (ninja then
# rebuilds only what changed). With "unit", it instead builds the runtime's
# unit tests there and runs them under qemu (ctest -L unit).
set -uo pipefail
bin=$1 src=$2 cross=$3 mode=${4:-tools}
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "skipped: $tool not installed (apt-get install gcc-aarch64-linux-gnu" \
      "qemu-user, or scripts/install-deps.sh --cross)"
    exit 77
  fi
done
sysroot=/usr/aarch64-linux-gnu
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || {
  echo "skipped: no aarch64 C library in $sysroot (libc6-arm64-cross)"
  exit 77
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The aarch64 runtime, run tools and unit tests (C only: no compiler or
# benchmark tools), two jobs at most.
generator=()
if [ ! -f "$cross/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
cmake -S "$src" -B "$cross" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DKILN_BUILD_COMPILER=OFF -DKILN_BUILD_TESTS=ON \
  -DKILN_BUILD_BENCHMARK_TOOL=OFF -DKILN_BUILD_FUZZERS=OFF \
  >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring the aarch64 build"; }
if [ "$mode" = unit ]; then
  # The unit tests run through the toolchain's CMAKE_CROSSCOMPILING_EMULATOR
  # (qemu-aarch64 -L sysroot).
  cmake --build "$cross" -j 2 >"$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log"; fail "building the aarch64 unit tests"; }
  cd "$cross" && ctest -L unit -j 2 --output-on-failure ||
    fail "aarch64 unit tests under qemu"
  exit 0
fi
cmake --build "$cross" -j 2 --target kiln-run-module kiln-check-module \
  >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log"; fail "building the aarch64 run tools"; }
run=$cross/bin/kiln-run-module check=$cross/bin/kiln-check-module
/usr/bin/python3 - "$run" <<'PY' || fail "$run is not an aarch64 executable"
import sys
b = open(sys.argv[1], "rb").read(20)
sys.exit(0 if b[:4] == b"\x7fELF" and int.from_bytes(b[18:20], "little") == 183 else 1)
PY
qemu() { qemu-aarch64 -L "$sysroot" "$@"; }

# kiln-compile for aarch64; the extra arguments go to kiln-compile.
compile() {
  local name=$1; shift
  "$bin/kiln-compile" --iree-hal-target-backends=llvm-cpu \
    --iree-llvmcpu-target-triple=aarch64-linux-gnu \
    --cc=aarch64-linux-gnu-gcc "$@" -o "$work/$name.kmod" \
    >"$work/compile.log" 2>&1 ||
    { cat "$work/compile.log"; fail "compiling $name for aarch64 ($*)"; }
}

# Inputs and numpy's results (computed in float64, compared in float32
# with a tolerance for the rounding of each kernel).
/usr/bin/python3 - "$work" <<'PY' || fail "numpy"
import sys
import numpy as np
w = sys.argv[1]
rng = np.random.default_rng(20261201)
def save(name, a):
  np.save(f"{w}/{name}.npy", np.asarray(a, dtype=np.float32))
x = rng.uniform(-2, 2, (3, 37)).astype(np.float32)
y = rng.uniform(-2, 2, (3, 37)).astype(np.float32)
x64, y64 = x.astype(np.float64), y.astype(np.float64)
save("x", x), save("y", y)
save("chain", np.exp(-np.abs(x64)) * y64 + np.maximum(x64, y64))
r = rng.uniform(-1, 1, (5, 67)).astype(np.float32)
save("r", r)
save("rowsum", r.astype(np.float64).sum(axis=1))
save("colmax", r.max(axis=0))
a = rng.uniform(-1, 1, (37, 70)).astype(np.float32)
b = rng.uniform(-1, 1, (70, 45)).astype(np.float32)
save("a", a), save("b", b)
save("ab", a.astype(np.float64) @ b.astype(np.float64))
PY

tol=(--expected_f32_threshold=1e-4 --expected_rtol=1e-5)
programs=$(dirname "$0")/cross
compile chain "$programs/elementwise.mlir"
compile reduce "$programs/reduce.mlir"
compile matmul "$programs/matmul.mlir" \
  --iree-hal-dump-executable-sources-to="$work/matmul-src" \
  --iree-hal-dump-executable-binaries-to="$work/matmul-bin"
# The matmul went through the micro-kernel entry (runtime imports), and the
# embedded shared object is for aarch64 (ELF machine 183).
grep -q 'micro-kernel' "$work/matmul-src/dispatches.c" ||
  fail "the matmul does not use the micro-kernel imports"
grep -q '"kiln_ukernel_mmt4d"' "$work/matmul-src/dispatches.c" ||
  fail "no kiln_ukernel_mmt4d import"
/usr/bin/python3 - "$work/matmul-bin/dispatches.so" <<'PY' ||
import sys
b = open(sys.argv[1], "rb").read(20)
sys.exit(0 if b[:4] == b"\x7fELF" and int.from_bytes(b[18:20], "little") == 183 else 1)
PY
  fail "the embedded shared object is not an aarch64 ELF file"

for device in local-sync local-task; do
  qemu "$run" --device=$device --module="$work/chain.kmod" --function=chain \
    --input=@"$work/x.npy" --input=@"$work/y.npy" \
    --expected_output=@"$work/chain.npy" "${tol[@]}" ||
    fail "elementwise chain on $device"
  qemu "$run" --device=$device --module="$work/reduce.kmod" --function=reduce \
    --input=@"$work/r.npy" --expected_output=@"$work/rowsum.npy" \
    --expected_output=@"$work/colmax.npy" "${tol[@]}" ||
    fail "reductions on $device"
  qemu "$run" --device=$device --module="$work/matmul.kmod" --function=matmul \
    --input=@"$work/a.npy" --input=@"$work/b.npy" \
    --expected_output=@"$work/ab.npy" "${tol[@]}" || fail "matmul on $device"
done

# ISA variants: a neoverse-n1 (dotprod, fp16) variant with a generic
# fallback runs on every emulated CPU; the neoverse-n1 code alone is refused
# by name on a Cortex-A53, which lacks both.
compile matmul_n1g "$programs/matmul.mlir" \
  --iree-llvmcpu-target-cpu=neoverse-n1,generic
compile chain_n1 "$programs/elementwise.mlir" \
  --iree-llvmcpu-target-cpu=neoverse-n1
for cpu in cortex-a53 neoverse-n1 max; do
  qemu -cpu $cpu "$run" --device=local-sync --module="$work/matmul_n1g.kmod" \
    --input=@"$work/a.npy" --input=@"$work/b.npy" \
    --expected_output=@"$work/ab.npy" "${tol[@]}" ||
    fail "two-variant matmul on an emulated $cpu"
done
qemu -cpu cortex-a53 "$run" --module="$work/chain_n1.kmod" \
  --input=@"$work/x.npy" --input=@"$work/y.npy" >"$work/out.txt" 2>&1
rc=$?
[ $rc -ge 1 ] && [ $rc -lt 124 ] || { cat "$work/out.txt"; fail "neoverse-n1 code on a Cortex-A53: exit $rc"; }
grep -q 'needs CPU features this host lacks: dotprod, fp16' "$work/out.txt" ||
  { cat "$work/out.txt"; fail "no named missing features"; }

# Check tests, judged by their own expectations (kiln-check-module);
# sort.mlir caught a GCC miscompile (see cpu_target.c).
for t in stablehlo/elementwise.mlir stablehlo/structured.mlir \
         stablehlo_more/sort.mlir \
         linalg/reduce_map.mlir; do
  name=$(basename "$t" .mlir)
  compile "check_$name" "$src/tests/e2e/$t"
  qemu "$check" --module="$work/check_$name.kmod" --device=local-sync \
    >"$work/check.log" 2>&1 || { cat "$work/check.log"; fail "check test $t"; }
done

# The x86 host runtime refuses the aarch64 module with a clear error.
if [ "$(uname -m)" = x86_64 ]; then
  "$bin/kiln-run-module" --module="$work/matmul.kmod" --function=matmul \
    --input=@"$work/a.npy" --input=@"$work/b.npy" >"$work/out.txt" 2>&1
  rc=$?
  [ $rc -ge 1 ] && [ $rc -lt 124 ] ||
    { cat "$work/out.txt"; fail "host run of the aarch64 module: exit $rc"; }
  grep -q "format 'native-elf-aarch64' cannot run on this host (native-elf-x86_64)" \
    "$work/out.txt" || { cat "$work/out.txt"; fail "unclear host error"; }
fi
echo "PASS: aarch64 modules run under qemu-aarch64"
