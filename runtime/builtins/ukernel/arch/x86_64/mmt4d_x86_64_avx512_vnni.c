// AVX512_VNNI tiles: s8 x s8 -> s32, M0 x 16 x 4 for M0 in {1, 2, 4, 8,
// 16}, and runs of three adjacent tiles. Compiled with the AVX-512 flags
// plus -mavx512vnni.
//
// vpdpbusd multiplies UNSIGNED bytes by signed bytes. The kernel flips the
// sign bit of the RHS bytes (b + 128, now unsigned) and multiplies them by
// the signed LHS bytes, which adds 128 * sum_k lhs[m][k] too much to every
// element of row m; a second vpdpbusd per K step sums each LHS row (its 4
// bytes times 1) and the excess is subtracted once at the end. The sums
// wrap modulo 2^32 exactly like the true product does, so the result is
// exact (as the reference computes it in 32-bit two's complement).
#include <immintrin.h>

#include "runtime/builtins/ukernel/arch/x86_64/mmt4d_x86_64_avx512_3tiles.h"
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
  const int64_t ors = kiln_ukernel_x16_out_row(params);
  __m512i acc[16];
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) {
    acc[m] =
        accumulate ? _mm512_loadu_si512(out + ors * m) : _mm512_setzero_si512();
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
    _mm512_storeu_si512(out + ors * m, _mm512_sub_epi32(acc[m], row_excess));
  }
}

// Three horizontally adjacent tiles (the RHS ones rhs_stride0 bytes apart),
// |rows| rows from |row0| on: per K step three RHS loads and one broadcast
// per row feed 3 x rows vpdpbusd, and the row sums are shared by the three
// tiles (the one-tile kernel issues 18 loads per 17 vpdpbusd and is bound by
// the loads). The same sums in the same order: bit-identical results.
static inline __attribute__((always_inline)) void kiln_ukernel_s8_x16x4_run3(
    int32_t* out, const kiln_ukernel_unaligned_i32_t* restrict lhs,
    const char* restrict rhs, const int64_t K1, const int64_t ts,
    const int64_t ots, const int64_t ors, const int M0, const int row0,
    const int rows, const int accumulate) {
  __m512i acc[3][KILN_UKERNEL_3TILES_ROWS];
#pragma GCC unroll 3
  for (int t = 0; t < 3; ++t) {
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      acc[t][m] = accumulate
                      ? _mm512_loadu_si512(out + ots * t + ors * (row0 + m))
                      : _mm512_setzero_si512();
    }
  }
  const __m512i sign_bits = _mm512_set1_epi8((char)0x80);
  const __m512i ones = _mm512_set1_epi8(1);
  // Lane m holds sum_k lhs[row0 + m][k] (lanes >= rows stay 0).
  __m512i row_sums = _mm512_setzero_si512();
  const __mmask16 lhs_mask = (__mmask16)((1u << rows) - 1u);
  lhs += row0;
  for (int64_t k = K1; k > 0; --k) {
    const __m512i r0 = _mm512_xor_si512(_mm512_loadu_si512(rhs), sign_bits);
    const __m512i r1 =
        _mm512_xor_si512(_mm512_loadu_si512(rhs + ts), sign_bits);
    const __m512i r2 =
        _mm512_xor_si512(_mm512_loadu_si512(rhs + 2 * ts), sign_bits);
    row_sums = _mm512_dpbusd_epi32(row_sums, ones,
                                   _mm512_maskz_loadu_epi32(lhs_mask, lhs));
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      const __m512i l = _mm512_set1_epi32(lhs[m]);
      acc[0][m] = _mm512_dpbusd_epi32(acc[0][m], r0, l);
      acc[1][m] = _mm512_dpbusd_epi32(acc[1][m], r1, l);
      acc[2][m] = _mm512_dpbusd_epi32(acc[2][m], r2, l);
    }
    lhs += M0;
    rhs += 64;
  }
  const __m512i excess = _mm512_slli_epi32(row_sums, 7);
#pragma GCC unroll 8
  for (int m = 0; m < rows; ++m) {
    const __m512i row_excess =
        _mm512_permutexvar_epi32(_mm512_set1_epi32(m), excess);
#pragma GCC unroll 3
    for (int t = 0; t < 3; ++t) {
      _mm512_storeu_si512(out + ots * t + ors * (row0 + m),
                          _mm512_sub_epi32(acc[t][m], row_excess));
    }
  }
}

#define KILN_UKERNEL_DEFINE_AVX512VNNI(M0)                                     \
  void kiln_ukernel_mmt4d_s8_##M0##x16x4_avx512vnni(                           \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,            \
      const kiln_ukernel_mmt4d_params_t* params) {                             \
    kiln_ukernel_s8_x16x4(out_tile, lhs_panel, rhs_panel, params, M0);         \
  }                                                                            \
  void kiln_ukernel_mmt4d_s8_##M0##x16x4_3tiles_avx512vnni(                    \
      void* out_tiles, const void* lhs_panel, const void* rhs_panel,           \
      const kiln_ukernel_mmt4d_params_t* params) {                             \
    const int accumulate =                                                     \
        (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;             \
    for (int row0 = 0; row0 < M0; row0 += KILN_UKERNEL_3TILES_ROWS) {          \
      kiln_ukernel_s8_x16x4_run3(                                              \
          (int32_t*)out_tiles, (const kiln_ukernel_unaligned_i32_t*)lhs_panel, \
          (const char*)rhs_panel, params->K1, params->rhs_stride0,             \
          kiln_ukernel_x16_out_tile(params, M0),                               \
          kiln_ukernel_x16_out_row(params), M0, row0,                          \
          M0 < KILN_UKERNEL_3TILES_ROWS ? M0 : KILN_UKERNEL_3TILES_ROWS,       \
          accumulate);                                                         \
    }                                                                          \
  }
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DEFINE_AVX512VNNI)

// Eight adjacent one-row tiles (M0 = 1): eight independent vpdpbusd
// chains per K step (the three-tile run's three bound a matrix-vector
// product by their latency; see the bf16 one), sharing one row sum. Same
// sums in the same order: bit-identical.
void kiln_ukernel_mmt4d_s8_1x16x4_8tiles_avx512vnni(
    void* out_tiles, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params) {
  int32_t* out = (int32_t*)out_tiles;
  const kiln_ukernel_unaligned_i32_t* restrict lhs =
      (const kiln_ukernel_unaligned_i32_t*)lhs_panel;
  const char* restrict rhs = (const char*)rhs_panel;
  const int64_t ts = params->rhs_stride0;
  const int64_t ots = kiln_ukernel_x16_out_tile(params, 1);
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  __m512i acc[8];
#pragma GCC unroll 8
  for (int t = 0; t < 8; ++t) {
    acc[t] =
        accumulate ? _mm512_loadu_si512(out + ots * t) : _mm512_setzero_si512();
  }
  const __m512i sign_bits = _mm512_set1_epi8((char)0x80);
  const __m512i ones = _mm512_set1_epi8(1);
  // Lane 0 holds sum_k lhs[0][k] (the other lanes stay 0).
  __m512i row_sums = _mm512_setzero_si512();
  for (int64_t k = params->K1; k > 0; --k) {
    const __m512i l = _mm512_set1_epi32(*lhs);
    row_sums =
        _mm512_dpbusd_epi32(row_sums, ones, _mm512_maskz_loadu_epi32(1, lhs));
#pragma GCC unroll 8
    for (int t = 0; t < 8; ++t) {
      acc[t] = _mm512_dpbusd_epi32(
          acc[t], _mm512_xor_si512(_mm512_loadu_si512(rhs + ts * t), sign_bits),
          l);
    }
    lhs += 1;
    rhs += 64;
  }
  const __m512i excess = _mm512_permutexvar_epi32(
      _mm512_setzero_si512(), _mm512_slli_epi32(row_sums, 7));
#pragma GCC unroll 8
  for (int t = 0; t < 8; ++t) {
    _mm512_storeu_si512(out + ots * t, _mm512_sub_epi32(acc[t], excess));
  }
}
