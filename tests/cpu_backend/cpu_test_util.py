"""What the cpu backend's Python tests share: failing with a message, and
running a tool that must succeed."""
import subprocess
import sys


def fail(message):
    print("FAILED: " + message)
    sys.exit(1)


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail("%s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout
