#!/usr/bin/env bash
# Every command in README.md's `shell` code blocks runs as written, from the
# repository root, with the built tools first on PATH (blocks tagged
# `console` or `text` are not run: `make test` cannot run itself).
# Usage: readme_test.sh REPO_ROOT BIN_DIR
set -euo pipefail
root=$1 bin=$2
cd "$root"
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
  echo 'set -euo pipefail'
  awk '/^```shell$/ {on=1; next} /^```/ {on=0} on' README.md |
    sed "s|^export PATH=\$PWD/build/bin:\$PATH|export PATH=$bin:\$PATH|"
} >"$script"
commands=$(grep -c . "$script")
bash "$script" >/tmp/readme_test.out 2>&1 || {
  cat /tmp/readme_test.out
  echo "README command failed"
  exit 1
}
# The documented output appears.
grep -q '^EXEC @abs$' /tmp/readme_test.out
grep -q '^f32=2$' /tmp/readme_test.out
grep -q 'BM_abs/process_time/real_time' /tmp/readme_test.out
echo "$((commands - 1)) README commands ran"
