#!/usr/bin/env python3
"""Opens URL in headless Chromium and polls a JavaScript expression until its
string value matches REGEX (or TIMEOUT seconds pass), printing the last
value. Drives Chromium over --remote-debugging-pipe (the DevTools protocol on
file descriptors 3 and 4), so nothing beyond Debian's chromium is needed.
Used where --dump-dom cannot wait: Material's search runs in a web worker,
which virtual time does not wait for.

Usage: chromium_eval.py CHROMIUM URL EXPRESSION REGEX [TIMEOUT]
"""
import fcntl
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def main():
    browser, url, expression, pattern = sys.argv[1:5]
    timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 30.0
    # Keep the pipe ends above 4 so that the dup2 to 3 and 4 in the child
    # cannot clobber one another.
    def high(fd):
        new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return new
    to_chrome_r, to_chrome_w = map(high, os.pipe())
    from_chrome_r, from_chrome_w = map(high, os.pipe())
    profile = tempfile.mkdtemp(prefix="kiln-docs-chromium-")
    # Chromium reads commands from fd 3 and writes replies to fd 4.
    def setup_fds():
        os.dup2(to_chrome_r, 3)
        os.dup2(from_chrome_w, 4)
    proc = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
         "--window-size=1280,2000", "--user-data-dir=" + profile,
         "--remote-debugging-pipe", "about:blank"],
        preexec_fn=setup_fds, close_fds=False,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    reader = os.fdopen(from_chrome_r, "rb")
    buffer = b""
    next_id = [0]

    def call(method, params=None, session=None):
        next_id[0] += 1
        msg = {"id": next_id[0], "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(to_chrome_w, json.dumps(msg).encode() + b"\0")
        nonlocal buffer
        while True:
            while b"\0" not in buffer:
                chunk = reader.read1(65536)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                buffer += chunk
            raw, buffer = buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == next_id[0]:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    value = ""
    try:
        target = call("Target.createTarget", {"url": url})["targetId"]
        session = call("Target.attachToTarget",
                       {"targetId": target, "flatten": True})["sessionId"]
        deadline = time.time() + timeout
        while time.time() < deadline:
            result = call("Runtime.evaluate",
                          {"expression": expression, "returnByValue": True},
                          session)
            value = str(result.get("result", {}).get("value", ""))
            if re.search(pattern, value):
                print(value)
                return 0
            time.sleep(0.5)
        print(value)
        return 1
    finally:
        try:
            call("Browser.close")
        except Exception:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        subprocess.run(["rm", "-rf", profile])


if __name__ == "__main__":
    sys.exit(main())
