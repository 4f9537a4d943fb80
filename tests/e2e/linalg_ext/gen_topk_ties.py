#!/usr/bin/env python3
# Writes topk_ties.mlir: iree_linalg_ext.topk / topk_v2 where equal values
# compete, so the order of their indices is IREE's. The expected values come
# from this model of IREE's scalar lowering of the ops (LinalgExt
# TilingInterfaceImpl: the K-slot insertion with a carry, and for topk_v2
# with is_sorted a bubble sort of the K slots after every insertion), run
# here element by element in plain Python:
#   /usr/bin/python3 gen_topk_ties.py > topk_ties.mlir
import math

def topk(vals, idxs, out_v, out_i, better, sort, empty=False):
    ov, oi = list(out_v), list(out_i)
    k = len(ov)
    for t, (cv, ci) in enumerate(zip(vals, idxs)):
        for p in range(k):
            kv, ki = ov[p], oi[p]
            f = better(cv, kv) or (empty and p >= t)
            r = better(kv, cv)
            take_i = f or (f == r and ci < ki)
            ov[p], cv = (cv, kv) if f else (kv, cv)
            oi[p], ci = (ci, ki) if take_i else (ki, ci)
        if sort:
            for i in range(k - 1):
                for j in range(k - 1 - i):
                    keep = better(ov[j], ov[j + 1]) or (empty and j + 1 > t)
                    if not keep:
                        ov[j], ov[j + 1] = ov[j + 1], ov[j]
                        oi[j], oi[j + 1] = oi[j + 1], oi[j]
    return ov, oi

gt = lambda a, b: a > b
lt = lambda a, b: a < b

def f32(a):
    return '[' + ', '.join('0xFF800000' if v == -math.inf else
                           '0x7F800000' if v == math.inf else repr(float(v))
                           for v in a) + ']'

def ints(a):
    return '[' + ', '.join(str(v) for v in a) + ']'

def rows(fmt, a):
    return '[' + ', '.join(fmt(r) for r in a) + ']'

out = []
P = out.append

# 1. Ten values with three ties of the largest-but-one and two of the next,
#    K = 6, positions as indices, sorted.
v1 = [2.0, 7.0, 7.0, 1.0, 5.0, 7.0, 5.0, 9.0, 7.0, 0.5, 5.0, 3.0]
k1 = 6
r1 = topk(v1, range(len(v1)), [-math.inf] * k1, [0] * k1, gt, True)
P(f'''// Ties among the 6 largest of 12 (four 7.0s, three 5.0s), positions as
// indices, sorted: the bubble sort after each insertion swaps equal
// neighbours, which decides their order.
func.func @topk_v2_sorted_ties() {{
  %v = util.unfoldable_constant dense<{f32(v1)}> : tensor<12xf32>
  %ev = tensor.empty() : tensor<6xf32>
  %ei = tensor.empty() : tensor<6xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<6xf32>) -> tensor<6xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<6xi32>) -> tensor<6xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<12xf32>) outs(%ov, %oi : tensor<6xf32>, tensor<6xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<6xf32>, tensor<6xi32>
  check.expect_almost_eq_const(%0#0, dense<{f32(r1[0])}> : tensor<6xf32>) : tensor<6xf32>
  check.expect_eq_const(%0#1, dense<{ints(r1[1])}> : tensor<6xi32>) : tensor<6xi32>
  return
}}
''')

# 2. Along dim 0 of a 7x2 tensor with given (not increasing) i64 indices,
#    smallest 4, sorted; the ties' index order decides which index leads.
v2 = [[3.0, 1.0], [1.0, 1.0], [4.0, 1.0], [1.0, 0.0], [5.0, 1.0],
      [1.0, 2.0], [2.0, 1.0]]
i2 = [[40, 7], [12, 3], [33, 9], [50, 1], [20, 4], [11, 8], [31, 2]]
k2 = 4
cols = [topk([r[c] for r in v2], [r[c] for r in i2], [math.inf] * k2,
             [0] * k2, lt, True) for c in range(2)]
e2v = [[cols[c][0][p] for c in range(2)] for p in range(k2)]
e2i = [[cols[c][1][p] for c in range(2)] for p in range(k2)]
P(f'''// The 4 smallest along dim 0 with given i64 indices (not in position
// order): among equal values the smaller index wins a slot, then the sort
// reorders the ties.
func.func @topk_v2_dim0_given_indices_ties() {{
  %v = util.unfoldable_constant dense<{rows(f32, v2)}> : tensor<7x2xf32>
  %i = util.unfoldable_constant dense<{rows(ints, i2)}> : tensor<7x2xi64>
  %ev = tensor.empty() : tensor<4x2xf32>
  %ei = tensor.empty() : tensor<4x2xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i64
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<4x2xf32>) -> tensor<4x2xf32>
  %oi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4x2xi64>) -> tensor<4x2xi64>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v, %i : tensor<7x2xf32>, tensor<7x2xi64>) outs(%ov, %oi : tensor<4x2xf32>, tensor<4x2xi64>) {{
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }} -> tensor<4x2xf32>, tensor<4x2xi64>
  check.expect_almost_eq_const(%0#0, dense<{rows(f32, e2v)}> : tensor<4x2xf32>) : tensor<4x2xf32>
  check.expect_eq_const(%0#1, dense<{rows(ints, e2i)}> : tensor<4x2xi64>) : tensor<4x2xi64>
  return
}}
''')

# 3. Unsorted topk_v2 and the legacy topk on the same ties: the insertion
#    alone keeps equal values in index order.
v3 = [[1.0, 4.0, 4.0, 2.0, 4.0, 3.0, 3.0, 0.0],
      [6.0, 6.0, 6.0, 6.0, 1.0, 6.0, 0.0, 2.0]]
k3 = 5
r3 = [topk(r, range(8), [-math.inf] * k3, [0] * k3, gt, False) for r in v3]
for name, op in (('topk_v2_unsorted_ties', 'topk_v2'),
                 ('topk_legacy_ties', 'topk')):
    P(f'''// {op} (not sorted) of rows with ties: each element walks the slots,
// and of two equal values the smaller index keeps the slot.
func.func @{name}() {{
  %v = util.unfoldable_constant dense<{rows(f32, v3)}> : tensor<2x8xf32>
  %ev = tensor.empty() : tensor<2x5xf32>
  %ei = tensor.empty() : tensor<2x5xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x5xf32>) -> tensor<2x5xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x5xi32>) -> tensor<2x5xi32>
  %0:2 = iree_linalg_ext.{op} dimension(1) ins(%v : tensor<2x8xf32>) outs(%ov, %oi : tensor<2x5xf32>, tensor<2x5xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<2x5xf32>, tensor<2x5xi32>
  check.expect_almost_eq_const(%0#0, dense<{rows(f32, [r[0] for r in r3])}> : tensor<2x5xf32>) : tensor<2x5xf32>
  check.expect_eq_const(%0#1, dense<{rows(ints, [r[1] for r in r3])}> : tensor<2x5xi32>) : tensor<2x5xi32>
  return
}}
''')

# 4. Outputs straight from tensor.empty (undefined in IREE): the slots count
#    as empty until the first K elements fill them; K = n = 5, sorted.
v4 = [2.0, 8.0, 2.0, 8.0, 5.0]
r4 = topk(v4, range(5), [0.0] * 5, [0] * 5, gt, True, empty=True)
P(f'''// Outputs from tensor.empty: the first K elements fill the slots
// (K = n, every element kept), ties ordered by the sorts.
func.func @topk_v2_empty_outputs() {{
  %v = util.unfoldable_constant dense<{f32(v4)}> : tensor<5xf32>
  %ev = tensor.empty() : tensor<5xf32>
  %ei = tensor.empty() : tensor<5xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<5xf32>) outs(%ev, %ei : tensor<5xf32>, tensor<5xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<5xf32>, tensor<5xi32>
  check.expect_almost_eq_const(%0#0, dense<{f32(r4[0])}> : tensor<5xf32>) : tensor<5xf32>
  check.expect_eq_const(%0#1, dense<{ints(r4[1])}> : tensor<5xi32>) : tensor<5xi32>
  return
}}
''')

# 5. A run-time batch dim and run-time row length (tensor.cast to ?x?).
v5 = [[0.0, 3.0, 3.0, 1.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
      [5.0, 4.0, 5.0, 4.0, 5.0, 4.0]]
k5 = 4
r5 = [topk(r, range(6), [-math.inf] * k5, [0] * k5, gt, True) for r in v5]
P(f'''// Run-time dims (both cast to ?): the slots are sized by the batch dim,
// the insertion loop runs over the run-time row length.
func.func @topk_v2_dynamic_ties() {{
  %s = util.unfoldable_constant dense<{rows(f32, v5)}> : tensor<3x6xf32>
  %v = tensor.cast %s : tensor<3x6xf32> to tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %v, %c0 : tensor<?x?xf32>
  %ev = tensor.empty(%n) : tensor<?x4xf32>
  %ei = tensor.empty(%n) : tensor<?x4xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<?x4xf32>) -> tensor<?x4xf32>
  %oi = linalg.fill ins(%z : i32) outs(%ei : tensor<?x4xi32>) -> tensor<?x4xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<?x?xf32>) outs(%ov, %oi : tensor<?x4xf32>, tensor<?x4xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<?x4xf32>, tensor<?x4xi32>
  %rv = tensor.cast %0#0 : tensor<?x4xf32> to tensor<3x4xf32>
  %ri = tensor.cast %0#1 : tensor<?x4xi32> to tensor<3x4xi32>
  check.expect_almost_eq_const(%rv, dense<{rows(f32, [r[0] for r in r5])}> : tensor<3x4xf32>) : tensor<3x4xf32>
  check.expect_eq_const(%ri, dense<{rows(ints, [r[1] for r in r5])}> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}}
''')


# Above kiln's slot-by-slot limit (K > 12) and with a run-time K, topk
# from a fill (or tensor.empty) without is_sorted lowers to counts (the
# order IREE's insertion leaves); the same model gives the expected values.

# 6. K = 19 of 20 with ties and three -inf elements past position 9, so
#    the -inf fill (index 9) competes with them: among equal values the
#    smaller index leads, the fill's index included.
v6 = [3.0, 6.0, 7.0, 3.0, 1.0, 7.0, 0.5, 2.0, 3.0, 7.0,
      0.0, -math.inf, 5.0, 3.0, 2.0, 7.0, -math.inf, 1.0, 4.0, -math.inf]
k6 = 19
r6 = topk(v6, range(20), [-math.inf] * k6, [9] * k6, gt, False)
P(f"""// K = 19 of 20 (above the slot limit): ties and three -inf elements, so
// two -inf slots of the fill (index 9) compete with them; equal values
// keep the smaller indices in order.
func.func @topk_large_k_fill_competes() {{
  %v = util.unfoldable_constant dense<{f32(v6)}> : tensor<20xf32>
  %ev = tensor.empty() : tensor<19xf32>
  %ei = tensor.empty() : tensor<19xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c9 = arith.constant 9 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<19xf32>) -> tensor<19xf32>
  %oi = linalg.fill ins(%c9 : i32) outs(%ei : tensor<19xi32>) -> tensor<19xi32>
  %0:2 = iree_linalg_ext.topk dimension(0) ins(%v : tensor<20xf32>) outs(%ov, %oi : tensor<19xf32>, tensor<19xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<19xf32>, tensor<19xi32>
  check.expect_almost_eq_const(%0#0, dense<{f32(r6[0])}> : tensor<19xf32>) : tensor<19xf32>
  check.expect_eq_const(%0#1, dense<{ints(r6[1])}> : tensor<19xi32>) : tensor<19xi32>
  return
}}
""")

# 7. A run-time K (3, read from a tensor's run-time dim) on a 2x9 input
#    with given, repeated and unordered i64 indices; smallest first, and
#    a fill of 2.0 (index 4) that competes with the elements.
v7 = [[5.0, 2.0, 1.0, 2.0, 9.0, 2.0, 0.0, 2.0, 1.0],
      [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]]
i7 = [[8, 6, 3, 2, 7, 1, 5, 2, 0], [4, 9, 1, 7, 1, 0, 3, 6, 2]]
k7 = 3
r7 = [topk(v, i, [2.0] * k7, [4] * k7, lt, False) for v, i in zip(v7, i7)]
P(f"""// A run-time K (3) with given i64 indices (repeated, unordered), the 3
// smallest, and a fill of 2.0 with index 4 that competes: ties keep the
// smaller indices, the fill's included.
func.func @topk_runtime_k_given_indices() {{
  %v = util.unfoldable_constant dense<{rows(f32, v7)}> : tensor<2x9xf32>
  %i = util.unfoldable_constant dense<{rows(ints, i7)}> : tensor<2x9xi64>
  %kt = util.unfoldable_constant dense<0> : tensor<{k7}xi8>
  %kd = tensor.cast %kt : tensor<{k7}xi8> to tensor<?xi8>
  %c0 = arith.constant 0 : index
  %k = tensor.dim %kd, %c0 : tensor<?xi8>
  %ev = tensor.empty(%k) : tensor<2x?xf32>
  %ei = tensor.empty(%k) : tensor<2x?xi64>
  %two = arith.constant 2.0 : f32
  %c4 = arith.constant 4 : i64
  %ov = linalg.fill ins(%two : f32) outs(%ev : tensor<2x?xf32>) -> tensor<2x?xf32>
  %oi = linalg.fill ins(%c4 : i64) outs(%ei : tensor<2x?xi64>) -> tensor<2x?xi64>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v, %i : tensor<2x9xf32>, tensor<2x9xi64>) outs(%ov, %oi : tensor<2x?xf32>, tensor<2x?xi64>) {{
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }} -> tensor<2x?xf32>, tensor<2x?xi64>
  %rv = tensor.cast %0#0 : tensor<2x?xf32> to tensor<2x{k7}xf32>
  %ri = tensor.cast %0#1 : tensor<2x?xi64> to tensor<2x{k7}xi64>
  check.expect_almost_eq_const(%rv, dense<{rows(f32, [r[0] for r in r7])}> : tensor<2x{k7}xf32>) : tensor<2x{k7}xf32>
  check.expect_eq_const(%ri, dense<{rows(ints, [r[1] for r in r7])}> : tensor<2x{k7}xi64>) : tensor<2x{k7}xi64>
  return
}}
""")

# 8. Outputs from tensor.empty, K = 14 of 16 along dim 0 of a 16x2 input
#    (unsorted topk_v2), and topk_v2 without output indices.
v8 = [[float((c * 7 + r * 5) % 6) for c in range(2)] for r in range(16)]
k8 = 14
cols8 = [topk([r[c] for r in v8], range(16), [0.0] * k8, [0] * k8, gt,
              False, empty=True) for c in range(2)]
e8v = [[cols8[c][0][p] for c in range(2)] for p in range(k8)]
e8i = [[cols8[c][1][p] for c in range(2)] for p in range(k8)]
P(f"""// Outputs from tensor.empty (the first elements fill the slots), K = 14
// of 16 along dim 0, many ties; then the same without output indices.
func.func @topk_v2_large_k_empty_outputs() {{
  %v = util.unfoldable_constant dense<{rows(f32, v8)}> : tensor<16x2xf32>
  %ev = tensor.empty() : tensor<14x2xf32>
  %ei = tensor.empty() : tensor<14x2xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) ins(%v : tensor<16x2xf32>) outs(%ev, %ei : tensor<14x2xf32>, tensor<14x2xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<14x2xf32>, tensor<14x2xi32>
  check.expect_almost_eq_const(%0#0, dense<{rows(f32, e8v)}> : tensor<14x2xf32>) : tensor<14x2xf32>
  check.expect_eq_const(%0#1, dense<{rows(ints, e8i)}> : tensor<14x2xi32>) : tensor<14x2xi32>
  %1 = iree_linalg_ext.topk_v2 dimension(0) ins(%v : tensor<16x2xf32>) outs(%ev : tensor<14x2xf32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<14x2xf32>
  check.expect_almost_eq_const(%1, dense<{rows(f32, e8v)}> : tensor<14x2xf32>) : tensor<14x2xf32>
  return
}}
""")


# 9. Run-time n (15) and K (13): both dims of the input and of the outputs
#    are ?, filled with -inf and index 7; ties and -inf elements.
v9 = [[2.0, -math.inf, 2.0, 1.0, 2.0, 0.5, 1.0, -math.inf, 3.0, 2.0, 1.0,
       0.0, -math.inf, 1.0, 2.0],
      [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0,
       4.0, 4.0]]
k9 = 13
r9 = [topk(r, range(15), [-math.inf] * k9, [7] * k9, gt, False) for r in v9]
P(f"""// Run-time n (15) and K (13), as ? dims: the fill (-inf, index 7)
// competes with the -inf elements.
func.func @topk_runtime_n_and_k() {{
  %s = util.unfoldable_constant dense<{rows(f32, v9)}> : tensor<2x15xf32>
  %v = tensor.cast %s : tensor<2x15xf32> to tensor<?x?xf32>
  %kt = util.unfoldable_constant dense<0> : tensor<{k9}xi8>
  %kd = tensor.cast %kt : tensor<{k9}xi8> to tensor<?xi8>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %v, %c0 : tensor<?x?xf32>
  %k = tensor.dim %kd, %c0 : tensor<?xi8>
  %ev = tensor.empty(%n, %k) : tensor<?x?xf32>
  %ei = tensor.empty(%n, %k) : tensor<?x?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c7 = arith.constant 7 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<?x?xf32>) -> tensor<?x?xf32>
  %oi = linalg.fill ins(%c7 : i32) outs(%ei : tensor<?x?xi32>) -> tensor<?x?xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<?x?xf32>) outs(%ov, %oi : tensor<?x?xf32>, tensor<?x?xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<?x?xf32>, tensor<?x?xi32>
  %rv = tensor.cast %0#0 : tensor<?x?xf32> to tensor<2x{k9}xf32>
  %ri = tensor.cast %0#1 : tensor<?x?xi32> to tensor<2x{k9}xi32>
  check.expect_almost_eq_const(%rv, dense<{rows(f32, [r[0] for r in r9])}> : tensor<2x{k9}xf32>) : tensor<2x{k9}xf32>
  check.expect_eq_const(%ri, dense<{rows(ints, [r[1] for r in r9])}> : tensor<2x{k9}xi32>) : tensor<2x{k9}xi32>
  return
}}
""")


# Above the slot limit, topk_v2 with is_sorted and initial outputs that are
# not a fill (or tensor.empty) run IREE's walk itself on the host, one
# insertion (and one bubble sweep) per step; the same model gives the
# expected values.

# 10. is_sorted, K = 16 of 24 with runs of ties (-inf fill, index 0): the
#     bubble sorts after each insertion reorder equal values.
v10 = [float(x) for x in [4, 7, 4, 1, 7, 4, 9, 4, 7, 2, 4, 7, 0, 4, 9, 7, 1,
                          4, 7, 3, 4, 7, 9, 4]]
k10 = 16
r10 = topk(v10, range(24), [-math.inf] * k10, [0] * k10, gt, True)
P(f"""// is_sorted with K = 16 of 24 (above the slot limit): runs of equal
// values, whose order the bubble sort after each insertion decides.
func.func @topk_v2_sorted_large_k_ties() {{
  %v = util.unfoldable_constant dense<{f32(v10)}> : tensor<24xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<16xi32>) -> tensor<16xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<24xf32>) outs(%ov, %oi : tensor<16xf32>, tensor<16xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<16xf32>, tensor<16xi32>
  check.expect_almost_eq_const(%0#0, dense<{f32(r10[0])}> : tensor<16xf32>) : tensor<16xf32>
  check.expect_eq_const(%0#1, dense<{ints(r10[1])}> : tensor<16xi32>) : tensor<16xi32>
  return
}}
""")

# 11. is_sorted with a run-time K (5) along dim 0 of a 9x2 input, given
#     i64 indices, smallest first, fill +inf with index 3.
v11 = [[2.0, 1.0], [1.0, 1.0], [2.0, 0.0], [1.0, 1.0], [0.0, 1.0],
       [2.0, 1.0], [1.0, 0.0], [2.0, 1.0], [1.0, 2.0]]
i11 = [[5, 1], [9, 8], [2, 4], [7, 2], [6, 6], [1, 9], [3, 0], [8, 3],
       [0, 5]]
k11 = 5
cols11 = [topk([r[c] for r in v11], [r[c] for r in i11], [math.inf] * k11,
               [3] * k11, lt, True) for c in range(2)]
e11v = [[cols11[c][0][p] for c in range(2)] for p in range(k11)]
e11i = [[cols11[c][1][p] for c in range(2)] for p in range(k11)]
P(f"""// is_sorted with a run-time K (5) along dim 0, given i64 indices,
// smallest first: ties reordered by the sorts, the fill's index competes.
func.func @topk_v2_sorted_runtime_k() {{
  %v = util.unfoldable_constant dense<{rows(f32, v11)}> : tensor<9x2xf32>
  %i = util.unfoldable_constant dense<{rows(ints, i11)}> : tensor<9x2xi64>
  %kt = util.unfoldable_constant dense<0> : tensor<{k11}xi8>
  %kd = tensor.cast %kt : tensor<{k11}xi8> to tensor<?xi8>
  %c0 = arith.constant 0 : index
  %k = tensor.dim %kd, %c0 : tensor<?xi8>
  %ev = tensor.empty(%k) : tensor<?x2xf32>
  %ei = tensor.empty(%k) : tensor<?x2xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c3 = arith.constant 3 : i64
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<?x2xf32>) -> tensor<?x2xf32>
  %oi = linalg.fill ins(%c3 : i64) outs(%ei : tensor<?x2xi64>) -> tensor<?x2xi64>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v, %i : tensor<9x2xf32>, tensor<9x2xi64>) outs(%ov, %oi : tensor<?x2xf32>, tensor<?x2xi64>) {{
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }} -> tensor<?x2xf32>, tensor<?x2xi64>
  %rv = tensor.cast %0#0 : tensor<?x2xf32> to tensor<{k11}x2xf32>
  %ri = tensor.cast %0#1 : tensor<?x2xi64> to tensor<{k11}x2xi64>
  check.expect_almost_eq_const(%rv, dense<{rows(f32, e11v)}> : tensor<{k11}x2xf32>) : tensor<{k11}x2xf32>
  check.expect_eq_const(%ri, dense<{rows(ints, e11i)}> : tensor<{k11}x2xi64>) : tensor<{k11}x2xi64>
  return
}}
""")

# 12. Initial outputs not in order (K = 13): values and indices given, so
#     the insertion's value and index paths part where they meet equal
#     values; legacy topk, and topk_v2 with is_sorted on the same inputs.
v12 = [[5.0, 1.0, 8.0, 5.0, 3.0, 5.0, 9.0, 0.0, 5.0, 2.0, 8.0, 5.0, 4.0,
        5.0, 7.0],
       [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0,
        1.0, 0.0]]
s12v = [[3.0, 9.0, 5.0, 1.0, 5.0, 7.0, 2.0, 5.0, 6.0, 4.0, 8.0, 0.0, 5.0],
        [2.0, 1.0, 0.0, 1.0, 3.0, 1.0, 1.0, 0.0, 1.0, 2.0, 1.0, 1.0, 0.0]]
s12i = [[20, 21, 2, 23, 4, 25, 26, 6, 28, 29, 30, 31, 9],
        [5, 40, 41, 1, 42, 12, 3, 43, 0, 44, 7, 8, 45]]
k12 = 13
r12 = [topk(v, range(15), sv, si, gt, False)
       for v, sv, si in zip(v12, s12v, s12i)]
r12s = [topk(v, range(15), sv, si, gt, True)
        for v, sv, si in zip(v12, s12v, s12i)]
P(f"""// Initial outputs that are not in order (K = 13, values and indices
// given): each element walks them as IREE's insertion does; then topk_v2
// with is_sorted, whose bubble sorts put them in order as it goes.
func.func @topk_unordered_initial_outputs() {{
  %v = util.unfoldable_constant dense<{rows(f32, v12)}> : tensor<2x15xf32>
  %ov = util.unfoldable_constant dense<{rows(f32, s12v)}> : tensor<2x13xf32>
  %oi = util.unfoldable_constant dense<{rows(ints, s12i)}> : tensor<2x13xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x15xf32>) outs(%ov, %oi : tensor<2x13xf32>, tensor<2x13xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<2x13xf32>, tensor<2x13xi32>
  check.expect_almost_eq_const(%0#0, dense<{rows(f32, [r[0] for r in r12])}> : tensor<2x13xf32>) : tensor<2x13xf32>
  check.expect_eq_const(%0#1, dense<{rows(ints, [r[1] for r in r12])}> : tensor<2x13xi32>) : tensor<2x13xi32>
  %1:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<2x15xf32>) outs(%ov, %oi : tensor<2x13xf32>, tensor<2x13xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<2x13xf32>, tensor<2x13xi32>
  check.expect_almost_eq_const(%1#0, dense<{rows(f32, [r[0] for r in r12s])}> : tensor<2x13xf32>) : tensor<2x13xf32>
  check.expect_eq_const(%1#1, dense<{rows(ints, [r[1] for r in r12s])}> : tensor<2x13xi32>) : tensor<2x13xi32>
  return
}}
""")

# 13. Run-time K (4) and n (7) with initial outputs not in order, topk_v2
#     without output indices, sorted and not.
v13 = [1.0, 2.0, 1.0, 0.0, 3.0, 1.0, 2.0]
s13 = [5.0, 8.0, 0.0, 6.0]
k13 = 4
r13 = topk(v13, range(7), s13, [0] * k13, gt, False)
r13s = topk(v13, range(7), s13, [0] * k13, gt, True)
P(f"""// A run-time K (4) and n (7), initial values not in order, topk_v2
// without output indices: unsorted, then with is_sorted.
func.func @topk_v2_runtime_k_unordered_values_only() {{
  %s = util.unfoldable_constant dense<{f32(v13)}> : tensor<7xf32>
  %v = tensor.cast %s : tensor<7xf32> to tensor<?xf32>
  %o = util.unfoldable_constant dense<{f32(s13)}> : tensor<4xf32>
  %od = tensor.cast %o : tensor<4xf32> to tensor<?xf32>
  %0 = iree_linalg_ext.topk_v2 dimension(0) ins(%v : tensor<?xf32>) outs(%od : tensor<?xf32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<?xf32>
  %1 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<?xf32>) outs(%od : tensor<?xf32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<?xf32>
  %r0 = tensor.cast %0 : tensor<?xf32> to tensor<{k13}xf32>
  %r1 = tensor.cast %1 : tensor<?xf32> to tensor<{k13}xf32>
  check.expect_almost_eq_const(%r0, dense<{f32(r13[0])}> : tensor<{k13}xf32>) : tensor<{k13}xf32>
  check.expect_almost_eq_const(%r1, dense<{f32(r13s[0])}> : tensor<{k13}xf32>) : tensor<{k13}xf32>
  return
}}
""")

# 14. is_sorted from tensor.empty, K = 15 of 18 (the first elements fill
#     the slots), with ties.
v14 = [float(x) for x in [3, 3, 1, 5, 3, 5, 0, 3, 5, 1, 3, 5, 2, 3, 5, 3, 1,
                          5]]
k14 = 15
r14 = topk(v14, range(18), [0.0] * k14, [0] * k14, gt, True, empty=True)
P(f"""// is_sorted with outputs from tensor.empty, K = 15 of 18: the first
// elements fill the slots, the sorts order the ties.
func.func @topk_v2_sorted_large_k_empty_outputs() {{
  %v = util.unfoldable_constant dense<{f32(v14)}> : tensor<18xf32>
  %ev = tensor.empty() : tensor<15xf32>
  %ei = tensor.empty() : tensor<15xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<18xf32>) outs(%ev, %ei : tensor<15xf32>, tensor<15xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<15xf32>, tensor<15xi32>
  check.expect_almost_eq_const(%0#0, dense<{f32(r14[0])}> : tensor<15xf32>) : tensor<15xf32>
  check.expect_eq_const(%0#1, dense<{ints(r14[1])}> : tensor<15xi32>) : tensor<15xi32>
  return
}}
""")

print('// iree_linalg_ext.topk / topk_v2 with equal values: indices in IREE\'s\n'
      '// order. Expected values from gen_topk_ties.py (a Python model of\n'
      '// IREE\'s scalar lowering); regenerate with\n'
      '//   /usr/bin/python3 gen_topk_ties.py > topk_ties.mlir\n')
print('\n'.join(out))
