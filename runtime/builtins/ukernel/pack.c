// pack and unpack: layout changes between row-major matrices and the tiled
// mmt4d operands, for every element size, with padding (pack) and clipping
// (unpack). Full tiles take unchecked loops; an AVX-512 transpose packs f32
// 16 x 1 LHS tiles.
#include <stdint.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

static int kiln_ukernel_pack_check(const kiln_ukernel_pack_params_t* p) {
  if (!p || !kiln_ukernel_elem_size(p->elem_type)) return 0;
  if (p->tile_size0 < 1 || p->tile_size1 < 1 || p->tile_size0 > 1024 ||
      p->tile_size1 > 1024) {
    return 0;
  }
  if (p->in_size0 < 0 || p->in_size1 < 0 || p->out_size0 < 0 ||
      p->out_size1 < 0) {
    return 0;
  }
  if (p->in_size0 > KILN_UKERNEL_MAX_EXTENT ||
      p->in_size1 > KILN_UKERNEL_MAX_EXTENT ||
      p->out_size0 > KILN_UKERNEL_MAX_EXTENT ||
      p->out_size1 > KILN_UKERNEL_MAX_EXTENT ||
      p->in_stride0 > KILN_UKERNEL_MAX_EXTENT ||
      p->out_stride0 > KILN_UKERNEL_MAX_EXTENT) {
    return 0;
  }
  if (p->flags & ~KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE) return 0;
  if (p->out_size0 == 0 || p->out_size1 == 0) return 1;
  if (!p->out) return 0;
  if (p->out_stride0 < p->out_size1 * (int64_t)p->tile_size0 * p->tile_size1) {
    return 0;
  }
  if (p->in_size0 == 0 || p->in_size1 == 0) return 1;
  if (!p->in) return 0;
  const int transpose = (p->flags & KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE);
  if (p->in_stride0 < (transpose ? p->in_size0 : p->in_size1)) return 0;
  return 1;
}

// Packs tiles [i1_begin, i1_end) x [j1_begin, out_size1) of one element
// type; out-of-source elements get |pad|.
#define KILN_UKERNEL_DEFINE_PACK(elem_t)                                     \
  static void kiln_ukernel_pack_##elem_t(                                    \
      const kiln_ukernel_pack_params_t* p, int64_t i1_begin, int64_t i1_end, \
      int64_t j1_begin_full, int64_t full_i1_end) {                          \
    const elem_t* in = (const elem_t*)p->in;                                 \
    elem_t* out_base = (elem_t*)p->out;                                      \
    const elem_t pad = (elem_t)p->padding_value;                             \
    const int64_t t0 = p->tile_size0, t1 = p->tile_size1;                    \
    const int64_t s = p->in_stride0;                                         \
    const int transpose =                                                    \
        (p->flags & KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE) != 0;           \
    /* Element (r, c) of the logical source is at in[r * rs + c * cs]. */    \
    const int64_t rs = transpose ? 1 : s, cs = transpose ? s : 1;            \
    for (int64_t i1 = i1_begin; i1 < i1_end; ++i1) {                         \
      const int64_t r0 = i1 * t0;                                            \
      const int64_t j1_begin = i1 < full_i1_end ? j1_begin_full : 0;         \
      elem_t* out = out_base + i1 * p->out_stride0 + j1_begin * t0 * t1;     \
      for (int64_t j1 = j1_begin; j1 < p->out_size1; ++j1, out += t0 * t1) { \
        const int64_t c0 = j1 * t1;                                          \
        if (r0 + t0 <= p->in_size0 && c0 + t1 <= p->in_size1) {              \
          const elem_t* src = in + r0 * rs + c0 * cs;                        \
          if (t1 == 1 && transpose) {                                        \
            /* A column of the stored matrix: a contiguous copy (rs == 1     \
               spelled out so that the compiler vectorizes it). */           \
            for (int64_t i0 = 0; i0 < t0; ++i0) out[i0] = src[i0];           \
          } else if (t1 == 1) {                                              \
            for (int64_t i0 = 0; i0 < t0; ++i0) out[i0] = src[i0 * rs];      \
          } else if (transpose) {                                            \
            for (int64_t j0 = 0; j0 < t1; ++j0) {                            \
              for (int64_t i0 = 0; i0 < t0; ++i0) {                          \
                out[i0 * t1 + j0] = src[j0 * s + i0];                        \
              }                                                              \
            }                                                                \
          } else {                                                           \
            for (int64_t i0 = 0; i0 < t0; ++i0) {                            \
              for (int64_t j0 = 0; j0 < t1; ++j0) {                          \
                out[i0 * t1 + j0] = src[i0 * s + j0];                        \
              }                                                              \
            }                                                                \
          }                                                                  \
          continue;                                                          \
        }                                                                    \
        for (int64_t i0 = 0; i0 < t0; ++i0) {                                \
          for (int64_t j0 = 0; j0 < t1; ++j0) {                              \
            const int64_t r = r0 + i0, c = c0 + j0;                          \
            out[i0 * t1 + j0] = (r < p->in_size0 && c < p->in_size1)         \
                                    ? in[r * rs + c * cs]                    \
                                    : pad;                                   \
          }                                                                  \
        }                                                                    \
      }                                                                      \
    }                                                                        \
  }
KILN_UKERNEL_DEFINE_PACK(uint8_t)
KILN_UKERNEL_DEFINE_PACK(uint16_t)
KILN_UKERNEL_DEFINE_PACK(uint32_t)
#undef KILN_UKERNEL_DEFINE_PACK

// Full tiles [0, full_i1) x [0, full_j1) of 4-byte elements from a
// transposed source with tile_size1 == 1 (the RHS of a row-major K x N
// matrix): each tile row is a run of t0 consecutive elements of one stored
// row. Walking the stored rows in order (every tile's run of a row, then
// the next row) reads the source sequentially; tile by tile it jumps a
// whole stored row per run, which made packing large weights
// latency-bound.
static void kiln_ukernel_pack_x32_columns(const kiln_ukernel_pack_params_t* p,
                                          int64_t full_i1, int64_t full_j1) {
  const uint32_t* in = (const uint32_t*)p->in;
  uint32_t* out = (uint32_t*)p->out;
  const int64_t t0 = p->tile_size0, s = p->in_stride0;
  const int64_t os = p->out_stride0;
  for (int64_t j1 = 0; j1 < full_j1; ++j1) {
    const uint32_t* src = in + j1 * s;
    uint32_t* dst = out + j1 * t0;
    if (t0 == 16) {
      // Constant-size copies: the compiler inlines them as vector moves
      // (no libc call: the object imports no memcpy).
      for (int64_t i1 = 0; i1 < full_i1; ++i1) {
        __builtin_memcpy(dst + i1 * os, src + i1 * 16, 64);
      }
    } else if (t0 == 8) {
      for (int64_t i1 = 0; i1 < full_i1; ++i1) {
        __builtin_memcpy(dst + i1 * os, src + i1 * 8, 32);
      }
    } else {
      for (int64_t i1 = 0; i1 < full_i1; ++i1) {
        for (int64_t i0 = 0; i0 < t0; ++i0) {
          dst[i1 * os + i0] = src[i1 * t0 + i0];
        }
      }
    }
  }
}

int kiln_ukernel_pack(const kiln_ukernel_pack_params_t* params) {
  if (!kiln_ukernel_pack_check(params)) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  const kiln_ukernel_pack_params_t* p = params;
  if (p->out_size0 == 0 || p->out_size1 == 0) return KILN_UKERNEL_OK;
  int64_t full_i1 = 0, full_j1 = 0;
  const size_t es = kiln_ukernel_elem_size(p->elem_type);
#if defined(__x86_64__)
  // LHS tiles of 16 rows whose row segment is 4 bytes (f32 16x1, bf16/f16
  // 16x2, s8 16x4) are a 16 x 1 pack of 4-byte elements: the AVX-512
  // transpose packs their full 16 x 16 blocks.
  if (p->tile_size0 == 16 && es * (size_t)p->tile_size1 == 4 &&
      !(p->flags & KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE) &&
      (p->in_stride0 * (int64_t)es) % 4 == 0 &&
      (p->out_stride0 * (int64_t)es) % 4 == 0 &&
      kiln_ukernel_has_features(p->cpu_features,
                                KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
    kiln_ukernel_pack_params_t words = *p;
    words.in_stride0 = p->in_stride0 * (int64_t)es / 4;
    words.out_stride0 = p->out_stride0 * (int64_t)es / 4;
    words.in_size1 = p->in_size1 / p->tile_size1;  // whole 4-byte segments
    words.tile_size1 = 1;
    words.elem_type = KILN_UKERNEL_ELEM_F32;
    full_i1 = p->in_size0 / 16;
    if (full_i1 > p->out_size0) full_i1 = p->out_size0;
    full_j1 = kiln_ukernel_pack_f32_16x1_avx512(&words, full_i1);
  }
#endif
  if (p->tile_size1 == 1 && es == 4 &&
      (p->flags & KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE)) {
    full_i1 = p->in_size0 / p->tile_size0;
    if (full_i1 > p->out_size0) full_i1 = p->out_size0;
    full_j1 = p->in_size1 < p->out_size1 ? p->in_size1 : p->out_size1;
    kiln_ukernel_pack_x32_columns(p, full_i1, full_j1);
  }
  switch (kiln_ukernel_elem_size(p->elem_type)) {
    case 1:
      kiln_ukernel_pack_uint8_t(p, 0, p->out_size0, full_j1, full_i1);
      break;
    case 2:
      kiln_ukernel_pack_uint16_t(p, 0, p->out_size0, full_j1, full_i1);
      break;
    default:
      kiln_ukernel_pack_uint32_t(p, 0, p->out_size0, full_j1, full_i1);
      break;
  }
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_pack_import(void* context, void* params, void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_pack((const kiln_ukernel_pack_params_t*)params);
}

//===----------------------------------------------------------------------===//
// unpack
//===----------------------------------------------------------------------===//

static int kiln_ukernel_unpack_check(const kiln_ukernel_unpack_params_t* p) {
  if (!p || !kiln_ukernel_elem_size(p->elem_type)) return 0;
  if (p->tile_size0 < 1 || p->tile_size1 < 1 || p->tile_size0 > 1024 ||
      p->tile_size1 > 1024 || p->flags != 0) {
    return 0;
  }
  if (p->out_size0 < 0 || p->out_size1 < 0) return 0;
  if (p->out_size0 > KILN_UKERNEL_MAX_EXTENT ||
      p->out_size1 > KILN_UKERNEL_MAX_EXTENT ||
      p->in_stride0 > KILN_UKERNEL_MAX_EXTENT ||
      p->out_stride0 > KILN_UKERNEL_MAX_EXTENT) {
    return 0;
  }
  if (p->out_size0 == 0 || p->out_size1 == 0) return 1;
  if (!p->in || !p->out) return 0;
  if (p->out_stride0 < p->out_size1) return 0;
  const int64_t tiles1 = (p->out_size1 + p->tile_size1 - 1) / p->tile_size1;
  if (p->in_stride0 < tiles1 * p->tile_size0 * p->tile_size1) return 0;
  return 1;
}

// Unpacks every row; rows below |done_rows| start at column |done_cols|
// (a fast path wrote the columns before it).
#define KILN_UKERNEL_DEFINE_UNPACK(elem_t)                                 \
  static void kiln_ukernel_unpack_##elem_t(                                \
      const kiln_ukernel_unpack_params_t* p, int64_t done_rows,            \
      int64_t done_cols) {                                                 \
    const int64_t t0 = p->tile_size0, t1 = p->tile_size1;                  \
    for (int64_t r = 0; r < p->out_size0; ++r) {                           \
      int64_t c = r < done_rows ? done_cols : 0;                           \
      const elem_t* in = (const elem_t*)p->in + (r / t0) * p->in_stride0 + \
                         (c / t1) * t0 * t1 + (r % t0) * t1;               \
      elem_t* out = (elem_t*)p->out + r * p->out_stride0;                  \
      for (; c + t1 <= p->out_size1; c += t1, in += t0 * t1) {             \
        for (int64_t j0 = 0; j0 < t1; ++j0) out[c + j0] = in[j0];          \
      }                                                                    \
      for (int64_t j0 = 0; c + j0 < p->out_size1; ++j0) {                  \
        out[c + j0] = in[j0];                                              \
      }                                                                    \
    }                                                                      \
  }
KILN_UKERNEL_DEFINE_UNPACK(uint8_t)
KILN_UKERNEL_DEFINE_UNPACK(uint16_t)
KILN_UKERNEL_DEFINE_UNPACK(uint32_t)
#undef KILN_UKERNEL_DEFINE_UNPACK

int kiln_ukernel_unpack(const kiln_ukernel_unpack_params_t* params) {
  if (!kiln_ukernel_unpack_check(params)) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  const kiln_ukernel_unpack_params_t* p = params;
  if (p->out_size0 == 0 || p->out_size1 == 0) return KILN_UKERNEL_OK;
  int64_t done_rows = 0, done_cols = 0;
#if defined(__x86_64__)
  if (kiln_ukernel_elem_size(p->elem_type) == 4 && p->tile_size0 == 16 &&
      p->tile_size1 == 16 &&
      kiln_ukernel_has_features(p->cpu_features,
                                KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
    done_rows = p->out_size0 / 16 * 16;
    done_cols = p->out_size1 / 16 * 16;
    kiln_ukernel_unpack_x32_16x16_avx512(p, done_rows / 16, done_cols / 16);
  }
#endif
  switch (kiln_ukernel_elem_size(p->elem_type)) {
    case 1:
      kiln_ukernel_unpack_uint8_t(p, done_rows, done_cols);
      break;
    case 2:
      kiln_ukernel_unpack_uint16_t(p, done_rows, done_cols);
      break;
    default:
      kiln_ukernel_unpack_uint32_t(p, done_rows, done_cols);
      break;
  }
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_unpack_import(void* context, void* params, void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_unpack((const kiln_ukernel_unpack_params_t*)params);
}
