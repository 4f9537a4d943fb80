#!/usr/bin/env bash
# local-task spreads one dispatch over its workers, and the result is
# bit-identical to local-sync's for any worker count. Usage:
# parallel_dispatch_test.sh BIN_DIR
#
# Only counts are asserted: the runtime counts the distinct workers that ran
# workgroups of each dispatch (kiln-benchmark-module --dispatch_statistics,
# counter "workers"). Speed (CPU time against wall time) depends on the load
# of the machine, so it is measured by bench/parallel_dispatch/run.sh, not
# here.
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

# Workers that ran workgroups of the dispatch: local-sync runs them all on
# the calling thread; local-task with 2 workers uses more than one thread
# (the counter is the most over the profiled dispatches, each hundreds of
# milliseconds long, so every worker gets scheduled even on a busy machine).
check_workers() {
  local device_flags=$1 want=$2
  "$bin/kiln-benchmark-module" --module="$work/heavy.kmod" $device_flags \
    --function=heavy --input=@"$work/in.npy" --benchmark_min_time=0.01 \
    --dispatch_statistics --benchmark_format=json >"$work/bench.json"
  /usr/bin/python3 - "$work/bench.json" "$want" "$device_flags" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
want, flags = sys.argv[2], sys.argv[3]
rows = [b for b in report["benchmarks"] if "workers" in b]
assert len(rows) == 1, rows
workers = int(rows[0]["workers"])
print(f'{flags}: {rows[0]["name"]} ran on {workers} worker(s)')
if want == "1" and workers != 1:
    sys.exit(f"local-sync ran a dispatch on {workers} workers (want 1)")
if want == "2+" and workers < 2:
    sys.exit(f"2 workers but the dispatch ran on {workers} (want >= 2)")
PY
}
check_workers "--device=local-sync" 1
check_workers "--device=local-task --task_topology_group_count=2" 2+
