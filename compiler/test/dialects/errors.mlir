// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @shape_mismatch(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.add' op operand types must match (tensor<4xf32> vs tensor<3xf32>)
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: unregistered operation 'stablehlo.foo'
  %0 = "stablehlo.foo"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @operand_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.add' op
  %0 = "stablehlo.add"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: errors.mlir:[[@LINE+1]]:26: error: expected a comparison direction
  %0 = stablehlo.compare XX, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @bad_attr_kind(%a: tensor<2x3xf32>) -> tensor<6x2xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.concatenate' op requires an integer attribute 'dimension'
  %0 = "stablehlo.concatenate"(%a, %a) {dimension = "zero"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}

// -----

func.func @arith_class(%a: f32) -> f32 {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'arith.addi' op expects signless-integer-like operands, but got f32
  %0 = arith.addi %a, %a : f32
  return %0 : f32
}

// -----

func.func @bad_broadcast(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.broadcast_in_dim' op operand dim 0 (size 3) cannot broadcast to 4
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @bad_generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'linalg.generic' op expected 2 indexing maps (one per operand), found 1
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @check_type(%a: tensor<4xf32>) {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op expected value type tensor<3xf32> does not match operand type tensor<4xf32>
  check.expect_eq_const(%a, dense<1.0> : tensor<3xf32>) : tensor<4xf32>
  return
}
