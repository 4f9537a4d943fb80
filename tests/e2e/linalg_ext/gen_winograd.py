#!/usr/bin/env python3
# Writes winograd.mlir (expected values computed with numpy):
#   /usr/bin/python3 gen_winograd.py > winograd.mlir
# The F(6x6, 3x3) matrices (interpolation points 0, 1, -1, 2, -2, 1/2, -1/2,
# infinity) are checked here to be a Winograd triple: A^T [(G g G^T) *
# (B^T d B)] A is the valid 3x3 correlation of an 8x8 tile d with g.
import numpy as np
BT = np.array([
    [1, 0, -21/4, 0, 21/4, 0, -1, 0],
    [0, 1, 1, -17/4, -17/4, 1, 1, 0],
    [0, -1, 1, 17/4, -17/4, -1, 1, 0],
    [0, 1/2, 1/4, -5/2, -5/4, 2, 1, 0],
    [0, -1/2, 1/4, 5/2, -5/4, -2, 1, 0],
    [0, 2, 4, -5/2, -5, 1/2, 1, 0],
    [0, -2, 4, 5/2, -5, -1/2, 1, 0],
    [0, -1, 0, 21/4, 0, -21/4, 0, 1]])
AT = np.array([
    [1, 1, 1, 1, 1, 1, 1, 0],
    [0, 1, -1, 2, -2, 1/2, -1/2, 0],
    [0, 1, 1, 4, 4, 1/4, 1/4, 0],
    [0, 1, -1, 8, -8, 1/8, -1/8, 0],
    [0, 1, 1, 16, 16, 1/16, 1/16, 0],
    [0, 1, -1, 32, -32, 1/32, -1/32, 1]])
G = np.array([
    [1, 0, 0], [-2/9, -2/9, -2/9], [-2/9, 2/9, -2/9],
    [1/90, 1/45, 2/45], [1/90, -1/45, 2/45],
    [32/45, 16/45, 8/45], [32/45, -16/45, 8/45], [0, 0, 1]])
rng = np.random.default_rng(3)
d = rng.uniform(-1, 1, (8, 8)); g = rng.uniform(-1, 1, (3, 3))
direct = np.array([[np.sum(d[i:i+3, j:j+3] * g) for j in range(6)] for i in range(6)])
assert np.allclose(AT @ ((G @ g @ G.T) * (BT @ d @ BT.T)) @ AT.T, direct)

def fmt(a):
    s = np.array2string(np.asarray(a, np.float32), separator=', ', threshold=10**6,
                        formatter={'float_kind': lambda v: repr(float(v))})
    return f"dense<{s.replace(chr(10), '')}> : tensor<{'x'.join(map(str, a.shape))}xf32>"

print("// winograd.input_transform / output_transform (F(6x6, 3x3)); expected\n"
      "// values computed with numpy (gen_winograd.py).\n")
img = np.round(rng.uniform(-2, 2, (1, 14, 14, 1)), 2).astype(np.float32)
pad = np.zeros((1, 16, 16, 1)); pad[:, :14, :14, :] = img
tin = np.zeros((8, 8, 1, 2, 2, 1))
for h in range(2):
    for w in range(2):
        tin[:, :, 0, h, w, 0] = BT @ pad[0, 6*h:6*h+8, 6*w:6*w+8, 0] @ BT.T
print(f'''// A 14x14 NHWC image makes 2x2 tiles of 8x8 (starting every 6; the last
// ones read zeros past the image).
func.func @winograd_input_nhwc_2x2_tiles() {{
  %x = util.unfoldable_constant {fmt(img)}
  %e = tensor.empty() : tensor<8x8x1x2x2x1xf32>
  %0 = iree_linalg_ext.winograd.input_transform output_tile_size(6) kernel_size(3) image_dimensions([1, 2]) ins(%x : tensor<1x14x14x1xf32>) outs(%e : tensor<8x8x1x2x2x1xf32>) -> tensor<8x8x1x2x2x1xf32>
  check.expect_almost_eq_const(%0, {fmt(tin)}, atol 1.0e-04) : tensor<8x8x1x2x2x1xf32>
  return
}}
''')
y = np.round(rng.uniform(-1, 1, (8, 8, 1, 1, 2, 2)), 2).astype(np.float32)
out = np.zeros((1, 2, 6, 12))
for w in range(2):
    for c in range(2):
        out[0, c, :, 6*w:6*w+6] = AT @ y[:, :, 0, 0, w, c] @ AT.T
print(f'''// Output tiles back to a 1x2x6x12 NCHW image (2 channels, 1x2 tiles).
func.func @winograd_output_nchw() {{
  %y = util.unfoldable_constant {fmt(y)}
  %e = tensor.empty() : tensor<1x2x6x12xf32>
  %0 = iree_linalg_ext.winograd.output_transform output_tile_size(6) kernel_size(3) image_dimensions([2, 3]) ins(%y : tensor<8x8x1x1x2x2xf32>) outs(%e : tensor<1x2x6x12xf32>) -> tensor<1x2x6x12xf32>
  check.expect_almost_eq_const(%0, {fmt(out)}, atol 1.0e-03, rtol 1.0e-05) : tensor<1x2x6x12xf32>
  return
}}''')
