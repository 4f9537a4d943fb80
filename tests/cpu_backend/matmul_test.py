#!/usr/bin/env python3
"""llvm-cpu matmuls through the micro-kernels against numpy (float64).

Shapes cover 1, 3, 15, 17, 300, 513 and non-multiples of every tile (16x16,
8x8, skinny M), batch matmuls, dot_generals that become linalg.generic
(rank-4 batches, transposed LHS and/or RHS), constant RHS weights (packed
at compile time: their entries must not pack the RHS), K longer than the entry's K block (1024) and
M and N beyond its row and column blocks (256, 192);
each runs on local-sync and on local-task with 2 and 1 workers (whose bits
must equal local-sync's: tiles are spread, K never split) with the CPU
features capped to each
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
          (33, 1030, 17), (64, 64, 256), (65, 7, 257), (300, 70, 140),
          # Whole column tiles and a 9-15 row remainder: written in place
          # as skinny tiles of decreasing powers of two (8 + 1, 8 + 2 + 1
          # over two K blocks, 8 + 4 + 1 with no full tile).
          (169, 40, 48), (27, 1100, 64), (13, 20, 32)]
BATCHED = [(3, 5, 7, 300), (2, 17, 33, 9)]
# dot_generals that lower to linalg.generic, not a named matmul: (lhs shape,
# rhs shape, batching dims, contracting dims). Rank-4 batches (an attention
# block's [1, heads, seq, d] matmuls), a transposed RHS (Q x K^T), a
# transposed LHS, and both.
GENERAL = [((1, 3, 17, 9), (1, 3, 9, 33), ([0, 1], [0, 1]), ([3], [2])),
           ((2, 3, 5, 513), (2, 3, 513, 1), ([0, 1], [0, 1]), ([3], [2])),
           ((3, 17, 9), (3, 20, 9), ([0], [0]), ([2], [2])),
           ((1, 2, 33, 7), (1, 2, 15, 7), ([0, 1], [0, 1]), ([3], [3])),
           ((3, 9, 17), (3, 9, 20), ([0], [0]), ([1], [1])),
           ((9, 17), (20, 9), ([], []), ([0], [1]))]

# Constant RHS (a weight), packed at compile time into 16-column panels:
# (lhs shape, rhs shape, batching dims, contracting dims) as above.
CONSTANT = [((1, 3), (3, 17), ([], []), ([1], [0])),
            ((3, 513), (513, 1), ([], []), ([1], [0])),
            ((17, 17), (17, 513), ([], []), ([1], [0])),
            ((2, 1), (1, 3), ([], []), ([1], [0])),
            ((33, 300), (300, 40), ([], []), ([1], [0])),
            ((5, 9), (17, 9), ([], []), ([1], [1])),
            ((2, 5, 7), (2, 7, 19), ([0], [0]), ([2], [1])),
            ((3, 5, 7), (7, 17), ([], []), ([2], [0])),
            ((169, 64), (64, 32), ([], []), ([1], [0])),
            ((29, 300), (300, 16), ([], []), ([1], [0])),
            ((19, 1100), (1100, 32), ([], []), ([1], [0]))]


def dense(x):
    """An MLIR dense literal of float32 |x| (exact: 9 significant digits)."""
    if x.ndim == 0:
        return "%.9g" % x
    return "[" + ", ".join(dense(v) for v in x) + "]"


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def dot_general_ref(a, b, batch, contract):
    """float64 result of stablehlo.dot_general: batch, lhs free, rhs free."""
    lb, rb = batch
    lc, rc = contract
    lf = [d for d in range(a.ndim) if d not in lb + lc]
    rf = [d for d in range(b.ndim) if d not in rb + rc]
    at = np.transpose(a, lb + lf + lc).reshape(
        [a.shape[d] for d in lb] + [int(np.prod([a.shape[d] for d in lf]))] +
        [int(np.prod([a.shape[d] for d in lc]))])
    bt = np.transpose(b, rb + rc + rf).reshape(
        [b.shape[d] for d in rb] + [int(np.prod([b.shape[d] for d in rc]))] +
        [int(np.prod([b.shape[d] for d in rf]))])
    out = np.matmul(at, bt)
    return out.reshape([a.shape[d] for d in lb] + [a.shape[d] for d in lf] +
                       [b.shape[d] for d in rf])


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
            for i, (sa, sb, batch, contract) in enumerate(GENERAL):
                a = np.zeros(sa)
                b = np.zeros(sb)
                so = dot_general_ref(a, b, batch, contract).shape
                f.write(
                    "func.func @gmm%d(%%a: %s, %%b: %s) -> %s {\n  %%0 ="
                    " stablehlo.dot_general %%a, %%b, batching_dims = %s x %s,"
                    " contracting_dims = %s x %s : (%s, %s) -> %s\n  return"
                    " %%0 : %s\n}\n" %
                    (i, ty(sa), ty(sb), ty(so), batch[0], batch[1], contract[0],
                     contract[1], ty(sa), ty(sb), ty(so), ty(so)))
                cases.append(("gmm%d" % i, sa, sb, batch, contract))
            for i, (sa, sb, batch, contract) in enumerate(CONSTANT):
                w = rng.standard_normal(sb).astype(np.float32)
                so = dot_general_ref(np.zeros(sa), w, batch, contract).shape
                f.write(
                    "func.func @cmm%d(%%a: %s) -> %s {\n  %%w ="
                    " stablehlo.constant dense<%s> : %s\n  %%0 ="
                    " stablehlo.dot_general %%a, %%w, batching_dims = %s x %s,"
                    " contracting_dims = %s x %s : (%s, %s) -> %s\n  return"
                    " %%0 : %s\n}\n" %
                    (i, ty(sa), ty(so), dense(w), ty(sb), batch[0], batch[1],
                     contract[0], contract[1], ty(sa), ty(sb), ty(so), ty(so)))
                cases.append(("cmm%d" % i, sa, w, batch, contract))
        kmod = os.path.join(work, "mm.kmod")
        dump = os.path.join(work, "dump")
        run([os.path.join(BIN, "kiln-compile"), "--iree-hal-target-backends=llvm-cpu",
             "--iree-llvmcpu-target-cpu=x86-64-v4,x86-64-v3,generic",
             "--iree-hal-dump-executable-sources-to=" + dump, src, "-o", kmod])
        c = open(os.path.join(dump, "dispatches.c")).read()
        kernels = c.count("through the runtime's mmt4d micro-kernel") // 3
        if kernels != len(cases):
            fail("%d of %d matmuls use the micro-kernel" % (kernels, len(cases)))
        # Every constant RHS is packed at compile time: its entry packs only
        # the LHS (no pack reads the rhs binding), and no other is.
        entries = c.split("\n// f32 matmul ")[1:]
        packed = [e for e in entries if "RHS packed at compile time" in e]
        if len(packed) != 3 * len(CONSTANT):
            fail("%d of %d constant-RHS entries read a compile-time packed RHS"
                 % (len(packed) // 3, len(CONSTANT)))
        for e in packed:
            if "pp.in = rhs" in e:
                fail("an entry with a compile-time packed RHS packs it again:\n"
                     + e[:200])
        checked = 0
        for case in cases:
            name, sa, sb = case[:3]
            a = rng.standard_normal(sa).astype(np.float32)
            constant = isinstance(sb, np.ndarray)
            b = sb if constant else rng.standard_normal(sb).astype(np.float32)
            pa, pb = os.path.join(work, "a.npy"), os.path.join(work, "b.npy")
            np.save(pa, a)
            np.save(pb, b)
            inputs = ["--input=@" + pa] + ([] if constant else ["--input=@" + pb])
            if len(case) > 3:
                batch, contract = case[3:]
                ref = dot_general_ref(a.astype(np.float64), b.astype(np.float64),
                                      batch, contract)
                bound = dot_general_ref(np.abs(a).astype(np.float64),
                                        np.abs(b).astype(np.float64), batch,
                                        contract)
                bound *= a.shape[contract[0][0]] * 2.0 ** -23
            else:
                ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
                bound = np.matmul(np.abs(a).astype(np.float64),
                                  np.abs(b).astype(np.float64))
                bound *= a.shape[-1] * 2.0 ** -23
            for cap in ("host", "x86-64-v3", "generic"):
                sync_bits = None
                for device in ("local-sync", "local-task", "local-task-1"):
                    out = os.path.join(work, "out.npy")
                    env = dict(os.environ, KILN_HAL_CPU_ISA_CAP=cap)
                    flags = ["--device=" + device]
                    if device.startswith("local-task"):
                        # 1 or 2 threads (the caller and 0 or 1 pool
                        # workers): tiles spread over them, K never split,
                        # so the bits are local-sync's.
                        flags = ["--device=local-task",
                                 "--task_topology_group_count=" +
                                 ("1" if device.endswith("-1") else "2")]
                    run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                         "--function=" + name, "--output=@" + out] + flags +
                        inputs, env=env)
                    raw = np.load(out)
                    if sync_bits is None:
                        sync_bits = raw.tobytes()
                    elif raw.tobytes() != sync_bits:
                        fail("%s (%s): %s differs from local-sync in its bits" %
                             (name, cap, device))
                    got = raw.astype(np.float64)
                    if got.shape != ref.shape:
                        fail("%s: shape %s, want %s" % (name, got.shape, ref.shape))
                    err = np.abs(got - ref)
                    if np.any(err > bound + 1e-30):
                        i = np.unravel_index(np.argmax(err - bound), err.shape)
                        fail("%s (%s, %s): element %s is %r, want %r (bound %g)" %
                             (name, cap, device, i, got[i], ref[i], bound[i]))
                    checked += 1
        print("matmul_test: %d matmuls x 3 ISA caps x 3 devices (local-sync, "
              "local-task with 2 and 1 workers, bit-identical) = %d runs "
              "match numpy" % (len(cases), checked))


main()
