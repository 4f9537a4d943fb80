// A mutable global of run-time shape (a cache that grows as a KV cache
// does): the initializer stores a constant cast to the global's type, each
// store keeps its run-time shape, and a load reads it back. Expected values
// are worked out by hand.

util.global private mutable @cache : tensor<?x2xf32>
util.initializer {
  %e = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %d = tensor.cast %e : tensor<1x2xf32> to tensor<?x2xf32>
  util.global.store %d, @cache : tensor<?x2xf32>
  util.return
}

func.func @append(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %c = util.global.load @cache : tensor<?x2xf32>
  %0 = tensor.concat dim(0) %c, %x : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  util.global.store %0, @cache : tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// Appending one row, then two, then none: 1, 2, 4 and 4 rows.
func.func @cache_grows() {
  %r1 = flow.tensor.dynamic_constant dense<[[3.0, 4.0]]> : tensor<1x2xf32> -> tensor<?x2xf32>
  %r2 = flow.tensor.dynamic_constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32> -> tensor<?x2xf32>
  %r0 = flow.tensor.dynamic_constant dense<0.0> : tensor<0x2xf32> -> tensor<?x2xf32>
  %a = func.call @append(%r1) : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %ac = tensor.cast %a : tensor<?x2xf32> to tensor<2x2xf32>
  check.expect_almost_eq_const(%ac, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  %b = func.call @append(%r2) : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %c = func.call @append(%r0) : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %cc = tensor.cast %c : tensor<?x2xf32> to tensor<4x2xf32>
  check.expect_almost_eq_const(%cc, dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  %now = util.global.load @cache : tensor<?x2xf32>
  %nc = tensor.cast %now : tensor<?x2xf32> to tensor<4x2xf32>
  check.expect_almost_eq_const(%nc, dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  return
}
