#!/usr/bin/env python3
"""llvm-cpu epilogue fusion and depthwise entries against numpy.

Each case is a matmul or convolution followed by elementwise consumers
(per-channel bias, clamp / relu6, maximum (relu), SiLU through
stablehlo.logistic, a residual add) that must run inside the micro-kernel
dispatch (no dispatch of their own), or a depthwise convolution (NCHW,
feature_group_count = channels) that must get the direct depthwise entry,
with or without an epilogue. Odd sizes (no multiple of a tile), strides 2,
padding, dilation 2, batch 2. Run on local-sync and local-task; local-task
must give local-sync's bits. The reference is float64 numpy; tolerance: the
f32 bound of a length-K dot product (K * 2^-23 * sum |x||w|) plus a few ulps
of each epilogue op.

Usage: fusion_test.py BIN_DIR
"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_test_util import fail, run  # noqa: E402

BIN = sys.argv[1]


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def out_size(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def conv_nchw(x, w, s, p, d, groups=1):
    """x: N C H W, w: F C/groups KH KW (float64) -> N F OH OW."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    oh, ow = out_size(h, kh, s, p, d), out_size(wd, kw, s, p, d)
    out = np.zeros((n, f, oh, ow))
    fg = f // groups
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * d:i * d + (oh - 1) * s + 1:s,
                       j * d:j * d + (ow - 1) * s + 1:s]
            for g in range(groups):
                out[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", patch[:, g * cg:(g + 1) * cg],
                    w[g * fg:(g + 1) * fg, :, i, j])
    return out


def conv_src(name, xs, ws, os_, s, p, d, groups, tail, extra_args="",
             nhwc=False):
    """A stablehlo NCHW (or NHWC image and output, HWIO filter) convolution
    %c, then |tail| (lines ending in a value %r)."""
    dims = ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]" if nhwc else
            "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]")
    return ("func.func @%s(%%x: %s, %%w: %s%s) -> %s {\n"
            "  %%c = stablehlo.convolution(%%x, %%w) dim_numbers = %s,"
            " window = {stride = [%d, %d], pad = [[%d, %d], [%d, %d]],"
            " rhs_dilate = [%d, %d]} {batch_group_count = 1 : i64,"
            " feature_group_count = %d : i64} : (%s, %s) -> %s\n%s"
            "  return %%r : %s\n}\n" %
            (name, ty(xs), ty(ws), extra_args, ty(os_), dims, s, s, p, p, p,
             p, d, d, groups, ty(xs), ty(ws), ty(os_), tail, ty(os_)))


def bias_relu6_tail(os_, f, channel_dim=1):
    t = ty(os_)
    return ("  %%bb = stablehlo.broadcast_in_dim %%b, dims = [%d] :"
            " (tensor<%dxf32>) -> %s\n"
            "  %%a = stablehlo.add %%c, %%bb : %s\n"
            "  %%lo = stablehlo.constant dense<0.0> : tensor<f32>\n"
            "  %%hi = stablehlo.constant dense<6.0> : tensor<f32>\n"
            "  %%r = stablehlo.clamp %%lo, %%a, %%hi : (tensor<f32>, %s,"
            " tensor<f32>) -> %s\n" % (channel_dim, f, t, t, t, t))


def residual_relu_tail(os_):
    t = ty(os_)
    return ("  %%a = stablehlo.add %%c, %%y : %s\n"
            "  %%z = stablehlo.constant dense<0.0> : %s\n"
            "  %%r = stablehlo.maximum %%a, %%z : %s\n" % (t, t, t))


def make_cases():
    """(name, source, inputs, reference, bound, kind) per case; kind is
    'epilogue' (a micro-kernel entry with an epilogue) or 'depthwise' /
    'depthwise+epilogue'."""
    rng = np.random.default_rng(7)
    cases = []

    def arr(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    # Convolutions + bias + relu6 (3x3 im2col, stride 2, pad 1; 1x1).
    for i, (n, c, h, w, f, k, s, p, d) in enumerate([
            (1, 5, 13, 11, 17, 3, 2, 1, 1),
            (2, 3, 9, 9, 33, 1, 1, 0, 1),
            (1, 16, 7, 7, 300, 3, 1, 1, 2)]):
        oh, ow = out_size(h, k, s, p, d), out_size(w, k, s, p, d)
        xs, ws, os_ = (n, c, h, w), (f, c, k, k), (n, f, oh, ow)
        x, wt, b = arr(*xs), arr(*ws), arr(f) * 4
        ref = conv_nchw(x.astype(np.float64), wt.astype(np.float64), s, p, d)
        bound = conv_nchw(np.abs(x.astype(np.float64)),
                          np.abs(wt.astype(np.float64)), s, p, d)
        bound = bound * c * k * k * 2.0 ** -23
        ref = ref + b.astype(np.float64)[None, :, None, None]
        bound = bound + np.abs(ref) * 2.0 ** -22
        ref = np.clip(ref, 0.0, 6.0)
        name = "conv_bias_relu6_%d" % i
        src = conv_src(name, xs, ws, os_, s, p, d, 1, bias_relu6_tail(os_, f),
                       ", %%b: tensor<%dxf32>" % f)
        cases.append((name, src, [x, wt, b], ref, bound, "epilogue"))

    # Convolution + residual add + relu (the residual in the output layout).
    n, c, h, w, f = 1, 7, 10, 9, 19
    xs, ws, os_ = (n, c, h, w), (f, c, 3, 3), (n, f, h, w)
    x, wt, y = arr(*xs), arr(*ws), arr(*os_)
    ref = conv_nchw(x.astype(np.float64), wt.astype(np.float64), 1, 1, 1)
    bound = conv_nchw(np.abs(x.astype(np.float64)),
                      np.abs(wt.astype(np.float64)), 1, 1, 1) * c * 9 * 2.0**-23
    ref = ref + y
    bound = bound + np.abs(ref) * 2.0 ** -22
    ref = np.maximum(ref, 0.0)
    src = conv_src("conv_residual_relu", xs, ws, os_, 1, 1, 1, 1,
                   residual_relu_tail(os_), ", %%y: %s" % ty(os_))
    cases.append(("conv_residual_relu", src, [x, wt, y], ref, bound,
                  "epilogue"))

    # Matmul + bias + SiLU (x * logistic(x)).
    m, k, nn = 37, 65, 19
    a, bm, bias = arr(m, k), arr(k, nn), arr(nn)
    ref = a.astype(np.float64) @ bm.astype(np.float64) + bias
    bound = (np.abs(a.astype(np.float64)) @ np.abs(bm.astype(np.float64))) * \
        k * 2.0 ** -23 + np.abs(ref) * 2.0 ** -22
    sig = 1.0 / (1.0 + np.exp(-ref))
    # d(x * sig(x))/dx is at most 1.1 in magnitude; a few ulps of exp.
    bound = bound * 1.1 + np.abs(ref * sig) * 2.0 ** -20
    ref = ref * sig
    t = ty((m, nn))
    src = ("func.func @matmul_bias_silu(%%a: %s, %%b: %s, %%bias: tensor<%dxf32>)"
           " -> %s {\n"
           "  %%c = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0]"
           " : (%s, %s) -> %s\n"
           "  %%bb = stablehlo.broadcast_in_dim %%bias, dims = [1] :"
           " (tensor<%dxf32>) -> %s\n"
           "  %%s = stablehlo.add %%c, %%bb : %s\n"
           "  %%g = stablehlo.logistic %%s : %s\n"
           "  %%r = stablehlo.multiply %%s, %%g : %s\n"
           "  return %%r : %s\n}\n" %
           (ty((m, k)), ty((k, nn)), nn, t, ty((m, k)), ty((k, nn)), t, nn, t,
            t, t, t, t))
    cases.append(("matmul_bias_silu", src, [a, bm, bias], ref, bound,
                  "epilogue"))

    # Depthwise: 3x3 stride 1 pad 1, stride 2, dilation 2 with batch 2, 5x5
    # (NCHW: the channel-plane entry); then channels-last ones (NHWC image
    # and output, HWIO filter: the row entry) with blocks of 16 channels, a
    # tail of 8 or 4, and rows wide enough for its four-output runs.
    for i, (n, c, h, w, k, s, p, d, epi, nhwc) in enumerate([
            (1, 7, 15, 13, 3, 1, 1, 1, True, False),
            (1, 9, 16, 17, 3, 2, 1, 1, True, False),
            (2, 5, 12, 11, 3, 1, 2, 2, False, False),
            (1, 3, 9, 9, 5, 2, 2, 1, True, False),
            (1, 40, 15, 13, 3, 1, 1, 1, True, True),
            (1, 32, 16, 23, 3, 2, 1, 1, True, True),
            (2, 48, 12, 19, 3, 1, 2, 2, False, True),
            (1, 20, 9, 29, 5, 2, 2, 1, True, True),
            (1, 7, 10, 21, 3, 1, 1, 1, True, True)]):
        oh, ow = out_size(h, k, s, p, d), out_size(w, k, s, p, d)
        xs, ws, os_ = (n, c, h, w), (c, 1, k, k), (n, c, oh, ow)
        x, wt, b = arr(*xs), arr(*ws), arr(c)
        ref = conv_nchw(x.astype(np.float64), wt.astype(np.float64), s, p, d,
                        groups=c)
        bound = conv_nchw(np.abs(x.astype(np.float64)),
                          np.abs(wt.astype(np.float64)), s, p, d,
                          groups=c) * k * k * 2.0 ** -23
        name = "depthwise_%d" % i
        if epi:
            ref = ref + b.astype(np.float64)[None, :, None, None]
            bound = bound + np.abs(ref) * 2.0 ** -22
            ref = np.clip(ref, 0.0, 6.0)
        if nhwc:
            # The same convolution on transposed operands and result.
            x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
            wt = np.ascontiguousarray(wt.transpose(2, 3, 1, 0))
            ref = ref.transpose(0, 2, 3, 1)
            bound = bound.transpose(0, 2, 3, 1)
            xs, ws, os_ = x.shape, wt.shape, ref.shape
        if epi:
            src = conv_src(name, xs, ws, os_, s, p, d, c,
                           bias_relu6_tail(os_, c, 3 if nhwc else 1),
                           ", %%b: tensor<%dxf32>" % c, nhwc)
            inputs = [x, wt, b]
        else:
            src = conv_src(name, xs, ws, os_, s, p, d, c, "  %%r = stablehlo.add"
                           " %%c, %%c : %s\n" % ty(os_), nhwc=nhwc)
            ref, bound = 2 * ref, 2 * bound
            inputs = [x, wt]
        cases.append((name, src, inputs, ref, bound,
                      "depthwise+epilogue" if epi else "depthwise"))
    return cases


def main():
    cases = make_cases()
    with tempfile.TemporaryDirectory() as work:
        src_path = os.path.join(work, "fusion.mlir")
        with open(src_path, "w") as f:
            for case in cases:
                f.write(case[1])
        kmod = os.path.join(work, "fusion.kmod")
        dump = os.path.join(work, "dump")
        run([os.path.join(BIN, "kiln-compile"),
             "--iree-hal-target-backends=llvm-cpu",
             "--iree-llvmcpu-target-cpu=generic",
             "--iree-hal-dump-executable-sources-to=" + dump, src_path, "-o",
             kmod])
        c = open(os.path.join(dump, "dispatches.c")).read()
        gemm_entries = c.count("packed tiles through the runtime's mmt4d")
        # Entries with a fused epilogue (a micro-kernel entry has two: one
        # per row chunk when it writes the output in place, one after the
        # unpack otherwise).
        epilogues = sum(1 for f in c.split("\nint KILN_CPU_DISPATCH(")[1:]
                        if "eo[o] = " in f)
        depthwise = c.count("// f32 depthwise convolution ")
        want_gemm = sum(1 for cs in cases if cs[5] == "epilogue")
        want_dw = sum(1 for cs in cases if cs[5].startswith("depthwise"))
        # Every case has elementwise consumers (the depthwise one without a
        # bias doubles its result), and each must be fused.
        want_epi = len(cases)
        if gemm_entries != want_gemm:
            fail("%d micro-kernel entries, want %d" % (gemm_entries, want_gemm))
        if depthwise != want_dw:
            fail("%d depthwise entries, want %d" % (depthwise, want_dw))
        if epilogues != want_epi:
            fail("%d fused epilogues, want %d" % (epilogues, want_epi))
        # A residual in the output's layout is read at the result's own
        # offset: indexing it through per-dim divisions kept GCC from
        # vectorizing the epilogue loop.
        if "])[o];" not in c:
            fail("the residual is not read at the result's offset")
        checked = 0
        for name, _, inputs, ref, bound, _ in cases:
            args = []
            for j, a in enumerate(inputs):
                path = os.path.join(work, "in%d.npy" % j)
                np.save(path, a)
                args.append("--input=@" + path)
            first = None
            for device in ("local-sync", "local-task"):
                out = os.path.join(work, "out.npy")
                run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                     "--device=" + device, "--function=" + name] + args +
                    ["--output=@" + out])
                got = np.load(out).astype(np.float64)
                if got.shape != ref.shape:
                    fail("%s: shape %s, want %s" % (name, got.shape, ref.shape))
                err = np.abs(got - ref)
                if np.any(err > bound + 1e-30):
                    i = np.unravel_index(np.argmax(err - bound), err.shape)
                    fail("%s (%s): element %s is %r, want %r (bound %g)" %
                         (name, device, i, got[i], ref[i], bound[i]))
                if first is None:
                    first = got
                elif not np.array_equal(first, got):
                    fail("%s: local-task differs from local-sync" % name)
                checked += 1
        print("fusion_test: %d cases x 2 devices = %d runs match numpy" %
              (len(cases), checked))
        nhwc_depthwise_bias_clamp(work, np.random.default_rng(13), "clip")
        nhwc_depthwise_bias_clamp(work, np.random.default_rng(17), "silu")


# A channels-last depthwise convolution (37 channels: two 16-lane blocks and
# a 5-channel tail) with a bias and a clip: the entry applies them to each
# accumulator before its store (its own helper, no pass over the row). With
# a bias and SiLU (x * logistic(x)) instead, each output row goes through
# the runtime's kiln_ukernel_bias_act. Either must match numpy, keep a NaN
# pixel NaN in the same outputs, and give local-task the bits of local-sync.
DW_NHWC = """func.func @dwc(%x: tensor<1x11x13x37xf32>, %w: tensor<3x3x1x37xf32>, %b: tensor<37xf32>) -> tensor<1x9x11x37xf32> {
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 37 : i64} : (tensor<1x11x13x37xf32>, tensor<3x3x1x37xf32>) -> tensor<1x9x11x37xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<37xf32>) -> tensor<1x9x11x37xf32>
  %a = stablehlo.add %c, %bb : tensor<1x9x11x37xf32>
%s  return %%r : tensor<1x9x11x37xf32>
}
"""
DW_CLIP = """  %lo = stablehlo.constant dense<0.0> : tensor<1x9x11x37xf32>
  %hi = stablehlo.constant dense<6.0> : tensor<1x9x11x37xf32>
  %m = stablehlo.maximum %a, %lo : tensor<1x9x11x37xf32>
  %r = stablehlo.minimum %m, %hi : tensor<1x9x11x37xf32>
"""
DW_SILU = """  %l = stablehlo.logistic %a : tensor<1x9x11x37xf32>
  %r = stablehlo.multiply %a, %l : tensor<1x9x11x37xf32>
"""


def nhwc_depthwise_bias_clamp(work, rng, act):
    src = os.path.join(work, "dwc.mlir")
    with open(src, "w") as f:
        f.write(DW_NHWC.replace("%%", "\x00").replace(
            "%s", DW_CLIP if act == "clip" else DW_SILU).replace("\x00", "%"))
    kmod = os.path.join(work, "dwc.kmod")
    dump = os.path.join(work, "dwc_dump")
    run([os.path.join(BIN, "kiln-compile"), "--iree-hal-target-backends=llvm-cpu",
         "--iree-hal-dump-executable-sources-to=" + dump, src, "-o", kmod])
    c = open(os.path.join(dump, "dispatches.c")).read()
    where = "_bc(" if act == "clip" else "kiln_ukernel_bias_act_params_t ba;"
    if ("NHWC): direct" not in c or where not in c or
            c.count("\nint KILN_CPU_DISPATCH(") != 1):
        fail("dwc: the bias + %s should run in the NHWC depthwise entry" % act)
    scale = 1 if act == "clip" else 8  # SiLU: reach its tiny results
    x = (rng.standard_normal((1, 11, 13, 37)) * scale).astype(np.float32)
    w = rng.standard_normal((3, 3, 1, 37)).astype(np.float32)
    b = rng.standard_normal(37).astype(np.float32) * 2
    for nan in (False, True):
        xi = x.copy()
        if nan:
            xi[0, 4, 6, 35] = np.nan  # a tail channel
            xi[0, 7, 2, 3] = np.nan   # a vector lane
        acc = np.zeros((1, 9, 11, 37))
        for i in range(3):
            for j in range(3):
                acc += xi[:, i:i + 9, j:j + 11, :].astype(np.float64) * w[i, j, 0]
        t = acc + b
        bound = 9 * 2.0 ** -23 * np.ones_like(t) * 16 * scale
        if act == "clip":
            ref = np.minimum(np.maximum(t, 0.0), 6.0)
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                ref = t / (1.0 + np.exp(-t))
            # SiLU's slope is below 1.1; a few ulps of its own.
            bound = bound * 1.1 + np.abs(ref) * 2.0 ** -20
            if np.nanmin(t) > -40:
                fail("dwc: the inputs should reach SiLU's tiny results")
        args = []
        for j, a in enumerate((xi, w, b)):
            path = os.path.join(work, "dwc%d.npy" % j)
            np.save(path, a)
            args.append("--input=@" + path)
        first = None
        for device in ("local-sync", "local-task"):
            out = os.path.join(work, "dwc_out.npy")
            run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                 "--device=" + device, "--function=dwc"] + args +
                ["--output=@" + out])
            got = np.load(out).astype(np.float64)
            if not np.array_equal(np.isnan(got), np.isnan(ref)):
                fail("dwc (%s, nan=%s): %d NaNs, want %d" %
                     (device, nan, np.isnan(got).sum(), np.isnan(ref).sum()))
            ok = ~np.isnan(ref)
            if np.any(np.abs(got[ok] - ref[ok]) > bound[ok]):
                fail("dwc (%s, nan=%s): differs from numpy" % (device, nan))
            if first is None:
                first = got
            elif first.tobytes() != got.tobytes():
                fail("dwc: local-task differs from local-sync")
    print("fusion_test: the NHWC depthwise bias + %s matches numpy" % act)


main()
