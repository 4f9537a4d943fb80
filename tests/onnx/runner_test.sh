#!/usr/bin/env bash
# Tests run_onnx_backend_tests.sh itself on two cases: a passing one and one
# whose op is not supported. Its verdicts against an expected-failure list
# (unexpected passes and failures fail the run), its last line and its JSON.
# Usage: runner_test.sh BIN_DIR [DATA_DIR]
set -euo pipefail
bin=$1
data=${2:-/usr/share/libonnx-testdata/data}
here=$(cd "$(dirname "$0")" && pwd)
runner="$here/run_onnx_backend_tests.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "runner_test: $*" >&2; exit 1; }
run() {  # run EXPECTED_FILE FILTER -> exit code, output in $work/out
  set +e
  "$runner" --bin="$bin" --data="$data" --suites=node --devices=local-sync \
    --expected="$1" --filter="$2" --results="$work/results.json" > "$work/out" 2>&1
  local rc=$?
  set -e
  return $rc
}
supported='^node/test_abs$'
unsupported='^node/test_melweightmatrix$'
: > "$work/empty.txt"
run "$work/empty.txt" "$supported" || fail "a passing case failed: $(cat "$work/out")"
[ "$(tail -n1 "$work/out")" = "1 passed, 0 failed" ] || fail "bad last line: $(tail -n1 "$work/out")"
grep -q '"case": "test_abs", "opset": [0-9]*, "ops": \["Abs"\], "status": "passed"' "$work/results.json" ||
  fail "bad JSON: $(cat "$work/results.json")"
# A listed case that passes fails the run.
echo "node/test_abs import: a reason" > "$work/listed.txt"
if run "$work/listed.txt" "$supported"; then fail "an unexpected pass was accepted"; fi
grep -q "UNEXPECTED PASS node/test_abs" "$work/out" || fail "no UNEXPECTED PASS line"
# An unlisted failing case fails the run, naming the node, op and opset.
if run "$work/empty.txt" "$unsupported"; then fail "an unexpected failure was accepted"; fi
grep -q "UNEXPECTED FAIL node/test_melweightmatrix import: model.onnx: node '[^']*' (MelWeightMatrix, opset [0-9]*): the op is not supported" "$work/out" ||
  fail "bad failure line: $(cat "$work/out")"
[ "$(tail -n1 "$work/out")" = "0 passed, 1 failed" ] || fail "bad last line: $(tail -n1 "$work/out")"
# Listed, it is an expected failure.
echo "node/test_melweightmatrix import: MelWeightMatrix" > "$work/listed.txt"
run "$work/listed.txt" "$unsupported" || fail "a listed failure failed the run: $(cat "$work/out")"
echo "runner_test: OK"
