// AVX-512 (F, BW, DQ, VL) tiles: f32 x f32 -> f32 and f16 x f16 -> f32,
// M0 x 16 x 1 for M0 in {1, 2, 4, 8, 16}. Compiled with -mavx512f
// -mavx512bw -mavx512dq -mavx512vl -mfma but not -mf16c: the conversions are
// AVX-512F's, so these kernels need no F16C bit. Only called when those
// features are present.
//
// Each K step loads one 16-wide RHS row and adds broadcast(lhs[m]) * row
// into accumulator m: the M0 accumulators stay in zmm registers for the
// whole K loop, and the broadcasts come straight from memory.
#include <immintrin.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

static inline __attribute__((always_inline)) void kiln_ukernel_load_acc16(
    __m512* acc, const float* out, int M0, int accumulate) {
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) {
    acc[m] = accumulate ? _mm512_loadu_ps(out + 16 * m) : _mm512_setzero_ps();
  }
}

static inline __attribute__((always_inline)) void kiln_ukernel_store_acc16(
    const __m512* acc, float* out, int M0) {
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) _mm512_storeu_ps(out + 16 * m, acc[m]);
}

// |rs|: elements between the K steps of the RHS panel (16 when packed; a
// constant there, so the packed case keeps immediate offsets).
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x16x1(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0, const int64_t rs) {
  float* out = (float*)out_tile;
  const float* restrict lhs = (const float*)lhs_panel;
  const float* restrict rhs = (const float*)rhs_panel;
  __m512 acc[16];
  kiln_ukernel_load_acc16(acc, out, M0,
                          params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE);
  // The last KILN_UKERNEL_REG_BROADCASTS rows of a full tile take their
  // LHS value from one vector load by vpermps instead of a broadcast load:
  // the loads then no longer limit the FMA rate (measured on Zen 5: 4 of 16
  // is ~4% faster than 0, 1-3 and 6 are not).
  enum { KILN_UKERNEL_REG_BROADCASTS = 4 };
  const int first_reg = M0 == 16 ? 16 - KILN_UKERNEL_REG_BROADCASTS : M0;
  __m512i lane[KILN_UKERNEL_REG_BROADCASTS];
#pragma GCC unroll 4
  for (int i = 0; i < KILN_UKERNEL_REG_BROADCASTS; ++i) {
    lane[i] = _mm512_set1_epi32(16 - KILN_UKERNEL_REG_BROADCASTS + i);
  }
  int64_t k = params->K1;
  // Unrolled by 4 so the loop overhead and the pointer updates fall outside
  // the FMA stream.
  for (; k >= 4; k -= 4) {
#pragma GCC unroll 4
    for (int u = 0; u < 4; ++u) {
      __m512 r = _mm512_loadu_ps(rhs + rs * u);
      __m512 l = M0 == 16 ? _mm512_loadu_ps(lhs + 16 * u) : r;
#pragma GCC unroll 16
      for (int m = 0; m < first_reg; ++m) {
        acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(lhs[M0 * u + m]), r, acc[m]);
      }
#pragma GCC unroll 4
      for (int m = first_reg; m < M0; ++m) {
        acc[m] = _mm512_fmadd_ps(_mm512_permutexvar_ps(lane[m - first_reg], l),
                                 r, acc[m]);
      }
    }
    lhs += 4 * M0;
    rhs += 4 * rs;
  }
  for (; k > 0; --k) {
    __m512 r = _mm512_loadu_ps(rhs);
    __m512 l = M0 == 16 ? _mm512_loadu_ps(lhs) : r;
#pragma GCC unroll 16
    for (int m = 0; m < first_reg; ++m) {
      acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(lhs[m]), r, acc[m]);
    }
#pragma GCC unroll 4
    for (int m = first_reg; m < M0; ++m) {
      acc[m] = _mm512_fmadd_ps(_mm512_permutexvar_ps(lane[m - first_reg], l), r,
                               acc[m]);
    }
    lhs += M0;
    rhs += rs;
  }
  kiln_ukernel_store_acc16(acc, out, M0);
}

// f16 inputs: the RHS row converts with one vcvtph2ps; the M0 LHS values
// convert once per K step into a small buffer the broadcasts read.
static inline __attribute__((always_inline)) void kiln_ukernel_f16_x16x1(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0) {
  float* out = (float*)out_tile;
  const uint16_t* restrict lhs = (const uint16_t*)lhs_panel;
  const uint16_t* restrict rhs = (const uint16_t*)rhs_panel;
  __m512 acc[16];
  kiln_ukernel_load_acc16(acc, out, M0,
                          params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE);
  float lhs_f32[16] __attribute__((aligned(64)));
  for (int64_t k = params->K1; k > 0; --k) {
    __m512 r = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)rhs));
    // Skinny tiles load only their M0 values (masked), so nothing past the
    // panel is read.
    const __m256i lhs_f16 =
        M0 == 16 ? _mm256_loadu_si256((const __m256i*)lhs)
                 : _mm256_maskz_loadu_epi16((__mmask16)((1u << M0) - 1u), lhs);
    _mm512_store_ps(lhs_f32, _mm512_cvtph_ps(lhs_f16));
#pragma GCC unroll 16
    for (int m = 0; m < M0; ++m) {
      acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(lhs_f32[m]), r, acc[m]);
    }
    lhs += M0;
    rhs += 16;
  }
  kiln_ukernel_store_acc16(acc, out, M0);
}

#define KILN_UKERNEL_DEFINE_AVX512(M0)                                        \
  void kiln_ukernel_mmt4d_f32_##M0##x16x1_avx512(                             \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,           \
      const kiln_ukernel_mmt4d_params_t* params) {                            \
    if (params->rhs_stride1) {                                                \
      kiln_ukernel_f32_x16x1(out_tile, lhs_panel, rhs_panel, params, M0,      \
                             params->rhs_stride1);                            \
    } else {                                                                  \
      kiln_ukernel_f32_x16x1(out_tile, lhs_panel, rhs_panel, params, M0, 16); \
    }                                                                         \
  }                                                                           \
  void kiln_ukernel_mmt4d_f16_##M0##x16x1_avx512(                             \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,           \
      const kiln_ukernel_mmt4d_params_t* params) {                            \
    kiln_ukernel_f16_x16x1(out_tile, lhs_panel, rhs_panel, params, M0);       \
  }
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DEFINE_AVX512)
