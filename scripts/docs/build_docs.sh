#!/usr/bin/env bash
# `make docs`: builds the website into site/ from docs/website/.
#   1. runs the conformance runner (tests/conformance/run_iree_e2e.sh) when
#      the tools are built and IREE's e2e files are present, for the op
#      reference's conformance column (else the page says "not measured");
#   2. generates the reference pages from the built tools
#      (scripts/docs/gen_reference.py: tool flags from --help, ops from
#      kiln-opt --list-ops);
#   3. draws the profiling guide's timeline from a real trace
#      (scripts/docs/gen_trace_timeline.sh);
#   4. mkdocs build --strict;
#   5. fails on any page missing from the nav (scripts/docs/check_nav.py).
# Usage: build_docs.sh [BUILD_DIR]   (default build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
results="$build/conformance-results.json"
rm -f "$results"
if [ -x "$build/bin/kiln-compile" ] && [ -d "$root/../shared/conformance/iree-e2e" ]; then
  echo "docs: conformance run (log: $build/conformance.log)"
  "$root/tests/conformance/run_iree_e2e.sh" --bin="$build/bin" \
    --results="$results" >"$build/conformance.log" 2>&1 || true
  tail -1 "$build/conformance.log" | sed 's/^/docs: conformance: /'
fi
python3 "$here/gen_reference.py" --bin="$build/bin" --conformance="$results"
"$here/gen_trace_timeline.sh" "$build/bin" \
  "$root/docs/website/docs/guides/generated/trace-timeline.svg"
cd "$root/docs/website"
mkdocs build --strict --quiet
python3 "$here/check_nav.py" "$root/docs/website/mkdocs.yml"
echo "docs: site built in $root/site"
