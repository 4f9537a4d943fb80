// The f32 accumulators of the AVX-512 multi-tile kernels (f32 and bf16
// inputs; mmt4d_x86_64_avx512*.c): |rows| rows from |row0| on of |tiles|
// (2 or 3) adjacent M0 x 16 OUT tiles, one zmm per tile row. Included only
// by files compiled with the AVX-512 flags.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_

#include <immintrin.h>
#include <stdint.h>

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

// KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP on 16 columns, with the scalar ops'
// bits (ukernel_abi.h): t = v + b; t > lo ? t : lo; then < hi ? : hi; a NaN
// t gives t + lo. maxps / minps return their second operand unless the
// first is greater / less. For ReLU and ReLU6 (lo = +0, hi > 0) two or
// three operations: with the bias's -0 lanes made +0 (kiln_ukernel_bc_bias),
// t is never -0 (a sum is -0 only if both terms are), so maxps(+0, t) is t
// > 0 ? t : +0 with a NaN t passed through, and a NaN t is its own t + lo
// (t, the result of an add, is quiet); where the bias was -0 and v -0 the
// scalar form gives lo = +0 and so does this. minps(hi, r) passes a NaN r
// too, and hi = +inf needs no min.
typedef struct kiln_ukernel_bc_t {
  __m512 lo, hi;
  int relu;     // lo = +0 and hi > 0
  int bounded;  // hi < +inf
} kiln_ukernel_bc_t;

static inline __attribute__((always_inline)) kiln_ukernel_bc_t
kiln_ukernel_bc_setup(float lo, float hi) {
  uint32_t lo_bits;
  __builtin_memcpy(&lo_bits, &lo, sizeof(lo_bits));
  kiln_ukernel_bc_t bc;
  bc.lo = _mm512_set1_ps(lo);
  bc.hi = _mm512_set1_ps(hi);
  bc.relu = lo_bits == 0 && hi > 0.0f;
  bc.bounded = hi != __builtin_inff();
  return bc;
}

// The bias of 16 columns, as kiln_ukernel_bc_apply takes it.
static inline __attribute__((always_inline)) __m512 kiln_ukernel_bc_bias(
    const kiln_ukernel_bc_t* bc, const float* bias) {
  const __m512 b = _mm512_loadu_ps(bias);
  return bc->relu ? _mm512_add_ps(b, _mm512_setzero_ps()) : b;
}

static inline __attribute__((always_inline)) __m512 kiln_ukernel_bc_apply(
    const kiln_ukernel_bc_t* bc, __m512 v, __m512 b) {
  const __m512 t = _mm512_add_ps(v, b);
  if (bc->relu) {
    const __m512 r = _mm512_max_ps(_mm512_setzero_ps(), t);
    return bc->bounded ? _mm512_min_ps(bc->hi, r) : r;
  }
  const __m512 r = _mm512_min_ps(_mm512_max_ps(t, bc->lo), bc->hi);
  const __mmask16 nan = _mm512_cmp_ps_mask(t, t, _CMP_UNORD_Q);
  return _mm512_mask_add_ps(r, nan, t, bc->lo);
}

// The bias + clamp of |rows| accumulator rows of |tiles| tiles whose
// columns start at |bias| (16 per tile), in registers before their store.
static inline __attribute__((always_inline)) void
kiln_ukernel_3tiles_bias_clamp(__m512 acc[3][KILN_UKERNEL_3TILES_ROWS],
                               const float* bias, float lo, float hi,
                               const int tiles, const int rows) {
  const kiln_ukernel_bc_t bc = kiln_ukernel_bc_setup(lo, hi);
#pragma GCC unroll 3
  for (int t = 0; t < tiles; ++t) {
    const __m512 b = kiln_ukernel_bc_bias(&bc, bias + 16 * t);
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m) {
      acc[t][m] = kiln_ukernel_bc_apply(&bc, acc[t][m], b);
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
