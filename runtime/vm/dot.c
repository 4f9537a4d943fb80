// dot8.f16 kernels (dot.h).
#include "runtime/vm/dot.h"

#include <string.h>

#include "runtime/vm/numerics.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KILN_VM_DOT_F16C 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static inline uint16_t kiln_vm_dot_ld16(const uint8_t* p, int64_t i) {
  uint16_t h;
  memcpy(&h, p + 2 * i, sizeof(h));
  return h;
}

void kiln_vm_dot8_f16_portable(float* acc, const uint8_t* a, int64_t sa,
                               int64_t oa, const uint8_t* b, int64_t sb,
                               int64_t ob, int64_t count) {
  float s[KILN_VM_DOT8_LANES];
  memcpy(s, acc, sizeof(s));
  for (int64_t i = 0; i < count; ++i) {
    // The lanes' chains are independent: the CPU overlaps their latencies.
    for (int q = 0; q < KILN_VM_DOT8_LANES; ++q) {
      float x = kiln_vm_f16_to_f32(kiln_vm_dot_ld16(a, i * sa + q * oa));
      float y = kiln_vm_f16_to_f32(kiln_vm_dot_ld16(b, i * sb + q * ob));
      float p = kiln_vm_round_to_f16(x * y);
      s[q] = kiln_vm_round_to_f16(s[q] + p);
    }
  }
  memcpy(acc, s, sizeof(s));
}

#if defined(KILN_VM_DOT_F16C)

// CPUID leaf 1: AVX (ECX bit 28) and F16C (bit 29), with the OS saving
// the YMM state (OSXSAVE, bit 27, and XCR0 bits 1-2). Read directly:
// clang 14's __builtin_cpu_supports does not know "f16c".
bool kiln_vm_dot8_f16c_supported(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned int need = (1u << 27) | (1u << 28) | (1u << 29);
  if ((ecx & need) != need) return false;
  unsigned int xcr0_lo, xcr0_hi;
  __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  return (xcr0_lo & 0x6u) == 0x6u;
}

// Eight f16 elements p[q * step] (a broadcast for step 0, one load for 1).
__attribute__((target("avx,f16c"))) static inline __m256 kiln_vm_dot_load8(
    const uint8_t* p, int64_t step) {
  __m128i h;
  if (step == 0) {
    h = _mm_set1_epi16((short)kiln_vm_dot_ld16(p, 0));
  } else if (step == 1) {
    h = _mm_loadu_si128((const __m128i*)p);
  } else {
    h = _mm_setr_epi16((short)kiln_vm_dot_ld16(p, 0),
                       (short)kiln_vm_dot_ld16(p, step),
                       (short)kiln_vm_dot_ld16(p, 2 * step),
                       (short)kiln_vm_dot_ld16(p, 3 * step),
                       (short)kiln_vm_dot_ld16(p, 4 * step),
                       (short)kiln_vm_dot_ld16(p, 5 * step),
                       (short)kiln_vm_dot_ld16(p, 6 * step),
                       (short)kiln_vm_dot_ld16(p, 7 * step));
  }
  return _mm256_cvtph_ps(h);
}

// f16 values (exact in f32) rounded to f16: products of two f16 values and
// sums of two are never f32 subnormals, so MXCSR's DAZ/FTZ cannot matter.
__attribute__((target("avx,f16c"))) static inline __m256 kiln_vm_dot_round8(
    __m256 v) {
  return _mm256_cvtph_ps(_mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

__attribute__((target("avx,f16c"))) void kiln_vm_dot8_f16_f16c(
    float* acc, const uint8_t* a, int64_t sa, int64_t oa, const uint8_t* b,
    int64_t sb, int64_t ob, int64_t count) {
  __m256 s = _mm256_loadu_ps(acc);
  for (int64_t i = 0; i < count; ++i) {
    __m256 x = kiln_vm_dot_load8(a + 2 * i * sa, oa);
    __m256 y = kiln_vm_dot_load8(b + 2 * i * sb, ob);
    __m256 p = kiln_vm_dot_round8(_mm256_mul_ps(x, y));
    s = kiln_vm_dot_round8(_mm256_add_ps(s, p));
  }
  _mm256_storeu_ps(acc, s);
}

#else

bool kiln_vm_dot8_f16c_supported(void) {
  return false;
}

void kiln_vm_dot8_f16_f16c(float* acc, const uint8_t* a, int64_t sa, int64_t oa,
                           const uint8_t* b, int64_t sb, int64_t ob,
                           int64_t count) {
  kiln_vm_dot8_f16_portable(acc, a, sa, oa, b, sb, ob, count);
}

#endif

void kiln_vm_dot8_f16(float* acc, const uint8_t* a, int64_t sa, int64_t oa,
                      const uint8_t* b, int64_t sb, int64_t ob, int64_t count) {
  if (kiln_vm_dot8_f16c_supported()) {
    kiln_vm_dot8_f16_f16c(acc, a, sa, oa, b, sb, ob, count);
  } else {
    kiln_vm_dot8_f16_portable(acc, a, sa, oa, b, sb, ob, count);
  }
}
