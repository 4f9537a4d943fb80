#!/usr/bin/env bash
# Properties of compiled modules and of the runtime tools:
#  - ten chained elementwise ops compile to ONE executable with ONE entry
#    point (kiln-dump-module), and the module computes the right values;
#  - a module holds no MLIR text;
#  - a damaged weight fails the call that first uses it, naming it (the
#    load reads no weights), and damaged bytecode fails the load;
#  - the runtime tools link no compiler code (no kiln_ir_/kiln_mlir_/
#    kiln_compiler_ symbols).
# Usage: module_properties_test.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$bin/kiln-compile" "$src/tests/compiled/ten_elementwise.mlir" -o "$work/ten.kmod"
"$bin/kiln-dump-module" "$work/ten.kmod" > "$work/ten.dump"
executables=$(grep -c '^executable @' "$work/ten.dump" || true)
entries=$(grep -c '^ *entry @' "$work/ten.dump" || true)
[ "$executables" = 1 ] || fail "expected 1 executable, found $executables"
[ "$entries" = 1 ] || fail "expected 1 entry point, found $entries"
# x = -2..2 in steps over 8x4, b = 0.5: the chain is tanh(max(-|x|, x)) =
# tanh(x) (expected values from Python's math.tanh).
"$bin/kiln-run-module" --module="$work/ten.kmod" --device=local-task \
  --function=ten \
  --input="8x4xf32=-2 -1.5 -1 -0.5 0 0.5 1 1.5 2 -2 -1.5 -1 -0.5 0 0.5 1 1.5 2 -2 -1.5 -1 -0.5 0 0.5 1 1.5 2 -2 -1.5 -1 -0.5 0" \
  --input="4xf32=0.5 0.5 0.5 0.5" \
  --expected_output="8x4xf32=-0.96402758 -0.90514825 -0.76159416 -0.46211716 0 0.46211716 0.76159416 0.90514825 0.96402758 -0.96402758 -0.90514825 -0.76159416 -0.46211716 0 0.46211716 0.76159416 0.90514825 0.96402758 -0.96402758 -0.90514825 -0.76159416 -0.46211716 0 0.46211716 0.76159416 0.90514825 0.96402758 -0.96402758 -0.90514825 -0.76159416 -0.46211716 0" --expected_f32_threshold=1e-5 \
  > "$work/run.txt" || { cat "$work/run.txt"; fail "ten: wrong result"; }

# No MLIR text in modules (this one and the MLP sample).
"$bin/kiln-compile" "$src/samples/mlp.mlir" -o "$work/mlp.kmod"
for m in "$work/ten.kmod" "$work/mlp.kmod"; do
  for needle in 'stablehlo\.' 'func\.func' 'linalg\.' 'arith\.' 'math\.' \
                'tensor\.empty' 'affine_map' 'kiln\.dispatch'; do
    if strings -n 4 "$m" | grep -q "$needle"; then
      fail "$(basename "$m") contains MLIR text matching '$needle'"
    fi
  done
done

# A damaged weight loads (the load reads no weights: RODATA_CHECKSUMS) and
# fails the call that first uses it, naming it, on both devices; damage to
# the bytecode fails the load.
flip() {  # flip FILE OFFSET OUT
  python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[2])] ^= 0x40; open(sys.argv[3], "wb").write(d)' "$@"
}
"$bin/kiln-dump-module" "$work/mlp.kmod" > "$work/mlp.dump"
grep -q '^# section rodata_checksums:' "$work/mlp.dump" || fail "mlp.kmod has no rodata_checksums section"
read -r name bytes offset < <(sed -n 's/^rodata @\([^ ]*\) .*# \([0-9]*\) bytes.*file offset \([0-9]*\)$/\1 \2 \3/p' \
  "$work/mlp.dump" | sort -k2 -n | tail -1)
[ "${bytes:-0}" -ge 64 ] || fail "no weight found in mlp.kmod's dump"
flip "$work/mlp.kmod" $((offset + bytes / 2)) "$work/bad_weight.kmod"
for device in local-sync local-task; do
  if "$bin/kiln-run-module" --module="$work/bad_weight.kmod" --device=$device \
      --function=mlp --input=4x8xf32=1 > "$work/bad.txt" 2>&1; then
    fail "a damaged weight ran on $device"
  fi
  grep -q "rodata '$name' ($bytes bytes at offset $offset) is corrupted" "$work/bad.txt" ||
    { cat "$work/bad.txt"; fail "damaged weight: no error naming $name on $device"; }
done
code=$(sed -n 's/^# section bytecode: offset \([0-9]*\).*/\1/p' "$work/mlp.dump")
flip "$work/mlp.kmod" $((code + 4)) "$work/bad_code.kmod"
if "$bin/kiln-run-module" --module="$work/bad_code.kmod" --function=mlp \
    --input=4x8xf32=1 > "$work/bad.txt" 2>&1; then
  fail "damaged bytecode loaded"
fi
grep -q "CRC32 mismatch" "$work/bad.txt" || { cat "$work/bad.txt"; fail "damaged bytecode: no CRC error"; }

# No compiler code in the runtime tools.
for tool in kiln-run-module kiln-check-module kiln-benchmark-module; do
  [ -x "$bin/$tool" ] || { echo "skip: $tool not built"; continue; }
  if nm -C "$bin/$tool" | grep -E ' (kiln_ir_|kiln_mlir_|kiln_compiler_)' \
      > "$work/syms.txt"; then
    head -5 "$work/syms.txt" >&2
    fail "$tool links compiler code"
  fi
done
echo "PASS"
