#!/usr/bin/env python3
"""Compiles samples/mlp.mlir, runs it on one device with a fixed input and
compares the result with the same MLP computed by numpy from the weights
parsed out of the .mlir (relative error max|got - ref| / max|ref| <= 1e-5).

Usage: mlp_test.py BIN_DIR MLP_MLIR DEVICE
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def parse_constants(text):
    """name -> np.float32 array for every `%name = stablehlo.constant`."""
    out = {}
    pattern = re.compile(
        r"%(\w+)\s*=\s*stablehlo\.constant\s+dense<(.*?)>\s*:\s*tensor<([0-9x]*)f32>",
        re.S)
    for name, body, shape in pattern.findall(text):
        dims = [int(d) for d in shape.split("x") if d]
        values = np.array([float(v) for v in re.findall(
            r"[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?", body)],
                          dtype=np.float32)
        if values.size == 1:
            values = np.full(dims, values[0], dtype=np.float32)
        out[name] = values.reshape(dims)
    return out


def main():
    bin_dir, source, device = sys.argv[1:4]
    with open(source) as f:
        c = parse_constants(f.read())
    for name in ("w1", "b1", "w2", "b2"):
        if name not in c:
            sys.exit("mlp_test: constant %%%s not found in %s" % (name, source))
    x = (np.arange(32, dtype=np.float32).reshape(4, 8) - 15.5) / 8.0
    x[1] *= -1.0
    # The reference, in float64 from the same float32 weights.
    h = np.maximum(x.astype(np.float64) @ c["w1"] + c["b1"], 0.0)
    ref = h @ c["w2"] + c["b2"]
    with tempfile.TemporaryDirectory() as work:
        kmod = os.path.join(work, "mlp.kmod")
        xin = os.path.join(work, "x.npy")
        out = os.path.join(work, "out.npy")
        np.save(xin, x)
        subprocess.run([os.path.join(bin_dir, "kiln-compile"), source, "-o",
                        kmod], check=True)
        subprocess.run([os.path.join(bin_dir, "kiln-run-module"),
                        "--module=" + kmod, "--device=" + device,
                        "--function=mlp", "--input=@" + xin,
                        "--output=@" + out], check=True)
        got = np.load(out)
    if got.shape != ref.shape or got.dtype != np.float32:
        sys.exit("mlp_test: result %s %s, expected %s float32" %
                 (got.shape, got.dtype, ref.shape))
    # Norm-wise relative error: float32 accumulation differs from the
    # float64 reference by a few ulps of the largest terms.
    err = np.abs(got.astype(np.float64) - ref)
    rel = float(err.max() / np.abs(ref).max())
    if not rel <= 1e-5:
        i = np.unravel_index(np.argmax(err), err.shape)
        sys.exit("mlp_test: relative error %.3g above 1e-5: element %s is %r, "
                 "expected %r" % (rel, i, float(got[i]), float(ref[i])))
    print("mlp_test: %s matches numpy (relative error %.3g)" % (device, rel))


if __name__ == "__main__":
    main()
