// Declarations shared by the ukernel sources: the per-ISA tile functions
// (each ISA's file is compiled with its own -m flags) and the per-ISA pack
// fast paths.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_INTERNAL_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_INTERNAL_H_

#include "runtime/builtins/ukernel/ukernel.h"

// Largest size or stride (elements) the kernels accept: with tile sizes
// <= 1024 no index product can overflow int64_t.
#define KILN_UKERNEL_MAX_EXTENT (1ll << 40)

// Unaligned, aliasing-safe scalar views of packed buffers.
typedef int32_t kiln_ukernel_unaligned_i32_t
    __attribute__((aligned(1), may_alias));

#define KILN_UKERNEL_DECLARE_TILE_FN(name)                                \
  void name(void* out_tile, const void* lhs_panel, const void* rhs_panel, \
            const kiln_ukernel_mmt4d_params_t* params)

// Portable C (mmt4d.c): any type and tile size.
KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_tile_generic);

// Element strides of an M0 x 16 kernel's OUT, packed tiles or rows
// (KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR): between the rows of a tile and
// between horizontally adjacent tiles.
static inline int64_t kiln_ukernel_x16_out_row(
    const kiln_ukernel_mmt4d_params_t* p) {
  return (p->flags & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR) ? p->out_stride1
                                                            : 16;
}
static inline int64_t kiln_ukernel_x16_out_tile(
    const kiln_ukernel_mmt4d_params_t* p, int M0) {
  return (p->flags & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR) ? 16 : 16 * M0;
}

// Where V_p(tile i, channel c) goes within point p's LHS, for either layout
// (ukernel_abi.h). Inline: the AVX-512 transform asks once per tile and 16
// channels.
static inline int64_t kiln_ukernel_winograd_lhs_offset(
    const kiln_ukernel_winograd_input_params_t* p, int64_t i, int64_t c) {
  const int64_t M0 = p->tile_size0;
  return (p->flags & KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR)
             ? i * p->kc + c
             : (i / M0) * p->kc * M0 + c * M0 + i % M0;
}
// winograd.c: one tile of the portable Winograd transforms (tile |i| of the
// call).
void kiln_ukernel_winograd_input_tile_generic(
    const kiln_ukernel_winograd_input_params_t* params, int64_t i);
void kiln_ukernel_winograd_output_tile_generic(
    const kiln_ukernel_winograd_output_params_t* params, int64_t i);

#if defined(__x86_64__)
// arch/x86_64/winograd_x86_64_avx512.c: the same, 16 channels at a time
// (the output transform needs tile_size1 == 16).
void kiln_ukernel_winograd_input_tile_avx512(
    const kiln_ukernel_winograd_input_params_t* params, int64_t i);
void kiln_ukernel_winograd_output_tile_avx512(
    const kiln_ukernel_winograd_output_params_t* params, int64_t i);

// arch/x86_64/mmt4d_x86_64_avx2.c: f32 and f16 inputs, 8x8x1 and skinny.
#define KILN_UKERNEL_X86_64_AVX2_M0S(X) X(1) X(2) X(4) X(8)
#define KILN_UKERNEL_DECLARE_AVX2(M0)                                   \
  KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_f32_##M0##x8x1_avx2); \
  KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_f16_##M0##x8x1_avx2);
KILN_UKERNEL_X86_64_AVX2_M0S(KILN_UKERNEL_DECLARE_AVX2)

// arch/x86_64/mmt4d_x86_64_avx512*.c: 16x16 tiles and skinny ones; for f32,
// s8 and bf16 also _3tiles: three adjacent N1 tiles at once (their RHS panels
// rhs_stride0 apart), which mmt4d prefers wherever three remain; for f32
// _2tiles too, for the two (or 2 + 2) left over. One-row tiles (M0 = 1) of
// the three types also have _8tiles, which mmt4d runs before the threes.
#define KILN_UKERNEL_X86_64_AVX512_M0S(X) X(1) X(2) X(4) X(8) X(16)
#define KILN_UKERNEL_DECLARE_AVX512(M0)                                       \
  KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_f32_##M0##x16x1_avx512);    \
  KILN_UKERNEL_DECLARE_TILE_FN(                                               \
      kiln_ukernel_mmt4d_f32_##M0##x16x1_2tiles_avx512);                      \
  KILN_UKERNEL_DECLARE_TILE_FN(                                               \
      kiln_ukernel_mmt4d_f32_##M0##x16x1_3tiles_avx512);                      \
  KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_f16_##M0##x16x1_avx512);    \
  KILN_UKERNEL_DECLARE_TILE_FN(                                               \
      kiln_ukernel_mmt4d_bf16_##M0##x16x2_avx512bf16);                        \
  KILN_UKERNEL_DECLARE_TILE_FN(                                               \
      kiln_ukernel_mmt4d_bf16_##M0##x16x2_3tiles_avx512bf16);                 \
  KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_s8_##M0##x16x4_avx512vnni); \
  KILN_UKERNEL_DECLARE_TILE_FN(                                               \
      kiln_ukernel_mmt4d_s8_##M0##x16x4_3tiles_avx512vnni);
KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_DECLARE_AVX512)
KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_f32_1x16x1_8tiles_avx512);
KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_bf16_1x16x2_8tiles_avx512bf16);
KILN_UKERNEL_DECLARE_TILE_FN(kiln_ukernel_mmt4d_s8_1x16x4_8tiles_avx512vnni);

// arch/x86_64/pack_x86_64_avx512.c: f32 pack of 16 x 1 tiles from a
// row-major source (the LHS of f32 mmt4d on AVX-512): transposes full
// 16 x 16 blocks of the source; returns the number of j1 tiles it wrote in
// each i1 row of full tiles (the caller packs the rest).
int64_t kiln_ukernel_pack_f32_16x1_avx512(
    const kiln_ukernel_pack_params_t* params, int64_t full_i1);
// Unpacks the |tile_rows| x |tile_cols| full 16 x 16 tiles of 4-byte
// elements (f32, s32) of |params|: each tile row is one 64-byte store.
void kiln_ukernel_unpack_x32_16x16_avx512(
    const kiln_ukernel_unpack_params_t* params, int64_t tile_rows,
    int64_t tile_cols);
// The mmt4d flags that apply a bias and an activation after the K steps.
#define KILN_UKERNEL_MMT4D_BIAS_FLAGS \
  (KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP | KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU)

// arch/x86_64/mmt4d_x86_64_avx512.c: KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP or
// _BIAS_SILU (|flags|) on |tiles| adjacent |rows| x 16 f32 tiles (rows
// |out_row| and tiles |out_tile| elements apart), |bias| their first
// column's bias.
void kiln_ukernel_bias_act_x16_avx512(float* out, const float* bias,
                                      int64_t tiles, int64_t rows,
                                      int64_t out_row, int64_t out_tile,
                                      uint32_t flags, float lo, float hi);

// arch/x86_64/pack_x86_64_avx512.c: one full 16-row tile of
// kiln_ukernel_pack_window for 4-byte elements, |poff| the 16 rows' image
// offsets: runs of unit-step taps go through 16 x 16 register transposes.
void kiln_ukernel_pack_window_x32_16_avx512(
    const kiln_ukernel_pack_window_params_t* params, const int64_t* poff,
    void* out_tile);
#endif  // __x86_64__

#endif  // KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_INTERNAL_H_
