// A mutable global is state of the context: kiln-check-module calls the
// test functions in module order in one context, so the second sees what
// the first stored (the first store is also a load of the initial value).
util.global private mutable @acc = dense<10> : tensor<2xi32>

func.func @first_adds_one() {
  %0 = util.global.load @acc : tensor<2xi32>
  check.expect_eq_const(%0, dense<10> : tensor<2xi32>) : tensor<2xi32>
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  %1 = arith.addi %0, %c : tensor<2xi32>
  util.global.store %1, @acc : tensor<2xi32>
  return
}

func.func @second_sees_the_store() {
  %0 = util.global.load @acc : tensor<2xi32>
  check.expect_eq_const(%0, dense<[11, 12]> : tensor<2xi32>) : tensor<2xi32>
  return
}
