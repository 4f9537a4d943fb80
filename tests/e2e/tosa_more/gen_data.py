# Generates tests/e2e/tosa_more/data_ops.mlir: TOSA concat / slice / tile /
# rescale with expected values from numpy and a direct transcription of the
# TOSA 1.0 rescale pseudo-code (run with /usr/bin/python3).
import numpy as np

rng = np.random.RandomState(11)
out = []

def ty(shape, e):
    return "tensor<" + "".join(f"{d}x" for d in shape) + e + ">"

def lit(a, e):
    a = np.asarray(a)
    fmt = (lambda v: repr(float(v))) if e.startswith("f") else (lambda v: str(int(v)))
    def rec(x):
        return fmt(x) if x.ndim == 0 else "[" + ", ".join(rec(y) for y in x) + "]"
    return "dense<" + rec(a) + ">"

def unf(name, a, e):
    return f"  %{name} = util.unfoldable_constant {lit(a, e)} : {ty(a.shape, e)}"

def const(name, a, e):
    t = ty(np.asarray(a).shape, e)
    return f'  %{name} = "tosa.const"() <{{values = {lit(a, e)} : {t}}}> : () -> {t}'

def shape(name, v):
    return f"  %{name} = tosa.const_shape {{values = dense<[{', '.join(map(str, v))}]> : tensor<{len(v)}xindex>}} : () -> !tosa.shape<{len(v)}>"

def check(name, a, e):
    t = ty(a.shape, e)
    op = "check.expect_almost_eq_const" if e.startswith("f") else "check.expect_eq_const"
    return f"  {op}(%{name}, {lit(a, e)} : {t}) : {t}"

def fn(name, lines):
    out.append(f"func.func @{name}() {{")
    out.extend(lines)
    out.append("  return\n}\n")

def arr(v, e="i64"):
    return f"array<{e}: " + ", ".join(str(x) for x in v) + ">"

# concat along each axis, three operands.
a = rng.randint(-9, 10, (2, 3)).astype(np.float32)
b = rng.randint(-9, 10, (2, 1)).astype(np.float32)
c = rng.randint(-9, 10, (2, 2)).astype(np.float32)
fn("concat_axis1", [unf("a", a, "f32"), unf("b", b, "f32"), unf("c", c, "f32"),
    f"  %r = tosa.concat %a, %b, %c {{axis = 1 : i32}} : ({ty(a.shape,'f32')}, {ty(b.shape,'f32')}, {ty(c.shape,'f32')}) -> {ty((2,6),'f32')}",
    check("r", np.concatenate([a, b, c], 1), "f32")])
a = rng.randint(-9, 10, (1, 2, 2)).astype(np.int32)
b = rng.randint(-9, 10, (3, 2, 2)).astype(np.int32)
fn("concat_axis0_i32", [unf("a", a, "i32"), unf("b", b, "i32"),
    f"  %r = tosa.concat %a, %b {{axis = 0 : i32}} : ({ty(a.shape,'i32')}, {ty(b.shape,'i32')}) -> {ty((4,2,2),'i32')}",
    check("r", np.concatenate([a, b], 0), "i32")])

# slice: TOSA 1.0 shape operands and the older attribute form.
x = rng.randint(-99, 100, (4, 5, 3)).astype(np.int32)
fn("slice_shape_operands", [unf("x", x, "i32"), shape("start", [1, 2, 0]), shape("size", [2, 3, 2]),
    f"  %r = tosa.slice %x, %start, %size : ({ty(x.shape,'i32')}, !tosa.shape<3>, !tosa.shape<3>) -> {ty((2,3,2),'i32')}",
    check("r", x[1:3, 2:5, 0:2], "i32")])
y = rng.randint(-9, 10, (3, 4)).astype(np.float32)
fn("slice_attrs", [unf("y", y, "f32"),
    f"  %r = tosa.slice %y {{size = {arr([2, 1])}, start = {arr([1, 3])}}} : ({ty(y.shape,'f32')}) -> {ty((2,1),'f32')}",
    check("r", y[1:3, 3:4], "f32")])

# tile.
x = rng.randint(-9, 10, (2, 3)).astype(np.int32)
fn("tile_shape_operand", [unf("x", x, "i32"), shape("m", [2, 3]),
    f"  %r = tosa.tile %x, %m : ({ty(x.shape,'i32')}, !tosa.shape<2>) -> {ty((4,9),'i32')}",
    check("r", np.tile(x, (2, 3)), "i32")])
x = rng.randint(-9, 10, (1, 2, 1)).astype(np.float32)
fn("tile_attr", [unf("x", x, "f32"),
    f"  %r = tosa.tile %x {{multiples = {arr([3, 1, 2])}}} : ({ty(x.shape,'f32')}) -> {ty((3,2,2),'f32')}",
    check("r", np.tile(x, (3, 1, 2)), "f32")])

# rescale (TOSA 1.0 pseudo-code).
def apply_scale_32(value, multiplier, shift, double_round):
    round_ = 1 << (shift - 1)
    if double_round:
        if shift > 31 and value >= 0: round_ += 1 << 30
        if shift > 31 and value < 0: round_ -= 1 << 30
    return (value * multiplier + round_) >> shift

def rescale(x, mult, shift, izp, ozp, double_round, per_channel, lo, hi, in_unsigned=False):
    r = np.zeros(x.shape, np.int64)
    for idx in np.ndindex(x.shape):
        v = int(x[idx])
        if in_unsigned and v < 0: v += 256
        v -= izp
        c = idx[-1] if per_channel else 0
        res = apply_scale_32(v, mult[c], shift[c], double_round) + ozp
        r[idx] = min(max(res, lo), hi)
    return r

x = rng.randint(-128, 128, (3, 4)).astype(np.int8)
mult, sh = [1518500250], [37]
fn("rescale_i8_double_round", [unf("x", x, "i8"), const("m", np.array(mult), "i32"), const("s", np.array(sh), "i8"),
    const("izp", np.array([-3]), "i8"), const("ozp", np.array([5]), "i8"),
    f'  %r = tosa.rescale %x, %m, %s, %izp, %ozp {{input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = "DOUBLE_ROUND", scale32 = true}} : ({ty(x.shape,"i8")}, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> {ty(x.shape,"i8")}',
    check("r", rescale(x, mult, sh, -3, 5, True, False, -128, 127), "i8")])
x = np.array([[-2147483, 5000000, 123456, -7], [99999, -99999, 1 << 20, 3]], np.int32)
mult, sh = [1073741824, 1518500250, 2033207618, 1717986918], [31, 34, 40, 33]
fn("rescale_i32_to_i8_per_channel_attrs", [unf("x", x, "i32"),
    f"  %r = tosa.rescale %x {{double_round = true, input_zp = 0 : i32, multiplier = {arr(mult, 'i32')}, output_zp = -4 : i32, per_channel = true, scale32 = true, shift = {arr(sh, 'i8')}}} : ({ty(x.shape,'i32')}) -> {ty(x.shape,'i8')}",
    check("r", rescale(x, mult, sh, 0, -4, True, True, -128, 127), "i8")])
x = rng.randint(-128, 128, (5,)).astype(np.int8)
mult, sh = [1431655765], [31]
fn("rescale_single_round_to_i32", [unf("x", x, "i8"), const("m", np.array(mult), "i32"), const("s", np.array(sh), "i8"),
    const("izp", np.array([7]), "i8"), const("ozp", np.array([0]), "i32"),
    f'  %r = tosa.rescale %x, %m, %s, %izp, %ozp {{input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = "SINGLE_ROUND", scale32 = true}} : ({ty(x.shape,"i8")}, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> {ty(x.shape,"i32")}',
    check("r", rescale(x, mult, sh, 7, 0, False, False, -(1 << 31), (1 << 31) - 1), "i32")])

print("// Generated by gen_data.py (numpy and a transcription of the TOSA 1.0\n"
      "// rescale pseudo-code): concat, slice, tile and rescale in the TOSA 1.0\n"
      "// operand forms and the older attribute forms.\n")
print("\n".join(out))
