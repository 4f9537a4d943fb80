// 8- and 4-bit floats: arith.truncf from f32 (round to nearest, ties to
// even; overflow to inf, NaN or the largest value per format, as LLVM's
// APFloat) and arith.extf back, checked on the encodings. Expected
// encodings are worked out from each format's sign/exponent/mantissa/bias.

func.func @truncf_f8E4M3FN() {
  // 1.0, -1.0, 448 (max), 464 (tie -> 448), 465 (overflow -> NaN),
  // 2^-9 (min subnormal), 1.0625 (tie -> 1.0), -0.0
  %x = util.unfoldable_constant dense<[1.0, -1.0, 448.0, 464.0, 465.0, 0.001953125, 1.0625, -0.0]> : tensor<8xf32>
  %t = arith.truncf %x : tensor<8xf32> to tensor<8xf8E4M3FN>
  %b = arith.bitcast %t : tensor<8xf8E4M3FN> to tensor<8xi8>
  check.expect_eq_const(%b, dense<[56, -72, 126, 126, 127, 1, 56, -128]> : tensor<8xi8>) : tensor<8xi8>
  return
}

func.func @truncf_f8E5M2() {
  // 1.0, 57344 (max), 61440 (tie -> inf), 2^-16, -inf
  %x = util.unfoldable_constant dense<[1.0, 57344.0, 61440.0, 1.52587890625e-05, 0xFF800000]> : tensor<5xf32>
  %t = arith.truncf %x : tensor<5xf32> to tensor<5xf8E5M2>
  %b = arith.bitcast %t : tensor<5xf8E5M2> to tensor<5xi8>
  check.expect_eq_const(%b, dense<[60, 123, 124, 1, -4]> : tensor<5xi8>) : tensor<5xi8>
  return
}

func.func @truncf_fnuz() {
  // 1.0, -0.0 (-> +0), 240 (max), 250 (overflow -> NaN 0x80), -2.0
  %x = util.unfoldable_constant dense<[1.0, -0.0, 240.0, 250.0, -2.0]> : tensor<5xf32>
  %t = arith.truncf %x : tensor<5xf32> to tensor<5xf8E4M3FNUZ>
  %b = arith.bitcast %t : tensor<5xf8E4M3FNUZ> to tensor<5xi8>
  check.expect_eq_const(%b, dense<[64, 0, 127, -128, -56]> : tensor<5xi8>) : tensor<5xi8>
  %t2 = arith.truncf %x : tensor<5xf32> to tensor<5xf8E5M2FNUZ>
  %b2 = arith.bitcast %t2 : tensor<5xf8E5M2FNUZ> to tensor<5xi8>
  // bias 16, 2 mantissa bits: 1.0 = 0x40; 240 is the tie between 224
  // (0x5F, odd) and 256 (0x60, even) -> 0x60; 250 -> 256 = 0x60;
  // -2.0 = 0xC4
  check.expect_eq_const(%b2, dense<[64, 0, 96, 96, -60]> : tensor<5xi8>) : tensor<5xi8>
  return
}

func.func @truncf_f8E8M0FNU() {
  // 2^(e - 127): 1.0, 2.0, 3.0 (tie -> 4), 0.75 (tie -> 1), -1.0 (NaN)
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 0.75, -1.0]> : tensor<5xf32>
  %t = arith.truncf %x : tensor<5xf32> to tensor<5xf8E8M0FNU>
  %b = arith.bitcast %t : tensor<5xf8E8M0FNU> to tensor<5xi8>
  check.expect_eq_const(%b, dense<[127, -128, -127, 127, -1]> : tensor<5xi8>) : tensor<5xi8>
  return
}

func.func @truncf_f4E2M1FN() {
  // Values 0, 0.5, 1, 1.5, 2, 3, 4, 6 are encodings 0..7; 5 (tie -> 4),
  // 100 (saturates to 6), -1.0 (0xA)
  %x = util.unfoldable_constant dense<[1.5, 6.0, 5.0, 100.0, -1.0]> : tensor<5xf32>
  %t = arith.truncf %x : tensor<5xf32> to tensor<5xf4E2M1FN>
  %b = arith.bitcast %t : tensor<5xf4E2M1FN> to tensor<5xi4>
  %w = arith.extui %b : tensor<5xi4> to tensor<5xi8>
  check.expect_eq_const(%w, dense<[3, 7, 6, 7, 10]> : tensor<5xi8>) : tensor<5xi8>
  return
}

func.func @extf_from_bits() {
  // f8E4M3FN 0x01 = 2^-9, 0x7E = 448; f8E5M2 0x03 = 3 * 2^-16
  %b = util.unfoldable_constant dense<[1, 126]> : tensor<2xi8>
  %f = arith.bitcast %b : tensor<2xi8> to tensor<2xf8E4M3FN>
  %e = arith.extf %f : tensor<2xf8E4M3FN> to tensor<2xf32>
  check.expect_eq_const(%e, dense<[0.001953125, 448.0]> : tensor<2xf32>) : tensor<2xf32>
  %b2 = util.unfoldable_constant dense<[3, -68]> : tensor<2xi8>
  %f2 = arith.bitcast %b2 : tensor<2xi8> to tensor<2xf8E5M2>
  %e2 = arith.extf %f2 : tensor<2xf8E5M2> to tensor<2xf32>
  // 0xBC = -1.0
  check.expect_eq_const(%e2, dense<[4.57763671875e-05, -1.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @arith_rounds_to_f8() {
  // 1.0 + 0.0625 in f8E4M3FN: 1.0625 is a tie between 1.0 and 1.125 ->
  // 1.0; 1.25 + 0.0625 = 1.3125 -> tie to even 1.25
  %a = util.unfoldable_constant dense<[1.0, 1.25]> : tensor<2xf8E4M3FN>
  %c = util.unfoldable_constant dense<[0.0625, 0.0625]> : tensor<2xf32>
  %ae = arith.extf %a : tensor<2xf8E4M3FN> to tensor<2xf32>
  %s = arith.addf %ae, %c : tensor<2xf32>
  %t = arith.truncf %s : tensor<2xf32> to tensor<2xf8E4M3FN>
  %e = arith.extf %t : tensor<2xf8E4M3FN> to tensor<2xf32>
  check.expect_eq_const(%e, dense<[1.0, 1.25]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @scaling_extf_truncf() {
  // f4E2M1FN encodings 5 (3.0) and 2 (1.0) times E8M0 scales 125 (2^-2) and
  // 130 (2^3): 0.75 and 8.0.
  %x = util.unfoldable_constant dense<[5, 2]> : tensor<2xi8>
  %s = util.unfoldable_constant dense<[125, -126]> : tensor<2xi8>
  %init = tensor.empty() : tensor<2xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%x, %s : tensor<2xi8>, tensor<2xi8>) outs(%init : tensor<2xf32>) {
  ^bb0(%xi: i8, %si: i8, %o: f32):
    %x4 = arith.trunci %xi : i8 to i4
    %xf = arith.bitcast %x4 : i4 to f4E2M1FN
    %sf = arith.bitcast %si : i8 to f8E8M0FNU
    %r = arith.scaling_extf %xf, %sf : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  check.expect_eq_const(%e, dense<[0.75, 8.0]> : tensor<2xf32>) : tensor<2xf32>
  // 5.0 / 2^-1 = 10 saturates to 6 (7); 2.5 / 2 = 1.25, the tie between 1.0
  // (2, even) and 1.5 (3) -> 2.
  %v = util.unfoldable_constant dense<[5.0, 2.5]> : tensor<2xf32>
  %s2 = util.unfoldable_constant dense<[126, 128]> : tensor<2xi8>
  %init2 = tensor.empty() : tensor<2xi8>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%v, %s2 : tensor<2xf32>, tensor<2xi8>) outs(%init2 : tensor<2xi8>) {
  ^bb0(%vi: f32, %si: i8, %o: i8):
    %sf = arith.bitcast %si : i8 to f8E8M0FNU
    %r = arith.scaling_truncf %vi, %sf : f32, f8E8M0FNU to f4E2M1FN
    %b = arith.bitcast %r : f4E2M1FN to i4
    %w = arith.extui %b : i4 to i8
    linalg.yield %w : i8
  } -> tensor<2xi8>
  check.expect_eq_const(%t, dense<[7, 2]> : tensor<2xi8>) : tensor<2xi8>
  return
}
