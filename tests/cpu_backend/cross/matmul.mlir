// A static f32 matmul of odd sizes: the llvm-cpu backend runs it through
// the runtime's micro-kernel imports (kiln_ukernel_pack, _mmt4d, _unpack).
func.func @matmul(%a: tensor<37x70xf32>, %b: tensor<70x45xf32>) -> tensor<37x45xf32> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<37x70xf32>, tensor<70x45xf32>) -> tensor<37x45xf32>
  return %c : tensor<37x45xf32>
}
