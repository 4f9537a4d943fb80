#!/usr/bin/env python3
"""llvm-cpu f32 convolutions through the micro-kernels against numpy.

Convolutions (stablehlo.convolution in NHWC/HWIO and NCHW/OIHW, the named
linalg convs, tosa.conv2d with a bias) over odd sizes: 1, 3, 15, 17
channels and pixels, non-multiples of every tile, strides 2, padding,
dilation 2, batch 2, 1x1 (plain matmul packing) and KxK (im2col packing),
K above the entry's K block (1024), more output channels than its column
block (192) and more pixels than its row block (256). Each runs on local-sync and local-task with the CPU features
capped to each ISA variant in turn (KILN_HAL_CPU_ISA_CAP), from one module
with three ISA variants; every convolution must compile to a micro-kernel
entry, and local-task must give local-sync's bits. A two-layer NCHW chain
(conv, bias, relu, conv, depthwise, residual add, pool) runs with
--kiln-conv-channels-last on and off, and with a NaN pixel (the bias + relu,
handed to mmt4d channels-last, must keep it NaN). Tolerance: the f32 bound of a length-K dot product, K * 2^-23 *
sum |x||w|, against a float64 reference.

Then 3x3 stride-1 convolutions with constant filters, 16+ input and 32+
output channels (the Winograd F(4x4, 3x3) path; H, W of 1, 3, 5, 7, 13,
19, 21, 56, channels 16, 32,
33, 64, batch 2, with and without padding, a bias + relu epilogue), same
ISA caps and devices, compiled with --kiln-llvmcpu-winograd=always (the
default skips images of under 16 tiles); their bound is the direct one
times WINOGRAD_ERROR_FACTOR (the transforms' constants grow the rounding
error); =false must compute them all directly and the default only the
large ones.

Usage: conv_test.py BIN_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

BIN = sys.argv[1]
# (batch, H, W, C, F, kernel, stride, pad, dilation, layout)
CASES = [
    (1, 1, 1, 1, 1, 1, 1, 0, 1, "nhwc"),
    (1, 17, 19, 3, 17, 3, 1, 1, 1, "nhwc"),
    (2, 17, 15, 17, 15, 3, 2, 1, 1, "nhwc"),
    (1, 16, 16, 15, 3, 3, 1, 2, 2, "nhwc"),
    (1, 9, 9, 17, 33, 1, 1, 0, 1, "nhwc"),
    (2, 9, 9, 17, 33, 1, 2, 0, 1, "nhwc"),
    (1, 23, 23, 3, 16, 7, 2, 3, 1, "nhwc"),
    (1, 7, 7, 64, 17, 3, 1, 1, 1, "nhwc"),
    (1, 5, 5, 4, 300, 3, 1, 1, 1, "nhwc"),
    # K = 3 * 3 * 130 = 1170: two K blocks of the im2col entry.
    (1, 6, 6, 130, 17, 3, 2, 1, 1, "nhwc"),
    (1, 1, 1, 3, 1, 1, 1, 0, 1, "nchw"),
    # One pixel, several channels (a squeeze-and-excitation 1x1 conv): the
    # output's row stride is free and must still cover a row.
    (1, 1, 1, 32, 8, 1, 1, 0, 1, "nchw"),
    (1, 1, 1, 32, 8, 1, 1, 0, 1, "tosa"),
    (2, 17, 19, 3, 17, 3, 1, 1, 1, "nchw"),
    (1, 17, 15, 17, 15, 3, 2, 0, 2, "nchw"),
    (2, 9, 9, 17, 33, 1, 1, 0, 1, "nchw"),
    (1, 9, 11, 60, 5, 3, 2, 1, 1, "nchw"),
    (2, 15, 17, 15, 3, 3, 1, 1, 1, "linalg_nhwc_fhwc"),
    (1, 15, 17, 3, 17, 3, 2, 0, 1, "linalg_nchw_fchw"),
    (2, 15, 17, 5, 17, 3, 1, 1, 2, "tosa"),
]


# (batch, H, W, C, F, pad, bias + relu epilogue): Winograd cases.
WINOGRAD_CASES = [
    (2, 1, 1, 32, 32, 1, True),
    (1, 3, 5, 33, 32, 1, False),
    (2, 5, 3, 32, 33, 0, True),
    (1, 7, 7, 64, 64, 1, True),
    (2, 13, 7, 33, 64, 0, False),
    (1, 13, 13, 64, 33, 1, False),
    (1, 56, 56, 32, 33, 1, True),
    # The fewest input channels Winograd takes (SqueezeNet's 55x55 layers).
    (1, 21, 19, 16, 40, 1, True),
]
# The direct bound (K * 2^-23 * sum |x||w|) is a worst case for the direct
# sum; Winograd's transforms (entries up to 8 in A, 5 in B) grow rounding
# errors, so it gets 4x that. Measured: the worst Winograd error is about 8%
# of the unscaled bound, while any wrong tap is of order |x||w|.
WINOGRAD_ERROR_FACTOR = 4.0


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_test_util import fail, run  # noqa: E402


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def out_size(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def conv_nhwc(x, w, s, p, d):
    """x: N H W C, w: KH KW C F (float64) -> N OH OW F."""
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    oh, ow = out_size(h, kh, s, p, d), out_size(wd, kw, s, p, d)
    out = np.zeros((n, oh, ow, f))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * d:i * d + (oh - 1) * s + 1:s,
                       j * d:j * d + (ow - 1) * s + 1:s, :]
            out += np.einsum("nhwc,cf->nhwf", patch, w[i, j])
    return out


def case_source(i, case):
    """Returns (MLIR function, image shape, filter shape, extra input, to
    NHWC/HWCF converters)."""
    n, h, w, c, f, k, s, p, d, layout = case
    oh, ow = out_size(h, k, s, p, d), out_size(w, k, s, p, d)
    name = "conv%d" % i
    if layout in ("nhwc", "nchw"):
        if layout == "nhwc":
            xs, ws, os_ = (n, h, w, c), (k, k, c, f), (n, oh, ow, f)
            dims = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
        else:
            xs, ws, os_ = (n, c, h, w), (f, c, k, k), (n, f, oh, ow)
            dims = "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
        src = ("func.func @%s(%%x: %s, %%w: %s) -> %s {\n"
               "  %%0 = stablehlo.convolution(%%x, %%w) dim_numbers = %s,"
               " window = {stride = [%d, %d], pad = [[%d, %d], [%d, %d]],"
               " rhs_dilate = [%d, %d]} {batch_group_count = 1 : i64,"
               " feature_group_count = 1 : i64} : (%s, %s) -> %s\n"
               "  return %%0 : %s\n}\n" %
               (name, ty(xs), ty(ws), ty(os_), dims, s, s, p, p, p, p, d, d,
                ty(xs), ty(ws), ty(os_), ty(os_)))
        return name, src, xs, ws, None, layout
    if layout.startswith("linalg"):
        assert p == 0 or layout == "linalg_nhwc_fhwc"
        # The named ops take the padded image.
        hp, wp = h + 2 * p, w + 2 * p
        if layout == "linalg_nhwc_fhwc":
            xs, ws, os_ = (n, hp, wp, c), (f, k, k, c), (n, oh, ow, f)
            op = "linalg.conv_2d_nhwc_fhwc"
        else:
            xs, ws, os_ = (n, c, hp, wp), (f, c, k, k), (n, f, oh, ow)
            op = "linalg.conv_2d_nchw_fchw"
        src = ("func.func @%s(%%x: %s, %%w: %s) -> %s {\n"
               "  %%z = arith.constant dense<0.0> : %s\n"
               "  %%0 = %s {dilations = dense<%d> : tensor<2xi64>, strides ="
               " dense<%d> : tensor<2xi64>} ins(%%x, %%w : %s, %s) outs(%%z :"
               " %s) -> %s\n  return %%0 : %s\n}\n" %
               (name, ty(xs), ty(ws), ty(os_), ty(os_), op, d, s, ty(xs),
                ty(ws), ty(os_), ty(os_), ty(os_)))
        return name, src, xs, ws, None, layout
    # tosa.conv2d: NHWC image, FHWC filter, a bias per output channel.
    xs, ws, os_ = (n, h, w, c), (f, k, k, c), (n, oh, ow, f)
    src = ("func.func @%s(%%x: %s, %%w: %s, %%b: tensor<%dxf32>) -> %s {\n"
           "  %%zp = \"tosa.const\"() <{values = dense<[0.0]> :"
           " tensor<1xf32>}> : () -> tensor<1xf32>\n"
           "  %%0 = tosa.conv2d %%x, %%w, %%b, %%zp, %%zp {acc_type = f32,"
           " dilation = array<i64: %d, %d>, pad = array<i64: %d, %d, %d, %d>,"
           " stride = array<i64: %d, %d>} : (%s, %s, tensor<%dxf32>,"
           " tensor<1xf32>, tensor<1xf32>) -> %s\n  return %%0 : %s\n}\n" %
           (name, ty(xs), ty(ws), f, ty(os_), d, d, p, p, p, p, s, s, ty(xs),
            ty(ws), f, ty(os_), ty(os_)))
    return name, src, xs, ws, (f,), layout


def reference(case, x, w, b):
    """float64 result and error bound in the case's output layout."""
    n, h, wd, c, f, k, s, p, d, layout = case
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    if layout == "nhwc":
        xn, wn, pad = x, w, p
    elif layout == "nchw":
        xn, wn, pad = x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), p
    elif layout == "linalg_nhwc_fhwc":
        xn, wn, pad = x, w.transpose(1, 2, 3, 0), 0
    elif layout == "linalg_nchw_fchw":
        xn, wn, pad = x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), 0
    else:
        xn, wn, pad = x, w.transpose(1, 2, 3, 0), p
    ref = conv_nhwc(xn, wn, s, pad, d)
    bound = conv_nhwc(np.abs(xn), np.abs(wn), s, pad, d)
    bound *= c * k * k * 2.0 ** -23
    if b is not None:
        ref += b.astype(np.float64)
        bound += np.abs(ref) * 2.0 ** -23
    if layout in ("nchw", "linalg_nchw_fchw"):
        ref, bound = ref.transpose(0, 3, 1, 2), bound.transpose(0, 3, 1, 2)
    return ref, bound


# A two-layer NCHW chain (the shape of a residual block): conv 3x3 + bias +
# relu, conv 1x1, depthwise conv 3x3, residual add of the relu, max pool
# 2x2/2. convert-conv-to-channels-last runs it all channels-last with one
# transpose at each edge; the result must match numpy with the pass on and
# off, and each convolution and the pool must take a micro-kernel or direct
# entry (the channels-last depthwise and pooling entries with the pass on).
CHAIN = """func.func @chain(%x: tensor<1x8x10x12xf32>, %w1: tensor<16x8x3x3xf32>,
    %b1: tensor<16xf32>, %w2: tensor<16x16x1x1xf32>,
    %wd: tensor<16x1x3x3xf32>) -> tensor<1x16x5x6xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<1x16x10x12xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c1 = stablehlo.convolution(%x, %w1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x10x12xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x10x12xf32>
  %bb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<16xf32>) -> tensor<1x16x10x12xf32>
  %a1 = stablehlo.add %c1, %bb : tensor<1x16x10x12xf32>
  %r1 = stablehlo.maximum %a1, %zero : tensor<1x16x10x12xf32>
  %c2 = stablehlo.convolution(%r1, %w2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x10x12xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x10x12xf32>
  %d = stablehlo.convolution(%c2, %wd) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<1x16x10x12xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x10x12xf32>
  %s = stablehlo.add %d, %r1 : tensor<1x16x10x12xf32>
  %p = "stablehlo.reduce_window"(%s, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : (tensor<1x16x10x12xf32>, tensor<f32>) -> tensor<1x16x5x6xf32>
  return %p : tensor<1x16x5x6xf32>
}
"""


def chain_reference(x, w1, b1, w2, wd):
    """float64 NCHW result of CHAIN."""
    x, w1, b1, w2, wd = (a.astype(np.float64) for a in (x, w1, b1, w2, wd))
    xn = x.transpose(0, 2, 3, 1)
    c1 = conv_nhwc(xn, w1.transpose(2, 3, 1, 0), 1, 1, 1)
    r1 = np.maximum(c1 + b1, 0.0)
    c2 = conv_nhwc(r1, w2.transpose(2, 3, 1, 0), 1, 0, 1)
    cp = np.pad(c2, ((0, 0), (1, 1), (1, 1), (0, 0)))
    d = np.zeros_like(c2)
    for i in range(3):
        for j in range(3):
            d += cp[:, i:i + 10, j:j + 12, :] * wd[:, 0, i, j]
    s = d + r1
    p = s.reshape(1, 5, 2, 6, 2, 16).max(axis=(2, 4))
    return p.transpose(0, 3, 1, 2)


def chain_test(work, rng):
    src_path = os.path.join(work, "chain.mlir")
    with open(src_path, "w") as f:
        f.write(CHAIN)
    shapes = [(1, 8, 10, 12), (16, 8, 3, 3), (16,), (16, 16, 1, 1),
              (16, 1, 3, 3)]
    args = [rng.standard_normal(sh).astype(np.float32) for sh in shapes]
    inputs = []
    for j, a in enumerate(args):
        path = os.path.join(work, "chain%d.npy" % j)
        np.save(path, a)
        inputs.append("--input=@" + path)
    ref = chain_reference(*args)
    tol = 1e-5 * np.abs(ref).max()
    runs = 0
    for flag in ("true", "false"):
        kmod = os.path.join(work, "chain-%s.kmod" % flag)
        dump = os.path.join(work, "chain-dump-%s" % flag)
        run([os.path.join(BIN, "kiln-compile"),
             "--iree-hal-target-backends=llvm-cpu",
             "--kiln-conv-channels-last=" + flag,
             "--iree-hal-dump-executable-sources-to=" + dump, src_path, "-o",
             kmod])
        c = open(os.path.join(dump, "dispatches.c")).read()
        if c.count("// f32 convolution ") + c.count("// f32 1x1 convolution ") != 2:
            fail("chain (channels-last=%s): both convolutions should use the "
                 "micro-kernel" % flag)
        want = "NHWC): direct" if flag == "true" else "one channel plane"
        if c.count("// f32 depthwise convolution ") != 1 or want not in c:
            fail("chain (channels-last=%s): the depthwise convolution should "
                 "take the %s entry" % (flag, want))
        # Channels-last, the first convolution's bias + ReLU is along the
        # output rows' columns: mmt4d applies it to each tile it writes.
        # NCHW puts the bias along the rows: the entry's own pass.
        clamps = c.count("mp.flags |= KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP;")
        if (clamps > 0) != (flag == "true"):
            fail("chain (channels-last=%s): %d entries hand the bias + relu "
                 "to mmt4d" % (flag, clamps))
        pools = [l for l in c.splitlines() if l.startswith("// f32 max pooling")]
        if len(pools) != 1 or ("NHWC" in pools[0]) != (flag == "true"):
            fail("chain (channels-last=%s): the max pool should take the "
                 "%s pooling entry" % (flag, "NHWC" if flag == "true" else "NCHW"))
        first = None
        for device in ("local-sync", "local-task", "nan"):
            # "nan": one NaN pixel of x, which the bias + relu (in mmt4d or
            # the entry's pass) must keep NaN; the ref has it in the same
            # places.
            out = os.path.join(work, "chain-out.npy")
            run_inputs, run_ref = inputs, ref
            if device == "nan":
                xn = args[0].copy()
                xn[0, 3, 4, 5] = np.nan
                np.save(os.path.join(work, "chain-nan.npy"), xn)
                run_inputs = (["--input=@" + os.path.join(work, "chain-nan.npy")]
                              + inputs[1:])
                run_ref = chain_reference(xn, *args[1:])
            run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                 "--device=" + ("local-sync" if device == "nan" else device),
                 "--function=chain"] + run_inputs + ["--output=@" + out])
            got = np.load(out).astype(np.float64)
            if got.shape != run_ref.shape:
                fail("chain: shape %s, want %s" % (got.shape, run_ref.shape))
            if device == "nan":
                if (not np.isnan(run_ref).any() or
                        not np.array_equal(np.isnan(got), np.isnan(run_ref))):
                    fail("chain (channels-last=%s): %d NaNs, want %d (first "
                         "%s)" % (flag, np.isnan(got).sum(),
                                  np.isnan(run_ref).sum(),
                                  np.argwhere(np.isnan(run_ref))[:1].tolist()))
                ok = ~np.isnan(run_ref)
                if np.any(np.abs(got[ok] - run_ref[ok]) >
                          tol + 1e-4 * np.abs(run_ref[ok])):
                    fail("chain (channels-last=%s): a non-NaN element differs "
                         "with a NaN input" % flag)
                runs += 1
                continue
            err = np.abs(got - ref)
            if np.any(err > tol + 1e-4 * np.abs(ref)):
                i = np.unravel_index(np.argmax(err), err.shape)
                fail("chain (channels-last=%s, %s): element %s is %r, want %r"
                     % (flag, device, i, got[i], ref[i]))
            if first is None:
                first = got
            elif not np.array_equal(first, got):
                fail("chain (channels-last=%s): local-task differs from "
                     "local-sync" % flag)
            runs += 1
    print("conv_test: the NCHW chain matches numpy (%d runs)" % runs)


# A channels-last 1x1 convolution + bias + SiLU (x * logistic(x), as ONNX's
# Sigmoid and Mul come in): mmt4d applies the bias and SiLU to each call's
# tiles (KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU). 32 output channels, 120 pixels
# (7 full row tiles and a piece of 8), inputs large enough for SiLU's tiny
# and subnormal results (t near -100) and one NaN pixel.
SILU = """func.func @silu(%x: tensor<1x12x10x16xf32>, %w: tensor<1x1x16x32xf32>,
    %b: tensor<32xf32>) -> tensor<1x12x10x32xf32> {
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x12x10x16xf32>, tensor<1x1x16x32xf32>) -> tensor<1x12x10x32xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<32xf32>) -> tensor<1x12x10x32xf32>
  %a = stablehlo.add %c, %bb : tensor<1x12x10x32xf32>
  %l = stablehlo.logistic %a : tensor<1x12x10x32xf32>
  %s = stablehlo.multiply %a, %l : tensor<1x12x10x32xf32>
  return %s : tensor<1x12x10x32xf32>
}
func.func @not_silu(%x: tensor<1x12x10x16xf32>, %w: tensor<1x1x16x32xf32>,
    %b: tensor<32xf32>) -> tensor<1x12x10x32xf32> {
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x12x10x16xf32>, tensor<1x1x16x32xf32>) -> tensor<1x12x10x32xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<32xf32>) -> tensor<1x12x10x32xf32>
  %a = stablehlo.add %c, %bb : tensor<1x12x10x32xf32>
  %a2 = stablehlo.add %a, %a : tensor<1x12x10x32xf32>
  %l = stablehlo.logistic %a2 : tensor<1x12x10x32xf32>
  %s = stablehlo.multiply %a, %l : tensor<1x12x10x32xf32>
  return %s : tensor<1x12x10x32xf32>
}
"""


def silu_test(work, rng):
    src_path = os.path.join(work, "silu.mlir")
    with open(src_path, "w") as f:
        f.write(SILU)
    x = (rng.standard_normal((1, 12, 10, 16)) * 8).astype(np.float32)
    w = rng.standard_normal((1, 1, 16, 32)).astype(np.float32)
    b = (rng.standard_normal((32,)) * 4).astype(np.float32)
    x[0, 3, 4, 5] = np.nan
    inputs = []
    for j, a in enumerate((x, w, b)):
        path = os.path.join(work, "silu%d.npy" % j)
        np.save(path, a)
        inputs.append("--input=@" + path)
    t = np.einsum("nhwc,cf->nhwf", x.astype(np.float64),
                  w[0, 0].astype(np.float64)) + b
    with np.errstate(over="ignore", invalid="ignore"):
        ref = t / (1.0 + np.exp(-t))
    if np.nanmin(t) > -80:
        fail("silu: the inputs should reach SiLU's tiny results")
    # The products' rounding (K = 16) carried through SiLU's slope (< 1.1).
    bound = (np.einsum("nhwc,cf->nhwf", np.abs(x.astype(np.float64)),
                       np.abs(w[0, 0].astype(np.float64))) + np.abs(b)) * \
        16 * 2.0 ** -23 * 1.1 + np.abs(ref) * 2.0 ** -20
    kmod = os.path.join(work, "silu.kmod")
    dump = os.path.join(work, "silu-dump")
    run([os.path.join(BIN, "kiln-compile"),
         "--iree-hal-target-backends=llvm-cpu",
         "--iree-hal-dump-executable-sources-to=" + dump, src_path, "-o",
         kmod])
    c = open(os.path.join(dump, "dispatches.c")).read()
    # Only @silu's epilogue is SiLU (@not_silu's logistic reads 2t).
    if c.count("mp.flags |= KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU;") != 1:
        fail("silu: the bias + SiLU (and only it) should go to mmt4d")
    with np.errstate(over="ignore", invalid="ignore"):
        not_ref = t / (1.0 + np.exp(-2 * t))
    for fn, fref in (("not_silu", not_ref), ("silu", ref)):
        out = os.path.join(work, "silu-out.npy")
        run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
             "--device=local-sync", "--function=" + fn] + inputs +
            ["--output=@" + out])
        got = np.load(out).astype(np.float64)
        ok = ~np.isnan(fref)
        if (not np.array_equal(np.isnan(got), np.isnan(fref)) or
                np.any(np.abs(got[ok] - fref[ok]) > 2 * bound[ok])):
            fail("%s: differs from numpy" % fn)
    first = None
    for device in ("local-sync", "local-task"):
        out = os.path.join(work, "silu-out.npy")
        run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
             "--device=" + device, "--function=silu"] + inputs +
            ["--output=@" + out])
        got = np.load(out).astype(np.float64)
        if not np.array_equal(np.isnan(got), np.isnan(ref)):
            fail("silu (%s): %d NaNs, want %d" % (device, np.isnan(got).sum(),
                                                  np.isnan(ref).sum()))
        ok = ~np.isnan(ref)
        err = np.abs(got[ok] - ref[ok])
        if np.any(err > bound[ok]):
            i = np.argmax(err - bound[ok])
            fail("silu (%s): %r, want %r" % (device, got[ok][i], ref[ok][i]))
        if first is None:
            first = got
        elif not np.array_equal(first, got, equal_nan=True):
            fail("silu: local-task differs from local-sync")
    print("conv_test: the 1x1 convolution + bias + SiLU matches numpy")


def main():
    rng = np.random.default_rng(5)
    with tempfile.TemporaryDirectory() as work:
        src_path = os.path.join(work, "conv.mlir")
        cases = []
        with open(src_path, "w") as f:
            for i, case in enumerate(CASES):
                name, src, xs, ws, bs, layout = case_source(i, case)
                f.write(src)
                cases.append((name, case, xs, ws, bs))
        kmod = os.path.join(work, "conv.kmod")
        dump = os.path.join(work, "dump")
        run([os.path.join(BIN, "kiln-compile"),
             "--iree-hal-target-backends=llvm-cpu",
             "--iree-llvmcpu-target-cpu=x86-64-v4,x86-64-v3,generic",
             "--iree-hal-dump-executable-sources-to=" + dump, src_path, "-o",
             kmod])
        c = open(os.path.join(dump, "dispatches.c")).read()
        kernels = (c.count("// f32 convolution ") +
                   c.count("// f32 1x1 convolution ")) // 3
        if kernels != len(cases):
            fail("%d of %d convolutions use the micro-kernel" %
                 (kernels, len(cases)))
        pointwise = sum(1 for _, cs, _, _, _ in cases if cs[5] == 1 and cs[6] == 1)
        if c.count("// f32 1x1 convolution ") // 3 != pointwise:
            fail("the 1x1 stride-1 convolutions should pack as matmuls")
        checked = 0
        for name, case, xs, ws, bs in cases:
            x = rng.standard_normal(xs).astype(np.float32)
            w = rng.standard_normal(ws).astype(np.float32)
            b = rng.standard_normal(bs).astype(np.float32) if bs else None
            inputs = []
            for j, a in enumerate([x, w] + ([b] if b is not None else [])):
                path = os.path.join(work, "in%d.npy" % j)
                np.save(path, a)
                inputs.append("--input=@" + path)
            ref, bound = reference(case, x, w, b)
            for cap in ("host", "x86-64-v3", "generic"):
                first = None
                for device in ("local-sync", "local-task"):
                    out = os.path.join(work, "out.npy")
                    env = dict(os.environ, KILN_HAL_CPU_ISA_CAP=cap)
                    run([os.path.join(BIN, "kiln-run-module"),
                         "--module=" + kmod, "--device=" + device,
                         "--function=" + name] + inputs +
                        ["--output=@" + out], env=env)
                    got = np.load(out).astype(np.float64)
                    if got.shape != ref.shape:
                        fail("%s %s: shape %s, want %s" %
                             (name, case, got.shape, ref.shape))
                    err = np.abs(got - ref)
                    if np.any(err > bound + 1e-30):
                        i = np.unravel_index(np.argmax(err - bound), err.shape)
                        fail("%s %s (%s, %s): element %s is %r, want %r "
                             "(bound %g)" % (name, case, cap, device, i,
                                             got[i], ref[i], bound[i]))
                    # Workers split pixels and channels, never K: the same
                    # bits on one thread and on the worker pool.
                    if first is None:
                        first = got
                    elif not np.array_equal(first, got):
                        fail("%s %s (%s): local-task differs from local-sync" %
                             (name, case, cap))
                    checked += 1
        print("conv_test: %d convolutions x 3 ISA caps x 2 devices = %d runs "
              "match numpy" % (len(cases), checked))
        chain_test(work, rng)
        silu_test(work, rng)


def winograd_main():
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as work:
        src_path = os.path.join(work, "wino.mlir")
        data = []
        with open(src_path, "w") as fsrc:
            for i, (n, h, w, c, f, p, bias) in enumerate(WINOGRAD_CASES):
                x = rng.standard_normal((n, h, w, c)).astype(np.float32)
                wt = rng.standard_normal((3, 3, c, f)).astype(np.float32)
                b = rng.standard_normal((f,)).astype(np.float32)
                oh, ow = h + 2 * p - 2, w + 2 * p - 2
                xs, ws, os_ = (n, h, w, c), (3, 3, c, f), (n, oh, ow, f)
                body = ("  %%w = stablehlo.constant dense<%s> : %s\n" %
                        (json.dumps(wt.tolist()), ty(ws)))
                body += (
                    "  %%0 = stablehlo.convolution(%%x, %%w) dim_numbers ="
                    " [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window ="
                    " {stride = [1, 1], pad = [[%d, %d], [%d, %d]],"
                    " rhs_dilate = [1, 1]} {batch_group_count = 1 : i64,"
                    " feature_group_count = 1 : i64} : (%s, %s) -> %s\n" %
                    (p, p, p, p, ty(xs), ty(ws), ty(os_)))
                res = "%0"
                if bias:
                    body += ("  %%b = stablehlo.constant dense<%s> :"
                             " tensor<%dxf32>\n" % (json.dumps(b.tolist()), f))
                    body += ("  %%bb = stablehlo.broadcast_in_dim %%b, dims ="
                             " [3] : (tensor<%dxf32>) -> %s\n" % (f, ty(os_)))
                    body += "  %%1 = stablehlo.add %%0, %%bb : %s\n" % ty(os_)
                    body += ("  %%z = stablehlo.constant dense<0.0> : %s\n" %
                             ty(os_))
                    body += ("  %%2 = stablehlo.maximum %%1, %%z : %s\n" %
                             ty(os_))
                    res = "%2"
                fsrc.write("func.func @wino%d(%%x: %s) -> %s {\n%s  return %s"
                           " : %s\n}\n" % (i, ty(xs), ty(os_), body, res,
                                            ty(os_)))
                data.append((x, wt, b if bias else None, p))
        kmod = os.path.join(work, "wino.kmod")
        # The default takes images of 16+ tiles only (the 13x13 and 56x56
        # cases); "always" takes every case (its module is the one run).
        for enabled in ("false", "true", "always"):
            dump = os.path.join(work, "dump" + enabled)
            run([os.path.join(BIN, "kiln-compile"),
                 "--iree-hal-target-backends=llvm-cpu",
                 "--iree-llvmcpu-target-cpu=x86-64-v4,x86-64-v3,generic",
                 "--kiln-llvmcpu-winograd=" + enabled,
                 "--iree-hal-dump-executable-sources-to=" + dump, src_path,
                 "-o", kmod])
            c = open(os.path.join(dump, "dispatches.c")).read()
            count = c.count("Winograd F(4x4, 3x3)") // 3
            want = {"false": 0, "always": len(WINOGRAD_CASES),
                    "true": sum(1 for cs in WINOGRAD_CASES
                                if ((cs[1] + 2 * cs[5] - 2 + 3) // 4) *
                                ((cs[2] + 2 * cs[5] - 2 + 3) // 4) >= 16)}[
                                    enabled]
            if count != want:
                fail("--kiln-llvmcpu-winograd=%s: %d of %d convolutions use "
                     "Winograd, want %d" % (enabled, count,
                                            len(WINOGRAD_CASES), want))
            # Winograd's input transform reads through a zero padding's
            # bounds, so a padded convolution is one dispatch (the padding
            # is folded into it, not copied by a dispatch of its own).
            if enabled == "always":
                meta = subprocess.run(
                    [os.path.join(BIN, "kiln-dump-module"),
                     "--output=metadata", kmod], capture_output=True,
                    text=True, check=True).stdout
                entries = meta.count("  entry @")
                if entries != len(WINOGRAD_CASES):
                    fail("--kiln-llvmcpu-winograd=always: %d dispatches for "
                         "%d convolutions (paddings not folded)" %
                         (entries, len(WINOGRAD_CASES)))
        checked, worst = 0, 0.0
        for i, (x, wt, b, p) in enumerate(data):
            xd, wd = x.astype(np.float64), wt.astype(np.float64)
            ref = conv_nhwc(xd, wd, 1, p, 1)
            bound = conv_nhwc(np.abs(xd), np.abs(wd), 1, p, 1)
            bound *= x.shape[3] * 9 * 2.0 ** -23 * WINOGRAD_ERROR_FACTOR
            if b is not None:
                ref = np.maximum(ref + b.astype(np.float64), 0.0)
                bound += np.abs(ref) * 2.0 ** -23
            path = os.path.join(work, "x.npy")
            np.save(path, x)
            for cap in ("host", "x86-64-v3", "generic"):
                first = None
                for device in ("local-sync", "local-task"):
                    out = os.path.join(work, "out.npy")
                    env = dict(os.environ, KILN_HAL_CPU_ISA_CAP=cap)
                    run([os.path.join(BIN, "kiln-run-module"),
                         "--module=" + kmod, "--device=" + device,
                         "--function=wino%d" % i, "--input=@" + path,
                         "--output=@" + out], env=env)
                    got = np.load(out).astype(np.float64)
                    if got.shape != ref.shape:
                        fail("wino%d: shape %s, want %s" %
                             (i, got.shape, ref.shape))
                    err = np.abs(got - ref)
                    worst = max(worst, float(np.max(err / (bound + 1e-30))))
                    if np.any(err > bound + 1e-30):
                        j = np.unravel_index(np.argmax(err - bound), err.shape)
                        fail("wino%d %s (%s, %s): element %s is %r, want %r "
                             "(bound %g)" % (i, WINOGRAD_CASES[i], cap, device,
                                             j, got[j], ref[j], bound[j]))
                    if first is None:
                        first = got
                    elif not np.array_equal(first, got):
                        fail("wino%d (%s): local-task differs from local-sync"
                             % (i, cap))
                    checked += 1
        print("conv_test: %d Winograd convolutions x 3 ISA caps x 2 devices = "
              "%d runs match numpy (worst error %.3g of the bound)" %
              (len(WINOGRAD_CASES), checked, worst))


main()
winograd_main()
