// Dynamic shapes: flow.tensor.dynamic_constant erases the static dims, so
// the compiler cannot fold on them; dispatch loop bounds come from push
// constants computed by the host from the dims at run time.

// Three updates, overwrite semantics (later updates win on repeated
// indices, as on one thread): rows 0 and 3 are replaced, row 3 twice.
func.func @scatter_set_dynamic_num_updates() {
  %operand = util.unfoldable_constant dense<0> : tensor<4x2xi32>
  %indices = flow.tensor.dynamic_constant dense<[[3], [0], [3]]> : tensor<3x1xi32> -> tensor<?x1xi32>
  %updates = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %0 = "stablehlo.scatter"(%operand, %indices, %updates) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    "stablehlo.return"(%b) : (tensor<i32>) -> ()
  }) {
    indices_are_sorted = false,
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>,
    unique_indices = false
  } : (tensor<4x2xi32>, tensor<?x1xi32>, tensor<?x2xi32>) -> tensor<4x2xi32>
  check.expect_eq_const(%0, dense<[[3, 4], [0, 0], [0, 0], [5, 6]]> : tensor<4x2xi32>) : tensor<4x2xi32>
  return
}

// Column sums over a dynamic number of rows: 1+4+7+10 = 22, 2+5+8+11 = 26,
// 3+6+9+12 = 30.
func.func @reduce_dynamic_rows() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32> -> tensor<?x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%0, dense<[22.0, 26.0, 30.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// Row sums over a dynamic number of columns (the dynamic dim is the
// innermost one: element strides stay static, the loop bound is pushed).
func.func @reduce_dynamic_columns() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3, 4, 5], [10, 20, 30, 40, 50]]> : tensor<2x5xi32> -> tensor<2x?xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x?xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const(%0, dense<[15, 150]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// flow.tensor.constant, IREE's older name of the same op: column sums of a
// dynamic number of rows, 1+3 = 4 and 2+4 = 6.
func.func @flow_tensor_constant_older_name() {
  %x = flow.tensor.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32> -> tensor<?x2xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x2xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const(%0, dense<[4, 6]> : tensor<2xi32>) : tensor<2xi32>
  return
}
