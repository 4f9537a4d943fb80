#!/usr/bin/env python3
# Writes pack.mlir (expected values computed with numpy):
#   /usr/bin/python3 gen_pack.py > pack.mlir
import numpy as np
def fmt(a, ty):
    a=np.asarray(a)
    s=np.array2string(a, separator=', ', threshold=10**6).replace('\n','')
    return f"dense<{s}> : tensor<{'x'.join(map(str,a.shape))}x{ty}>"
def pack(src, inner_dims_pos, tiles, outer_perm=None, pad=0, outer=None):
    n=src.ndim
    # outer: the outer dim sizes (unpermuted); more tiles than the data fills are padding
    outer=outer or [ -(-src.shape[d]//tiles[inner_dims_pos.index(d)]) if d in inner_dims_pos else src.shape[d] for d in range(n)]
    padded=np.full([outer[d]*(tiles[inner_dims_pos.index(d)] if d in inner_dims_pos else 1) for d in range(n)], pad, src.dtype)
    padded[tuple(slice(0,s) for s in src.shape)]=src
    # reshape each tiled dim d into (outer, tile)
    shape=[]; axes_outer=[]; axes_inner={}
    for d in range(n):
        if d in inner_dims_pos:
            axes_outer.append(len(shape)); shape.append(outer[d]); axes_inner[d]=len(shape); shape.append(tiles[inner_dims_pos.index(d)])
        else:
            axes_outer.append(len(shape)); shape.append(outer[d])
    r=padded.reshape(shape)
    perm=outer_perm or list(range(n))
    return r.transpose([axes_outer[p] for p in perm]+[axes_inner[d] for d in inner_dims_pos])
def unpack(packed, shape, inner_dims_pos, tiles, outer_perm=None):
    n=len(shape)
    perm=outer_perm or list(range(n))
    out=np.zeros(shape, packed.dtype)
    for idx in np.ndindex(*shape):
        o=[0]*n; t=[0]*len(tiles)
        for j in range(n):
            d=perm[j]
            o[j]=idx[d]//tiles[inner_dims_pos.index(d)] if d in inner_dims_pos else idx[d]
        for k,d in enumerate(inner_dims_pos): t[k]=idx[d]%tiles[k]
        out[idx]=packed[tuple(o+t)]
    return out
print("// linalg.pack / linalg.unpack (MLIR's semantics); expected values computed\n// with numpy (gen_pack.py).\n")
a=np.arange(24,dtype=np.int32).reshape(4,6)
p=pack(a,[1,0],[3,2],[1,0])
print(f'''// Both dims tiled, inner tiles transposed (dim 1 first), outer dims swapped.
func.func @pack_transposed_inner_and_outer() {{
  %src = util.unfoldable_constant {fmt(a,'i32')}
  %init = tensor.empty() : tensor<{'x'.join(map(str,p.shape))}xi32>
  %0 = linalg.pack %src outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, 2] into %init : tensor<4x6xi32> -> tensor<{'x'.join(map(str,p.shape))}xi32>
  check.expect_eq_const(%0, {fmt(p,'i32')}) : tensor<{'x'.join(map(str,p.shape))}xi32>
  return
}}
''')
b=(np.arange(15,dtype=np.float32).reshape(3,5)*0.5-2.0)
pb=pack(b,[1],[4],None,pad=-1.0)
print(f'''// Only dim 1 tiled by 4: 5 columns fill 2 tiles, the last 3 entries are
// the padding value.
func.func @pack_padded_one_dim() {{
  %src = util.unfoldable_constant {fmt(b,'f32')}
  %pad = arith.constant -1.0 : f32
  %init = tensor.empty() : tensor<{'x'.join(map(str,pb.shape))}xf32>
  %0 = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [1] inner_tiles = [4] into %init : tensor<3x5xf32> -> tensor<{'x'.join(map(str,pb.shape))}xf32>
  check.expect_almost_eq_const(%0, {fmt(pb,'f32')}) : tensor<{'x'.join(map(str,pb.shape))}xf32>
  return
}}
''')
c=np.arange(5*7,dtype=np.int8).reshape(5,7)
pc=pack(c,[0,1],[2,4],[1,0],pad=0)
print(f'''// Padded in both dims with the outer dims swapped (a VNNI-like layout).
func.func @pack_padded_outer_transposed_i8() {{
  %src = util.unfoldable_constant {fmt(c,'i8')}
  %pad = arith.constant 0 : i8
  %init = tensor.empty() : tensor<{'x'.join(map(str,pc.shape))}xi8>
  %0 = linalg.pack %src padding_value(%pad : i8) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init : tensor<5x7xi8> -> tensor<{'x'.join(map(str,pc.shape))}xi8>
  check.expect_eq_const(%0, {fmt(pc,'i8')}) : tensor<{'x'.join(map(str,pc.shape))}xi8>
  return
}}
''')
packed=np.arange(2*3*2*4,dtype=np.int32).reshape(3,2,2,4)  # outer perm [1,0]: outer (dim1 outer=3, dim0 outer=2), tiles dims [0,1] = [2,4]
u=unpack(packed,[3,10],[0,1],[2,4],[1,0])
print(f'''// Unpack with the outer dims swapped into a 3x10 tensor: the padded
// rows and columns of the last tiles are dropped.
func.func @unpack_outer_transposed_truncated() {{
  %src = util.unfoldable_constant {fmt(packed,'i32')}
  %init = tensor.empty() : tensor<3x10xi32>
  %0 = linalg.unpack %src outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init : tensor<3x2x2x4xi32> -> tensor<3x10xi32>
  check.expect_eq_const(%0, {fmt(u,'i32')}) : tensor<3x10xi32>
  return
}}
''')
d=np.arange(2*6*4,dtype=np.float32).reshape(2,6,4)
pd=pack(d,[2,1],[2,3])
print(f'''// pack then unpack of a 3-D tensor (dims 2 and 1 tiled) gives the input.
func.func @pack_unpack_roundtrip_3d() {{
  %src = util.unfoldable_constant {fmt(d,'f32')}
  %init = tensor.empty() : tensor<{'x'.join(map(str,pd.shape))}xf32>
  %p = linalg.pack %src inner_dims_pos = [2, 1] inner_tiles = [2, 3] into %init : tensor<2x6x4xf32> -> tensor<{'x'.join(map(str,pd.shape))}xf32>
  check.expect_almost_eq_const(%p, {fmt(pd,'f32')}) : tensor<{'x'.join(map(str,pd.shape))}xf32>
  %e = tensor.empty() : tensor<2x6x4xf32>
  %u = linalg.unpack %p inner_dims_pos = [2, 1] inner_tiles = [2, 3] into %e : tensor<{'x'.join(map(str,pd.shape))}xf32> -> tensor<2x6x4xf32>
  check.expect_almost_eq_const(%u, {fmt(d,'f32')}) : tensor<2x6x4xf32>
  return
}}''')

e=np.arange(1,16,dtype=np.int32).reshape(3,5)
pe=pack(e,[0,1],[2,4],[1,0],pad=-7,outer=[3,2])
print(f'''
// More outer tiles than the data fills (MLIR allows it; IREE issue 12546):
// dim 0 (3 rows, tile 2) gets 3 outer tiles, the last all padding; unpack
// reads the data back and never the extra tiles.
func.func @pack_extra_outer_tiles() {{
  %src = util.unfoldable_constant {fmt(e,'i32')}
  %pad = arith.constant -7 : i32
  %init = tensor.empty() : tensor<{'x'.join(map(str,pe.shape))}xi32>
  %p = linalg.pack %src padding_value(%pad : i32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init : tensor<3x5xi32> -> tensor<{'x'.join(map(str,pe.shape))}xi32>
  check.expect_eq_const(%p, {fmt(pe,'i32')}) : tensor<{'x'.join(map(str,pe.shape))}xi32>
  %e = tensor.empty() : tensor<3x5xi32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %e : tensor<{'x'.join(map(str,pe.shape))}xi32> -> tensor<3x5xi32>
  check.expect_eq_const(%u, {fmt(e,'i32')}) : tensor<3x5xi32>
  return
}}''')
