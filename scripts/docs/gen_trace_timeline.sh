#!/usr/bin/env bash
# The timeline picture of the profiling guide: traces a run of the
# parallel-dispatch test program (one long dispatch, 2 workers on local-task)
# with --trace_output and draws it with scripts/trace/trace_timeline.py.
# Usage: gen_trace_timeline.sh BIN_DIR OUT.svg   (run by build_docs.sh)
set -euo pipefail
bin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/kiln-compile" --target-backends=vmvx \
  "$root/tests/parallel_dispatch/parallel_dispatch.mlir" -o "$work/heavy.kmod"
/usr/bin/python3 - "$work/in.npy" <<'PY'
import sys, numpy as np
np.save(sys.argv[1], np.linspace(-4.0, 4.0, 2097152, dtype=np.float32))
PY
"$bin/kiln-run-module" --module="$work/heavy.kmod" --device=local-task \
  --task_topology_group_count=2 --function=heavy --input=@"$work/in.npy" \
  --output=@"$work/out.npy" --trace_output="$work/trace.json" >/dev/null
mkdir -p "$(dirname "$out")"
/usr/bin/python3 "$root/scripts/trace/trace_timeline.py" "$work/trace.json" \
  -o "$out" --max-depth 4 \
  --title "kiln-run-module --device=local-task --task_topology_group_count=2 (tests/parallel_dispatch)"
