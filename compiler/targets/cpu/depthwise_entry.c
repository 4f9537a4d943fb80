#include "compiler/targets/cpu/depthwise_entry.h"

#include <inttypes.h>
#include <string.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/epilogue.h"
#include "compiler/targets/cpu/matmul_entry.h"

static bool kiln_cpu_is_f32_4d(const kiln_ir_type_t* t) {
  return kiln_ir_type_is_ranked_tensor(t) && kiln_ir_type_has_static_shape(t) &&
         t->shaped.rank == 4 && kiln_ir_type_is_float(t->shaped.element) &&
         t->shaped.element->flt.kind == KILN_IR_F32;
}

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

bool kiln_cpu_match_depthwise(kiln_ir_context_t* context, kiln_ir_op_t* region,
                              kiln_cpu_depthwise_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* op = kiln_cpu_epilogue_root(context, region);
  if (!op || !kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
      kiln_ir_op_num_regular_operands(op) != 3) {
    return false;
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (!kiln_cpu_is_f32_4d(kiln_ir_op_operand(op, i)->type)) return false;
  }
  kiln_structured_op_t s;
  kiln_status_t status = kiln_structured_op_get(context, op, &s);
  if (status) {
    kiln_status_free(status);
    return false;
  }
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
  static const int64_t kFilterDims[4] = {1, 4, 5, 6};
  for (size_t r = 0; r < 4; ++r) {
    int64_t d, o;
    if (!kiln_ir_affine_map_result_is_dim(flt, r, &d) || d != kFilterDims[r] ||
        !kiln_ir_affine_map_result_is_dim(res, r, &o) || o != (int64_t)r) {
      return false;
    }
  }
  int64_t d0, one_c, one_g, sh, dh, sw, dw;
  if (!kiln_ir_affine_map_result_is_dim(img, 0, &d0) || d0 != 0 ||
      !kiln_cpu_dw_terms(img, 1, 1, 4, &one_c, &one_g) || one_c != 1 ||
      one_g != 1 || !kiln_cpu_dw_terms(img, 2, 2, 5, &sh, &dh) ||
      !kiln_cpu_dw_terms(img, 3, 3, 6, &sw, &dw) || s.ranges[4] != 1) {
    return false;
  }
  kiln_ir_value_t* image = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* filter = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 2);
  if (image->kind != KILN_IR_VALUE_BLOCK_ARG || image->owner_block != body ||
      filter->kind != KILN_IR_VALUE_BLOCK_ARG || filter->owner_block != body ||
      !kiln_cpu_value_is_zero(init)) {
    return false;
  }
  const int64_t* id = image->type->shaped.dims;
  out->n = s.ranges[0], out->c = s.ranges[1];
  out->oh = s.ranges[2], out->ow = s.ranges[3];
  out->kh = s.ranges[5], out->kw = s.ranges[6];
  out->h = id[2], out->w = id[3];
  out->sh = sh, out->sw = sw, out->dh = dh, out->dw = dw;
  if (id[0] != out->n || id[1] != out->c ||
      (out->oh - 1) * sh + (out->kh - 1) * dh >= out->h ||
      (out->ow - 1) * sw + (out->kw - 1) * dw >= out->w) {
    return false;
  }
  out->img_binding = image->index;
  out->flt_binding = filter->index;
  out->out_binding = kiln_ir_op_num_regular_operands(region);
  bool ok = false;
  out->epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
  return ok;
}

void kiln_cpu_depthwise_workgroups(const kiln_cpu_depthwise_t* d,
                                   int64_t out_count[3]) {
  out_count[0] = d->c;
  out_count[1] = 1;
  out_count[2] = d->n;
}

void kiln_cpu_emit_depthwise_entry(const kiln_cpu_depthwise_t* d,
                                   const char* c_name,
                                   kiln_ir_string_builder_t* out) {
  uint32_t max_binding = d->out_binding;
  if (d->img_binding > max_binding) max_binding = d->img_binding;
  if (d->flt_binding > max_binding) max_binding = d->flt_binding;
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
      ", SW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64
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
      "  for (int64_t y = 0; y < OH; ++y) {\n"
      "    float* restrict orow = plane + y * OW;\n"
      "    for (int64_t x = 0; x < OW; ++x) orow[x] = 0.0f;\n"
      "    for (int64_t i = 0; i < KH; ++i) {\n"
      "      for (int64_t j = 0; j < KW; ++j) {\n"
      "        const float wv = flt[i * KW + j];\n"
      "        const float* restrict ip = img + (y * SH + i * DH) * W + j * "
      "DW;\n"
      "        for (int64_t x = 0; x < OW; ++x) orow[x] += wv * ip[x * SW];\n"
      "      }\n"
      "    }\n",
      d->c, d->h, d->w, d->oh, d->ow, d->kh, d->kw, d->n, c_name, d->c, d->h,
      d->w, d->oh, d->ow, d->kh, d->kw, d->sh, d->sw, d->dh, d->dw, max_binding,
      d->n, d->img_binding, d->flt_binding, d->out_binding);
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
