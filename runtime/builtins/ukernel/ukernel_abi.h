// The micro-kernel ABI: parameter structs, flags and the tile-size table of
// kiln's packed matmul kernels (mmt4d), pack and unpack. Generated code
// includes this header and passes pointers to these structs to the runtime's
// imports "kiln_ukernel_mmt4d", "kiln_ukernel_pack" and "kiln_ukernel_unpack"
// (kiln_hal_executable_import_fn_t: the |params| argument); the runtime calls
// the same functions directly (runtime/builtins/ukernel/ukernel.h). It
// depends only on <stdint.h> and <stddef.h>.
//
// Layouts (all sizes and strides in elements, not bytes):
//   LHS  [M1][K1][M0][K0]   a packed M x K matrix
//   RHS  [N1][K1][N0][K0]   a packed K x N matrix, transposed (N x K)
//   OUT  [M1][N1][M0][N0]   the packed M x N result
// out[m1][n1][m0][n0] (+)= sum over k1, k0 of
//   lhs[m1][k1][m0][k0] * rhs[n1][k1][n0][k0]
// The stride0 fields are the distance between consecutive M1 (LHS, OUT) or
// N1 (RHS) rows, so a caller can run a sub-block of a larger packed matrix.
//
// Threading: the kernels keep no state; any number of calls may run at once
// on disjoint outputs.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_ABI_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Import names the runtime resolves (kiln_hal_lookup_builtin_import).
#define KILN_UKERNEL_IMPORT_MMT4D "kiln_ukernel_mmt4d"
#define KILN_UKERNEL_IMPORT_PACK "kiln_ukernel_pack"
#define KILN_UKERNEL_IMPORT_UNPACK "kiln_ukernel_unpack"
#define KILN_UKERNEL_IMPORT_PACK_WINDOW "kiln_ukernel_pack_window"
#define KILN_UKERNEL_IMPORT_WINOGRAD_INPUT "kiln_ukernel_winograd_input"
#define KILN_UKERNEL_IMPORT_WINOGRAD_OUTPUT "kiln_ukernel_winograd_output"
#define KILN_UKERNEL_IMPORT_BIAS_ACT "kiln_ukernel_bias_act"

// Return values of the kernels (and of the imports).
#define KILN_UKERNEL_OK 0
// A size, stride, type or tile size the kernel cannot handle.
#define KILN_UKERNEL_ERROR_INVALID_ARGUMENT 1

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

// Operand/result type combinations of mmt4d (LHS x RHS -> OUT).
typedef enum kiln_ukernel_mmt4d_type_e {
  KILN_UKERNEL_MMT4D_F32F32F32 = 1,
  KILN_UKERNEL_MMT4D_F16F16F32 = 2,
  KILN_UKERNEL_MMT4D_BF16BF16F32 = 3,
  KILN_UKERNEL_MMT4D_S8S8S32 = 4,
} kiln_ukernel_mmt4d_type_t;

// Element types of pack and unpack (only their size matters to the layout).
typedef enum kiln_ukernel_elem_type_e {
  KILN_UKERNEL_ELEM_F32 = 1,
  KILN_UKERNEL_ELEM_F16 = 2,
  KILN_UKERNEL_ELEM_BF16 = 3,
  KILN_UKERNEL_ELEM_S8 = 4,
  KILN_UKERNEL_ELEM_S32 = 5,
} kiln_ukernel_elem_type_t;

// Bytes of one element; 0 for an unknown type.
static inline size_t kiln_ukernel_elem_size(uint32_t elem_type) {
  switch (elem_type) {
    case KILN_UKERNEL_ELEM_F32:
    case KILN_UKERNEL_ELEM_S32:
      return 4;
    case KILN_UKERNEL_ELEM_F16:
    case KILN_UKERNEL_ELEM_BF16:
      return 2;
    case KILN_UKERNEL_ELEM_S8:
      return 1;
    default:
      return 0;
  }
}

// The LHS/RHS and OUT element types of an mmt4d type; 0 for an unknown one.
static inline uint32_t kiln_ukernel_mmt4d_input_elem(uint32_t type) {
  switch (type) {
    case KILN_UKERNEL_MMT4D_F32F32F32:
      return KILN_UKERNEL_ELEM_F32;
    case KILN_UKERNEL_MMT4D_F16F16F32:
      return KILN_UKERNEL_ELEM_F16;
    case KILN_UKERNEL_MMT4D_BF16BF16F32:
      return KILN_UKERNEL_ELEM_BF16;
    case KILN_UKERNEL_MMT4D_S8S8S32:
      return KILN_UKERNEL_ELEM_S8;
    default:
      return 0;
  }
}
static inline uint32_t kiln_ukernel_mmt4d_output_elem(uint32_t type) {
  switch (type) {
    case KILN_UKERNEL_MMT4D_F32F32F32:
    case KILN_UKERNEL_MMT4D_F16F16F32:
    case KILN_UKERNEL_MMT4D_BF16BF16F32:
      return KILN_UKERNEL_ELEM_F32;
    case KILN_UKERNEL_MMT4D_S8S8S32:
      return KILN_UKERNEL_ELEM_S32;
    default:
      return 0;
  }
}

//===----------------------------------------------------------------------===//
// mmt4d
//===----------------------------------------------------------------------===//

// Add the product into OUT (its current values are read) instead of
// overwriting OUT (its current values are ignored).
#define KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE (1u << 0)
// f32 with K0 = 1 only. The LHS is read in place from a row-major M x K
// matrix instead of packed tiles: element (m1 * M0 + m0, k1) at
// lhs[m1 * lhs_stride0 + m0 * lhs_stride1 + k1] (so lhs_stride0 is usually
// M0 * lhs_stride1). Saves packing an operand that is read once per
// column block (a convolution's activations).
#define KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR (1u << 1)
// f32, s8 and bf16 (not f16). OUT is a row-major M x N matrix instead of
// packed tiles:
// element (m1 * M0 + m0, n1 * N0 + n0) at out[m1 * out_stride0 + m0 *
// out_stride1 + n1 * N0 + n0]. Every M1 x N1 tile is written whole, so the
// caller passes full tiles only (the unpack pass and its copy disappear).
#define KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR (1u << 2)
// f32 only. After its K steps every OUT element (row m, column n) becomes
// clamp(v + bias[n], clamp_lo, clamp_hi): t = v + bias[n]; r = t > lo ? t
// : lo; r = r < hi ? r : hi; a NaN t gives t + lo (quiet). Exactly the
// scalar ops of a bias add then a ReLU / clip epilogue (lo = -inf and hi =
// +inf leave t as it is), applied while the tiles are hot, so the caller's
// pass over OUT disappears. |bias| is indexed by the column of this call
// (n = n1 * N0 + n0). Set it on the last K block only.
#define KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP (1u << 3)
// f32 only, not with BIAS_CLAMP. After its K steps every OUT element (row
// m, column n) becomes SiLU(t), t = v + bias[n], with the scalar ops kiln
// lowers x * logistic(x) to: e = exp(-|t|) (runtime/vm/numerics.h's f32
// exp), then t * ((t >= 0 ? 1 : e) / (1 + e)); a NaN t gives a quiet NaN
// (its payload is not specified). |bias| as for BIAS_CLAMP; the bounds are
// ignored. Set it on the last K block only.
#define KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU (1u << 4)

typedef struct kiln_ukernel_mmt4d_params_t {
  const void* lhs;  // [M1][K1][M0][K0]
  const void* rhs;  // [N1][K1][N0][K0]
  void* out;        // [M1][N1][M0][N0]
  // Elements between M1 rows: >= K1 * M0 * K0 (LHS), >= N1 * M0 * N0 (OUT);
  // >= M0 * the row stride for a row-major one.
  int64_t lhs_stride0;
  int64_t rhs_stride0;  // elements between N1 rows, >= K1 * N0 * K0
  int64_t out_stride0;
  int64_t M1;
  int64_t N1;
  int64_t K1;  // 0 is allowed: OUT is zeroed (or left as is with ACCUMULATE)
  int32_t M0;
  int32_t N0;
  int32_t K0;
  uint32_t type;   // kiln_ukernel_mmt4d_type_t
  uint32_t flags;  // KILN_UKERNEL_MMT4D_FLAG_*
  // Elements between consecutive K1 steps of an RHS panel; 0 means packed
  // (N0 * K0). f32 only: with K0 = 1, rhs_stride0 = N0 and rhs_stride1 = N
  // the kernel reads full column tiles of a row-major K x N RHS in place,
  // without packing it (rhs_stride0 then only has to be >= N0 * K0).
  uint32_t rhs_stride1;
  // The KILN_HAL_CPU_FEATURE_* bits the kernel may use (the environment's
  // cpu_features; mask bits off to force an older ISA).
  uint64_t cpu_features;
  // With KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR: elements between LHS rows,
  // >= K1. Else ignored.
  int64_t lhs_stride1;
  // With KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR: elements between OUT rows,
  // >= N1 * N0. Else ignored.
  int64_t out_stride1;
  // With KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP or _BIAS_SILU (above): N1 * N0
  // values, and for BIAS_CLAMP the bounds (neither NaN). Else ignored:
  // modules built before the flags pass shorter params and never set them.
  const float* bias;
  float clamp_lo;
  float clamp_hi;
} kiln_ukernel_mmt4d_params_t;

//===----------------------------------------------------------------------===//
// pack / unpack
//===----------------------------------------------------------------------===//

// The source is stored transposed: logical element (r, c) is at
// in[c * in_stride0 + r] instead of in[r * in_stride0 + c]. Packing a
// row-major K x N RHS into [N1][K1][N0][K0] is a transposed pack of the
// N x K logical matrix.
#define KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE (1u << 0)

// out[i1][j1][i0][j0] = S(i1 * tile_size0 + i0, j1 * tile_size1 + j0), where
// S is the logical in_size0 x in_size1 source, or padding_value where that
// element lies outside it.
typedef struct kiln_ukernel_pack_params_t {
  const void* in;
  void* out;
  int64_t in_stride0;   // elements between consecutive stored source rows
  int64_t out_stride0;  // elements between i1 rows, >= out_size1 * t0 * t1
  int64_t in_size0;     // logical rows of the source
  int64_t in_size1;     // logical columns of the source
  int64_t out_size0;    // i1 tiles to write
  int64_t out_size1;    // j1 tiles to write
  int32_t tile_size0;
  int32_t tile_size1;
  uint32_t elem_type;  // kiln_ukernel_elem_type_t
  uint32_t flags;      // KILN_UKERNEL_PACK_FLAG_*
  // The bit pattern of one padding element in the low bytes (e.g. 0 for
  // zero of every type).
  uint64_t padding_value;
  uint64_t cpu_features;
} kiln_ukernel_pack_params_t;

// out[r * out_stride0 + c] = in[r / t0][c / t1][r % t0][c % t1] for
// r < out_size0, c < out_size1: the inverse of pack, clipped to the result.
typedef struct kiln_ukernel_unpack_params_t {
  const void* in;       // [ceil(out_size0 / t0)][...][t0][t1]
  void* out;            // row-major
  int64_t in_stride0;   // elements between tile rows of |in|
  int64_t out_stride0;  // elements between rows of |out|
  int64_t out_size0;    // rows to write
  int64_t out_size1;    // columns to write
  int32_t tile_size0;
  int32_t tile_size1;
  uint32_t elem_type;
  uint32_t flags;  // 0
  uint64_t cpu_features;
} kiln_ukernel_unpack_params_t;

// Packs a block of the im2col view of a convolution image straight into
// LHS/RHS tiles of K0 = 1 ([out_size0][kc][tile_size0][1], 4-byte elements):
// out[i1][j][i0] = element (r, k) of the view for r = r0 + i1 * tile_size0 +
// i0 and k = k0 + j, or 0 where r >= r0 + rows. Row r is an output pixel at
// image offset (r / ow) * pix_h + (r % ow) * pix_w; column k = (c0 * ext[1] +
// c1) * ext[2] + c2 is a window tap at offset c0 * step[0] + c1 * step[1] +
// c2 * step[2] (e.g. (kh, kw, c) over an NHWC image: steps dh * W * C,
// dw * C, 1). The view is never materialized.
typedef struct kiln_ukernel_pack_window_params_t {
  const void* in;  // the image (batch already applied)
  void* out;
  int64_t out_stride0;  // elements between i1 tiles, >= kc * tile_size0
  int64_t out_size0;    // i1 tiles to write
  int64_t r0;           // first row (pixel)
  int64_t rows;         // rows to read, <= out_size0 * tile_size0
  int64_t k0;           // first column (tap)
  int64_t kc;           // columns to write
  int64_t ow;           // pixels per output row, >= 1
  int64_t pix_h, pix_w;
  int64_t ext[3];  // >= 1 each
  int64_t step[3];
  int32_t tile_size0;  // 1..64
  uint32_t elem_type;  // KILN_UKERNEL_ELEM_F32 or _S32
  uint32_t flags;      // 0
  uint32_t reserved;   // 0
  uint64_t cpu_features;
} kiln_ukernel_pack_window_params_t;

//===----------------------------------------------------------------------===//
// Winograd F(4x4, 3x3) transforms (f32, channels-last images)
//===----------------------------------------------------------------------===//
//
// A 3x3 stride-1 convolution computed as 36 matmuls: output tile t (4 x 4
// pixels at output row 4 * (t / tiles_w), column 4 * (t % tiles_w)) reads
// the 6 x 6 image window at (4 * ty - pad_top, 4 * tx - pad_left). The input
// transform turns each window d into V = B^T d B (per channel); point p
// (0..35, row-major in the 6 x 6 transform) of all tiles is the LHS of
// matmul p against the transformed filter U_p = (G g G^T)_p (made at compile
// time); the output transform turns the 36 accumulated points M into the
// 4 x 4 output tile A^T M A. B, G and A are the matrices of the points
// 0, 1, -1, 2, -2 and infinity (Lavin & Gray 2015).
#define KILN_UKERNEL_WINOGRAD_POINTS 36
#define KILN_UKERNEL_WINOGRAD_TILE 4

// out[p * out_stride_point + (i / tile_size0) * kc * tile_size0 + c *
// tile_size0 + i % tile_size0] = V_p(tile tile0 + i, channel c0 + c) for
// i < tiles (0 for tiles <= i < out_size0 * tile_size0): per point, the
// [M1][K1 = kc][M0][1] LHS layout of f32 mmt4d. Image element (y, x, c) is
// in[y * in_stride_h + x * in_stride_w + c] for 0 <= y < h, 0 <= x < w;
// positions outside the image read as 0 (zero padding folded in).
// With KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR each point's LHS is instead
// row-major, one row of kc channels per tile: V_p(tile0 + i, c0 + c) at
// out[p * out_stride_point + i * kc + c] (what mmt4d reads with
// KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR and lhs_stride1 = kc): each tile's
// 16 channels are one contiguous store instead of 16 values M0 apart.
#define KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR (1u << 0)
typedef struct kiln_ukernel_winograd_input_params_t {
  const float* in;  // the image (batch applied)
  float* out;
  int64_t in_stride_h, in_stride_w;
  int64_t h, w;
  int64_t pad_top, pad_left;
  int64_t tiles_w;  // tiles per output row, >= 1
  int64_t tile0;    // first tile
  int64_t tiles;    // tiles to read, <= out_size0 * tile_size0
  int64_t out_size0;
  int64_t c0, kc;            // channels
  int64_t out_stride_point;  // >= out_size0 * kc * tile_size0
  int32_t tile_size0;        // 1..64
  uint32_t flags;            // KILN_UKERNEL_WINOGRAD_FLAG_*
  uint64_t cpu_features;
} kiln_ukernel_winograd_input_params_t;

// For tiles i < tiles and channels f < cols: the 4 x 4 output tile A^T M A
// (+ bias[f] when bias is not NULL) of M_p = in[p * in_stride_point +
// (i / tile_size0) * in_stride0 + (f / tile_size1) * tile_size0 *
// tile_size1 + (i % tile_size0) * tile_size1 + f % tile_size1] (the packed
// [M1][N1][M0][N0] mmt4d result of each point) goes to output pixel (y, x)
// = (4 * ty + u, 4 * tx + v), channel f: out[y * out_stride_h + x *
// out_stride_w + f], for the pixels with y < oh and x < ow.
typedef struct kiln_ukernel_winograd_output_params_t {
  const float* in;
  float* out;         // output (batch and first channel applied)
  const float* bias;  // cols values, or NULL
  int64_t in_stride_point, in_stride0;
  int64_t out_stride_h, out_stride_w;
  int64_t oh, ow;
  int64_t tiles_w, tile0, tiles;
  int64_t cols;
  int32_t tile_size0, tile_size1;  // 1..64
  uint32_t flags;                  // 0
  uint32_t reserved;               // 0
  uint64_t cpu_features;
} kiln_ukernel_winograd_output_params_t;

// mmt4d's bias + activation epilogue on a row-major f32 block of its own:
// out[r * stride + c] for r < rows, c < cols becomes what
// KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP or _BIAS_SILU (|flags|, exactly one)
// makes of an OUT element with bias[c] (and the bounds, for BIAS_CLAMP).
// The direct depthwise entries call it on each output row they write.
typedef struct kiln_ukernel_bias_act_params_t {
  float* out;
  const float* bias;  // cols values
  int64_t rows, cols;
  int64_t stride;  // >= cols
  uint32_t flags;
  float clamp_lo, clamp_hi;  // BIAS_CLAMP: neither NaN
  uint32_t reserved;         // 0
  uint64_t cpu_features;
} kiln_ukernel_bias_act_params_t;

//===----------------------------------------------------------------------===//
// Tile sizes (shared by the compiler and the runtime)
//===----------------------------------------------------------------------===//

// ISA levels, oldest to newest; a cap keeps the features of its level and
// below. VNNI came before BF16 (Cascade Lake, then Cooper Lake / Zen 4), so
// the BF16 level includes VNNI.
typedef enum kiln_ukernel_isa_e {
  KILN_UKERNEL_ISA_GENERIC = 0,     // portable C
  KILN_UKERNEL_ISA_AVX2 = 1,        // AVX2 + FMA (+ F16C for f16)
  KILN_UKERNEL_ISA_AVX512 = 2,      // AVX-512 F, BW, DQ, VL
  KILN_UKERNEL_ISA_AVX512VNNI = 3,  // + AVX512_VNNI
  KILN_UKERNEL_ISA_AVX512BF16 = 4,  // + AVX512_BF16
  KILN_UKERNEL_ISA_NATIVE = 255,    // no cap
} kiln_ukernel_isa_t;

// The x86_64 feature bits (KILN_HAL_CPU_FEATURE_X86_64_* of
// runtime/hal/local/executable_library.h, repeated so that this header stays
// standalone; a static assert in the ukernel library keeps them equal).
#define KILN_UKERNEL_X86_64_SSE4_2 (1ull << 0)
#define KILN_UKERNEL_X86_64_AVX (1ull << 1)
#define KILN_UKERNEL_X86_64_AVX2 (1ull << 2)
#define KILN_UKERNEL_X86_64_FMA (1ull << 3)
#define KILN_UKERNEL_X86_64_F16C (1ull << 4)
#define KILN_UKERNEL_X86_64_AVX512F (1ull << 5)
#define KILN_UKERNEL_X86_64_AVX512BW (1ull << 6)
#define KILN_UKERNEL_X86_64_AVX512DQ (1ull << 7)
#define KILN_UKERNEL_X86_64_AVX512VL (1ull << 8)
#define KILN_UKERNEL_X86_64_AVX512VNNI (1ull << 9)
#define KILN_UKERNEL_X86_64_AVX512BF16 (1ull << 10)

// Feature groups the kernels need. F16C is in none of them (the AVX-512
// f16 kernels convert with AVX-512F): only the AVX2 f16 kernels require it.
#define KILN_UKERNEL_X86_64_AVX2_FEATURES \
  (KILN_UKERNEL_X86_64_AVX | KILN_UKERNEL_X86_64_AVX2 | KILN_UKERNEL_X86_64_FMA)
#define KILN_UKERNEL_X86_64_AVX512_FEATURES                          \
  (KILN_UKERNEL_X86_64_AVX2_FEATURES | KILN_UKERNEL_X86_64_AVX512F | \
   KILN_UKERNEL_X86_64_AVX512BW | KILN_UKERNEL_X86_64_AVX512DQ |     \
   KILN_UKERNEL_X86_64_AVX512VL)
#define KILN_UKERNEL_X86_64_AVX512VNNI_FEATURES \
  (KILN_UKERNEL_X86_64_AVX512_FEATURES | KILN_UKERNEL_X86_64_AVX512VNNI)
#define KILN_UKERNEL_X86_64_AVX512BF16_FEATURES \
  (KILN_UKERNEL_X86_64_AVX512VNNI_FEATURES | KILN_UKERNEL_X86_64_AVX512BF16)

// The feature bits an ISA cap keeps (x86_64 encoding).
static inline uint64_t kiln_ukernel_isa_feature_mask(uint32_t isa_cap) {
  const uint64_t base = KILN_UKERNEL_X86_64_SSE4_2;
  const uint64_t f16c = KILN_UKERNEL_X86_64_F16C;
  switch (isa_cap) {
    case KILN_UKERNEL_ISA_GENERIC:
      return base;
    case KILN_UKERNEL_ISA_AVX2:
      return base | f16c | KILN_UKERNEL_X86_64_AVX2_FEATURES;
    case KILN_UKERNEL_ISA_AVX512:
      return base | f16c | KILN_UKERNEL_X86_64_AVX512_FEATURES;
    case KILN_UKERNEL_ISA_AVX512VNNI:
      return base | f16c | KILN_UKERNEL_X86_64_AVX512VNNI_FEATURES;
    case KILN_UKERNEL_ISA_AVX512BF16:
      return base | f16c | KILN_UKERNEL_X86_64_AVX512BF16_FEATURES;
    default:
      return ~0ull;
  }
}

static inline int kiln_ukernel_has_features(uint64_t features,
                                            uint64_t required) {
  return (features & required) == required;
}

typedef struct kiln_ukernel_tile_sizes_t {
  int32_t M0;
  int32_t N0;
  int32_t K0;
} kiln_ukernel_tile_sizes_t;

// The tile sizes mmt4d runs fastest with for |type| on an x86_64 CPU with
// |cpu_features| (KILN_HAL_CPU_FEATURE_X86_64_* bits), capped at |isa_cap|
// (kiln_ukernel_isa_t), for a matmul with |m| rows (0 = unknown/large): when
// m is below the normal M0, a skinny tile with M0 = the next of 1, 2, 4, 8
// avoids computing padding rows. Every tile this returns has a kernel for
// those features; the portable kernel accepts any tile. {0, 0, 0} for an
// unknown type.
static inline kiln_ukernel_tile_sizes_t kiln_ukernel_mmt4d_tile_sizes(
    uint32_t type, uint64_t cpu_features, uint32_t isa_cap, int64_t m) {
  uint64_t f = cpu_features & kiln_ukernel_isa_feature_mask(isa_cap);
#if !defined(__x86_64__)
  // Elsewhere the same bits mean other features (aarch64: NEON, dotprod,
  // ...) and only the portable kernels exist: their tiles.
  f = 0;
#endif
  int avx512 =
      kiln_ukernel_has_features(f, KILN_UKERNEL_X86_64_AVX512_FEATURES);
  int avx2 = kiln_ukernel_has_features(f, KILN_UKERNEL_X86_64_AVX2_FEATURES);
  kiln_ukernel_tile_sizes_t t = {0, 0, 0};
  switch (type) {
    case KILN_UKERNEL_MMT4D_F32F32F32:
    case KILN_UKERNEL_MMT4D_F16F16F32:
      if (avx512) {
        t.M0 = 16, t.N0 = 16, t.K0 = 1;
      } else if (avx2) {
        t.M0 = 8, t.N0 = 8, t.K0 = 1;
      } else {
        t.M0 = 8, t.N0 = 8, t.K0 = 1;
      }
      break;
    case KILN_UKERNEL_MMT4D_BF16BF16F32:
      if (avx512 && (f & KILN_UKERNEL_X86_64_AVX512BF16)) {
        t.M0 = 16, t.N0 = 16, t.K0 = 2;
      } else {
        t.M0 = 8, t.N0 = 8, t.K0 = 2;
      }
      break;
    case KILN_UKERNEL_MMT4D_S8S8S32:
      if (avx512 && (f & KILN_UKERNEL_X86_64_AVX512VNNI)) {
        t.M0 = 16, t.N0 = 16, t.K0 = 4;
      } else {
        t.M0 = 8, t.N0 = 8, t.K0 = 4;
      }
      break;
    default:
      return t;
  }
  if (m > 0 && m < t.M0) {
    int32_t skinny = 1;
    while (skinny < m) skinny *= 2;
    if (skinny < t.M0) t.M0 = skinny;
  }
  return t;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_ABI_H_
