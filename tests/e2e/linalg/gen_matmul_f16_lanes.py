#!/usr/bin/env python3
# Writes matmul_f16_lanes.mlir: f16 contractions whose every product and
# every sum is rounded to f16 in loop order (IREE's f16 matmul semantics:
# arith.mulf and arith.addf on f16). The vmvx backend computes 8 adjacent
# outputs per dot8.f16 along the innermost output dim, and the outputs past
# its last whole group of 8 one per dot.f16; these shapes take the groups
# alone (N = 24, 16), groups and a tail (N = 12, 21, 11, 13), the
# one-output path alone (N = 5), a transposed operand (a step of K between
# lanes), a shared splat and a batch. Expected values: numpy float16,
# element by element in order:
#   /usr/bin/python3 gen_matmul_f16_lanes.py > matmul_f16_lanes.mlir
import numpy as np

rng = np.random.default_rng(1406)


def mm(a, b, c):
    out = c.copy()
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            acc = out[i, j]
            for k in range(a.shape[1]):
                acc = np.float16(acc + np.float16(a[i, k] * b[k, j]))
            out[i, j] = acc
    return out


def f16(shape, scale):
    # Values of a few bits with mixed magnitudes, so that sums round.
    v = rng.integers(-64, 64, size=shape) * scale
    return v.astype(np.float16)


def dense(x):
    def rec(v):
        if v.ndim == 0:
            return repr(float(v))
        return '[' + ', '.join(rec(r) for r in v) + ']'
    return rec(x)


def ty(x):
    return 'tensor<' + 'x'.join(str(d) for d in x.shape) + 'xf16>'


out = []
P = out.append

# 1. 5x70 @ 70x24, accumulating into a non-zero initial output.
a1, b1 = f16((5, 70), 0.0371), f16((70, 24), 0.113)
c1 = f16((5, 24), 0.5)
r1 = mm(a1, b1, c1)
P(f'''// 3 groups of 8 lanes along N, from a non-zero initial output.
func.func @matmul_f16_lanes() {{
  %a = util.unfoldable_constant dense<{dense(a1)}> : {ty(a1)}
  %b = util.unfoldable_constant dense<{dense(b1)}> : {ty(b1)}
  %c = util.unfoldable_constant dense<{dense(c1)}> : {ty(c1)}
  %r = linalg.matmul ins(%a, %b : {ty(a1)}, {ty(b1)}) outs(%c : {ty(c1)}) -> {ty(c1)}
  check.expect_eq_const(%r, dense<{dense(r1)}> : {ty(r1)}) : {ty(r1)}
  return
}}
''')

# 2. N = 12: one group of 8 lanes, then 4 outputs one dot.f16 each.
a2, b2 = f16((3, 33), 0.0371), f16((33, 12), 0.113)
c2 = np.zeros((3, 12), np.float16)
r2 = mm(a2, b2, c2)
P(f'''// N = 12: a group of 8 lanes, then 4 outputs one per dot.f16, same rounding.
func.func @matmul_f16_n12() {{
  %a = util.unfoldable_constant dense<{dense(a2)}> : {ty(a2)}
  %b = util.unfoldable_constant dense<{dense(b2)}> : {ty(b2)}
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : {ty(c2)}
  %c = linalg.fill ins(%z : f16) outs(%e : {ty(c2)}) -> {ty(c2)}
  %r = linalg.matmul ins(%a, %b : {ty(a2)}, {ty(b2)}) outs(%c : {ty(c2)}) -> {ty(c2)}
  check.expect_eq_const(%r, dense<{dense(r2)}> : {ty(r2)}) : {ty(r2)}
  return
}}
''')

# 3. B stored transposed (16x41, read as B^T): lanes step by K.
a3, bt3 = f16((4, 41), 0.0625), f16((16, 41), 0.0371)
c3 = np.zeros((4, 16), np.float16)
r3 = mm(a3, bt3.T.copy(), c3)
P(f'''// B stored transposed (N x K): lane q reads row q, a step of K = 41.
func.func @matmul_f16_transposed_b() {{
  %a = util.unfoldable_constant dense<{dense(a3)}> : {ty(a3)}
  %bt = util.unfoldable_constant dense<{dense(bt3)}> : {ty(bt3)}
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : {ty(c3)}
  %c = linalg.fill ins(%z : f16) outs(%e : {ty(c3)}) -> {ty(c3)}
  %r = linalg.generic {{indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %bt : {ty(a3)}, {ty(bt3)}) outs(%c : {ty(c3)}) {{
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }} -> {ty(c3)}
  check.expect_eq_const(%r, dense<{dense(r3)}> : {ty(r3)}) : {ty(r3)}
  return
}}
''')

# 4. A splat LHS (every lane reads the same element) of 300 x 0.01: the
#    f16 sum stalls where an f32 accumulator would not.
b4 = f16((300, 8), 0.0013)
a4 = np.full((2, 300), 0.01, np.float16)
c4 = np.zeros((2, 8), np.float16)
r4 = mm(a4, b4, c4)
P(f'''// A splat LHS of 0.01 (0.0099945 in f16) against 300 x 8 values.
func.func @matmul_f16_splat_lhs() {{
  %a = arith.constant dense<0.01> : {ty(a4)}
  %b = util.unfoldable_constant dense<{dense(b4)}> : {ty(b4)}
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : {ty(c4)}
  %c = linalg.fill ins(%z : f16) outs(%e : {ty(c4)}) -> {ty(c4)}
  %r = linalg.matmul ins(%a, %b : {ty(a4)}, {ty(b4)}) outs(%c : {ty(c4)}) -> {ty(c4)}
  check.expect_eq_const(%r, dense<{dense(r4)}> : {ty(r4)}) : {ty(r4)}
  return
}}
''')

# 5. A batch of 2: 3x19 @ 19x16 each.
a5, b5 = f16((2, 3, 19), 0.11), f16((2, 19, 16), 0.07)
c5 = np.zeros((2, 3, 16), np.float16)
r5 = np.stack([mm(a5[i], b5[i], c5[i]) for i in range(2)])
P(f'''// batch_matmul: 2 x (3x19 @ 19x16), two groups of 8 lanes per row.
func.func @batch_matmul_f16_lanes() {{
  %a = util.unfoldable_constant dense<{dense(a5)}> : {ty(a5)}
  %b = util.unfoldable_constant dense<{dense(b5)}> : {ty(b5)}
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : {ty(c5)}
  %c = linalg.fill ins(%z : f16) outs(%e : {ty(c5)}) -> {ty(c5)}
  %r = linalg.batch_matmul ins(%a, %b : {ty(a5)}, {ty(b5)}) outs(%c : {ty(c5)}) -> {ty(c5)}
  check.expect_eq_const(%r, dense<{dense(r5)}> : {ty(r5)}) : {ty(r5)}
  return
}}
''')


# 6. Tails past the groups of 8: N = 21 from a non-zero initial output
#    (2 groups + 5), B transposed with N = 11 (1 group + 3, lanes step by
#    K), a batch with N = 13 (1 group + 5), and N = 5 (no group).
a6, b6 = f16((4, 37), 0.0371), f16((37, 21), 0.113)
c6 = f16((4, 21), 0.5)
r6 = mm(a6, b6, c6)
a7, bt7 = f16((3, 29), 0.0625), f16((11, 29), 0.0371)
c7 = np.zeros((3, 11), np.float16)
r7 = mm(a7, bt7.T.copy(), c7)
a8, b8 = f16((2, 2, 23), 0.11), f16((2, 23, 13), 0.07)
c8 = np.zeros((2, 2, 13), np.float16)
r8 = np.stack([mm(a8[i], b8[i], c8[i]) for i in range(2)])
a9, b9 = f16((3, 40), 0.0371), f16((40, 5), 0.113)
c9 = f16((3, 5), 0.25)
r9 = mm(a9, b9, c9)
P(f'''// Outputs past the last group of 8 lanes (N = 21, 11 transposed, 13
// batched, 5): the groups through dot8.f16, the rest through dot.f16.
func.func @matmul_f16_lane_tails() {{
  %a = util.unfoldable_constant dense<{dense(a6)}> : {ty(a6)}
  %b = util.unfoldable_constant dense<{dense(b6)}> : {ty(b6)}
  %c = util.unfoldable_constant dense<{dense(c6)}> : {ty(c6)}
  %r = linalg.matmul ins(%a, %b : {ty(a6)}, {ty(b6)}) outs(%c : {ty(c6)}) -> {ty(c6)}
  check.expect_eq_const(%r, dense<{dense(r6)}> : {ty(r6)}) : {ty(r6)}
  %a7 = util.unfoldable_constant dense<{dense(a7)}> : {ty(a7)}
  %bt7 = util.unfoldable_constant dense<{dense(bt7)}> : {ty(bt7)}
  %z = arith.constant 0.0 : f16
  %e7 = tensor.empty() : {ty(c7)}
  %c7 = linalg.fill ins(%z : f16) outs(%e7 : {ty(c7)}) -> {ty(c7)}
  %r7 = linalg.generic {{indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a7, %bt7 : {ty(a7)}, {ty(bt7)}) outs(%c7 : {ty(c7)}) {{
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }} -> {ty(c7)}
  check.expect_eq_const(%r7, dense<{dense(r7)}> : {ty(r7)}) : {ty(r7)}
  %a8 = util.unfoldable_constant dense<{dense(a8)}> : {ty(a8)}
  %b8 = util.unfoldable_constant dense<{dense(b8)}> : {ty(b8)}
  %e8 = tensor.empty() : {ty(c8)}
  %c8 = linalg.fill ins(%z : f16) outs(%e8 : {ty(c8)}) -> {ty(c8)}
  %r8 = linalg.batch_matmul ins(%a8, %b8 : {ty(a8)}, {ty(b8)}) outs(%c8 : {ty(c8)}) -> {ty(c8)}
  check.expect_eq_const(%r8, dense<{dense(r8)}> : {ty(r8)}) : {ty(r8)}
  %a9 = util.unfoldable_constant dense<{dense(a9)}> : {ty(a9)}
  %b9 = util.unfoldable_constant dense<{dense(b9)}> : {ty(b9)}
  %c9 = util.unfoldable_constant dense<{dense(c9)}> : {ty(c9)}
  %r9 = linalg.matmul ins(%a9, %b9 : {ty(a9)}, {ty(b9)}) outs(%c9 : {ty(c9)}) -> {ty(c9)}
  check.expect_eq_const(%r9, dense<{dense(r9)}> : {ty(r9)}) : {ty(r9)}
  return
}}
''')

print('// f16 contractions rounded to f16 after every product and sum, in loop\n'
      '// order. Generated by gen_matmul_f16_lanes.py (numpy float16, element\n'
      '// by element); regenerate with\n'
      '//   /usr/bin/python3 gen_matmul_f16_lanes.py > matmul_f16_lanes.mlir\n')
print('\n'.join(out))
