#include "compiler/targets/cpu/pooling_entry.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/dispatch/window_pad.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/depthwise_entry.h"
#include "compiler/targets/cpu/epilogue.h"

bool kiln_cpu_window_image(kiln_ir_context_t* context, kiln_ir_block_t* body,
                           kiln_ir_op_t* op, bool nhwc, double identity,
                           kiln_cpu_window_image_t* out) {
  memset(out, 0, sizeof(*out));
  // Dim positions of the channel and the two spatial dims in either layout.
  const int cd = nhwc ? 3 : 1, hd = nhwc ? 1 : 2, wd = nhwc ? 2 : 3;
  kiln_ir_value_t* v = kiln_ir_op_operand(op, 0);
  if (!kiln_cpu_is_static_f32_tensor(v->type, 4)) return false;
  out->padded_h = v->type->shaped.dims[hd];
  out->padded_w = v->type->shaped.dims[wd];
  if (v->kind == KILN_IR_VALUE_RESULT) {
    kiln_window_pad_t pad;
    kiln_ir_op_t* def = v->defining_op;
    if (!def || def->parent_block != body ||
        !kiln_window_pad_match(context, def, &pad) || pad.lo[0] || pad.hi[0] ||
        pad.lo[cd] || pad.hi[cd] || pad.value != identity) {
      return false;
    }
    out->pad_top = pad.lo[hd], out->pad_left = pad.lo[wd];
    v = pad.source;
  }
  if (v->kind != KILN_IR_VALUE_BLOCK_ARG || v->owner_block != body ||
      !kiln_cpu_is_static_f32_tensor(v->type, 4)) {
    return false;
  }
  const int64_t* d = v->type->shaped.dims;
  out->binding = v->index;
  out->n = d[0], out->c = d[cd], out->h = d[hd], out->w = d[wd];
  return true;
}

// Splits image map result |e| into stride * parallel dim |p| (+ dilation *
// a reduction dim, *r; -1 when absent).
static bool kiln_cpu_pool_term(const kiln_ir_affine_expr_t* e, int64_t p,
                               int64_t* stride, int64_t* r, int64_t* dil) {
  int count = 0;
  int64_t dim[2], coeff[2];
  if (!kiln_conv2d_map_terms(e, &count, dim, coeff) || count < 1) return false;
  int a = dim[0] == p ? 0 : 1;
  if (dim[a] != p || (count == 1 && a != 0)) return false;
  *stride = coeff[a];
  *r = count == 2 ? dim[1 - a] : -1;
  *dil = count == 2 ? coeff[1 - a] : 0;
  return *stride > 0 && (count == 1 || *dil > 0);
}

bool kiln_cpu_match_pool_op(kiln_ir_context_t* context, kiln_ir_op_t* op,
                            kiln_cpu_pool_t* out) {
  kiln_cpu_pool_t p;
  memset(&p, 0, sizeof(p));
  if (out) memset(out, 0, sizeof(*out));
  if (!kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
      kiln_ir_op_num_regular_operands(op) != 3 ||
      !kiln_cpu_is_static_f32_tensor(kiln_ir_op_operand(op, 0)->type, 4) ||
      !kiln_cpu_is_static_f32_tensor(kiln_ir_op_operand(op, 2)->type, 4)) {
    return false;
  }
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, op, &s)) return false;
  if (s.num_ins != 2 || s.num_outs != 1 || s.num_dims < 6 || !s.body ||
      s.body->num_args != 3 || s.maps[2]->num_results != 4 ||
      s.maps[0]->num_results != 4) {
    return false;
  }
  for (size_t r = 0; r < 4; ++r) {
    int64_t d;
    if (!kiln_ir_affine_map_result_is_dim(s.maps[2], r, &d) ||
        d != (int64_t)r) {
      return false;
    }
  }
  for (uint32_t d = 0; d < s.num_dims; ++d) {
    if (s.is_reduction[d] != (d >= 4)) return false;
  }
  // Body: one max or add of the image element and the accumulator.
  kiln_ir_op_t* combine = s.body->first_op;
  kiln_ir_op_t* yield = combine ? combine->next : NULL;
  if (!yield || yield->next || !kiln_ir_op_is(yield, "linalg.yield") ||
      yield->num_operands != 1 || combine->num_operands != 2 ||
      kiln_ir_op_operand(yield, 0) != &combine->results[0]) {
    return false;
  }
  p.is_max = kiln_ir_op_is(combine, "arith.maximumf");
  if (!p.is_max && !kiln_ir_op_is(combine, "arith.addf")) return false;
  kiln_ir_value_t* x = s.body->args[0];
  kiln_ir_value_t* acc = s.body->args[2];
  kiln_ir_value_t* a0 = kiln_ir_op_operand(combine, 0);
  kiln_ir_value_t* a1 = kiln_ir_op_operand(combine, 1);
  if (!((a0 == acc && a1 == x) || (a0 == x && a1 == acc))) return false;
  p.acc_first = a0 == acc;
  // Image map: (n [+ r], c [+ r], SH * oh + DH * kh, SW * ow + DW * kw),
  // every other reduction of extent 1.
  int64_t window_dim[4], stride[4], dil[4];
  for (int r = 0; r < 4; ++r) {
    if (!kiln_cpu_pool_term(s.maps[0]->results[r], r, &stride[r],
                            &window_dim[r], &dil[r])) {
      return false;
    }
  }
  // NCHW: windows on dims 2 and 3; channels-last (NHWC): on 1 and 2 (the
  // form convert-conv-to-channels-last makes).
  int hd = 2, wd = 3;
  for (int form = 0;; ++form) {
    if (form == 2) return false;
    hd = form ? 1 : 2, wd = form ? 2 : 3;
    p.nhwc = form == 1;
    bool ok = stride[0] == 1 && stride[form ? 3 : 1] == 1 &&
              window_dim[hd] >= 0 && window_dim[wd] >= 0 &&
              window_dim[hd] != window_dim[wd];
    for (uint32_t d = 4; ok && d < s.num_dims; ++d) {
      ok = (int64_t)d == window_dim[hd] || (int64_t)d == window_dim[wd] ||
           s.ranges[d] == 1;
    }
    if (ok) break;
  }
  // The init: a splat constant (the reduction's start).
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 2);
  kiln_ir_op_t* def =
      init->kind == KILN_IR_VALUE_RESULT ? init->defining_op : NULL;
  const kiln_ir_attribute_t* value = def && kiln_ir_op_is(def, "arith.constant")
                                         ? kiln_ir_op_get_attr(def, "value")
                                         : NULL;
  double start = 0;
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS ||
      !value->dense.splat || !kiln_ir_dense_get_double(value, 0, &start)) {
    return false;
  }
  float f = (float)start;
  memcpy(&p.init_bits, &f, sizeof(f));
  p.oh = s.ranges[hd], p.ow = s.ranges[wd];
  p.kh = s.ranges[window_dim[hd]], p.kw = s.ranges[window_dim[wd]];
  p.sh = stride[hd], p.sw = stride[wd];
  p.dh = p.kh > 1 ? dil[hd] : 1, p.dw = p.kw > 1 ? dil[wd] : 1;
  if (out) *out = p;
  return true;
}

bool kiln_cpu_match_pool(kiln_ir_context_t* context, kiln_ir_op_t* region,
                         kiln_cpu_pool_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* op = kiln_cpu_epilogue_root(context, region);
  kiln_cpu_pool_t p;
  if (!op || !kiln_cpu_match_pool_op(context, op, &p) ||
      !kiln_cpu_window_image(context, body, op, p.nhwc,
                             p.is_max ? -INFINITY : 0.0, &p.image)) {
    return false;
  }
  const kiln_cpu_window_image_t* im = &p.image;
  const int64_t* od = op->results[0].type->shaped.dims;
  if (p.nhwc) {
    // One output row per workgroup; a pixel's C accumulators on the stack.
    if (od[0] != im->n || od[3] != im->c || (!p.is_max && p.kw >= 64) ||
        im->c > 4096 || (p.oh - 1) * p.sh + (p.kh - 1) * p.dh >= im->padded_h ||
        (p.ow - 1) * p.sw + (p.kw - 1) * p.dw >= im->padded_w) {
      return false;
    }
    p.rows_per_group = 1;
    p.out_binding = kiln_dispatch_num_tensor_operands(region);
    bool ok = false;
    p.epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
    if (!ok) return false;
    *out = p;
    return true;
  }
  // The generic path splits a sum's window rows of 64 or more into lanes;
  // those (and rows too long for a stack buffer) stay on it.
  if (od[0] != im->n || od[1] != im->c || (!p.is_max && p.kw >= 64) ||
      p.ow > 4096 || (p.oh - 1) * p.sh + (p.kh - 1) * p.dh >= im->padded_h ||
      (p.ow - 1) * p.sw + (p.kw - 1) * p.dw >= im->padded_w) {
    return false;
  }
  // Enough workgroups for a few per worker even with few channels; whole
  // planes when the channels alone give that many.
  int64_t planes = im->n * im->c;
  int64_t blocks = planes >= 32 ? 1 : (32 + planes - 1) / planes;
  if (blocks > p.oh) blocks = p.oh;
  p.rows_per_group = (p.oh + blocks - 1) / blocks;
  p.out_binding = kiln_dispatch_num_tensor_operands(region);
  bool ok = false;
  p.epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
  if (!ok) return false;
  *out = p;
  return true;
}

void kiln_cpu_pool_workgroups(const kiln_cpu_pool_t* p, int64_t out_count[3]) {
  if (p->nhwc) {
    out_count[0] = p->oh;
    out_count[1] = 1;
    out_count[2] = p->image.n;
    return;
  }
  out_count[0] = p->image.c;
  out_count[1] = (p->oh + p->rows_per_group - 1) / p->rows_per_group;
  out_count[2] = p->image.n;
}

// Channels-last: one output row per workgroup; each pixel's C
// accumulators take every tap's run of C channels (a loop the C compiler
// vectorizes), taps in the generic op's order, sums in double as on the
// NCHW path, so the bits match the generic path.
static void kiln_cpu_emit_pool_nhwc(const kiln_cpu_pool_t* p,
                                    const char* c_name, uint32_t max_binding,
                                    kiln_ir_string_builder_t* out) {
  const kiln_cpu_window_image_t* im = &p->image;
  uint32_t start_abs = p->init_bits & 0x7fffffffu;
  bool start_special = p->init_bits == 0x80000000u || start_abs > 0x7f800000u;
  kiln_ir_sb_printf(
      out,
      "// f32 %s pooling %" PRId64 " x %" PRId64 "x%" PRId64 " -> %" PRId64
      "x%" PRId64 " (window %" PRId64 "x%" PRId64 ", padding %" PRId64
      ",%" PRId64 ", batch %" PRId64
      ", NHWC): direct, one output row per workgroup, vectorized over "
      "channels.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  enum { C = %" PRId64
      " };\n"
      "  const int64_t H = %" PRId64 ", W = %" PRId64 ", OH = %" PRId64
      ", OW = %" PRId64
      ";\n"
      "  const int64_t KH = %" PRId64 ", KW = %" PRId64 ", SH = %" PRId64
      ", SW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ", PT = %" PRId64
      ", PL = %" PRId64
      ";\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t y = wg->workgroup_id_x, b = wg->workgroup_id_z;\n"
      "  if (y >= OH || b >= %" PRId64
      ") return 0;\n"
      "  const float start = kiln_vm_bits_to_f32(0x%08" PRIx32
      "u);\n"
      "  const float* const img = (const float*)ds->binding_ptrs[%u] + b * H "
      "* W * C;\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  float* const orow = eo + (b * OH + y) * OW * C;\n",
      p->is_max ? "max" : "sum", im->c, im->h, im->w, p->oh, p->ow, p->kh,
      p->kw, im->pad_top, im->pad_left, im->n, c_name, im->c, im->h, im->w,
      p->oh, p->ow, p->kh, p->kw, p->sh, p->sw, p->dh, p->dw, im->pad_top,
      im->pad_left, max_binding, im->n, p->init_bits, im->binding,
      p->out_binding);
  if (p->is_max) {
    // maximumf differs from a plain compare only on NaN and on -0 against
    // +0: rows holding neither (and a start that is neither) take the
    // plain compare, which vectorizes.
    kiln_ir_sb_printf(
        out,
        "  int exact = %d;\n"
        "  {\n"
        "    int64_t ra = y * SH - PT, rb = y * SH + (KH - 1) * DH - PT + 1;\n"
        "    if (ra < 0) ra = 0;\n"
        "    if (rb > H) rb = H;\n"
        "    for (int64_t k = ra * W * C; k < rb * W * C; ++k) {\n"
        "      uint32_t u;\n"
        "      memcpy(&u, &img[k], 4);\n"
        "      exact |= (u == 0x80000000u) | ((u & 0x7fffffffu) > "
        "0x7f800000u);\n"
        "    }\n"
        "  }\n",
        start_special ? 1 : 0);
  }
  const char* inner;
  if (p->is_max) {
    inner = p->acc_first ? "        if (exact) {\n"
                           "          for (int64_t c = 0; c < C; ++c) acc[c] = "
                           "KILN_VM_FMAX(acc[c], ip[c]);\n"
                           "        } else {\n"
                           "          for (int64_t c = 0; c < C; ++c) acc[c] = "
                           "acc[c] > ip[c] ? acc[c] : ip[c];\n"
                           "        }\n"
                         : "        if (exact) {\n"
                           "          for (int64_t c = 0; c < C; ++c) acc[c] = "
                           "KILN_VM_FMAX(ip[c], acc[c]);\n"
                           "        } else {\n"
                           "          for (int64_t c = 0; c < C; ++c) acc[c] = "
                           "acc[c] > ip[c] ? acc[c] : ip[c];\n"
                           "        }\n";
  } else {
    inner =
        "        for (int64_t c = 0; c < C; ++c) acc[c] = acc[c] + "
        "(double)ip[c];\n";
  }
  kiln_ir_sb_printf(
      out,
      "  for (int64_t x = 0; x < OW; ++x) {\n"
      "    %s acc[C];\n"
      "    for (int64_t c = 0; c < C; ++c) acc[c] = start;\n"
      "    for (int64_t i = 0; i < KH; ++i) {\n"
      "      const int64_t r = y * SH + i * DH - PT;\n"
      "      if (r < 0 || r >= H) continue;  // padding: the identity\n"
      "      for (int64_t j = 0; j < KW; ++j) {\n"
      "        const int64_t q = x * SW + j * DW - PL;\n"
      "        if (q < 0 || q >= W) continue;\n"
      "        const float* restrict ip = img + (r * W + q) * C;\n"
      "%s"
      "      }\n"
      "    }\n"
      "    for (int64_t c = 0; c < C; ++c) orow[x * C + c] = (float)acc[c];\n"
      "  }\n",
      p->is_max ? "float" : "double", inner);
  if (p->epilogue) {
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
                      p->epilogue);
  }
  kiln_ir_sb_printf(out,
                    "  return 0;\n"
                    "}\n\n");
}

void kiln_cpu_emit_pool_entry(const kiln_cpu_pool_t* p, const char* c_name,
                              kiln_ir_string_builder_t* out) {
  const kiln_cpu_window_image_t* im = &p->image;
  uint32_t max_binding =
      p->out_binding > im->binding ? p->out_binding : im->binding;
  if (p->nhwc) {
    kiln_cpu_emit_pool_nhwc(p, c_name, max_binding, out);
    return;
  }
  // Sums accumulate in double and round once, as the generic path does
  // (vmvx_codegen's float sums); max is exact in float.
  const char* combine =
      p->is_max ? (p->acc_first ? "KILN_VM_FMAX(acc[x], ip[(x - xa) * SW])"
                                : "KILN_VM_FMAX(ip[(x - xa) * SW], acc[x])")
                : "acc[x] + (double)ip[(x - xa) * SW]";
  // maximumf differs from a plain compare only on NaN and on -0 against
  // +0. When the rows a workgroup reads hold neither (and the start is
  // neither), the plain compare, which vectorizes, gives its bits;
  // otherwise the block takes KILN_VM_FMAX.
  uint32_t start_abs = p->init_bits & 0x7fffffffu;
  bool start_special = p->init_bits == 0x80000000u || start_abs > 0x7f800000u;
  char check[512];
  snprintf(
      check, sizeof(check),
      "  int exact = %d;\n"
      "  {\n"
      "    int64_t ra = y0 * SH - PT, rb = (y1 - 1) * SH + (KH - 1) * DH - PT "
      "+ 1;\n"
      "    if (ra < 0) ra = 0;\n"
      "    if (rb > H) rb = H;\n"
      "    for (int64_t k = ra * W; k < rb * W; ++k) {\n"
      "      uint32_t u;\n"
      "      memcpy(&u, &img[k], 4);\n"
      "      exact |= (u == 0x80000000u) | ((u & 0x7fffffffu) > 0x7f800000u);\n"
      "    }\n"
      "  }\n",
      start_special ? 1 : 0);
  char inner[640];
  if (p->is_max) {
    snprintf(inner, sizeof(inner),
             "        if (exact) {\n"
             "          for (int64_t x = xa; x < xb; ++x) acc[x] = %s;\n"
             "        } else {\n"
             "          for (int64_t x = xa; x < xb; ++x) {\n"
             "            const float v = ip[(x - xa) * SW];\n"
             "            acc[x] = acc[x] > v ? acc[x] : v;\n"
             "          }\n"
             "        }\n",
             combine);
  } else {
    snprintf(inner, sizeof(inner),
             "        for (int64_t x = xa; x < xb; ++x) acc[x] = %s;\n",
             combine);
  }
  kiln_ir_sb_printf(
      out,
      "// f32 %s pooling %" PRId64 " x %" PRId64 "x%" PRId64 " -> %" PRId64
      "x%" PRId64 " (window %" PRId64 "x%" PRId64 ", padding %" PRId64
      ",%" PRId64 ", batch %" PRId64
      "): direct, a channel's row block per workgroup.\n"
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
      "  const int64_t PT = %" PRId64 ", PL = %" PRId64 ", RB = %" PRId64
      ";\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t f = wg->workgroup_id_x, b = wg->workgroup_id_z;\n"
      "  const int64_t y0 = (int64_t)wg->workgroup_id_y * RB;\n"
      "  if (f >= C || b >= %" PRId64
      " || y0 >= OH) return 0;\n"
      "  const int64_t y1 = y0 + RB < OH ? y0 + RB : OH;\n"
      "  const float start = kiln_vm_bits_to_f32(0x%08" PRIx32
      "u);\n"
      "  const float* const img = (const float*)ds->binding_ptrs[%u] + (b * "
      "C + f) * H * W;\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  float* const plane = eo + (b * C + f) * OH * OW;\n"
      "%s"
      "  for (int64_t y = y0; y < y1; ++y) {\n"
      "    float* restrict orow = plane + y * OW;\n"
      "    %s acc[%" PRId64
      "];\n"
      "    for (int64_t x = 0; x < OW; ++x) acc[x] = start;\n"
      "    for (int64_t i = 0; i < KH; ++i) {\n"
      "      const int64_t r = y * SH + i * DH - PT;\n"
      "      if (r < 0 || r >= H) continue;  // padding: the identity\n"
      "      for (int64_t j = 0; j < KW; ++j) {\n"
      "        // Columns x whose tap x * SW + c0 is inside the row.\n"
      "        const int64_t c0 = j * DW - PL;\n"
      "        const int64_t xa = c0 >= 0 ? 0 : (SW - 1 - c0) / SW;\n"
      "        int64_t xb = c0 >= W ? 0 : (W - c0 + SW - 1) / SW;\n"
      "        if (xb > OW) xb = OW;\n"
      "        if (xa >= xb) continue;\n"
      "        const float* restrict ip = img + r * W + xa * SW + c0;\n"
      "%s"
      "      }\n"
      "    }\n"
      "    for (int64_t x = 0; x < OW; ++x) orow[x] = (float)acc[x];\n",
      p->is_max ? "max" : "sum", im->c, im->h, im->w, p->oh, p->ow, p->kh,
      p->kw, im->pad_top, im->pad_left, im->n, c_name, im->c, im->h, im->w,
      p->oh, p->ow, p->kh, p->kw, p->sh, p->sw, p->dh, p->dw, im->pad_top,
      im->pad_left, p->rows_per_group, max_binding, im->n, p->init_bits,
      im->binding, p->out_binding, p->is_max ? check : "",
      p->is_max ? "float" : "double", p->ow, inner);
  if (p->epilogue) {
    kiln_ir_sb_printf(out,
                      "    for (int64_t x = 0; x < OW; ++x) {\n"
                      "      const int64_t o = ((b * C + f) * OH + y) * OW + "
                      "x;\n"
                      "      const int64_t d0 = b, d1 = f, d2 = y, d3 = x;\n"
                      "      (void)d0, (void)d1, (void)d2, (void)d3;\n"
                      "%s"
                      "    }\n",
                      p->epilogue);
  }
  kiln_ir_sb_printf(out,
                    "  }\n"
                    "  return 0;\n"
                    "}\n\n");
}

bool kiln_cpu_window_pad_ok(kiln_ir_context_t* context, kiln_ir_op_t* root,
                            kiln_ir_op_t* pad) {
  if (kiln_cpu_window_pad_ok_depthwise_nhwc(context, root, pad)) return true;
  kiln_window_pad_t wp;
  kiln_cpu_pool_t np;
  if (kiln_cpu_match_pool_op(context, root, &np) && np.nhwc) {
    return kiln_window_pad_match(context, pad, &wp) &&
           kiln_window_pad_is_spatial(&wp, true) &&
           wp.value == (np.is_max ? -INFINITY : 0.0);
  }
  if (!kiln_window_pad_match(context, pad, &wp) ||
      !kiln_window_pad_is_spatial(&wp, false)) {
    return false;
  }
  kiln_cpu_pool_t p;
  if (kiln_cpu_match_pool_op(context, root, &p)) {
    return wp.value == (p.is_max ? -INFINITY : 0.0);
  }
  return wp.value == 0.0 && kiln_cpu_match_depthwise_op(context, root, NULL);
}
