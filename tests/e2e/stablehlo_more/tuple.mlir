// stablehlo.tuple / get_tuple_element (custom and generic forms, nested
// tuples): element reads forward the tuple's operands. Expected by hand.
func.func @tuple_elements() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<7> : tensor<i32>
  %t = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
  %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %y = "stablehlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  %s = stablehlo.add %x, %x : tensor<2xf32>
  check.expect_almost_eq_const(%s, dense<[2.0, 4.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_eq_const(%y, dense<7> : tensor<i32>) : tensor<i32>
  return
}

func.func @nested_tuple() {
  %a = util.unfoldable_constant dense<3> : tensor<i32>
  %b = util.unfoldable_constant dense<[4, 5]> : tensor<2xi32>
  %inner = "stablehlo.tuple"(%a, %b) : (tensor<i32>, tensor<2xi32>) -> tuple<tensor<i32>, tensor<2xi32>>
  %outer = stablehlo.tuple %inner, %a : tuple<tuple<tensor<i32>, tensor<2xi32>>, tensor<i32>>
  %i = stablehlo.get_tuple_element %outer[0] : (tuple<tuple<tensor<i32>, tensor<2xi32>>, tensor<i32>>) -> tuple<tensor<i32>, tensor<2xi32>>
  %v = stablehlo.get_tuple_element %i[1] : (tuple<tensor<i32>, tensor<2xi32>>) -> tensor<2xi32>
  %m = stablehlo.multiply %v, %v : tensor<2xi32>
  check.expect_eq_const(%m, dense<[16, 25]> : tensor<2xi32>) : tensor<2xi32>
  return
}
