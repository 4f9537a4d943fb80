// Mutable globals (util.global and ml_program.global): a load before any
// store reads the initial value; a load after a store reads what was
// stored, also when the stored value came from a dispatch. Values by hand.
util.global private mutable @counter = dense<[2.0, -1.0]> : tensor<2xf32>
ml_program.global private mutable @state(dense<[1, 2, 3]> : tensor<3xi32>) : tensor<3xi32>
util.global private mutable @untouched = dense<7> : tensor<i64>

func.func @util_global_store_then_load() {
  %0 = util.global.load @counter : tensor<2xf32>
  check.expect_almost_eq_const(%0, dense<[2.0, -1.0]> : tensor<2xf32>) : tensor<2xf32>
  %c = arith.constant dense<[0.5, 4.0]> : tensor<2xf32>
  %1 = arith.mulf %0, %c : tensor<2xf32>
  util.global.store %1, @counter : tensor<2xf32>
  %2 = util.global.load @counter : tensor<2xf32>
  // [2 * 0.5, -1 * 4]
  check.expect_almost_eq_const(%2, dense<[1.0, -4.0]> : tensor<2xf32>) : tensor<2xf32>
  // The value loaded first is unchanged by the store.
  check.expect_almost_eq_const(%0, dense<[2.0, -1.0]> : tensor<2xf32>) : tensor<2xf32>
  %3 = arith.addf %2, %2 : tensor<2xf32>
  util.global.store %3, @counter : tensor<2xf32>
  %4 = util.global.load @counter : tensor<2xf32>
  check.expect_almost_eq_const(%4, dense<[2.0, -8.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @ml_program_global_store_then_load() {
  %0 = ml_program.global_load @state : tensor<3xi32>
  check.expect_eq_const(%0, dense<[1, 2, 3]> : tensor<3xi32>) : tensor<3xi32>
  %1 = arith.muli %0, %0 : tensor<3xi32>
  ml_program.global_store @state = %1 : tensor<3xi32>
  %2 = ml_program.global_load @state : tensor<3xi32>
  check.expect_eq_const(%2, dense<[1, 4, 9]> : tensor<3xi32>) : tensor<3xi32>
  // A constant stored directly.
  %k = arith.constant dense<[5, 6, 7]> : tensor<3xi32>
  ml_program.global_store @state = %k : tensor<3xi32>
  %3 = ml_program.global_load @state : tensor<3xi32>
  check.expect_eq_const(%3, dense<[5, 6, 7]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// A mutable global never stored to is a constant.
func.func @never_stored() {
  %0 = util.global.load @untouched : tensor<i64>
  check.expect_eq_const(%0, dense<7> : tensor<i64>) : tensor<i64>
  return
}
