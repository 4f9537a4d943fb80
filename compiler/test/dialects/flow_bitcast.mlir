// flow.tensor.bitcast prints as it parses (dynamic dims in braces).
// RUN: kiln-opt %s | FileCheck %s --check-prefix=PRINT
// RUN: kiln-opt %s | kiln-opt | FileCheck %s --check-prefix=PRINT

// PRINT-LABEL: func.func @narrower
// PRINT: flow.tensor.bitcast %{{.*}} : tensor<3xi32> -> tensor<3x4xi8>
func.func @narrower(%x: tensor<3xi32>) -> tensor<3x4xi8> {
  %0 = flow.tensor.bitcast %x : tensor<3xi32> -> tensor<3x4xi8>
  return %0 : tensor<3x4xi8>
}


// PRINT-LABEL: func.func @dynamic
// PRINT: flow.tensor.bitcast %{{.*}} : tensor<?xi32>{%{{.*}}} -> tensor<?xf32>{%{{.*}}}
func.func @dynamic(%x: tensor<?xi32>, %n: index) -> tensor<?xf32> {
  %0 = flow.tensor.bitcast %x : tensor<?xi32>{%n} -> tensor<?xf32>{%n}
  return %0 : tensor<?xf32>
}

// PRINT-LABEL: func.func @reshape
// PRINT: flow.tensor.reshape %{{.*}} : tensor<8x8x1x1xf32> -> tensor<64xf32>
func.func @reshape(%x: tensor<8x8x1x1xf32>) -> tensor<64xf32> {
  %0 = flow.tensor.reshape %x : tensor<8x8x1x1xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
