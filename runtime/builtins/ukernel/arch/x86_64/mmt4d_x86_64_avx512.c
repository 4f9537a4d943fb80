// AVX-512 (F, BW, DQ, VL) tiles: f32 x f32 -> f32 and f16 x f16 -> f32,
// M0 x 16 x 1 for M0 in {1, 2, 4, 8, 16}, and f32 runs of three adjacent
// tiles. Compiled with -mavx512f
// -mavx512bw -mavx512dq -mavx512vl -mfma but not -mf16c: the conversions are
// AVX-512F's, so these kernels need no F16C bit. Only called when those
// features are present.
//
// Each K step loads one 16-wide RHS row and adds broadcast(lhs[m]) * row
// into accumulator m: the M0 accumulators stay in zmm registers for the
// whole K loop, and the broadcasts come straight from memory.
#include <immintrin.h>

#include "runtime/builtins/ukernel/arch/x86_64/mmt4d_x86_64_avx512_3tiles.h"
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

// Three horizontally adjacent f32 tiles (N1 = n, n + 1, n + 2; |ts| elements
// apart in the RHS), |rows| of their rows from |row0| on. Each K step loads
// three RHS rows and broadcasts each LHS value once for three FMAs: 11 loads
// per 24 FMAs for 8 rows, against 13 loads and 4 permutes per 16 FMAs in the
// one-tile kernel, so the loads stop competing with the FMAs (measured on
// Zen 5: 2-6% faster on the 1024-2048 squares). Every element still sums its
// K products in the same order as the one-tile kernel: the results are
// bit-identical.
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x16x1_run3(
    float* out, const float* restrict lhs, const float* restrict rhs,
    const int64_t K1, const int64_t ts, const int64_t rs, const int M0,
    const int row0, const int rows, const int accumulate) {
  __m512 acc[3][KILN_UKERNEL_3TILES_ROWS];
  kiln_ukernel_3tiles_load_ps(acc, out, M0, row0, rows, accumulate);
  lhs += row0;
  for (int64_t k = K1; k > 0; --k) {
    const __m512 r0 = _mm512_loadu_ps(rhs);
    const __m512 r1 = _mm512_loadu_ps(rhs + ts);
    const __m512 r2 = _mm512_loadu_ps(rhs + 2 * ts);
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      const __m512 l = _mm512_set1_ps(lhs[m]);
      acc[0][m] = _mm512_fmadd_ps(l, r0, acc[0][m]);
      acc[1][m] = _mm512_fmadd_ps(l, r1, acc[1][m]);
      acc[2][m] = _mm512_fmadd_ps(l, r2, acc[2][m]);
    }
    lhs += M0;
    rhs += rs;
  }
  kiln_ukernel_3tiles_store_ps(acc, out, M0, row0, rows);
}

// M0 = 16 runs as two passes of 8 rows (24 accumulators each; 16 rows of
// three tiles would need 48).
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x16x1x3(
    void* out_tiles, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0, const int64_t rs) {
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
#pragma GCC unroll 2
  for (int row0 = 0; row0 < M0; row0 += KILN_UKERNEL_3TILES_ROWS) {
    kiln_ukernel_f32_x16x1_run3(
        (float*)out_tiles, (const float*)lhs_panel, (const float*)rhs_panel,
        params->K1, params->rhs_stride0, rs, M0, row0,
        M0 < KILN_UKERNEL_3TILES_ROWS ? M0 : KILN_UKERNEL_3TILES_ROWS,
        accumulate);
  }
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
  void kiln_ukernel_mmt4d_f32_##M0##x16x1_3tiles_avx512(                      \
      void* out_tiles, const void* lhs_panel, const void* rhs_panel,          \
      const kiln_ukernel_mmt4d_params_t* params) {                            \
    if (params->rhs_stride1) {                                                \
      kiln_ukernel_f32_x16x1x3(out_tiles, lhs_panel, rhs_panel, params, M0,   \
                               params->rhs_stride1);                          \
    } else {                                                                  \
      kiln_ukernel_f32_x16x1x3(out_tiles, lhs_panel, rhs_panel, params, M0,   \
                               16);                                           \
    }                                                                         \
  }                                                                           \
  void kiln_ukernel_mmt4d_f16_##M0##x16x1_avx512(                             \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,           \
      const kiln_ukernel_mmt4d_params_t* params) {                            \
    kiln_ukernel_f16_x16x1(out_tile, lhs_panel, rhs_panel, params, M0);       \
  }
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DEFINE_AVX512)
