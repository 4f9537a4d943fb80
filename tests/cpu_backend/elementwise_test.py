#!/usr/bin/env python3
"""llvm-cpu elementwise entries, alone and after a concatenation, and row
max/min entries, against numpy.

Programs of f32 elementwise ops (per-channel scale and shift, ReLU, a
broadcast over a middle dim, a [1, 1, 1, C] scale, SiLU, compare and
select) over shapes whose rows do not fill the entry's row blocks, rank 1;
a concatenation whose only user is a batch-norm + ReLU (along the last dim
and along a middle dim); and row max/min reductions (16-lane groups with
and without a tail, fewer than 16 values, with and without an epilogue),
compiled for llvm-cpu. Each dispatch must run in the elementwise entry,
the concatenation entry with an epilogue or the row reduction entry
(counted in the generated C), match numpy (exact for +, *, max, min,
select; within 4 ulp with an exp), and give local-task the same bits as
local-sync.

Usage: elementwise_test.py BIN_DIR
"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_test_util import compile_llvm_cpu, fail, run  # noqa: E402

BIN = sys.argv[1]


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def bcast(name, src, src_shape, shape, dims):
    return "  %%%s = stablehlo.broadcast_in_dim %%%s, dims = [%s] : (%s) -> %s\n" % (
        name, src, ", ".join(str(d) for d in dims), ty(src_shape), ty(shape))


def bn_relu_tail(x, shape):
    """%x * %s[c] + %t[c], then max(., 0) (channels last), returned."""
    c = shape[-1]
    last = len(shape) - 1
    src = bcast("sb", "s", (c,), shape, [last])
    src += bcast("tb", "t", (c,), shape, [last])
    src += "  %%m = stablehlo.multiply %%%s, %%sb : %s\n" % (x, ty(shape))
    src += "  %%n = stablehlo.add %%m, %%tb : %s\n" % ty(shape)
    src += "  %%z = stablehlo.constant dense<0.0> : %s\n" % ty(shape)
    src += "  %%r = stablehlo.maximum %%n, %%z : %s\n" % ty(shape)
    return src + "  return %%r : %s\n}\n" % ty(shape)


def affine_relu(name, shape):
    """x * s[c] + t[c], then max(., 0): channels last."""
    c = shape[-1]
    src = "func.func @%s(%%x: %s, %%s: %s, %%t: %s) -> %s {\n" % (
        name, ty(shape), ty((c,)), ty((c,)), ty(shape))
    src += bn_relu_tail("x", shape)

    def ref(x, s, t):
        return np.maximum(x * s + t, np.float32(0))
    return src, [shape, (c,), (c,)], ref, 0


def middle_broadcast(name, shape):
    """x + y[d1] (a broadcast over a middle dim), then select(x > 0, ., x)."""
    src = "func.func @%s(%%x: %s, %%y: %s) -> %s {\n" % (
        name, ty(shape), ty((shape[1],)), ty(shape))
    src += bcast("yb", "y", (shape[1],), shape, [1])
    src += "  %%a = stablehlo.add %%x, %%yb : %s\n" % ty(shape)
    src += "  %%z = stablehlo.constant dense<0.0> : %s\n" % ty(shape)
    src += ("  %%p = stablehlo.compare GT, %%x, %%z : (%s, %s) -> "
            "tensor<%sxi1>\n" % (ty(shape), ty(shape),
                                 "x".join(str(d) for d in shape)))
    src += ("  %%r = stablehlo.select %%p, %%a, %%x : tensor<%sxi1>, %s\n"
            % ("x".join(str(d) for d in shape), ty(shape)))
    src += "  return %%r : %s\n}\n" % ty(shape)

    def ref(x, y):
        yb = y.reshape((1, -1) + (1,) * (len(shape) - 2))
        return np.where(x > 0, x + yb, x)
    return src, [shape, (shape[1],)], ref, 0


def unit_dims_scale(name, shape):
    """x * s, s of shape [1, 1, 1, C] broadcast (read at (d0, 0, 0, d3):
    a squeeze-excitation scale)."""
    sshape = (1,) * (len(shape) - 1) + (shape[-1],)
    src = "func.func @%s(%%x: %s, %%s: %s) -> %s {\n" % (
        name, ty(shape), ty(sshape), ty(shape))
    src += bcast("sb", "s", sshape, shape, list(range(len(shape))))
    src += "  %%r = stablehlo.multiply %%x, %%sb : %s\n" % ty(shape)
    src += "  return %%r : %s\n}\n" % ty(shape)

    def ref(x, s):
        return x * s
    return src, [shape, sshape], ref, 0


def row_reduce(name, shape, op, scale):
    """max or min over the last dim (init -inf / +inf), then times 2 when
    |scale| (an epilogue)."""
    out = shape[:-1]
    init = "0xFF800000" if op == "maximum" else "0x7F800000"
    src = "func.func @%s(%%x: %s) -> %s {\n" % (name, ty(shape), ty(out))
    src += "  %%i = stablehlo.constant dense<%s> : tensor<f32>\n" % init
    src += ("  %%m = stablehlo.reduce(%%x init: %%i) applies stablehlo.%s "
            "across dimensions = [%d] : (%s, tensor<f32>) -> %s\n" % (
                op, len(shape) - 1, ty(shape), ty(out)))
    if scale:
        src += "  %%t = stablehlo.constant dense<2.0> : %s\n" % ty(out)
        src += "  %%r = stablehlo.multiply %%m, %%t : %s\n" % ty(out)
        src += "  return %%r : %s\n}\n" % ty(out)
    else:
        src += "  return %%m : %s\n}\n" % ty(out)

    def ref(x):
        r = x.max(axis=-1) if op == "maximum" else x.min(axis=-1)
        return r * np.float32(2) if scale else r
    return src, [shape], ref, 0


def silu(name, shape):
    """x * logistic(x)."""
    src = "func.func @%s(%%x: %s) -> %s {\n" % (name, ty(shape), ty(shape))
    src += "  %%l = stablehlo.logistic %%x : %s\n" % ty(shape)
    src += "  %%r = stablehlo.multiply %%x, %%l : %s\n" % ty(shape)
    src += "  return %%r : %s\n}\n" % ty(shape)

    def ref(x):
        x64 = x.astype(np.float64)
        return (x64 / (1 + np.exp(-x64))).astype(np.float32)
    return src, [shape], ref, 4


def concat_bn_relu(name, a_shape, b_shape, dim):
    """concatenate(a, b) along |dim|, then * s[c] + t[c] and max(., 0)."""
    shape = list(a_shape)
    shape[dim] += b_shape[dim]
    shape = tuple(shape)
    c = shape[-1]
    src = "func.func @%s(%%a: %s, %%b: %s, %%s: %s, %%t: %s) -> %s {\n" % (
        name, ty(a_shape), ty(b_shape), ty((c,)), ty((c,)), ty(shape))
    src += ("  %%k = stablehlo.concatenate %%a, %%b, dim = %d : (%s, %s) -> "
            "%s\n" % (dim, ty(a_shape), ty(b_shape), ty(shape)))
    src += bn_relu_tail("k", shape)

    def ref(a, b, s, t):
        return np.maximum(np.concatenate([a, b], axis=dim) * s + t,
                          np.float32(0))
    return src, [a_shape, b_shape, (c,), (c,)], ref, 0


# Values that min/max with constant bounds must keep exact: NaNs (quiet,
# signaling, negative, with payloads), zeros of both signs, infinities,
# the bounds themselves and subnormals.
SPECIAL_BITS = [0x7fc00000, 0x7f800001, 0xffc00123, 0x7fa00042, 0x00000000,
                0x80000000, 0x7f800000, 0xff800000, 0x40c00000, 0xc0200000,
                0x3fc00000, 0x00000001, 0x80000001, 0xbf800000, 0x40c00001]


def ieee_min_max(a, c, is_max):
    """IEEE 754-2019 maximum/minimum of float32 arrays: a NaN operand gives
    that NaN, quieted; -0 < +0."""
    a, c = np.broadcast_arrays(np.asarray(a, np.float32),
                               np.asarray(c, np.float32))
    r = np.where(a > c, a, c) if is_max else np.where(a < c, a, c)
    ua, uc = a.view(np.uint32), c.view(np.uint32)
    eq = (ua & uc) if is_max else (ua | uc)
    r = np.where(a == c, eq.view(np.float32), r)
    quiet = lambda x: (x.view(np.uint32) | np.uint32(0x00400000)).view(
        np.float32)
    r = np.where(np.isnan(c), quiet(c), r)
    return np.where(np.isnan(a), quiet(a), r)


def bounded(name, shape, ops):
    """A chain of stablehlo min/max ops with constant bounds: |ops| is a list
    of ("maximum" | "minimum", bound, bound first?). Compared bit for bit
    (ulps None) over SPECIAL_BITS and normal values."""
    src = "func.func @%s(%%x: %s) -> %s {\n" % (name, ty(shape), ty(shape))
    prev = "x"
    for i, (op, bound, first) in enumerate(ops):
        src += "  %%c%d = stablehlo.constant dense<0x%08X> : %s\n" % (
            i, np.float32(bound).view(np.uint32), ty(shape))
        lhs, rhs = ("c%d" % i, prev) if first else (prev, "c%d" % i)
        src += "  %%r%d = stablehlo.%s %%%s, %%%s : %s\n" % (
            i, op, lhs, rhs, ty(shape))
        prev = "r%d" % i
    src += "  return %%%s : %s\n}\n" % (prev, ty(shape))

    def ref(x):
        for op, bound, _ in ops:
            x = ieee_min_max(x, np.float32(bound), op == "maximum")
        return x
    return src, [shape], ref, None


def main():
    rng = np.random.default_rng(11)
    # (case, which entry it must use)
    cases = [
        (affine_relu("ew_0", (1, 9, 13, 40)), "elementwise"),
        (affine_relu("ew_1", (3, 17, 1001)), "elementwise"),
        (affine_relu("ew_2", (37,)), "elementwise"),
        (middle_broadcast("ew_3", (2, 5, 7, 3)), "elementwise"),
        (silu("ew_4", (4, 33, 20)), "elementwise"),
        (concat_bn_relu("ew_5", (1, 6, 5, 24), (1, 6, 5, 8), 3), "concat"),
        (concat_bn_relu("ew_6", (2, 3, 4, 16), (2, 5, 4, 16), 1), "concat"),
        (unit_dims_scale("ew_7", (1, 6, 7, 24)), "elementwise"),
        (row_reduce("ew_8", (1, 12, 9, 128), "maximum", False), "row"),
        (row_reduce("ew_9", (3, 7, 37), "minimum", True), "row"),
        (row_reduce("ew_10", (5, 9), "maximum", True), "row"),
        # ReLU6 (a clamp: one NaN select for both bounds), ReLU, a bound
        # first, and the bounds with which the constant-bound forms would
        # not give the general form's bits (-0 for max, +0 for min).
        (bounded("ew_11", (3, 37), [("maximum", 0.0, False),
                                    ("minimum", 6.0, False)]), "elementwise"),
        (bounded("ew_12", (40,), [("maximum", 0.0, True)]), "elementwise"),
        (bounded("ew_13", (2, 21), [("minimum", -2.5, True),
                                    ("maximum", -7.0, False)]), "elementwise"),
        (bounded("ew_14", (2, 21), [("maximum", -0.0, False),
                                    ("minimum", 0.0, False)]), "elementwise"),
        (bounded("ew_15", (25,), [("maximum", float("-inf"), False),
                                  ("minimum", float("inf"), True)]),
         "elementwise"),
    ]
    with tempfile.TemporaryDirectory() as work:
        kmod, c = compile_llvm_cpu(BIN, work, "ew",
                                   "".join(case[0][0] for case in cases))
        want_ew = sum(1 for _, kind in cases if kind == "elementwise")
        got_ew = c.count("// f32 elementwise, ")
        if got_ew != want_ew:
            fail("%d elementwise entries, want %d" % (got_ew, want_ew))
        # A concatenation entry with an epilogue reads eo[o] after copying.
        want_cat = sum(1 for _, kind in cases if kind == "concat")
        got_cat = c.count("// concatenation of ")
        if got_cat != want_cat or c.count("const float v1 = eo[o];") < want_cat:
            fail("%d concatenation entries with epilogues, want %d" %
                 (got_cat, want_cat))
        want_row = sum(1 for _, kind in cases if kind == "row")
        got_row = c.count("// f32 row m")
        if got_row != want_row:
            fail("%d row reduction entries, want %d" % (got_row, want_row))
        if c.count("\nint KILN_CPU_DISPATCH(") != want_ew + want_cat + want_row:
            fail("a dispatch took the generic path")
        # The clamp form for ew_11 and ew_15 (min of a max), the
        # constant-bound forms elsewhere, the general forms for ew_14.
        if c.count("kiln_vm_clamp_f32_const(") != 2:
            fail("ew_11's and ew_15's clips are not one clamp each")
        for i, ((_, shapes, ref, ulps), _) in enumerate(cases):
            args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
            if ulps is None:
                flat = args[0].reshape(-1)
                flat[:len(SPECIAL_BITS)] = np.array(
                    SPECIAL_BITS, np.uint32).view(np.float32)
            want = ref(*args)
            flags = []
            for j, a in enumerate(args):
                path = os.path.join(work, "in%d_%d.npy" % (i, j))
                np.save(path, a)
                flags.append("--input=@" + path)
            got = {}
            for device in ("local-sync", "local-task"):
                out = os.path.join(work, "out%d_%s.npy" % (i, device))
                run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                     "--device=" + device, "--function=ew_%d" % i] + flags +
                    ["--output=@" + out])
                got[device] = np.load(out)
            if got["local-sync"].tobytes() != got["local-task"].tobytes():
                fail("ew_%d: local-task's bits differ from local-sync's" % i)
            g = got["local-sync"]
            if ulps is None:
                want = np.asarray(want, np.float32)
                if g.shape != want.shape or g.tobytes() != want.tobytes():
                    bad = np.argmax(g.view(np.uint32) != want.view(np.uint32))
                    fail("ew_%d: element %d has bits %08x, want %08x" %
                         (i, bad, g.view(np.uint32).ravel()[bad],
                          want.view(np.uint32).ravel()[bad]))
                continue
            tol = ulps * np.spacing(np.abs(want).astype(np.float32))
            if g.shape != want.shape or np.any(np.abs(g - want) > tol):
                bad = np.argmax(np.abs(g - want) - tol)
                fail("ew_%d: element %d is %r, want %r" %
                     (i, bad, g.ravel()[bad], want.ravel()[bad]))
        print("elementwise_test: %d programs checked" % len(cases))


if __name__ == "__main__":
    main()
