// mmt4d: argument checks, the portable tile function, the per-ISA tile
// table and the loop over M1 x N1 tiles.
#include <stdint.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"
#include "runtime/hal/local/executable_library.h"
#include "runtime/vm/numerics.h"

// ukernel_abi.h repeats the HAL's x86_64 feature bits to stay standalone.
_Static_assert(
    KILN_UKERNEL_X86_64_SSE4_2 == KILN_HAL_CPU_FEATURE_X86_64_SSE4_2 &&
        KILN_UKERNEL_X86_64_AVX == KILN_HAL_CPU_FEATURE_X86_64_AVX &&
        KILN_UKERNEL_X86_64_AVX2 == KILN_HAL_CPU_FEATURE_X86_64_AVX2 &&
        KILN_UKERNEL_X86_64_FMA == KILN_HAL_CPU_FEATURE_X86_64_FMA &&
        KILN_UKERNEL_X86_64_F16C == KILN_HAL_CPU_FEATURE_X86_64_F16C &&
        KILN_UKERNEL_X86_64_AVX512F == KILN_HAL_CPU_FEATURE_X86_64_AVX512F &&
        KILN_UKERNEL_X86_64_AVX512BW == KILN_HAL_CPU_FEATURE_X86_64_AVX512BW &&
        KILN_UKERNEL_X86_64_AVX512DQ == KILN_HAL_CPU_FEATURE_X86_64_AVX512DQ &&
        KILN_UKERNEL_X86_64_AVX512VL == KILN_HAL_CPU_FEATURE_X86_64_AVX512VL &&
        KILN_UKERNEL_X86_64_AVX512VNNI ==
            KILN_HAL_CPU_FEATURE_X86_64_AVX512VNNI &&
        KILN_UKERNEL_X86_64_AVX512BF16 ==
            KILN_HAL_CPU_FEATURE_X86_64_AVX512BF16,
    "ukernel_abi.h and executable_library.h disagree on CPU bits");

//===----------------------------------------------------------------------===//
// Scalar conversions (no libc, no _Float16: portable to every compiler)
//===----------------------------------------------------------------------===//

static inline float kiln_ukernel_f32_from_bits(uint32_t bits) {
  union {
    uint32_t u;
    float f;
  } v = {bits};
  return v.f;
}

static inline float kiln_ukernel_bf16_to_f32(uint16_t h) {
  return kiln_ukernel_f32_from_bits((uint32_t)h << 16);
}

static inline float kiln_ukernel_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) {  // inf / nan
    return kiln_ukernel_f32_from_bits(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24 is exact in f32.
    float magnitude = (float)mantissa * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  return kiln_ukernel_f32_from_bits(sign | ((exponent + 112u) << 23) |
                                    (mantissa << 13));
}

//===----------------------------------------------------------------------===//
// Portable tile function
//===----------------------------------------------------------------------===//

// Any type and tile size up to M0 * N0 <= 1024 (checked by the caller).
// Accumulates in a local tile in the order k1, k0 for every element.
void kiln_ukernel_mmt4d_tile_generic(void* out_tile, const void* lhs_panel,
                                     const void* rhs_panel,
                                     const kiln_ukernel_mmt4d_params_t* p) {
  const int32_t M0 = p->M0, N0 = p->N0, K0 = p->K0;
  const int64_t K1 = p->K1;
  const int accumulate = (p->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  const int64_t out_row =
      (p->flags & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR) ? p->out_stride1 : N0;
  if (p->type == KILN_UKERNEL_MMT4D_S8S8S32) {
    int32_t acc[1024];
    int32_t* out = (int32_t*)out_tile;
    for (int32_t m0 = 0; m0 < M0; ++m0) {
      for (int32_t n0 = 0; n0 < N0; ++n0) {
        acc[m0 * N0 + n0] = accumulate ? out[m0 * out_row + n0] : 0;
      }
    }
    const int8_t* lhs = (const int8_t*)lhs_panel;
    const int8_t* rhs = (const int8_t*)rhs_panel;
    for (int64_t k1 = 0; k1 < K1; ++k1) {
      for (int32_t m0 = 0; m0 < M0; ++m0) {
        for (int32_t n0 = 0; n0 < N0; ++n0) {
          // Unsigned arithmetic: wraps like the SIMD kernels do.
          uint32_t sum = (uint32_t)acc[m0 * N0 + n0];
          for (int32_t k0 = 0; k0 < K0; ++k0) {
            sum += (uint32_t)((int32_t)lhs[m0 * K0 + k0] *
                              (int32_t)rhs[n0 * K0 + k0]);
          }
          acc[m0 * N0 + n0] = (int32_t)sum;
        }
      }
      lhs += M0 * K0;
      rhs += N0 * K0;
    }
    for (int32_t m0 = 0; m0 < M0; ++m0) {
      for (int32_t n0 = 0; n0 < N0; ++n0) {
        out[m0 * out_row + n0] = acc[m0 * N0 + n0];
      }
    }
    return;
  }
  float acc[1024];
  float* out = (float*)out_tile;
  const int64_t rhs_step =
      p->rhs_stride1 ? (int64_t)p->rhs_stride1 : (int64_t)N0 * K0;
  // Row-major LHS / OUT (K0 = 1, checked): LHS rows lhs_stride1 apart and
  // K steps 1 apart, OUT rows out_stride1 apart.
  const int lhs_rm = (p->flags & KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR) != 0;
  const int64_t lhs_row = lhs_rm ? p->lhs_stride1 : K0;
  const int64_t lhs_step = lhs_rm ? 1 : (int64_t)M0 * K0;
  for (int32_t m0 = 0; m0 < M0; ++m0) {
    for (int32_t n0 = 0; n0 < N0; ++n0) {
      acc[m0 * N0 + n0] = accumulate ? out[m0 * out_row + n0] : 0.0f;
    }
  }
  // One loop per type so that the element conversion is not a branch in
  // the innermost loop.
#define KILN_UKERNEL_GENERIC_FLOAT_LOOP(elem_t, convert)                      \
  do {                                                                        \
    const elem_t* lhs = (const elem_t*)lhs_panel;                             \
    const elem_t* rhs = (const elem_t*)rhs_panel;                             \
    for (int64_t k1 = 0; k1 < K1; ++k1) {                                     \
      for (int32_t m0 = 0; m0 < M0; ++m0) {                                   \
        for (int32_t n0 = 0; n0 < N0; ++n0) {                                 \
          float sum = acc[m0 * N0 + n0];                                      \
          for (int32_t k0 = 0; k0 < K0; ++k0) {                               \
            sum +=                                                            \
                convert(lhs[m0 * lhs_row + k0]) * convert(rhs[n0 * K0 + k0]); \
          }                                                                   \
          acc[m0 * N0 + n0] = sum;                                            \
        }                                                                     \
      }                                                                       \
      lhs += lhs_step;                                                        \
      rhs += rhs_step;                                                        \
    }                                                                         \
  } while (0)
#define KILN_UKERNEL_IDENTITY(x) (x)
  switch (p->type) {
    case KILN_UKERNEL_MMT4D_F16F16F32:
      KILN_UKERNEL_GENERIC_FLOAT_LOOP(uint16_t, kiln_ukernel_f16_to_f32);
      break;
    case KILN_UKERNEL_MMT4D_BF16BF16F32:
      KILN_UKERNEL_GENERIC_FLOAT_LOOP(uint16_t, kiln_ukernel_bf16_to_f32);
      break;
    default:
      KILN_UKERNEL_GENERIC_FLOAT_LOOP(float, KILN_UKERNEL_IDENTITY);
      break;
  }
#undef KILN_UKERNEL_IDENTITY
#undef KILN_UKERNEL_GENERIC_FLOAT_LOOP
  for (int32_t m0 = 0; m0 < M0; ++m0) {
    for (int32_t n0 = 0; n0 < N0; ++n0) {
      out[m0 * out_row + n0] = acc[m0 * N0 + n0];
    }
  }
}

//===----------------------------------------------------------------------===//
// Tile table
//===----------------------------------------------------------------------===//

typedef struct kiln_ukernel_tile_entry_t {
  uint32_t type;
  int32_t M0, N0, K0;
  uint64_t required_features;
  kiln_ukernel_mmt4d_tile_fn_t fn;
  const char* name;
  // NULL, or the function for three adjacent N1 tiles at once (the RHS
  // ones rhs_stride0 apart): mmt4d runs the N1 loop in threes with it.
  kiln_ukernel_mmt4d_tile_fn_t fn3;
  // NULL, or the same for two tiles: the two left over after the threes,
  // or 2 + 2 where one would be left (N1 = 4: 12 + 20 loads per 32 + 32
  // FMAs instead of 11 + 17 per 48 + 16, the one-tile kernel's ratio).
  kiln_ukernel_mmt4d_tile_fn_t fn2;
  // NULL, or the same for eight tiles, run before the threes: one-row
  // tiles (M0 = 1), whose three-tile run keeps only three accumulator
  // chains busy, too few to hide their latency while the RHS streams.
  kiln_ukernel_mmt4d_tile_fn_t fn8;
  // 1: fn, fn2, fn3 and fn8 apply KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP in
  // registers before their store (params->bias then points at the call's
  // first column); 0: mmt4d makes a pass over the tiles they wrote.
  int fuses_bias_clamp;
} kiln_ukernel_tile_entry_t;

#if defined(__x86_64__)
#define KILN_UKERNEL_AVX2_ENTRIES(M0)                                \
  {KILN_UKERNEL_MMT4D_F32F32F32,                                     \
   M0,                                                               \
   8,                                                                \
   1,                                                                \
   KILN_UKERNEL_X86_64_AVX2_FEATURES,                                \
   kiln_ukernel_mmt4d_f32_##M0##x8x1_avx2,                           \
   "f32_" #M0 "x8x1_avx2",                                           \
   NULL,                                                             \
   NULL,                                                             \
   NULL,                                                             \
   0},                                                               \
      {KILN_UKERNEL_MMT4D_F16F16F32,                                 \
       M0,                                                           \
       8,                                                            \
       1,                                                            \
       KILN_UKERNEL_X86_64_AVX2_FEATURES | KILN_UKERNEL_X86_64_F16C, \
       kiln_ukernel_mmt4d_f16_##M0##x8x1_avx2,                       \
       "f16_" #M0 "x8x1_avx2",                                       \
       NULL,                                                         \
       NULL,                                                         \
       NULL,                                                         \
       0},
// The eight-tile function of one-row tiles; NULL for the others.
#define KILN_UKERNEL_FN8_1(name) kiln_ukernel_mmt4d_##name
#define KILN_UKERNEL_FN8_2(name) NULL
#define KILN_UKERNEL_FN8_4(name) NULL
#define KILN_UKERNEL_FN8_8(name) NULL
#define KILN_UKERNEL_FN8_16(name) NULL
#define KILN_UKERNEL_AVX512_ENTRIES(M0)              \
  {KILN_UKERNEL_MMT4D_F32F32F32,                     \
   M0,                                               \
   16,                                               \
   1,                                                \
   KILN_UKERNEL_X86_64_AVX512_FEATURES,              \
   kiln_ukernel_mmt4d_f32_##M0##x16x1_avx512,        \
   "f32_" #M0 "x16x1_avx512",                        \
   kiln_ukernel_mmt4d_f32_##M0##x16x1_3tiles_avx512, \
   kiln_ukernel_mmt4d_f32_##M0##x16x1_2tiles_avx512, \
   KILN_UKERNEL_FN8_##M0(f32_1x16x1_8tiles_avx512),  \
   1},                                               \
      {KILN_UKERNEL_MMT4D_F16F16F32,                 \
       M0,                                           \
       16,                                           \
       1,                                            \
       KILN_UKERNEL_X86_64_AVX512_FEATURES,          \
       kiln_ukernel_mmt4d_f16_##M0##x16x1_avx512,    \
       "f16_" #M0 "x16x1_avx512",                    \
       NULL,                                         \
       NULL,                                         \
       NULL,                                         \
       0},
#define KILN_UKERNEL_AVX512VNNI_ENTRIES(M0)             \
  {KILN_UKERNEL_MMT4D_S8S8S32,                          \
   M0,                                                  \
   16,                                                  \
   4,                                                   \
   KILN_UKERNEL_X86_64_AVX512VNNI_FEATURES,             \
   kiln_ukernel_mmt4d_s8_##M0##x16x4_avx512vnni,        \
   "s8_" #M0 "x16x4_avx512vnni",                        \
   kiln_ukernel_mmt4d_s8_##M0##x16x4_3tiles_avx512vnni, \
   NULL,                                                \
   KILN_UKERNEL_FN8_##M0(s8_1x16x4_8tiles_avx512vnni),  \
   0},
#define KILN_UKERNEL_AVX512BF16_ENTRIES(M0)               \
  {KILN_UKERNEL_MMT4D_BF16BF16F32,                        \
   M0,                                                    \
   16,                                                    \
   2,                                                     \
   KILN_UKERNEL_X86_64_AVX512BF16_FEATURES,               \
   kiln_ukernel_mmt4d_bf16_##M0##x16x2_avx512bf16,        \
   "bf16_" #M0 "x16x2_avx512bf16",                        \
   kiln_ukernel_mmt4d_bf16_##M0##x16x2_3tiles_avx512bf16, \
   NULL,                                                  \
   KILN_UKERNEL_FN8_##M0(bf16_1x16x2_8tiles_avx512bf16),  \
   0},
#endif

// From oldest to newest ISA: the last entry that matches wins.
static const kiln_ukernel_tile_entry_t kiln_ukernel_tile_table[] = {
#if defined(__x86_64__)
    KILN_UKERNEL_X86_64_AVX2_M0S(KILN_UKERNEL_AVX2_ENTRIES)
        KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_AVX512_ENTRIES)
            KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_AVX512VNNI_ENTRIES)
                KILN_UKERNEL_X86_64_AVX512_M0S(KILN_UKERNEL_AVX512BF16_ENTRIES)
#endif
                    {0, 0, 0, 0, 0, kiln_ukernel_mmt4d_tile_generic, "generic",
                     NULL, NULL, NULL, 0},
};

static const kiln_ukernel_tile_entry_t* kiln_ukernel_mmt4d_entry(
    uint32_t type, int32_t M0, int32_t N0, int32_t K0, uint64_t cpu_features) {
  const size_t count =
      sizeof(kiln_ukernel_tile_table) / sizeof(kiln_ukernel_tile_table[0]);
  const kiln_ukernel_tile_entry_t* chosen = &kiln_ukernel_tile_table[count - 1];
  for (size_t i = 0; i + 1 < count; ++i) {
    const kiln_ukernel_tile_entry_t* e = &kiln_ukernel_tile_table[i];
    if (e->type == type && e->M0 == M0 && e->N0 == N0 && e->K0 == K0 &&
        kiln_ukernel_has_features(cpu_features, e->required_features)) {
      chosen = e;
    }
  }
  return chosen;
}

kiln_ukernel_mmt4d_tile_fn_t kiln_ukernel_mmt4d_select(uint32_t type,
                                                       int32_t M0, int32_t N0,
                                                       int32_t K0,
                                                       uint64_t cpu_features,
                                                       const char** out_name) {
  const kiln_ukernel_tile_entry_t* e =
      kiln_ukernel_mmt4d_entry(type, M0, N0, K0, cpu_features);
  if (out_name) *out_name = e->name;
  return e->fn;
}

//===----------------------------------------------------------------------===//
// mmt4d
//===----------------------------------------------------------------------===//

static int kiln_ukernel_mmt4d_check(const kiln_ukernel_mmt4d_params_t* p) {
  if (!p || !kiln_ukernel_mmt4d_input_elem(p->type)) return 0;
  if (p->M0 < 1 || p->N0 < 1 || p->K0 < 1 || p->M0 > 64 || p->N0 > 64 ||
      p->K0 > 64 || p->M0 * p->N0 > 1024) {
    return 0;
  }
  const uint32_t row_major = KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR |
                             KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR;
  if (p->flags & ~(KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE | row_major |
                   KILN_UKERNEL_MMT4D_BIAS_FLAGS)) {
    return 0;
  }
  const uint32_t bias_flags = p->flags & KILN_UKERNEL_MMT4D_BIAS_FLAGS;
  if (bias_flags &&
      (bias_flags == KILN_UKERNEL_MMT4D_BIAS_FLAGS ||
       p->type != KILN_UKERNEL_MMT4D_F32F32F32 ||
       (p->M1 && p->N1 && !p->bias) ||
       ((p->flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP) &&
        (p->clamp_lo != p->clamp_lo || p->clamp_hi != p->clamp_hi)))) {
    return 0;
  }
  const int lhs_rm = (p->flags & KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR) != 0;
  const int out_rm = (p->flags & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR) != 0;
  // A row-major LHS is f32's (K0 = 1); a row-major OUT is any type whose
  // kernels take one (f16's AVX2 and AVX-512 ones do not).
  if (lhs_rm && p->type != KILN_UKERNEL_MMT4D_F32F32F32) return 0;
  if (out_rm && p->type == KILN_UKERNEL_MMT4D_F16F16F32) return 0;
  if (lhs_rm && p->K0 != 1) return 0;
  if (p->rhs_stride1 && (p->type != KILN_UKERNEL_MMT4D_F32F32F32 ||
                         p->rhs_stride1 < (uint32_t)(p->N0 * p->K0))) {
    return 0;
  }
  if (p->M1 < 0 || p->N1 < 0 || p->K1 < 0) return 0;
  // Bounds that keep every index product below 2^63.
  if (p->M1 > KILN_UKERNEL_MAX_EXTENT || p->N1 > KILN_UKERNEL_MAX_EXTENT ||
      p->K1 > KILN_UKERNEL_MAX_EXTENT ||
      p->lhs_stride0 > KILN_UKERNEL_MAX_EXTENT ||
      p->rhs_stride0 > KILN_UKERNEL_MAX_EXTENT ||
      p->out_stride0 > KILN_UKERNEL_MAX_EXTENT ||
      (lhs_rm &&
       (p->lhs_stride1 < 0 || p->lhs_stride1 > KILN_UKERNEL_MAX_EXTENT)) ||
      (out_rm &&
       (p->out_stride1 < 0 || p->out_stride1 > KILN_UKERNEL_MAX_EXTENT))) {
    return 0;
  }
  if (p->M1 == 0 || p->N1 == 0) return 1;
  if (!p->out) return 0;
  if (out_rm ? p->out_stride1 < p->N1 * p->N0 ||
                   p->out_stride0 < p->M0 * p->out_stride1
             : p->out_stride0 < p->N1 * p->M0 * p->N0) {
    return 0;
  }
  if (p->K1 == 0) return 1;
  if (!p->lhs || !p->rhs) return 0;
  if (lhs_rm ? p->lhs_stride1 < p->K1 || p->lhs_stride0 < p->M0 * p->lhs_stride1
             : p->lhs_stride0 < p->K1 * p->M0 * p->K0) {
    return 0;
  }
  if (p->rhs_stride0 < (p->rhs_stride1 ? 1 : p->K1) * p->N0 * p->K0) return 0;
  return 1;
}

// SiLU(t) as kiln lowers x * logistic(x), the meaning of
// KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU: the VM's own f32 exp (one definition,
// runtime/vm/numerics.h), so the kernels give the interpreter's bits.
static float kiln_ukernel_silu_f32(float t) {
  const float e = kiln_vm_exp_f32(-fabsf(t));
  const float num = t >= 0.0f ? 1.0f : e;
  return t * (num / (1.0f + e));
}

// One element of the bias + activation epilogue: v + b, then the clamp
// (a NaN gives itself + lo) or SiLU.
static float kiln_ukernel_bias_act_f32(float v, float b, int silu, float lo,
                                       float hi) {
  const float t = v + b;
  if (silu) return kiln_ukernel_silu_f32(t);
  float r = t > lo ? t : lo;
  r = r < hi ? r : hi;
  return t != t ? t + lo : r;
}

// KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP or _BIAS_SILU (|flags|) on |tiles|
// adjacent tiles of |rows| x |cols| f32 values (tile t at out + t *
// out_tile, its rows |out_row| apart, its bias at bias + t * cols): AVX-512
// for 16-column tiles where the CPU has it, else portable C. Both the
// mmt4d pass and kiln_ukernel_bias_act go through it.
static void kiln_ukernel_bias_act_tiles(float* out, const float* bias,
                                        int64_t tiles, int64_t rows,
                                        int64_t cols, int64_t out_row,
                                        int64_t out_tile, uint32_t flags,
                                        float lo, float hi, uint64_t features) {
#if defined(__x86_64__)
  if (cols == 16 && kiln_ukernel_has_features(
                        features, KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
    kiln_ukernel_bias_act_x16_avx512(out, bias, tiles, rows, out_row, out_tile,
                                     flags, lo, hi);
    return;
  }
#else
  (void)features;
#endif
  const int silu = (flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU) != 0;
  for (int64_t t = 0; t < tiles; ++t) {
    for (int64_t m = 0; m < rows; ++m) {
      float* row = out + t * out_tile + m * out_row;
      const float* b = bias + t * cols;
      for (int64_t c = 0; c < cols; ++c) {
        row[c] = kiln_ukernel_bias_act_f32(row[c], b[c], silu, lo, hi);
      }
    }
  }
}

// The bias flag of |p| on |tiles| adjacent OUT tiles just written (L1-hot)
// from column |n| on; |out_row| / |out_tile| as in kiln_ukernel_mmt4d.
static void kiln_ukernel_mmt4d_bias_act(const kiln_ukernel_mmt4d_params_t* p,
                                        float* out, int64_t n, int tiles,
                                        int64_t out_row, int64_t out_tile) {
  kiln_ukernel_bias_act_tiles(out, p->bias + n, tiles, p->M0, p->N0, out_row,
                              out_tile, p->flags, p->clamp_lo, p->clamp_hi,
                              p->cpu_features);
}

// One M1 row's walk over its N1 tiles in runs (kiln_ukernel_mmt4d).
typedef struct kiln_ukernel_mmt4d_run_t {
  const kiln_ukernel_mmt4d_params_t* params;  // the caller's
  const kiln_ukernel_mmt4d_params_t* call;    // what the kernels get
  kiln_ukernel_mmt4d_params_t* fused_call;    // its bias follows the runs
  int fused;                                  // the kernels add the bias
  int pass;                                   // mmt4d's pass does
  int64_t out_row, out_tile, rhs_tile;        // elements
  size_t in_size;                             // bytes per input element
  const char* lhs;
  char* out;
  const char* rhs;
  int64_t n1;  // the next tile
} kiln_ukernel_mmt4d_run_t;

// Calls |fn| on |tiles| adjacent tiles at a time while they end by |end|.
static void kiln_ukernel_mmt4d_run_tiles(kiln_ukernel_mmt4d_run_t* r,
                                         kiln_ukernel_mmt4d_tile_fn_t fn,
                                         int tiles, int64_t end) {
  const int64_t N0 = r->params->N0;
  for (; r->n1 + tiles <= end; r->n1 += tiles) {
    if (r->fused) r->fused_call->bias = r->params->bias + r->n1 * N0;
    fn(r->out, r->lhs, r->rhs, r->call);
    if (r->pass) {
      kiln_ukernel_mmt4d_bias_act(r->params, (float*)r->out, r->n1 * N0, tiles,
                                  r->out_row, r->out_tile);
    }
    r->out += tiles * r->out_tile * 4;
    r->rhs += tiles * r->rhs_tile * r->in_size;
  }
}

int kiln_ukernel_mmt4d(const kiln_ukernel_mmt4d_params_t* params) {
  if (!kiln_ukernel_mmt4d_check(params)) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  const kiln_ukernel_mmt4d_params_t* p = params;
  if (p->M1 == 0 || p->N1 == 0) return KILN_UKERNEL_OK;
  const int out_rm = (p->flags & KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR) != 0;
  // Elements between the OUT rows / the N1 tiles of one M1 row.
  const int64_t out_row = out_rm ? p->out_stride1 : p->N0;
  const int64_t out_tile = out_rm ? p->N0 : (int64_t)p->M0 * p->N0;
  if (p->K1 == 0) {
    // Nothing to add: overwrite means zero.
    if (!(p->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE)) {
      for (int64_t m1 = 0; m1 < p->M1; ++m1) {
        for (int64_t n1 = 0; n1 < p->N1; ++n1) {
          for (int32_t m0 = 0; m0 < p->M0; ++m0) {
            int32_t* row = (int32_t*)p->out + m1 * p->out_stride0 +
                           n1 * out_tile + m0 * out_row;
            for (int32_t n0 = 0; n0 < p->N0; ++n0) row[n0] = 0;
          }
        }
      }
    }
    if (p->flags & KILN_UKERNEL_MMT4D_BIAS_FLAGS) {
      for (int64_t m1 = 0; m1 < p->M1; ++m1) {
        for (int64_t n1 = 0; n1 < p->N1; ++n1) {
          kiln_ukernel_mmt4d_bias_act(
              p, (float*)p->out + m1 * p->out_stride0 + n1 * out_tile,
              n1 * p->N0, 1, out_row, out_tile);
        }
      }
    }
    return KILN_UKERNEL_OK;
  }
  const kiln_ukernel_tile_entry_t* e =
      kiln_ukernel_mmt4d_entry(p->type, p->M0, p->N0, p->K0, p->cpu_features);
  const int bias_act = (p->flags & KILN_UKERNEL_MMT4D_BIAS_FLAGS) != 0;
  // Kernels that fuse the bias + clamp get a copy of the params whose bias
  // follows the N1 tiles; copied only with a bias flag (modules built
  // before them pass shorter params). SiLU is always the pass over each
  // call's tiles (kiln_ukernel_bc_setup says why): the kernels get a copy
  // without the flag.
  kiln_ukernel_mmt4d_params_t call_params;
  kiln_ukernel_mmt4d_run_t r = {
      .params = params,
      .call = params,
      .fused = bias_act && e->fuses_bias_clamp &&
               !(p->flags & KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU),
      .out_row = out_row,
      .out_tile = out_tile,
      .rhs_tile = p->rhs_stride0,
      .in_size = kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(p->type)),
  };
  if (bias_act) {
    call_params = *p;
    if (!r.fused) call_params.flags &= ~KILN_UKERNEL_MMT4D_BIAS_FLAGS;
    r.call = r.fused_call = &call_params;
  }
  r.pass = bias_act && !r.fused;
  for (int64_t m1 = 0; m1 < p->M1; ++m1) {
    r.lhs = (const char*)p->lhs + m1 * p->lhs_stride0 * r.in_size;
    r.out = (char*)p->out + m1 * p->out_stride0 * 4;
    r.rhs = (const char*)p->rhs;
    r.n1 = 0;
    if (e->fn8) kiln_ukernel_mmt4d_run_tiles(&r, e->fn8, 8, p->N1);
    if (e->fn3) {
      // With two-tile kernels, stop the threes one short of leaving a
      // single tile: 4 left run as 2 + 2.
      const int64_t left = p->N1 - r.n1;
      kiln_ukernel_mmt4d_run_tiles(
          &r, e->fn3, 3,
          e->fn2 && left >= 4 && left % 3 == 1 ? p->N1 - 4 : p->N1);
    }
    if (e->fn2) kiln_ukernel_mmt4d_run_tiles(&r, e->fn2, 2, p->N1);
    kiln_ukernel_mmt4d_run_tiles(&r, e->fn, 1, p->N1);
  }
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_bias_act(const kiln_ukernel_bias_act_params_t* p) {
  const uint32_t act = p ? p->flags & KILN_UKERNEL_MMT4D_BIAS_FLAGS : 0;
  if (!p || !act || act == KILN_UKERNEL_MMT4D_BIAS_FLAGS || (p->flags & ~act) ||
      p->rows < 0 || p->cols < 0 || p->rows > KILN_UKERNEL_MAX_EXTENT ||
      p->cols > KILN_UKERNEL_MAX_EXTENT || p->stride < p->cols ||
      p->stride > KILN_UKERNEL_MAX_EXTENT ||
      ((act & KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP) &&
       (p->clamp_lo != p->clamp_lo || p->clamp_hi != p->clamp_hi))) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  if (p->rows == 0 || p->cols == 0) return KILN_UKERNEL_OK;
  if (!p->out || !p->bias) return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  // Whole 16-column tiles, then the columns past them.
  const int64_t c16 = p->cols / 16 * 16;
  kiln_ukernel_bias_act_tiles(p->out, p->bias, c16 / 16, p->rows, 16, p->stride,
                              16, act, p->clamp_lo, p->clamp_hi,
                              p->cpu_features);
  kiln_ukernel_bias_act_tiles(p->out + c16, p->bias + c16, 1, p->rows,
                              p->cols - c16, p->stride, 0, act, p->clamp_lo,
                              p->clamp_hi, p->cpu_features);
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_bias_act_import(void* context, void* params, void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_bias_act((const kiln_ukernel_bias_act_params_t*)params);
}

int kiln_ukernel_mmt4d_import(void* context, void* params, void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_mmt4d((const kiln_ukernel_mmt4d_params_t*)params);
}

//===----------------------------------------------------------------------===//
// CPU features and ISA caps
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
#include <cpuid.h>

static uint64_t kiln_ukernel_xgetbv0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}
#endif

uint64_t kiln_ukernel_query_host_cpu_features(void) {
  uint64_t features = 0;
#if defined(__x86_64__)
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  if (ecx & (1u << 20)) features |= KILN_UKERNEL_X86_64_SSE4_2;
  const int osxsave = (ecx & (1u << 27)) != 0;
  const uint64_t xcr0 = osxsave ? kiln_ukernel_xgetbv0() : 0;
  // XMM and YMM state (bits 1, 2); opmask, ZMM0-15 high, ZMM16-31 (5-7).
  const int os_avx = (xcr0 & 0x6) == 0x6;
  const int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
  if (os_avx) {
    if (ecx & (1u << 28)) features |= KILN_UKERNEL_X86_64_AVX;
    if (ecx & (1u << 12)) features |= KILN_UKERNEL_X86_64_FMA;
    if (ecx & (1u << 29)) features |= KILN_UKERNEL_X86_64_F16C;
  }
  unsigned int max_leaf = __get_cpuid_max(0, NULL);
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    if (os_avx && (ebx & (1u << 5))) features |= KILN_UKERNEL_X86_64_AVX2;
    if (os_avx512) {
      if (ebx & (1u << 16)) features |= KILN_UKERNEL_X86_64_AVX512F;
      if (ebx & (1u << 17)) features |= KILN_UKERNEL_X86_64_AVX512DQ;
      if (ebx & (1u << 30)) features |= KILN_UKERNEL_X86_64_AVX512BW;
      if (ebx & (1u << 31)) features |= KILN_UKERNEL_X86_64_AVX512VL;
      if (ecx & (1u << 11)) features |= KILN_UKERNEL_X86_64_AVX512VNNI;
      unsigned int eax1, ebx1, ecx1, edx1;
      __cpuid_count(7, 1, eax1, ebx1, ecx1, edx1);
      if (eax1 & (1u << 5)) features |= KILN_UKERNEL_X86_64_AVX512BF16;
    }
  }
#endif
  return features;
}

static int kiln_ukernel_streq(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

static const struct {
  const char* name;
  uint32_t isa;
} kiln_ukernel_isa_names[] = {
    {"generic", KILN_UKERNEL_ISA_GENERIC},
    {"avx2", KILN_UKERNEL_ISA_AVX2},
    {"avx512", KILN_UKERNEL_ISA_AVX512},
    {"avx512vnni", KILN_UKERNEL_ISA_AVX512VNNI},
    {"avx512bf16", KILN_UKERNEL_ISA_AVX512BF16},
    {"native", KILN_UKERNEL_ISA_NATIVE},
};

int kiln_ukernel_isa_parse(const char* name, uint32_t* out_isa) {
  if (!name) return -1;
  for (size_t i = 0;
       i < sizeof(kiln_ukernel_isa_names) / sizeof(kiln_ukernel_isa_names[0]);
       ++i) {
    if (kiln_ukernel_streq(name, kiln_ukernel_isa_names[i].name)) {
      *out_isa = kiln_ukernel_isa_names[i].isa;
      return 0;
    }
  }
  return -1;
}

const char* kiln_ukernel_isa_name(uint32_t isa) {
  for (size_t i = 0;
       i < sizeof(kiln_ukernel_isa_names) / sizeof(kiln_ukernel_isa_names[0]);
       ++i) {
    if (kiln_ukernel_isa_names[i].isa == isa) {
      return kiln_ukernel_isa_names[i].name;
    }
  }
  return "native";
}
