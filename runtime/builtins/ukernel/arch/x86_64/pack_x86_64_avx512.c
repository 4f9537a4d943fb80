// AVX-512 pack of f32 16 x 1 tiles from a row-major source: each 16 x 16
// block of the source (16 rows, 16 columns) is transposed in registers and
// becomes 16 consecutive tiles. Compiled with the AVX-512 flags.
#include <immintrin.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

static inline __attribute__((always_inline)) void kiln_ukernel_transpose16(
    __m512* r) {
  __m512 u[16], v[16];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    u[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    u[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // v[4g + c], 128-bit lane L: column 4L + c of rows 4g .. 4g + 3.
#pragma GCC unroll 4
  for (int g = 0; g < 4; ++g) {
    __m512d a = _mm512_castps_pd(u[4 * g]), b = _mm512_castps_pd(u[4 * g + 1]);
    __m512d c = _mm512_castps_pd(u[4 * g + 2]),
            d = _mm512_castps_pd(u[4 * g + 3]);
    v[4 * g + 0] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    v[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    v[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    v[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  // Gather lane L of v[c], v[4 + c], v[8 + c], v[12 + c] into column 4L + c.
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    __m512 x = _mm512_shuffle_f32x4(v[c], v[4 + c], _MM_SHUFFLE(2, 0, 2, 0));
    __m512 y = _mm512_shuffle_f32x4(v[c], v[4 + c], _MM_SHUFFLE(3, 1, 3, 1));
    __m512 x2 =
        _mm512_shuffle_f32x4(v[8 + c], v[12 + c], _MM_SHUFFLE(2, 0, 2, 0));
    __m512 y2 =
        _mm512_shuffle_f32x4(v[8 + c], v[12 + c], _MM_SHUFFLE(3, 1, 3, 1));
    r[c] = _mm512_shuffle_f32x4(x, x2, _MM_SHUFFLE(2, 0, 2, 0));
    r[8 + c] = _mm512_shuffle_f32x4(x, x2, _MM_SHUFFLE(3, 1, 3, 1));
    r[4 + c] = _mm512_shuffle_f32x4(y, y2, _MM_SHUFFLE(2, 0, 2, 0));
    r[12 + c] = _mm512_shuffle_f32x4(y, y2, _MM_SHUFFLE(3, 1, 3, 1));
  }
}

int64_t kiln_ukernel_pack_f32_16x1_avx512(const kiln_ukernel_pack_params_t* p,
                                          int64_t full_i1) {
  // Whole 16-column blocks inside both the source and the tiles to write.
  int64_t columns = p->in_size1 < p->out_size1 ? p->in_size1 : p->out_size1;
  const int64_t blocks = columns / 16;
  const float* in = (const float*)p->in;
  float* out = (float*)p->out;
  for (int64_t i1 = 0; i1 < full_i1; ++i1) {
    const float* src = in + i1 * 16 * p->in_stride0;
    float* dst = out + i1 * p->out_stride0;
    for (int64_t b = 0; b < blocks; ++b) {
      __m512 r[16];
#pragma GCC unroll 16
      for (int i = 0; i < 16; ++i) {
        r[i] = _mm512_loadu_ps(src + i * p->in_stride0 + 16 * b);
      }
      kiln_ukernel_transpose16(r);
#pragma GCC unroll 16
      for (int j = 0; j < 16; ++j) {
        _mm512_storeu_ps(dst + (16 * b + j) * 16, r[j]);
      }
    }
  }
  return blocks * 16;
}

void kiln_ukernel_unpack_x32_16x16_avx512(const kiln_ukernel_unpack_params_t* p,
                                          int64_t tile_rows,
                                          int64_t tile_cols) {
  for (int64_t i1 = 0; i1 < tile_rows; ++i1) {
    const float* in = (const float*)p->in + i1 * p->in_stride0;
    float* out = (float*)p->out + i1 * 16 * p->out_stride0;
    for (int64_t j1 = 0; j1 < tile_cols; ++j1, in += 256) {
#pragma GCC unroll 16
      for (int i0 = 0; i0 < 16; ++i0) {
        _mm512_storeu_ps(out + i0 * p->out_stride0 + 16 * j1,
                         _mm512_loadu_ps(in + 16 * i0));
      }
    }
  }
}

void kiln_ukernel_pack_window_x32_16_avx512(
    const kiln_ukernel_pack_window_params_t* p, const int64_t* poff,
    void* out_tile) {
  const float* in = (const float*)p->in;
  float* out = (float*)out_tile;
  int64_t c2 = p->k0 % p->ext[2];
  int64_t c1 = (p->k0 / p->ext[2]) % p->ext[1];
  int64_t c0 = p->k0 / (p->ext[2] * p->ext[1]);
  int64_t j = 0;
  while (j < p->kc) {
    const int64_t koff = c0 * p->step[0] + c1 * p->step[1] + c2 * p->step[2];
    // The taps left in this innermost run (consecutive c2).
    int64_t run = p->ext[2] - c2;
    if (run > p->kc - j) run = p->kc - j;
    if (p->step[2] == 1) {
      // 16 rows x up to 16 consecutive elements: transpose into up to 16
      // tile rows (masked loads for a short run read nothing past it).
      for (int64_t b = 0; b < run; b += 16) {
        int64_t len = run - b < 16 ? run - b : 16;
        __mmask16 mask = (__mmask16)((1u << len) - 1u);
        __m512 r[16];
#pragma GCC unroll 16
        for (int i = 0; i < 16; ++i) {
          r[i] = _mm512_maskz_loadu_ps(mask, in + poff[i] + koff + b);
        }
        kiln_ukernel_transpose16(r);
        // Unrolled with constant indices so that r stays in registers (a
        // variable index spilled it and copied it with rep movs).
        float* dst = out + (j + b) * 16;
#pragma GCC unroll 16
        for (int t = 0; t < 16; ++t) {
          if (t < len) _mm512_storeu_ps(dst + t * 16, r[t]);
        }
      }
    } else {
      for (int64_t t = 0; t < run; ++t) {
        float* dst = out + (j + t) * 16;
        const float* src = in + koff + t * p->step[2];
        for (int i = 0; i < 16; ++i) dst[i] = src[poff[i]];
      }
    }
    j += run;
    c2 += run;
    if (c2 == p->ext[2]) {
      c2 = 0;
      if (++c1 == p->ext[1]) c1 = 0, ++c0;
    }
  }
}
