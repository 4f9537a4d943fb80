// The f32 accumulators of the AVX-512 multi-tile kernels (f32 and bf16
// inputs; mmt4d_x86_64_avx512*.c): |rows| rows from |row0| on of |tiles|
// (2 or 3) adjacent M0 x 16 OUT tiles, one zmm per tile row. Included only
// by files compiled with the AVX-512 flags.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_ARCH_X86_64_MMT4D_X86_64_AVX512_3TILES_H_

#include <immintrin.h>
#include <stdint.h>

#include "runtime/builtins/ukernel/ukernel_abi.h"

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
//
// KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU (kiln_ukernel_silu_ps below) goes
// through the same three helpers: bc.silu selects it.
typedef struct kiln_ukernel_bc_t {
  __m512 lo, hi;
  int relu;     // lo = +0 and hi > 0
  int bounded;  // hi < +inf
  int silu;     // BIAS_SILU: t = v + b, then SiLU(t)
} kiln_ukernel_bc_t;

// exp(x) for x <= -0 or NaN, with the bits of numerics.h's kiln_vm_exp_f32
// (the same operations in the same order; no FMA): its upper clamp never
// applies there; maxps(x, -104) is its lower clamp (a NaN x computes on
// -104 too); n rounds with the same magic add; and vscalefps multiplies by
// 2^n rounding once, as its two half-scale products do (the first is
// exact). A NaN x gives a NaN (the payload may differ). Checked against
// the scalar function for every f32 input once; ukernel_test samples them.
static inline __attribute__((always_inline)) __m512 kiln_ukernel_exp_nonpos_ps(
    __m512 x) {
  const __m512 xc = _mm512_max_ps(x, _mm512_set1_ps(-104.0f));
  const __m512 t = _mm512_mul_ps(xc, _mm512_set1_ps(1.44269504088896341f));
  const __m512 magic = _mm512_set1_ps(12582912.0f);
  const __m512 n = _mm512_sub_ps(_mm512_add_ps(t, magic), magic);
  const __m512 r = _mm512_sub_ps(
      _mm512_sub_ps(xc, _mm512_mul_ps(n, _mm512_set1_ps(0.693145751953125f))),
      _mm512_mul_ps(n, _mm512_set1_ps(1.42860682030941723e-6f)));
  __m512 q = _mm512_set1_ps(1.0f / 5040.0f);
  q = _mm512_add_ps(_mm512_mul_ps(q, r), _mm512_set1_ps(1.0f / 720.0f));
  q = _mm512_add_ps(_mm512_mul_ps(q, r), _mm512_set1_ps(1.0f / 120.0f));
  q = _mm512_add_ps(_mm512_mul_ps(q, r), _mm512_set1_ps(1.0f / 24.0f));
  q = _mm512_add_ps(_mm512_mul_ps(q, r), _mm512_set1_ps(1.0f / 6.0f));
  q = _mm512_add_ps(_mm512_mul_ps(q, r), _mm512_set1_ps(0.5f));
  const __m512 p =
      _mm512_add_ps(_mm512_set1_ps(1.0f),
                    _mm512_add_ps(r, _mm512_mul_ps(_mm512_mul_ps(r, r), q)));
  return _mm512_scalef_ps(p, n);
}

// SiLU(t) with the scalar ops of kiln's x * logistic(x) (ukernel_abi.h's
// KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU): 29 vector operations, where the C
// compiler's vectorization of the scalar form took about 45.
static inline __attribute__((always_inline)) __m512 kiln_ukernel_silu_ps(
    __m512 t) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 e = kiln_ukernel_exp_nonpos_ps(
      _mm512_or_ps(t, _mm512_castsi512_ps(_mm512_set1_epi32(INT32_MIN))));
  const __mmask16 nonneg =
      _mm512_cmp_ps_mask(t, _mm512_setzero_ps(), _CMP_GE_OQ);
  const __m512 num = _mm512_mask_blend_ps(nonneg, e, one);
  return _mm512_mul_ps(t, _mm512_div_ps(num, _mm512_add_ps(one, e)));
}

// |silu|: BIAS_SILU (the bounds are ignored) instead of BIAS_CLAMP. The
// kernels pass 0 and mmt4d applies SiLU in a pass over each call's L1-hot
// tiles: beside the kernels' 24 accumulators its ~30 operations per vector
// spilled registers (12544x96x16 + bias + SiLU: 1.39 ms in the kernels,
// 1.12 ms as the pass, 1.44 ms as the generated C loop it replaces).
static inline __attribute__((always_inline)) kiln_ukernel_bc_t
kiln_ukernel_bc_setup(int silu, float lo, float hi) {
  uint32_t lo_bits;
  __builtin_memcpy(&lo_bits, &lo, sizeof(lo_bits));
  kiln_ukernel_bc_t bc;
  bc.silu = silu;
  bc.lo = _mm512_set1_ps(lo);
  bc.hi = _mm512_set1_ps(hi);
  bc.relu = !bc.silu && lo_bits == 0 && hi > 0.0f;
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
  if (bc->silu) return kiln_ukernel_silu_ps(t);
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
  const kiln_ukernel_bc_t bc = kiln_ukernel_bc_setup(0, lo, hi);
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
