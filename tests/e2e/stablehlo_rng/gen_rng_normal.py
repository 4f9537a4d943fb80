#!/usr/bin/env python3
# Writes rng_normal_dynamic.mlir: stablehlo.rng NORMAL with run-time result
# dims. Expected values from this model of IREE's ExpandRngNormal, written
# from the C++ standard's definitions: std::mt19937 seeded with 0 (the
# standard's initialization and tempering), libstdc++'s
# generate_canonical<double, 53> from two 32-bit draws (lo + hi * 2^32) /
# 2^64, pairs (u1 > FLT_EPSILON, u2) in f32, mag = sqrt(f32(-2 log u1)),
# cos / sin of f32(2 pi) * u2; element i < ceil(n / 2) is mag_i cos_i,
# element ceil(n / 2) + i is mag_i sin_i; z = sigma * mag * trig + mu.
#   /usr/bin/python3 gen_rng_normal.py > rng_normal_dynamic.mlir
import math
import numpy as np

class MT19937:
    def __init__(self, seed):
        self.mt = [0] * 624
        self.mt[0] = seed & 0xffffffff
        for i in range(1, 624):
            prev = self.mt[i - 1]
            self.mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xffffffff
        self.index = 624

    def twist(self):
        for i in range(624):
            y = (self.mt[i] & 0x80000000) | (self.mt[(i + 1) % 624] & 0x7fffffff)
            v = self.mt[(i + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908b0df
            self.mt[i] = v
        self.index = 0

    def next(self):
        if self.index >= 624:
            self.twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9d2c5680
        y ^= (y << 15) & 0xefc60000
        y ^= y >> 18
        return y & 0xffffffff

    def canonical(self):
        lo = self.next()
        hi = self.next()
        r = (lo + hi * 4294967296.0) / 18446744073709551616.0
        return min(r, math.nextafter(1.0, 0.0))

def normal(n, mu, sigma):
    half = (n + 1) // 2
    mt = MT19937(0)
    mag, cs, sn = [], [], []
    eps = np.float32(1.1920928955078125e-7)
    two_pi = np.float32(2.0 * math.pi)
    for _ in range(half):
        while True:
            u1 = np.float32(mt.canonical())
            u2 = np.float32(mt.canonical())
            if u1 > eps:
                break
        s = np.float32(-2.0 * math.log(float(u1)))
        mag.append(np.sqrt(s))
        angle = np.float32(two_pi * u2)
        cs.append(np.float32(math.cos(float(angle))))
        sn.append(np.float32(math.sin(float(angle))))
    out = []
    for e in range(n):
        i, t = (e, cs[e]) if e < half else (e - half, sn[e - half])
        out.append(np.float32(np.float32(np.float32(sigma) * mag[i]) * t) +
                   np.float32(mu))
    return np.array(out, dtype=np.float32)

def fmt(a):
    if a.ndim == 1:
        return '[' + ', '.join(repr(float(v)) for v in a) + ']'
    return '[' + ', '.join(fmt(r) for r in a) + ']'

z35 = normal(15, 1.5, 2.0).reshape(3, 5)
z7 = normal(7, 0.0, 1.0)
print(f'''// stablehlo.rng NORMAL with run-time result dims (sized by the shape
// operand): the same numbers as a static result of that shape. Expected
// values from gen_rng_normal.py (a Python model of std::mt19937 seeded with
// 0 and IREE's Box-Muller expansion); regenerate with
//   /usr/bin/python3 gen_rng_normal.py > rng_normal_dynamic.mlir

// 3x5 (an odd count: 8 pairs, the last sin unused), mu 1.5, sigma 2.
func.func @normal_dynamic_3x5() {{
  %shape = util.unfoldable_constant dense<[3, 5]> : tensor<2xi64>
  %mu = stablehlo.constant dense<1.5> : tensor<f32>
  %sigma = stablehlo.constant dense<2.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {{rng_distribution = #stablehlo<rng_distribution NORMAL>}} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<3x5xf32>
  check.expect_almost_eq_const(%1, dense<{fmt(z35)}> : tensor<3x5xf32>) : tensor<3x5xf32>
  return
}}

// A static result of the same kind, for comparison with the table built
// for its count (7 elements, 4 pairs).
func.func @normal_static_7() {{
  %shape = stablehlo.constant dense<[7]> : tensor<1xi64>
  %mu = stablehlo.constant dense<0.0> : tensor<f32>
  %sigma = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {{rng_distribution = #stablehlo<rng_distribution NORMAL>}} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<7xf32>
  check.expect_almost_eq_const(%0, dense<{fmt(z7)}> : tensor<7xf32>) : tensor<7xf32>
  return
}}

// One run-time dim beside a static one: ?x7 with 1 row.
func.func @normal_dynamic_rows() {{
  %shape = util.unfoldable_constant dense<[1, 7]> : tensor<2xi64>
  %mu = stablehlo.constant dense<0.0> : tensor<f32>
  %sigma = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {{rng_distribution = #stablehlo<rng_distribution NORMAL>}} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x7xf32>
  %1 = tensor.cast %0 : tensor<?x7xf32> to tensor<1x7xf32>
  check.expect_almost_eq_const(%1, dense<[{fmt(z7)}]> : tensor<1x7xf32>) : tensor<1x7xf32>
  return
}}''')
