// lower-to-structured turns every iree_linalg_ext op (and linalg.pack /
// unpack) into linalg.generic
// with the region inlined as scalar ops (e2e values:
// tests/e2e/linalg_ext/linalg_ext.mlir).
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// scan: one generic over (d0, d1, k) with k a reduction loop, then a copy
// of the last element along the scanned dim for the accumulator.
// CHECK-LABEL: func.func @scan
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 3)>, affine_map<(d0) -> (d0)>]
// CHECK-NOT: iree_linalg_ext
func.func @scan(%x: tensor<2x4xf32>, %acc: tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2xf32>) {
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<2x4xf32>) outs(%x, %acc : tensor<2x4xf32>, tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x4xf32>, tensor<2xf32>
  return %0#0, %0#1 : tensor<2x4xf32>, tensor<2xf32>
}

// arg_compare: one reduction generic over the input with two accumulators.
// CHECK-LABEL: func.func @arg_compare
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast %{{.*}} : index to i32
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i32
// CHECK-NOT: iree_linalg_ext
func.func @arg_compare(%x: tensor<2x4xf32>, %v: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<2x4xf32>) outs(%v, %i : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xf32>, tensor<2xi32>
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>
}

// gather: a parallel generic over the output reading the source with
// tensor.extract at the clamped index.
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xi32>
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<3x4xf32>
// CHECK-NOT: iree_linalg_ext
func.func @gather(%s: tensor<3x4xf32>, %i: tensor<2xi32>, %o: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i : tensor<3x4xf32>, tensor<2xi32>) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// unpack: a copy through `floordiv` / `mod` maps; an unpadded pack: a copy
// through `o * tile + i`.
// CHECK-LABEL: func.func @pack_unpack
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ((d0 * 2) + d2, (d1 * 4) + d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 floordiv 2, d1 floordiv 4, d0 mod 2, d1 mod 4)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NOT: linalg.pack
// CHECK-NOT: linalg.unpack
func.func @pack_unpack(%a: tensor<4x8xf32>, %p: tensor<2x2x2x4xf32>) -> tensor<4x8xf32> {
  %0 = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %p : tensor<4x8xf32> -> tensor<2x2x2x4xf32>
  %1 = linalg.unpack %0 inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %a : tensor<2x2x2x4xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// topk_v2 with a static K of 2: the two output slots of each output start
// as copies of its columns, one reduction generic over the input walks the
// slots (the comparator both ways, the smaller index on ties) and sorts
// them, and a last generic writes slot p to column p.
// CHECK-LABEL: func.func @topk_v2_slots
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0)>]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 1)>, affine_map<(d0) -> (d0)>]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: %[[F:.*]] = arith.cmpf ogt, %[[C:.*]], %[[S:.*]] : f32
// CHECK: %[[R:.*]] = arith.cmpf ogt, %[[S]], %[[C]] : f32
// CHECK: arith.cmpi eq, %[[F]], %[[R]] : i1
// CHECK: arith.cmpi slt
// CHECK: linalg.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, i32, i32
// CHECK: iterator_types = ["parallel", "parallel"]
// CHECK: linalg.index 1 : index
// CHECK-NOT: iree_linalg_ext
func.func @topk_v2_slots(%x: tensor<2x5xf32>, %v: tensor<2x2xf32>, %i: tensor<2x2xi32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %0:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%x : tensor<2x5xf32>) outs(%v, %i : tensor<2x2xf32>, tensor<2x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  return %0#0, %0#1 : tensor<2x2xf32>, tensor<2x2xi32>
}

// A K over 12 with outputs filled (all equivalent, so in order) counts,
// for the elements and for the initial outputs (which IREE's insertion
// lets compete), how many go before each: elements among themselves (ties:
// earlier position), elements after the outputs (ties: the outputs first),
// outputs among themselves, outputs before the elements; then output p
// takes the one counted p.
// CHECK-LABEL: func.func @topk_large_k
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[EE:.*]] = linalg.generic {{.*}} ins(%arg0, %arg0 : tensor<20xf32>, tensor<20xf32>)
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK: %[[ES:.*]] = linalg.generic {{.*}} ins(%arg0, %[[FILL]] : tensor<20xf32>, tensor<13xf32>) outs(%[[EE]] : tensor<20xi32>)
// CHECK: arith.constant true
// CHECK: arith.andi
// CHECK: %[[SS:.*]] = linalg.generic {{.*}} ins(%[[FILL]], %[[FILL]] : tensor<13xf32>, tensor<13xf32>)
// CHECK: %[[SE:.*]] = linalg.generic {{.*}} ins(%[[FILL]], %arg0 : tensor<13xf32>, tensor<20xf32>) outs(%[[SS]] : tensor<13xi32>)
// CHECK: arith.constant false
// CHECK: %[[FROM_S:.*]] = linalg.generic {{.*}} ins(%[[SE]], %[[FILL]] : tensor<13xi32>, tensor<13xf32>) outs(%[[FILL]] : tensor<13xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[ES]], %arg0 : tensor<20xi32>, tensor<20xf32>) outs(%[[FROM_S]] : tensor<13xf32>)
// CHECK-NOT: iree_linalg_ext
func.func @topk_large_k(%x: tensor<20xf32>) -> tensor<13xf32> {
  %e = tensor.empty() : tensor<13xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %v = linalg.fill ins(%ninf : f32) outs(%e : tensor<13xf32>) -> tensor<13xf32>
  %0 = iree_linalg_ext.topk_v2 dimension(0) ins(%x : tensor<20xf32>) outs(%v : tensor<13xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<13xf32>
  return %0 : tensor<13xf32>
}

// A K over 12 with is_sorted (or initial outputs that may be out of
// order) runs IREE's walk: a host loop over the elements; each insertion is
// one generic whose reduction loop folds the carry over the slots (element
// t extracted at the first slot, the comparator both ways, the smaller
// index on ties), then a nested host loop runs the K - 1 bubble sweeps,
// each a generic folding a carry over slots 0..ub.
// CHECK-LABEL: func.func @topk_walk
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %arg1, %arg2 : index, tensor<13xf32>, tensor<13xi32>)
// CHECK: ^[[HEAD]](%[[T:.*]]: index, %{{.*}}: tensor<13xf32>, %{{.*}}: tensor<13xi32>):
// CHECK: arith.cmpi slt, %[[T]], %{{.*}} : index
// CHECK: cf.cond_br
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: tensor.extract %arg0[%{{.*}}] : tensor<20xf32>
// CHECK: %[[F:.*]] = arith.cmpf ogt, %[[C:.*]], %[[S:.*]] : f32
// CHECK: %[[R:.*]] = arith.cmpf ogt, %[[S]], %[[C]] : f32
// CHECK: arith.cmpi eq, %[[F]], %[[R]] : i1
// CHECK: cf.br ^[[SWEEP:bb[0-9]+]](
// CHECK: ^[[SWEEP]](
// CHECK: cf.cond_br
// CHECK: arith.cmpi sle
// CHECK: linalg.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, i32, f32, i32
// CHECK: cf.br ^[[SWEEP]](
// CHECK: cf.br ^[[HEAD]](
// CHECK: func.return
// CHECK-NOT: iree_linalg_ext
func.func @topk_walk(%x: tensor<20xf32>, %v: tensor<13xf32>, %i: tensor<13xi32>) -> (tensor<13xf32>, tensor<13xi32>) {
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%x : tensor<20xf32>) outs(%v, %i : tensor<13xf32>, tensor<13xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<13xf32>, tensor<13xi32>
  return %0#0, %0#1 : tensor<13xf32>, tensor<13xi32>
}
