// rng_bit_generator result layouts on multi-dimensional and odd shapes.
// Expected values from an independent Python model of IREE's algorithm and
// layout (threefry: halve the first even dim, concat the two outputs after it,
// reshape, slice; philox: four consecutive elements per counter).

func.func @three_fry_3x4() {
  %s = util.unfoldable_constant dense<[7, -3, 0, 9]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<3x4xi32>)
  check.expect_eq_const(%0#1, dense<[[1568861134, 2116149523, 1205445400, 1119836674], [-305549853, -1012688374, -1455742706, 1053075238], [1606496439, 308156889, -1628747352, -1869842074]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

func.func @three_fry_3x3() {
  %s = util.unfoldable_constant dense<[7, -3, 0, 9]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<3x3xi32>)
  check.expect_eq_const(%0#1, dense<[[1568861134, 1205445400, -305549853], [2116149523, 1119836674, -1012688374], [-1455742706, 1606496439, -1628747352]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

func.func @three_fry_2x5() {
  %s = util.unfoldable_constant dense<[7, -3, 0, 9]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x5xi32>)
  check.expect_eq_const(%0#1, dense<[[1568861134, 1205445400, -305549853, -1455742706, 1606496439], [2116149523, 1119836674, -1012688374, 1053075238, 308156889]]> : tensor<2x5xi32>) : tensor<2x5xi32>
  return
}

func.func @philox_3x4() {
  %s = util.unfoldable_constant dense<[7, -3, 0, 9]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<3x4xi32>)
  check.expect_eq_const(%0#1, dense<[[-1411170787, -394529401, 1969848259, 2026086307], [627089572, -2045575841, 1661071286, 816075913], [1464837729, -77706526, -2055413517, -137146094]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

func.func @philox_3x3() {
  %s = util.unfoldable_constant dense<[7, -3, 0, 9]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<3x3xi32>)
  check.expect_eq_const(%0#1, dense<[[-1411170787, -394529401, 1969848259], [2026086307, 627089572, -2045575841], [1661071286, 816075913, 1464837729]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

func.func @philox_2x5() {
  %s = util.unfoldable_constant dense<[7, -3, 0, 9]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x5xi32>)
  check.expect_eq_const(%0#1, dense<[[-1411170787, -394529401, 1969848259, 2026086307, 627089572], [-2045575841, 1661071286, 816075913, 1464837729, -77706526]]> : tensor<2x5xi32>) : tensor<2x5xi32>
  return
}
