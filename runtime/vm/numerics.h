// Internal: scalar helpers with exactly specified semantics for the
// interpreter (saturating float->int, half/bfloat16 conversions,
// NaN-propagating min/max, bit casts).
#ifndef KILN_RUNTIME_VM_NUMERICS_H_
#define KILN_RUNTIME_VM_NUMERICS_H_

#include <math.h>
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

#endif  // KILN_RUNTIME_VM_NUMERICS_H_
