#!/usr/bin/env bash
# local-task spreads one dispatch over its workers: with 2 workers on a
# machine with at least 2 cores, process CPU time is >= 1.6x wall time as
# measured by kiln-benchmark-module, and the result is bit-identical to
# local-sync's. Usage: parallel_dispatch_test.sh BIN_DIR
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/kiln-compile" --target-backends=vmvx "$here/parallel_dispatch.mlir" -o "$work/heavy.kmod"
/usr/bin/python3 - "$work/in.npy" <<'PY'
import sys, numpy as np
np.save(sys.argv[1], np.linspace(-4.0, 4.0, 2097152, dtype=np.float32))
PY

# Bit-identical results for any worker count.
for config in "local-sync" "local-task --task_topology_group_count=1" \
              "local-task --task_topology_group_count=2" \
              "local-task --task_topology_group_count=4"; do
  set -- $config
  name=$(echo "$config" | tr ' =' '__')
  "$bin/kiln-run-module" --module="$work/heavy.kmod" --device=$1 ${2:-} \
    --function=heavy --input=@"$work/in.npy" --output=@"$work/$name.bin" >/dev/null
done
for f in "$work"/local-task*.bin; do
  cmp "$work/local-sync.bin" "$f"
done
echo "results bit-identical across local-sync and local-task with 1, 2, 4 workers"

# Up to five attempts: a transient load from another process lowers the
# ratio of one measurement; the best attempt reflects the runtime.
cores=$(nproc)
for attempt in 1 2 3 4 5; do
  "$bin/kiln-benchmark-module" --module="$work/heavy.kmod" --device=local-task \
    --task_topology_group_count=2 --function=heavy --input=@"$work/in.npy" \
    --benchmark_min_time=1 --benchmark_format=json >"$work/bench.json"
  if /usr/bin/python3 - "$work/bench.json" "$cores" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
cores = int(sys.argv[2])
rows = [b for b in report["benchmarks"] if b.get("run_type") != "aggregate"]
assert len(rows) == 1, rows
row = rows[0]
ratio = row["cpu_time"] / row["real_time"]
print(f'{row["name"]}: real {row["real_time"]:.2f} {row["time_unit"]}, '
      f'cpu {row["cpu_time"]:.2f} {row["time_unit"]}, cpu/real {ratio:.2f}')
want = 1.6 if cores >= 2 else 0.9
if ratio < want:
    sys.exit(f"process CPU time is only {ratio:.2f}x wall time (want >= {want})")
PY
  then
    exit 0
  fi
  sleep 2
done
exit 1
