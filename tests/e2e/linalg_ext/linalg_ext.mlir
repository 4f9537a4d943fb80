// iree_linalg_ext ops (IREE's LinalgExt semantics); expected values
// computed with numpy.

// Sorts keys descending along dim 1, carrying a second operand; equal
// keys keep their input order.
func.func @sort_two_operands_descending() {
  %k = util.unfoldable_constant dense<[[3.0, 1.0, 3.0, 2.0], [0.5, -1.0, 0.5, 7.0]]> : tensor<2x4xf32>
  %v = util.unfoldable_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%k, %v : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  check.expect_almost_eq_const(%0#0, dense<[[3.0, 3.0, 2.0, 1.0], [7.0, 0.5, 0.5, -1.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  check.expect_eq_const(%0#1, dense<[[0, 2, 3, 1], [7, 4, 6, 5]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}

// Exclusive product scan along dim 1: out[j] = init * x[0] * ... * x[j-1];
// the accumulator result is the last output element.
func.func @scan_exclusive_mul_dim1() {
  %x = util.unfoldable_constant dense<[[ 1,  2,  3,  4], [ 2,  2, -1,  5]]> : tensor<2x4xi32>
  %init = util.unfoldable_constant dense<[10, -1]> : tensor<2xi32>
  %e = tensor.empty() : tensor<2x4xi32>
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(false) ins(%x : tensor<2x4xi32>) outs(%e, %init : tensor<2x4xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    iree_linalg_ext.yield %m : i32
  } -> tensor<2x4xi32>, tensor<2xi32>
  check.expect_eq_const(%0#0, dense<[[10, 10, 20, 60], [-1, -2, -4,  4]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  check.expect_eq_const(%0#1, dense<[60,  4]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Inclusive running maximum along dim 0.
func.func @scan_inclusive_max_dim0() {
  %x = util.unfoldable_constant dense<[[1.5, -2.0, 0.25], [3.0, 1.0, -4.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %init = util.unfoldable_constant dense<0.0> : tensor<3xf32>
  %e = tensor.empty() : tensor<3x3xf32>
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<3x3xf32>) outs(%e, %init : tensor<3x3xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    iree_linalg_ext.yield %m : f32
  } -> tensor<3x3xf32>, tensor<3xf32>
  check.expect_almost_eq_const(%0#0, dense<[[1.5, -2.0, 0.25], [3.0, 1.0, 0.25], [3.0, 1.0, 0.5]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  check.expect_almost_eq_const(%0#1, dense<[3.0, 1.0, 0.5]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// The 2 smallest values per row with their (given) indices; of equal
// values the earlier one comes first.
func.func @topk_min2_with_indices() {
  %v = util.unfoldable_constant dense<[[5.0, 1.0, 3.0, 1.0, 0.0], [2.0, 2.0, 9.0, -3.0, 4.0]]> : tensor<2x5xf32>
  %i = util.unfoldable_constant dense<[[10, 11, 12, 13, 14], [20, 21, 22, 23, 24]]> : tensor<2x5xi32>
  %ev = tensor.empty() : tensor<2x2xf32>
  %ei = tensor.empty() : tensor<2x2xi32>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<2x2xf32>) -> tensor<2x2xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x2xi32>) -> tensor<2x2xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v, %i : tensor<2x5xf32>, tensor<2x5xi32>) outs(%ov, %oi : tensor<2x2xf32>, tensor<2x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  check.expect_almost_eq_const(%0#0, dense<[[0.0, 1.0], [-3.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_eq_const(%0#1, dense<[[14, 11], [23, 20]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// topk_v2 without output indices: the 3 largest values per row, sorted.
func.func @topk_v2_values_only_sorted() {
  %v = util.unfoldable_constant dense<[[0.5, 7.0, -1.0, 7.5, 3.0, 2.0], [9.0, -9.0, 4.0, 4.5, 0.0, 1.0]]> : tensor<2x6xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<2x6xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[7.5, 7.0, 3.0], [9.0, 4.5, 4.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

// attention with a float mask and the key stored transposed (the maps say
// where each dim is): softmax(Q K * 0.75 + M) V.
func.func @attention_float_mask_transposed_key() {
  %q = util.unfoldable_constant dense<[[[0.25019094347953796, 0.7944275736808777, 0.5513713955879211,   -0.5495856404304504],  [-0.3996674418449402, 0.7471069097518921, -0.9894694089889526,   0.6424568295478821],  [0.5941388607025146, -0.06413009762763977, -0.3939351439476013,   -0.44314876198768616]], [[-0.4902608394622803, -0.10984738916158676, 0.009096518158912659,   0.10699470341205597],  [0.9910005927085876, 0.5853238105773926, 0.24435846507549286,   0.9779202938079834],  [-0.5693826079368591, -0.6795759201049805, 0.22507920861244202,   -0.9121159911155701]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[-0.9286394715309143, 0.029777640476822853, -0.0675879493355751,   0.8343355655670166, 0.25845250487327576],  [0.028235293924808502, -0.0062531293369829655, -0.504970133304596,   -0.9764119386672974, -0.6151956915855408],  [0.3840642273426056, -0.5987865328788757, -0.26092737913131714,   -0.9925315380096436, 0.6600954532623291],  [-0.6910778284072876, -0.4648014008998871, 0.7606642842292786,   0.019581619650125504, 0.6943004727363586]], [[0.27943432331085205, 0.48354190587997437, -0.8170087933540344,   0.08228763937950134, 0.015544472262263298],  [0.7426787614822388, -0.2774718701839447, 0.19636812806129456,   -0.8814967274665833, -0.22473639249801636],  [-0.3539273142814636, -0.6996005177497864, 0.6326761841773987,   -0.24110765755176544, 0.9574957489967346],  [0.17998339235782623, 0.21011251211166382, 0.2759931683540344,   0.3529004752635956, -0.6984239816665649]]]> : tensor<2x4x5xf32>
  %v = util.unfoldable_constant dense<[[[-0.11937306821346283, -0.5208720564842224],  [-0.19500340521335602, -0.806591808795929],  [0.9356561303138733, -0.569991946220398],  [0.3435303270816803, -0.39915984869003296],  [0.7481540441513062, 0.3244294822216034]], [[-0.736768364906311, 0.690148651599884],  [0.8898963332176208, 0.8078335523605347],  [0.13943830132484436, -0.7090801000595093],  [-0.615073025226593, 0.855811357498169],  [0.10465297847986221, -0.6388949751853943]]]> : tensor<2x5x2xf32>
  %m = util.unfoldable_constant dense<[[[-0.11594310402870178, -0.35842829942703247, -0.43030571937561035,   -0.6237121820449829, -0.5890446901321411],  [-0.7605108022689819, -0.961942732334137, -0.12378118932247162,   -0.5322697758674622, -0.45236480236053467],  [-0.6778367161750793, -0.24867507815361023, -0.9748031497001648,   -0.6278147101402283, -0.9696497321128845]], [[-0.8771079182624817, -0.03285176306962967, -0.34223926067352295,   -0.571779727935791, -0.47625988721847534],  [-0.12719079852104187, -0.655789315700531, -0.40970900654792786,   -0.316315621137619, -0.6445862054824829],  [-0.4809015095233917, -0.2347526103258133, -0.09082068502902985,   -0.8489377498626709, -0.06658060848712921]]]> : tensor<2x3x5xf32>
  %scale = arith.constant 0.75 : f32
  %e = tensor.empty() : tensor<2x3x2xf32>
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, k2)>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>]} ins(%q, %k, %v, %scale, %m : tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<2x5x2xf32>, f32, tensor<2x3x5xf32>) outs(%e : tensor<2x3x2xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[0.14288131892681122, -0.4633546471595764],  [0.4942237138748169, -0.46016332507133484],  [0.1963108628988266, -0.5071009993553162]], [[0.09170759469270706, 0.110538050532341],  [-0.22822736203670502, 0.4211043417453766],  [0.07540883123874664, -0.2107107937335968]]]> : tensor<2x3x2xf32>, atol 1.0e-05) : tensor<2x3x2xf32>
  return
}

// online_attention over key/value columns 0-2 then 3-4, then the
// running output divided by the running sum: the same as attention.
func.func @online_attention_two_steps() {
  %q = util.unfoldable_constant dense<[[[0.25019094347953796, 0.7944275736808777, 0.5513713955879211,   -0.5495856404304504],  [-0.3996674418449402, 0.7471069097518921, -0.9894694089889526,   0.6424568295478821],  [0.5941388607025146, -0.06413009762763977, -0.3939351439476013,   -0.44314876198768616]], [[-0.4902608394622803, -0.10984738916158676, 0.009096518158912659,   0.10699470341205597],  [0.9910005927085876, 0.5853238105773926, 0.24435846507549286,   0.9779202938079834],  [-0.5693826079368591, -0.6795759201049805, 0.22507920861244202,   -0.9121159911155701]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[-0.9286394715309143, 0.029777640476822853, -0.0675879493355751,   0.8343355655670166, 0.25845250487327576],  [0.028235293924808502, -0.0062531293369829655, -0.504970133304596,   -0.9764119386672974, -0.6151956915855408],  [0.3840642273426056, -0.5987865328788757, -0.26092737913131714,   -0.9925315380096436, 0.6600954532623291],  [-0.6910778284072876, -0.4648014008998871, 0.7606642842292786,   0.019581619650125504, 0.6943004727363586]], [[0.27943432331085205, 0.48354190587997437, -0.8170087933540344,   0.08228763937950134, 0.015544472262263298],  [0.7426787614822388, -0.2774718701839447, 0.19636812806129456,   -0.8814967274665833, -0.22473639249801636],  [-0.3539273142814636, -0.6996005177497864, 0.6326761841773987,   -0.24110765755176544, 0.9574957489967346],  [0.17998339235782623, 0.21011251211166382, 0.2759931683540344,   0.3529004752635956, -0.6984239816665649]]]> : tensor<2x4x5xf32>
  %v = util.unfoldable_constant dense<[[[-0.11937306821346283, -0.5208720564842224],  [-0.19500340521335602, -0.806591808795929],  [0.9356561303138733, -0.569991946220398],  [0.3435303270816803, -0.39915984869003296],  [0.7481540441513062, 0.3244294822216034]], [[-0.736768364906311, 0.690148651599884],  [0.8898963332176208, 0.8078335523605347],  [0.13943830132484436, -0.7090801000595093],  [-0.615073025226593, 0.855811357498169],  [0.10465297847986221, -0.6388949751853943]]]> : tensor<2x5x2xf32>
  %scale = arith.constant 0.75 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ea = tensor.empty() : tensor<2x3x2xf32>
  %er = tensor.empty() : tensor<2x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %max = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %k0 = tensor.extract_slice %k[0, 0, 0] [2, 4, 3] [1, 1, 1] : tensor<2x4x5xf32> to tensor<2x4x3xf32>
  %v0 = tensor.extract_slice %v[0, 0, 0] [2, 3, 2] [1, 1, 1] : tensor<2x5x2xf32> to tensor<2x3x2xf32>
  %k1 = tensor.extract_slice %k[0, 0, 3] [2, 4, 2] [1, 1, 1] : tensor<2x4x5xf32> to tensor<2x4x2xf32>
  %v1 = tensor.extract_slice %v[0, 3, 0] [2, 2, 2] [1, 1, 1] : tensor<2x5x2xf32> to tensor<2x2x2xf32>
  %r0:3 = iree_linalg_ext.online_attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>, affine_map<(b, m, k1, k2, n) -> (b, m)>, affine_map<(b, m, k1, k2, n) -> (b, m)>]} ins(%q, %k0, %v0, %scale : tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<2x3x2xf32>, f32) outs(%acc, %max, %sum : tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  %r1:3 = iree_linalg_ext.online_attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>, affine_map<(b, m, k1, k2, n) -> (b, m)>, affine_map<(b, m, k1, k2, n) -> (b, m)>]} ins(%q, %k1, %v1, %scale : tensor<2x3x4xf32>, tensor<2x4x2xf32>, tensor<2x2x2xf32>, f32) outs(%r0#0, %r0#1, %r0#2 : tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  %o = tensor.empty() : tensor<2x3x2xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r1#0, %r1#2 : tensor<2x3x2xf32>, tensor<2x3xf32>) outs(%o : tensor<2x3x2xf32>) {
  ^bb0(%a: f32, %s: f32, %unused: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<2x3x2xf32>
  check.expect_almost_eq_const(%n, dense<[[[0.20222049951553345, -0.42741328477859497],  [0.34903576970100403, -0.48509007692337036],  [0.29075831174850464, -0.44453340768814087]], [[-0.044756121933460236, 0.12229476869106293],  [-0.10080078989267349, 0.3785442113876343],  [-0.008374404162168503, -0.04913300275802612]]]> : tensor<2x3x2xf32>, atol 1.0e-05) : tensor<2x3x2xf32>
  return
}

// map_load: out[i, j] = src[j, i] (a transpose), -1 where i is past the
// source (the padding value, a constant defined outside the region).
func.func @map_load_transpose_padded() {
  %s = util.unfoldable_constant dense<[[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]]> : tensor<2x3xf32>
  %pad = arith.constant -1.0 : f32
  %o = tensor.empty() : tensor<4x2xf32>
  %0 = iree_linalg_ext.map_load %s into %o {
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield %j, %i, %pad : index, index, f32
  } : tensor<2x3xf32> into tensor<4x2xf32> -> tensor<4x2xf32>
  check.expect_almost_eq_const(%0, dense<[[0.5, 3.5], [1.5, 4.5], [2.5, 5.5], [-1.0, -1.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  return
}

// map_store: element i goes to [i / 2, 1] (delinearized with basis
// (3, 2), then column forced to 1) only for even i; the rest of the output
// keeps its zeros.
func.func @map_store_masked_delinearize() {
  %x = util.unfoldable_constant dense<[10, 11, 12, 13, 14, 15]> : tensor<6xi32>
  %o = util.unfoldable_constant dense<0> : tensor<3x2xi32>
  %0 = iree_linalg_ext.map_store %x into %o {
  ^bb0(%i: index):
    %r:2 = affine.delinearize_index %i into (3, 2) : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %even = arith.cmpi eq, %r#1, %c0 : index
    iree_linalg_ext.yield %r#0, %c1, %even : index, index, i1
  } : tensor<6xi32> into tensor<3x2xi32> -> tensor<3x2xi32>
  check.expect_eq_const(%0, dense<[[ 0, 10], [ 0, 12], [ 0, 14]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

// argmin along dim 0 (the first of equal minima) with index_base 7.
func.func @arg_compare_argmin_dim0_base() {
  %v = util.unfoldable_constant dense<[[4.0, -1.0, 2.0], [3.0, 5.0, 2.0], [3.0, -2.0, 7.0]]> : tensor<3x3xf32>
  %ev = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i64
  %base = arith.constant 7 : index
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<3xf32>) -> tensor<3xf32>
  %oi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %0:2 = iree_linalg_ext.arg_compare dimension(0) ins(%v : tensor<3x3xf32>) outs(%ov, %oi : tensor<3xf32>, tensor<3xi64>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3xf32>, tensor<3xi64>
  check.expect_almost_eq_const(%0#0, dense<[3.0, -2.0, 2.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%0#1, dense<[8, 9, 7]> : tensor<3xi64>) : tensor<3xi64>
  return
}

// argmax along dim 1 of values with explicit indices (partial results
// being merged): the index comes from the indices operand.
func.func @arg_compare_argmax_explicit_indices() {
  %v = util.unfoldable_constant dense<[[1, 9, 4, 9], [6, 2, 8, 0]]> : tensor<2x4xi32>
  %i = util.unfoldable_constant dense<[[3, 2, 1, 0], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %ev = tensor.empty() : tensor<2xi32>
  %ei = tensor.empty() : tensor<2xi32>
  %min = arith.constant -2147483648 : i32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%min : i32) outs(%ev : tensor<2xi32>) -> tensor<2xi32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2xi32>) -> tensor<2xi32>
  %0:2 = iree_linalg_ext.arg_compare dimension(1) ins(%v, %i : tensor<2x4xi32>, tensor<2x4xi32>) outs(%ov, %oi : tensor<2xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xi32>, tensor<2xi32>
  check.expect_eq_const(%0#0, dense<[9, 8]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%0#1, dense<[2, 7]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Batch of 2 index vectors of depth 2; dimension_map [1, 0] sends index
// component 0 to source dim 1 and component 1 to dim 0; the slice is the
// last source dim.
func.func @gather_depth2_permuted() {
  %s = util.unfoldable_constant dense<[[[0.0, 0.5],  [1.0, 1.5],  [2.0, 2.5],  [3.0, 3.5]], [[4.0, 4.5],  [5.0, 5.5],  [6.0, 6.5],  [7.0, 7.5]], [[8.0, 8.5],  [9.0, 9.5],  [10.0, 10.5],  [11.0, 11.5]]]> : tensor<3x4x2xf32>
  %i = util.unfoldable_constant dense<[[3, 1], [0, 2]]> : tensor<2x2xi32>
  %e = tensor.empty() : tensor<2x2xf32>
  %0 = iree_linalg_ext.gather dimension_map = [1, 0] ins(%s, %i : tensor<3x4x2xf32>, tensor<2x2xi32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[7.0, 7.5], [8.0, 8.5]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// Rows gathered by a depth-1 index (no index-depth dim); a false mask
// keeps the output's row.
func.func @gather_rows_masked() {
  %s = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i = util.unfoldable_constant dense<[2, 0, 1]> : tensor<3xi32>
  %m = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %o = util.unfoldable_constant dense<[[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]> : tensor<3x3xi32>
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i, %m : tensor<3x3xi32>, tensor<3xi32>, tensor<3xi1>) outs(%o : tensor<3x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const(%0, dense<[[ 7,  8,  9], [-1, -1, -1], [ 4,  5,  6]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

// Adds 3 row slices of width 2 into a 3x4 original; two updates hit row
// 2 (unique_indices(false)), so both are added.
func.func @scatter_add_duplicates_partial_slice() {
  %o = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %u = util.unfoldable_constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>
  %i = util.unfoldable_constant dense<[[2], [0], [2]]> : tensor<3x1xi32>
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<3x2xf32>, tensor<3x1xi32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<3x4xf32>
  check.expect_almost_eq_const(%0, dense<[[10.0, 21.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [109.0, 211.0, 10.0, 11.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

// Scalar updates at (dim1, dim0) index vectors (dimension_map [1, 0]);
// the masked-off third update leaves the original.
func.func @scatter_masked_swapped_map() {
  %o = util.unfoldable_constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %u = util.unfoldable_constant dense<[5, 6, 7]> : tensor<3xi32>
  %i = util.unfoldable_constant dense<[[2, 1], [0, 0], [1, 0]]> : tensor<3x2xi32>
  %m = util.unfoldable_constant dense<[true, true, false]> : tensor<3xi1>
  %0 = iree_linalg_ext.scatter dimension_map = [1, 0] unique_indices(true) ins(%u, %i, %m : tensor<3xi32>, tensor<3x2xi32>, tensor<3xi1>) outs(%o : tensor<2x3xi32>) {
  ^bb0(%x: i32, %y: i32):
    iree_linalg_ext.yield %x : i32
  } -> tensor<2x3xi32>
  check.expect_eq_const(%0, dense<[[6, 0, 0], [0, 0, 5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

