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

// Row m of an accumulator tile is at out + m * ors (16 when packed; the
// row stride of a row-major OUT).
static inline __attribute__((always_inline)) void kiln_ukernel_load_acc16(
    __m512* acc, const float* out, int M0, int64_t ors, int accumulate) {
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) {
    acc[m] = accumulate ? _mm512_loadu_ps(out + ors * m) : _mm512_setzero_ps();
  }
}

static inline __attribute__((always_inline)) void kiln_ukernel_store_acc16(
    const __m512* acc, float* out, int M0, int64_t ors) {
#pragma GCC unroll 16
  for (int m = 0; m < M0; ++m) _mm512_storeu_ps(out + ors * m, acc[m]);
}

// The operand layouts of one call, as element strides. Packed tiles pass
// constants (immediate offsets in the loops); row-major operands
// (KILN_UKERNEL_MMT4D_FLAG_*_ROW_MAJOR) pass the caller's strides.
//   rs:  between the K steps of the RHS panel (16 when packed)
//   lrs: between LHS rows (1 packed, the row stride row-major)
//   lks: between LHS K steps (M0 packed, 1 row-major)
//   ors: between OUT rows (16 packed, the row stride row-major)
//   ots: between adjacent OUT tiles (16 * M0 packed, 16 row-major)
typedef struct kiln_ukernel_f32_layout_t {
  int64_t rs, lrs, lks, ors, ots;
} kiln_ukernel_f32_layout_t;

static inline __attribute__((always_inline)) kiln_ukernel_f32_layout_t
kiln_ukernel_f32_strided_layout(const kiln_ukernel_mmt4d_params_t* params,
                                const int M0) {
  const int lhs_rm = (params->flags & KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR);
  const int out_rm = (params->flags & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR);
  kiln_ukernel_f32_layout_t l;
  l.rs = params->rhs_stride1 ? params->rhs_stride1 : 16;
  l.lrs = lhs_rm ? params->lhs_stride1 : 1;
  l.lks = lhs_rm ? 1 : M0;
  l.ors = out_rm ? params->out_stride1 : 16;
  l.ots = out_rm ? 16 : 16 * M0;
  return l;
}

static inline __attribute__((always_inline)) int kiln_ukernel_f32_is_strided(
    const kiln_ukernel_mmt4d_params_t* params) {
  return (params->flags & (KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR |
                           KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR)) != 0;
}

// |lhs_vec|: the LHS is packed (lks == 16), so a full tile may take the
// values of its last rows from one vector load.
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x16x1(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0,
    const kiln_ukernel_f32_layout_t ly, const int lhs_vec) {
  float* out = (float*)out_tile;
  const float* restrict lhs = (const float*)lhs_panel;
  const float* restrict rhs = (const float*)rhs_panel;
  const int64_t rs = ly.rs, lrs = ly.lrs, lks = ly.lks;
  __m512 acc[16];
  kiln_ukernel_load_acc16(acc, out, M0, ly.ors,
                          params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE);
  // The last KILN_UKERNEL_REG_BROADCASTS rows of a full tile take their
  // LHS value from one vector load by vpermps instead of a broadcast load:
  // the loads then no longer limit the FMA rate (measured on Zen 5: 4 of 16
  // is ~4% faster than 0, 1-3 and 6 are not).
  enum { KILN_UKERNEL_REG_BROADCASTS = 4 };
  const int first_reg =
      M0 == 16 && lhs_vec ? 16 - KILN_UKERNEL_REG_BROADCASTS : M0;
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
      __m512 l = first_reg < M0 ? _mm512_loadu_ps(lhs + 16 * u) : r;
#pragma GCC unroll 16
      for (int m = 0; m < first_reg; ++m) {
        acc[m] =
            _mm512_fmadd_ps(_mm512_set1_ps(lhs[lks * u + lrs * m]), r, acc[m]);
      }
#pragma GCC unroll 4
      for (int m = first_reg; m < M0; ++m) {
        acc[m] = _mm512_fmadd_ps(_mm512_permutexvar_ps(lane[m - first_reg], l),
                                 r, acc[m]);
      }
    }
    lhs += 4 * lks;
    rhs += 4 * rs;
  }
  for (; k > 0; --k) {
    __m512 r = _mm512_loadu_ps(rhs);
    __m512 l = first_reg < M0 ? _mm512_loadu_ps(lhs) : r;
#pragma GCC unroll 16
    for (int m = 0; m < first_reg; ++m) {
      acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(lhs[lrs * m]), r, acc[m]);
    }
#pragma GCC unroll 4
    for (int m = first_reg; m < M0; ++m) {
      acc[m] = _mm512_fmadd_ps(_mm512_permutexvar_ps(lane[m - first_reg], l), r,
                               acc[m]);
    }
    lhs += lks;
    rhs += rs;
  }
  if (params->flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP) {
    const kiln_ukernel_bc_t bc =
        kiln_ukernel_bc_setup(0, params->clamp_lo, params->clamp_hi);
    const __m512 b = kiln_ukernel_bc_bias(&bc, params->bias);
#pragma GCC unroll 16
    for (int m = 0; m < M0; ++m) acc[m] = kiln_ukernel_bc_apply(&bc, acc[m], b);
  }
  kiln_ukernel_store_acc16(acc, out, M0, ly.ors);
}

// |tiles| (2 or 3) horizontally adjacent f32 tiles (N1 = n, n + 1, ...;
// |ts| elements apart in the RHS), |rows| of their rows from |row0| on.
// Each K step loads one RHS row per tile and broadcasts each LHS value once
// for |tiles| FMAs: 11 loads per 24 FMAs for 8 rows of three tiles, 10 per
// 16 for two, against 13 loads and 4 permutes per 16 FMAs in the one-tile
// kernel, so the loads stop competing with the FMAs (measured on Zen 5:
// three tiles 2-6% faster on the 1024-2048 squares). Every element still
// sums its K products in the same order as the one-tile kernel: the results
// are bit-identical.
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x16x1_runt(
    float* out, const float* restrict lhs, const float* restrict rhs,
    const kiln_ukernel_mmt4d_params_t* params,
    const kiln_ukernel_f32_layout_t ly, const int tiles, const int row0,
    const int rows, const int accumulate) {
  const int64_t K1 = params->K1, ts = params->rhs_stride0;
  __m512 acc[3][KILN_UKERNEL_3TILES_ROWS];
  kiln_ukernel_3tiles_load_ps(acc, out, ly.ots, ly.ors, tiles, row0, rows,
                              accumulate);
  lhs += ly.lrs * row0;
  for (int64_t k = K1; k > 0; --k) {
    __m512 r[3];
#pragma GCC unroll 3
    for (int t = 0; t < tiles; ++t) r[t] = _mm512_loadu_ps(rhs + t * ts);
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      const __m512 l = _mm512_set1_ps(lhs[ly.lrs * m]);
#pragma GCC unroll 3
      for (int t = 0; t < tiles; ++t) {
        acc[t][m] = _mm512_fmadd_ps(l, r[t], acc[t][m]);
      }
    }
    lhs += ly.lks;
    rhs += ly.rs;
  }
  if (params->flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP) {
    kiln_ukernel_3tiles_bias_clamp(acc, params->bias, params->clamp_lo,
                                   params->clamp_hi, tiles, rows);
  }
  kiln_ukernel_3tiles_store_ps(acc, out, ly.ots, ly.ors, tiles, row0, rows);
}

// M0 = 16 runs as two passes of 8 rows (24 accumulators each for three
// tiles; 16 rows of three tiles would need 48).
static inline __attribute__((always_inline)) void kiln_ukernel_f32_x16x1xt(
    void* out_tiles, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params, const int M0,
    const kiln_ukernel_f32_layout_t ly, const int tiles) {
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
#pragma GCC unroll 2
  for (int row0 = 0; row0 < M0; row0 += KILN_UKERNEL_3TILES_ROWS) {
    kiln_ukernel_f32_x16x1_runt(
        (float*)out_tiles, (const float*)lhs_panel, (const float*)rhs_panel,
        params, ly, tiles, row0,
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
  kiln_ukernel_load_acc16(acc, out, M0, 16,
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
  kiln_ukernel_store_acc16(acc, out, M0, 16);
}

// Three instantiations per tile: all packed (constant offsets), a
// row-major RHS read in place (rhs_stride1), and row-major LHS / OUT.
#define KILN_UKERNEL_PACKED_LAYOUT(M0, rs) \
  ((kiln_ukernel_f32_layout_t){(rs), 1, (M0), 16, 16 * (M0)})
#define KILN_UKERNEL_DEFINE_AVX512_TILES(M0, T)                             \
  void kiln_ukernel_mmt4d_f32_##M0##x16x1_##T##tiles_avx512(                \
      void* out_tiles, const void* lhs_panel, const void* rhs_panel,        \
      const kiln_ukernel_mmt4d_params_t* params) {                          \
    if (kiln_ukernel_f32_is_strided(params)) {                              \
      kiln_ukernel_f32_x16x1xt(out_tiles, lhs_panel, rhs_panel, params, M0, \
                               kiln_ukernel_f32_strided_layout(params, M0), \
                               T);                                          \
    } else if (params->rhs_stride1) {                                       \
      kiln_ukernel_f32_x16x1xt(                                             \
          out_tiles, lhs_panel, rhs_panel, params, M0,                      \
          KILN_UKERNEL_PACKED_LAYOUT(M0, params->rhs_stride1), T);          \
    } else {                                                                \
      kiln_ukernel_f32_x16x1xt(out_tiles, lhs_panel, rhs_panel, params, M0, \
                               KILN_UKERNEL_PACKED_LAYOUT(M0, 16), T);      \
    }                                                                       \
  }
#define KILN_UKERNEL_DEFINE_AVX512(M0)                                        \
  void kiln_ukernel_mmt4d_f32_##M0##x16x1_avx512(                             \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,           \
      const kiln_ukernel_mmt4d_params_t* params) {                            \
    if (kiln_ukernel_f32_is_strided(params)) {                                \
      kiln_ukernel_f32_x16x1(out_tile, lhs_panel, rhs_panel, params, M0,      \
                             kiln_ukernel_f32_strided_layout(params, M0), 0); \
    } else if (params->rhs_stride1) {                                         \
      kiln_ukernel_f32_x16x1(                                                 \
          out_tile, lhs_panel, rhs_panel, params, M0,                         \
          KILN_UKERNEL_PACKED_LAYOUT(M0, params->rhs_stride1), 1);            \
    } else {                                                                  \
      kiln_ukernel_f32_x16x1(out_tile, lhs_panel, rhs_panel, params, M0,      \
                             KILN_UKERNEL_PACKED_LAYOUT(M0, 16), 1);          \
    }                                                                         \
  }                                                                           \
  KILN_UKERNEL_DEFINE_AVX512_TILES(M0, 2)                                     \
  KILN_UKERNEL_DEFINE_AVX512_TILES(M0, 3)                                     \
  void kiln_ukernel_mmt4d_f16_##M0##x16x1_avx512(                             \
      void* out_tile, const void* lhs_panel, const void* rhs_panel,           \
      const kiln_ukernel_mmt4d_params_t* params) {                            \
    kiln_ukernel_f16_x16x1(out_tile, lhs_panel, rhs_panel, params, M0);       \
  }
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DEFINE_AVX512)

// Eight adjacent one-row tiles (M0 = 1): per K step one broadcast and
// eight independent FMA chains (the three-tile run's three bound a
// matrix-vector product, whose RHS streams from memory once, by their
// latency). Every element sums its K products in the same order as the
// one-tile kernel: bit-identical.
static inline __attribute__((always_inline)) void kiln_ukernel_f32_1x16x1_run8(
    float* out, const float* restrict lhs, const float* restrict rhs,
    const kiln_ukernel_mmt4d_params_t* params,
    const kiln_ukernel_f32_layout_t ly) {
  const int64_t ts = params->rhs_stride0;
  const int accumulate =
      (params->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  __m512 acc[8];
#pragma GCC unroll 8
  for (int t = 0; t < 8; ++t) {
    acc[t] =
        accumulate ? _mm512_loadu_ps(out + ly.ots * t) : _mm512_setzero_ps();
  }
  for (int64_t k = params->K1; k > 0; --k) {
    const __m512 l = _mm512_set1_ps(*lhs);
#pragma GCC unroll 8
    for (int t = 0; t < 8; ++t) {
      acc[t] = _mm512_fmadd_ps(l, _mm512_loadu_ps(rhs + ts * t), acc[t]);
    }
    lhs += ly.lks;
    rhs += ly.rs;
  }
  if (params->flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP) {
    const kiln_ukernel_bc_t bc =
        kiln_ukernel_bc_setup(0, params->clamp_lo, params->clamp_hi);
#pragma GCC unroll 8
    for (int t = 0; t < 8; ++t) {
      acc[t] = kiln_ukernel_bc_apply(
          &bc, acc[t], kiln_ukernel_bc_bias(&bc, params->bias + 16 * t));
    }
  }
#pragma GCC unroll 8
  for (int t = 0; t < 8; ++t) _mm512_storeu_ps(out + ly.ots * t, acc[t]);
}

void kiln_ukernel_mmt4d_f32_1x16x1_8tiles_avx512(
    void* out_tiles, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params) {
  const kiln_ukernel_f32_layout_t ly =
      kiln_ukernel_f32_is_strided(params)
          ? kiln_ukernel_f32_strided_layout(params, 1)
          : KILN_UKERNEL_PACKED_LAYOUT(
                1, params->rhs_stride1 ? params->rhs_stride1 : 16);
  kiln_ukernel_f32_1x16x1_run8((float*)out_tiles, (const float*)lhs_panel,
                               (const float*)rhs_panel, params, ly);
}

void kiln_ukernel_bias_act_x16_avx512(float* out, const float* bias,
                                      int64_t tiles, int64_t rows,
                                      int64_t out_row, int64_t out_tile,
                                      uint32_t flags, float lo, float hi) {
  const kiln_ukernel_bc_t bc = kiln_ukernel_bc_setup(
      (flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU) != 0, lo, hi);
  for (int64_t t = 0; t < tiles; ++t) {
    const __m512 b = kiln_ukernel_bc_bias(&bc, bias + 16 * t);
    float* tile = out + t * out_tile;
    for (int64_t m = 0; m < rows; ++m) {
      _mm512_storeu_ps(
          tile + m * out_row,
          kiln_ukernel_bc_apply(&bc, _mm512_loadu_ps(tile + m * out_row), b));
    }
  }
}
