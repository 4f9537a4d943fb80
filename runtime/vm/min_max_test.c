// NaN-propagating min/max (numerics.h): the IEEE 754-2019 minimum/maximum
// rules on zeros and NaNs, and the constant-bound forms the cpu backend's
// epilogues use (ReLU, clip) giving the same bits as the general forms for
// every bound they are used with.
#include <math.h>

#include "runtime/testing/test.h"
#include "runtime/vm/numerics.h"

static uint32_t bits(float f) {
  return kiln_vm_f32_to_bits(f);
}
static float from_bits(uint32_t b) {
  return kiln_vm_bits_to_f32(b);
}

KILN_TEST(zeros_and_nans) {
  // -0 < +0: max picks +0 and min picks -0, in either operand order.
  KILN_EXPECT_EQ_INT(bits(kiln_vm_max_f32(-0.0f, 0.0f)), 0x00000000u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_max_f32(0.0f, -0.0f)), 0x00000000u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_min_f32(-0.0f, 0.0f)), 0x80000000u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_min_f32(0.0f, -0.0f)), 0x80000000u);
  // A NaN operand gives a quiet NaN that keeps its payload.
  const float snan = from_bits(0x7f800123u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_max_f32(snan, 1.0f)), 0x7fc00123u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_min_f32(2.0f, snan)), 0x7fc00123u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_max_f32_const(snan, 0.0f)), 0x7fc00123u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_min_f32_const(snan, 6.0f)), 0x7fc00123u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_max_f32_const(-0.0f, 0.0f)), 0x00000000u);
  KILN_EXPECT_EQ_INT(bits(kiln_vm_min_f32_const(0.0f, -0.0f)), 0x80000000u);
  KILN_EXPECT_TRUE(kiln_vm_max_f32_const(-INFINITY, -3.0f) == -3.0f);
  KILN_EXPECT_TRUE(kiln_vm_min_f32_const(INFINITY, 6.0f) == 6.0f);
}

// The constant forms against the general ones, for bounds that are not NaN
// and not the replaced zero (what the cpu backend checks before using
// them), over special values and a sweep of bit patterns.
KILN_TEST(constant_forms_match_general) {
  static const float kBounds[] = {0.0f,   6.0f,     -3.0f,     1e-30f,
                                  -1e30f, INFINITY, -INFINITY, 1.0f};
  static const uint32_t kSpecial[] = {
      0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
      0xffc00000u, 0x7f800001u, 0xff812345u, 0x00000001u, 0x80000001u,
      0x40c00000u, 0xc0400000u, 0x3f800000u, 0x0da24260u, 0xf149f2cau};
  int bad = 0, checked = 0;
  for (size_t i = 0; i < sizeof(kBounds) / sizeof(kBounds[0]); ++i) {
    const float c = kBounds[i];
    for (uint32_t k = 0; k < 200000 + 15; ++k) {
      const uint32_t b =
          k < 15 ? kSpecial[k] : (uint32_t)(k - 15) * 2654435761u + 12345u;
      const float a = from_bits(b);
      // max with a bound other than -0, min with a bound other than +0.
      if (bits(kiln_vm_max_f32_const(a, c)) != bits(kiln_vm_max_f32(a, c)) ||
          bits(kiln_vm_max_f32_const(a, c)) != bits(kiln_vm_max_f32(c, a))) {
        ++bad;
      }
      const float cm = c == 0.0f ? -0.0f : c;
      if (bits(kiln_vm_min_f32_const(a, cm)) != bits(kiln_vm_min_f32(a, cm)) ||
          bits(kiln_vm_min_f32_const(a, cm)) != bits(kiln_vm_min_f32(cm, a))) {
        ++bad;
      }
      checked += 2;
    }
  }
  KILN_EXPECT_EQ_INT(bad, 0);
  KILN_EXPECT_TRUE(checked > 3000000);
}

KILN_TEST_MAIN(KILN_TEST_CASE(zeros_and_nans),
               KILN_TEST_CASE(constant_forms_match_general))
