#!/usr/bin/env python3
# Writes linalg_ext.mlir (expected values computed with numpy):
#   /usr/bin/python3 gen_linalg_ext.py > linalg_ext.mlir
import numpy as np
def fmt(a, ty):
    a=np.asarray(a)
    if ty.startswith('f'):
        s=np.array2string(a, separator=', ', formatter={'float_kind':lambda v: repr(float(v))}, threshold=10**6)
    else:
        s=np.array2string(a, separator=', ', threshold=10**6)
    s=s.replace('\n','')
    shape='x'.join(str(d) for d in a.shape)
    return f"dense<{s}> : tensor<{shape+'x' if shape else ''}{ty}>"
out=[]
P=out.append
# sort: two operands along dim 1, descending by key, stable on ties
key=np.array([[3.0,1.0,3.0,2.0],[0.5,-1.0,0.5,7.0]],dtype=np.float32)
val=np.array([[0,1,2,3],[4,5,6,7]],dtype=np.int32)
order=np.argsort(-key,axis=1,kind='stable')
P(f'''// Sorts keys descending along dim 1, carrying a second operand; equal
// keys keep their input order.
func.func @sort_two_operands_descending() {{
  %k = util.unfoldable_constant {fmt(key,'f32')}
  %v = util.unfoldable_constant {fmt(val,'i32')}
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%k, %v : tensor<2x4xf32>, tensor<2x4xi32>) {{
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<2x4xf32>, tensor<2x4xi32>
  check.expect_almost_eq_const(%0#0, {fmt(np.take_along_axis(key,order,1),'f32')}) : tensor<2x4xf32>
  check.expect_eq_const(%0#1, {fmt(np.take_along_axis(val,order,1),'i32')}) : tensor<2x4xi32>
  return
}}
''')
# scan exclusive mul along dim 1 with per-row init
x=np.array([[1,2,3,4],[2,2,-1,5]],dtype=np.int32); init=np.array([10,-1],dtype=np.int32)
ex=np.zeros_like(x)
for r in range(2):
    acc=init[r]
    for j in range(4):
        ex[r,j]=acc; acc=acc*x[r,j]
P(f'''// Exclusive product scan along dim 1: out[j] = init * x[0] * ... * x[j-1];
// the accumulator result is the last output element.
func.func @scan_exclusive_mul_dim1() {{
  %x = util.unfoldable_constant {fmt(x,'i32')}
  %init = util.unfoldable_constant {fmt(init,'i32')}
  %e = tensor.empty() : tensor<2x4xi32>
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(false) ins(%x : tensor<2x4xi32>) outs(%e, %init : tensor<2x4xi32>, tensor<2xi32>) {{
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    iree_linalg_ext.yield %m : i32
  }} -> tensor<2x4xi32>, tensor<2xi32>
  check.expect_eq_const(%0#0, {fmt(ex,'i32')}) : tensor<2x4xi32>
  check.expect_eq_const(%0#1, {fmt(ex[:,-1],'i32')}) : tensor<2xi32>
  return
}}
''')
xf=np.array([[1.5,-2.0,0.25],[3.0,1.0,-4.0],[0.5,0.5,0.5]],dtype=np.float32)
inc=np.maximum.accumulate(xf,axis=0)
P(f'''// Inclusive running maximum along dim 0.
func.func @scan_inclusive_max_dim0() {{
  %x = util.unfoldable_constant {fmt(xf,'f32')}
  %init = util.unfoldable_constant dense<0.0> : tensor<3xf32>
  %e = tensor.empty() : tensor<3x3xf32>
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<3x3xf32>) outs(%e, %init : tensor<3x3xf32>, tensor<3xf32>) {{
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    iree_linalg_ext.yield %m : f32
  }} -> tensor<3x3xf32>, tensor<3xf32>
  check.expect_almost_eq_const(%0#0, {fmt(inc,'f32')}) : tensor<3x3xf32>
  check.expect_almost_eq_const(%0#1, {fmt(inc[-1],'f32')}) : tensor<3xf32>
  return
}}
''')
# topk min-2 along dim 1 with explicit indices (ties -> earlier position)
tv=np.array([[5.0,1.0,3.0,1.0,0.0],[2.0,2.0,9.0,-3.0,4.0]],dtype=np.float32)
ti=np.array([[10,11,12,13,14],[20,21,22,23,24]],dtype=np.int32)
o=np.argsort(tv,axis=1,kind='stable')[:,:2]
P(f'''// The 2 smallest values per row with their (given) indices; of equal
// values the earlier one comes first.
func.func @topk_min2_with_indices() {{
  %v = util.unfoldable_constant {fmt(tv,'f32')}
  %i = util.unfoldable_constant {fmt(ti,'i32')}
  %ev = tensor.empty() : tensor<2x2xf32>
  %ei = tensor.empty() : tensor<2x2xi32>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<2x2xf32>) -> tensor<2x2xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x2xi32>) -> tensor<2x2xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v, %i : tensor<2x5xf32>, tensor<2x5xi32>) outs(%ov, %oi : tensor<2x2xf32>, tensor<2x2xi32>) {{
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }} -> tensor<2x2xf32>, tensor<2x2xi32>
  check.expect_almost_eq_const(%0#0, {fmt(np.take_along_axis(tv,o,1),'f32')}) : tensor<2x2xf32>
  check.expect_eq_const(%0#1, {fmt(np.take_along_axis(ti,o,1),'i32')}) : tensor<2x2xi32>
  return
}}
''')
tv2=np.array([[0.5,7.0,-1.0,7.5,3.0,2.0],[9.0,-9.0,4.0,4.5,0.0,1.0]],dtype=np.float32)
top3=-np.sort(-tv2,axis=1)[:,:3]
P(f'''// topk_v2 without output indices: the 3 largest values per row, sorted.
func.func @topk_v2_values_only_sorted() {{
  %v = util.unfoldable_constant {fmt(tv2,'f32')}
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<2x6xf32>) outs(%e : tensor<2x3xf32>) {{
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<2x3xf32>
  check.expect_almost_eq_const(%0, {fmt(top3,'f32')}) : tensor<2x3xf32>
  return
}}
''')
rng=np.random.default_rng(7)
Q=rng.uniform(-1,1,(2,3,4)).astype(np.float32)
Kt=rng.uniform(-1,1,(2,4,5)).astype(np.float32)   # key stored transposed: (batch, k1, k2)
V=rng.uniform(-1,1,(2,5,2)).astype(np.float32)
M=rng.uniform(-1,0,(2,3,5)).astype(np.float32)
sc=0.75
S=np.einsum('bmk,bkn->bmn',Q,Kt)*sc+M
Pr=np.exp(S-S.max(-1,keepdims=True)); Pr/=Pr.sum(-1,keepdims=True)
O=np.einsum('bmn,bnd->bmd',Pr,V)
P(f'''// attention with a float mask and the key stored transposed (the maps say
// where each dim is): softmax(Q K * 0.75 + M) V.
func.func @attention_float_mask_transposed_key() {{
  %q = util.unfoldable_constant {fmt(Q,'f32')}
  %k = util.unfoldable_constant {fmt(Kt,'f32')}
  %v = util.unfoldable_constant {fmt(V,'f32')}
  %m = util.unfoldable_constant {fmt(M,'f32')}
  %scale = arith.constant 0.75 : f32
  %e = tensor.empty() : tensor<2x3x2xf32>
  %0 = iree_linalg_ext.attention {{indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, k2)>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}} ins(%q, %k, %v, %scale, %m : tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<2x5x2xf32>, f32, tensor<2x3x5xf32>) outs(%e : tensor<2x3x2xf32>) {{
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  }} -> tensor<2x3x2xf32>
  check.expect_almost_eq_const(%0, {fmt(O,'f32')}, atol 1.0e-05) : tensor<2x3x2xf32>
  return
}}
''')
# online attention in two steps over halves of k2 equals full attention (no mask)
S2=np.einsum('bmk,bkn->bmn',Q,Kt)*sc
P2=np.exp(S2-S2.max(-1,keepdims=True)); P2/=P2.sum(-1,keepdims=True)
O2=np.einsum('bmn,bnd->bmd',P2,V)
P(f'''// online_attention over key/value columns 0-2 then 3-4, then the
// running output divided by the running sum: the same as attention.
func.func @online_attention_two_steps() {{
  %q = util.unfoldable_constant {fmt(Q,'f32')}
  %k = util.unfoldable_constant {fmt(Kt,'f32')}
  %v = util.unfoldable_constant {fmt(V,'f32')}
  %scale = arith.constant 0.75 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ea = tensor.empty() : tensor<2x3x2xf32>
  %er = tensor.empty() : tensor<2x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %max = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %k0 = tensor.extract_slice %k[0, 0, 0] [2, 4, 3] [1, 1, 1] : tensor<2x4x5xf32> to tensor<2x4x3xf32>
  %v0 = tensor.extract_slice %v[0, 0, 0] [2, 3, 2] [1, 1, 1] : tensor<2x5x2xf32> to tensor<2x3x2xf32>
  %k1 = tensor.extract_slice %k[0, 0, 3] [2, 4, 2] [1, 1, 1] : tensor<2x4x5xf32> to tensor<2x4x2xf32>
  %v1 = tensor.extract_slice %v[0, 3, 0] [2, 2, 2] [1, 1, 1] : tensor<2x5x2xf32> to tensor<2x2x2xf32>
  %r0:3 = iree_linalg_ext.online_attention {{indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>, affine_map<(b, m, k1, k2, n) -> (b, m)>, affine_map<(b, m, k1, k2, n) -> (b, m)>]}} ins(%q, %k0, %v0, %scale : tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<2x3x2xf32>, f32) outs(%acc, %max, %sum : tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {{
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  }} -> tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  %r1:3 = iree_linalg_ext.online_attention {{indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>, affine_map<(b, m, k1, k2, n) -> (b, m)>, affine_map<(b, m, k1, k2, n) -> (b, m)>]}} ins(%q, %k1, %v1, %scale : tensor<2x3x4xf32>, tensor<2x4x2xf32>, tensor<2x2x2xf32>, f32) outs(%r0#0, %r0#1, %r0#2 : tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {{
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  }} -> tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  %o = tensor.empty() : tensor<2x3x2xf32>
  %n = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%r1#0, %r1#2 : tensor<2x3x2xf32>, tensor<2x3xf32>) outs(%o : tensor<2x3x2xf32>) {{
  ^bb0(%a: f32, %s: f32, %unused: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }} -> tensor<2x3x2xf32>
  check.expect_almost_eq_const(%n, {fmt(O2,'f32')}, atol 1.0e-05) : tensor<2x3x2xf32>
  return
}}
''')
ml=np.arange(6,dtype=np.float32).reshape(2,3)+0.5
mlo=np.full((4,2),-1.0,dtype=np.float32); mlo[:3,:]=ml.T
P(f'''// map_load: out[i, j] = src[j, i] (a transpose), -1 where i is past the
// source (the padding value, a constant defined outside the region).
func.func @map_load_transpose_padded() {{
  %s = util.unfoldable_constant {fmt(ml,'f32')}
  %pad = arith.constant -1.0 : f32
  %o = tensor.empty() : tensor<4x2xf32>
  %0 = iree_linalg_ext.map_load %s into %o {{
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield %j, %i, %pad : index, index, f32
  }} : tensor<2x3xf32> into tensor<4x2xf32> -> tensor<4x2xf32>
  check.expect_almost_eq_const(%0, {fmt(mlo,'f32')}) : tensor<4x2xf32>
  return
}}
''')
ms=np.array([10,11,12,13,14,15],dtype=np.int32); mso=np.zeros((3,2),dtype=np.int32)
for i in range(6):
    if i % 2 == 0: mso[(i//2)][1]=ms[i]
    # odd elements masked off
P(f'''// map_store: element i goes to [i / 2, 1] (delinearized with basis
// (3, 2), then column forced to 1) only for even i; the rest of the output
// keeps its zeros.
func.func @map_store_masked_delinearize() {{
  %x = util.unfoldable_constant {fmt(ms,'i32')}
  %o = util.unfoldable_constant dense<0> : tensor<3x2xi32>
  %0 = iree_linalg_ext.map_store %x into %o {{
  ^bb0(%i: index):
    %r:2 = affine.delinearize_index %i into (3, 2) : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %even = arith.cmpi eq, %r#1, %c0 : index
    iree_linalg_ext.yield %r#0, %c1, %even : index, index, i1
  }} : tensor<6xi32> into tensor<3x2xi32> -> tensor<3x2xi32>
  check.expect_eq_const(%0, {fmt(mso,'i32')}) : tensor<3x2xi32>
  return
}}
''')
# arg_compare argmin along dim 0 with index_base; explicit index mode
av=np.array([[4.0,-1.0,2.0],[3.0,5.0,2.0],[3.0,-2.0,7.0]],dtype=np.float32)
am=np.argmin(av,axis=0)
P(f'''// argmin along dim 0 (the first of equal minima) with index_base 7.
func.func @arg_compare_argmin_dim0_base() {{
  %v = util.unfoldable_constant {fmt(av,'f32')}
  %ev = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i64
  %base = arith.constant 7 : index
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<3xf32>) -> tensor<3xf32>
  %oi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %0:2 = iree_linalg_ext.arg_compare dimension(0) ins(%v : tensor<3x3xf32>) outs(%ov, %oi : tensor<3xf32>, tensor<3xi64>) index_base(%base : index) {{
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }} -> tensor<3xf32>, tensor<3xi64>
  check.expect_almost_eq_const(%0#0, {fmt(av.min(axis=0),'f32')}) : tensor<3xf32>
  check.expect_eq_const(%0#1, {fmt((am+7).astype(np.int64),'i64')}) : tensor<3xi64>
  return
}}
''')
pv=np.array([[1,9,4,9],[6,2,8,0]],dtype=np.int32); pi=np.array([[3,2,1,0],[5,6,7,8]],dtype=np.int32)
k=np.argmax(pv,axis=1)
P(f'''// argmax along dim 1 of values with explicit indices (partial results
// being merged): the index comes from the indices operand.
func.func @arg_compare_argmax_explicit_indices() {{
  %v = util.unfoldable_constant {fmt(pv,'i32')}
  %i = util.unfoldable_constant {fmt(pi,'i32')}
  %ev = tensor.empty() : tensor<2xi32>
  %ei = tensor.empty() : tensor<2xi32>
  %min = arith.constant -2147483648 : i32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%min : i32) outs(%ev : tensor<2xi32>) -> tensor<2xi32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2xi32>) -> tensor<2xi32>
  %0:2 = iree_linalg_ext.arg_compare dimension(1) ins(%v, %i : tensor<2x4xi32>, tensor<2x4xi32>) outs(%ov, %oi : tensor<2xi32>, tensor<2xi32>) {{
  ^bb0(%a: i32, %b: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %gt : i1
  }} -> tensor<2xi32>, tensor<2xi32>
  check.expect_eq_const(%0#0, {fmt(pv.max(axis=1),'i32')}) : tensor<2xi32>
  check.expect_eq_const(%0#1, {fmt(pi[np.arange(2),k],'i32')}) : tensor<2xi32>
  return
}}
''')
# gather: source 3x4x2, indices 2x2 (batch 2, depth 2) with dimension_map [1, 0] -> out 2x2
src=np.arange(24,dtype=np.float32).reshape(3,4,2)*0.5
ind=np.array([[3,1],[0,2]],dtype=np.int32)
g=np.stack([src[ind[b,1],ind[b,0],:] for b in range(2)])
P(f'''// Batch of 2 index vectors of depth 2; dimension_map [1, 0] sends index
// component 0 to source dim 1 and component 1 to dim 0; the slice is the
// last source dim.
func.func @gather_depth2_permuted() {{
  %s = util.unfoldable_constant {fmt(src,'f32')}
  %i = util.unfoldable_constant {fmt(ind,'i32')}
  %e = tensor.empty() : tensor<2x2xf32>
  %0 = iree_linalg_ext.gather dimension_map = [1, 0] ins(%s, %i : tensor<3x4x2xf32>, tensor<2x2xi32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, {fmt(g,'f32')}) : tensor<2x2xf32>
  return
}}
''')
src2=np.array([[1,2,3],[4,5,6],[7,8,9]],dtype=np.int32); ind2=np.array([2,0,1],dtype=np.int32); mask=np.array([True,False,True]); init2=np.full((3,3),-1,dtype=np.int32)
g2=init2.copy()
for b in range(3):
    if mask[b]: g2[b]=src2[ind2[b]]
P(f'''// Rows gathered by a depth-1 index (no index-depth dim); a false mask
// keeps the output's row.
func.func @gather_rows_masked() {{
  %s = util.unfoldable_constant {fmt(src2,'i32')}
  %i = util.unfoldable_constant {fmt(ind2,'i32')}
  %m = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %o = util.unfoldable_constant {fmt(init2,'i32')}
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i, %m : tensor<3x3xi32>, tensor<3xi32>, tensor<3xi1>) outs(%o : tensor<3x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const(%0, {fmt(g2,'i32')}) : tensor<3x3xi32>
  return
}}
''')
# scatter add with duplicate indices, slice smaller than original
orig=np.arange(12,dtype=np.float32).reshape(3,4)
upd=np.array([[1.0,2.0],[10.0,20.0],[100.0,200.0]],dtype=np.float32)
si=np.array([[2],[0],[2]],dtype=np.int32)
res=orig.copy()
for b in range(3): res[si[b,0],:2]+=upd[b]
P(f'''// Adds 3 row slices of width 2 into a 3x4 original; two updates hit row
// 2 (unique_indices(false)), so both are added.
func.func @scatter_add_duplicates_partial_slice() {{
  %o = util.unfoldable_constant {fmt(orig,'f32')}
  %u = util.unfoldable_constant {fmt(upd,'f32')}
  %i = util.unfoldable_constant {fmt(si,'i32')}
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<3x2xf32>, tensor<3x1xi32>) outs(%o : tensor<3x4xf32>) {{
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    iree_linalg_ext.yield %s : f32
  }} -> tensor<3x4xf32>
  check.expect_almost_eq_const(%0, {fmt(res,'f32')}) : tensor<3x4xf32>
  return
}}
''')
orig3=np.zeros((2,3),dtype=np.int32); upd3=np.array([5,6,7],dtype=np.int32); si3=np.array([[2,1],[0,0],[1,0]],dtype=np.int32); m3=[True,True,False]
r3=orig3.copy()
for b in range(3):
    if m3[b]: r3[si3[b,1],si3[b,0]]=upd3[b]
P(f'''// Scalar updates at (dim1, dim0) index vectors (dimension_map [1, 0]);
// the masked-off third update leaves the original.
func.func @scatter_masked_swapped_map() {{
  %o = util.unfoldable_constant {fmt(orig3,'i32')}
  %u = util.unfoldable_constant {fmt(upd3,'i32')}
  %i = util.unfoldable_constant {fmt(si3,'i32')}
  %m = util.unfoldable_constant dense<[true, true, false]> : tensor<3xi1>
  %0 = iree_linalg_ext.scatter dimension_map = [1, 0] unique_indices(true) ins(%u, %i, %m : tensor<3xi32>, tensor<3x2xi32>, tensor<3xi1>) outs(%o : tensor<2x3xi32>) {{
  ^bb0(%x: i32, %y: i32):
    iree_linalg_ext.yield %x : i32
  }} -> tensor<2x3xi32>
  check.expect_eq_const(%0, {fmt(r3,'i32')}) : tensor<2x3xi32>
  return
}}
''')
print('// iree_linalg_ext ops (IREE\'s LinalgExt semantics); expected values\n// computed with numpy.\n')
print('\n'.join(out))
