#!/usr/bin/env python3
# Writes bitcast.mlir (expected values computed with numpy):
#   /usr/bin/python3 gen_bitcast.py > bitcast.mlir
import numpy as np
def fmt(a, ty):
    a=np.asarray(a)
    if a.dtype==np.bool_:
        s=np.array2string(a, separator=', ').replace('True','true').replace('False','false')
    elif a.dtype.kind=='f':
        s=np.array2string(a, separator=', ', formatter={'float_kind':lambda v: repr(float(v))})
    else:
        s=np.array2string(a, separator=', ')
    return f"dense<{s.replace(chr(10),'')}> : tensor<{'x'.join(map(str,a.shape))}x{ty}>"
print("// flow.tensor.bitcast: the same bits as another shape and element type\n// (little-endian; sub-byte elements packed as IREE packs them). Expected\n// values computed with numpy (gen_bitcast.py).\n")
f=np.array([[1.0,-2.5],[0.15625,3.0e-3]],dtype=np.float32)
print(f'''func.func @f32_to_i32_same_width() {{
  %x = util.unfoldable_constant {fmt(f,'f32')}
  %0 = flow.tensor.bitcast %x : tensor<2x2xf32> -> tensor<4xi32>
  check.expect_eq_const(%0, {fmt(f.reshape(4).view(np.int32),'i32')}) : tensor<4xi32>
  return
}}
''')
w=np.array([0x01020304,-2,0x7f00ff10],dtype=np.int32)
print(f'''// Each i32 becomes 4 bytes, lowest first.
func.func @i32_to_i8_narrower() {{
  %x = util.unfoldable_constant {fmt(w,'i32')}
  %0 = flow.tensor.bitcast %x : tensor<3xi32> -> tensor<3x4xi8>
  check.expect_eq_const(%0, {fmt(w.view(np.int8).reshape(3,4),'i8')}) : tensor<3x4xi8>
  return
}}
''')
by=np.array([1,-128,127,3,0,-1,16,32],dtype=np.int8)
print(f'''// Each pair of bytes becomes one i16, the first byte lowest.
func.func @i8_to_i16_wider() {{
  %x = util.unfoldable_constant {fmt(by.reshape(2,4),'i8')}
  %0 = flow.tensor.bitcast %x : tensor<2x4xi8> -> tensor<4xi16>
  check.expect_eq_const(%0, {fmt(by.view(np.int16),'i16')}) : tensor<4xi16>
  return
}}
''')
pb=np.array([0xA5,0x0F],dtype=np.uint8)
bits=np.unpackbits(pb,bitorder='little').astype(bool).reshape(2,8)
print(f'''// Bit-packed i1: bit k of byte b is element 8 b + k.
func.func @i8_to_packed_i1() {{
  %x = util.unfoldable_constant dense<[-91, 15]> : tensor<2xi8>
  %0 = flow.tensor.bitcast %x : tensor<2xi8> -> tensor<2x8xi1, #iree_encoding.packed_storage>
  %1 = arith.extui %0 : tensor<2x8xi1, #iree_encoding.packed_storage> to tensor<2x8xi8>
  check.expect_eq_const(%1, {fmt(bits.astype(np.int8),'i8')}) : tensor<2x8xi8>
  %2 = flow.tensor.bitcast %0 : tensor<2x8xi1, #iree_encoding.packed_storage> -> tensor<2xi8>
  check.expect_eq_const(%2, dense<[-91, 15]> : tensor<2xi8>) : tensor<2xi8>
  return
}}
''')
nib=np.array([0x21,0xF3],dtype=np.uint8)
lo=(nib & 0xF).astype(np.int8); hi=(nib>>4).astype(np.int8)
n4=np.stack([lo,hi],1).reshape(4); n4=np.where(n4>7,n4-16,n4)
print(f'''// Two i4 per byte, the low nibble first (i4 values read as signed).
func.func @i8_to_i4() {{
  %x = util.unfoldable_constant dense<[33, -13]> : tensor<2xi8>
  %0 = flow.tensor.bitcast %x : tensor<2xi8> -> tensor<4xi4>
  %1 = arith.extsi %0 : tensor<4xi4> to tensor<4xi32>
  check.expect_eq_const(%1, {fmt(n4.astype(np.int32),'i32')}) : tensor<4xi32>
  return
}}''')
