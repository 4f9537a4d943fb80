// Winograd F(4x4, 3x3) input and output transforms (ukernel_abi.h): the
// argument checks, the portable C loops and the dispatch to the AVX-512
// variants (arch/x86_64/winograd_x86_64_avx512.c).
#include <stdint.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

static int kiln_ukernel_winograd_input_check(
    const kiln_ukernel_winograd_input_params_t* p) {
  const int64_t max = KILN_UKERNEL_MAX_EXTENT;
  if (!p || (p->flags & ~KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR) ||
      p->tile_size0 < 1 || p->tile_size0 > 64) {
    return 0;
  }
  if (p->h < 0 || p->w < 0 || p->tiles_w < 1 || p->tile0 < 0 || p->tiles < 0 ||
      p->out_size0 < 0 || p->c0 < 0 || p->kc < 0 || p->h > max || p->w > max ||
      p->tiles_w > max || p->tile0 > max || p->out_size0 > max || p->c0 > max ||
      p->kc > max || p->pad_top > max || p->pad_top < -max ||
      p->pad_left > max || p->pad_left < -max || p->in_stride_h > max ||
      p->in_stride_h < -max || p->in_stride_w > max || p->in_stride_w < -max ||
      p->out_stride_point > max) {
    return 0;
  }
  if (p->tiles > p->out_size0 * p->tile_size0) return 0;
  if (p->out_size0 == 0 || p->kc == 0) return 1;
  if (!p->out || p->out_stride_point < p->out_size0 * p->kc * p->tile_size0) {
    return 0;
  }
  if (p->tiles && p->h && p->w && !p->in) return 0;
  return 1;
}

static int kiln_ukernel_winograd_output_check(
    const kiln_ukernel_winograd_output_params_t* p) {
  const int64_t max = KILN_UKERNEL_MAX_EXTENT;
  if (!p || p->flags || p->reserved || p->tile_size0 < 1 ||
      p->tile_size0 > 64 || p->tile_size1 < 1 || p->tile_size1 > 64) {
    return 0;
  }
  if (p->oh < 0 || p->ow < 0 || p->tiles_w < 1 || p->tile0 < 0 ||
      p->tiles < 0 || p->cols < 0 || p->oh > max || p->ow > max ||
      p->tiles_w > max || p->tile0 > max || p->tiles > max || p->cols > max ||
      p->in_stride_point > max || p->in_stride0 > max ||
      p->out_stride_h > max || p->out_stride_h < -max ||
      p->out_stride_w > max || p->out_stride_w < -max) {
    return 0;
  }
  if (p->tiles == 0 || p->cols == 0) return 1;
  const int64_t n1 = (p->cols + p->tile_size1 - 1) / p->tile_size1;
  if (!p->in || !p->out || p->in_stride0 < n1 * p->tile_size0 * p->tile_size1 ||
      p->in_stride_point <
          (p->tiles + p->tile_size0 - 1) / p->tile_size0 * p->in_stride0) {
    return 0;
  }
  return 1;
}

// One 1-D B^T pass over 6 values |stride| apart in |d|, into |r|.
#define KILN_UKERNEL_WINO_BT(r, rs, d, ds)                                     \
  do {                                                                         \
    float d0 = (d)[0], d1 = (d)[(ds)], d2 = (d)[2 * (ds)], d3 = (d)[3 * (ds)], \
          d4 = (d)[4 * (ds)], d5 = (d)[5 * (ds)];                              \
    (r)[0] = 4.0f * d0 - 5.0f * d2 + d4;                                       \
    (r)[(rs)] = -4.0f * (d1 + d2) + (d3 + d4);                                 \
    (r)[2 * (rs)] = 4.0f * (d1 - d2) + (d4 - d3);                              \
    (r)[3 * (rs)] = 2.0f * (d3 - d1) + (d4 - d2);                              \
    (r)[4 * (rs)] = 2.0f * (d1 - d3) + (d4 - d2);                              \
    (r)[5 * (rs)] = 4.0f * d1 - 5.0f * d3 + d5;                                \
  } while (0)

// One 1-D A^T pass: 6 values |ds| apart in |m| to 4 values |rs| apart.
#define KILN_UKERNEL_WINO_AT(r, rs, m, ds)                                     \
  do {                                                                         \
    float m0 = (m)[0], m1 = (m)[(ds)], m2 = (m)[2 * (ds)], m3 = (m)[3 * (ds)], \
          m4 = (m)[4 * (ds)], m5 = (m)[5 * (ds)];                              \
    float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;          \
    (r)[0] = m0 + s12 + s34;                                                   \
    (r)[(rs)] = d12 + 2.0f * d34;                                              \
    (r)[2 * (rs)] = s12 + 4.0f * s34;                                          \
    (r)[3 * (rs)] = d12 + 8.0f * d34 + m5;                                     \
  } while (0)

void kiln_ukernel_winograd_input_tile_generic(
    const kiln_ukernel_winograd_input_params_t* p, int64_t i) {
  const int64_t t = p->tile0 + i;
  const int64_t y0 = (t / p->tiles_w) * 4 - p->pad_top;
  const int64_t x0 = (t % p->tiles_w) * 4 - p->pad_left;
  for (int64_t c = 0; c < p->kc; ++c) {
    float* out = p->out + kiln_ukernel_winograd_lhs_offset(p, i, c);
    float d[36], tmp[36], v[36];
    for (int u = 0; u < 6; ++u) {
      for (int x = 0; x < 6; ++x) {
        int64_t yy = y0 + u, xx = x0 + x;
        d[u * 6 + x] =
            yy >= 0 && yy < p->h && xx >= 0 && xx < p->w
                ? p->in[yy * p->in_stride_h + xx * p->in_stride_w + p->c0 + c]
                : 0.0f;
      }
    }
    for (int x = 0; x < 6; ++x) KILN_UKERNEL_WINO_BT(tmp + x, 6, d + x, 6);
    for (int u = 0; u < 6; ++u)
      KILN_UKERNEL_WINO_BT(v + u * 6, 1, tmp + u * 6, 1);
    for (int q = 0; q < 36; ++q) out[q * p->out_stride_point] = v[q];
  }
}

void kiln_ukernel_winograd_output_tile_generic(
    const kiln_ukernel_winograd_output_params_t* p, int64_t i) {
  const int64_t t = p->tile0 + i;
  const int64_t y0 = (t / p->tiles_w) * 4, x0 = (t % p->tiles_w) * 4;
  const int64_t M0 = p->tile_size0, N0 = p->tile_size1;
  const float* in = p->in + (i / M0) * p->in_stride0 + (i % M0) * N0;
  for (int64_t f = 0; f < p->cols; ++f) {
    const float* m = in + (f / N0) * M0 * N0 + f % N0;
    float mm[36], tmp[24], o[16];
    for (int q = 0; q < 36; ++q) mm[q] = m[q * p->in_stride_point];
    for (int x = 0; x < 6; ++x) KILN_UKERNEL_WINO_AT(tmp + x, 6, mm + x, 6);
    for (int u = 0; u < 4; ++u)
      KILN_UKERNEL_WINO_AT(o + u * 4, 1, tmp + u * 6, 1);
    const float bias = p->bias ? p->bias[f] : 0.0f;
    for (int u = 0; u < 4; ++u) {
      for (int x = 0; x < 4; ++x) {
        if (y0 + u < p->oh && x0 + x < p->ow) {
          p->out[(y0 + u) * p->out_stride_h + (x0 + x) * p->out_stride_w + f] =
              o[u * 4 + x] + bias;
        }
      }
    }
  }
}

int kiln_ukernel_winograd_input(
    const kiln_ukernel_winograd_input_params_t* params) {
  if (!kiln_ukernel_winograd_input_check(params)) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  const kiln_ukernel_winograd_input_params_t* p = params;
  if (p->out_size0 == 0 || p->kc == 0) return KILN_UKERNEL_OK;
  const int64_t M0 = p->tile_size0;
  // Rows past |tiles| are padding: zero, so the matmul adds nothing.
  // Row-major, they are one run of each point's rows (up to 15 x 36 x kc
  // floats in the last workgroup: an element-by-element offset computation
  // took 3-4% of DenseNet-121).
  const int64_t rows = p->out_size0 * M0;
  if (p->flags & KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR) {
    for (int q = 0; q < 36 && p->tiles < rows; ++q) {
      float* run = p->out + q * p->out_stride_point + p->tiles * p->kc;
      for (int64_t e = 0; e < (rows - p->tiles) * p->kc; ++e) run[e] = 0.0f;
    }
  } else {
    for (int64_t i = p->tiles; i < rows; ++i) {
      for (int q = 0; q < 36; ++q) {
        for (int64_t c = 0; c < p->kc; ++c) {
          p->out[q * p->out_stride_point +
                 kiln_ukernel_winograd_lhs_offset(p, i, c)] = 0.0f;
        }
      }
    }
  }
#if defined(__x86_64__)
  if (kiln_ukernel_has_features(p->cpu_features,
                                KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
    for (int64_t i = 0; i < p->tiles; ++i) {
      kiln_ukernel_winograd_input_tile_avx512(p, i);
    }
    return KILN_UKERNEL_OK;
  }
#endif
  for (int64_t i = 0; i < p->tiles; ++i) {
    kiln_ukernel_winograd_input_tile_generic(p, i);
  }
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_winograd_output(
    const kiln_ukernel_winograd_output_params_t* params) {
  if (!kiln_ukernel_winograd_output_check(params)) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  const kiln_ukernel_winograd_output_params_t* p = params;
#if defined(__x86_64__)
  if (p->tile_size1 == 16 &&
      kiln_ukernel_has_features(p->cpu_features,
                                KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
    for (int64_t i = 0; i < p->tiles; ++i) {
      kiln_ukernel_winograd_output_tile_avx512(p, i);
    }
    return KILN_UKERNEL_OK;
  }
#endif
  for (int64_t i = 0; i < p->tiles; ++i) {
    kiln_ukernel_winograd_output_tile_generic(p, i);
  }
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_winograd_input_import(void* context, void* params,
                                       void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_winograd_input(
      (const kiln_ukernel_winograd_input_params_t*)params);
}

int kiln_ukernel_winograd_output_import(void* context, void* params,
                                        void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_winograd_output(
      (const kiln_ukernel_winograd_output_params_t*)params);
}
