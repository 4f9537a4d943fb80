#!/usr/bin/python3
"""Differential test: every tests/e2e program on vmvx and on llvm-cpu, the
values both compute compared with each other (not only with the check
tests' constants).

Each e2e function is a check test: it computes values and asserts them with
check.expect_* ops. This script rewrites every function whose checks sit in
its straight-line body (one block, one `return`) so that it returns the
checked values instead, compiles the rewritten program for both backends,
runs every function on local-sync with kiln-run-module (results appended to
one .npy per backend) and compares the results:

  * integers and booleans: equal;
  * floats: bit-identical, or within the tolerance the CPU backend guide
    documents for work that the two backends may round differently
    (micro-kernel matmuls fuse multiply-adds): |a - b| <= atol + rtol * |b|
    with rtol 2^-17 (f32), 2^-8 (f16), 2^-5 (bf16) and atol the format's
    smallest normal; NaN matches NaN.

Functions with checks inside regions or several blocks stay check tests
(their own ctests, check_<backend>_*, run them on both backends) and are
counted as such. The test fails if any compared value differs, a program
does not compile or run on one backend, or fewer than MIN_COMPARED values
were compared (so that a broken rewrite cannot pass by comparing nothing).

Usage: differential_test.py BIN_DIR [E2E_DIR]
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

MIN_COMPARED = 400
CHECK = re.compile(r"^(\s+)check\.(expect_\w+)\((%[\w#.]+)(?:,\s*(%[\w#.]+))?")
FUNC = re.compile(r"^func\.func @([\w.$-]+)\(\)\s*\{\s*$")
TOL = {np.dtype(np.float32): (2.0**-17, 2.0**-126),
       np.dtype(np.float64): (2.0**-40, 2.0**-1022),
       np.dtype(np.float16): (2.0**-8, 2.0**-14)}


def rewrite(text):
    """The program with each eligible function returning its checked
    values: (new text, [(name, result types)], check-only count)."""
    lines = text.split("\n")
    out, funcs, kept = [], [], 0
    i = 0
    while i < len(lines):
        m = FUNC.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j] != "}":
            j += 1
        body = lines[i + 1:j]
        returns = [k for k, l in enumerate(body) if l.strip() == "return"]
        nested = any(re.match(r"^\s*\^", l) or l.startswith("    ") and
                     "check." in l for l in body)
        checks = []
        new_body = []
        for l in body:
            c = CHECK.match(l)
            ty = l.rsplit(") : ", 1)[1].strip() if ") : " in l else ""
            # Tensors only: host scalars computed outside dispatches can be
            # checked but not yet returned (issue 14); they stay checks.
            if c and c.group(1) == "  " and ty.startswith("tensor<"):
                checks.append((c.group(3), ty))
                if c.group(4) and not c.group(2).endswith("_const"):
                    checks.append((c.group(4), ty))
                continue
            new_body.append(l)
        if nested or len(returns) != 1 or not checks or \
                body[returns[0]] != "  return":
            out.extend(lines[i:j + 1])
            kept += 1
            i = j + 1
            continue
        values = ", ".join(v for v, _ in checks)
        types = ", ".join(t for _, t in checks)
        new_body = [("  return %s : %s" % (values, types))
                    if l == "  return" else l for l in new_body]
        out.append("func.func @%s() -> (%s) {" % (m.group(1), types))
        out.extend(new_body)
        out.append("}")
        funcs.append((m.group(1), [t for _, t in checks]))
        i = j + 1
    return "\n".join(out), funcs, kept


def load_all(path):
    arrays = []
    with open(path, "rb") as f:
        while f.peek(1) if hasattr(f, "peek") else f.read(1):
            arrays.append(np.load(f, allow_pickle=False))
    return arrays


def is_bf16(ty):
    return re.search(r"[<x]bf16>", ty) is not None


def bf16_to_f32(path):
    bits = np.fromfile(path, dtype=np.uint16).astype(np.uint32) << 16
    return bits.view(np.float32)


def compare(a, b):
    """'' if a (llvm-cpu) matches b (vmvx), else why; and whether the bits
    are identical."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return "%s%s vs %s%s" % (a.dtype, a.shape, b.dtype, b.shape), False
    if a.dtype.kind in "fc":
        if a.tobytes() == b.tobytes():
            return "", True
        rtol, atol = TOL.get(np.dtype(a.real.dtype), (2.0**-5, 2.0**-126))
        x, y = a.astype(np.complex128), b.astype(np.complex128)
        nan = np.isnan(x) & np.isnan(y)
        ok = nan | (np.abs(x - y) <= atol + rtol * np.abs(y))
        if ok.all():
            return "", False
        k = int(np.argmin(ok.reshape(-1)))
        return "element %d: %r vs %r" % (k, a.reshape(-1)[k],
                                         b.reshape(-1)[k]), False
    if np.array_equal(a, b):
        return "", True
    k = int(np.argmin((a == b).reshape(-1)))
    return "element %d: %r vs %r" % (k, a.reshape(-1)[k], b.reshape(-1)[k]), \
        False


def main():
    bin_dir = sys.argv[1]
    e2e = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(
        os.path.abspath(__file__))
    files = sorted(glob.glob(os.path.join(e2e, "**", "*.mlir"),
                             recursive=True))
    failures, compared, identical, kept_total = [], 0, 0, 0
    with tempfile.TemporaryDirectory() as work:
        for path in files:
            rel = os.path.relpath(path, e2e)
            with open(path) as f:
                text, funcs, kept = rewrite(f.read())
            kept_total += kept
            if not funcs:
                continue
            src = os.path.join(work, "p.mlir")
            with open(src, "w") as f:
                f.write(text)
            results = {}
            for backend in ("vmvx", "llvm-cpu"):
                kmod = os.path.join(work, backend + ".kmod")
                p = subprocess.run(
                    [os.path.join(bin_dir, "kiln-compile"),
                     "--iree-hal-target-backends=" + backend, src, "-o",
                     kmod], capture_output=True, text=True)
                if p.returncode:
                    failures.append("%s: %s compile: %s" %
                                    (rel, backend, p.stderr.strip()))
                    break
                for name, types in funcs:
                    # numpy has no bf16: those results go to raw files and
                    # are widened to f32 here (exactly).
                    npy = os.path.join(work, "%s_%s.npy" % (backend, name))
                    raw = [os.path.join(work, "%s_%s_%d.bin" %
                                        (backend, name, k)) if is_bf16(t)
                           else None for k, t in enumerate(types)]
                    p = subprocess.run(
                        [os.path.join(bin_dir, "kiln-run-module"),
                         "--module=" + kmod, "--device=local-sync",
                         "--function=" + name] +
                        ["--output=@" + r if r else "--output=+" + npy
                         for r in raw],
                        capture_output=True, text=True)
                    if p.returncode:
                        failures.append("%s @%s: %s run: %s" %
                                        (rel, name, backend,
                                         p.stderr.strip()))
                        continue
                    arrays = load_all(npy) if os.path.exists(npy) else []
                    arrays.reverse()
                    results[(backend, name)] = [
                        bf16_to_f32(r) if r else
                        (arrays.pop() if arrays else None) for r in raw]
            for name, types in funcs:
                count = len(types)
                a = results.get(("llvm-cpu", name))
                b = results.get(("vmvx", name))
                if a is None or b is None:
                    continue
                if len(a) != count or len(b) != count:
                    failures.append("%s @%s: %d/%d results, expected %d" %
                                    (rel, name, len(a), len(b), count))
                    continue
                for k, (x, y) in enumerate(zip(a, b)):
                    if x is None or y is None:
                        failures.append("%s @%s result %d: missing" %
                                        (rel, name, k))
                        continue
                    why, same = compare(x, y)
                    compared += 1
                    identical += same
                    if why:
                        failures.append("%s @%s result %d: llvm-cpu vs vmvx: %s"
                                        % (rel, name, k, why))
    print("differential_test: %d values compared (%d bit-identical, %d within "
          "tolerance), %d functions left as check tests, %d files" %
          (compared, identical, compared - identical, kept_total, len(files)))
    if compared < MIN_COMPARED:
        failures.append("only %d values compared (expected >= %d)" %
                        (compared, MIN_COMPARED))
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
