// Tests of the Winograd F(4x4, 3x3) transforms under every ISA cap this CPU
// supports: the input and output transforms against a direct
// double-precision evaluation of B^T d B and A^T M A (zero padding, partial
// tiles, odd channel counts, tile blocks that do not fill their M1 rows),
// a whole convolution (input transform, per-point products, output
// transform) against a direct double convolution, and argument checks.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtins/ukernel/ukernel.h"
#include "runtime/testing/test.h"

static uint64_t kiln_wt_rng = 0x2545f4914f6cdd1dull;
static float kiln_wt_rand(void) {
  kiln_wt_rng ^= kiln_wt_rng << 13;
  kiln_wt_rng ^= kiln_wt_rng >> 7;
  kiln_wt_rng ^= kiln_wt_rng << 17;
  return (float)((kiln_wt_rng >> 11) % 2001) / 1000.0f - 1.0f;
}

// The transform matrices, written out independently of the kernels.
static const double kBT[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0},
                                 {0, 4, -4, -1, 1, 0}, {0, -2, -1, 2, 1, 0},
                                 {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
static const double kAT[4][6] = {{1, 1, 1, 1, 1, 0},
                                 {0, 1, -1, 2, -2, 0},
                                 {0, 1, 1, 4, 4, 0},
                                 {0, 1, -1, 8, -8, 1}};
static const double kG[6][3] = {{1.0 / 4, 0, 0},
                                {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                {0, 0, 1}};

static int kiln_wt_isas(uint64_t features[8], const char* names[8]) {
  static const uint32_t isas[] = {
      KILN_UKERNEL_ISA_GENERIC, KILN_UKERNEL_ISA_AVX2, KILN_UKERNEL_ISA_AVX512};
  uint64_t host = kiln_ukernel_query_host_cpu_features();
  int n = 0;
  for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); ++i) {
    uint64_t mask = kiln_ukernel_isa_feature_mask(isas[i]);
    if (!kiln_ukernel_has_features(host, mask & ~KILN_UKERNEL_X86_64_SSE4_2)) {
      fprintf(stderr, "  [ SKIP ] ISA %s: this CPU lacks its features\n",
              kiln_ukernel_isa_name(isas[i]));
      continue;
    }
    features[n] = host & mask;
    names[n++] = kiln_ukernel_isa_name(isas[i]);
  }
  return n;
}

// Image element (y, x, c) of an H x W x C channels-last image, 0 outside.
static double kiln_wt_px(const float* img, int64_t H, int64_t W, int64_t C,
                         int64_t y, int64_t x, int64_t c) {
  if (y < 0 || y >= H || x < 0 || x >= W) return 0.0;
  return img[(y * W + x) * C + c];
}

KILN_TEST(input_transform_matches_direct_evaluation) {
  uint64_t features[8];
  const char* names[8];
  int isa_count = kiln_wt_isas(features, names);
  static const struct {
    int64_t h, w, c, pad, c0, kc, tile0, tiles;
    int32_t m0;
  } cases[] = {
      {7, 7, 33, 1, 0, 33, 0, 4, 16},
      {13, 5, 64, 0, 16, 40, 1, 5, 8},
      {1, 1, 32, 1, 0, 32, 0, 1, 16},
      {56, 56, 17, 1, 1, 16, 20, 37, 16},
      {3, 5, 3, 2, 0, 3, 0, 6, 4},
      // 50 tiles; 35 channels: two whole 16-channel chunks and a masked
      // one.
      {29, 31, 40, 1, 3, 35, 5, 50, 16},
  };
  for (int k = 0; k < 2 * isa_count; ++k) {
    // Every ISA with the packed [M1][kc][M0] LHS, then with row-major rows.
    const int row_major = k >= isa_count;
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ++ci) {
      const int64_t H = cases[ci].h, W = cases[ci].w, C = cases[ci].c;
      const int64_t pad = cases[ci].pad, M0 = cases[ci].m0;
      const int64_t oh = H + 2 * pad - 2, ow = W + 2 * pad - 2;
      const int64_t tiles_w = (ow + 3) / 4;
      (void)oh;
      float* img = (float*)malloc((size_t)(H * W * C) * sizeof(float));
      for (int64_t i = 0; i < H * W * C; ++i) img[i] = kiln_wt_rand();
      kiln_ukernel_winograd_input_params_t p;
      memset(&p, 0, sizeof(p));
      p.in = img;
      p.in_stride_h = W * C;
      p.in_stride_w = C;
      p.h = H, p.w = W, p.pad_top = pad, p.pad_left = pad;
      p.tiles_w = tiles_w, p.tile0 = cases[ci].tile0;
      p.tiles = cases[ci].tiles;
      p.out_size0 = (p.tiles + M0 - 1) / M0 + 1;  // one spare padding row
      p.c0 = cases[ci].c0, p.kc = cases[ci].kc;
      p.out_stride_point = p.out_size0 * p.kc * M0 + 3;
      p.tile_size0 = (int32_t)M0;
      p.flags = row_major ? KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR : 0;
      p.cpu_features = features[k % isa_count];
      size_t count = (size_t)(36 * p.out_stride_point);
      float* out = (float*)malloc(count * sizeof(float));
      for (size_t i = 0; i < count; ++i) out[i] = 1e30f;
      p.out = out;
      KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_input(&p), KILN_UKERNEL_OK);
      double worst = 0.0;
      int bad = 0;
      for (int64_t i = 0; i < p.out_size0 * M0 && !bad; ++i) {
        int64_t t = p.tile0 + i;
        int64_t y0 = (t / tiles_w) * 4 - pad, x0 = (t % tiles_w) * 4 - pad;
        for (int64_t c = 0; c < p.kc && !bad; ++c) {
          for (int a = 0; a < 6; ++a) {
            for (int b = 0; b < 6; ++b) {
              double want = 0.0;
              if (i < p.tiles) {
                for (int u = 0; u < 6; ++u) {
                  for (int v = 0; v < 6; ++v) {
                    want += kBT[a][u] * kBT[b][v] *
                            kiln_wt_px(img, H, W, C, y0 + u, x0 + v, p.c0 + c);
                  }
                }
              }
              float got =
                  out[(a * 6 + b) * p.out_stride_point +
                      (row_major ? i * p.kc + c
                                 : (i / M0) * p.kc * M0 + c * M0 + i % M0)];
              double err = fabs(got - want);
              if (err > worst) worst = err;
              if (err > 1e-4 * (1.0 + fabs(want))) {
                KILN_TEST_FAIL_(
                    "ISA %s%s case %zu tile %lld c %lld point %d: "
                    "got %g want %g",
                    names[k % isa_count], row_major ? " row-major" : "", ci,
                    (long long)i, (long long)c, a * 6 + b, got, want);
                bad = 1;
                break;
              }
            }
            if (bad) break;
          }
        }
      }
      free(out);
      free(img);
    }
  }
}

KILN_TEST(output_transform_matches_direct_evaluation) {
  uint64_t features[8];
  const char* names[8];
  int isa_count = kiln_wt_isas(features, names);
  static const struct {
    int64_t oh, ow, cols, tile0, tiles;
    int32_t m0, n0;
    int bias;
  } cases[] = {
      {7, 7, 33, 0, 4, 16, 16, 1}, {13, 5, 40, 1, 5, 8, 8, 0},
      {1, 1, 32, 0, 1, 16, 16, 1}, {56, 56, 64, 20, 37, 16, 16, 0},
      {3, 5, 3, 0, 2, 4, 8, 1},    {5, 13, 17, 3, 6, 16, 16, 1},
  };
  for (int k = 0; k < isa_count; ++k) {
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ++ci) {
      const int64_t OH = cases[ci].oh, OW = cases[ci].ow, F = cases[ci].cols;
      const int64_t M0 = cases[ci].m0, N0 = cases[ci].n0;
      const int64_t tiles_w = (OW + 3) / 4;
      kiln_ukernel_winograd_output_params_t p;
      memset(&p, 0, sizeof(p));
      const int64_t m1 = (cases[ci].tiles + M0 - 1) / M0;
      const int64_t n1 = (F + N0 - 1) / N0;
      p.in_stride0 = n1 * M0 * N0 + 5;
      p.in_stride_point = m1 * p.in_stride0 + 7;
      size_t in_count = (size_t)(36 * p.in_stride_point);
      float* in = (float*)malloc(in_count * sizeof(float));
      for (size_t i = 0; i < in_count; ++i) in[i] = kiln_wt_rand();
      float bias[64];
      for (int i = 0; i < 64; ++i) bias[i] = kiln_wt_rand();
      // Output channels F + 3 apart: the spare ones must stay untouched.
      const int64_t FS = F + 3;
      size_t out_count = (size_t)(OH * OW * FS);
      float* out = (float*)malloc(out_count * sizeof(float));
      for (size_t i = 0; i < out_count; ++i) out[i] = 1e30f;
      p.in = in, p.out = out, p.bias = cases[ci].bias ? bias : NULL;
      p.out_stride_h = OW * FS, p.out_stride_w = FS;
      p.oh = OH, p.ow = OW, p.tiles_w = tiles_w;
      p.tile0 = cases[ci].tile0, p.tiles = cases[ci].tiles, p.cols = F;
      p.tile_size0 = (int32_t)M0, p.tile_size1 = (int32_t)N0;
      p.cpu_features = features[k];
      KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_output(&p), KILN_UKERNEL_OK);
      // Which pixels the tiles cover.
      int bad = 0;
      for (int64_t y = 0; y < OH && !bad; ++y) {
        for (int64_t x = 0; x < OW && !bad; ++x) {
          int64_t t = (y / 4) * tiles_w + x / 4;
          int64_t i = t - p.tile0;
          int covered = i >= 0 && i < p.tiles;
          for (int64_t f = 0; f < FS; ++f) {
            float got = out[(y * OW + x) * FS + f];
            double want = 1e30;
            if (covered && f < F) {
              want = p.bias ? bias[f] : 0.0;
              const float* m = in + (i / M0) * p.in_stride0 +
                               (f / N0) * M0 * N0 + (i % M0) * N0 + f % N0;
              for (int a = 0; a < 6; ++a) {
                for (int b = 0; b < 6; ++b) {
                  want += kAT[y % 4][a] * kAT[x % 4][b] *
                          m[(a * 6 + b) * p.in_stride_point];
                }
              }
            }
            if (fabs(got - want) > 1e-4 * (1.0 + fabs(want))) {
              KILN_TEST_FAIL_(
                  "ISA %s case %zu pixel (%lld, %lld) f %lld: "
                  "got %g want %g",
                  names[k], ci, (long long)y, (long long)x, (long long)f, got,
                  want);
              bad = 1;
              break;
            }
          }
        }
      }
      free(out);
      free(in);
    }
  }
}

// The whole algorithm on one image: the error it adds over a direct double
// convolution, relative to the largest output (the scale rtol compares).
KILN_TEST(whole_convolution_matches_direct_double) {
  uint64_t features[8];
  const char* names[8];
  int isa_count = kiln_wt_isas(features, names);
  const int64_t H = 14, W = 14, C = 64, F = 32, pad = 1, M0 = 16, N0 = 16;
  const int64_t OH = H, OW = W, tiles_w = (OW + 3) / 4;
  const int64_t tiles = tiles_w * ((OH + 3) / 4), m1 = (tiles + M0 - 1) / M0;
  float* img = (float*)malloc((size_t)(H * W * C) * sizeof(float));
  float* flt = (float*)malloc((size_t)(9 * C * F) * sizeof(float));  // HWCF
  for (int64_t i = 0; i < H * W * C; ++i) img[i] = kiln_wt_rand();
  for (int64_t i = 0; i < 9 * C * F; ++i) flt[i] = kiln_wt_rand() * 0.1f;
  // U_p(c, f) = (G g G^T)_p in double, rounded to f32 like the compiler's.
  float* u = (float*)malloc((size_t)(36 * C * F) * sizeof(float));
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t f = 0; f < F; ++f) {
      for (int a = 0; a < 6; ++a) {
        for (int b = 0; b < 6; ++b) {
          double s = 0.0;
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              s += kG[a][i] * kG[b][j] * flt[((i * 3 + j) * C + c) * F + f];
            }
          }
          u[((a * 6 + b) * C + c) * F + f] = (float)s;
        }
      }
    }
  }
  const int64_t vsp = m1 * C * M0, msp = m1 * (F / N0) * M0 * N0;
  float* v = (float*)malloc((size_t)(36 * vsp) * sizeof(float));
  float* m = (float*)malloc((size_t)(36 * msp) * sizeof(float));
  float* out = (float*)malloc((size_t)(OH * OW * F) * sizeof(float));
  for (int k = 0; k < isa_count; ++k) {
    kiln_ukernel_winograd_input_params_t ip;
    memset(&ip, 0, sizeof(ip));
    ip.in = img, ip.out = v, ip.in_stride_h = W * C, ip.in_stride_w = C;
    ip.h = H, ip.w = W, ip.pad_top = pad, ip.pad_left = pad;
    ip.tiles_w = tiles_w, ip.tiles = tiles, ip.out_size0 = m1, ip.kc = C;
    ip.out_stride_point = vsp, ip.tile_size0 = (int32_t)M0;
    ip.cpu_features = features[k];
    KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_input(&ip), KILN_UKERNEL_OK);
    // The per-point products in f32 (what mmt4d computes).
    for (int q = 0; q < 36; ++q) {
      for (int64_t i = 0; i < m1 * M0; ++i) {
        for (int64_t f = 0; f < F; ++f) {
          float s = 0.0f;
          for (int64_t c = 0; c < C; ++c) {
            s += v[q * vsp + (i / M0) * C * M0 + c * M0 + i % M0] *
                 u[(q * C + c) * F + f];
          }
          m[q * msp + (i / M0) * (F / N0) * M0 * N0 + (f / N0) * M0 * N0 +
            (i % M0) * N0 + f % N0] = s;
        }
      }
    }
    kiln_ukernel_winograd_output_params_t op;
    memset(&op, 0, sizeof(op));
    op.in = m, op.out = out, op.in_stride_point = msp;
    op.in_stride0 = (F / N0) * M0 * N0, op.out_stride_h = OW * F;
    op.out_stride_w = F, op.oh = OH, op.ow = OW, op.tiles_w = tiles_w;
    op.tiles = tiles, op.cols = F, op.tile_size0 = (int32_t)M0;
    op.tile_size1 = (int32_t)N0, op.cpu_features = features[k];
    KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_output(&op), KILN_UKERNEL_OK);
    double worst = 0.0, scale = 0.0;
    for (int64_t y = 0; y < OH; ++y) {
      for (int64_t x = 0; x < OW; ++x) {
        for (int64_t f = 0; f < F; ++f) {
          double want = 0.0;
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              for (int64_t c = 0; c < C; ++c) {
                want += kiln_wt_px(img, H, W, C, y + i - pad, x + j - pad, c) *
                        flt[((i * 3 + j) * C + c) * F + f];
              }
            }
          }
          double err = fabs(out[(y * OW + x) * F + f] - want);
          if (err > worst) worst = err;
          if (fabs(want) > scale) scale = fabs(want);
        }
      }
    }
    fprintf(stderr, "  ISA %s: max |error| %.3g, relative to max |out| %.3g\n",
            names[k], worst, worst / scale);
    KILN_EXPECT_TRUE(worst / scale < 1e-5);
  }
  free(out);
  free(m);
  free(v);
  free(u);
  free(flt);
  free(img);
}

KILN_TEST(bad_arguments_are_rejected) {
  float buf[36 * 16];
  kiln_ukernel_winograd_input_params_t ip;
  memset(&ip, 0, sizeof(ip));
  ip.in = buf, ip.out = buf, ip.h = 6, ip.w = 6, ip.tiles_w = 1;
  ip.tiles = 1, ip.out_size0 = 1, ip.kc = 1, ip.out_stride_point = 16;
  ip.in_stride_h = 6, ip.in_stride_w = 1, ip.tile_size0 = 16;
  KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_input(&ip), KILN_UKERNEL_OK);
  ip.out_stride_point = 15;  // below one point's tiles
  KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_input(&ip),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  ip.out_stride_point = 16, ip.tiles = 17;  // more tiles than rows
  KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_input(&ip),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  ip.tiles = 1, ip.flags = 2;  // an unknown flag
  KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_input_import(NULL, &ip, NULL),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  kiln_ukernel_winograd_output_params_t op;
  memset(&op, 0, sizeof(op));
  op.in = buf, op.out = buf, op.oh = 4, op.ow = 4, op.tiles_w = 1;
  op.tiles = 1, op.cols = 1, op.tile_size0 = 1, op.tile_size1 = 1;
  op.in_stride0 = 1, op.in_stride_point = 1, op.out_stride_h = 4;
  op.out_stride_w = 1;
  op.in_stride0 = 0;  // below one tile
  KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_output(&op),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
  op.in_stride0 = 1, op.tile_size1 = 65;
  KILN_EXPECT_EQ_INT(kiln_ukernel_winograd_output_import(NULL, &op, NULL),
                     KILN_UKERNEL_ERROR_INVALID_ARGUMENT);
}

KILN_TEST_MAIN(KILN_TEST_CASE(bad_arguments_are_rejected),
               KILN_TEST_CASE(input_transform_matches_direct_evaluation),
               KILN_TEST_CASE(output_transform_matches_direct_evaluation),
               KILN_TEST_CASE(whole_convolution_matches_direct_double))
