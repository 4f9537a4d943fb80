// The f32 accumulators of the AVX-512 multi-tile kernels (f32 and bf16
// inputs; mmt4d_x86_64_avx512*.c): |rows| rows from |row0| on of |tiles|
// (2 or 3) adjacent M0 x 16 OUT tiles, one zmm per tile row. Included only
// by files compiled with the AVX-512 flags.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_

#include <immintrin.h>

// Rows per pass: 3 x 8 accumulators leave registers for the three RHS rows.
#define KILN_UKERNEL_3TILES_ROWS 8

// Tile t row m of the accumulators is at out + t * ots + m * ors: ots =
// M0 * 16 and ors = 16 for packed OUT tiles, ots = 16 and ors = the row
// stride for a row-major OUT.
static inline __attribute__((always_inline)) void kiln_ukernel_3tiles_load_ps(
    __m512 acc[3][KILN_UKERNEL_3TILES_ROWS], const float* out,
    const int64_t ots, const int64_t ors, const int tiles, const int row0,
    const int rows, const int accumulate) {
#pragma GCC unroll 3
  for (int t = 0; t < tiles; ++t) {
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      acc[t][m] = accumulate ? _mm512_loadu_ps(out + ots * t + ors * (row0 + m))
                             : _mm512_setzero_ps();
    }
  }
}

static inline __attribute__((always_inline)) void kiln_ukernel_3tiles_store_ps(
    __m512 acc[3][KILN_UKERNEL_3TILES_ROWS], float* out, const int64_t ots,
    const int64_t ors, const int tiles, const int row0, const int rows) {
#pragma GCC unroll 3
  for (int t = 0; t < tiles; ++t) {
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      _mm512_storeu_ps(out + ots * t + ors * (row0 + m), acc[t][m]);
    }
  }
}

#endif  // KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_
