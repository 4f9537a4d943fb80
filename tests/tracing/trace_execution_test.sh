#!/usr/bin/env bash
# kiln-run-module --trace_execution prints every VM instruction it executes
# (module.function+pc, the disassembled instruction, register operand
# values) to stderr, and the results on stdout are unchanged.
# Usage: trace_execution_test.sh BIN_DIR
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/kiln-as-module" "$here/../tools/identity.vmasm" -o "$work/identity.kmod"
"$bin/kiln-run-module" --module="$work/identity.kmod" --function=scalars \
  --input=5 --input=-7 --input=1.5 --input=0.25 --trace_execution \
  >"$work/out.txt" 2>"$work/trace.txt"
# One instruction, with the values the registers hold.
want='[identity.scalars+0x0000] ret %i0, %l0, %f0, %d0  ; %i0=5 %l0=-7 %f0=1.5 %d0=0.25'
if [ "$(cat "$work/trace.txt")" != "$want" ]; then
  echo "unexpected trace:" >&2; cat "$work/trace.txt" >&2; exit 1
fi
grep -q 'result\[3\]: f64=0.25' "$work/out.txt"

# A compiled program: hal calls and branches in execution order, the pc
# increasing within straight-line code, results as without the flag.
"$bin/kiln-compile" --target-backends=vmvx "$here/small.mlir" -o "$work/small.kmod"
"$bin/kiln-run-module" --module="$work/small.kmod" --device=local-sync \
  --input="64x256xf32=0.5" >"$work/plain.txt"
"$bin/kiln-run-module" --module="$work/small.kmod" --device=local-sync \
  --input="64x256xf32=0.5" --trace_execution >"$work/traced.txt" 2>"$work/small.trace"
cmp "$work/plain.txt" "$work/traced.txt"
/usr/bin/python3 - "$work/small.trace" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
pattern = re.compile(r"^\[module\.small\+0x([0-9a-f]{4})\] (\S+)")
parsed = [pattern.match(l) for l in lines]
assert lines and all(parsed), [l for l, p in zip(lines, parsed) if not p][:3]
ops = [p.group(2) for p in parsed]
assert ops[0].startswith("const."), ops[:3]
assert ops[-1] == "ret", ops[-3:]
text = "\n".join(lines)
for needle in ("call.import @hal.device.default() -> (%r1)",
               "call.import @hal.command_buffer.dispatch",
               "call.import @hal.fence.await", "%r0=hal.buffer_view"):
    assert needle in text, needle
pcs = [int(p.group(1), 16) for p in parsed]
assert pcs[0] == 0 and pcs[1] > pcs[0], pcs[:3]
print(f"{len(lines)} instructions traced")
PY
echo "trace_execution tests passed"
