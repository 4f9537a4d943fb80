// util.global loads become constants in lower-to-structured; the globals
// and their addresses are erased (util_globals_errors.mlir: what is
// reported).
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// CHECK-NOT: util.global
// CHECK-LABEL: func.func @f
// CHECK: arith.constant dense<2.36942783e-38> : tensor<4xf32>
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-NOT: util.global
util.global private @a = #util.byte_pattern<1> : tensor<4xf32>
util.global private @"b-1" = dense<[1, 2]> : tensor<2xi32>
func.func @f() -> (tensor<4xf32>, tensor<2xi32>) {
  %p = util.global.address @a : !util.ptr<tensor<4xf32>>
  %a = util.global.load.indirect %p : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
  %b-1 = util.global.load @"b-1" : tensor<2xi32>
  return %a, %b-1 : tensor<4xf32>, tensor<2xi32>
}

