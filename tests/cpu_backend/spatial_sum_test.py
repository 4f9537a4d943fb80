#!/usr/bin/env python3
"""llvm-cpu spatial sum entries (global average pooling) against numpy.

linalg.generic sums of f32 images over H and W per (batch, channel), read
channels-last (NHWC: the form convert-conv-to-channels-last gives) and
NCHW, with and without a divide epilogue, channel counts below, at and
above a 64-channel block, batch 2, compiled for llvm-cpu. Each must run in
the spatial sum entry and match numpy's f64 sum rounded to f32 (then
divided in f32) within 2 ulp, on local-sync and local-task with the same
bits.

Usage: spatial_sum_test.py BIN_DIR
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


def case_src(name, shape, nhwc, divide):
    n = shape[0]
    c = shape[3] if nhwc else shape[1]
    pixels = shape[1] * shape[2] if nhwc else shape[2] * shape[3]
    out = ty((n, c))
    img_map = "(d0, d2, d3, d1)" if nhwc else "(d0, d1, d2, d3)"
    src = ("func.func @%s(%%x: %s) -> %s {\n"
           "  %%z = arith.constant dense<0.0> : %s\n"
           "  %%s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2,"
           " d3) -> %s>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>],"
           " iterator_types = [\"parallel\", \"parallel\", \"reduction\","
           " \"reduction\"]} ins(%%x : %s) outs(%%z : %s) {\n"
           "  ^bb0(%%a: f32, %%b: f32):\n"
           "    %%r = arith.addf %%b, %%a : f32\n"
           "    linalg.yield %%r : f32\n"
           "  } -> %s\n" % (name, ty(shape), out, out, img_map, ty(shape),
                            out, out))
    if not divide:
        return src + "  return %%s : %s\n}\n" % out, pixels
    src += ("  %%d = arith.constant dense<%d.0> : %s\n"
            "  %%e = tensor.empty() : %s\n"
            "  %%m = linalg.generic {indexing_maps = [affine_map<(d0, d1) ->"
            " (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0,"
            " d1) -> (d0, d1)>], iterator_types = [\"parallel\","
            " \"parallel\"]} ins(%%s, %%d : %s, %s) outs(%%e : %s) {\n"
            "  ^bb0(%%p: f32, %%q: f32, %%o: f32):\n"
            "    %%v = arith.divf %%p, %%q : f32\n"
            "    linalg.yield %%v : f32\n"
            "  } -> %s\n"
            "  return %%m : %s\n}\n" % (pixels, out, out, out, out, out, out,
                                        out))
    return src, pixels


def main():
    rng = np.random.default_rng(5)
    cases = [  # (shape, nhwc, divide)
        ((1, 7, 7, 40), True, True),
        ((2, 5, 9, 130), True, True),
        ((1, 14, 14, 64), True, False),
        ((2, 33, 4, 6), False, True),
        ((1, 96, 3, 5), False, False),
    ]
    with tempfile.TemporaryDirectory() as work:
        srcs, pixels = [], []
        for i, (shape, nhwc, divide) in enumerate(cases):
            src, p = case_src("sum_%d" % i, shape, nhwc, divide)
            srcs.append(src)
            pixels.append(p)
        kmod, c = compile_llvm_cpu(BIN, work, "sums", "".join(srcs))
        entries = c.count("// f32 sum over ")
        if entries != len(cases):
            fail("%d spatial sum entries, want %d" % (entries, len(cases)))
        for i, (shape, nhwc, divide) in enumerate(cases):
            x = rng.standard_normal(shape).astype(np.float32)
            axes = (1, 2) if nhwc else (2, 3)
            want = x.astype(np.float64).sum(axis=axes).astype(np.float32)
            if divide:
                want = want / np.float32(pixels[i])
            xin = os.path.join(work, "x%d.npy" % i)
            np.save(xin, x)
            got = {}
            for device in ("local-sync", "local-task"):
                out = os.path.join(work, "out%d_%s.npy" % (i, device))
                run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                     "--device=" + device, "--function=sum_%d" % i,
                     "--input=@" + xin, "--output=@" + out])
                got[device] = np.load(out)
            if got["local-sync"].tobytes() != got["local-task"].tobytes():
                fail("sum_%d: local-task's bits differ from local-sync's" % i)
            g = got["local-sync"]
            ulp = np.spacing(np.abs(want).astype(np.float32))
            if g.shape != want.shape or np.any(np.abs(g - want) > 2 * ulp):
                fail("sum_%d: got %s, want %s" % (i, g.ravel()[:4],
                                                   want.ravel()[:4]))
        print("spatial_sum_test: %d entries checked" % len(cases))


if __name__ == "__main__":
    main()
