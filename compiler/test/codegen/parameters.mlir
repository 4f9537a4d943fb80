// Parameter globals stay references through the pipeline (nothing folds
// through them) and become parameter rodata entries: (scope, key, bytes).
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=IR
// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// RUN: kiln-compile %s -o %t.kmod
// RUN: kiln-dump-module %t.kmod | FileCheck %s --check-prefix=DUMP
// Exported constants: the archive gets the bytes, the module a reference.
// RUN: kiln-compile %s --iree-parameter-export=ex=%t.irpa --output-format=vm-asm | FileCheck %s --check-prefix=EXPORT
// RUN: not kiln-compile %s --iree-parameter-export=ex= 2>&1 | FileCheck %s --check-prefix=NOFILE

// IR: arith.constant #flow.parameter.named<"model"::"w"> : tensor<4x4xf32>
// IR: arith.constant #flow.parameter.named<"b"> : tensor<4xf32>
// CHECK-DAG: rodata @{{.*}} align 64 : parameter "model" "w" 64
// CHECK-DAG: rodata @{{.*}} align 64 : parameter "" "b" 16
// DUMP: # format version 1.3
// DUMP-DAG: : parameter "model" "w" 64  # unbound
// DUMP-DAG: : parameter "" "b" 16  # unbound
// EXPORT-DAG: : parameter "model" "w" 64
// EXPORT-DAG: : parameter "ex" "constant_0" 16
// NOFILE: --iree-parameter-export='ex=' names no file
util.global private @w = #flow.parameter.named<"model"::"w"> : tensor<4x4xf32>
util.global private @b = #flow.parameter.named<"b"> : tensor<4xf32>
func.func @main(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %w = util.global.load @w : tensor<4x4xf32>
  %b = util.global.load @b : tensor<4xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%b, %c : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %d: f32, %o: f32):
    %t = arith.addf %a, %d : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r, %s : tensor<4x4xf32>, tensor<4xf32>
}
