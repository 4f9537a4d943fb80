#include "compiler/targets/cpu/depthwise_entry.h"

#include <inttypes.h>
#include <string.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/dispatch/window_pad.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/epilogue.h"
#include "compiler/targets/cpu/matmul_entry.h"
#include "compiler/targets/cpu/pooling_entry.h"

// True when result |r| of |map| is the terms {(da, 1 or ca), (db, cb)} in
// either order; fills the coefficients.
static bool kiln_cpu_dw_terms(const kiln_ir_affine_map_t* map, size_t r,
                              int64_t da, int64_t db, int64_t* ca,
                              int64_t* cb) {
  int count = 0;
  int64_t dim[2], coeff[2];
  if (!kiln_conv2d_map_terms(map->results[r], &count, dim, coeff) ||
      count != 2) {
    return false;
  }
  int a = dim[0] == da ? 0 : 1;
  if (dim[a] != da || dim[1 - a] != db) return false;
  *ca = coeff[a];
  *cb = coeff[1 - a];
  return true;
}

// The channels-last form (what convert-conv-to-channels-last makes): loops
// (n, oh, ow, c | g, kh, kw), filter (kh, kw, g, c), identity output,
// image (n, SH * oh + DH * kh, SW * ow + DW * kw, c + g), g of extent 1.
static bool kiln_cpu_match_depthwise_nhwc(const kiln_structured_op_t* s,
                                          kiln_ir_op_t* op,
                                          kiln_cpu_depthwise_t* dw) {
  const kiln_ir_affine_map_t* img = s->maps[0];
  const kiln_ir_affine_map_t* flt = s->maps[1];
  const kiln_ir_affine_map_t* res = s->maps[2];
  static const int64_t kFilterDims[4] = {5, 6, 4, 3};
  for (size_t r = 0; r < 4; ++r) {
    int64_t d, o;
    if (!kiln_ir_affine_map_result_is_dim(flt, r, &d) || d != kFilterDims[r] ||
        !kiln_ir_affine_map_result_is_dim(res, r, &o) || o != (int64_t)r) {
      return false;
    }
  }
  int64_t d0, one_c, one_g, sh, dh, sw, dw_;
  if (!kiln_ir_affine_map_result_is_dim(img, 0, &d0) || d0 != 0 ||
      !kiln_cpu_dw_terms(img, 3, 3, 4, &one_c, &one_g) || one_c != 1 ||
      one_g != 1 || !kiln_cpu_dw_terms(img, 1, 1, 5, &sh, &dh) ||
      !kiln_cpu_dw_terms(img, 2, 2, 6, &sw, &dw_) || s->ranges[4] != 1 ||
      !kiln_cpu_value_is_zero(kiln_ir_op_operand(op, 2))) {
    return false;
  }
  memset(dw, 0, sizeof(*dw));
  dw->nhwc = true;
  dw->n = s->ranges[0], dw->c = s->ranges[3];
  dw->oh = s->ranges[1], dw->ow = s->ranges[2];
  dw->kh = s->ranges[5], dw->kw = s->ranges[6];
  dw->sh = sh, dw->sw = sw, dw->dh = dh, dw->dw = dw_;
  return true;
}

bool kiln_cpu_window_pad_ok_depthwise_nhwc(kiln_ir_context_t* context,
                                           kiln_ir_op_t* root,
                                           kiln_ir_op_t* pad) {
  kiln_cpu_depthwise_t d;
  kiln_window_pad_t wp;
  return kiln_cpu_match_depthwise_op(context, root, &d) && d.nhwc &&
         kiln_window_pad_match(context, pad, &wp) &&
         kiln_window_pad_is_spatial(&wp, true) && wp.value == 0.0;
}

bool kiln_cpu_match_depthwise_op(kiln_ir_context_t* context, kiln_ir_op_t* op,
                                 kiln_cpu_depthwise_t* out) {
  kiln_cpu_depthwise_t dw;
  memset(&dw, 0, sizeof(dw));
  if (out) memset(out, 0, sizeof(*out));
  if (!op || !kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
      kiln_ir_op_num_regular_operands(op) != 3) {
    return false;
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (!kiln_cpu_is_static_f32_tensor(kiln_ir_op_operand(op, i)->type, 4))
      return false;
  }
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, op, &s)) return false;
  if (s.num_ins != 2 || s.num_outs != 1 || s.num_dims != 7 ||
      !kiln_conv2d_body_is_mul_add(s.body)) {
    return false;
  }
  // Loops (n, c, oh, ow) parallel, (group channel, kh, kw) reductions.
  for (int d = 0; d < 7; ++d) {
    if (s.is_reduction[d] != (d >= 4)) return false;
  }
  const kiln_ir_affine_map_t* img = s.maps[0];
  const kiln_ir_affine_map_t* flt = s.maps[1];
  const kiln_ir_affine_map_t* res = s.maps[2];
  if (img->num_results != 4 || flt->num_results != 4 || res->num_results != 4) {
    return false;
  }
  if (kiln_cpu_match_depthwise_nhwc(&s, op, &dw)) {
    if (out) *out = dw;
    return true;
  }
  static const int64_t kFilterDims[4] = {1, 4, 5, 6};
  for (size_t r = 0; r < 4; ++r) {
    int64_t d, o;
    if (!kiln_ir_affine_map_result_is_dim(flt, r, &d) || d != kFilterDims[r] ||
        !kiln_ir_affine_map_result_is_dim(res, r, &o) || o != (int64_t)r) {
      return false;
    }
  }
  int64_t d0, one_c, one_g, sh, dh, sw, dw_;
  if (!kiln_ir_affine_map_result_is_dim(img, 0, &d0) || d0 != 0 ||
      !kiln_cpu_dw_terms(img, 1, 1, 4, &one_c, &one_g) || one_c != 1 ||
      one_g != 1 || !kiln_cpu_dw_terms(img, 2, 2, 5, &sh, &dh) ||
      !kiln_cpu_dw_terms(img, 3, 3, 6, &sw, &dw_) || s.ranges[4] != 1 ||
      !kiln_cpu_value_is_zero(kiln_ir_op_operand(op, 2))) {
    return false;
  }
  dw.n = s.ranges[0], dw.c = s.ranges[1];
  dw.oh = s.ranges[2], dw.ow = s.ranges[3];
  dw.kh = s.ranges[5], dw.kw = s.ranges[6];
  dw.sh = sh, dw.sw = sw, dw.dh = dh, dw.dw = dw_;
  if (out) *out = dw;
  return true;
}

bool kiln_cpu_match_depthwise(kiln_ir_context_t* context, kiln_ir_op_t* region,
                              kiln_cpu_depthwise_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* op = kiln_cpu_epilogue_root(context, region);
  kiln_cpu_depthwise_t d;
  kiln_cpu_window_image_t im;
  if (!kiln_cpu_match_depthwise_op(context, op, &d) ||
      !kiln_cpu_window_image(context, body, op, d.nhwc, 0.0, &im)) {
    return false;
  }
  kiln_ir_value_t* filter = kiln_ir_op_operand(op, 1);
  if (filter->kind != KILN_IR_VALUE_BLOCK_ARG || filter->owner_block != body ||
      im.n != d.n || im.c != d.c ||
      (d.oh - 1) * d.sh + (d.kh - 1) * d.dh >= im.padded_h ||
      (d.ow - 1) * d.sw + (d.kw - 1) * d.dw >= im.padded_w) {
    return false;
  }
  d.h = im.h, d.w = im.w;
  d.pad_top = im.pad_top, d.pad_left = im.pad_left;
  d.img_binding = im.binding;
  d.flt_binding = filter->index;
  d.out_binding = kiln_dispatch_num_tensor_operands(region);
  bool ok = false;
  d.epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
  if (!ok) return false;
  // A bias + clamp: its own vector form (kiln_cpu_emit_depthwise_bias_clamp);
  // a bias + SiLU: the runtime's, per output row.
  const bool bias_act =
      d.nhwc && d.epilogue &&
      kiln_cpu_epilogue_match_bias_clamp(context, region, op, &d.bc);
  d.bias_clamp = bias_act && !d.bc.silu;
  d.bias_silu = bias_act && d.bc.silu;
  *out = d;
  return true;
}

void kiln_cpu_depthwise_workgroups(const kiln_cpu_depthwise_t* d,
                                   int64_t out_count[3]) {
  out_count[0] = d->nhwc ? d->oh : d->c;
  out_count[1] = 1;
  out_count[2] = d->n;
}

// Channels-last: one output row per workgroup. Channels go in blocks of
// 16 (a GCC/Clang vector type: one zmm on AVX-512, split by the compiler
// elsewhere): the block's KH x KW filter taps stay in registers and four
// adjacent interior outputs (every tap inside the image) accumulate in
// registers at once, so each input vector is loaded once per tap and no
// partial sum goes through memory; the border outputs check each tap.
// Channels past the last full block add one run of channels per tap in
// place. Every output sums its taps in the generic op's order (kh, then
// kw) from zero, skipping padding, so results match the generic path bit
// for bit.
// |c_name| (a macro call such as KILN_CPU_DISPATCH(@@), whose @@ the
// backend replaces with the function's index) as an identifier prefix for
// the entry's own helpers.
static void kiln_cpu_depthwise_prefix(const char* c_name, char* buf,
                                      size_t size) {
  size_t n = 0;
  for (const char* p = c_name; *p && n + 1 < size; ++p) {
    const char ch = *p;
    const bool ident = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                       (ch >= '0' && ch <= '9') || ch == '_' || ch == '@';
    buf[n++] = ident ? ch : '_';
  }
  buf[n] = 0;
}

// The bias + clamp of |d| on one accumulator vector (|prefix|_bc), with the
// scalar ops of the epilogue it replaces (t = v + b; t > lo ? t : lo; then
// < hi ? : hi; a NaN t gives t + lo: numerics.h's kiln_vm_clamp_f32_const of
// v + b, which the tail channels call), written with GCC/Clang vector
// compares and masks (C has no vector ?:).
static void kiln_cpu_emit_depthwise_bias_clamp(const kiln_cpu_depthwise_t* d,
                                               const char* prefix,
                                               kiln_ir_string_builder_t* out) {
  uint32_t lo, hi;
  memcpy(&lo, &d->bc.lo, sizeof(lo));
  memcpy(&hi, &d->bc.hi, sizeof(hi));
  kiln_ir_sb_printf(
      out,
      "typedef float %s_v16 __attribute__((vector_size(64), aligned(4), "
      "may_alias));\n"
      "typedef int32_t %s_m16 __attribute__((vector_size(64)));\n"
      "static inline %s_v16 %s_bc(%s_v16 v, %s_v16 b) {\n"
      "  const %s_v16 lo = (%s_v16){0} + kiln_vm_bits_to_f32(0x%08" PRIx32
      "u);\n"
      "  const %s_v16 hi = (%s_v16){0} + kiln_vm_bits_to_f32(0x%08" PRIx32
      "u);\n"
      "  const %s_v16 t = v + b;\n"
      "  %s_m16 m = t > lo;\n"
      "  %s_v16 r = (%s_v16)((m & (%s_m16)t) | (~m & (%s_m16)lo));\n"
      "  m = r < hi;\n"
      "  r = (%s_v16)((m & (%s_m16)r) | (~m & (%s_m16)hi));\n"
      "  m = t != t;\n"
      "  return (%s_v16)((m & (%s_m16)(t + lo)) | (~m & (%s_m16)r));\n"
      "}\n",
      prefix, prefix, prefix, prefix, prefix, prefix, prefix, prefix, lo,
      prefix, prefix, hi, prefix, prefix, prefix, prefix, prefix, prefix,
      prefix, prefix, prefix, prefix, prefix, prefix);
}

static void kiln_cpu_emit_depthwise_nhwc(const kiln_cpu_depthwise_t* d,
                                         const char* c_name,
                                         uint32_t max_binding,
                                         kiln_ir_string_builder_t* out) {
  // With the bias + clamp, each vector store goes through the helper
  // (KILN_DW_OUT) and the tail channels through numerics.h's scalar clamp;
  // else the sums are stored as they are.
  char bias_decl[160] = "", tail_clamp[256] = "";
  if (d->bias_clamp) {
    char prefix[128];
    kiln_cpu_depthwise_prefix(c_name, prefix, sizeof(prefix));
    kiln_cpu_emit_depthwise_bias_clamp(d, prefix, out);
    uint32_t lo, hi;
    memcpy(&lo, &d->bc.lo, sizeof(lo));
    memcpy(&hi, &d->bc.hi, sizeof(hi));
    snprintf(
        bias_decl, sizeof(bias_decl),
        "  const float* const bias = (const float*)ds->binding_ptrs[%u];\n",
        d->bc.bias_binding);
    snprintf(tail_clamp, sizeof(tail_clamp),
             "    for (int64_t c = C16; c < C; ++c) acc[c] = "
             "kiln_vm_clamp_f32_const(acc[c] + bias[c], kiln_vm_bits_to_f32("
             "0x%08" PRIx32 "u), kiln_vm_bits_to_f32(0x%08" PRIx32 "u));\n",
             lo, hi);
    kiln_ir_sb_printf(out,
                      "#define KILN_DW_BIAS_VECTOR const v16_t bv = *(const "
                      "v16_t*)(bias + c0);\n"
                      "#define KILN_DW_OUT(v) ((v16_t)%s_bc((%s_v16)(v), "
                      "(%s_v16)bv))\n",
                      prefix, prefix, prefix);
  } else {
    kiln_ir_sb_printf(out,
                      "#define KILN_DW_BIAS_VECTOR\n"
                      "#define KILN_DW_OUT(v) (v)\n");
  }
  kiln_ir_sb_printf(
      out,
      "// f32 depthwise convolution %" PRId64 " x %" PRId64 "x%" PRId64
      " -> %" PRId64 "x%" PRId64 " (window %" PRId64 "x%" PRId64
      ", batch %" PRId64
      ", NHWC): direct, one output row per workgroup, vectorized over "
      "channels.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  enum { C = %" PRId64 ", C16 = %" PRId64
      " };\n"
      "  enum { H = %" PRId64 ", W = %" PRId64 ", OH = %" PRId64
      ", OW = %" PRId64
      " };\n"
      "  enum { KH = %" PRId64 ", KW = %" PRId64 ", SH = %" PRId64
      ", SW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ", PT = %" PRId64
      ", PL = %" PRId64
      " };\n"
      "  typedef float v16_t __attribute__((vector_size(64), aligned(4), "
      "may_alias));\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t y = wg->workgroup_id_x, b = wg->workgroup_id_z;\n"
      "  if (y >= OH || b >= %" PRId64
      ") return 0;\n"
      "  const float* const img = (const float*)ds->binding_ptrs[%u] + b * "
      "(int64_t)H * W * C;\n"
      "  const float* const flt = (const float*)ds->binding_ptrs[%u];\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  float* const row = eo + (b * OH + y) * (int64_t)OW * C;\n"
      // Interior columns [xa, xb): every tap column inside the image.
      "  const int64_t xn = (int64_t)W - 1 - (KW - 1) * DW + PL;\n"
      "  int64_t xa = (PL + SW - 1) / SW, xb = xn < 0 ? 0 : xn / SW + 1;\n"
      "  if (xb > OW) xb = OW;\n"
      "  if (xa > xb) xa = xb;\n"
      "%s"
      "  for (int64_t c0 = 0; c0 < C16; c0 += 16) {\n"
      "    KILN_DW_BIAS_VECTOR\n"
      "    v16_t f[KH * KW];\n"
      "    for (int t = 0; t < KH * KW; ++t) f[t] = *(const v16_t*)(flt + t "
      "* C + c0);\n"
      "    const v16_t zero = {0};\n"
      "    for (int64_t x = 0; x < OW; ++x) {\n"
      "      if (x == xa) x = xb;\n"
      "      if (x >= OW) break;\n"
      "      v16_t acc = zero;\n"
      "      for (int i = 0; i < KH; ++i) {\n"
      "        const int64_t r = y * SH + i * DH - PT;\n"
      "        if (r < 0 || r >= H) continue;  // zero padding\n"
      "        for (int j = 0; j < KW; ++j) {\n"
      "          const int64_t q = x * SW + j * DW - PL;\n"
      "          if (q < 0 || q >= W) continue;\n"
      "          acc += *(const v16_t*)(img + (r * W + q) * C + c0) * f[i * KW "
      "+ j];\n"
      "        }\n"
      "      }\n"
      "      *(v16_t*)(row + x * C + c0) = KILN_DW_OUT(acc);\n"
      "    }\n"
      "    int64_t x = xa;\n"
      "    for (; x + 4 <= xb; x += 4) {\n"
      "      v16_t a0 = zero, a1 = zero, a2 = zero, a3 = zero;\n"
      "      for (int i = 0; i < KH; ++i) {\n"
      "        const int64_t r = y * SH + i * DH - PT;\n"
      "        if (r < 0 || r >= H) continue;\n"
      "        const float* const ip = img + (r * W + x * SW - PL) * C + c0;\n"
      "        for (int j = 0; j < KW; ++j) {\n"
      "          const v16_t fv = f[i * KW + j];\n"
      "          const float* const p = ip + j * DW * C;\n"
      "          a0 += *(const v16_t*)p * fv;\n"
      "          a1 += *(const v16_t*)(p + SW * C) * fv;\n"
      "          a2 += *(const v16_t*)(p + 2 * SW * C) * fv;\n"
      "          a3 += *(const v16_t*)(p + 3 * SW * C) * fv;\n"
      "        }\n"
      "      }\n"
      "      *(v16_t*)(row + x * C + c0) = KILN_DW_OUT(a0);\n"
      "      *(v16_t*)(row + (x + 1) * C + c0) = KILN_DW_OUT(a1);\n"
      "      *(v16_t*)(row + (x + 2) * C + c0) = KILN_DW_OUT(a2);\n"
      "      *(v16_t*)(row + (x + 3) * C + c0) = KILN_DW_OUT(a3);\n"
      "    }\n"
      "    for (; x < xb; ++x) {\n"
      "      v16_t acc = zero;\n"
      "      for (int i = 0; i < KH; ++i) {\n"
      "        const int64_t r = y * SH + i * DH - PT;\n"
      "        if (r < 0 || r >= H) continue;\n"
      "        const float* const ip = img + (r * W + x * SW - PL) * C + c0;\n"
      "        for (int j = 0; j < KW; ++j) acc += *(const v16_t*)(ip + j * DW "
      "* C) * f[i * KW + j];\n"
      "      }\n"
      "      *(v16_t*)(row + x * C + c0) = KILN_DW_OUT(acc);\n"
      "    }\n"
      "  }\n"
      "  if (C16 < C) {\n"
      "  for (int64_t x = 0; x < OW; ++x) {\n"
      "    float* restrict acc = row + x * C;\n"
      "    for (int64_t c = C16; c < C; ++c) acc[c] = 0.0f;\n"
      "    for (int64_t i = 0; i < KH; ++i) {\n"
      "      const int64_t r = y * SH + i * DH - PT;\n"
      "      if (r < 0 || r >= H) continue;  // zero padding\n"
      "      for (int64_t j = 0; j < KW; ++j) {\n"
      "        const int64_t q = x * SW + j * DW - PL;\n"
      "        if (q < 0 || q >= W) continue;\n"
      "        const float* restrict ip = img + (r * W + q) * C;\n"
      "        const float* restrict fp = flt + (i * KW + j) * C;\n"
      "        for (int64_t c = C16; c < C; ++c) acc[c] += ip[c] * fp[c];\n"
      "      }\n"
      "    }\n"
      "%s"
      "  }\n"
      "  }\n",
      d->c, d->h, d->w, d->oh, d->ow, d->kh, d->kw, d->n, c_name, d->c,
      d->c / 16 * 16, d->h, d->w, d->oh, d->ow, d->kh, d->kw, d->sh, d->sw,
      d->dh, d->dw, d->pad_top, d->pad_left, max_binding, d->n, d->img_binding,
      d->flt_binding, d->out_binding, bias_decl, tail_clamp);
  kiln_ir_sb_printf(out,
                    "#undef KILN_DW_OUT\n"
                    "#undef KILN_DW_BIAS_VECTOR\n");
  if (d->bias_silu) {
    // The row's bias + SiLU in the runtime's AVX-512 form (the generated
    // loop's vectorized exp took about half again as long).
    kiln_ir_sb_printf(
        out,
        "  {\n"
        "    if (env->import_count < 7 || ds->binding_count <= %u) return "
        "KILN_CPU_FAIL_BINDING;\n"
        "    kiln_ukernel_bias_act_params_t ba;\n"
        "    memset(&ba, 0, sizeof(ba));\n"
        "    ba.out = row; ba.bias = (const float*)ds->binding_ptrs[%u];\n"
        "    ba.rows = OW; ba.cols = C; ba.stride = C;\n"
        "    ba.flags = KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU;\n"
        "    ba.cpu_features = env->cpu_features;\n"
        "    if (env->import_funcs[6](env->import_contexts[6], &ba, 0)) "
        "return KILN_CPU_FAIL_PROGRAM;\n"
        "  }\n",
        d->bc.bias_binding, d->bc.bias_binding);
  } else if (d->epilogue && !d->bias_clamp) {
    kiln_ir_sb_printf(out,
                      "  for (int64_t x = 0; x < OW; ++x) {\n"
                      "    for (int64_t c = 0; c < C; ++c) {\n"
                      "      const int64_t o = ((b * OH + y) * OW + x) * C + "
                      "c;\n"
                      "      const int64_t d0 = b, d1 = y, d2 = x, d3 = c;\n"
                      "      (void)d0, (void)d1, (void)d2, (void)d3;\n"
                      "%s"
                      "    }\n"
                      "  }\n",
                      d->epilogue);
  }
  kiln_ir_sb_printf(out,
                    "  return 0;\n"
                    "}\n\n");
}

void kiln_cpu_emit_depthwise_entry(const kiln_cpu_depthwise_t* d,
                                   const char* c_name,
                                   kiln_ir_string_builder_t* out) {
  uint32_t max_binding = d->out_binding;
  if (d->img_binding > max_binding) max_binding = d->img_binding;
  if (d->flt_binding > max_binding) max_binding = d->flt_binding;
  if (d->nhwc) {
    kiln_cpu_emit_depthwise_nhwc(d, c_name, max_binding, out);
    return;
  }
  kiln_ir_sb_printf(
      out,
      "// f32 depthwise convolution %" PRId64 " x %" PRId64 "x%" PRId64
      " -> %" PRId64 "x%" PRId64 " (window %" PRId64 "x%" PRId64
      ", batch %" PRId64
      "): direct, one channel plane per workgroup.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  const int64_t C = %" PRId64 ", H = %" PRId64 ", W = %" PRId64
      ", OH = %" PRId64 ", OW = %" PRId64
      ";\n"
      "  const int64_t KH = %" PRId64 ", KW = %" PRId64 ", SH = %" PRId64
      ", SW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ", PT = %" PRId64
      ", PL = %" PRId64
      ";\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t f = wg->workgroup_id_x, b = wg->workgroup_id_z;\n"
      "  if (f >= C || b >= %" PRId64
      ") return 0;\n"
      "  const float* const img = (const float*)ds->binding_ptrs[%u] + (b * "
      "C + f) * H * W;\n"
      "  const float* const flt = (const float*)ds->binding_ptrs[%u] + f * "
      "KH * KW;\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  float* const plane = eo + (b * C + f) * OH * OW;\n"
      "  // Interior outputs (every tap inside the image): all taps summed in\n"
      "  // a register per output, a loop over the row the C compiler\n"
      "  // vectorizes with the taps unrolled; the row's border columns\n"
      "  // check each tap. Rows with a tap row outside the image accumulate\n"
      "  // the row tap by tap. Both sum the taps in the generic op's order.\n"
      "  const int64_t yi0 = (PT + SH - 1) / SH, xi0 = (PL + SW - 1) / SW;\n"
      "  const int64_t yn = H - 1 - (KH - 1) * DH + PT;\n"
      "  const int64_t xn = W - 1 - (KW - 1) * DW + PL;\n"
      "  int64_t yi1 = yn < 0 ? 0 : yn / SH + 1;\n"
      "  int64_t xi1 = xn < 0 ? 0 : xn / SW + 1;\n"
      "  if (yi1 > OH) yi1 = OH;\n"
      "  if (xi1 > OW) xi1 = OW;\n"
      "  for (int64_t y = 0; y < OH; ++y) {\n"
      "    float* restrict orow = plane + y * OW;\n"
      "    if (y >= yi0 && y < yi1 && xi0 < xi1) {\n"
      "      const int64_t rb = (y * SH - PT) * W;\n"
      "      for (int64_t x = xi0; x < xi1; ++x) {\n"
      "        float s = 0.0f;\n"
      "        for (int64_t i = 0; i < KH; ++i)\n"
      "          for (int64_t j = 0; j < KW; ++j)\n"
      "            s += flt[i * KW + j] *\n"
      "                 img[rb + i * DH * W + x * SW + j * DW - PL];\n"
      "        orow[x] = s;\n"
      "      }\n"
      "      for (int64_t x = 0; x < OW; ++x) {\n"
      "        if (x == xi0) x = xi1;\n"
      "        if (x >= OW) break;\n"
      "        float s = 0.0f;\n"
      "        for (int64_t i = 0; i < KH; ++i)\n"
      "          for (int64_t j = 0; j < KW; ++j) {\n"
      "            const int64_t c = x * SW + j * DW - PL;\n"
      "            if (c >= 0 && c < W) s += flt[i * KW + j] * img[rb + i * DH "
      "* W + c];\n"
      "          }\n"
      "        orow[x] = s;\n"
      "      }\n"
      "    } else {\n"
      "    for (int64_t x = 0; x < OW; ++x) orow[x] = 0.0f;\n"
      "    for (int64_t i = 0; i < KH; ++i) {\n"
      "      const int64_t r = y * SH + i * DH - PT;\n"
      "      if (r < 0 || r >= H) continue;  // zero padding\n"
      "      for (int64_t j = 0; j < KW; ++j) {\n"
      "        const float wv = flt[i * KW + j];\n"
      "        // Columns x whose tap x * SW + c0 is inside the row.\n"
      "        const int64_t c0 = j * DW - PL;\n"
      "        const int64_t xa = c0 >= 0 ? 0 : (SW - 1 - c0) / SW;\n"
      "        int64_t xb = c0 >= W ? 0 : (W - c0 + SW - 1) / SW;\n"
      "        if (xb > OW) xb = OW;\n"
      "        const float* restrict ip = img + r * W + xa * SW + c0;\n"
      "        for (int64_t x = xa; x < xb; ++x)\n"
      "          orow[x] += wv * ip[(x - xa) * SW];\n"
      "      }\n"
      "    }\n"
      "    }\n",
      d->c, d->h, d->w, d->oh, d->ow, d->kh, d->kw, d->n, c_name, d->c, d->h,
      d->w, d->oh, d->ow, d->kh, d->kw, d->sh, d->sw, d->dh, d->dw, d->pad_top,
      d->pad_left, max_binding, d->n, d->img_binding, d->flt_binding,
      d->out_binding);
  if (d->epilogue) {
    kiln_ir_sb_printf(out,
                      "    for (int64_t x = 0; x < OW; ++x) {\n"
                      "      const int64_t o = ((b * C + f) * OH + y) * OW + "
                      "x;\n"
                      "      const int64_t d0 = b, d1 = f, d2 = y, d3 = x;\n"
                      "      (void)d0, (void)d1, (void)d2, (void)d3;\n"
                      "%s"
                      "    }\n",
                      d->epilogue);
  }
  kiln_ir_sb_printf(out,
                    "  }\n"
                    "  return 0;\n"
                    "}\n\n");
}
