#!/usr/bin/env python3
"""llvm-cpu concatenation entries against numpy.

stablehlo.concatenate along the first, a middle and the last dim, of 2 to
4 operands with uneven sizes, over f32 and f16 elements, compiled
for llvm-cpu. Each must run in the direct concatenation entry (memcpy of
runs, no generic dispatch) and give numpy.concatenate's bits exactly, on
local-sync and local-task. A concatenation feeding an elementwise op in the
same function still gives the right values (the entry only takes regions
that do nothing else).

Usage: concat_test.py BIN_DIR
"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_test_util import compile_llvm_cpu, fail, run  # noqa: E402

BIN = sys.argv[1]
TYPES = {"f32": np.float32, "f16": np.float16}


def ty(shape, t):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), t)


def main():
    rng = np.random.default_rng(11)
    # (element type, operand shapes, dim)
    cases = [
        ("f32", [(2, 3, 5, 7), (2, 3, 5, 9)], 3),
        ("f32", [(3, 4, 5), (3, 1, 5), (3, 6, 5)], 1),
        ("f32", [(1, 4), (3, 4), (2, 4), (5, 4)], 0),
        ("f16", [(4, 17), (4, 15)], 1),
        ("f16", [(2, 5, 3), (2, 5, 1)], 2),
    ]
    with tempfile.TemporaryDirectory() as work:
        src = []
        for i, (t, shapes, dim) in enumerate(cases):
            out = list(shapes[0])
            out[dim] = sum(s[dim] for s in shapes)
            args = ", ".join("%%a%d: %s" % (k, ty(s, t))
                             for k, s in enumerate(shapes))
            names = ", ".join("%%a%d" % k for k in range(len(shapes)))
            types = ", ".join(ty(s, t) for s in shapes)
            src.append(
                "func.func @concat_%d(%s) -> %s {\n"
                "  %%r = stablehlo.concatenate %s, dim = %d : (%s) -> %s\n"
                "  return %%r : %s\n}\n" % (i, args, ty(out, t), names, dim,
                                             types, ty(out, t), ty(out, t)))
        # A concatenation with a consumer: the add may fuse into its region,
        # which then is not a plain concatenation.
        src.append(
            "func.func @concat_add(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>)"
            " -> tensor<4x8xf32> {\n"
            "  %c = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x3xf32>,"
            " tensor<4x5xf32>) -> tensor<4x8xf32>\n"
            "  %r = stablehlo.add %c, %c : tensor<4x8xf32>\n"
            "  return %r : tensor<4x8xf32>\n}\n")
        kmod, c = compile_llvm_cpu(BIN, work, "concat", "".join(src))
        entries = c.count("// concatenation of ")
        if entries < len(cases):
            fail("%d concatenation entries, want at least %d" %
                 (entries, len(cases)))
        runs = [("concat_%d" % i, [rng.integers(-100, 100, s).astype(
            TYPES[t]) for s in shapes], dim)
            for i, (t, shapes, dim) in enumerate(cases)]
        a = rng.standard_normal((4, 3)).astype(np.float32)
        b = rng.standard_normal((4, 5)).astype(np.float32)
        checked = 0
        for name, inputs, dim in runs + [("concat_add", [a, b], None)]:
            if dim is None:
                want = 2 * np.concatenate(inputs, axis=1)
            else:
                want = np.concatenate(inputs, axis=dim)
            paths = []
            for k, x in enumerate(inputs):
                paths.append(os.path.join(work, "%s_%d.npy" % (name, k)))
                np.save(paths[-1], x)
            for device in ("local-sync", "local-task"):
                out = os.path.join(work, "%s_out.npy" % name)
                run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                     "--device=" + device, "--function=" + name] +
                    ["--input=@" + p for p in paths] + ["--output=@" + out])
                got = np.load(out)
                if got.dtype != want.dtype or got.shape != want.shape or \
                        got.tobytes() != want.tobytes():
                    fail("%s (%s): got %s %s, want %s %s" % (
                        name, device, got.dtype, got.shape, want.dtype,
                        want.shape))
                checked += 1
        print("concat_test: %d concatenation entries, %d runs checked" %
              (entries, checked))


if __name__ == "__main__":
    main()
