#!/usr/bin/env bash
# Opens the built website in headless Chromium (Debian's chromium package)
# served from localhost, and checks that
#   1. the home page renders its navigation (the section tabs and the nav),
#   2. a search for "benchmark" (?q=benchmark; Material's search runs in a
#      web worker) lists the benchmarking guide among its results,
#   3. a page's code blocks get copy-to-clipboard buttons,
#   4. at 1280 px, no flag or op name in the reference tables breaks across
#      lines (kiln-compile's flag table, the run tool flags, the op lists),
# and saves screenshots of the home page and of kiln-compile's flag table.
#
# Usage: test_site_browser.sh [SITE_DIR] [SCREENSHOT.png]
#   SITE_DIR defaults to site/ (what `make docs` builds); the screenshot
#   defaults to SITE_DIR/../docs-screenshot.png.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
site=$(cd "${1:-$root/site}" 2>/dev/null && pwd) || {
  echo "test_site_browser: no site at ${1:-$root/site} (run make docs)" >&2
  exit 2
}
shot=${2:-$(dirname "$site")/docs-screenshot.png}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "test_site_browser: chromium not found (scripts/install-deps.sh --docs)" >&2
  exit 2
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A static server on a free localhost port, printing the port it chose.
python3 - "$site" >"$work/port" 2>"$work/server.log" <<'EOF' &
import functools, http.server, socketserver, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
handler.log_message = lambda *args: None
with socketserver.TCPServer(("127.0.0.1", 0), handler) as httpd:
    print(httpd.server_address[1], flush=True)
    httpd.serve_forever()
EOF
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
if [ -z "$port" ]; then
  echo "test_site_browser: the local server did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
base="http://127.0.0.1:$port"

chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --disable-background-networking --disable-component-update --disable-sync \
    --no-first-run --disable-dev-shm-usage --user-data-dir="$work/profile-$RANDOM" \
    "$@" 2>>"$work/chromium.log"
}

failures=0
check() {  # check NAME FILE REGEX...: every regex must match FILE
  local name=$1 file=$2
  shift 2
  tr '\n' ' ' <"$file" >"$file.flat"  # markup spans lines
  for re in "$@"; do
    if ! grep -qE "$re" "$file.flat"; then
      echo "test_site_browser: FAILED $name: no match for /$re/" >&2
      failures=$((failures + 1))
      return
    fi
  done
  echo "test_site_browser: ok     $name"
}

# 1. Home page navigation: the section tabs and the sidebar nav with links.
chrome --dump-dom --virtual-time-budget=5000 "$base/" >"$work/home.html"
check "home page renders its navigation" "$work/home.html" \
  'class="md-tabs' 'class="md-nav' \
  'md-tabs__link[^>]*>[[:space:]]*Building from source' \
  'md-tabs__link[^>]*>[[:space:]]*Guides' \
  'md-tabs__link[^>]*>[[:space:]]*Reference' \
  'md-tabs__link[^>]*>[[:space:]]*Developers'

# 2. Search: the results list links the benchmarking guide. Material's
#    search runs in a web worker, which --virtual-time-budget does not wait
#    for, so the results markup is polled over the DevTools pipe instead.
if python3 "$here/chromium_eval.py" "$browser" "$base/?q=benchmark" \
    "[...document.querySelectorAll('.md-search-result__item a.md-search-result__link')].map(a => a.getAttribute('href')).join(' ')" \
    'guides/benchmarking/' 30 >"$work/search.txt" 2>>"$work/chromium.log"; then
  echo "test_site_browser: ok     search ?q=benchmark finds the benchmarking guide"
else
  echo "test_site_browser: FAILED search ?q=benchmark: results were: $(head -c 300 "$work/search.txt")" >&2
  failures=$((failures + 1))
fi

# 3. Copy buttons on a page with code blocks. Material adds a block's
#    button when the block scrolls into view (an IntersectionObserver), which
#    --dump-dom's virtual time does not always reach: poll over the DevTools
#    pipe instead, scrolling each block into view on every poll.
if python3 "$here/chromium_eval.py" "$browser" "$base/guides/compiling-and-running/" \
    "(() => { const pres = [...document.querySelectorAll('pre')]; pres.forEach(p => p.scrollIntoView()); return pres.length + ' blocks, ' + document.querySelectorAll('pre > button.md-clipboard').length + ' copy buttons'; })()" \
    '^[1-9][0-9]* blocks, [1-9][0-9]* copy buttons$' 30 >"$work/copy.txt" 2>>"$work/chromium.log"; then
  echo "test_site_browser: ok     code blocks get copy buttons ($(cat "$work/copy.txt"))"
else
  echo "test_site_browser: FAILED code blocks get copy buttons: $(head -c 300 "$work/copy.txt")" >&2
  failures=$((failures + 1))
fi

# 4. Names in tables stay whole at 1280 px (the window chromium_eval.py
#    opens): an inline code element broken over two lines has two client
#    rectangles.
for page in reference/tools/kiln-compile/ reference/tools/kiln-run-module/ \
            reference/supported-ops/ reference/onnx-ops/; do
  if python3 "$here/chromium_eval.py" "$browser" "$base/$page" \
      "(() => { if (document.readyState !== 'complete') return 'loading'; const cs = [...document.querySelectorAll('.md-typeset table td code')]; const broken = cs.filter(c => c.getClientRects().length > 1).map(c => c.textContent); return cs.length + ' names, ' + broken.length + ' broken' + (broken.length ? ': ' + broken.slice(0, 3).join(' ') : ''); })()" \
      '^[1-9][0-9]* names, 0 broken$' 30 >"$work/wrap.txt" 2>>"$work/chromium.log"; then
    echo "test_site_browser: ok     $page: names in tables unbroken ($(cat "$work/wrap.txt"))"
  else
    echo "test_site_browser: FAILED $page: names broken across lines: $(head -c 300 "$work/wrap.txt")" >&2
    failures=$((failures + 1))
  fi
done

# Screenshot of the home page.
mkdir -p "$(dirname "$shot")"
chrome --screenshot="$shot" --window-size=1280,900 --virtual-time-budget=5000 "$base/" >/dev/null
if [ -s "$shot" ]; then
  echo "test_site_browser: ok     screenshot saved to $shot"
else
  echo "test_site_browser: FAILED no screenshot written" >&2
  failures=$((failures + 1))
fi

flags_shot="$(dirname "$shot")/docs-screenshot-kiln-compile.png"
chrome --screenshot="$flags_shot" --window-size=1280,900 --virtual-time-budget=5000 \
  "$base/reference/tools/kiln-compile/" >/dev/null
if [ -s "$flags_shot" ]; then
  echo "test_site_browser: ok     screenshot of kiln-compile's flag table saved to $flags_shot"
else
  echo "test_site_browser: FAILED no screenshot of the flag table written" >&2
  failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
  echo "test_site_browser: $failures check(s) failed; chromium log:" >&2
  tail -20 "$work/chromium.log" >&2
  exit 1
fi
echo "test_site_browser: all checks passed"
