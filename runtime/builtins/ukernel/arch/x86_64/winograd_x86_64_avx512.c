// AVX-512 Winograd F(4x4, 3x3) transforms: 16 channels per register. The
// input transform stores each point's 16 channels as one contiguous row of
// the row-major LHS (KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR, what the
// compiler emits), or scatters them tile_size0 apart into the packed K0 = 1
// layout (modules compiled before the flag). The output transform reads one
// 16-channel row of each point's packed N0 = 16 result tile.
#include <immintrin.h>
#include <stdint.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

// B^T over 6 registers (d0..d5) into r[0..5].
static inline void kiln_wino_bt16(const __m512 d[6], __m512 r[6]) {
  const __m512 c2 = _mm512_set1_ps(2.0f), c4 = _mm512_set1_ps(4.0f),
               c5 = _mm512_set1_ps(5.0f);
  r[0] =
      _mm512_add_ps(_mm512_fnmadd_ps(c5, d[2], _mm512_mul_ps(c4, d[0])), d[4]);
  r[1] = _mm512_fnmadd_ps(c4, _mm512_add_ps(d[1], d[2]),
                          _mm512_add_ps(d[3], d[4]));
  r[2] =
      _mm512_fmadd_ps(c4, _mm512_sub_ps(d[1], d[2]), _mm512_sub_ps(d[4], d[3]));
  r[3] =
      _mm512_fmadd_ps(c2, _mm512_sub_ps(d[3], d[1]), _mm512_sub_ps(d[4], d[2]));
  r[4] =
      _mm512_fmadd_ps(c2, _mm512_sub_ps(d[1], d[3]), _mm512_sub_ps(d[4], d[2]));
  r[5] =
      _mm512_add_ps(_mm512_fnmadd_ps(c5, d[3], _mm512_mul_ps(c4, d[1])), d[5]);
}

// A^T over 6 registers into r[0..3].
static inline void kiln_wino_at16(const __m512 m[6], __m512 r[4]) {
  const __m512 c2 = _mm512_set1_ps(2.0f), c4 = _mm512_set1_ps(4.0f),
               c8 = _mm512_set1_ps(8.0f);
  __m512 s12 = _mm512_add_ps(m[1], m[2]), d12 = _mm512_sub_ps(m[1], m[2]);
  __m512 s34 = _mm512_add_ps(m[3], m[4]), d34 = _mm512_sub_ps(m[3], m[4]);
  r[0] = _mm512_add_ps(_mm512_add_ps(m[0], s12), s34);
  r[1] = _mm512_fmadd_ps(c2, d34, d12);
  r[2] = _mm512_fmadd_ps(c4, s34, s12);
  r[3] = _mm512_add_ps(_mm512_fmadd_ps(c8, d34, d12), m[5]);
}

// The 36 transformed points (B^T d B, point (u, x) at v[u * 6 + x]) of 16
// channels (|mask| of them real) of the 6 x 6 window at |base| (its (0, 0)
// pixel, channel applied). Window pixel (u, x) is read when bit u * 6 + x
// of |valid| is set, else it is the zero padding; |interior| (a constant at
// each call) says every bit is set, so the loads need no tests.
static inline __attribute__((always_inline)) void kiln_wino_input16(
    const float* base, int64_t stride_h, int64_t stride_w, uint64_t valid,
    const int interior, __mmask16 mask, __m512 v[36]) {
  __m512 tmp[36];
#pragma GCC unroll 6
  for (int x = 0; x < 6; ++x) {
    __m512 d[6], r[6];
#pragma GCC unroll 6
    for (int u = 0; u < 6; ++u) {
      const float* px = base + u * stride_h + x * stride_w;
      d[u] = interior || ((valid >> (u * 6 + x)) & 1)
                 ? _mm512_maskz_loadu_ps(mask, px)
                 : _mm512_setzero_ps();
    }
    kiln_wino_bt16(d, r);
#pragma GCC unroll 6
    for (int u = 0; u < 6; ++u) tmp[u * 6 + x] = r[u];
  }
#pragma GCC unroll 6
  for (int u = 0; u < 6; ++u) kiln_wino_bt16(tmp + u * 6, v + u * 6);
}

// Stores the 36 points of 16 channels at |o| (point q at q * stride).
static inline __attribute__((always_inline)) void kiln_wino_store16(
    float* o, int64_t stride, int row_major, __m512i lanes, __mmask16 mask,
    const __m512 v[36]) {
  for (int q = 0; q < 36; ++q) {
    if (row_major) {
      _mm512_mask_storeu_ps(o + q * stride, mask, v[q]);
    } else {
      _mm512_mask_i32scatter_ps(o + q * stride, mask, lanes, v[q], 4);
    }
  }
}

void kiln_ukernel_winograd_input_tile_avx512(
    const kiln_ukernel_winograd_input_params_t* p, int64_t i) {
  const int row_major = (p->flags & KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR);
  // Packed: consecutive channels tile_size0 floats apart (the scatter).
  const __m512i lanes = _mm512_mullo_epi32(
      _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
      _mm512_set1_epi32(p->tile_size0));
  const int64_t t = p->tile0 + i;
  const int64_t y0 = (t / p->tiles_w) * 4 - p->pad_top;
  const int64_t x0 = (t % p->tiles_w) * 4 - p->pad_left;
  // Which window pixels lie inside the image, once per tile.
  uint64_t valid = 0;
  for (int u = 0; u < 6; ++u) {
    for (int x = 0; x < 6; ++x) {
      const int64_t yy = y0 + u, xx = x0 + x;
      if (yy >= 0 && yy < p->h && xx >= 0 && xx < p->w) {
        valid |= 1ull << (u * 6 + x);
      }
    }
  }
  const int interior = valid == (1ull << 36) - 1;
  // The address of window pixel (0, 0), which may lie outside the image
  // (only pixels with their valid bit set are read); uintptr_t arithmetic
  // keeps the pointer computation defined.
  const float* base = (const float*)((uintptr_t)p->in +
                                     (uintptr_t)((y0 * p->in_stride_h +
                                                  x0 * p->in_stride_w + p->c0) *
                                                 (int64_t)sizeof(float)));
  const int64_t sh = p->in_stride_h, sw = p->in_stride_w;
  for (int64_t c = 0; c < p->kc; c += 16) {
    const int64_t n = p->kc - c < 16 ? p->kc - c : 16;
    const __mmask16 mask = (__mmask16)((1u << n) - 1u);
    __m512 v[36];
    if (interior) {
      kiln_wino_input16(base + c, sh, sw, valid, 1, mask, v);
    } else {
      kiln_wino_input16(base + c, sh, sw, valid, 0, mask, v);
    }
    kiln_wino_store16(p->out + kiln_ukernel_winograd_lhs_offset(p, i, c),
                      p->out_stride_point, row_major, lanes, mask, v);
  }
}

void kiln_ukernel_winograd_output_tile_avx512(
    const kiln_ukernel_winograd_output_params_t* p, int64_t i) {
  const int64_t t = p->tile0 + i;
  const int64_t y0 = (t / p->tiles_w) * 4, x0 = (t % p->tiles_w) * 4;
  const int64_t M0 = p->tile_size0;  // N0 is 16
  const int64_t rows = p->oh - y0 < 4 ? p->oh - y0 : 4;
  const int64_t cols4 = p->ow - x0 < 4 ? p->ow - x0 : 4;
  const float* in = p->in + (i / M0) * p->in_stride0 + (i % M0) * 16;
  for (int64_t f = 0; f < p->cols; f += 16) {
    const int64_t n = p->cols - f < 16 ? p->cols - f : 16;
    const __mmask16 mask = (__mmask16)((1u << n) - 1u);
    const float* m = in + (f / 16) * M0 * 16;
    // Unrolled so that the points go from their loads straight into the
    // first A^T pass in registers (a rolled loop copied them through the
    // stack).
    __m512 tmp[24];
#pragma GCC unroll 6
    for (int x = 0; x < 6; ++x) {
      __m512 mm[6], r[4];
#pragma GCC unroll 6
      for (int u = 0; u < 6; ++u) {
        mm[u] = _mm512_loadu_ps(m + (u * 6 + x) * p->in_stride_point);
      }
      kiln_wino_at16(mm, r);
#pragma GCC unroll 4
      for (int u = 0; u < 4; ++u) tmp[u * 6 + x] = r[u];
    }
    const __m512 bias = p->bias ? _mm512_maskz_loadu_ps(mask, p->bias + f)
                                : _mm512_setzero_ps();
    for (int u = 0; u < rows; ++u) {
      __m512 o[4];
      kiln_wino_at16(tmp + u * 6, o);
      float* row =
          p->out + (y0 + u) * p->out_stride_h + x0 * p->out_stride_w + f;
      for (int x = 0; x < cols4; ++x) {
        _mm512_mask_storeu_ps(row + x * p->out_stride_w, mask,
                              _mm512_add_ps(o[x], bias));
      }
    }
  }
}
