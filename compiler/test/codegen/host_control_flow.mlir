// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// RUN: kiln-compile %s --compile-to=schedule | FileCheck %s --check-prefix=SCHED
// Host control flow: the branch condition is read back from device data
// after awaiting the dispatch producing it; block arguments get their own
// buffers and branch operands are copied into them.
// SCHED: func.func @count
// SCHED: cf.br ^bb1
// SCHED: tensor.extract
// SCHED: cf.cond_br
// CHECK: import @hal.buffer.load : rIi->i
// CHECK: import @hal.command_buffer.copy : rrIrII->
// CHECK: func @count
// CHECK: call.import @hal.fence.await
// CHECK: call.import @hal.buffer.load
// CHECK-NEXT: br.cond
// CHECK: call.import @hal.command_buffer.copy
func.func @count() {
  %start = util.unfoldable_constant dense<1> : tensor<i32>
  %bound = util.unfoldable_constant dense<3> : tensor<i32>
  cf.br ^bb1(%start : tensor<i32>)
^bb1(%2: tensor<i32>):
  %3 = stablehlo.compare LT, %2, %bound : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %4 = tensor.extract %3[] : tensor<i1>
  cf.cond_br %4, ^bb2(%2 : tensor<i32>), ^bb3(%2 : tensor<i32>)
^bb2(%5: tensor<i32>):
  %6 = stablehlo.add %5, %5 : tensor<i32>
  cf.br ^bb1(%6 : tensor<i32>)
^bb3(%7: tensor<i32>):
  check.expect_eq_const(%7, dense<4> : tensor<i32>) : tensor<i32>
  return
}
