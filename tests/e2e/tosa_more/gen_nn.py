# Generates tests/e2e/tosa_more/nn_ops.mlir: TOSA matmul / fully_connected /
# conv2d / depthwise_conv2d / avg_pool2d with expected values from a direct
# numpy transcription of the TOSA 1.0 pseudo-code (run with /usr/bin/python3).
import numpy as np

rng = np.random.RandomState(7)
out = []

def ty(shape, e):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + e + ">"

def lit(a, e):
    a = np.asarray(a)
    if e.startswith("f"):
        fmt = lambda v: repr(float(v))
    else:
        fmt = lambda v: str(int(v))
    def rec(x):
        if x.ndim == 0:
            return fmt(x)
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return "dense<" + rec(a) + ">"

def unf(name, a, e):
    return f"  %{name} = util.unfoldable_constant {lit(a, e)} : {ty(a.shape, e)}"

def const(name, a, e):
    return f'  %{name} = "tosa.const"() <{{values = {lit(a, e)} : {ty(a.shape, e)}}}> : () -> {ty(a.shape, e)}'

def check(name, a, e):
    op = "check.expect_almost_eq_const" if e.startswith("f") else "check.expect_eq_const"
    t = ty(a.shape, e)
    return f"  {op}(%{name}, {lit(a, e)} : {t}) : {t}"

def arr(v):
    return "array<i64: " + ", ".join(str(x) for x in v) + ">"

def conv(x, w, bias, pad, stride, dil, izp, wzp):
    # x NHWC, w OHWI
    N, IH, IW, IC = x.shape
    OC, KH, KW, _ = w.shape
    OH = (IH - 1 + pad[0] + pad[1] - (KH - 1) * dil[0]) // stride[0] + 1
    OW = (IW - 1 + pad[2] + pad[3] - (KW - 1) * dil[1]) // stride[1] + 1
    r = np.zeros((N, OH, OW, OC), dtype=np.float64 if x.dtype.kind == "f" else np.int64)
    for n in range(N):
        for oy in range(OH):
            for ox in range(OW):
                for oc in range(OC):
                    acc = bias[oc if bias.size > 1 else 0]
                    for ky in range(KH):
                        for kx in range(KW):
                            y = oy * stride[0] - pad[0] + ky * dil[0]
                            xx = ox * stride[1] - pad[2] + kx * dil[1]
                            if 0 <= y < IH and 0 <= xx < IW:
                                for ic in range(IC):
                                    acc += (int(x[n, y, xx, ic]) - izp if x.dtype.kind != "f" else x[n, y, xx, ic]) * \
                                           (int(w[oc, ky, kx, ic]) - wzp if w.dtype.kind != "f" else w[oc, ky, kx, ic])
                    r[n, oy, ox, oc] = acc
    return r

def depthwise(x, w, bias, pad, stride, dil, izp, wzp):
    N, IH, IW, C = x.shape
    KH, KW, _, M = w.shape
    OH = (IH - 1 + pad[0] + pad[1] - (KH - 1) * dil[0]) // stride[0] + 1
    OW = (IW - 1 + pad[2] + pad[3] - (KW - 1) * dil[1]) // stride[1] + 1
    f = x.dtype.kind == "f"
    r = np.zeros((N, OH, OW, C * M), dtype=np.float64 if f else np.int64)
    for n in range(N):
        for oy in range(OH):
            for ox in range(OW):
                for c in range(C):
                    for m in range(M):
                        acc = bias[c * M + m if bias.size > 1 else 0]
                        for ky in range(KH):
                            for kx in range(KW):
                                y = oy * stride[0] - pad[0] + ky * dil[0]
                                xx = ox * stride[1] - pad[2] + kx * dil[1]
                                if 0 <= y < IH and 0 <= xx < IW:
                                    a = x[n, y, xx, c] if f else int(x[n, y, xx, c]) - izp
                                    b = w[ky, kx, c, m] if f else int(w[ky, kx, c, m]) - wzp
                                    acc += a * b
                        r[n, oy, ox, c * M + m] = acc
    return r

def avg_pool(x, kernel, stride, pad, izp, ozp, lo=-128, hi=127):
    N, IH, IW, C = x.shape
    OH = (IH + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    OW = (IW + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    f = x.dtype.kind == "f"
    r = np.zeros((N, OH, OW, C), dtype=np.float64 if f else np.int64)
    for n in range(N):
        for oy in range(OH):
            for ox in range(OW):
                for c in range(C):
                    acc = 0
                    count = 0
                    for ky in range(kernel[0]):
                        for kx in range(kernel[1]):
                            y = oy * stride[0] - pad[0] + ky
                            xx = ox * stride[1] - pad[2] + kx
                            if 0 <= y < IH and 0 <= xx < IW:
                                count += 1
                                acc += x[n, y, xx, c] if f else int(x[n, y, xx, c]) - izp
                    if f:
                        r[n, oy, ox, c] = acc / count
                    else:
                        k = 32 - (32 - (count - 1).bit_length())  # 32 - clz(count - 1)
                        multiplier = (((1 << 30) + 1) << k) // count
                        shift = 30 + k
                        v = (acc * multiplier + (1 << (shift - 1))) >> shift
                        r[n, oy, ox, c] = min(max(v + ozp, lo), hi)
    return r

def fn(name, lines):
    out.append(f"func.func @{name}() {{")
    out.extend(lines)
    out.append("  return\n}\n")

# matmul f32 and i8 with zero points.
a = rng.randint(-4, 5, (2, 3, 4)).astype(np.float32)
b = rng.randint(-4, 5, (2, 4, 2)).astype(np.float32)
fn("matmul_f32", [unf("a", a, "f32"), unf("b", b, "f32"),
    const("azp", np.zeros(1), "f32"), const("bzp", np.zeros(1), "f32"),
    f"  %r = tosa.matmul %a, %b, %azp, %bzp : ({ty(a.shape,'f32')}, {ty(b.shape,'f32')}, tensor<1xf32>, tensor<1xf32>) -> {ty((2,3,2),'f32')}",
    check("r", np.matmul(a.astype(np.float64), b), "f32")])
a = rng.randint(-128, 128, (1, 3, 5)).astype(np.int8)
b = rng.randint(-128, 128, (1, 5, 2)).astype(np.int8)
ref = np.matmul(a.astype(np.int64) - 3, b.astype(np.int64) + 2)
fn("matmul_i8_zero_points", [unf("a", a, "i8"), unf("b", b, "i8"),
    const("azp", np.array([3]), "i8"), const("bzp", np.array([-2]), "i8"),
    f"  %r = tosa.matmul %a, %b, %azp, %bzp : ({ty(a.shape,'i8')}, {ty(b.shape,'i8')}, tensor<1xi8>, tensor<1xi8>) -> {ty((1,3,2),'i32')}",
    check("r", ref, "i32")])
# matmul without zero-point operands (older form).
a = rng.randint(-9, 10, (1, 2, 3)).astype(np.int32)
b = rng.randint(-9, 10, (1, 3, 3)).astype(np.int32)
fn("matmul_i32_no_zp", [unf("a", a, "i32"), unf("b", b, "i32"),
    f"  %r = tosa.matmul %a, %b : ({ty(a.shape,'i32')}, {ty(b.shape,'i32')}) -> {ty((1,2,3),'i32')}",
    check("r", np.matmul(a.astype(np.int64), b), "i32")])

# fully_connected: input x weight^T + bias.
x = rng.randint(-5, 6, (3, 4)).astype(np.float32)
w = rng.randint(-5, 6, (2, 4)).astype(np.float32)
bias = np.array([0.5, -1.0], np.float32)
fn("fully_connected_f32", [unf("x", x, "f32"), const("w", w, "f32"), const("bias", bias, "f32"),
    f"  %r = tosa.fully_connected %x, %w, %bias : ({ty(x.shape,'f32')}, {ty(w.shape,'f32')}, {ty(bias.shape,'f32')}) -> {ty((3,2),'f32')}",
    check("r", x.astype(np.float64) @ w.T.astype(np.float64) + bias, "f32")])
x = rng.randint(-5, 6, (2, 3)).astype(np.int32)
w = rng.randint(-5, 6, (4, 3)).astype(np.int32)
bias1 = np.array([7], np.int32)
fn("fully_connected_i32_bias_broadcast", [unf("x", x, "i32"), unf("w", w, "i32"), unf("bias", bias1, "i32"),
    f"  %r = tosa.fully_connected %x, %w, %bias : ({ty(x.shape,'i32')}, {ty(w.shape,'i32')}, tensor<1xi32>) -> {ty((2,4),'i32')}",
    check("r", x.astype(np.int64) @ w.T.astype(np.int64) + 7, "i32")])

# conv2d f32: padding, stride, dilation, bias.
x = rng.randint(-3, 4, (1, 5, 5, 2)).astype(np.float32)
w = rng.randint(-3, 4, (3, 2, 3, 2)).astype(np.float32)
bias = np.array([1.0, -2.0, 0.25], np.float32)
pad, stride, dil = [1, 0, 1, 2], [2, 1], [1, 2]
ref = conv(x, w, bias, pad, stride, dil, 0, 0)
fn("conv2d_f32_pad_stride_dilation", [unf("x", x, "f32"), const("w", w, "f32"), const("bias", bias, "f32"),
    const("izp", np.zeros(1), "f32"), const("wzp", np.zeros(1), "f32"),
    f"  %r = tosa.conv2d %x, %w, %bias, %izp, %wzp {{acc_type = f32, dilation = {arr(dil)}, pad = {arr(pad)}, stride = {arr(stride)}}} : ({ty(x.shape,'f32')}, {ty(w.shape,'f32')}, {ty(bias.shape,'f32')}, tensor<1xf32>, tensor<1xf32>) -> {ty(ref.shape,'f32')}",
    check("r", ref, "f32")])
# conv2d i8 with zero points (padding contributes 0 after the zero point).
x = rng.randint(-128, 128, (2, 3, 4, 3)).astype(np.int8)
w = rng.randint(-128, 128, (2, 3, 3, 3)).astype(np.int8)
bias = np.array([100, -50], np.int32)
pad, stride, dil = [1, 1, 1, 1], [1, 1], [1, 1]
ref = conv(x, w, bias, pad, stride, dil, 5, -3)
fn("conv2d_i8_zero_points", [unf("x", x, "i8"), unf("w", w, "i8"), unf("bias", bias, "i32"),
    const("izp", np.array([5]), "i8"), const("wzp", np.array([-3]), "i8"),
    f"  %r = tosa.conv2d %x, %w, %bias, %izp, %wzp {{acc_type = i32, dilation = {arr(dil)}, pad = {arr(pad)}, stride = {arr(stride)}}} : ({ty(x.shape,'i8')}, {ty(w.shape,'i8')}, {ty(bias.shape,'i32')}, tensor<1xi8>, tensor<1xi8>) -> {ty(ref.shape,'i32')}",
    check("r", ref, "i32")])

# depthwise_conv2d f32 (channel multiplier 2) and i8 with zero points.
x = rng.randint(-3, 4, (1, 4, 4, 2)).astype(np.float32)
w = rng.randint(-3, 4, (3, 3, 2, 2)).astype(np.float32)
bias = np.array([0.5, 1.5, -0.5, 2.0], np.float32)
pad, stride, dil = [1, 1, 1, 1], [1, 1], [1, 1]
ref = depthwise(x, w, bias, pad, stride, dil, 0, 0)
fn("depthwise_conv2d_f32", [unf("x", x, "f32"), const("w", w, "f32"), const("bias", bias, "f32"),
    const("izp", np.zeros(1), "f32"), const("wzp", np.zeros(1), "f32"),
    f"  %r = tosa.depthwise_conv2d %x, %w, %bias, %izp, %wzp {{acc_type = f32, dilation = {arr(dil)}, pad = {arr(pad)}, stride = {arr(stride)}}} : ({ty(x.shape,'f32')}, {ty(w.shape,'f32')}, {ty(bias.shape,'f32')}, tensor<1xf32>, tensor<1xf32>) -> {ty(ref.shape,'f32')}",
    check("r", ref, "f32")])
x = rng.randint(-128, 128, (1, 5, 5, 3)).astype(np.int8)
w = rng.randint(-128, 128, (2, 2, 3, 1)).astype(np.int8)
bias = np.array([3], np.int32)
pad, stride, dil = [0, 1, 0, 1], [2, 2], [2, 2]
ref = depthwise(x, w, bias, pad, stride, dil, -7, 4)
fn("depthwise_conv2d_i8_zero_points", [unf("x", x, "i8"), unf("w", w, "i8"), unf("bias", bias, "i32"),
    const("izp", np.array([-7]), "i8"), const("wzp", np.array([4]), "i8"),
    f"  %r = tosa.depthwise_conv2d %x, %w, %bias, %izp, %wzp {{acc_type = i32, dilation = {arr(dil)}, pad = {arr(pad)}, stride = {arr(stride)}}} : ({ty(x.shape,'i8')}, {ty(w.shape,'i8')}, {ty(bias.shape,'i32')}, tensor<1xi8>, tensor<1xi8>) -> {ty(ref.shape,'i32')}",
    check("r", ref, "i32")])

# avg_pool2d: padding is not counted.
x = rng.randint(-8, 9, (1, 5, 5, 2)).astype(np.float32)
kernel, stride, pad = [3, 3], [2, 2], [1, 1, 1, 1]
ref = avg_pool(x, kernel, stride, pad, 0, 0)
fn("avg_pool2d_f32_pad", [unf("x", x, "f32"),
    const("izp", np.zeros(1), "f32"), const("ozp", np.zeros(1), "f32"),
    f"  %r = tosa.avg_pool2d %x, %izp, %ozp {{acc_type = f32, kernel = {arr(kernel)}, pad = {arr(pad)}, stride = {arr(stride)}}} : ({ty(x.shape,'f32')}, tensor<1xf32>, tensor<1xf32>) -> {ty(ref.shape,'f32')}",
    check("r", ref, "f32")])
x = rng.randint(-128, 128, (2, 4, 3, 2)).astype(np.int8)
kernel, stride, pad = [2, 3], [1, 2], [1, 0, 2, 1]
ref = avg_pool(x, kernel, stride, pad, -2, 3)
fn("avg_pool2d_i8_zero_points", [unf("x", x, "i8"),
    const("izp", np.array([-2]), "i8"), const("ozp", np.array([3]), "i8"),
    f"  %r = tosa.avg_pool2d %x, %izp, %ozp {{acc_type = i32, kernel = {arr(kernel)}, pad = {arr(pad)}, stride = {arr(stride)}}} : ({ty(x.shape,'i8')}, tensor<1xi8>, tensor<1xi8>) -> {ty(ref.shape,'i8')}",
    check("r", ref, "i8")])

print("// Generated by gen_nn.py (numpy transcription of the TOSA 1.0\n"
      "// pseudo-code): matmul, fully_connected, conv2d, depthwise_conv2d and\n"
      "// avg_pool2d with padding, strides, dilations, biases and zero points.\n")
print("\n".join(out))
