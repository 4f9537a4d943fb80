#!/usr/bin/python3
"""ONNX BatchNormalization folding at import, against numpy (float64):

  * Conv (with a bias) -> BatchNormalization -> Relu, constant weights and
    parameters: the normalization folds into the Conv's weights and bias;
  * Conv (no bias) -> BatchNormalization whose Conv output is also read by
    another node: it must not fold (the Add sees the raw convolution);
  * a BatchNormalization of a graph input with constant parameters: the
    host-computed per-channel affine.

Odd channel counts, stride 2, padding; llvm-cpu and vmvx.

Usage: batchnorm_fold_test.py BIN_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]


def conv(x, w, b, stride, pad):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + (oh - 1) * stride + 1:stride,
                       j:j + (ow - 1) * stride + 1:stride]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    if b is not None:
        out += b[None, :, None, None]
    return out


def bn(x, scale, bias, mean, var, eps):
    s = (scale / np.sqrt(var + eps))[None, :, None, None]
    return (x - mean[None, :, None, None]) * s + bias[None, :, None, None]


def main():
    rng = np.random.default_rng(3)

    def arr(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    n, c, h, w, f = 1, 5, 11, 9, 7
    x = arr(n, c, h, w)
    wt, cb = arr(f, c, 3, 3), arr(f)
    scale, bias, mean = arr(f), arr(f), arr(f)
    var = (np.abs(arr(f)) + 0.1).astype(np.float32)
    xs_scale, xs_bias, xs_mean = arr(c), arr(c), arr(c)
    xs_var = (np.abs(arr(c)) + 0.1).astype(np.float32)
    eps = 1e-3
    inits = [numpy_helper.from_array(a, name) for a, name in [
        (wt, "W"), (cb, "B"), (scale, "s"), (bias, "b"), (mean, "m"),
        (var, "v"), (xs_scale, "xs"), (xs_bias, "xb"), (xs_mean, "xm"),
        (xs_var, "xv")]]
    nodes = [
        # 1: folded.
        helper.make_node("Conv", ["x", "W", "B"], ["c1"], pads=[1, 1, 1, 1],
                         strides=[2, 2]),
        helper.make_node("BatchNormalization", ["c1", "s", "b", "m", "v"],
                         ["n1"], epsilon=eps),
        helper.make_node("Relu", ["n1"], ["y1"]),
        # 2: the Conv output has a second reader: not folded.
        helper.make_node("Conv", ["x", "W"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c2", "s", "b", "m", "v"],
                         ["n2"], epsilon=eps),
        helper.make_node("Add", ["c2", "n2"], ["y2"]),
        # 3: a standalone normalization of the input.
        helper.make_node("BatchNormalization", ["x", "xs", "xb", "xm", "xv"],
                         ["y3"], epsilon=eps),
    ]
    x64 = x.astype(np.float64)
    c1 = conv(x64, wt.astype(np.float64), cb.astype(np.float64), 2, 1)
    p = [a.astype(np.float64) for a in (scale, bias, mean, var)]
    y1 = np.maximum(bn(c1, *p, eps), 0.0)
    c2 = conv(x64, wt.astype(np.float64), None, 1, 1)
    y2 = c2 + bn(c2, *p, eps)
    y3 = bn(x64, *[a.astype(np.float64) for a in
                   (xs_scale, xs_bias, xs_mean, xs_var)], eps)
    want = [y1, y2, y3]
    outs = [helper.make_tensor_value_info("y%d" % (i + 1), TensorProto.FLOAT,
                                          list(y.shape))
            for i, y in enumerate(want)]
    graph = helper.make_graph(
        nodes, "bn_fold",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
        outs, initializer=inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 15)])
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "m.onnx")
        with open(path, "wb") as fh:
            fh.write(model.SerializeToString())
        xin = os.path.join(work, "x.npy")
        np.save(xin, x)
        for backend in ("llvm-cpu", "vmvx"):
            kmod = os.path.join(work, "m.kmod")
            r = subprocess.run([os.path.join(BIN, "kiln-compile"),
                                "--iree-hal-target-backends=" + backend, path,
                                "-o", kmod], capture_output=True, text=True)
            if r.returncode:
                sys.exit("FAILED: compile (%s): %s" % (backend, r.stderr))
            got_paths = [os.path.join(work, "o%d.npy" % i) for i in range(3)]
            r = subprocess.run([os.path.join(BIN, "kiln-run-module"),
                                "--module=" + kmod, "--device=local-sync",
                                "--function=bn_fold", "--input=@" + xin] +
                               ["--output=@" + g for g in got_paths],
                               capture_output=True, text=True)
            if r.returncode:
                sys.exit("FAILED: run (%s): %s%s" % (backend, r.stdout,
                                                     r.stderr))
            for i, (g, y) in enumerate(zip(got_paths, want)):
                got = np.load(g).astype(np.float64)
                # f32 accumulation over 45 taps, then the affine.
                tol = 1e-5 * (1.0 + np.abs(y)) * 64
                if got.shape != y.shape or np.any(np.abs(got - y) > tol):
                    k = np.argmax(np.abs(got - y) - tol)
                    sys.exit("FAILED: %s output %d: element %d is %r, want "
                             "%r" % (backend, i + 1, k, got.flat[k], y.flat[k]))
    print("batchnorm_fold_test: passed")


if __name__ == "__main__":
    main()
