// dot8.f16 kernels (dot.h): every lane equals a sequential f16 dot product
// computed with the compiler's own _Float16 arithmetic (each product and
// sum an IEEE half operation, independent of kiln's conversions), for the
// portable kernel and, where the host has F16C, the F16C one. Inputs mix
// ordinary values with subnormals, large values that overflow to inf, and
// NaN; lanes read with step 0 (shared), 1 (adjacent) and others, strides
// negative too.
#include <string.h>

#include "runtime/testing/test.h"
#include "runtime/vm/dot.h"

#if defined(__FLT16_MAX__)

typedef void (*kiln_dot8_fn_t)(float*, const uint8_t*, int64_t, int64_t,
                               const uint8_t*, int64_t, int64_t, int64_t);

static uint32_t kiln_test_rand(uint32_t* s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

// A random f16: mostly values of magnitude about 2^-6..2^6, some
// subnormals, some near the top of the range, a few inf and NaN.
static _Float16 kiln_test_half(uint32_t* s) {
  uint32_t r = kiln_test_rand(s);
  uint16_t sign = (uint16_t)((r & 1u) << 15);
  uint32_t kind = (r >> 1) % 64;
  uint16_t mant = (uint16_t)((r >> 7) & 0x3ffu);
  uint16_t exp;
  if (kind == 0) {
    exp = 0;  // subnormal
  } else if (kind == 1) {
    exp = 30;  // up to 65504
  } else if (kind == 2) {
    exp = 31;
    mant = (r >> 20) & 1u ? mant : 0;  // NaN or inf
  } else {
    exp = (uint16_t)(9 + (r >> 17) % 13);  // 2^-6 .. 2^6
  }
  uint16_t bits = (uint16_t)(sign | (uint16_t)(exp << 10) | mant);
  _Float16 h;
  memcpy(&h, &bits, 2);
  return h;
}

static bool kiln_test_same(float x, _Float16 want) {
  _Float16 got = (_Float16)x;  // exact: x holds an f16 value
  if (want != want) return got != got;
  uint16_t a, b;
  memcpy(&a, &got, 2);
  memcpy(&b, &want, 2);
  return a == b;
}

// Runs |fn| on random data for several step/stride shapes and compares
// each lane with the _Float16 reference; returns the mismatches.
static int kiln_test_dot8(kiln_dot8_fn_t fn, uint32_t seed) {
  enum { N = 4096 };
  _Float16 a[N], b[N];
  uint32_t s = seed;
  for (int i = 0; i < N; ++i) {
    a[i] = kiln_test_half(&s);
    b[i] = kiln_test_half(&s);
  }
  // (base, stride, step) for a and b; every index stays inside [0, N).
  static const int64_t shapes[][6] = {
      {0, 1, 0, 0, 8, 1},        // matmul: a shared, b adjacent
      {100, 1, 37, 200, 1, 37},  // both transposed
      {2000, -3, 5, 3000, -8, 1},
      {7, 2, 1, 9, 16, 2},
  };
  int bad = 0;
  for (size_t t = 0; t < sizeof(shapes) / sizeof(shapes[0]); ++t) {
    const int64_t* sh = shapes[t];
    for (int64_t count = 0; count <= 200; count += 67) {
      float acc[KILN_VM_DOT8_LANES];
      _Float16 want[KILN_VM_DOT8_LANES];
      for (int q = 0; q < KILN_VM_DOT8_LANES; ++q) {
        want[q] = kiln_test_half(&s);
        acc[q] = (float)want[q];
        for (int64_t i = 0; i < count; ++i) {
          _Float16 x = a[sh[0] + i * sh[1] + q * sh[2]];
          _Float16 y = b[sh[3] + i * sh[4] + q * sh[5]];
          _Float16 p = x * y;
          want[q] = want[q] + p;
        }
      }
      fn(acc, (const uint8_t*)(a + sh[0]), sh[1], sh[2],
         (const uint8_t*)(b + sh[3]), sh[4], sh[5], count);
      for (int q = 0; q < KILN_VM_DOT8_LANES; ++q) {
        bad += !kiln_test_same(acc[q], want[q]);
      }
    }
  }
  return bad;
}

KILN_TEST(portable_matches_half_arithmetic) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    KILN_EXPECT_EQ_INT(kiln_test_dot8(kiln_vm_dot8_f16_portable, seed), 0);
  }
}

KILN_TEST(f16c_matches_half_arithmetic) {
  if (!kiln_vm_dot8_f16c_supported()) return;  // nothing to compare here
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    KILN_EXPECT_EQ_INT(kiln_test_dot8(kiln_vm_dot8_f16_f16c, seed), 0);
  }
}

KILN_TEST(dispatch_matches_half_arithmetic) {
  KILN_EXPECT_EQ_INT(kiln_test_dot8(kiln_vm_dot8_f16, 99), 0);
}

KILN_TEST_MAIN(KILN_TEST_CASE(portable_matches_half_arithmetic),
               KILN_TEST_CASE(f16c_matches_half_arithmetic),
               KILN_TEST_CASE(dispatch_matches_half_arithmetic))

#else  // without _Float16 there is no independent reference here

KILN_TEST(no_half_type) {}
KILN_TEST_MAIN(KILN_TEST_CASE(no_half_type))

#endif  // __FLT16_MAX__
