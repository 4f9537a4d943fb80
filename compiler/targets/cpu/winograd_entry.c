#include "compiler/targets/cpu/winograd_entry.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/conv_entry.h"
#include "compiler/targets/cpu/epilogue.h"

// A workgroup computes WT output tiles (4x4 pixels each) x NB output
// channels; per block of KB input channels it transforms its tiles' input
// (36 x WT x KB floats) and accumulates the 36 products (36 x WT x NB):
// about 590 KB of scratch, in the L2 cache. Channels are never split across
// workgroups' K, so results do not depend on the worker count.
#define KILN_CPU_WINOGRAD_WT 16
#define KILN_CPU_WINOGRAD_NB 128
#define KILN_CPU_WINOGRAD_KB 128

// G of F(4x4, 3x3) (points 0, 1, -1, 2, -2, infinity).
static const double kiln_cpu_winograd_g[6][3] = {{1.0 / 4, 0, 0},
                                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                                 {0, 0, 1}};

// Replaces the filter constant of |region| by U: point p, filter column f,
// channel c at p * np * C + (f / 16) * C * 16 + c * 16 + f % 16 (np: F
// rounded up to 16, zero past F), each U_p = G g G^T in double rounded once.
static kiln_status_t kiln_cpu_winograd_pack_filter(kiln_ir_context_t* context,
                                                   kiln_ir_op_t* region,
                                                   const kiln_conv2d_t* cv,
                                                   uint32_t binding,
                                                   bool* out_done) {
  *out_done = false;
  if (binding >= kiln_dispatch_num_tensor_operands(region)) {
    return kiln_ok_status();
  }
  kiln_ir_value_t* weight = kiln_ir_op_operand(region, binding);
  kiln_ir_op_t* def = weight->defining_op;
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  if (!def || !kiln_ir_op_is(def, "arith.constant") ||
      kiln_ir_value_num_uses(weight) != 1 || !body ||
      kiln_ir_value_num_uses(body->args[binding]) != 1) {
    return kiln_ok_status();
  }
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(def, "value");
  const kiln_ir_type_t* t = weight->type;
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS ||
      value->dense.splat || !kiln_ir_type_is_ranked_tensor(t) ||
      !kiln_ir_type_has_static_shape(t) ||
      !kiln_ir_type_is_float(t->shaped.element) ||
      t->shaped.element->flt.kind != KILN_IR_F32) {
    return kiln_ok_status();
  }
  const int64_t C = cv->c, F = cv->f, np = (F + 15) / 16 * 16;
  const int64_t count = kiln_ir_dense_num_elements(value);
  const int64_t last =
      (F - 1) * cv->flt_f + (C - 1) * cv->flt_c + 2 * cv->flt_h + 2 * cv->flt_w;
  if (value->dense.size != (size_t)count * 4 || last >= count ||
      36 * np * C > (1ll << 32)) {
    return kiln_ok_status();
  }
  // Written straight into the attribute's arena storage (no staging copy);
  // zeroed first for the columns past F.
  int64_t dims[1] = {36 * np * C};
  const kiln_ir_type_t* type =
      kiln_ir_tensor_type_get(context, 1, dims, t->shaped.element, NULL);
  uint8_t* packed_bytes = NULL;
  const kiln_ir_attribute_t* attr =
      type ? kiln_ir_dense_elements_attr_get_uninitialized(
                 context, type, false, (size_t)dims[0] * 4, &packed_bytes)
           : NULL;
  if (!attr || !packed_bytes) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory transforming a 3x3 filter");
  }
  float* packed = (float*)packed_bytes;
  memset(packed, 0, (size_t)dims[0] * 4);
  const uint8_t* src = value->dense.data;
  for (int64_t f = 0; f < F; ++f) {
    for (int64_t c = 0; c < C; ++c) {
      double g[3][3], tmp[6][3];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          float x;
          memcpy(&x,
                 src + 4 * (f * cv->flt_f + c * cv->flt_c + i * cv->flt_h +
                            j * cv->flt_w),
                 4);
          g[i][j] = x;
        }
      }
      for (int a = 0; a < 6; ++a) {
        for (int j = 0; j < 3; ++j) {
          tmp[a][j] = 0;
          for (int i = 0; i < 3; ++i) {
            tmp[a][j] += kiln_cpu_winograd_g[a][i] * g[i][j];
          }
        }
      }
      for (int a = 0; a < 6; ++a) {
        for (int b = 0; b < 6; ++b) {
          double s = 0;
          for (int j = 0; j < 3; ++j) {
            s += tmp[a][j] * kiln_cpu_winograd_g[b][j];
          }
          packed[(a * 6 + b) * np * C + (f / 16) * C * 16 + c * 16 + f % 16] =
              (float)s;
        }
      }
    }
  }
  KILN_RETURN_IF_ERROR(kiln_cpu_replace_region_constant(
      context, region, binding, def, type, attr));
  *out_done = true;
  return kiln_ok_status();
}

// The geometry the Winograd entry takes (|op|'s convolution in |cv|).
static bool kiln_cpu_winograd_shape_ok(kiln_ir_context_t* context,
                                       kiln_ir_op_t* op, bool any_size,
                                       kiln_conv2d_t* cv) {
  if (!op || !kiln_conv2d_match(context, op, cv)) return false;
  if (cv->kh != 3 || cv->kw != 3 || cv->sh != 1 || cv->sw != 1 || cv->dh != 1 ||
      cv->dw != 1 || cv->c < KILN_CPU_WINOGRAD_MIN_INPUT_CHANNELS ||
      cv->f < KILN_CPU_WINOGRAD_MIN_OUTPUT_CHANNELS || cv->oh != cv->h - 2 ||
      cv->ow != cv->w - 2) {
    return false;
  }
  if (!any_size &&
      ((cv->oh + 3) / 4) * ((cv->ow + 3) / 4) < KILN_CPU_WINOGRAD_MIN_TILES) {
    return false;
  }
  // Channels-last image and output: channels contiguous, pixels rows.
  return cv->img_c == 1 && cv->img_w >= cv->c &&
         cv->img_h >= cv->w * cv->img_w && cv->out_f == 1 &&
         cv->out_w >= cv->f && cv->out_h == cv->ow * cv->out_w;
}

// A zero padding of H and W only (NHWC), of a static dense source.
static bool kiln_cpu_winograd_pad_ok(const kiln_window_pad_t* wp) {
  return kiln_window_pad_is_spatial(wp, true) && wp->value == 0.0 &&
         wp->source && kiln_cpu_is_static_f32_tensor(wp->source->type, 4);
}

bool kiln_cpu_window_pad_ok_winograd(kiln_ir_context_t* context,
                                     kiln_ir_op_t* root, kiln_ir_op_t* pad,
                                     bool any_size) {
  kiln_conv2d_t cv;
  kiln_window_pad_t wp;
  return kiln_cpu_winograd_shape_ok(context, root, any_size, &cv) &&
         kiln_window_pad_match(context, pad, &wp) &&
         kiln_cpu_winograd_pad_ok(&wp);
}

bool kiln_cpu_match_winograd(kiln_ir_context_t* context, kiln_ir_op_t* region,
                             bool any_size, kiln_cpu_winograd_t* out,
                             kiln_status_t* out_status) {
  *out_status = kiln_ok_status();
  memset(out, 0, sizeof(*out));
  kiln_ir_op_t* op = kiln_cpu_epilogue_root(context, region);
  kiln_conv2d_t* cv = &out->cv;
  if (!kiln_cpu_winograd_shape_ok(context, op, any_size, cv)) return false;
  kiln_cpu_gemm_t* g = &out->gemm;
  kiln_window_pad_t wp;
  if (!kiln_cpu_match_conv_padded(context, region, g, &wp)) return false;
  // A full init tensor is not supported (a per-channel bias is).
  if (g->has_init && !g->init_per_column) return false;
  if (g->out.offset || g->lhs.offset) return false;
  if (wp.source) {
    if (!kiln_cpu_winograd_pad_ok(&wp)) return false;
    const int64_t* d = wp.source->type->shaped.dims;
    out->image_h = d[1], out->image_w = d[2];
    out->pad_top = wp.lo[1], out->pad_left = wp.lo[2];
    out->image_stride_w = d[3];
    out->image_stride_h = d[2] * d[3];
    out->image_stride_n = d[1] * d[2] * d[3];
  } else {
    out->image_h = cv->h, out->image_w = cv->w;
    out->image_stride_h = cv->img_h, out->image_stride_w = cv->img_w;
    out->image_stride_n = cv->img_n;
  }
  out->image_binding = g->lhs.binding;
  out->filter_binding = g->rhs.binding;
  bool done = false;
  *out_status = kiln_cpu_winograd_pack_filter(context, region, cv,
                                              out->filter_binding, &done);
  return !*out_status && done;
}

static int64_t kiln_cpu_winograd_tiles(const kiln_conv2d_t* cv) {
  return ((cv->oh + 3) / 4) * ((cv->ow + 3) / 4);
}

// Output channels per workgroup: KILN_CPU_WINOGRAD_NB, or half the output
// channels (in 16-column tiles) when that would leave a single workgroup per
// image: DenseNet-121's 14x14 layers (16 tiles, 32 output channels) ran on
// one thread. Each half transforms the same input tiles again, a small cost
// against the products and output transform it takes off the other thread.
static int64_t kiln_cpu_winograd_nb(const kiln_cpu_winograd_t* w) {
  const int64_t row_blocks =
      (kiln_cpu_winograd_tiles(&w->cv) + KILN_CPU_WINOGRAD_WT - 1) /
      KILN_CPU_WINOGRAD_WT;
  if (row_blocks > 1 || w->cv.f > KILN_CPU_WINOGRAD_NB || w->cv.f <= 16) {
    return KILN_CPU_WINOGRAD_NB;
  }
  return ((w->cv.f + 1) / 2 + 15) / 16 * 16;
}

void kiln_cpu_winograd_workgroups(const kiln_cpu_winograd_t* w,
                                  int64_t out_count[3]) {
  const int64_t nb = kiln_cpu_winograd_nb(w);
  out_count[0] = (kiln_cpu_winograd_tiles(&w->cv) + KILN_CPU_WINOGRAD_WT - 1) /
                 KILN_CPU_WINOGRAD_WT;
  out_count[1] = (w->cv.f + nb - 1) / nb;
  out_count[2] = w->cv.n;
}

uint32_t kiln_cpu_winograd_local_memory(const kiln_cpu_winograd_t* w) {
  // Plus one cache line of padding after each point's V and products.
  return 4u * 36u * KILN_CPU_WINOGRAD_WT *
             (KILN_CPU_WINOGRAD_KB + (uint32_t)kiln_cpu_winograd_nb(w)) +
         4u * 36u * 2u * 16u + 64u;
}

void kiln_cpu_emit_winograd_entry(const kiln_cpu_winograd_t* w,
                                  const char* c_name,
                                  kiln_ir_string_builder_t* out) {
  const kiln_conv2d_t* cv = &w->cv;
  const kiln_cpu_gemm_t* g = &w->gemm;
  uint32_t max_binding = g->out.binding;
  if (w->image_binding > max_binding) max_binding = w->image_binding;
  if (w->filter_binding > max_binding) max_binding = w->filter_binding;
  if (g->has_init && g->init.binding > max_binding) {
    max_binding = g->init.binding;
  }
  const int64_t np = (cv->f + 15) / 16 * 16;
  kiln_ir_sb_printf(
      out,
      "// f32 3x3 convolution %" PRId64 "x%" PRId64 "x%" PRId64 " -> %" PRId64
      " (batch %" PRId64
      "): Winograd F(4x4, 3x3), filter transformed at compile time.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  const int64_t C = %" PRId64 ", F = %" PRId64 ", H = %" PRId64
      ", W = %" PRId64 ", OH = %" PRId64 ", OW = %" PRId64
      ";\n"
      "  const int64_t PT = %" PRId64 ", PL = %" PRId64
      ";\n"
      "  const int64_t TW = (OW + 3) / 4, T = TW * ((OH + 3) / 4);\n"
      "  const int64_t WT = %d, NB = %" PRId64 ", KB = %d, PS = %" PRId64
      " * C;\n"
      "  if (env->import_count < 6 || ds->binding_count <= %u) return "
      "KILN_CPU_FAIL_BINDING;\n"
      "  uint64_t features = env->cpu_features;\n"
      "  kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(\n"
      "      KILN_UKERNEL_MMT4D_F32F32F32, features, KILN_UKERNEL_ISA_NATIVE, "
      "0);\n"
      "  if (t.K0 != 1 || t.M0 <= 0 || WT %% t.M0 || t.N0 <= 0 || 16 %% t.N0) "
      "return KILN_CPU_FAIL_PROGRAM;\n"
      "  const int64_t tb = (int64_t)wg->workgroup_id_x * WT;\n"
      "  const int64_t n0 = (int64_t)wg->workgroup_id_y * NB;\n"
      "  const int64_t b = wg->workgroup_id_z;\n"
      "  if (tb >= T || n0 >= F) return 0;\n"
      "  const int64_t nt = T - tb < WT ? T - tb : WT;\n"
      "  const int64_t cols = F - n0 < NB ? F - n0 : NB;\n"
      "  const int64_t M1 = (nt + t.M0 - 1) / t.M0, N1 = (cols + t.N0 - 1) / "
      "t.N0;\n"
      // The 36 points' matrices lie one cache line further apart than
      // their size: their sizes are powers of two (16 tiles x 128
      // channels), and packed back to back the 36 rows a tile's transform
      // reads or writes all fell in one L1 set.
      "  const int64_t AS = M1 * N1 * t.M0 * t.N0 + 16;\n"
      "  size_t need = 4 * (size_t)(36 * (M1 * t.M0 * KB + 16) + 36 * AS);\n"
      "  if (!wg->local_memory || wg->local_memory_size < need) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "  float* v = (float*)wg->local_memory;\n"
      "  float* acc = v + 36 * (M1 * t.M0 * KB + 16);\n"
      "  const float* img = (const float*)ds->binding_ptrs[%u] + b * %" PRId64
      ";\n"
      "  const float* u = (const float*)ds->binding_ptrs[%u];\n"
      "  float* out = (float*)ds->binding_ptrs[%u] + b * %" PRId64 ";\n",
      cv->h, cv->w, cv->c, cv->f, cv->n, c_name, cv->c, cv->f, w->image_h,
      w->image_w, cv->oh, cv->ow, w->pad_top, w->pad_left, KILN_CPU_WINOGRAD_WT,
      kiln_cpu_winograd_nb(w), KILN_CPU_WINOGRAD_KB, np, max_binding,
      w->image_binding, w->image_stride_n, w->filter_binding, g->out.binding,
      cv->out_n);
  kiln_ir_sb_printf(
      out,
      "  for (int64_t k0 = 0; k0 < C; k0 += KB) {\n"
      "    const int64_t kc = C - k0 < KB ? C - k0 : KB;\n"
      "    const int64_t VS = M1 * t.M0 * kc + 16;\n"
      "    kiln_ukernel_winograd_input_params_t wi;\n"
      "    memset(&wi, 0, sizeof(wi));\n"
      "    wi.in = img; wi.out = v; wi.in_stride_h = %" PRId64
      "; wi.in_stride_w = %" PRId64
      ";\n"
      "    wi.h = H; wi.w = W; wi.pad_top = PT; wi.pad_left = PL;\n"
      "    wi.tiles_w = TW; wi.tile0 = tb; wi.tiles = nt;\n"
      "    wi.out_size0 = M1; wi.c0 = k0; wi.kc = kc;\n"
      "    wi.out_stride_point = VS; wi.tile_size0 = t.M0;\n"
      "    wi.flags = KILN_UKERNEL_WINOGRAD_FLAG_LHS_ROW_MAJOR;\n"
      "    wi.cpu_features = features;\n"
      "    if (env->import_funcs[4](env->import_contexts[4], &wi, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "    kiln_ukernel_mmt4d_params_t mp;\n"
      "    memset(&mp, 0, sizeof(mp));\n"
      "    mp.lhs_stride0 = kc * t.M0; mp.out_stride0 = N1 * t.M0 * t.N0;\n"
      "    mp.M1 = M1; mp.K1 = kc; mp.M0 = t.M0; mp.N0 = t.N0; mp.K0 = 1;\n"
      "    mp.type = KILN_UKERNEL_MMT4D_F32F32F32;\n"
      "    mp.flags = KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR |\n"
      "               (k0 ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0);\n"
      "    mp.lhs_stride1 = kc;\n"
      "    mp.cpu_features = features;\n"
      // A 16-column panel holds 16 / N0 tiles (matmul_entry.c's panels).
      "    const int64_t tpp = 16 / t.N0;\n"
      "    for (int p = 0; p < 36; ++p) {\n"
      "      mp.lhs = v + p * VS;\n"
      "      for (int64_t j = 0; j < N1; j += tpp) {\n"
      "        mp.rhs = u + p * PS + ((n0 + j * t.N0) / 16) * (C * 16) + k0 * "
      "16;\n"
      "        mp.rhs_stride0 = tpp == 1 ? C * 16 : t.N0;\n"
      "        mp.rhs_stride1 = tpp == 1 ? 0 : 16;\n"
      "        mp.N1 = tpp == 1 ? N1 : N1 - j < tpp ? N1 - j : tpp;\n"
      "        mp.out = acc + p * AS + j * t.M0 * t.N0;\n"
      "        if (env->import_funcs[1](env->import_contexts[1], &mp, 0)) "
      "return KILN_CPU_FAIL_PROGRAM;\n"
      "        if (tpp == 1) break;\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  kiln_ukernel_winograd_output_params_t wo;\n"
      "  memset(&wo, 0, sizeof(wo));\n"
      "  wo.in = acc; wo.out = out + n0; wo.in_stride_point = AS;\n"
      "  wo.in_stride0 = N1 * t.M0 * t.N0;\n"
      "  wo.out_stride_h = %" PRId64 "; wo.out_stride_w = %" PRId64
      ";\n"
      "  wo.oh = OH; wo.ow = OW; wo.tiles_w = TW; wo.tile0 = tb; wo.tiles = "
      "nt;\n"
      "  wo.cols = cols; wo.tile_size0 = t.M0; wo.tile_size1 = t.N0;\n"
      "  wo.cpu_features = features;\n",
      w->image_stride_h, w->image_stride_w, cv->out_h, cv->out_w);
  if (g->has_init) {
    kiln_ir_sb_printf(
        out,
        "  wo.bias = (const float*)ds->binding_ptrs[%u] + %" PRId64 " + n0;\n",
        g->init.binding, g->init.offset);
  }
  kiln_ir_sb_printf(out,
                    "  if (env->import_funcs[5](env->import_contexts[5], &wo, "
                    "0)) return KILN_CPU_FAIL_PROGRAM;\n");
  if (g->epilogue) {
    // The tiles' elementwise consumers, while they are in cache: pixel r
    // of the output is row r of the gemm view (o = b * BS_ + r * RS_ + c).
    kiln_ir_sb_printf(
        out,
        "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
        "  const int64_t BS_ = %" PRId64 ", RS_ = %" PRId64
        ";\n"
        "  for (int64_t ti = tb; ti < tb + nt; ++ti) {\n"
        "   for (int64_t y = (ti / TW) * 4; y < (ti / TW) * 4 + 4 && y < OH; "
        "++y) {\n"
        "    for (int64_t x = (ti %% TW) * 4; x < (ti %% TW) * 4 + 4 && x < "
        "OW; ++x) {\n"
        "     const int64_t r = y * OW + x;\n"
        "     for (int64_t c = n0; c < n0 + cols; ++c) {\n",
        g->out.binding, g->out.batch_stride, g->out.stride);
    kiln_cpu_epilogue_emit_element(g->epilogue_type, g->out.batch_stride,
                                   g->out.stride, g->epilogue, out);
    kiln_ir_sb_printf(out,
                      "     }\n"
                      "    }\n"
                      "   }\n"
                      "  }\n");
  }
  kiln_ir_sb_printf(out,
                    "  return 0;\n"
                    "}\n\n");
}
