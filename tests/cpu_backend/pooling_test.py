#!/usr/bin/env python3
"""llvm-cpu pooling entries and padding folded into window entries.

ONNX MaxPool / AveragePool (kernel, strides, pads, dilations, ceil_mode,
count_include_pad) and depthwise Conv models with odd sizes, stride 2,
asymmetric padding and batch 2, compiled for llvm-cpu. Each pooling must
run in the direct pooling entry and each padding must be folded into the
pooling or depthwise entry (no dispatch of its own; with a consumer no
epilogue takes, the generic path evaluates it in the same dispatch).
Results against numpy: max pooling exactly (signed zeros and NaN
included); average pooling and depthwise within the f32 bound of their
sums (k * 2^-23 * sum |x|, plus the divide's rounding).
Every case runs on local-sync and local-task (the same bits), and must give
the vmvx backend's bits (the generic path, which sums the window in the same
order).

Usage: pooling_test.py BIN_DIR
"""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_test_util import fail, run  # noqa: E402

BIN = sys.argv[1]


def out_extent(size, k, s, lo, hi, d, ceil_mode):
    eff = (k - 1) * d + 1
    span = size + lo + hi - eff
    if ceil_mode:
        out = -(-span // s) + 1
        if (out - 1) * s >= size + lo:  # a last window starting in padding
            out -= 1
        return out
    return span // s + 1


def pool_ref(x, kind, k, s, pads, d, ceil_mode, include_pad):
    """x: N C H W (float64). pads: (top, left, bottom, right)."""
    n, c, h, w = x.shape
    oh = out_extent(h, k[0], s[0], pads[0], pads[2], d[0], ceil_mode)
    ow = out_extent(w, k[1], s[1], pads[1], pads[3], d[1], ceil_mode)
    out = np.zeros((n, c, oh, ow))
    bound = np.zeros((n, c, oh, ow))
    for y in range(oh):
        for xo in range(ow):
            rows = [y * s[0] + i * d[0] - pads[0] for i in range(k[0])]
            cols = [xo * s[1] + j * d[1] - pads[1] for j in range(k[1])]
            vals = [x[:, :, r, q] for r in rows for q in cols
                    if 0 <= r < h and 0 <= q < w]
            v = np.stack(vals, axis=-1)
            if kind == "MaxPool":
                out[:, :, y, xo] = v.max(axis=-1)
                continue
            if include_pad:
                # Padding counts, the ceil-mode overhang does not.
                cnt = sum(1 for r in rows for q in cols
                          if r < h + pads[2] and q < w + pads[3])
            else:
                cnt = len(vals)
            out[:, :, y, xo] = v.sum(axis=-1) / cnt
            bound[:, :, y, xo] = (np.abs(v).sum(axis=-1) / cnt *
                                  len(vals) * 2.0 ** -23)
    return out, bound + np.abs(out) * 2.0 ** -23


def depthwise_ref(x, wt, s, pads):
    n, c, h, w = x.shape
    k = wt.shape[2]
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - k) // s + 1
    ow = (w + pads[1] + pads[3] - k) // s + 1
    out = np.zeros((n, c, oh, ow))
    bound = np.zeros((n, c, oh, ow))
    for i in range(k):
        for j in range(k):
            patch = xp[:, :, i:i + (oh - 1) * s + 1:s, j:j + (ow - 1) * s + 1:s]
            out += patch * wt[None, :, 0, i, j, None, None]
            bound += np.abs(patch * wt[None, :, 0, i, j, None, None])
    return out, bound * k * k * 2.0 ** -23


def make_model(path, name, node, xs, ys, initializers=()):
    graph = helper.make_graph(
        node if isinstance(node, list) else [node], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(xs))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(ys))],
        initializer=list(initializers))
    model = helper.make_model(graph, producer_name="pooling_test",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def make_cases():
    """(name, node, x, extra initializers, reference, bound, exact)."""
    rng = np.random.default_rng(11)
    cases = []
    pools = [
        # kind, shape, kernel, strides, pads (t, l, b, r), dilations, ceil,
        # count_include_pad
        ("MaxPool", (1, 5, 13, 11), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 0,
         0),
        ("MaxPool", (1, 4, 14, 15), (3, 3), (2, 2), (0, 0, 0, 0), (1, 1), 1,
         0),
        ("MaxPool", (2, 3, 9, 8), (2, 3), (1, 2), (0, 1, 1, 0), (2, 1), 0, 0),
        ("MaxPool", (1, 70, 9, 9), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 1,
         0),
        ("AveragePool", (1, 6, 11, 13), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1),
         0, 0),
        ("AveragePool", (1, 6, 11, 13), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1),
         0, 1),
        ("AveragePool", (2, 7, 10, 10), (2, 2), (2, 2), (0, 0, 0, 0), (1, 1),
         0, 0),
        ("AveragePool", (1, 3, 9, 9), (3, 3), (2, 2), (0, 0, 0, 0), (1, 1), 1,
         0),
    ]
    # Signed zeros and a NaN (where maximumf differs from a plain compare:
    # the entry's exact path).
    pools.append(("MaxPool", (1, 4, 9, 10), (3, 3), (2, 2), (1, 1, 1, 1),
                  (1, 1), 0, 0))
    for i, (kind, xs, k, s, pads, d, ceil_mode, incl) in enumerate(pools):
        x = rng.standard_normal(xs).astype(np.float32)
        if i == len(pools) - 1:
            x[:, :2] = np.where(x[:, :2] > 0, np.float32(0.0),
                                np.float32(-0.0))
            x[0, 1, 4, 5] = np.nan
        attrs = dict(kernel_shape=list(k), strides=list(s), pads=[
            pads[0], pads[1], pads[2], pads[3]], ceil_mode=ceil_mode)
        if kind == "MaxPool":
            attrs["dilations"] = list(d)
        else:
            attrs["count_include_pad"] = incl
        node = helper.make_node(kind, ["x"], ["y"], **attrs)
        ref, bound = pool_ref(x.astype(np.float64), kind, k, s, pads, d,
                              ceil_mode, incl)
        cases.append(("%s_%d" % (kind.lower(), i), node, x, [], ref, bound,
                      kind == "MaxPool", "pool"))
    # A consumer no epilogue takes (log): the region keeps the folded
    # padding and runs the generic path, which evaluates it per tap.
    xs = (1, 3, 9, 9)
    x = (np.abs(rng.standard_normal(xs)) + 0.1).astype(np.float32)
    nodes = [helper.make_node("MaxPool", ["x"], ["p"], kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("Log", ["p"], ["y"])]
    ref, _ = pool_ref(x.astype(np.float64), "MaxPool", (3, 3), (2, 2),
                      (1, 1, 1, 1), (1, 1), 0, 0)
    cases.append(("maxpool_log", nodes, x, [], np.log(ref),
                  np.abs(np.log(ref)) * 2.0 ** -21 + 2.0 ** -23, False,
                  "generic"))
    # Depthwise convolutions with (asymmetric) zero padding.
    for i, (xs, k, s, pads) in enumerate([((1, 7, 15, 13), 3, 1, (1, 1, 1, 1)),
                                          ((2, 5, 12, 11), 3, 2, (0, 1, 2, 1)),
                                          ((1, 3, 9, 9), 5, 2, (2, 2, 2, 2)),
                                          ((1, 4, 2, 3), 3, 2, (1, 1, 1, 1)),
                                          ((1, 6, 1, 7), 3, 1, (1, 1, 1, 1))]):
        c = xs[1]
        x = rng.standard_normal(xs).astype(np.float32)
        wt = rng.standard_normal((c, 1, k, k)).astype(np.float32)
        node = helper.make_node("Conv", ["x", "w"], ["y"], group=c,
                                kernel_shape=[k, k], strides=[s, s],
                                pads=[pads[0], pads[1], pads[2], pads[3]])
        init = helper.make_tensor("w", TensorProto.FLOAT, wt.shape,
                                  wt.flatten().tolist())
        ref, bound = depthwise_ref(x.astype(np.float64), wt.astype(np.float64),
                                   s, pads)
        cases.append(("depthwise_%d" % i, node, x, [init], ref, bound, False,
                      "depthwise"))
    return cases


def main():
    cases = make_cases()
    with tempfile.TemporaryDirectory() as work:
        checked = 0
        for name, node, x, inits, ref, bound, exact, what in cases:
            model = os.path.join(work, name + ".onnx")
            make_model(model, name, node, x.shape, ref.shape, inits)
            kmod = os.path.join(work, name + ".kmod")
            dump = os.path.join(work, "dump_" + name)
            run([os.path.join(BIN, "kiln-compile"),
                 "--iree-hal-target-backends=llvm-cpu",
                 "--iree-llvmcpu-target-cpu=generic",
                 "--iree-hal-dump-executable-sources-to=" + dump, model, "-o",
                 kmod])
            c = open(os.path.join(dump, "dispatches.c")).read()
            entries = c.count("// f32 depthwise convolution ")
            if what != "depthwise":
                entries = sum(1 for line in c.splitlines()
                              if line.startswith("// f32 ") and
                              "pooling" in line and "direct" in line)
            want = 0 if what == "generic" else 1
            if entries != want:
                fail("%s: %d %s entries, want %d" % (name, entries, what, want))
            regions = run([os.path.join(BIN, "kiln-compile"),
                           "--iree-hal-target-backends=llvm-cpu",
                           "--compile-to=form-dispatch-regions", model])
            count = regions.count('"kiln.dispatch.region"')
            if count != 1:
                fail("%s: %d dispatches, want 1 (the padding folded)" %
                     (name, count))
            vmvx = os.path.join(work, name + ".vmvx.kmod")
            run([os.path.join(BIN, "kiln-compile"),
                 "--iree-hal-target-backends=vmvx", model, "-o", vmvx])
            xin = os.path.join(work, "x.npy")
            np.save(xin, x)
            outs = []
            for module, device in ((kmod, "local-sync"), (kmod, "local-task"),
                                   (vmvx, "local-sync")):
                out = os.path.join(work, "out.npy")
                run([os.path.join(BIN, "kiln-run-module"),
                     "--module=" + module, "--device=" + device,
                     "--function=" + name, "--input=@" + xin,
                     "--output=@" + out])
                outs.append(np.load(out))
            got = outs[0].astype(np.float64)
            if got.shape != ref.shape:
                fail("%s: shape %s, want %s" % (name, got.shape, ref.shape))
            if not np.array_equal(np.isnan(got), np.isnan(ref)):
                fail("%s: NaN at %s, want at %s" %
                     (name, np.argwhere(np.isnan(got)).tolist(),
                      np.argwhere(np.isnan(ref)).tolist()))
            err = np.nan_to_num(np.abs(got - ref))
            limit = np.zeros_like(bound) if exact else bound + 1e-30
            if np.any(err > limit):
                i = np.unravel_index(np.argmax(err - limit), err.shape)
                fail("%s: element %s is %r, want %r (bound %g)" %
                     (name, i, got[i], ref[i], limit[i]))
            bits = [o.view(np.uint32) for o in outs]
            if not np.array_equal(bits[0], bits[1]):
                fail("%s: local-task differs from local-sync" % name)
            if not np.array_equal(bits[0], bits[2]):
                i = np.unravel_index(np.argmax(bits[0] != bits[2]), got.shape)
                fail("%s: element %s is %r, the generic (vmvx) path gives %r"
                     % (name, i, outs[0][i], outs[2][i]))
            checked += 1
        print("pooling_test: %d cases match numpy, local-task and vmvx" %
              checked)


main()
