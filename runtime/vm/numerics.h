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
#include <tgmath.h>
#include <stdint.h>
#include <string.h>

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

// NaN-propagating min/max; -0 < +0.
static inline float kiln_vm_min_f32(float a, float b) {
  if (isnan(a) || isnan(b)) return a + b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static inline float kiln_vm_max_f32(float a, float b) {
  if (isnan(a) || isnan(b)) return a + b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
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
// f32 exp, log, tanh
//===----------------------------------------------------------------------===//
// kiln's own f32 versions: straight-line code (selects, no calls, no
// tables) that C compilers vectorize, so a loop over them runs at vector
// speed in native code, and the interpreter computes the same bits. Worst
// errors, measured over every STRIDE-th f32 by tests/numerics, are in
// tests/numerics/accuracy_bounds.json and reference/numerics.md. Only +, -,
// *, / (no fma, which not every ISA variant has): results do not depend on
// the ISA the code runs on.

// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln 2 / 2 (Cody-Waite:
// ln 2 in two parts, n * the high part exact); exp(r) by its Taylor series
// to r^7; 2^n applied in two halves so that subnormal results round once.
static inline float kiln_vm_exp_f32(float x) {
  float xc = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  xc = xc == xc ? xc : 0.0f;
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
  int32_t n1 = ni / 2, n2 = ni - n1;  // each in [-75, 64]: normal scales
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
  X(POW, pow(a, b), __VA_ARGS__)
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
  X(SIN, sin(a), __VA_ARGS__)                    \
  X(COS, cos(a), __VA_ARGS__)                    \
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
  X(ERF, erf(a), __VA_ARGS__)
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
#define KILN_VM_CONVERSION_OPS(X)                                \
  X(EXT_I32_I64_S, I64, I32, (int64_t)a)                         \
  X(EXT_I32_I64_U, I64, I32, (int64_t)(uint32_t)a)               \
  X(TRUNC_I64_I32, I32, I64, (int32_t)(uint32_t)(uint64_t)a)     \
  X(CAST_SI32_F32, F32, I32, (float)a)                           \
  X(CAST_UI32_F32, F32, I32, (float)(uint32_t)a)                 \
  X(CAST_SI64_F32, F32, I64, (float)a)                           \
  X(CAST_UI64_F32, F32, I64, (float)(uint64_t)a)                 \
  X(CAST_SI32_F64, F64, I32, (double)a)                          \
  X(CAST_UI32_F64, F64, I32, (double)(uint32_t)a)                \
  X(CAST_SI64_F64, F64, I64, (double)a)                          \
  X(CAST_UI64_F64, F64, I64, (double)(uint64_t)a)                \
  X(CAST_F32_SI32, I32, F32, kiln_vm_fptosi32(a))                \
  X(CAST_F32_UI32, I32, F32, (int32_t)kiln_vm_fptoui32(a))       \
  X(CAST_F32_SI64, I64, F32, kiln_vm_fptosi64(a))                \
  X(CAST_F32_UI64, I64, F32, (int64_t)kiln_vm_fptoui64(a))       \
  X(CAST_F64_SI32, I32, F64, kiln_vm_fptosi32(a))                \
  X(CAST_F64_UI32, I32, F64, (int32_t)kiln_vm_fptoui32(a))       \
  X(CAST_F64_SI64, I64, F64, kiln_vm_fptosi64(a))                \
  X(CAST_F64_UI64, I64, F64, (int64_t)kiln_vm_fptoui64(a))       \
  X(EXT_F32_F64, F64, F32, (double)a)                            \
  X(TRUNC_F64_F32, F32, F64, (float)a)                           \
  X(BITCAST_I32_F32, F32, I32, kiln_vm_bits_to_f32((uint32_t)a)) \
  X(BITCAST_F32_I32, I32, F32, (int32_t)kiln_vm_f32_to_bits(a))  \
  X(BITCAST_I64_F64, F64, I64, kiln_vm_bits_to_f64((uint64_t)a)) \
  X(BITCAST_F64_I64, I64, F64, (int64_t)kiln_vm_f64_to_bits(a))  \
  X(CAST_F32_F16, I32, F32, (int32_t)kiln_vm_f32_to_f16(a))      \
  X(CAST_F16_F32, F32, I32, kiln_vm_f16_to_f32((uint16_t)a))     \
  X(CAST_F32_BF16, I32, F32, (int32_t)kiln_vm_f32_to_bf16(a))    \
  X(CAST_BF16_F32, F32, I32, kiln_vm_bf16_to_f32((uint16_t)a))

#endif  // KILN_RUNTIME_VM_NUMERICS_H_
