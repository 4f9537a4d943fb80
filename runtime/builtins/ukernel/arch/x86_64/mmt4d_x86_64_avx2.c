// AVX2 + FMA + F16C tiles: f32 x f32 -> f32 and f16 x f16 -> f32,
// M0 x 8 x 1 for M0 in {1, 2, 4, 8}. Compiled with -mavx2 -mfma -mf16c.
// Same scheme as the AVX-512 tiles, on 8-wide ymm rows.
#include <immintrin.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

// Element strides of one call (as in the AVX-512 file): |rs| between the
// K steps of the RHS panel (8 when packed), |lrs| / |lks| between LHS rows /
// K steps (1 / M0 packed; the row stride / 1 for a row-major LHS), |ors|
// between OUT rows (8 packed; the row stride for a row-major OUT).
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x8x1(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0, const int64_t rs,
    const int64_t lrs, const int64_t lks, const int64_t ors) {
  float* out = (float*)out_tile;
  const float* restrict lhs = (const float*)lhs_panel;
  const float* restrict rhs = (const float*)rhs_panel;
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  __m256 acc[8];
#pragma GCC unroll 8
  for (int m = 0; m < M0; ++m) {
    acc[m] = accumulate ? _mm256_loadu_ps(out + ors * m) : _mm256_setzero_ps();
  }
  int64_t k = params->K1;
  for (; k >= 4; k -= 4) {
#pragma GCC unroll 4
    for (int u = 0; u < 4; ++u) {
      __m256 r = _mm256_loadu_ps(rhs + rs * u);
#pragma GCC unroll 8
      for (int m = 0; m < M0; ++m) {
        acc[m] =
            _mm256_fmadd_ps(_mm256_set1_ps(lhs[lks * u + lrs * m]), r, acc[m]);
      }
    }
    lhs += 4 * lks;
    rhs += 4 * rs;
  }
  for (; k > 0; --k) {
    __m256 r = _mm256_loadu_ps(rhs);
#pragma GCC unroll 8
    for (int m = 0; m < M0; ++m) {
      acc[m] = _mm256_fmadd_ps(_mm256_set1_ps(lhs[lrs * m]), r, acc[m]);
    }
    lhs += lks;
    rhs += rs;
  }
#pragma GCC unroll 8
  for (int m = 0; m < M0; ++m) _mm256_storeu_ps(out + ors * m, acc[m]);
}

static inline __attribute__((always_inline)) void kiln_ukernel_f16_x8x1(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0) {
  float* out = (float*)out_tile;
  const uint16_t* restrict lhs = (const uint16_t*)lhs_panel;
  const uint16_t* restrict rhs = (const uint16_t*)rhs_panel;
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  __m256 acc[8];
#pragma GCC unroll 8
  for (int m = 0; m < M0; ++m) {
    acc[m] = accumulate ? _mm256_loadu_ps(out + 8 * m) : _mm256_setzero_ps();
  }
  float lhs_f32[8] __attribute__((aligned(32)));
  for (int64_t k = params->K1; k > 0; --k) {
    __m256 r = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)rhs));
    if (M0 == 8) {
      _mm256_store_ps(lhs_f32,
                      _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)lhs)));
    } else {
#pragma GCC unroll 4
      for (int m = 0; m < M0; ++m) lhs_f32[m] = _cvtsh_ss(lhs[m]);
    }
#pragma GCC unroll 8
    for (int m = 0; m < M0; ++m) {
      acc[m] = _mm256_fmadd_ps(_mm256_set1_ps(lhs_f32[m]), r, acc[m]);
    }
    lhs += M0;
    rhs += 8;
  }
#pragma GCC unroll 8
  for (int m = 0; m < M0; ++m) _mm256_storeu_ps(out + 8 * m, acc[m]);
}

#define KILN_UKERNEL_DEFINE_AVX2(M0)                                           \
  void kiln_ukernel_mmt4d_f32_##M0##x8x1_avx2(                                 \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,            \
      const kiln_ukernel_mmt4d_params_t* params) {                             \
    const uint32_t f = params->flags;                                          \
    if (f & (KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR |                           \
             KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR)) {                         \
      const int lhs_rm = (f & KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR) != 0;     \
      const int out_rm = (f & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR) != 0;     \
      kiln_ukernel_f32_x8x1(out_tile, lhs_panel, rhs_panel, params, M0,        \
                            params->rhs_stride1 ? params->rhs_stride1 : 8,     \
                            lhs_rm ? params->lhs_stride1 : 1, lhs_rm ? 1 : M0, \
                            out_rm ? params->out_stride1 : 8);                 \
    } else if (params->rhs_stride1) {                                          \
      kiln_ukernel_f32_x8x1(out_tile, lhs_panel, rhs_panel, params, M0,        \
                            params->rhs_stride1, 1, M0, 8);                    \
    } else {                                                                   \
      kiln_ukernel_f32_x8x1(out_tile, lhs_panel, rhs_panel, params, M0, 8, 1,  \
                            M0, 8);                                            \
    }                                                                          \
  }                                                                            \
  void kiln_ukernel_mmt4d_f16_##M0##x8x1_avx2(                                 \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,            \
      const kiln_ukernel_mmt4d_params_t* params) {                             \
    kiln_ukernel_f16_x8x1(out_tile, lhs_panel, rhs_panel, params, M0);         \
  }
KILN_UKERNEL_X86_64_AVX2_M0S(KILN_UKERNEL_DEFINE_AVX2)
