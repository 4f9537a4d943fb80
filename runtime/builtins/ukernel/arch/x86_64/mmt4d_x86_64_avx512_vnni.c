// AVX512_VNNI tiles: s8 x s8 -> s32, M0 x 16 x 4 for M0 in {1, 2, 4, 8,
// 16}. Compiled with the AVX-512 flags plus -mavx512vnni.
//
// vpdpbusd multiplies UNSIGNED bytes by signed bytes. The kernel flips the
// sign bit of the RHS bytes (b + 128, now unsigned) and multiplies them by
// the signed LHS bytes, which adds 128 * sum_k lhs[m][k] too much to every
// element of row m; a second vpdpbusd per K step sums each LHS row (its 4
// bytes times 1) and the excess is subtracted once at the end. The sums
// wrap modulo 2^32 exactly like the true product does, so the result is
// exact (as the reference computes it in 32-bit two's complement).
#include <immintrin.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

static inline __attribute__((always_inline)) void kiln_ukernel_s8_x16x4(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0) {
  int32_t* out = (int32_t*)out_tile;
  const kiln_ukernel_unaligned_i32_t* restrict lhs =
      (const kiln_ukernel_unaligned_i32_t*)lhs_panel;
  const char* restrict rhs = (const char*)rhs_panel;
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  __m512i acc[16];
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) {
    acc[m] =
        accumulate ? _mm512_loadu_si512(out + 16 * m) : _mm512_setzero_si512();
  }
  const __m512i sign_bits = _mm512_set1_epi8((char)0x80);
  const __m512i ones = _mm512_set1_epi8(1);
  // Lane m holds sum_k lhs[m][k] (lanes >= M0 stay 0).
  __m512i row_sums = _mm512_setzero_si512();
  const __mmask16 lhs_mask = (__mmask16)((1u << M0) - 1u);
  for (int64_t k = params->K1; k > 0; --k) {
    __m512i r = _mm512_xor_si512(_mm512_loadu_si512(rhs), sign_bits);
    __m512i l = M0 == 16 ? _mm512_loadu_si512(lhs)
                         : _mm512_maskz_loadu_epi32(lhs_mask, lhs);
    row_sums = _mm512_dpbusd_epi32(row_sums, ones, l);
#pragma GCC unroll 16
    for (int m = 0; m < M0; ++m) {
      acc[m] = _mm512_dpbusd_epi32(acc[m], r, _mm512_set1_epi32(lhs[m]));
    }
    lhs += M0;
    rhs += 64;
  }
  const __m512i excess = _mm512_slli_epi32(row_sums, 7);
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) {
    __m512i row_excess = _mm512_permutexvar_epi32(_mm512_set1_epi32(m), excess);
    _mm512_storeu_si512(out + 16 * m, _mm512_sub_epi32(acc[m], row_excess));
  }
}

#define KILN_UKERNEL_DEFINE_AVX512VNNI(M0)                             \
  void kiln_ukernel_mmt4d_s8_##M0##x16x4_avx512vnni(                   \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,    \
      const kiln_ukernel_mmt4d_params_t* params) {                     \
    kiln_ukernel_s8_x16x4(out_tile, lhs_panel, rhs_panel, params, M0); \
  }
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DEFINE_AVX512VNNI)
