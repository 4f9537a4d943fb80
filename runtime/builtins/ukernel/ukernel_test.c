// Tests of the micro-kernels: every type and every ISA variant this CPU
// supports (forced with ISA caps) through pack + mmt4d + unpack against a
// naive reference, accumulate and overwrite, the f16 conversion of every
// value, pack/unpack round trips with padding, pack_window, an RHS read in
// place, a row-major LHS and OUT, multi-tile runs against single tiles,
// and argument checks.
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "runtime/builtins/ukernel/matmul.h"
#include "runtime/testing/test.h"
#include "runtime/vm/numerics.h"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static uint64_t kiln_test_rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t kiln_test_rand(void) {
  kiln_test_rng_state ^= kiln_test_rng_state << 13;
  kiln_test_rng_state ^= kiln_test_rng_state >> 7;
  kiln_test_rng_state ^= kiln_test_rng_state << 17;
  return (uint32_t)(kiln_test_rng_state >> 16);
}
// An integer in [lo, hi].
static int kiln_test_rand_int(int lo, int hi) {
  return lo + (int)(kiln_test_rand() % (uint32_t)(hi - lo + 1));
}

static uint32_t kiln_test_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

// f32 -> bf16 / f16 for values the tests pick exactly representable.
static uint16_t kiln_test_bf16(float f) {
  return (uint16_t)(kiln_test_f32_bits(f) >> 16);
}
static uint16_t kiln_test_f16(float f) {
  // Only normal numbers and zero with <= 10 mantissa bits (test values).
  uint32_t u = kiln_test_f32_bits(f);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  if ((u & 0x7fffffffu) == 0) return sign;
  int32_t exponent = (int32_t)((u >> 23) & 0xff) - 127 + 15;
  return (uint16_t)(sign | (exponent << 10) | ((u >> 13) & 0x3ffu));
}
// The value of an f16 bit pattern computed from its fields (the test's own
// reference for the kernels' conversions).
static double kiln_test_f16_value(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v = exponent == 0    ? ldexp(mantissa, -24)
             : exponent == 31 ? INFINITY
                              : ldexp(1024 + mantissa, exponent - 25);
  return sign ? -v : v;
}

typedef struct kiln_test_isa_t {
  uint32_t isa;
  uint64_t features;
} kiln_test_isa_t;

// The ISA caps whose features this CPU has (a cap above the CPU adds
// nothing and is not listed); returns the count.
static int kiln_test_supported_isas(kiln_test_isa_t* out) {
  static const uint32_t isas[] = {
      KILN_UKERNEL_ISA_GENERIC,    KILN_UKERNEL_ISA_AVX2,
      KILN_UKERNEL_ISA_AVX512,     KILN_UKERNEL_ISA_AVX512VNNI,
      KILN_UKERNEL_ISA_AVX512BF16,
  };
  uint64_t host = kiln_ukernel_query_host_cpu_features();
  int count = 0;
  for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); ++i) {
    uint64_t mask = kiln_ukernel_isa_feature_mask(isas[i]);
    if (!kiln_ukernel_has_features(host, mask & ~KILN_UKERNEL_X86_64_SSE4_2)) {
      fprintf(stderr, "  [ SKIP ] ISA %s: this CPU lacks its features\n",
              kiln_ukernel_isa_name(isas[i]));
      continue;
    }
    out[count].isa = isas[i];
    out[count].features = host & mask;
    ++count;
  }
  return count;
}

// Kernel names that ran (to check that each ISA's variants were reached).
#define KILN_TEST_MAX_NAMES 128
static const char* kiln_test_names[KILN_TEST_MAX_NAMES];
static int kiln_test_name_count = 0;
static void kiln_test_note_kernel(const kiln_ukernel_matmul_plan_t* plan) {
  const char* name = NULL;
  kiln_ukernel_mmt4d_select(plan->type, plan->tile.M0, plan->tile.N0,
                            plan->tile.K0, plan->cpu_features, &name);
  for (int i = 0; i < kiln_test_name_count; ++i) {
    if (strcmp(kiln_test_names[i], name) == 0) return;
  }
  if (kiln_test_name_count < KILN_TEST_MAX_NAMES) {
    kiln_test_names[kiln_test_name_count++] = name;
  }
}
static int kiln_test_kernel_ran(const char* name) {
  for (int i = 0; i < kiln_test_name_count; ++i) {
    if (strcmp(kiln_test_names[i], name) == 0) return 1;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Matmul against a reference
//===----------------------------------------------------------------------===//

// Runs one M x K x N matmul of |type| with |features| through the driver
// and compares with a double-precision reference (exact for the integer and
// exactly-representable cases). Strides are padded to catch stride bugs.
static void kiln_test_matmul_case(uint32_t type, int64_t M, int64_t N,
                                  int64_t K, uint64_t features,
                                  int accumulate) {
  const int64_t lda = K + 3, ldb = N + 1, ldc = N + 2;
  const size_t in_elem =
      kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(type));
  char* lhs = calloc((size_t)(M * lda) + 1, in_elem);
  char* rhs = calloc((size_t)(K * ldb) + 1, in_elem);
  double* lhs_value = calloc((size_t)(M * K) + 1, sizeof(double));
  double* rhs_value = calloc((size_t)(K * N) + 1, sizeof(double));
  char* out = calloc((size_t)(M * ldc) + 1, 4);
  double* expected = calloc((size_t)(M * N) + 1, sizeof(double));
  double* bound = calloc((size_t)(M * N) + 1, sizeof(double));
  KILN_ASSERT_TRUE(lhs && rhs && lhs_value && rhs_value && out && expected &&
                   bound);
  // Fill the operands; remember each element's exact value.
#define KILN_TEST_FILL(buf, values, rows, cols, ld)                     \
  for (int64_t i = 0; i < (rows); ++i) {                                \
    for (int64_t j = 0; j < (cols); ++j) {                              \
      int64_t at = i * (ld) + j;                                        \
      double v;                                                         \
      switch (type) {                                                   \
        case KILN_UKERNEL_MMT4D_F32F32F32: {                            \
          float f = (float)kiln_test_rand_int(-(1 << 20), 1 << 20) /    \
                    (float)(1 << 20);                                   \
          ((float*)(buf))[at] = f;                                      \
          v = f;                                                        \
          break;                                                        \
        }                                                               \
        case KILN_UKERNEL_MMT4D_F16F16F32:                              \
        case KILN_UKERNEL_MMT4D_BF16BF16F32: {                          \
          float f = (float)kiln_test_rand_int(-8, 8) / 4.0f;            \
          ((uint16_t*)(buf))[at] = type == KILN_UKERNEL_MMT4D_F16F16F32 \
                                       ? kiln_test_f16(f)               \
                                       : kiln_test_bf16(f);             \
          v = f;                                                        \
          break;                                                        \
        }                                                               \
        default: {                                                      \
          int s = kiln_test_rand_int(-128, 127);                        \
          ((int8_t*)(buf))[at] = (int8_t)s;                             \
          v = s;                                                        \
          break;                                                        \
        }                                                               \
      }                                                                 \
      (values)[i * (cols) + j] = v;                                     \
    }                                                                   \
  }
  KILN_TEST_FILL(lhs, lhs_value, M, K, lda);
  KILN_TEST_FILL(rhs, rhs_value, K, N, ldb);
#undef KILN_TEST_FILL
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      // Initial OUT: read when accumulating, must be overwritten otherwise.
      // Columns past N must stay untouched.
      int init = kiln_test_rand_int(-64, 64);
      if (type == KILN_UKERNEL_MMT4D_S8S8S32) {
        ((int32_t*)out)[i * ldc + j] = init;
      } else {
        ((float*)out)[i * ldc + j] = (float)init / 16.0f;
      }
      if (j >= N) continue;
      double sum = accumulate ? (type == KILN_UKERNEL_MMT4D_S8S8S32
                                     ? init
                                     : (double)init / 16.0)
                              : 0.0;
      double magnitude = fabs(sum);
      for (int64_t k = 0; k < K; ++k) {
        double product = lhs_value[i * K + k] * rhs_value[k * N + j];
        sum += product;
        magnitude += fabs(product);
      }
      expected[i * N + j] = sum;
      bound[i * N + j] = magnitude;
    }
  }
  kiln_ukernel_matmul_plan_t plan;
  KILN_ASSERT_OK(kiln_ukernel_matmul_plan(type, M, N, K, features, 1, &plan));
  kiln_test_note_kernel(&plan);
  // Keep a copy of OUT's padding columns to check they stay untouched.
  char* before = malloc((size_t)(M * ldc) * 4 + 1);
  KILN_ASSERT_TRUE(before);
  memcpy(before, out, (size_t)(M * ldc) * 4);
  KILN_EXPECT_OK(
      kiln_ukernel_matmul(type, M, N, K, lhs, lda, rhs, ldb, out, ldc,
                          accumulate ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0,
                          features, NULL, kiln_allocator_system()));
  int failures = 0;
  for (int64_t i = 0; i < M && failures < 5; ++i) {
    for (int64_t j = 0; j < ldc && failures < 5; ++j) {
      int64_t at = i * ldc + j;
      if (j >= N) {
        if (memcmp(out + at * 4, before + at * 4, 4) != 0) {
          KILN_TEST_FAIL_("M=%lld N=%lld K=%lld: column %lld past N written",
                          (long long)M, (long long)N, (long long)K,
                          (long long)j);
          ++failures;
        }
        continue;
      }
      double want = expected[i * N + j];
      double got = type == KILN_UKERNEL_MMT4D_S8S8S32
                       ? (double)((int32_t*)out)[at]
                       : (double)((float*)out)[at];
      // f32: a bound on the rounding of K sequential f32 additions (with or
      // without FMA); other types: exact.
      double tol = type == KILN_UKERNEL_MMT4D_F32F32F32
                       ? 2.0 * (double)(K + 2) * FLT_EPSILON * bound[i * N + j]
                       : 0.0;
      if (!(fabs(got - want) <= tol)) {
        KILN_TEST_FAIL_(
            "type %u %s M=%lld N=%lld K=%lld features=0x%llx: out[%lld][%lld] "
            "= %.9g, want %.9g",
            type, accumulate ? "accumulate" : "overwrite", (long long)M,
            (long long)N, (long long)K, (unsigned long long)features,
            (long long)i, (long long)j, got, want);
        ++failures;
      }
    }
  }
  free(before);
  free(lhs);
  free(rhs);
  free(lhs_value);
  free(rhs_value);
  free(out);
  free(expected);
  free(bound);
}

static const uint32_t kiln_test_types[] = {
    KILN_UKERNEL_MMT4D_F32F32F32,
    KILN_UKERNEL_MMT4D_F16F16F32,
    KILN_UKERNEL_MMT4D_BF16BF16F32,
    KILN_UKERNEL_MMT4D_S8S8S32,
};
#define KILN_TEST_TYPE_COUNT 4

// Small shapes: every combination of sizes around the tile sizes (1, 2, 4,
// 8, 16 and their neighbours), for every type and ISA.
KILN_TEST(matmul_small_shapes_every_isa) {
  static const int64_t ms[] = {1, 2, 3, 4, 8, 15, 16, 17, 31, 33};
  static const int64_t ns[] = {1, 2, 7, 8, 15, 16, 17, 33};
  static const int64_t ks[] = {1, 2, 3, 4, 5, 8, 15, 16, 17};
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (int t = 0; t < KILN_TEST_TYPE_COUNT; ++t) {
    for (int i = 0; i < isa_count; ++i) {
      for (size_t a = 0; a < sizeof(ms) / sizeof(ms[0]); ++a) {
        for (size_t b = 0; b < sizeof(ns) / sizeof(ns[0]); ++b) {
          for (size_t c = 0; c < sizeof(ks) / sizeof(ks[0]); ++c) {
            int accumulate = (a + b + c) % 2;
            kiln_test_matmul_case(kiln_test_types[t], ms[a], ns[b], ks[c],
                                  isas[i].features, accumulate);
          }
        }
      }
    }
  }
}

// Larger shapes: 513 in each dimension, several N blocks (1250 columns)
// and f32 K blocks (2600).
KILN_TEST(matmul_large_shapes_every_isa) {
  static const int64_t shapes[][3] = {
      {513, 33, 17}, {17, 513, 31},   {31, 17, 513},   {1, 513, 513},
      {2, 600, 300}, {33, 1250, 300}, {17, 100, 2600}, {0, 5, 5},
      {5, 0, 5},     {5, 5, 0},
  };
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (int t = 0; t < KILN_TEST_TYPE_COUNT; ++t) {
    for (int i = 0; i < isa_count; ++i) {
      for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s) {
        for (int accumulate = 0; accumulate < 2; ++accumulate) {
          kiln_test_matmul_case(kiln_test_types[t], shapes[s][0], shapes[s][1],
                                shapes[s][2], isas[i].features, accumulate);
        }
      }
    }
  }
}

// The tests above must have reached every variant this CPU supports.
KILN_TEST(every_supported_kernel_ran) {
  uint64_t host = kiln_ukernel_query_host_cpu_features();
  KILN_EXPECT_TRUE(kiln_test_kernel_ran("generic"));
  static const char* m0s[] = {"1", "2", "4", "8", "16"};
  char name[64];
  for (int i = 0; i < 5; ++i) {
    if (kiln_ukernel_has_features(host, KILN_UKERNEL_X86_64_AVX2_FEATURES) &&
        i < 4) {
      snprintf(name, sizeof(name), "f32_%sx8x1_avx2", m0s[i]);
      KILN_EXPECT_TRUE(kiln_test_kernel_ran(name));
      snprintf(name, sizeof(name), "f16_%sx8x1_avx2", m0s[i]);
      KILN_EXPECT_TRUE(kiln_test_kernel_ran(name));
    }
    if (kiln_ukernel_has_features(host, KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
      snprintf(name, sizeof(name), "f32_%sx16x1_avx512", m0s[i]);
      KILN_EXPECT_TRUE(kiln_test_kernel_ran(name));
      snprintf(name, sizeof(name), "f16_%sx16x1_avx512", m0s[i]);
      KILN_EXPECT_TRUE(kiln_test_kernel_ran(name));
    }
    if (kiln_ukernel_has_features(host,
                                  KILN_UKERNEL_X86_64_AVX512VNNI_FEATURES)) {
      snprintf(name, sizeof(name), "s8_%sx16x4_avx512vnni", m0s[i]);
      KILN_EXPECT_TRUE(kiln_test_kernel_ran(name));
    }
    if (kiln_ukernel_has_features(host,
                                  KILN_UKERNEL_X86_64_AVX512BF16_FEATURES)) {
      snprintf(name, sizeof(name), "bf16_%sx16x2_avx512bf16", m0s[i]);
      KILN_EXPECT_TRUE(kiln_test_kernel_ran(name));
    }
  }
  fprintf(stderr, "  kernels run:");
  for (int i = 0; i < kiln_test_name_count; ++i) {
    fprintf(stderr, " %s", kiln_test_names[i]);
  }
  fprintf(stderr, "\n");
}

// The portable kernel takes any tile, including the SIMD tiles (a module
// compiled for AVX-512 still runs on a CPU without it).
KILN_TEST(generic_kernel_runs_simd_tiles) {
  kiln_ukernel_tile_sizes_t tiles[] = {
      {16, 16, 1}, {16, 16, 2}, {16, 16, 4}, {3, 5, 7}};
  for (size_t t = 0; t < sizeof(tiles) / sizeof(tiles[0]); ++t) {
    const int64_t M1 = 2, N1 = 3, K1 = 5;
    const int32_t M0 = tiles[t].M0, N0 = tiles[t].N0, K0 = tiles[t].K0;
    const int64_t lhs_n = M1 * K1 * M0 * K0, rhs_n = N1 * K1 * N0 * K0;
    const int64_t out_n = M1 * N1 * M0 * N0;
    float* lhs = malloc((size_t)lhs_n * 4);
    float* rhs = malloc((size_t)rhs_n * 4);
    float* out = malloc((size_t)out_n * 4);
    KILN_ASSERT_TRUE(lhs && rhs && out);
    for (int64_t i = 0; i < lhs_n; ++i)
      lhs[i] = (float)kiln_test_rand_int(-4, 4);
    for (int64_t i = 0; i < rhs_n; ++i)
      rhs[i] = (float)kiln_test_rand_int(-4, 4);
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t i = 0; i < out_n; ++i) out[i] = 1.0f;
      kiln_ukernel_mmt4d_params_t p = {
          .lhs = lhs,
          .rhs = rhs,
          .out = out,
          .lhs_stride0 = K1 * M0 * K0,
          .rhs_stride0 = K1 * N0 * K0,
          .out_stride0 = N1 * M0 * N0,
          .M1 = M1,
          .N1 = N1,
          .K1 = K1,
          .M0 = M0,
          .N0 = N0,
          .K0 = K0,
          .type = KILN_UKERNEL_MMT4D_F32F32F32,
          .flags = pass ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0,
          .cpu_features = 0,
      };
      KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p), KILN_UKERNEL_OK);
      int failures = 0;
      for (int64_t m1 = 0; m1 < M1; ++m1)
        for (int64_t n1 = 0; n1 < N1; ++n1)
          for (int m0 = 0; m0 < M0; ++m0)
            for (int n0 = 0; n0 < N0; ++n0) {
              double want = pass ? 1.0 : 0.0;
              for (int64_t k1 = 0; k1 < K1; ++k1)
                for (int k0 = 0; k0 < K0; ++k0)
                  want += (double)lhs[((m1 * K1 + k1) * M0 + m0) * K0 + k0] *
                          rhs[((n1 * K1 + k1) * N0 + n0) * K0 + k0];
              float got = out[((m1 * N1 + n1) * M0 + m0) * N0 + n0];
              if (got != want && failures++ < 3) {
                KILN_TEST_FAIL_("tile %dx%dx%d: got %g want %g", M0, N0, K0,
                                got, want);
              }
            }
    }
    free(lhs);
    free(rhs);
    free(out);
  }
}

// Every finite and infinite f16 value converts exactly (out = 1 * x), on
// every ISA: N = 65536 columns of a 1 x 1 x N matmul.
KILN_TEST(f16_conversion_of_every_value) {
  const int64_t N = 65536;
  uint16_t one = kiln_test_f16(1.0f);
  uint16_t* rhs = malloc((size_t)N * 2);
  float* out = malloc((size_t)N * 4);
  KILN_ASSERT_TRUE(rhs && out);
  for (int64_t j = 0; j < N; ++j) rhs[j] = (uint16_t)j;
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (int i = 0; i < isa_count; ++i) {
    KILN_EXPECT_OK(kiln_ukernel_matmul(
        KILN_UKERNEL_MMT4D_F16F16F32, 1, N, 1, &one, 1, rhs, N, out, N, 0,
        isas[i].features, NULL, kiln_allocator_system()));
    int failures = 0;
    for (int64_t j = 0; j < N; ++j) {
      if (((j >> 10) & 0x1f) == 0x1f && (j & 0x3ff)) continue;  // NaN
      double want = kiln_test_f16_value((uint16_t)j);
      if ((double)out[j] != want && failures++ < 3) {
        KILN_TEST_FAIL_("ISA %s: f16 0x%04llx -> %.9g, want %.9g",
                        kiln_ukernel_isa_name(isas[i].isa), (long long)j,
                        out[j], want);
      }
    }
  }
  free(rhs);
  free(out);
}

//===----------------------------------------------------------------------===//
// pack / unpack
//===----------------------------------------------------------------------===//

KILN_TEST(pack_unpack_round_trips_with_padding) {
  static const int32_t tiles[][2] = {{16, 1}, {8, 1}, {16, 2},  {16, 4},
                                     {1, 16}, {3, 5}, {16, 16}, {1, 1}};
  static const int64_t sizes[][2] = {{1, 1},   {15, 17}, {16, 16},
                                     {33, 31}, {40, 70}, {2, 513}};
  static const uint32_t elems[] = {
      KILN_UKERNEL_ELEM_F32, KILN_UKERNEL_ELEM_BF16, KILN_UKERNEL_ELEM_S8};
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (int isa = 0; isa < isa_count; ++isa)
    for (size_t e = 0; e < 3; ++e)
      for (size_t t = 0; t < sizeof(tiles) / sizeof(tiles[0]); ++t)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s)
          for (int transpose = 0; transpose < 2; ++transpose) {
            const size_t es = kiln_ukernel_elem_size(elems[e]);
            const int64_t rows = sizes[s][0], cols = sizes[s][1];
            const int32_t t0 = tiles[t][0], t1 = tiles[t][1];
            const int64_t o0 = (rows + t0 - 1) / t0, o1 = (cols + t1 - 1) / t1;
            // Stored source: rows x cols, or cols x rows when transposed;
            // padded row stride.
            const int64_t stored_rows = transpose ? cols : rows;
            const int64_t stride = (transpose ? rows : cols) + 2;
            uint8_t* src = malloc((size_t)(stored_rows * stride) * es);
            const int64_t out_stride = o1 * t0 * t1 + 3;
            uint8_t* packed = malloc((size_t)(o0 * out_stride) * es);
            const int64_t back_stride = cols + 1;
            uint8_t* back = calloc((size_t)(rows * back_stride), es);
            KILN_ASSERT_TRUE(src && packed && back);
            for (int64_t i = 0; i < stored_rows * stride * (int64_t)es; ++i) {
              src[i] = (uint8_t)kiln_test_rand();
            }
            const uint64_t pad = 0xa5a5a5a5a5a5a5a5ull;
            kiln_ukernel_pack_params_t pp = {
                .in = src,
                .out = packed,
                .in_stride0 = stride,
                .out_stride0 = out_stride,
                .in_size0 = rows,
                .in_size1 = cols,
                .out_size0 = o0,
                .out_size1 = o1,
                .tile_size0 = t0,
                .tile_size1 = t1,
                .elem_type = elems[e],
                .flags =
                    transpose ? KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE : 0,
                .padding_value = pad,
                .cpu_features = isas[isa].features,
            };
            KILN_EXPECT_EQ_INT(kiln_ukernel_pack(&pp), KILN_UKERNEL_OK);
            int failures = 0;
            for (int64_t i1 = 0; i1 < o0; ++i1)
              for (int64_t j1 = 0; j1 < o1; ++j1)
                for (int32_t i0 = 0; i0 < t0; ++i0)
                  for (int32_t j0 = 0; j0 < t1; ++j0) {
                    int64_t r = i1 * t0 + i0, c = j1 * t1 + j0;
                    const uint8_t* got =
                        packed +
                        (size_t)(i1 * out_stride + (j1 * t0 + i0) * t1 + j0) *
                            es;
                    const uint8_t* want =
                        (r < rows && c < cols)
                            ? src + (size_t)(transpose ? c * stride + r
                                                       : r * stride + c) *
                                        es
                            : (const uint8_t*)&pad;
                    if (memcmp(got, want, es) != 0 && failures++ < 3) {
                      KILN_TEST_FAIL_(
                          "pack elem %zu tile %dx%d %lldx%lld%s: (%lld, "
                          "%lld) wrong",
                          es, t0, t1, (long long)rows, (long long)cols,
                          transpose ? " transposed" : "", (long long)r,
                          (long long)c);
                    }
                  }
            kiln_ukernel_unpack_params_t up = {
                .in = packed,
                .out = back,
                .in_stride0 = out_stride,
                .out_stride0 = back_stride,
                .out_size0 = rows,
                .out_size1 = cols,
                .tile_size0 = t0,
                .tile_size1 = t1,
                .elem_type = elems[e],
                .cpu_features = isas[isa].features,
            };
            KILN_EXPECT_EQ_INT(kiln_ukernel_unpack(&up), KILN_UKERNEL_OK);
            for (int64_t r = 0; r < rows; ++r)
              for (int64_t c = 0; c < back_stride; ++c) {
                const uint8_t* got = back + (size_t)(r * back_stride + c) * es;
                static const uint8_t zeros[8];
                const uint8_t* want =
                    c < cols
                        ? src + (size_t)(transpose ? c * stride + r
                                                   : r * stride + c) *
                                    es
                        : zeros;  // the column past the clip stays untouched
                if (memcmp(got, want, es) != 0 && failures++ < 3) {
                  KILN_TEST_FAIL_(
                      "unpack elem %zu tile %dx%d %lldx%lld: (%lld, %lld) "
                      "wrong",
                      es, t0, t1, (long long)rows, (long long)cols,
                      (long long)r, (long long)c);
                }
              }
            free(src);
            free(packed);
            free(back);
          }
}

//===----------------------------------------------------------------------===//
// Tile table, selection and argument checks
//===----------------------------------------------------------------------===//

KILN_TEST(tile_sizes_follow_the_isa) {
  uint64_t all = ~0ull;
  kiln_ukernel_tile_sizes_t t;
#if !defined(__x86_64__)
  // Elsewhere only the portable kernels exist: their tiles, whatever bits
  // the CPU has (on aarch64 the same bits mean NEON, dotprod, ...).
  t = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_F32F32F32, all,
                                    KILN_UKERNEL_ISA_NATIVE, 0);
  KILN_EXPECT_EQ_INT(t.M0, 8);
  KILN_EXPECT_EQ_INT(t.N0, 8);
  KILN_EXPECT_EQ_INT(t.K0, 1);
  t = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_BF16BF16F32, all,
                                    KILN_UKERNEL_ISA_NATIVE, 3);
  KILN_EXPECT_EQ_INT(t.M0, 4);
  KILN_EXPECT_EQ_INT(t.N0, 8);
  KILN_EXPECT_EQ_INT(t.K0, 2);
#else
  t = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_F32F32F32, all,
                                    KILN_UKERNEL_ISA_NATIVE, 0);
  KILN_EXPECT_EQ_INT(t.M0, 16);
  KILN_EXPECT_EQ_INT(t.N0, 16);
  KILN_EXPECT_EQ_INT(t.K0, 1);
  t = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_F32F32F32, all,
                                    KILN_UKERNEL_ISA_AVX2, 0);
  KILN_EXPECT_EQ_INT(t.M0, 8);
  KILN_EXPECT_EQ_INT(t.N0, 8);
  t = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_BF16BF16F32, all,
                                    KILN_UKERNEL_ISA_NATIVE, 3);
  KILN_EXPECT_EQ_INT(t.M0, 4);
  KILN_EXPECT_EQ_INT(t.N0, 16);
  KILN_EXPECT_EQ_INT(t.K0, 2);
  t = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_S8S8S32, all,
                                    KILN_UKERNEL_ISA_AVX512VNNI, 1);
  KILN_EXPECT_EQ_INT(t.M0, 1);
  KILN_EXPECT_EQ_INT(t.K0, 4);
#endif
  t = kiln_ukernel_mmt4d_tile_sizes(99, all, KILN_UKERNEL_ISA_NATIVE, 0);
  KILN_EXPECT_EQ_INT(t.M0, 0);
  // A BF16 cap keeps VNNI; a VNNI cap drops BF16.
  KILN_EXPECT_TRUE(kiln_ukernel_isa_feature_mask(KILN_UKERNEL_ISA_AVX512BF16) &
                   KILN_UKERNEL_X86_64_AVX512VNNI);
  KILN_EXPECT_FALSE(kiln_ukernel_isa_feature_mask(KILN_UKERNEL_ISA_AVX512VNNI) &
                    KILN_UKERNEL_X86_64_AVX512BF16);
  const char* name = NULL;
  kiln_ukernel_mmt4d_select(KILN_UKERNEL_MMT4D_F32F32F32, 16, 16, 1, 0, &name);
  KILN_EXPECT_STREQ(name, "generic");
}

KILN_TEST(isa_names_parse) {
  uint32_t isa = 0;
  KILN_EXPECT_EQ_INT(kiln_ukernel_isa_parse("avx512bf16", &isa), 0);
  KILN_EXPECT_EQ_INT(isa, KILN_UKERNEL_ISA_AVX512BF16);
  KILN_EXPECT_EQ_INT(kiln_ukernel_isa_parse("generic", &isa), 0);
  KILN_EXPECT_EQ_INT(isa, KILN_UKERNEL_ISA_GENERIC);
  KILN_EXPECT_EQ_INT(kiln_ukernel_isa_parse("avx9000", &isa), -1);
  KILN_EXPECT_STREQ(kiln_ukernel_isa_name(KILN_UKERNEL_ISA_AVX2), "avx2");
}

KILN_TEST(isa_env_var_caps_features) {
  uint64_t features = 0;
  setenv(KILN_UKERNEL_ISA_ENV, "avx2", 1);
  KILN_EXPECT_OK(kiln_ukernel_host_cpu_features_from_env(&features));
  KILN_EXPECT_FALSE(features & KILN_UKERNEL_X86_64_AVX512F);
  setenv(KILN_UKERNEL_ISA_ENV, "generic", 1);
  KILN_EXPECT_OK(kiln_ukernel_host_cpu_features_from_env(&features));
  KILN_EXPECT_FALSE(features & KILN_UKERNEL_X86_64_AVX2);
  setenv(KILN_UKERNEL_ISA_ENV, "bogus", 1);
  kiln_status_t status = kiln_ukernel_host_cpu_features_from_env(&features);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "KILN_UKERNEL_ISA='bogus'");
  kiln_status_free(status);
  unsetenv(KILN_UKERNEL_ISA_ENV);
  KILN_EXPECT_OK(kiln_ukernel_host_cpu_features_from_env(&features));
  KILN_EXPECT_EQ_INT(features, kiln_ukernel_query_host_cpu_features());
}

KILN_TEST(bad_arguments_are_rejected) {
  float buf[64] = {0};
  kiln_ukernel_mmt4d_params_t p = {
      .lhs = buf,
      .rhs = buf,
      .out = buf,
      .lhs_stride0 = 1,
      .rhs_stride0 = 1,
      .out_stride0 = 1,
      .M1 = 1,
      .N1 = 1,
      .K1 = 1,
      .M0 = 1,
      .N0 = 1,
      .K0 = 1,
      .type = KILN_UKERNEL_MMT4D_F32F32F32,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p), KILN_UKERNEL_OK);
  p.type = 77;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.type = KILN_UKERNEL_MMT4D_F32F32F32;
  p.flags = 1u << 7;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.flags = 0;
  p.N0 = 2;  // K steps of 1 element would overlap rows of 2
  p.rhs_stride1 = 1;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.N0 = 1;
  p.rhs_stride1 = 0;
  p.M0 = 0;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.M0 = 1;
  p.lhs_stride0 = 0;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.lhs_stride0 = 1;
  p.K1 = INT64_MAX / 2;  // would overflow the stride checks' products
  p.lhs_stride0 = INT64_MAX;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.K1 = 1;
  p.lhs_stride0 = 1;
  p.rhs = NULL;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(NULL),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d_import(NULL, &p, NULL),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);

  kiln_ukernel_pack_params_t pack = {
      .in = buf,
      .out = buf,
      .in_stride0 = 4,
      .out_stride0 = 16,
      .in_size0 = 4,
      .in_size1 = 4,
      .out_size0 = 1,
      .out_size1 = 1,
      .tile_size0 = 4,
      .tile_size1 = 4,
      .elem_type = KILN_UKERNEL_ELEM_F32,
  };
  pack.in = buf + 32;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack(&pack), KILN_UKERNEL_OK);
  pack.out_stride0 = 15;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack(&pack),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  pack.out_stride0 = 16;
  pack.elem_type = 0;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_import(NULL, &pack, NULL),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  kiln_ukernel_unpack_params_t unpack = {
      .in = buf,
      .out = buf + 32,
      .in_stride0 = 15,
      .out_stride0 = 4,
      .out_size0 = 4,
      .out_size1 = 4,
      .tile_size0 = 4,
      .tile_size1 = 4,
      .elem_type = KILN_UKERNEL_ELEM_F32,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_unpack_import(NULL, &unpack, NULL),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  unpack.in_stride0 = 16;
  KILN_EXPECT_EQ_INT(kiln_ukernel_unpack(&unpack), KILN_UKERNEL_OK);

  kiln_ukernel_matmul_plan_t plan;
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_ukernel_matmul_plan(KILN_UKERNEL_MMT4D_F32F32F32, -1,
                                              2, 2, 0, 1, &plan));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_ukernel_matmul_plan(9, 1, 1, 1, 0, 1, &plan));
  KILN_EXPECT_STATUS(
      KILN_STATUS_OUT_OF_RANGE,
      kiln_ukernel_matmul_plan(KILN_UKERNEL_MMT4D_F32F32F32, INT64_MAX / 4,
                               INT64_MAX / 4, 2, 0, 1, &plan));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_ukernel_matmul_plan(KILN_UKERNEL_MMT4D_F32F32F32, 1,
                                              1, 1, 0, 0, &plan));
  KILN_ASSERT_OK(kiln_ukernel_matmul_plan(KILN_UKERNEL_MMT4D_F32F32F32, 4, 4, 4,
                                          0, 1, &plan));
  kiln_ukernel_matmul_args_t args = {
      .lhs = buf,
      .lhs_stride = 4,
      .rhs_packed = buf,
      .out = buf + 32,
      .out_stride = 4,
      .scratch = buf,
      .scratch_size = 8,
  };
  kiln_status_t status = kiln_ukernel_matmul_run(&plan, &args);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "scratch of 8 bytes");
  kiln_status_free(status);
  args.scratch_size = plan.scratch_size;
  args.lhs_stride = 3;
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_ukernel_matmul_run(&plan, &args));
}

// pack_window against a direct evaluation of the im2col view: NHWC-like
// taps with unit-step runs (AVX-512 transposes, masked short runs, runs
// split by k0 and kc), a non-unit inner step, wrapping pixel rows, partial
// last tiles, tile sizes 16 (the AVX-512 path) and 8 and 3 (portable), on
// every supported ISA; then the argument checks.
KILN_TEST(pack_window_matches_the_im2col_view) {
  enum { kImage = 4096, kOut = 8192 };
  static float image[kImage];
  static float out[kOut];
  for (int i = 0; i < kImage; ++i) image[i] = (float)(i % 977) - 300.0f;
  // ow, pix_h, pix_w, ext, step, rows (from pixel 2), k0, kc
  struct {
    int64_t ow, pix_h, pix_w, ext[3], step[3], rows, k0, kc;
  } cs[] = {
      // 3x3 taps over an NHWC image 9 wide with 4 channels, stride 1.
      {7, 36, 4, {3, 3, 4}, {36, 4, 1}, 33, 0, 36},
      // Window column x channel merged into runs of 21 (a stem), stride 2.
      {5, 2 * 11 * 3, 2 * 3, {7, 1, 21}, {11 * 3, 0, 1}, 17, 0, 147},
      // Runs of 40 split by k0 = 13 and kc = 50; 2 columns per pixel.
      {3, 400, 80, {2, 1, 40}, {200, 0, 1}, 16, 13, 50},
      // A non-unit inner step (NCHW taps: channel, row, column).
      {6, 12, 1, {2, 3, 3}, {400, 12, 2}, 40, 5, 11},
  };
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  static const int32_t tiles[] = {16, 8, 3};
  for (int c = 0; c < (int)(sizeof(cs) / sizeof(cs[0])); ++c) {
    for (int t = 0; t < 3; ++t) {
      for (int i = 0; i < isa_count; ++i) {
        int32_t t0 = tiles[t];
        int64_t tile_count = (cs[c].rows + t0 - 1) / t0 + 1;  // + one empty
        kiln_ukernel_pack_window_params_t p = {
            .in = image,
            .out = out,
            .out_stride0 = cs[c].kc * t0 + 5,
            .out_size0 = tile_count,
            .r0 = 2,
            .rows = cs[c].rows,
            .k0 = cs[c].k0,
            .kc = cs[c].kc,
            .ow = cs[c].ow,
            .pix_h = cs[c].pix_h,
            .pix_w = cs[c].pix_w,
            .ext = {cs[c].ext[0], cs[c].ext[1], cs[c].ext[2]},
            .step = {cs[c].step[0], cs[c].step[1], cs[c].step[2]},
            .tile_size0 = t0,
            .elem_type = KILN_UKERNEL_ELEM_F32,
            .cpu_features = isas[i].features,
        };
        KILN_ASSERT_TRUE(tile_count * p.out_stride0 <= kOut);
        for (int j = 0; j < kOut; ++j) out[j] = -1.0f;
        KILN_ASSERT_TRUE(kiln_ukernel_pack_window(&p) == KILN_UKERNEL_OK);
        int bad = 0;
        for (int64_t i1 = 0; i1 < tile_count && !bad; ++i1) {
          for (int64_t j = 0; j < p.kc; ++j) {
            int64_t k = p.k0 + j;
            int64_t c2 = k % p.ext[2], c1 = (k / p.ext[2]) % p.ext[1];
            int64_t c0 = k / (p.ext[2] * p.ext[1]);
            int64_t koff = c0 * p.step[0] + c1 * p.step[1] + c2 * p.step[2];
            for (int64_t i0 = 0; i0 < t0; ++i0) {
              int64_t r = i1 * t0 + i0;
              float want = 0.0f;
              if (r < p.rows) {
                int64_t pix = p.r0 + r;
                int64_t off = (pix / p.ow) * p.pix_h + (pix % p.ow) * p.pix_w;
                KILN_ASSERT_TRUE(off + koff >= 0 && off + koff < kImage);
                want = image[off + koff];
              }
              float got = out[i1 * p.out_stride0 + j * t0 + i0];
              if (got != want) {
                fprintf(stderr,
                        "case %d tile %d isa %s: (%lld, %lld, %lld) is %g, "
                        "want %g\n",
                        c, t0, kiln_ukernel_isa_name(isas[i].isa),
                        (long long)i1, (long long)j, (long long)i0, got, want);
                bad = 1;
                break;
              }
            }
            if (bad) break;
          }
        }
        KILN_EXPECT_EQ_INT(bad, 0);
      }
    }
  }
  kiln_ukernel_pack_window_params_t p = {
      .in = image,
      .out = out,
      .out_stride0 = 16,
      .out_size0 = 1,
      .rows = 16,
      .kc = 1,
      .ow = 1,
      .ext = {1, 1, 1},
      .tile_size0 = 16,
      .elem_type = KILN_UKERNEL_ELEM_F32,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_window_import(NULL, &p, NULL),
                     KILN_UKERNEL_OK);
  p.rows = 17;  // more rows than the tiles hold
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_window(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.rows = 16;
  p.out_stride0 = 15;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_window(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.out_stride0 = 16;
  p.ext[1] = 0;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_window(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.ext[1] = 1;
  p.elem_type = KILN_UKERNEL_ELEM_F16;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_window(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.elem_type = KILN_UKERNEL_ELEM_F32;
  p.ow = 0;
  KILN_EXPECT_EQ_INT(kiln_ukernel_pack_window(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
}

// mmt4d reading full column tiles of a row-major K x N f32 RHS in place
// (rhs_stride0 = N0, rhs_stride1 = row stride) gives the same bits as the
// packed RHS, for every supported ISA's f32 tiles (skinny ones included)
// and accumulate and overwrite.
KILN_TEST(mmt4d_reads_a_row_major_rhs_in_place) {
  enum { K = 37, N = 48, S = 53, M = 16 };
  static float a[M * K], b[K * S], lhs[M * K], rhs[N * K];
  static float want[M * N], got[M * N];
  for (int i = 0; i < M * K; ++i) a[i] = (float)kiln_test_rand_int(-9, 9) / 4;
  for (int i = 0; i < K * S; ++i) b[i] = (float)kiln_test_rand_int(-9, 9) / 8;
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (int i = 0; i < isa_count; ++i) {
    for (int64_t m = 1; m <= M; m *= 2) {
      kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(
          KILN_UKERNEL_MMT4D_F32F32F32, isas[i].features,
          KILN_UKERNEL_ISA_NATIVE, m);
      int64_t M1 = M / t.M0, N1 = N / t.N0;
      // Packed operands: lhs[m1][k][m0], rhs[n1][k][n0].
      for (int64_t r = 0; r < M; ++r)
        for (int64_t k = 0; k < K; ++k)
          lhs[((r / t.M0) * K + k) * t.M0 + r % t.M0] = a[r * K + k];
      for (int64_t c = 0; c < N; ++c)
        for (int64_t k = 0; k < K; ++k)
          rhs[((c / t.N0) * K + k) * t.N0 + c % t.N0] = b[k * S + c];
      for (int pass = 0; pass < 2; ++pass) {
        kiln_ukernel_mmt4d_params_t p = {
            .lhs = lhs,
            .rhs = rhs,
            .out = want,
            .lhs_stride0 = K * t.M0,
            .rhs_stride0 = K * t.N0,
            .out_stride0 = N1 * t.M0 * t.N0,
            .M1 = M1,
            .N1 = N1,
            .K1 = K,
            .M0 = t.M0,
            .N0 = t.N0,
            .K0 = 1,
            .type = KILN_UKERNEL_MMT4D_F32F32F32,
            .flags = pass ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0,
            .cpu_features = isas[i].features,
        };
        for (int j = 0; j < M * N; ++j) want[j] = got[j] = 0.5f;
        KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
        p.rhs = b;
        p.rhs_stride0 = t.N0;
        p.rhs_stride1 = S;
        p.out = got;
        KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
        KILN_EXPECT_TRUE(memcmp(want, got, sizeof(got)) == 0);
      }
    }
  }
  // Only f32 may read in place.
  kiln_ukernel_mmt4d_params_t p = {
      .lhs = lhs,
      .rhs = b,
      .out = got,
      .lhs_stride0 = 16,
      .rhs_stride0 = 16,
      .out_stride0 = 256,
      .M1 = 1,
      .N1 = 1,
      .K1 = 1,
      .M0 = 16,
      .N0 = 16,
      .K0 = 1,
      .type = KILN_UKERNEL_MMT4D_F16F16F32,
      .rhs_stride1 = S,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
}

// f32 mmt4d with a row-major LHS and/or OUT (read and written in place,
// rows |LS| and |OS| elements apart) gives the same bits as packed operands,
// for every supported ISA's tiles (skinny ones included), 1-12 N1 tiles
// (runs of eight, three and two and their tails), two M1 rows, a packed or
// in-place RHS, accumulate and overwrite; OUT elements outside the tiles stay
// untouched. N1 counts for the tests below: single tiles, runs of two and three
// and their tails, and the one-row tiles' runs of eight with 0, 3 and 4 after.
static const int64_t kiln_test_n1s[] = {1, 2, 3, 4, 5, 8, 11, 12};
#define KILN_TEST_N1_COUNT (sizeof(kiln_test_n1s) / sizeof(kiln_test_n1s[0]))

// Element (r, c) of an M x (N1 * N0) OUT in packed [M1][N1][M0][N0] tiles.
static int64_t kiln_test_packed_out_index(int64_t r, int64_t c, int64_t N1,
                                          kiln_ukernel_tile_sizes_t t) {
  return ((r / t.M0) * N1 + c / t.N0) * t.M0 * t.N0 + (r % t.M0) * t.N0 +
         c % t.N0;
}

// Copies the M x (N1 * N0) OUT between row-major |rows| (|os| elements
// apart) and its packed tiles, 4-byte elements bit for bit: into the tiles
// when |to_packed|, else out of them.
static void kiln_test_copy_out(void* packed, void* rows, int64_t os, int64_t M,
                               int64_t N1, kiln_ukernel_tile_sizes_t t,
                               int to_packed) {
  for (int64_t r = 0; r < M; ++r) {
    for (int64_t c = 0; c < N1 * t.N0; ++c) {
      char* tile = (char*)packed + 4 * kiln_test_packed_out_index(r, c, N1, t);
      char* row = (char*)rows + 4 * (r * os + c);
      memcpy(to_packed ? tile : row, to_packed ? row : tile, 4);
    }
  }
}

KILN_TEST(mmt4d_row_major_lhs_and_out_match_packed) {
  enum { K = 37, MAX_M = 32, MAX_N = 192, LS = 41, OS = 199, RS = 197 };
  static float a[MAX_M * LS], b[K * RS], lhs[MAX_M * K], rhs[MAX_N * K];
  static float packed[MAX_M * MAX_N], want[MAX_M * OS], got[MAX_M * OS];
  for (int i = 0; i < MAX_M * LS; ++i) {
    a[i] = (float)kiln_test_rand_int(-999, 999) / 37;
  }
  for (int i = 0; i < K * RS; ++i) {
    b[i] = (float)kiln_test_rand_int(-999, 999) / 41;
  }
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (int i = 0; i < isa_count; ++i) {
    for (int64_t m = 1; m <= 16; m *= 2) {
      kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(
          KILN_UKERNEL_MMT4D_F32F32F32, isas[i].features,
          KILN_UKERNEL_ISA_NATIVE, m);
      const int64_t M1 = 2, M = M1 * t.M0;
      for (int64_t r = 0; r < M; ++r)
        for (int64_t k = 0; k < K; ++k)
          lhs[((r / t.M0) * K + k) * t.M0 + r % t.M0] = a[r * LS + k];
      for (int64_t c = 0; c < MAX_N; ++c)
        for (int64_t k = 0; k < K; ++k)
          rhs[((c / t.N0) * K + k) * t.N0 + c % t.N0] = b[k * RS + c];
      for (size_t ni = 0; ni < KILN_TEST_N1_COUNT; ++ni) {
        const int64_t N1 = kiln_test_n1s[ni];
        for (int variant = 0; variant < 16; ++variant) {
          const int lhs_rm = variant & 1, out_rm = (variant >> 1) & 1;
          const int rhs_in_place = (variant >> 2) & 1;
          const int accumulate = (variant >> 3) & 1;
          if (!lhs_rm && !out_rm) continue;
          kiln_ukernel_mmt4d_params_t p = {
              .lhs = lhs,
              .rhs = rhs_in_place ? (const void*)b : (const void*)rhs,
              .out = packed,
              .lhs_stride0 = K * t.M0,
              .rhs_stride0 = rhs_in_place ? t.N0 : K * t.N0,
              .out_stride0 = N1 * t.M0 * t.N0,
              .M1 = M1,
              .N1 = N1,
              .K1 = K,
              .M0 = t.M0,
              .N0 = t.N0,
              .K0 = 1,
              .type = KILN_UKERNEL_MMT4D_F32F32F32,
              .flags = accumulate ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0,
              .rhs_stride1 = rhs_in_place ? RS : 0,
              .cpu_features = isas[i].features,
          };
          // The reference: packed LHS and OUT, unpacked into |want|.
          for (int j = 0; j < MAX_M * MAX_N; ++j) packed[j] = 0.0f;
          for (int j = 0; j < MAX_M * OS; ++j) {
            want[j] = got[j] = (float)(j % 13) - 6.0f;
          }
          kiln_test_copy_out(packed, want, OS, M, N1, t, 1);
          KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
          kiln_test_copy_out(packed, want, OS, M, N1, t, 0);
          // The same product with row-major operands.
          for (int j = 0; j < MAX_M * MAX_N; ++j) packed[j] = 0.0f;
          kiln_test_copy_out(packed, got, OS, M, N1, t, 1);
          if (lhs_rm) {
            p.flags |= KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR;
            p.lhs = a;
            p.lhs_stride1 = LS;
            p.lhs_stride0 = t.M0 * LS;
          }
          if (out_rm) {
            p.flags |= KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR;
            p.out = got;
            p.out_stride1 = OS;
            p.out_stride0 = t.M0 * OS;
          }
          KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
          if (!out_rm) {
            kiln_test_copy_out(packed, got, OS, M, N1, t, 0);
          }
          if (memcmp(want, got, sizeof(got)) != 0) {
            KILN_TEST_FAIL_(
                "ISA %s M0=%d N1=%lld lhs_rm=%d out_rm=%d "
                "rhs_in_place=%d accumulate=%d: differs",
                kiln_ukernel_isa_name(isas[i].isa), t.M0, (long long)N1, lhs_rm,
                out_rm, rhs_in_place, accumulate);
          }
        }
      }
    }
  }
  // Row-major operands: f32 only, K0 = 1 for the LHS, row strides that
  // hold a row.
  kiln_ukernel_mmt4d_params_t p = {
      .lhs = a,
      .rhs = rhs,
      .out = got,
      .lhs_stride0 = 16 * LS,
      .rhs_stride0 = 16 * K,
      .out_stride0 = 16 * OS,
      .M1 = 1,
      .N1 = 1,
      .K1 = K,
      .M0 = 16,
      .N0 = 16,
      .K0 = 1,
      .type = KILN_UKERNEL_MMT4D_F32F32F32,
      .flags = KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR |
               KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR,
      .lhs_stride1 = LS,
      .out_stride1 = OS,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p), KILN_UKERNEL_OK);
  p.lhs_stride1 = K - 1;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.lhs_stride1 = LS;
  p.out_stride1 = 15;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.out_stride1 = OS;
  p.out_stride0 = 15 * OS;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.out_stride0 = 16 * OS;
  p.type = KILN_UKERNEL_MMT4D_BF16BF16F32;
  p.K0 = 2;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.type = KILN_UKERNEL_MMT4D_F32F32F32;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  // A row-major OUT is f32's, bf16's and s8's: f16 kernels read and write
  // packed tiles only.
  p.type = KILN_UKERNEL_MMT4D_F16F16F32;
  p.K0 = 1;
  p.lhs = lhs;
  p.lhs_stride0 = 16 * K;
  p.flags = KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
}

// A row-major OUT gives the packed OUT's bits for the s8 and bf16 kernels
// too (the matmul driver writes their rows in place): every supported ISA,
// skinny and full tiles, 1-12 N1 tiles (runs of eight and three, single
// tiles),
// overwrite and accumulate.
KILN_TEST(mmt4d_row_major_out_every_type) {
  enum { K1 = 23, MAX_M = 32, MAX_N = 192, OS = 197 };
  static uint8_t lhs[MAX_M * K1 * 4], rhs[MAX_N * K1 * 4];
  static int32_t packed[MAX_M * MAX_N], want[MAX_M * OS], got[MAX_M * OS];
  static const uint32_t kTypes[] = {KILN_UKERNEL_MMT4D_S8S8S32,
                                    KILN_UKERNEL_MMT4D_BF16BF16F32};
  for (size_t i = 0; i < sizeof(lhs); ++i) {
    lhs[i] = (uint8_t)kiln_test_rand_int(0, 255);
  }
  for (size_t i = 0; i < sizeof(rhs); ++i) {
    rhs[i] = (uint8_t)kiln_test_rand_int(0, 255);
  }
  // bf16: the high byte of each element is a small exponent (|x| in
  // [2^-8, 2^8)), so no NaN, infinity or overflow.
  for (size_t i = 1; i < sizeof(lhs); i += 2) {
    lhs[i] = (uint8_t)((lhs[i] & 0x80) | (0x3b + lhs[i] % 9));
  }
  for (size_t i = 1; i < sizeof(rhs); i += 2) {
    rhs[i] = (uint8_t)((rhs[i] & 0x80) | (0x3b + rhs[i] % 9));
  }
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  int checked = 0;
  for (int i = 0; i < isa_count; ++i) {
    for (size_t ti = 0; ti < sizeof(kTypes) / sizeof(kTypes[0]); ++ti) {
      for (int64_t m = 1; m <= 16; m *= 2) {
        const kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(
            kTypes[ti], isas[i].features, KILN_UKERNEL_ISA_NATIVE, m);
        const int64_t M1 = 2, M = M1 * t.M0;
        for (size_t ni = 0; ni < KILN_TEST_N1_COUNT; ++ni) {
          const int64_t N1 = kiln_test_n1s[ni];
          if (N1 * t.N0 > MAX_N) continue;
          for (int accumulate = 0; accumulate < 2; ++accumulate) {
            kiln_ukernel_mmt4d_params_t p = {
                .lhs = lhs,
                .rhs = rhs,
                .out = packed,
                .lhs_stride0 = K1 * t.M0 * t.K0,
                .rhs_stride0 = K1 * t.N0 * t.K0,
                .out_stride0 = N1 * t.M0 * t.N0,
                .M1 = M1,
                .N1 = N1,
                .K1 = K1,
                .M0 = t.M0,
                .N0 = t.N0,
                .K0 = t.K0,
                .type = kTypes[ti],
                .flags = accumulate ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0,
                .cpu_features = isas[i].features,
            };
            // Initial values (bit patterns of small numbers of either
            // type), the same in both layouts.
            for (int j = 0; j < MAX_M * OS; ++j) {
              want[j] = got[j] = kTypes[ti] == KILN_UKERNEL_MMT4D_S8S8S32
                                     ? j % 1000 - 500
                                     : (int32_t)0x3f800000 + j;
            }
            kiln_test_copy_out(packed, want, OS, M, N1, t, 1);
            KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
            kiln_test_copy_out(packed, want, OS, M, N1, t, 0);
            p.flags |= KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR;
            p.out = got;
            p.out_stride1 = OS;
            p.out_stride0 = t.M0 * OS;
            KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
            if (memcmp(want, got, sizeof(got)) != 0) {
              KILN_TEST_FAIL_("ISA %s type %u M0=%d N1=%lld accumulate=%d",
                              kiln_ukernel_isa_name(isas[i].isa), kTypes[ti],
                              t.M0, (long long)N1, accumulate);
            }
            ++checked;
          }
        }
      }
    }
  }
  KILN_EXPECT_TRUE(checked > 0);
}

// The reference of KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP on one value: the
// scalar ops of a bias add, then max(., lo) and min(., hi) as the cpu
// backend's epilogues compute them (a NaN gives NaN + lo).
static float kiln_test_bias_clamp(float v, float b, float lo, float hi) {
  const float t = v + b;
  float r = t > lo ? t : lo;
  r = r < hi ? r : hi;
  return t != t ? t + lo : r;
}

// SiLU(t) as the scalar ops kiln lowers x * logistic(x) to, numerics.h's
// exp; with the bias add before it, the reference of
// KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU on one value.
static float kiln_test_silu(float t) {
  const float e = kiln_vm_exp_f32(-fabsf(t));
  const float num = t >= 0.0f ? 1.0f : e;
  return t * (num / (1.0f + e));
}
static float kiln_test_bias_silu(float v, float b) {
  return kiln_test_silu(v + b);
}

// Equal bits, or both NaN (BIAS_SILU leaves a NaN's payload open).
static int kiln_test_same_or_nan(const float* a, const float* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (memcmp(&a[i], &b[i], sizeof(float)) != 0 &&
        !(a[i] != a[i] && b[i] != b[i])) {
      return 0;
    }
  }
  return 1;
}

// mmt4d with BIAS_CLAMP (BIAS_SILU) gives the bits of mmt4d followed by the
// scalar bias + clamp (bias + SiLU) pass: every supported ISA's tiles
// (skinny ones, 1-12 N1 tiles: eight-, three- and two-tile runs), packed
// and row-major OUT, a NaN row, ReLU6, ReLU, bias only (infinite bounds),
// negative bounds and SiLU, K1 = 0; then the argument checks.
KILN_TEST(mmt4d_bias_clamp_matches_a_separate_pass) {
  enum { K = 19, MAX_M = 32, MAX_N = 192, OS = 197 };
  static float lhs[MAX_M * K], rhs[MAX_N * K], bias[MAX_N];
  static float want[MAX_M * OS], got[MAX_M * OS];
  for (int i = 0; i < MAX_M * K; ++i) {
    lhs[i] = (float)kiln_test_rand_int(-999, 999) / 97;
  }
  for (int i = 0; i < MAX_N * K; ++i) {
    rhs[i] = (float)kiln_test_rand_int(-999, 999) / 89;
  }
  for (int i = 0; i < MAX_N; ++i) {
    bias[i] = (float)kiln_test_rand_int(-999, 999) / 50;
  }
  bias[3] = -0.0f;
  const float inf = 1.0f / 0.0f;
  static const float kBounds[][2] = {{0.0f, 6.0f},
                                     {0.0f, 1.0f / 0.0f},
                                     {-1.0f / 0.0f, 1.0f / 0.0f},
                                     {-2.5f, -1.0f}};
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  int checked = 0;
  for (int i = 0; i < isa_count; ++i) {
    for (int64_t m = 1; m <= 16; m *= 2) {
      kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(
          KILN_UKERNEL_MMT4D_F32F32F32, isas[i].features,
          KILN_UKERNEL_ISA_NATIVE, m);
      const int64_t M1 = 2, M = M1 * t.M0;
      // A NaN in one LHS row makes that output row NaN (packed LHS: row
      // r = 1 of the first tile, K step 2).
      lhs[2 * t.M0 + 1] = 0.0f / 0.0f;
      for (size_t ni = 0; ni < KILN_TEST_N1_COUNT; ++ni) {
        const int64_t N1 = kiln_test_n1s[ni];
        // Accumulating too: the gemm entries set the flag on the last of
        // several K blocks.
        for (int variant = 0; variant < 2 * 4 * 2 * 2 * 2; ++variant) {
          const int out_rm = variant & 1, bounds = (variant >> 1) & 3;
          const int64_t K1 = (variant >> 3) & 1 ? K : 0;
          const uint32_t accumulate =
              (variant >> 4) & 1 ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0;
          // SiLU ignores the bounds: one bounds value is enough.
          const int silu = variant >> 5;
          if (silu && bounds) continue;
          kiln_ukernel_mmt4d_params_t p = {
              .lhs = lhs,
              .rhs = rhs,
              .out = want,
              .lhs_stride0 = K * t.M0,
              .rhs_stride0 = K * t.N0,
              .out_stride0 = out_rm ? t.M0 * OS : N1 * t.M0 * t.N0,
              .M1 = M1,
              .N1 = N1,
              .K1 = K1,
              .M0 = t.M0,
              .N0 = t.N0,
              .K0 = 1,
              .type = KILN_UKERNEL_MMT4D_F32F32F32,
              .flags = (out_rm ? KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR : 0) |
                       accumulate,
              .cpu_features = isas[i].features,
              .out_stride1 = out_rm ? OS : 0,
              .bias = bias,
              .clamp_lo = kBounds[bounds][0],
              .clamp_hi = kBounds[bounds][1],
          };
          for (int j = 0; j < MAX_M * OS; ++j) want[j] = got[j] = -7.0f;
          KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
          // The separate pass, over each element's column.
          for (int64_t r = 0; r < M; ++r) {
            for (int64_t c = 0; c < N1 * t.N0; ++c) {
              const int64_t o =
                  out_rm ? r * OS + c : kiln_test_packed_out_index(r, c, N1, t);
              want[o] = silu ? kiln_test_bias_silu(want[o], bias[c])
                             : kiln_test_bias_clamp(want[o], bias[c],
                                                    p.clamp_lo, p.clamp_hi);
            }
          }
          p.out = got;
          p.flags |= silu ? KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU
                          : KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP;
          KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
          if (silu ? !kiln_test_same_or_nan(want, got, MAX_M * OS)
                   : memcmp(want, got, sizeof(got)) != 0) {
            KILN_TEST_FAIL_(
                "ISA %s M0=%d N1=%lld out_rm=%d bounds=%d K1=%lld acc=%d "
                "silu=%d",
                kiln_ukernel_isa_name(isas[i].isa), t.M0, (long long)N1, out_rm,
                bounds, (long long)K1, accumulate != 0, silu);
          }
          ++checked;
        }
      }
      lhs[2 * t.M0 + 1] = 1.0f;
    }
  }
  KILN_EXPECT_TRUE(checked >= 5 * 5 * 16);
  kiln_ukernel_mmt4d_params_t p = {
      .lhs = lhs,
      .rhs = rhs,
      .out = got,
      .lhs_stride0 = K * 16,
      .rhs_stride0 = K * 16,
      .out_stride0 = 256,
      .M1 = 1,
      .N1 = 1,
      .K1 = K,
      .M0 = 16,
      .N0 = 16,
      .K0 = 1,
      .type = KILN_UKERNEL_MMT4D_F32F32F32,
      .flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP,
      .bias = bias,
      .clamp_lo = 0.0f,
      .clamp_hi = inf,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p), KILN_UKERNEL_OK);
  p.bias = NULL;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.bias = bias;
  p.clamp_hi = 0.0f / 0.0f;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  // SiLU ignores the bounds, but not with BIAS_CLAMP too.
  p.flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p), KILN_UKERNEL_OK);
  p.flags |= KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU;
  p.bias = NULL;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.bias = bias;
  p.clamp_hi = inf;
  p.type = KILN_UKERNEL_MMT4D_S8S8S32;
  p.K0 = 4;
  KILN_EXPECT_EQ_INT(kiln_ukernel_mmt4d(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
}

// kiln_ukernel_bias_act (the depthwise entries' row epilogue) gives the
// references' bits (NaN for NaN with SiLU) on every supported ISA: 37
// columns (two 16-column tiles and a tail) of rows 41 apart, both
// activations; the columns past 37 stay untouched. Then the checks.
KILN_TEST(bias_act_matches_the_references) {
  enum { ROWS = 5, COLS = 37, STRIDE = 41 };
  static float in[ROWS * STRIDE], bias[COLS], got[ROWS * STRIDE],
      want[ROWS * STRIDE];
  for (int i = 0; i < ROWS * STRIDE; ++i) {
    in[i] = (float)kiln_test_rand_int(-9999, 9999) / 99;
  }
  for (int i = 0; i < COLS; ++i) {
    bias[i] = (float)kiln_test_rand_int(-999, 999) / 50;
  }
  in[2 * STRIDE + 3] = NAN;
  in[3 * STRIDE + 35] = -INFINITY;
  kiln_test_isa_t isas[8];
  const int isa_count = kiln_test_supported_isas(isas);
  int checked = 0;
  for (int i = 0; i < isa_count; ++i) {
    for (int silu = 0; silu < 2; ++silu) {
      kiln_ukernel_bias_act_params_t p = {
          .out = got,
          .bias = bias,
          .rows = ROWS,
          .cols = COLS,
          .stride = STRIDE,
          .flags = silu ? KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU
                        : KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP,
          .clamp_lo = 0.0f,
          .clamp_hi = 6.0f,
          .cpu_features = isas[i].features,
      };
      memcpy(got, in, sizeof(in));
      for (int r = 0; r < ROWS; ++r) {
        for (int c = 0; c < STRIDE; ++c) {
          const float v = in[r * STRIDE + c];
          want[r * STRIDE + c] =
              c >= COLS ? v
              : silu    ? kiln_test_bias_silu(v, bias[c])
                        : kiln_test_bias_clamp(v, bias[c], 0.0f, 6.0f);
        }
      }
      KILN_ASSERT_TRUE(kiln_ukernel_bias_act(&p) == KILN_UKERNEL_OK);
      KILN_EXPECT_TRUE(silu ? kiln_test_same_or_nan(want, got, ROWS * STRIDE)
                            : memcmp(want, got, sizeof(got)) == 0);
      ++checked;
    }
  }
  KILN_EXPECT_TRUE(checked >= 2);
  kiln_ukernel_bias_act_params_t p = {
      .out = got,
      .bias = bias,
      .rows = ROWS,
      .cols = COLS,
      .stride = STRIDE,
      .flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU,
  };
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p), KILN_UKERNEL_OK);
  p.flags |= KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP;  // both
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.flags = 0;  // neither
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.flags =
      KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP | KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE;
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP;
  p.clamp_lo = NAN;
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.clamp_lo = 0.0f;
  p.stride = COLS - 1;
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.stride = STRIDE;
  p.bias = NULL;
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  p.rows = 0;  // nothing to do: no pointer is read
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p), KILN_UKERNEL_OK);
  p.rows = -1;
  KILN_EXPECT_EQ_INT(kiln_ukernel_bias_act(&p),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
}

// The SiLU of kiln_ukernel_bias_act (the AVX-512 form where the host has
// it: vscalefps for exp's 2^n, maxps for its clamp) gives the scalar form's
// bits on every supported ISA: every 1021st f32 bit pattern (4.2 million,
// both signs, every exponent, NaNs) and the values around exp's edges, with
// a bias of -0 (t + -0 is t, -0 included). (The AVX-512 form was run over
// all 2^32 inputs when it was written: no difference.)
KILN_TEST(bias_silu_matches_the_scalar_form) {
  enum { COLS = 4096 };
  static const float kEdges[] = {
      0.0f,        -0.0f,      1.0f,        -1.0f,     87.3f,   -87.3f,
      88.8f,       -88.8f,     103.9f,      -103.9f,   104.1f,  -104.1f,
      150.0f,      -150.0f,    1e-45f,      -1e-45f,   FLT_MIN, -FLT_MIN,
      FLT_MAX,     -FLT_MAX,   INFINITY,    -INFINITY, NAN,     0.3465736f,
      -0.3465736f, 0.3465737f, -0.3465737f, 2.0f};
  static float in[COLS], want[COLS], got[COLS], bias[COLS];
  for (int i = 0; i < COLS; ++i) bias[i] = -0.0f;
  kiln_test_isa_t isas[8];
  const int isa_count = kiln_test_supported_isas(isas);
  size_t compared = 0;
  int bad = 0;
  for (uint64_t u = 0; u < (1ull << 32) && bad < 5; u += COLS * 1021) {
    for (int j = 0; j < COLS; ++j) {
      const uint32_t bits = (uint32_t)(u + (uint64_t)j * 1021);
      memcpy(&in[j], &bits, sizeof(bits));
    }
    if (u == 0) memcpy(in, kEdges, sizeof(kEdges));
    for (int j = 0; j < COLS; ++j) want[j] = kiln_test_silu(in[j]);
    for (int i = 0; i < isa_count && bad < 5; ++i) {
      kiln_ukernel_bias_act_params_t p = {
          .out = got,
          .bias = bias,
          .rows = 1,
          .cols = COLS,
          .stride = COLS,
          .flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU,
          .cpu_features = isas[i].features,
      };
      memcpy(got, in, sizeof(in));
      KILN_ASSERT_TRUE(kiln_ukernel_bias_act(&p) == KILN_UKERNEL_OK);
      for (int j = 0; j < COLS; ++j) {
        if (!kiln_test_same_or_nan(&want[j], &got[j], 1)) {
          KILN_TEST_FAIL_("ISA %s: SiLU(%a) is %a, want %a",
                          kiln_ukernel_isa_name(isas[i].isa), (double)in[j],
                          (double)got[j], (double)want[j]);
          ++bad;
          break;
        }
      }
      compared += COLS;
    }
  }
  KILN_EXPECT_TRUE(compared >= 4000000);
}

// mmt4d runs N1 in eights (one-row tiles) and threes where kernels for
// eight and three tiles exist (f32, s8 and bf16 on AVX-512): those results
// must equal one tile at a time bit for bit, with and without ACCUMULATE,
// for every M0, with tails of 1 to 4 tiles after the eights and threes.
KILN_TEST(mmt4d_tile_runs_match_single_tiles) {
  enum { K1 = 37, N1 = 12, MAX_TILE = 16, MAX_K0 = 4 };
  static const uint32_t types[] = {KILN_UKERNEL_MMT4D_F32F32F32,
                                   KILN_UKERNEL_MMT4D_S8S8S32,
                                   KILN_UKERNEL_MMT4D_BF16BF16F32};
  // Big enough for either type (f32 K0 = 1, s8 K0 = 4: 16 bytes per row).
  static float lhs[MAX_TILE * K1 * MAX_K0], rhs[N1 * MAX_TILE * K1 * MAX_K0];
  static int32_t want[MAX_TILE * N1 * MAX_TILE], got[MAX_TILE * N1 * MAX_TILE];
  kiln_test_isa_t isas[8];
  int isa_count = kiln_test_supported_isas(isas);
  for (size_t ty = 0; ty < sizeof(types) / sizeof(types[0]); ++ty) {
    const uint32_t type = types[ty];
    if (type == KILN_UKERNEL_MMT4D_F32F32F32) {
      for (size_t i = 0; i < sizeof(lhs) / 4; ++i) {
        lhs[i] = (float)kiln_test_rand_int(-999, 999) / 37;
      }
      for (size_t i = 0; i < sizeof(rhs) / 4; ++i) {
        rhs[i] = (float)kiln_test_rand_int(-999, 999) / 41;
      }
    } else if (type == KILN_UKERNEL_MMT4D_BF16BF16F32) {
      for (size_t i = 0; i < sizeof(lhs) / 2; ++i) {
        ((uint16_t*)lhs)[i] =
            kiln_test_bf16((float)kiln_test_rand_int(-999, 999) / 32);
      }
      for (size_t i = 0; i < sizeof(rhs) / 2; ++i) {
        ((uint16_t*)rhs)[i] =
            kiln_test_bf16((float)kiln_test_rand_int(-999, 999) / 64);
      }
    } else {
      for (size_t i = 0; i < sizeof(lhs); ++i) {
        ((int8_t*)lhs)[i] = (int8_t)kiln_test_rand_int(-128, 127);
      }
      for (size_t i = 0; i < sizeof(rhs); ++i) {
        ((int8_t*)rhs)[i] = (int8_t)kiln_test_rand_int(-128, 127);
      }
    }
    const size_t in_elem =
        kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(type));
    for (int i = 0; i < isa_count; ++i) {
      for (int64_t m = 1; m <= MAX_TILE; m *= 2) {
        kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(
            type, isas[i].features, KILN_UKERNEL_ISA_NATIVE, m);
        const int64_t tile = (int64_t)t.M0 * t.N0;
        const int64_t rhs_panel = (int64_t)K1 * t.N0 * t.K0;
        for (int64_t n1_count = 1; n1_count <= N1; ++n1_count) {
          for (int pass = 0; pass < 2; ++pass) {
            kiln_ukernel_mmt4d_params_t p = {
                .lhs = lhs,
                .rhs = rhs,
                .out = got,
                .lhs_stride0 = K1 * t.M0 * t.K0,
                .rhs_stride0 = rhs_panel,
                .out_stride0 = n1_count * tile,
                .M1 = 1,
                .N1 = n1_count,
                .K1 = K1,
                .M0 = t.M0,
                .N0 = t.N0,
                .K0 = t.K0,
                .type = type,
                .flags = pass ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0,
                .cpu_features = isas[i].features,
            };
            for (int j = 0; j < MAX_TILE * N1 * MAX_TILE; ++j) {
              want[j] = got[j] = j % 7;
            }
            KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
            p.N1 = 1;
            for (int64_t n1 = 0; n1 < n1_count; ++n1) {
              p.rhs = (const char*)rhs + (size_t)(n1 * rhs_panel) * in_elem;
              p.out = want + n1 * tile;
              KILN_ASSERT_TRUE(kiln_ukernel_mmt4d(&p) == KILN_UKERNEL_OK);
            }
            KILN_EXPECT_TRUE(memcmp(want, got, sizeof(got)) == 0);
          }
        }
      }
    }
  }
}

KILN_TEST_MAIN(KILN_TEST_CASE(tile_sizes_follow_the_isa),
               KILN_TEST_CASE(isa_names_parse),
               KILN_TEST_CASE(isa_env_var_caps_features),
               KILN_TEST_CASE(bad_arguments_are_rejected),
               KILN_TEST_CASE(generic_kernel_runs_simd_tiles),
               KILN_TEST_CASE(mmt4d_reads_a_row_major_rhs_in_place),
               KILN_TEST_CASE(mmt4d_tile_runs_match_single_tiles),
               KILN_TEST_CASE(mmt4d_row_major_lhs_and_out_match_packed),
               KILN_TEST_CASE(f16_conversion_of_every_value),
               KILN_TEST_CASE(pack_unpack_round_trips_with_padding),
               KILN_TEST_CASE(pack_window_matches_the_im2col_view),
               KILN_TEST_CASE(mmt4d_row_major_out_every_type),
               KILN_TEST_CASE(mmt4d_bias_clamp_matches_a_separate_pass),
               KILN_TEST_CASE(bias_act_matches_the_references),
               KILN_TEST_CASE(bias_silu_matches_the_scalar_form),
               KILN_TEST_CASE(matmul_small_shapes_every_isa),
               KILN_TEST_CASE(matmul_large_shapes_every_isa),
               KILN_TEST_CASE(every_supported_kernel_ran))
