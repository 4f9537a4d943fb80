#!/usr/bin/env bash
# --trace_output writes a valid Chrome trace-event file from kiln-compile,
# kiln-run-module (local-sync, and local-task with 2 threads), kiln-run-mlir
# and kiln-benchmark-module; scripts/trace/validate_trace.py checks the
# format and kiln's promises (nesting per thread, counters >= 0, workgroup
# slices covering each dispatch inside its command buffer, both threads on a
# long multi-workgroup dispatch); scripts/trace/trace_timeline.py draws one.
# Usage: trace_test.sh BIN_DIR. No timing is asserted.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
validate="/usr/bin/python3 $root/scripts/trace/validate_trace.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The compiler: the whole compilation, parsing and each pass.
"$bin/kiln-compile" --target-backends=vmvx "$here/small.mlir" \
  -o "$work/small.kmod" --trace_output="$work/compile.json"
$validate "$work/compile.json" --expect-zone compile --expect-zone parse \
  --expect-zone form-dispatch-regions --expect-zone vm-emission

# local-sync: every zone on the calling thread.
"$bin/kiln-run-module" --module="$work/small.kmod" --device=local-sync \
  --input="64x256xf32=0.5" --trace_output="$work/sync.json" >/dev/null
$validate "$work/sync.json" --expect-zone small \
  --expect-zone hal.command_buffer.dispatch \
  --expect-zone hal.device.queue_execute --expect-zone hal.queue.operation \
  --expect-zone hal.command_buffer.execute --expect-zone hal.allocator \
  --dispatches-inside hal.command_buffer.execute

# local-task with 2 threads on a dispatch of hundreds of milliseconds: both
# (the thread running the queue op and the one pool thread) get scheduled
# and run workgroup slices, whatever the load.
"$bin/kiln-compile" --target-backends=vmvx \
  "$root/tests/parallel_dispatch/parallel_dispatch.mlir" -o "$work/heavy.kmod"
/usr/bin/python3 - "$work/in.npy" <<'PY'
import sys, numpy as np
np.save(sys.argv[1], np.linspace(-4.0, 4.0, 2097152, dtype=np.float32))
PY
"$bin/kiln-run-module" --module="$work/heavy.kmod" --device=local-task \
  --task_topology_group_count=2 --function=heavy --input=@"$work/in.npy" \
  --output=@"$work/out.npy" --trace_output="$work/task.json" >/dev/null
$validate "$work/task.json" --expect-zone heavy \
  --expect-zone task.worker.run --expect-zone hal.allocator \
  --dispatches-inside hal.command_buffer.execute --min-dispatch-workers 2

# kiln-run-mlir: compiler and runtime zones in one trace.
"$bin/kiln-run-mlir" "$here/small.mlir" --device=local-task \
  --task_topology_group_count=2 --input="64x256xf32=0.5" \
  --Xcompiler,target-backends=vmvx --trace_output="$work/mlir.json" >/dev/null
$validate "$work/mlir.json" --expect-zone compile --expect-zone small \
  --dispatches-inside hal.command_buffer.execute

# kiln-benchmark-module: many iterations, still one valid trace.
if [ -x "$bin/kiln-benchmark-module" ]; then
  "$bin/kiln-benchmark-module" --module="$work/small.kmod" --device=local-task \
    --task_topology_group_count=2 --function=small --input="64x256xf32=0.5" \
    --benchmark_min_time=0.01 --trace_output="$work/bench.json" >/dev/null
  $validate "$work/bench.json" --expect-zone small \
    --dispatches-inside hal.command_buffer.execute
fi

# A bad path is an error, not a silent loss.
if "$bin/kiln-run-module" --module="$work/small.kmod" --device=local-sync \
    --input="64x256xf32=0.5" --trace_output="$work/no/such/dir/t.json" \
    >/dev/null 2>"$work/err.txt"; then
  echo "an unwritable --trace_output succeeded" >&2
  exit 1
fi
grep -q "cannot open trace output" "$work/err.txt"

# The timeline picture of a real trace: one row per thread, the dispatch
# drawn as bars. 2 threads are the caller and ONE pool thread (not two:
# that would put 3 threads on 2 CPUs), so exactly one worker row.
/usr/bin/python3 "$root/scripts/trace/trace_timeline.py" "$work/task.json" \
  -o "$work/task.svg"
/usr/bin/python3 - "$work/task.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
rows = [t.text for t in root.iterfind(".//s:text[@class='row']", ns)]
assert sum(r.startswith("kiln-hal-worker") for r in rows) == 1, rows
bars = [t.text for t in root.iterfind(".//s:rect[@class='zone']/s:title", ns)]
assert any(b.startswith("heavy_dispatch_0") for b in bars), bars[:5]
print(f"timeline: {len(rows)} rows, {len(bars)} bars")
PY
echo "trace tests passed"
