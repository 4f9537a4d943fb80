// AVX512_BF16 tiles: bf16 x bf16 -> f32, M0 x 16 x 2 for M0 in {1, 2, 4,
// 8, 16}, and runs of three adjacent tiles. Compiled with the AVX-512 flags
// plus -mavx512bf16.
//
// A K step is one 64-byte RHS row (16 columns x 2 k values) and, per LHS
// row, one broadcast 4-byte (k, k+1) pair: vdpbf16ps adds both products of
// the pair into each f32 lane.
#include <immintrin.h>

#include "runtime/builtins/ukernel/arch/x86_64/mmt4d_x86_64_avx512_3tiles.h"
#include "runtime/builtins/ukernel/ukernel_internal.h"

static inline __attribute__((always_inline)) void kiln_ukernel_bf16_x16x2(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0) {
  float* out = (float*)out_tile;
  const kiln_ukernel_unaligned_i32_t* restrict lhs =
      (const kiln_ukernel_unaligned_i32_t*)lhs_panel;
  const char* restrict rhs = (const char*)rhs_panel;
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  const int64_t ors = kiln_ukernel_x16_out_row(params);
  __m512 acc[16];
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) {
    acc[m] = accumulate ? _mm512_loadu_ps(out + ors * m) : _mm512_setzero_ps();
  }
  int64_t k = params->K1;
  for (; k >= 2; k -= 2) {
#pragma GCC unroll 2
    for (int u = 0; u < 2; ++u) {
      __m512bh r = (__m512bh)_mm512_loadu_si512(rhs + 64 * u);
#pragma GCC unroll 16
      for (int m = 0; m < M0; ++m) {
        acc[m] = _mm512_dpbf16_ps(
            acc[m], (__m512bh)_mm512_set1_epi32(lhs[M0 * u + m]), r);
      }
    }
    lhs += 2 * M0;
    rhs += 128;
  }
  for (; k > 0; --k) {
    __m512bh r = (__m512bh)_mm512_loadu_si512(rhs);
#pragma GCC unroll 16
    for (int m = 0; m < M0; ++m) {
      acc[m] = _mm512_dpbf16_ps(acc[m], (__m512bh)_mm512_set1_epi32(lhs[m]), r);
    }
    lhs += M0;
    rhs += 64;
  }
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) _mm512_storeu_ps(out + ors * m, acc[m]);
}

// Three horizontally adjacent tiles (the RHS ones rhs_stride0 elements
// apart), |rows| rows from |row0| on: per K step three RHS loads and one
// broadcast per row feed 3 x rows vdpbf16ps (the one-tile kernel issues 17
// loads per 16 and is bound by the loads). Same order: bit-identical.
static inline __attribute__((always_inline)) void kiln_ukernel_bf16_x16x2_run3(
    float* out, const kiln_ukernel_unaligned_i32_t* restrict lhs,
    const uint16_t* restrict rhs, const int64_t K1, const int64_t ts,
    const int64_t ots, const int64_t ors, const int M0, const int row0,
    const int rows, const int accumulate) {
  __m512 acc[3][KILN_UKERNEL_3TILES_ROWS];
  kiln_ukernel_3tiles_load_ps(acc, out, ots, ors, 3, row0, rows, accumulate);
  lhs += row0;
  for (int64_t k = K1; k > 0; --k) {
    const __m512bh r0 = (__m512bh)_mm512_loadu_si512(rhs);
    const __m512bh r1 = (__m512bh)_mm512_loadu_si512(rhs + ts);
    const __m512bh r2 = (__m512bh)_mm512_loadu_si512(rhs + 2 * ts);
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      const __m512bh l = (__m512bh)_mm512_set1_epi32(lhs[m]);
      acc[0][m] = _mm512_dpbf16_ps(acc[0][m], l, r0);
      acc[1][m] = _mm512_dpbf16_ps(acc[1][m], l, r1);
      acc[2][m] = _mm512_dpbf16_ps(acc[2][m], l, r2);
    }
    lhs += M0;
    rhs += 32;
  }
  kiln_ukernel_3tiles_store_ps(acc, out, ots, ors, 3, row0, rows);
}

#define KILN_UKERNEL_DEFINE_AVX512BF16(M0)                                   \
  void kiln_ukernel_mmt4d_bf16_##M0##x16x2_avx512bf16(                       \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,          \
      const kiln_ukernel_mmt4d_params_t* params) {                           \
    kiln_ukernel_bf16_x16x2(out_tile, lhs_panel, rhs_panel, params, M0);     \
  }                                                                          \
  void kiln_ukernel_mmt4d_bf16_##M0##x16x2_3tiles_avx512bf16(                \
      void* out_tiles, const void* lhs_panel, const void* rhs_panel,         \
      const kiln_ukernel_mmt4d_params_t* params) {                           \
    const int accumulate =                                                   \
        (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;           \
    for (int row0 = 0; row0 < M0; row0 += KILN_UKERNEL_3TILES_ROWS) {        \
      kiln_ukernel_bf16_x16x2_run3(                                          \
          (float*)out_tiles, (const kiln_ukernel_unaligned_i32_t*)lhs_panel, \
          (const uint16_t*)rhs_panel, params->K1, params->rhs_stride0,       \
          kiln_ukernel_x16_out_tile(params, M0),                             \
          kiln_ukernel_x16_out_row(params), M0, row0,                        \
          M0 < KILN_UKERNEL_3TILES_ROWS ? M0 : KILN_UKERNEL_3TILES_ROWS,     \
          accumulate);                                                       \
    }                                                                        \
  }
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DEFINE_AVX512BF16)

// Eight adjacent one-row tiles (M0 = 1): per K step eight RHS loads and
// eight independent vdpbf16ps chains. The three-tile run has three chains,
// and a matrix-vector product (its RHS read once, from memory) waited on
// their latency: 1x2048x1000 on 2 threads read 59 GB/s per thread against
// f32's 74. Same sums in the same order: bit-identical.
void kiln_ukernel_mmt4d_bf16_1x16x2_8tiles_avx512bf16(
    void* out_tiles, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params) {
  float* out = (float*)out_tiles;
  const kiln_ukernel_unaligned_i32_t* restrict lhs =
      (const kiln_ukernel_unaligned_i32_t*)lhs_panel;
  const uint16_t* restrict rhs = (const uint16_t*)rhs_panel;
  const int64_t ts = params->rhs_stride0;
  const int64_t ots = kiln_ukernel_x16_out_tile(params, 1);
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  __m512 acc[8];
#pragma GCC unroll 8
  for (int t = 0; t < 8; ++t) {
    acc[t] = accumulate ? _mm512_loadu_ps(out + ots * t) : _mm512_setzero_ps();
  }
  for (int64_t k = params->K1; k > 0; --k) {
    const __m512bh l = (__m512bh)_mm512_set1_epi32(*lhs);
#pragma GCC unroll 8
    for (int t = 0; t < 8; ++t) {
      acc[t] = _mm512_dpbf16_ps(acc[t], l,
                                (__m512bh)_mm512_loadu_si512(rhs + ts * t));
    }
    lhs += 1;
    rhs += 32;
  }
#pragma GCC unroll 8
  for (int t = 0; t < 8; ++t) _mm512_storeu_ps(out + ots * t, acc[t]);
}
