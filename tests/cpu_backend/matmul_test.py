#!/usr/bin/env python3
"""llvm-cpu matmuls through the micro-kernels against numpy (float64).

Shapes cover 1, 3, 15, 17, 300, 513 and non-multiples of every tile (16x16,
8x8, skinny M), batch matmuls, K longer than the entry's K block (256) and
M and N beyond its row and column blocks (256, 128);
each runs on local-sync and local-task with the CPU features capped to each
ISA variant in turn (KILN_HAL_CPU_ISA_CAP: the micro-kernel ISA follows the
executable's environment), from one module with three ISA variants. The
module must run the micro-kernel (its C names mmt4d). Tolerance: the f32
error bound of a length-K dot product, K * 2^-23 * sum |a||b|.

Usage: matmul_test.py BIN_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

BIN = sys.argv[1]
SHAPES = [(1, 1, 1), (3, 15, 17), (17, 513, 31), (15, 17, 3), (1, 600, 1000),
          (33, 1030, 17), (64, 64, 256), (65, 7, 257), (300, 70, 140)]
BATCHED = [(3, 5, 7, 300), (2, 17, 33, 9)]


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_test_util import fail, run  # noqa: E402


def main():
    rng = np.random.default_rng(3)
    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "mm.mlir")
        cases = []
        with open(src, "w") as f:
            for i, (m, k, n) in enumerate(SHAPES):
                f.write(
                    "func.func @mm%d(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>)"
                    " -> tensor<%dx%dxf32> {\n  %%0 = stablehlo.dot_general %%a, %%b,"
                    " contracting_dims = [1] x [0] : (tensor<%dx%dxf32>,"
                    " tensor<%dx%dxf32>) -> tensor<%dx%dxf32>\n  return %%0 :"
                    " tensor<%dx%dxf32>\n}\n" % (i, m, k, k, n, m, n, m, k, k, n,
                                                 m, n, m, n))
                cases.append(("mm%d" % i, (m, k), (k, n)))
            for i, (b, m, k, n) in enumerate(BATCHED):
                f.write(
                    "func.func @bmm%d(%%a: tensor<%dx%dx%dxf32>, %%b:"
                    " tensor<%dx%dx%dxf32>) -> tensor<%dx%dx%dxf32> {\n  %%0 ="
                    " stablehlo.dot_general %%a, %%b, batching_dims = [0] x [0],"
                    " contracting_dims = [2] x [1] : (tensor<%dx%dx%dxf32>,"
                    " tensor<%dx%dx%dxf32>) -> tensor<%dx%dx%dxf32>\n  return"
                    " %%0 : tensor<%dx%dx%dxf32>\n}\n" %
                    (i, b, m, k, b, k, n, b, m, n, b, m, k, b, k, n, b, m, n, b,
                     m, n))
                cases.append(("bmm%d" % i, (b, m, k), (b, k, n)))
        kmod = os.path.join(work, "mm.kmod")
        dump = os.path.join(work, "dump")
        run([os.path.join(BIN, "kiln-compile"), "--iree-hal-target-backends=llvm-cpu",
             "--iree-llvmcpu-target-cpu=x86-64-v4,x86-64-v3,generic",
             "--iree-hal-dump-executable-sources-to=" + dump, src, "-o", kmod])
        c = open(os.path.join(dump, "dispatches.c")).read()
        kernels = c.count("through the runtime's mmt4d micro-kernel") // 3
        if kernels != len(cases):
            fail("%d of %d matmuls use the micro-kernel" % (kernels, len(cases)))
        checked = 0
        for name, sa, sb in cases:
            a = rng.standard_normal(sa).astype(np.float32)
            b = rng.standard_normal(sb).astype(np.float32)
            pa, pb = os.path.join(work, "a.npy"), os.path.join(work, "b.npy")
            np.save(pa, a)
            np.save(pb, b)
            ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
            bound = np.matmul(np.abs(a).astype(np.float64),
                              np.abs(b).astype(np.float64))
            bound *= a.shape[-1] * 2.0 ** -23
            for cap in ("host", "x86-64-v3", "generic"):
                for device in ("local-sync", "local-task"):
                    out = os.path.join(work, "out.npy")
                    env = dict(os.environ, KILN_HAL_CPU_ISA_CAP=cap)
                    run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                         "--device=" + device, "--function=" + name,
                         "--input=@" + pa, "--input=@" + pb, "--output=@" + out],
                        env=env)
                    got = np.load(out).astype(np.float64)
                    if got.shape != ref.shape:
                        fail("%s: shape %s, want %s" % (name, got.shape, ref.shape))
                    err = np.abs(got - ref)
                    if np.any(err > bound + 1e-30):
                        i = np.unravel_index(np.argmax(err - bound), err.shape)
                        fail("%s (%s, %s): element %s is %r, want %r (bound %g)" %
                             (name, cap, device, i, got[i], ref[i], bound[i]))
                    checked += 1
        print("matmul_test: %d matmuls x 3 ISA caps x 2 devices = %d runs "
              "match numpy" % (len(cases), checked))


main()
