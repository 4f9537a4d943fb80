// 8- and 4-bit float conversions (numerics.h). Expected encodings are
// worked out from each format's definition (sign, exponent, mantissa, bias)
// and LLVM APFloat's rules: round to nearest, ties to even; overflow to inf
// (f8E5M2), NaN (E4M3FN, FNUZ, E8M0FNU) or the largest value (f4E2M1FN).
#include <math.h>

#include "runtime/testing/test.h"
#include "runtime/vm/numerics.h"

enum {
  E4M3FN = 0,
  E5M2 = 1,
  E4M3FNUZ = 2,
  E5M2FNUZ = 3,
  E8M0FNU = 4,
  E2M1 = 5
};

static uint32_t enc(float f, int fmt) {
  return kiln_vm_f32_to_small_float(f, fmt);
}
static float dec(uint32_t b, int fmt) {
  return kiln_vm_small_float_to_f32(b, fmt);
}

KILN_TEST(f8e4m3fn) {
  KILN_EXPECT_EQ_INT(enc(1.0f, E4M3FN), 0x38);
  KILN_EXPECT_EQ_INT(enc(-1.0f, E4M3FN), 0xb8);
  KILN_EXPECT_EQ_INT(enc(-0.0f, E4M3FN), 0x80);
  KILN_EXPECT_EQ_INT(enc(448.0f, E4M3FN), 0x7e);  // the largest
  KILN_EXPECT_EQ_INT(enc(464.0f, E4M3FN), 0x7e);  // tie: to even (448)
  KILN_EXPECT_EQ_INT(enc(465.0f, E4M3FN), 0x7f);  // overflow: NaN
  KILN_EXPECT_EQ_INT(enc(INFINITY, E4M3FN), 0x7f);
  KILN_EXPECT_EQ_INT(enc(-INFINITY, E4M3FN), 0xff);
  KILN_EXPECT_EQ_INT(enc(ldexpf(1, -9), E4M3FN), 0x01);   // min subnormal
  KILN_EXPECT_EQ_INT(enc(ldexpf(1, -10), E4M3FN), 0x00);  // tie: to 0
  KILN_EXPECT_EQ_INT(enc(ldexpf(3, -11), E4M3FN), 0x01);
  KILN_EXPECT_EQ_INT(enc(1.0625f, E4M3FN), 0x38);  // tie: to even (1.0)
  KILN_EXPECT_EQ_INT(enc(1.1875f, E4M3FN), 0x3a);  // tie: to even (1.25)
  KILN_EXPECT_TRUE(dec(0x01, E4M3FN) == ldexpf(1, -9));
  KILN_EXPECT_TRUE(dec(0x7e, E4M3FN) == 448.0f);
  KILN_EXPECT_TRUE(isnan(dec(0x7f, E4M3FN)) && isnan(dec(0xff, E4M3FN)));
}

KILN_TEST(f8e5m2) {
  KILN_EXPECT_EQ_INT(enc(1.0f, E5M2), 0x3c);
  KILN_EXPECT_EQ_INT(enc(57344.0f, E5M2), 0x7b);
  KILN_EXPECT_EQ_INT(enc(61440.0f, E5M2), 0x7c);  // tie: to even (inf)
  KILN_EXPECT_EQ_INT(enc(61439.0f, E5M2), 0x7b);
  KILN_EXPECT_EQ_INT(enc(-INFINITY, E5M2), 0xfc);
  KILN_EXPECT_EQ_INT(enc(NAN, E5M2) & 0x7f, 0x7e);
  KILN_EXPECT_EQ_INT(enc(ldexpf(1, -16), E5M2), 0x01);
  KILN_EXPECT_TRUE(isinf(dec(0x7c, E5M2)) && dec(0xfc, E5M2) < 0);
  KILN_EXPECT_TRUE(isnan(dec(0x7d, E5M2)));
  KILN_EXPECT_TRUE(dec(0x03, E5M2) == ldexpf(3, -16));
}

KILN_TEST(f8_fnuz) {
  KILN_EXPECT_EQ_INT(enc(1.0f, E4M3FNUZ), 0x40);
  KILN_EXPECT_EQ_INT(enc(-0.0f, E4M3FNUZ), 0x00);  // no -0
  KILN_EXPECT_EQ_INT(enc(NAN, E4M3FNUZ), 0x80);
  KILN_EXPECT_EQ_INT(enc(240.0f, E4M3FNUZ), 0x7f);
  KILN_EXPECT_EQ_INT(enc(250.0f, E4M3FNUZ), 0x80);  // overflow: NaN
  KILN_EXPECT_EQ_INT(enc(INFINITY, E4M3FNUZ), 0x80);
  KILN_EXPECT_EQ_INT(enc(-2.0f, E4M3FNUZ), 0xc8);
  KILN_EXPECT_EQ_INT(enc(1.0f, E5M2FNUZ), 0x40);
  KILN_EXPECT_EQ_INT(enc(57344.0f, E5M2FNUZ), 0x7f);
  KILN_EXPECT_EQ_INT(enc(ldexpf(1, -17), E5M2FNUZ), 0x01);
  KILN_EXPECT_EQ_INT(enc(-ldexpf(1, -19), E5M2FNUZ), 0x00);  // -0 -> +0
  KILN_EXPECT_TRUE(isnan(dec(0x80, E5M2FNUZ)));
  KILN_EXPECT_TRUE(dec(0xc0, E5M2FNUZ) == -1.0f);
}

KILN_TEST(f8e8m0fnu) {
  KILN_EXPECT_EQ_INT(enc(1.0f, E8M0FNU), 0x7f);
  KILN_EXPECT_EQ_INT(enc(2.0f, E8M0FNU), 0x80);
  KILN_EXPECT_EQ_INT(enc(3.0f, E8M0FNU), 0x81);   // tie: up (to 4)
  KILN_EXPECT_EQ_INT(enc(0.75f, E8M0FNU), 0x7f);  // tie: up (to 1)
  KILN_EXPECT_EQ_INT(enc(2.9f, E8M0FNU), 0x80);
  KILN_EXPECT_EQ_INT(enc(-1.0f, E8M0FNU), 0xff);  // no sign: NaN
  KILN_EXPECT_EQ_INT(enc(0.0f, E8M0FNU), 0x00);   // no zero: 2^-127
  KILN_EXPECT_EQ_INT(enc(INFINITY, E8M0FNU), 0xff);
  KILN_EXPECT_EQ_INT(enc(ldexpf(1, 127), E8M0FNU), 0xfe);
  KILN_EXPECT_TRUE(dec(0x00, E8M0FNU) == ldexpf(1, -127));
  KILN_EXPECT_TRUE(dec(0x81, E8M0FNU) == 4.0f);
  KILN_EXPECT_TRUE(isnan(dec(0xff, E8M0FNU)));
}

KILN_TEST(f4e2m1fn) {
  static const float values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint32_t b = 0; b < 8; ++b) {
    KILN_EXPECT_TRUE(dec(b, E2M1) == values[b]);
    KILN_EXPECT_TRUE(dec(b | 8, E2M1) == -values[b]);
    KILN_EXPECT_EQ_INT(enc(values[b], E2M1), b);
  }
  KILN_EXPECT_EQ_INT(enc(5.0f, E2M1), 0x6);    // tie: to even (4)
  KILN_EXPECT_EQ_INT(enc(0.25f, E2M1), 0x0);   // tie: to even (0)
  KILN_EXPECT_EQ_INT(enc(0.75f, E2M1), 0x2);   // tie: to even (1)
  KILN_EXPECT_EQ_INT(enc(100.0f, E2M1), 0x7);  // saturates
  KILN_EXPECT_EQ_INT(enc(-INFINITY, E2M1), 0xf);
  KILN_EXPECT_EQ_INT(enc(-1.0f, E2M1), 0xa);
}

// Every finite encoding survives the round trip through f32.
KILN_TEST(round_trips) {
  for (int fmt = 0; fmt < 6; ++fmt) {
    uint32_t n = fmt == E2M1 ? 16 : 256;
    for (uint32_t b = 0; b < n; ++b) {
      float f = dec(b, fmt);
      if (isnan(f) || isinf(f)) continue;
      KILN_EXPECT_EQ_INT(enc(f, fmt), b);
    }
  }
}

// kiln_vm_round_to_f16 (dot.f16's rounding on f32 bits) agrees with the
// round trip through f16 bits: on a stride over every f32 bit pattern,
// and on each tie (and its neighbours) at every exponent near and in the
// f16 range, where the two paths meet.
KILN_TEST(round_to_f16) {
  uint32_t bad = 0;
  for (uint64_t b = 0; b <= UINT32_MAX; b += 251) {
    float f = kiln_vm_bits_to_f32((uint32_t)b);
    float want = kiln_vm_f16_to_f32((uint16_t)kiln_vm_f32_to_f16(f));
    float got = kiln_vm_round_to_f16(f);
    if (kiln_vm_f32_to_bits(got) != kiln_vm_f32_to_bits(want) &&
        !(isnan(got) && isnan(want))) {
      ++bad;
    }
  }
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t exp = 100; exp < 150; ++exp) {
      for (uint32_t hi = 0; hi < 1024; hi += 7) {
        for (int32_t d = -1; d <= 1; ++d) {
          uint32_t bits =
              (sign << 31) | (exp << 23) | (hi << 13) | (uint32_t)(0x1000 + d);
          float f = kiln_vm_bits_to_f32(bits);
          float want = kiln_vm_f16_to_f32((uint16_t)kiln_vm_f32_to_f16(f));
          if (kiln_vm_f32_to_bits(kiln_vm_round_to_f16(f)) !=
              kiln_vm_f32_to_bits(want)) {
            ++bad;
          }
        }
      }
    }
  }
  KILN_EXPECT_EQ_INT(bad, 0);
}

KILN_TEST_MAIN(KILN_TEST_CASE(f8e4m3fn), KILN_TEST_CASE(f8e5m2),
               KILN_TEST_CASE(f8_fnuz), KILN_TEST_CASE(f8e8m0fnu),
               KILN_TEST_CASE(f4e2m1fn), KILN_TEST_CASE(round_trips),
               KILN_TEST_CASE(round_to_f16))
