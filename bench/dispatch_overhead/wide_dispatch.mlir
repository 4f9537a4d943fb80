// One elementwise dispatch on 512 x 512 floats: several workgroups, so
// local-task wakes its pool worker and both threads take a part.
func.func @wide_dispatch(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<512x512xf32>
  %1 = stablehlo.add %0, %a : tensor<512x512xf32>
  return %1 : tensor<512x512xf32>
}
