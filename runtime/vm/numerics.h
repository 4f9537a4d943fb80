// The scalar semantics of the VM's opcodes, written once: helpers with
// exactly specified semantics (saturating float->int, half/bfloat16
// conversions, NaN-propagating min/max, bit casts) and, at the end, tables
// of the float and conversion opcodes' expressions. The interpreter expands
// the tables into its handlers; the cpu target backend
// (compiler/targets/cpu/) prints the same expressions into the C it
// generates, which includes this header (so it depends on <tgmath.h>,
// <stdint.h> and <string.h> only).
#ifndef KILN_RUNTIME_VM_NUMERICS_H_
#define KILN_RUNTIME_VM_NUMERICS_H_

// Type-generic math: in the tables below an f32 operand calls the C
// library's single-precision function (powf, sinf, ...), as it must for the
// interpreter and the generated C to agree.
#include <stdint.h>
#include <string.h>
#include <tgmath.h>

static inline uint32_t kiln_vm_f32_to_bits(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  return x;
}
static inline float kiln_vm_bits_to_f32(uint32_t x) {
  float f;
  memcpy(&f, &x, 4);
  return f;
}
static inline uint64_t kiln_vm_f64_to_bits(double f) {
  uint64_t x;
  memcpy(&x, &f, 8);
  return x;
}
static inline double kiln_vm_bits_to_f64(uint64_t x) {
  double f;
  memcpy(&f, &x, 8);
  return f;
}

// NaN-propagating min/max; -0 < +0. Written as selects, without branches,
// so that the C compiler vectorizes loops of them (the cpu backend's
// epilogues): equal operands differ at most in the sign of a zero, so the
// OR (min) / AND (max) of their bits picks -0 / +0 and is the value
// otherwise; a NaN operand gives a + b (a NaN).
static inline float kiln_vm_min_f32(float a, float b) {
  uint32_t ua, ub;
  memcpy(&ua, &a, 4);
  memcpy(&ub, &b, 4);
  uint32_t ue = ua | ub;
  float eq;
  memcpy(&eq, &ue, 4);
  float r = a < b ? a : b;
  r = a == b ? eq : r;
  return a != a || b != b ? a + b : r;
}
static inline float kiln_vm_max_f32(float a, float b) {
  uint32_t ua, ub;
  memcpy(&ua, &a, 4);
  memcpy(&ub, &b, 4);
  uint32_t ue = ua & ub;
  float eq;
  memcpy(&eq, &ue, 4);
  float r = a > b ? a : b;
  r = a == b ? eq : r;
  return a != a || b != b ? a + b : r;
}
// min/max of |a| and a constant |c| that is not NaN and is not the zero
// that the op would replace (+0 for min, -0 for max): the same value as
// kiln_vm_min_f32 / kiln_vm_max_f32 (an equal operand is then |c| itself,
// and a NaN |a| gives a + c), in a form the C compiler turns into one
// minps/maxps and a NaN select. The cpu backend's epilogues use them for
// ReLU and clip bounds: the general forms took 14 vector ops per clip.
static inline float kiln_vm_min_f32_const(float a, float c) {
  float r = a < c ? a : c;
  return a != a ? a + c : r;
}
static inline float kiln_vm_max_f32_const(float a, float c) {
  float r = a > c ? a : c;
  return a != a ? a + c : r;
}
// min(max(a, lo), hi) for bounds valid in the forms above (a clip, ReLU6):
// one NaN select for both bounds. Chained, the two forms above became 18
// vector ops, mask moves through integer registers among them (GCC 12
// merges their NaN selects); this is 9 and runs twice as fast.
static inline float kiln_vm_clamp_f32_const(float a, float lo, float hi) {
  float r = a > lo ? a : lo;
  r = r < hi ? r : hi;
  return a != a ? a + lo : r;
}
static inline double kiln_vm_min_f64(double a, double b) {
  if (isnan(a) || isnan(b)) return a + b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static inline double kiln_vm_max_f64(double a, double b) {
  if (isnan(a) || isnan(b)) return a + b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}

// Round half to even (the default floating-point environment's rint).
static inline float kiln_vm_roundeven_f32(float a) {
  return rintf(a);
}
static inline double kiln_vm_roundeven_f64(double a) {
  return rint(a);
}

// Saturating float -> int: NaN gives 0, values beyond the range clamp to the
// minimum/maximum, others truncate toward zero.
static inline int32_t kiln_vm_fptosi32(double x) {
  if (isnan(x)) return 0;
  if (x <= -2147483648.0) return INT32_MIN;
  if (x >= 2147483648.0) return INT32_MAX;
  return (int32_t)x;
}
static inline uint32_t kiln_vm_fptoui32(double x) {
  if (isnan(x) || x <= 0.0) return 0;
  if (x >= 4294967296.0) return UINT32_MAX;
  return (uint32_t)x;
}
static inline int64_t kiln_vm_fptosi64(double x) {
  if (isnan(x)) return 0;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  return (int64_t)x;
}
static inline uint64_t kiln_vm_fptoui64(double x) {
  if (isnan(x) || x <= 0.0) return 0;
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return (uint64_t)x;
}

// IEEE binary16 bits (low 16 bits) from f32, round to nearest even;
// overflow gives infinity, NaN stays a (quiet) NaN.
static inline uint32_t kiln_vm_f32_to_f16(float f) {
  uint32_t x = kiln_vm_f32_to_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0);
  int32_t e = (int32_t)exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00u;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1))) ++h;
    return sign | h;
  }
  uint32_t h = ((uint32_t)e << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return sign | h;
}
static inline float kiln_vm_f16_to_f32(uint16_t h) {
  uint32_t sign = ((uint32_t)h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return kiln_vm_bits_to_f32(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = ldexpf((float)mant, -24);
    return sign ? -v : v;
  }
  return kiln_vm_bits_to_f32(sign | ((exp + 112) << 23) | (mant << 13));
}
// |f| rounded to the nearest f16 (ties to even), as an f32: the same value
// as kiln_vm_f16_to_f32(kiln_vm_f32_to_f16(f)), with the f16 normal range
// done on the f32 bits (the hot loop of dot.f16).
static inline float kiln_vm_round_to_f16(float f) {
  uint32_t x = kiln_vm_f32_to_bits(f);
  uint32_t exp = (x >> 23) & 0xffu;
  // f16 normals have f32 exponents 113..142; 142 may round up past the
  // largest f16, so it takes the general path.
  if (exp >= 113 && exp < 142) {
    x += 0xfffu + ((x >> 13) & 1u);
    return kiln_vm_bits_to_f32(x & ~0x1fffu);
  }
  return kiln_vm_f16_to_f32((uint16_t)kiln_vm_f32_to_f16(f));
}
// bfloat16 bits (low 16 bits) from f32, round to nearest even.
static inline uint32_t kiln_vm_f32_to_bf16(float f) {
  uint32_t x = kiln_vm_f32_to_bits(f);
  if (isnan(f)) return (x >> 16) | 0x40u;
  return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}
static inline float kiln_vm_bf16_to_f32(uint16_t b) {
  return kiln_vm_bits_to_f32((uint32_t)b << 16);
}

//===----------------------------------------------------------------------===//
// 8- and 4-bit floats (stored one per byte, low bits)
//===----------------------------------------------------------------------===//
// Formats, by number: 0 f8E4M3FN, 1 f8E5M2, 2 f8E4M3FNUZ, 3 f8E5M2FNUZ,
// 4 f8E8M0FNU, 5 f4E2M1FN. Conversions from f32 round to nearest, ties to
// even, with LLVM APFloat's rules per format: f8E5M2 is IEEE-like (overflow
// gives inf); E4M3FN, the FNUZ kinds and E8M0FNU have no inf (overflow, inf
// give NaN); FNUZ have one NaN (0x80) and no -0 (-0 gives +0); E8M0FNU
// (2^(e-127), no sign, no zero) gives NaN for negative input and 2^-127
// for zero, a tie between two powers of two rounding up; f4E2M1FN has no
// inf or NaN (overflow and inf saturate to +-6, NaN gives +-6 too).
static inline uint32_t kiln_vm_small_float_mbits(int fmt) {
  static const uint8_t m[6] = {3, 2, 3, 2, 0, 1};
  return m[fmt];
}
static inline int32_t kiln_vm_small_float_bias(int fmt) {
  static const int8_t b[6] = {7, 15, 8, 16, 127, 1};
  return b[fmt];
}
// Largest finite magnitude encoding (sign bit clear).
static inline uint32_t kiln_vm_small_float_max(int fmt) {
  static const uint8_t mx[6] = {0x7e, 0x7b, 0x7f, 0x7f, 0xfe, 0x7};
  return mx[fmt];
}
static inline uint32_t kiln_vm_small_float_nan(int fmt, uint32_t sign) {
  switch (fmt) {
    case 0:
      return sign << 7 | 0x7f;
    case 1:
      return sign << 7 | 0x7e;
    case 5:
      return sign << 3 | 0x7;  // no NaN: the largest value
    default:
      return fmt == 4 ? 0xff : 0x80;
  }
}
static inline uint32_t kiln_vm_f32_to_small_float(float f, int fmt) {
  uint32_t x = kiln_vm_f32_to_bits(f);
  uint32_t sign = x >> 31;
  uint32_t sign_shift = fmt == 5 ? 3 : 7;
  uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return kiln_vm_small_float_nan(fmt, sign);
  if (fmt == 4) {  // E8M0FNU
    if (sign && ax) return 0xff;
    if (ax == 0x7f800000u) return 0xff;
    if (ax == 0) return 0;
    int32_t e = (int32_t)(ax >> 23);
    uint32_t m = ax & 0x7fffffu;
    if (e == 0) {  // f32 subnormal: normalize
      e = 1;
      while (!(m & 0x800000u)) {
        m <<= 1;
        --e;
      }
      m &= 0x7fffffu;
    }
    int32_t code = e - 127 + 127 + (m >= 0x400000u ? 1 : 0);
    if (code > 254) return 0xff;
    return code < 0 ? 0 : (uint32_t)code;
  }
  uint32_t mb = kiln_vm_small_float_mbits(fmt);
  int32_t bias = kiln_vm_small_float_bias(fmt);
  uint32_t enc;
  if (ax == 0x7f800000u) {
    enc = 0xffffffffu;  // past every finite value
  } else if (ax == 0) {
    enc = 0;
  } else {
    int32_t e = (int32_t)(ax >> 23) - 127;
    uint64_t m = ax & 0x7fffffu;
    if ((ax >> 23) == 0) {
      e = -126;  // f32 subnormal: no implicit bit
    } else {
      m |= 0x800000u;
    }
    int32_t emin = 1 - bias;
    int32_t q = (e >= emin ? e : emin) - (int32_t)mb;  // the value's quantum
    int32_t sh = q - (e - 23);  // bits of m below the quantum
    uint64_t n;
    if (sh >= 40) {
      n = 0;
    } else {
      n = m >> sh;
      uint64_t rem = m & ((1ull << sh) - 1);
      uint64_t half = 1ull << (sh - 1);
      if (rem > half || (rem == half && (n & 1))) ++n;
    }
    // value = n * 2^q; normal and subnormal encodings alike.
    int64_t exp_field = (int64_t)q + mb + bias;
    int64_t e64 = n == 0 ? 0 : (exp_field << mb) + (int64_t)n - (1ll << mb);
    enc = e64 > 0x7fffffff ? 0xffffffffu : (uint32_t)e64;
  }
  if (enc > kiln_vm_small_float_max(fmt)) {
    if (fmt == 1) return sign << 7 | 0x7c;  // inf
    if (fmt == 5) return sign << 3 | 0x7;   // saturate
    return kiln_vm_small_float_nan(fmt, sign);
  }
  if (enc == 0 && (fmt == 2 || fmt == 3)) return 0;  // no -0
  return sign << sign_shift | enc;
}
static inline float kiln_vm_small_float_to_f32(uint32_t bits, int fmt) {
  if (fmt == 4) {
    bits &= 0xffu;
    if (bits == 0xff) return kiln_vm_bits_to_f32(0x7fc00000u);
    // 2^(bits - 127): bits 0 is the f32 subnormal 2^-127.
    return bits == 0 ? kiln_vm_bits_to_f32(0x00400000u)
                     : kiln_vm_bits_to_f32(bits << 23);
  }
  uint32_t mb = kiln_vm_small_float_mbits(fmt);
  uint32_t eb = (fmt == 5 ? 3 : 7) - mb;
  uint32_t sign_shift = fmt == 5 ? 3 : 7;
  bits &= (1u << (sign_shift + 1)) - 1;
  uint32_t sign = bits >> sign_shift;
  uint32_t mag = bits & ((1u << sign_shift) - 1);
  uint32_t s32 = sign << 31;
  if ((fmt == 2 || fmt == 3) && bits == 0x80) {
    return kiln_vm_bits_to_f32(0x7fc00000u);
  }
  if (fmt == 0 && mag == 0x7f) return kiln_vm_bits_to_f32(s32 | 0x7fc00000u);
  uint32_t ef = mag >> mb, mf = mag & ((1u << mb) - 1);
  if (fmt == 1 && ef == (1u << eb) - 1) {
    return kiln_vm_bits_to_f32(s32 | 0x7f800000u | (mf ? 0x400000u : 0));
  }
  int32_t bias = kiln_vm_small_float_bias(fmt);
  uint32_t out;
  if (ef == 0) {
    if (mf == 0) return kiln_vm_bits_to_f32(s32);
    // mf * 2^(1 - bias - mb): normalize into an f32 normal (always one).
    int32_t e = 1 - bias - (int32_t)mb;
    uint32_t m = mf;
    while (!(m & (1u << mb))) {
      m <<= 1;
      --e;
    }
    out = (uint32_t)(e + (int32_t)mb + 127) << 23 |
          ((m & ((1u << mb) - 1)) << (23 - mb));
  } else {
    out = (uint32_t)((int32_t)ef - bias + 127) << 23 | (mf << (23 - mb));
  }
  return kiln_vm_bits_to_f32(s32 | out);
}

//===----------------------------------------------------------------------===//
// f32 exp, log, tanh
//===----------------------------------------------------------------------===//
// kiln's own f32 versions: straight-line code (selects, no calls, no
// tables) that C compilers vectorize, so a loop over them runs at vector
// speed in native code, and the interpreter computes the same bits. Worst
// errors, measured over every STRIDE-th f32 by tests/numerics, are in
// tests/numerics/accuracy_bounds.json and reference/numerics.md. Only +, -,
// *, / (no fma, which not every ISA variant has): results do not depend on
// the ISA the code runs on. (erf below uses fma() in double: exactly
// rounded everywhere, so the same bits; a library call where a variant has
// no FMA instruction.)

// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln 2 / 2 (Cody-Waite:
// ln 2 in two parts, n * the high part exact); exp(r) by its Taylor series
// to r^7; 2^n applied in two halves so that subnormal results round once.
static inline float kiln_vm_exp_f32(float x) {
  // Each clamp is one compare-select (a maxps / minps in vector code); a
  // NaN x becomes -104, a number to compute on (its result is x + x
  // below). The clamp to [-104, 89] with a separate NaN select took a
  // quarter of the vectorized function's time.
  float xc = x > -104.0f ? x : -104.0f;
  xc = xc < 89.0f ? xc : 89.0f;
  float t = xc * 1.44269504088896341f;
  float n = (t + 12582912.0f) - 12582912.0f;  // round to nearest, |t| < 2^22
  float r = (xc - n * 0.693145751953125f) - n * 1.42860682030941723e-6f;
  float q = 1.0f / 5040.0f;
  q = q * r + 1.0f / 720.0f;
  q = q * r + 1.0f / 120.0f;
  q = q * r + 1.0f / 24.0f;
  q = q * r + 1.0f / 6.0f;
  q = q * r + 0.5f;
  float p = 1.0f + (r + (r * r) * q);
  int32_t ni = (int32_t)n;
  // n1 = floor(n / 2) and n2 = n - n1, each in [-75, 65]: normal scales,
  // so p * s1 is exact and only the second product rounds. Shifted as an
  // unsigned value (n >= -150): ni / 2 needed a sign fix-up in vector code.
  int32_t n1 = (int32_t)((uint32_t)(ni + 150) >> 1) - 75, n2 = ni - n1;
  float s1 = kiln_vm_bits_to_f32((uint32_t)(n1 + 127) << 23);
  float s2 = kiln_vm_bits_to_f32((uint32_t)(n2 + 127) << 23);
  float result = (p * s1) * s2;
  return x == x ? result : x + x;
}

// log(x) = e ln 2 + log(m), m in [sqrt(1/2), sqrt(2)), with log(m) from
// the series of 2 atanh(s), s = (m - 1) / (m + 1), to s^11. Subnormals are
// scaled by 2^23 first.
static inline float kiln_vm_log_f32(float x) {
  int sub = x < 1.17549435e-38f;
  float xs = sub ? x * 8388608.0f : x;
  uint32_t b = kiln_vm_f32_to_bits(xs);
  int32_t e = (int32_t)((b >> 23) & 0xffu) - 127 - (sub ? 23 : 0);
  float m = kiln_vm_bits_to_f32((b & 0x007fffffu) | 0x3f800000u);
  int big = m > 1.41421356f;
  m = big ? m * 0.5f : m;
  e = big ? e + 1 : e;
  // log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)), s = f / (2 + f): the
  // large terms are exact-ish and the series only corrects them.
  float f = m - 1.0f;
  float sv = f / (2.0f + f);
  float z = sv * sv;
  float q = 2.0f / 11.0f;
  q = q * z + 2.0f / 9.0f;
  q = q * z + 2.0f / 7.0f;
  q = q * z + 2.0f / 5.0f;
  q = q * z + 2.0f / 3.0f;
  float rz = z * q;
  float hfsq = 0.5f * f * f;
  float ef = (float)e;
  float result =
      ef * 0.693145751953125f -
      ((hfsq - (sv * (hfsq + rz) + ef * 1.42860682030941723e-6f)) - f);
  result = x == 0.0f ? -INFINITY : result;
  result = x < 0.0f ? NAN : result;
  result = x == INFINITY ? x : result;
  return x == x ? result : x + x;
}

// tanh(|x|) = e / (e + 2) with e = expm1(2|x|) = 2^n (1 + p) - 1 =
// 2^n p + (2^n - 1), p = expm1(r) by its series to r^8 (|r| <= ln 2 / 2):
// one formula for the whole range, accurate near 0 because expm1 is (no
// cancellation in e), and one path for the vectorizer (a series below a
// threshold plus exp above it computed both, twice the work). |x| is
// clamped to 10, where tanh rounds to 1. The sign of x is copied (tanh(-0)
// is -0).
static inline float kiln_vm_tanh_f32(float x) {
  float a = fabsf(x);
  float y = 2.0f * (a < 10.0f ? a : 10.0f);
  float t = y * 1.44269504088896341f;
  float n = (t + 12582912.0f) - 12582912.0f;  // round to nearest, n <= 29
  float r = (y - n * 0.693145751953125f) - n * 1.42860682030941723e-6f;
  float q = 1.0f / 40320.0f;
  q = q * r + 1.0f / 5040.0f;
  q = q * r + 1.0f / 720.0f;
  q = q * r + 1.0f / 120.0f;
  q = q * r + 1.0f / 24.0f;
  q = q * r + 1.0f / 6.0f;
  q = q * r + 0.5f;
  float p = r + (r * r) * q;
  float s = kiln_vm_bits_to_f32((uint32_t)((int32_t)n + 127) << 23);
  float e = s * p + (s - 1.0f);  // s - 1 is exact for n <= 24
  float th = e / (e + 2.0f);
  return x == x ? copysignf(th, x) : x + x;
}

// e^t in double for t in [-700, 700] (results normal doubles): the kernel
// of the f32 functions that compute in double (erf, pow) so that their
// one rounding to f32 is the only error that shows. Cody-Waite reduction by
// ln 2 (the high part has trailing zeros, so n * it is exact), Taylor to
// r^12 (|r| <= ln 2 / 2: truncation below 1e-15), 2^n from the rounding
// constant's low bits (integer ops every vector ISA has).
static inline double kiln_vm_exp_f64_core(double t) {
  const double magic = 6755399441055744.0;  // 1.5 * 2^52: round to integer
  double nm = t * 1.4426950408889634 + magic;
  double n = nm - magic;
  double r = (t - n * 6.93147180369123816490e-01) - n * 1.90821492927058770e-10;
  double q = 1.0 / 479001600.0;
  q = q * r + 1.0 / 39916800.0;
  q = q * r + 1.0 / 3628800.0;
  q = q * r + 1.0 / 362880.0;
  q = q * r + 1.0 / 40320.0;
  q = q * r + 1.0 / 5040.0;
  q = q * r + 1.0 / 720.0;
  q = q * r + 1.0 / 120.0;
  q = q * r + 1.0 / 24.0;
  q = q * r + 1.0 / 6.0;
  q = q * r + 0.5;
  double p = 1.0 + (r + (r * r) * q);
  uint64_t ni = kiln_vm_f64_to_bits(nm) - kiln_vm_f64_to_bits(magic);
  return p * kiln_vm_bits_to_f64((ni + 1023u) << 52);
}

// erf in double, rounded once: |x| < 1 by its Taylor series (to x^25);
// above, 1 - exp(-x^2) g(x) with g = erfc(x) exp(x^2) on [1, 4] by a
// degree-12 polynomial fitted at Chebyshev nodes (relative error 8e-9;
// erfc is below 0.16 there, so that is under 0.03 ulp of erf). |x| is
// clamped to 4, where erf rounds to 1. One path for the vectorizer. The
// Horner steps are explicit fma()s: -ffp-contract=off (generated code) made
// each a multiply and an add, and BERT's GELU epilogue spent 0.87 ms per
// 128 x 3072 layer in erf (0.60 with fma; one rounding per step, so no less
// accurate, and the same bits in the VM and in native code).
static inline float kiln_vm_erf_f32(float x) {
  double a = fabs((double)x);
  double z = a * a;
  double q = 9.4227590646504113e-11;
  q = fma(q, z, -1.2290555301717926e-09);
  q = fma(q, z, 1.4807192815879218e-08);
  q = fma(q, z, -1.6365844691234924e-07);
  q = fma(q, z, 1.6462114365889246e-06);
  q = fma(q, z, -1.492565035840625e-05);
  q = fma(q, z, 0.00012055332981789664);
  q = fma(q, z, -0.00085483270234508522);
  q = fma(q, z, 0.0052239776254421879);
  q = fma(q, z, -0.026866170645131252);
  q = fma(q, z, 0.11283791670955126);
  q = fma(q, z, -0.37612638903183754);
  q = fma(q, z, 1.1283791670955126);
  double small = a * q;
  double ac = a < 4.0 ? a : 4.0;
  double t = (ac - 2.5) * (1.0 / 1.5);
  double g = 1.3819088787460537e-05;
  g = fma(g, t, -3.6928723572817124e-05);
  g = fma(g, t, 5.4947248758791182e-05);
  g = fma(g, t, -0.00014394859790602935);
  g = fma(g, t, 0.00041450809735732062);
  g = fma(g, t, -0.0010171177742724783);
  g = fma(g, t, 0.002401701695642528);
  g = fma(g, t, -0.0055673329095528856);
  g = fma(g, t, 0.012489703671452876);
  g = fma(g, t, -0.027005725289732749);
  g = fma(g, t, 0.056110472584282471);
  g = fma(g, t, -0.11152100469538354);
  g = fma(g, t, 0.21080636427594113);
  double large = 1.0 - kiln_vm_exp_f64_core(-(ac * ac)) * g;
  float r = (float)(a < 1.0 ? small : large);
  return x == x ? copysignf(r, x) : x + x;
}

// sin and cos of f32 |x|: the reduction x = (k + f) pi/2, |f| <= 1/2, is
// exact for every f32 (Payne-Hanek in integers: the 24-bit significand
// times a 96-bit window of 2/pi chosen by the exponent, from
// scripts/numerics/gen_two_over_pi.py; only the bits that fall between 2^1
// and 2^-62 of x * 2/pi are formed); sin(f pi/2) and cos(f pi/2) come
// from their Taylor series in double (|r| <= pi/4: truncation near
// 1e-12) and are rounded to f32 once. Below pi/4, r = x. Every step is a
// table load, integer or double op: one path for the vectorizer.
// clang-format off
static const uint32_t kiln_vm_two_over_pi_f32[129][3] = {
    {0x00000028u, 0xbe60db93u, 0x91054a7fu}, {0x00000051u, 0x7cc1b727u, 0x220a94feu},
    {0x000000a2u, 0xf9836e4eu, 0x441529fcu}, {0x00000145u, 0xf306dc9cu, 0x882a53f8u},
    {0x0000028bu, 0xe60db939u, 0x1054a7f0u}, {0x00000517u, 0xcc1b7272u, 0x20a94fe1u},
    {0x00000a2fu, 0x9836e4e4u, 0x41529fc2u}, {0x0000145fu, 0x306dc9c8u, 0x82a53f84u},
    {0x000028beu, 0x60db9391u, 0x054a7f09u}, {0x0000517cu, 0xc1b72722u, 0x0a94fe13u},
    {0x0000a2f9u, 0x836e4e44u, 0x1529fc27u}, {0x000145f3u, 0x06dc9c88u, 0x2a53f84eu},
    {0x00028be6u, 0x0db93910u, 0x54a7f09du}, {0x000517ccu, 0x1b727220u, 0xa94fe13au},
    {0x000a2f98u, 0x36e4e441u, 0x529fc275u}, {0x00145f30u, 0x6dc9c882u, 0xa53f84eau},
    {0x0028be60u, 0xdb939105u, 0x4a7f09d5u}, {0x00517cc1u, 0xb727220au, 0x94fe13abu},
    {0x00a2f983u, 0x6e4e4415u, 0x29fc2757u}, {0x0145f306u, 0xdc9c882au, 0x53f84eafu},
    {0x028be60du, 0xb9391054u, 0xa7f09d5fu}, {0x0517cc1bu, 0x727220a9u, 0x4fe13abeu},
    {0x0a2f9836u, 0xe4e44152u, 0x9fc2757du}, {0x145f306du, 0xc9c882a5u, 0x3f84eafau},
    {0x28be60dbu, 0x9391054au, 0x7f09d5f4u}, {0x517cc1b7u, 0x27220a94u, 0xfe13abe8u},
    {0xa2f9836eu, 0x4e441529u, 0xfc2757d1u}, {0x45f306dcu, 0x9c882a53u, 0xf84eafa3u},
    {0x8be60db9u, 0x391054a7u, 0xf09d5f47u}, {0x17cc1b72u, 0x7220a94fu, 0xe13abe8fu},
    {0x2f9836e4u, 0xe441529fu, 0xc2757d1fu}, {0x5f306dc9u, 0xc882a53fu, 0x84eafa3eu},
    {0xbe60db93u, 0x91054a7fu, 0x09d5f47du}, {0x7cc1b727u, 0x220a94feu, 0x13abe8fau},
    {0xf9836e4eu, 0x441529fcu, 0x2757d1f5u}, {0xf306dc9cu, 0x882a53f8u, 0x4eafa3eau},
    {0xe60db939u, 0x1054a7f0u, 0x9d5f47d4u}, {0xcc1b7272u, 0x20a94fe1u, 0x3abe8fa9u},
    {0x9836e4e4u, 0x41529fc2u, 0x757d1f53u}, {0x306dc9c8u, 0x82a53f84u, 0xeafa3ea6u},
    {0x60db9391u, 0x054a7f09u, 0xd5f47d4du}, {0xc1b72722u, 0x0a94fe13u, 0xabe8fa9au},
    {0x836e4e44u, 0x1529fc27u, 0x57d1f534u}, {0x06dc9c88u, 0x2a53f84eu, 0xafa3ea69u},
    {0x0db93910u, 0x54a7f09du, 0x5f47d4d3u}, {0x1b727220u, 0xa94fe13au, 0xbe8fa9a6u},
    {0x36e4e441u, 0x529fc275u, 0x7d1f534du}, {0x6dc9c882u, 0xa53f84eau, 0xfa3ea69bu},
    {0xdb939105u, 0x4a7f09d5u, 0xf47d4d37u}, {0xb727220au, 0x94fe13abu, 0xe8fa9a6eu},
    {0x6e4e4415u, 0x29fc2757u, 0xd1f534ddu}, {0xdc9c882au, 0x53f84eafu, 0xa3ea69bbu},
    {0xb9391054u, 0xa7f09d5fu, 0x47d4d377u}, {0x727220a9u, 0x4fe13abeu, 0x8fa9a6eeu},
    {0xe4e44152u, 0x9fc2757du, 0x1f534ddcu}, {0xc9c882a5u, 0x3f84eafau, 0x3ea69bb8u},
    {0x9391054au, 0x7f09d5f4u, 0x7d4d3770u}, {0x27220a94u, 0xfe13abe8u, 0xfa9a6ee0u},
    {0x4e441529u, 0xfc2757d1u, 0xf534ddc0u}, {0x9c882a53u, 0xf84eafa3u, 0xea69bb81u},
    {0x391054a7u, 0xf09d5f47u, 0xd4d37703u}, {0x7220a94fu, 0xe13abe8fu, 0xa9a6ee06u},
    {0xe441529fu, 0xc2757d1fu, 0x534ddc0du}, {0xc882a53fu, 0x84eafa3eu, 0xa69bb81bu},
    {0x91054a7fu, 0x09d5f47du, 0x4d377036u}, {0x220a94feu, 0x13abe8fau, 0x9a6ee06du},
    {0x441529fcu, 0x2757d1f5u, 0x34ddc0dbu}, {0x882a53f8u, 0x4eafa3eau, 0x69bb81b6u},
    {0x1054a7f0u, 0x9d5f47d4u, 0xd377036du}, {0x20a94fe1u, 0x3abe8fa9u, 0xa6ee06dbu},
    {0x41529fc2u, 0x757d1f53u, 0x4ddc0db6u}, {0x82a53f84u, 0xeafa3ea6u, 0x9bb81b6cu},
    {0x054a7f09u, 0xd5f47d4du, 0x377036d8u}, {0x0a94fe13u, 0xabe8fa9au, 0x6ee06db1u},
    {0x1529fc27u, 0x57d1f534u, 0xddc0db62u}, {0x2a53f84eu, 0xafa3ea69u, 0xbb81b6c5u},
    {0x54a7f09du, 0x5f47d4d3u, 0x77036d8au}, {0xa94fe13au, 0xbe8fa9a6u, 0xee06db14u},
    {0x529fc275u, 0x7d1f534du, 0xdc0db629u}, {0xa53f84eau, 0xfa3ea69bu, 0xb81b6c52u},
    {0x4a7f09d5u, 0xf47d4d37u, 0x7036d8a5u}, {0x94fe13abu, 0xe8fa9a6eu, 0xe06db14au},
    {0x29fc2757u, 0xd1f534ddu, 0xc0db6295u}, {0x53f84eafu, 0xa3ea69bbu, 0x81b6c52bu},
    {0xa7f09d5fu, 0x47d4d377u, 0x036d8a56u}, {0x4fe13abeu, 0x8fa9a6eeu, 0x06db14acu},
    {0x9fc2757du, 0x1f534ddcu, 0x0db62959u}, {0x3f84eafau, 0x3ea69bb8u, 0x1b6c52b3u},
    {0x7f09d5f4u, 0x7d4d3770u, 0x36d8a566u}, {0xfe13abe8u, 0xfa9a6ee0u, 0x6db14accu},
    {0xfc2757d1u, 0xf534ddc0u, 0xdb629599u}, {0xf84eafa3u, 0xea69bb81u, 0xb6c52b32u},
    {0xf09d5f47u, 0xd4d37703u, 0x6d8a5664u}, {0xe13abe8fu, 0xa9a6ee06u, 0xdb14acc9u},
    {0xc2757d1fu, 0x534ddc0du, 0xb6295993u}, {0x84eafa3eu, 0xa69bb81bu, 0x6c52b327u},
    {0x09d5f47du, 0x4d377036u, 0xd8a5664fu}, {0x13abe8fau, 0x9a6ee06du, 0xb14acc9eu},
    {0x2757d1f5u, 0x34ddc0dbu, 0x6295993cu}, {0x4eafa3eau, 0x69bb81b6u, 0xc52b3278u},
    {0x9d5f47d4u, 0xd377036du, 0x8a5664f1u}, {0x3abe8fa9u, 0xa6ee06dbu, 0x14acc9e2u},
    {0x757d1f53u, 0x4ddc0db6u, 0x295993c4u}, {0xeafa3ea6u, 0x9bb81b6cu, 0x52b32788u},
    {0xd5f47d4du, 0x377036d8u, 0xa5664f10u}, {0xabe8fa9au, 0x6ee06db1u, 0x4acc9e21u},
    {0x57d1f534u, 0xddc0db62u, 0x95993c43u}, {0xafa3ea69u, 0xbb81b6c5u, 0x2b327887u},
    {0x5f47d4d3u, 0x77036d8au, 0x5664f10eu}, {0xbe8fa9a6u, 0xee06db14u, 0xacc9e21cu},
    {0x7d1f534du, 0xdc0db629u, 0x5993c439u}, {0xfa3ea69bu, 0xb81b6c52u, 0xb3278872u},
    {0xf47d4d37u, 0x7036d8a5u, 0x664f10e4u}, {0xe8fa9a6eu, 0xe06db14au, 0xcc9e21c8u},
    {0xd1f534ddu, 0xc0db6295u, 0x993c4390u}, {0xa3ea69bbu, 0x81b6c52bu, 0x32788720u},
    {0x47d4d377u, 0x036d8a56u, 0x64f10e41u}, {0x8fa9a6eeu, 0x06db14acu, 0xc9e21c82u},
    {0x1f534ddcu, 0x0db62959u, 0x93c43904u}, {0x3ea69bb8u, 0x1b6c52b3u, 0x27887208u},
    {0x7d4d3770u, 0x36d8a566u, 0x4f10e410u}, {0xfa9a6ee0u, 0x6db14accu, 0x9e21c820u},
    {0xf534ddc0u, 0xdb629599u, 0x3c439041u}, {0xea69bb81u, 0xb6c52b32u, 0x78872083u},
    {0xd4d37703u, 0x6d8a5664u, 0xf10e4107u}, {0xa9a6ee06u, 0xdb14acc9u, 0xe21c820fu},
    {0x534ddc0du, 0xb6295993u, 0xc439041fu}, {0xa69bb81bu, 0x6c52b327u, 0x8872083fu},
    {0x4d377036u, 0xd8a5664fu, 0x10e4107fu},
};
// clang-format on

// r (|r| <= pi/4, double) and the quadrant k mod 4 of |x|.
static inline double kiln_vm_sincos_reduce_f32(float x, uint32_t* quadrant) {
  // (The exponent is taken from the raw bits, masked after the shift: in
  // this form GCC keeps the table index 32-bit and vectorizes the loads.)
  uint32_t raw = kiln_vm_f32_to_bits(x);
  uint32_t bits = raw & 0x7fffffffu;
  int32_t e = (int32_t)((raw >> 23) & 0xffu) - 127;
  uint64_t m = (uint64_t)((bits & 0x007fffffu) | 0x00800000u);
  // row = clamp(e + 1, 0, 128) in integer arithmetic (a select here is
  // turned into a branch around the loads).
  int32_t row = e + 1;
  row &= ~(row >> 31);
  int32_t over = row - 128;
  row -= over & ~(over >> 31);
  uint64_t w2 = kiln_vm_two_over_pi_f32[row][0];
  uint64_t w1 = kiln_vm_two_over_pi_f32[row][1];
  uint64_t w0 = kiln_vm_two_over_pi_f32[row][2];
  uint64_t p0 = m * w0, p1 = m * w1, p2 = m * w2;  // each below 2^56
  uint64_t mid = (p0 >> 32) + (p1 & 0xffffffffu);
  uint64_t hi = (p1 >> 32) + (p2 & 0xffffffffu) + (mid >> 32);
  // (x * 2/pi mod 4) * 2^62, moved by half a quadrant to round to nearest.
  uint64_t q = ((hi << 32) | (mid & 0xffffffffu)) + (1ull << 61);
  int64_t f = (int64_t)(q & ((1ull << 62) - 1)) - (int64_t)(1ull << 61);
  double fd = ((double)(int32_t)(f >> 31) * 2147483648.0 +
               (double)(int32_t)(f & 0x7fffffff)) *
              (1.0 / 4611686018427387904.0);  // 2^-62
  // Below pi/4, r = x. Blended by arithmetic, not selected: a select
  // lets GCC sink the reduction (and its table loads) under a condition,
  // into a masked gather it does not vectorize.
  uint32_t small = bits < 0x3f490fdbu;  // |x| < pi/4
  *quadrant = (uint32_t)(q >> 62) & (small - 1u);
  double ds = small ? 1.0 : 0.0;
  return fd * 1.5707963267948966 * (1.0 - ds) +
         (double)kiln_vm_bits_to_f32(bits) * ds;
}

static inline double kiln_vm_sin_f64_kernel(double r) {
  double z = r * r;
  double q = -1.0 / 39916800.0;
  q = q * z + 1.0 / 362880.0;
  q = q * z - 1.0 / 5040.0;
  q = q * z + 1.0 / 120.0;
  q = q * z - 1.0 / 6.0;
  return r + (r * z) * q;
}

static inline double kiln_vm_cos_f64_kernel(double r) {
  double z = r * r;
  double q = 1.0 / 479001600.0;
  q = q * z - 1.0 / 3628800.0;
  q = q * z + 1.0 / 40320.0;
  q = q * z - 1.0 / 720.0;
  q = q * z + 1.0 / 24.0;
  q = q * z - 0.5;
  return 1.0 + z * q;
}

static inline float kiln_vm_sin_f32(float x) {
  uint32_t k;
  double r = kiln_vm_sincos_reduce_f32(x, &k);
  double s = kiln_vm_sin_f64_kernel(r), c = kiln_vm_cos_f64_kernel(r);
  double v = (k & 1u) ? c : s;
  float f = (float)((k & 2u) ? -v : v);
  // sin is odd: the sign of x applied to sin(|x|) (sin(-0) is -0).
  f = kiln_vm_bits_to_f32(kiln_vm_f32_to_bits(f) ^
                          (kiln_vm_f32_to_bits(x) & 0x80000000u));
  return x - x == 0.0f ? f : x - x;  // inf and NaN give NaN
}

static inline float kiln_vm_cos_f32(float x) {
  uint32_t k;
  double r = kiln_vm_sincos_reduce_f32(x, &k);
  double s = kiln_vm_sin_f64_kernel(r), c = kiln_vm_cos_f64_kernel(r);
  double v = (k & 1u) ? s : c;
  float f = (float)(((k + 1u) & 2u) ? -v : v);
  return x - x == 0.0f ? f : x - x;
}

// log in double of a positive finite double x (f32 values, subnormals
// included, are normal doubles): e ln 2 + log(m), m in [sqrt(1/2),
// sqrt(2)), log(m) = 2 atanh(s), s = (m - 1) / (m + 1), by its series to
// s^17 (relative truncation below 3e-15).
static inline double kiln_vm_log_f64_core(double x) {
  uint64_t b = kiln_vm_f64_to_bits(x);
  int64_t e = (int64_t)((b >> 52) & 0x7ffu) - 1023;
  double m =
      kiln_vm_bits_to_f64((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  int big = m > 1.4142135623730951;
  m = big ? m * 0.5 : m;
  e = big ? e + 1 : e;
  double sv = (m - 1.0) / (m + 1.0);
  double z = sv * sv;
  double q = 2.0 / 17.0;
  q = q * z + 2.0 / 15.0;
  q = q * z + 2.0 / 13.0;
  q = q * z + 2.0 / 11.0;
  q = q * z + 2.0 / 9.0;
  q = q * z + 2.0 / 7.0;
  q = q * z + 2.0 / 5.0;
  q = q * z + 2.0 / 3.0;
  double ed = (double)e;
  return (ed * 6.93147180369123816490e-01 + (2.0 * sv + sv * z * q)) +
         ed * 1.90821492927058770e-10;
}

// pow(x, y) = exp(y log |x|) in double, rounded once (the double error is
// near 1e-13 relative even where |y log x| is 100, so f32 results are
// correctly rounded but for ties). log(0) = -inf and log(inf) = inf make
// the zero and infinite cases fall out of the clamp of y log |x| to
// [-120, 100] (past f32's range either way); the sign, NaN for a negative
// base with a non-integer exponent, and pow(x, 0) = pow(1, y) = 1 are
// selected after (C's pow, which numpy and StableHLO follow).
static inline float kiln_vm_pow_f32(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  double l = ax == 0.0f ? -INFINITY
                        : (ax == INFINITY ? INFINITY
                                          : kiln_vm_log_f64_core((double)ax));
  double t = (double)y * l;
  t = t < -120.0 ? -120.0 : (t > 100.0 ? 100.0 : t);
  float r = (float)kiln_vm_exp_f64_core(t);
  // y an integer (every f32 from 2^23 up is one), odd below 2^24. The
  // predicates are 0/1 integers combined with & and |, not && and ||
  // (short-circuits become branches the vectorizer cannot if-convert).
  float yr = ay < 8388608.0f ? (ay + 8388608.0f) - 8388608.0f : ay;
  uint32_t y_int = yr == ay;
  uint32_t y_odd = y_int & (ay < 16777216.0f) &
                   ((uint32_t)(ay < 16777216.0f ? (int32_t)ay : 0) & 1u);
  uint32_t neg = kiln_vm_f32_to_bits(x) >> 31;
  // The sign of a negative base with an odd exponent.
  r = kiln_vm_bits_to_f32(kiln_vm_f32_to_bits(r) ^ ((neg & y_odd) << 31));
  uint32_t nan_base =
      (x < 0.0f) & (ax != INFINITY) & (y_int ^ 1u) & (ay != INFINITY);
  r = nan_base ? NAN : r;
  r = ((ax == 1.0f) & (ay == INFINITY)) ? 1.0f : r;  // pow(-1, +-inf) = 1
  r = ((x != x) | (y != y)) ? x + y : r;
  r = ((x == 1.0f) | (y == 0.0f)) ? 1.0f : r;  // even for a quiet NaN other
  // A signaling NaN gives NaN even there (IEEE 754, and C's pow).
  // (In integer ops: NaN is |bits| above 0x7f800000, quiet bit 22 clear.)
  uint32_t bx = kiln_vm_f32_to_bits(x) & 0x7fffffffu;
  uint32_t by = kiln_vm_f32_to_bits(y) & 0x7fffffffu;
  uint32_t snan = (((0x7f800000u - bx) >> 31) & (((bx >> 22) & 1u) ^ 1u)) |
                  (((0x7f800000u - by) >> 31) & (((by >> 22) & 1u) ^ 1u));
  return snan ? x + y : r;
}

// Type-generic forms for the tables below (the operands' type picks the
// f32 or f64 helper).
#define KILN_VM_FMIN(a, b) \
  _Generic((a), float : kiln_vm_min_f32, default : kiln_vm_min_f64)(a, b)
#define KILN_VM_FMAX(a, b) \
  _Generic((a), float : kiln_vm_max_f32, default : kiln_vm_max_f64)(a, b)
#define KILN_VM_EXP(a) _Generic((a), float : kiln_vm_exp_f32, default : exp)(a)
#define KILN_VM_LOG(a) _Generic((a), float : kiln_vm_log_f32, default : log)(a)
#define KILN_VM_TANH(a) \
  _Generic((a), float : kiln_vm_tanh_f32, default : tanh)(a)
#define KILN_VM_ERF(a) _Generic((a), float : kiln_vm_erf_f32, default : erf)(a)
#define KILN_VM_POW(a, b) \
  _Generic((a), float : kiln_vm_pow_f32, default : pow)(a, b)
#define KILN_VM_SIN(a) _Generic((a), float : kiln_vm_sin_f32, default : sin)(a)
#define KILN_VM_COS(a) _Generic((a), float : kiln_vm_cos_f32, default : cos)(a)

//===----------------------------------------------------------------------===//
// Opcode semantics tables
//===----------------------------------------------------------------------===//
// Each row is X(NAME, EXPR, ...): the opcode NAME_F32 / NAME_F64 computes
// EXPR over operands |a|, |b| (and |c|) of the opcode's float type, and
// stores the value converted to the destination's type. Library calls are
// type-generic (<tgmath.h>): f32 operands call the single-precision
// functions.
// Extra arguments are passed through to X.
#define KILN_VM_FLOAT_BINARY_OPS(X, ...)   \
  X(ADD, a + b, __VA_ARGS__)               \
  X(SUB, a - b, __VA_ARGS__)               \
  X(MUL, a* b, __VA_ARGS__)                \
  X(DIV, a / b, __VA_ARGS__)               \
  X(REM, fmod(a, b), __VA_ARGS__)          \
  X(MIN, KILN_VM_FMIN(a, b), __VA_ARGS__)  \
  X(MAX, KILN_VM_FMAX(a, b), __VA_ARGS__)  \
  X(COPYSIGN, copysign(a, b), __VA_ARGS__) \
  X(ATAN2, atan2(a, b), __VA_ARGS__)       \
  X(POW, KILN_VM_POW(a, b), __VA_ARGS__)
#define KILN_VM_FLOAT_UNARY_OPS(X, ...)          \
  X(NEG, -a, __VA_ARGS__)                        \
  X(ABS, fabs(a), __VA_ARGS__)                   \
  X(SQRT, sqrt(a), __VA_ARGS__)                  \
  X(RSQRT, 1.0 / sqrt((double)(a)), __VA_ARGS__) \
  X(EXP, KILN_VM_EXP(a), __VA_ARGS__)            \
  X(EXP2, exp2(a), __VA_ARGS__)                  \
  X(EXPM1, expm1(a), __VA_ARGS__)                \
  X(LOG, KILN_VM_LOG(a), __VA_ARGS__)            \
  X(LOG2, log2(a), __VA_ARGS__)                  \
  X(LOG10, log10(a), __VA_ARGS__)                \
  X(LOG1P, log1p(a), __VA_ARGS__)                \
  X(SIN, KILN_VM_SIN(a), __VA_ARGS__)            \
  X(COS, KILN_VM_COS(a), __VA_ARGS__)            \
  X(TAN, tan(a), __VA_ARGS__)                    \
  X(ASIN, asin(a), __VA_ARGS__)                  \
  X(ACOS, acos(a), __VA_ARGS__)                  \
  X(ATAN, atan(a), __VA_ARGS__)                  \
  X(SINH, sinh(a), __VA_ARGS__)                  \
  X(COSH, cosh(a), __VA_ARGS__)                  \
  X(TANH, KILN_VM_TANH(a), __VA_ARGS__)          \
  X(ASINH, asinh(a), __VA_ARGS__)                \
  X(ACOSH, acosh(a), __VA_ARGS__)                \
  X(ATANH, atanh(a), __VA_ARGS__)                \
  X(FLOOR, floor(a), __VA_ARGS__)                \
  X(CEIL, ceil(a), __VA_ARGS__)                  \
  X(ROUND, round(a), __VA_ARGS__)                \
  X(ROUNDEVEN, rint(a), __VA_ARGS__)             \
  X(TRUNC, trunc(a), __VA_ARGS__)                \
  X(ERF, KILN_VM_ERF(a), __VA_ARGS__)            \
  X(ERFC, erfc(a), __VA_ARGS__)
// fma over three operands.
#define KILN_VM_FLOAT_TERNARY_OPS(X, ...) X(FMA, fma(a, b, c), __VA_ARGS__)
// Predicates: an i32 0 or 1. (ISNAN/ISINF are unary; the others compare.)
#define KILN_VM_FLOAT_PREDICATE_UNARY_OPS(X, ...) \
  X(ISNAN, isnan(a), __VA_ARGS__)                 \
  X(ISINF, isinf(a), __VA_ARGS__)
#define KILN_VM_FLOAT_COMPARE_OPS(X, ...)              \
  X(CMP_OEQ, a == b, __VA_ARGS__)                      \
  X(CMP_ONE, a<b || a> b, __VA_ARGS__)                 \
  X(CMP_OLT, a < b, __VA_ARGS__)                       \
  X(CMP_OLE, a <= b, __VA_ARGS__)                      \
  X(CMP_OGT, a > b, __VA_ARGS__)                       \
  X(CMP_OGE, a >= b, __VA_ARGS__)                      \
  X(CMP_UEQ, isunordered(a, b) || a == b, __VA_ARGS__) \
  X(CMP_UNE, !(a == b), __VA_ARGS__)                   \
  X(CMP_ULT, !(a >= b), __VA_ARGS__)                   \
  X(CMP_ULE, !(a > b), __VA_ARGS__)                    \
  X(CMP_UGT, !(a <= b), __VA_ARGS__)                   \
  X(CMP_UGE, !(a < b), __VA_ARGS__)                    \
  X(CMP_ORD, !isunordered(a, b), __VA_ARGS__)          \
  X(CMP_UNO, isunordered(a, b), __VA_ARGS__)

// Conversions: X(NAME, DST, SRC, EXPR): opcode NAME reads |a| from bank SRC
// and stores EXPR into bank DST (I32, I64, F32, F64).
#define KILN_VM_CONVERSION_OPS(X)                                              \
  X(EXT_I32_I64_S, I64, I32, (int64_t)a)                                       \
  X(EXT_I32_I64_U, I64, I32, (int64_t)(uint32_t)a)                             \
  X(TRUNC_I64_I32, I32, I64, (int32_t)(uint32_t)(uint64_t)a)                   \
  X(CAST_SI32_F32, F32, I32, (float)a)                                         \
  X(CAST_UI32_F32, F32, I32, (float)(uint32_t)a)                               \
  X(CAST_SI64_F32, F32, I64, (float)a)                                         \
  X(CAST_UI64_F32, F32, I64, (float)(uint64_t)a)                               \
  X(CAST_SI32_F64, F64, I32, (double)a)                                        \
  X(CAST_UI32_F64, F64, I32, (double)(uint32_t)a)                              \
  X(CAST_SI64_F64, F64, I64, (double)a)                                        \
  X(CAST_UI64_F64, F64, I64, (double)(uint64_t)a)                              \
  X(CAST_F32_SI32, I32, F32, kiln_vm_fptosi32(a))                              \
  X(CAST_F32_UI32, I32, F32, (int32_t)kiln_vm_fptoui32(a))                     \
  X(CAST_F32_SI64, I64, F32, kiln_vm_fptosi64(a))                              \
  X(CAST_F32_UI64, I64, F32, (int64_t)kiln_vm_fptoui64(a))                     \
  X(CAST_F64_SI32, I32, F64, kiln_vm_fptosi32(a))                              \
  X(CAST_F64_UI32, I32, F64, (int32_t)kiln_vm_fptoui32(a))                     \
  X(CAST_F64_SI64, I64, F64, kiln_vm_fptosi64(a))                              \
  X(CAST_F64_UI64, I64, F64, (int64_t)kiln_vm_fptoui64(a))                     \
  X(EXT_F32_F64, F64, F32, (double)a)                                          \
  X(TRUNC_F64_F32, F32, F64, (float)a)                                         \
  X(BITCAST_I32_F32, F32, I32, kiln_vm_bits_to_f32((uint32_t)a))               \
  X(BITCAST_F32_I32, I32, F32, (int32_t)kiln_vm_f32_to_bits(a))                \
  X(BITCAST_I64_F64, F64, I64, kiln_vm_bits_to_f64((uint64_t)a))               \
  X(BITCAST_F64_I64, I64, F64, (int64_t)kiln_vm_f64_to_bits(a))                \
  X(CAST_F32_F16, I32, F32, (int32_t)kiln_vm_f32_to_f16(a))                    \
  X(CAST_F16_F32, F32, I32, kiln_vm_f16_to_f32((uint16_t)a))                   \
  X(CAST_F32_BF16, I32, F32, (int32_t)kiln_vm_f32_to_bf16(a))                  \
  X(CAST_BF16_F32, F32, I32, kiln_vm_bf16_to_f32((uint16_t)a))                 \
  X(CAST_F32_F8E4M3FN, I32, F32, (int32_t)kiln_vm_f32_to_small_float(a, 0))    \
  X(CAST_F8E4M3FN_F32, F32, I32, kiln_vm_small_float_to_f32((uint32_t)a, 0))   \
  X(CAST_F32_F8E5M2, I32, F32, (int32_t)kiln_vm_f32_to_small_float(a, 1))      \
  X(CAST_F8E5M2_F32, F32, I32, kiln_vm_small_float_to_f32((uint32_t)a, 1))     \
  X(CAST_F32_F8E4M3FNUZ, I32, F32, (int32_t)kiln_vm_f32_to_small_float(a, 2))  \
  X(CAST_F8E4M3FNUZ_F32, F32, I32, kiln_vm_small_float_to_f32((uint32_t)a, 2)) \
  X(CAST_F32_F8E5M2FNUZ, I32, F32, (int32_t)kiln_vm_f32_to_small_float(a, 3))  \
  X(CAST_F8E5M2FNUZ_F32, F32, I32, kiln_vm_small_float_to_f32((uint32_t)a, 3)) \
  X(CAST_F32_F8E8M0FNU, I32, F32, (int32_t)kiln_vm_f32_to_small_float(a, 4))   \
  X(CAST_F8E8M0FNU_F32, F32, I32, kiln_vm_small_float_to_f32((uint32_t)a, 4))  \
  X(CAST_F32_F4E2M1FN, I32, F32, (int32_t)kiln_vm_f32_to_small_float(a, 5))    \
  X(CAST_F4E2M1FN_F32, F32, I32, kiln_vm_small_float_to_f32((uint32_t)a, 5))

#endif  // KILN_RUNTIME_VM_NUMERICS_H_
