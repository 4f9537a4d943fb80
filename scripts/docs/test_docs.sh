#!/usr/bin/env bash
# `make test-docs` (part of `make test`): the website's tests, after
# `make docs` built it.
#   - the generated reference pages are current (regenerated from the tools
#     of BUILD_DIR, they are unchanged) and every flag each tool's --help
#     prints appears on its built page;
#   - every `shell` block of the Building and Guides pages runs and prints
#     what the page shows (scripts/docs/test_doc_commands.py);
#   - headless Chromium renders the served site: navigation, search, copy
#     buttons, screenshot (scripts/docs/test_site_browser.sh).
# Usage: test_docs.sh [BUILD_DIR]   (default build)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
site="$root/site"
failed=0

echo "test-docs: generated reference pages are current"
python3 "$here/gen_reference.py" --bin="$build/bin" \
  --conformance="$build/conformance-results.json" --check || failed=1
for tool in "$build"/bin/kiln-*; do
  name=$(basename "$tool")
  page="$site/reference/tools/$name/index.html"
  if [ ! -f "$page" ]; then
    echo "test-docs: no built page for $name ($page)" >&2; failed=1; continue
  fi
  for flag in $("$tool" --help 2>&1 | grep -oE -- '--[a-z][A-Za-z0-9_-]+' | sort -u); do
    if ! grep -qF -- "$flag" "$page"; then
      echo "test-docs: $name flag $flag missing from $page" >&2; failed=1
    fi
  done
done
while IFS=$'\t' read -r op _; do
  grep -qF -- "$op" "$site/reference/supported-ops/index.html" ||
    { echo "test-docs: op $op missing from the supported-ops page" >&2; failed=1; }
done < <("$build/bin/kiln-opt" --list-ops 2>/dev/null)

echo "test-docs: shell blocks of the Building and Guides pages"
python3 "$here/test_doc_commands.py" --build="$build" || failed=1

echo "test-docs: headless Chromium"
"$here/test_site_browser.sh" "$site" "$build/docs-screenshot.png" || failed=1

if [ "$failed" -ne 0 ]; then
  echo "test-docs: FAILED" >&2
  exit 1
fi
echo "test-docs: all passed"
