#include "compiler/targets/cpu/reduction_entry.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/epilogue.h"
#include "compiler/targets/cpu/matmul_entry.h"

// Channels per workgroup: a block of double accumulators that stays in
// registers / L1, and a grid that spreads wide layers over the workers.
#define KILN_CPU_SPATIAL_SUM_CHANNELS 64

// Whether |map| has results that are exactly the dims |want| (in order).
static bool kiln_cpu_map_is(const kiln_ir_affine_map_t* map,
                            const int64_t* want, size_t count) {
  if (map->num_symbols || map->num_results != count) return false;
  for (size_t r = 0; r < count; ++r) {
    int64_t d;
    if (!kiln_ir_affine_map_result_is_dim(map, r, &d) || d != want[r]) {
      return false;
    }
  }
  return true;
}

// The region's body and its kernel op: a one-result linalg.generic,
// described in |s|.
static bool kiln_cpu_reduction_kernel(kiln_ir_context_t* context,
                                      kiln_ir_op_t* region,
                                      kiln_ir_block_t** out_body,
                                      kiln_ir_op_t** out_op,
                                      kiln_structured_op_t* s) {
  *out_body = kiln_dispatch_region_body(region);
  *out_op = kiln_cpu_epilogue_root(context, region);
  return *out_body && *out_op && kiln_ir_op_is(*out_op, "linalg.generic") &&
         (*out_op)->num_results == 1 &&
         kiln_structured_op_try_get(context, *out_op, s);
}

bool kiln_cpu_match_spatial_sum(kiln_ir_context_t* context,
                                kiln_ir_op_t* region,
                                kiln_cpu_spatial_sum_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = NULL;
  kiln_ir_op_t* op = NULL;
  kiln_structured_op_t s;
  if (!kiln_cpu_reduction_kernel(context, region, &body, &op, &s)) {
    return false;
  }
  // Loops (n, c, h, w): n and c parallel, h and w reduced.
  if (s.num_ins != 1 || s.num_outs != 1 || s.num_dims != 4 || !s.body ||
      s.is_reduction[0] || s.is_reduction[1] || !s.is_reduction[2] ||
      !s.is_reduction[3]) {
    return false;
  }
  kiln_ir_value_t* img = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 1);
  if (img->kind != KILN_IR_VALUE_BLOCK_ARG || img->owner_block != body ||
      !kiln_cpu_is_static_f32_tensor(img->type, 4) ||
      !kiln_cpu_is_static_f32_tensor(init->type, -1) ||
      !kiln_cpu_value_is_zero(init)) {
    return false;
  }
  static const int64_t kNhwc[4] = {0, 2, 3, 1}, kNchw[4] = {0, 1, 2, 3};
  static const int64_t kOut[2] = {0, 1};
  bool nhwc = kiln_cpu_map_is(s.maps[0], kNhwc, 4);
  if (!nhwc && !kiln_cpu_map_is(s.maps[0], kNchw, 4)) return false;
  if (!kiln_cpu_map_is(s.maps[1], kOut, 2)) return false;
  // Body: acc + x or x + acc.
  kiln_ir_op_t* yield = s.body->last_op;
  kiln_ir_op_t* add = s.body->first_op;
  if (!add || add->next != yield || !kiln_ir_op_is(add, "arith.addf") ||
      !yield || kiln_ir_op_num_regular_operands(yield) != 1 ||
      kiln_ir_op_operand(yield, 0) != &add->results[0]) {
    return false;
  }
  kiln_ir_value_t* a = kiln_ir_op_operand(add, 0);
  kiln_ir_value_t* b = kiln_ir_op_operand(add, 1);
  kiln_ir_value_t* x = s.body->args[0];
  kiln_ir_value_t* acc = s.body->args[1];
  if (!((a == x && b == acc) || (a == acc && b == x))) return false;
  const int64_t* d = img->type->shaped.dims;
  out->nhwc = nhwc;
  out->n = d[0];
  out->c = nhwc ? d[3] : d[1];
  out->pixels = nhwc ? d[1] * d[2] : d[2] * d[3];
  if (out->n < 1 || out->c < 1 || out->pixels < 1) return false;
  out->in_binding = img->index;
  out->out_binding = kiln_dispatch_num_tensor_operands(region);
  bool ok = false;
  out->epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
  return ok;
}

void kiln_cpu_spatial_sum_workgroups(const kiln_cpu_spatial_sum_t* s,
                                     int64_t out_count[3]) {
  out_count[0] = (s->c + KILN_CPU_SPATIAL_SUM_CHANNELS - 1) /
                 KILN_CPU_SPATIAL_SUM_CHANNELS;
  out_count[1] = 1;
  out_count[2] = s->n;
}

void kiln_cpu_emit_spatial_sum_entry(const kiln_cpu_spatial_sum_t* s,
                                     const char* c_name,
                                     kiln_ir_string_builder_t* out) {
  uint32_t max_binding =
      s->in_binding > s->out_binding ? s->in_binding : s->out_binding;
  kiln_ir_sb_printf(
      out,
      "// f32 sum over %" PRId64 " pixels of %" PRId64
      " channels (batch %" PRId64
      ", %s): f64 accumulators, rounded once.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  enum { CB = %d };\n"
      "  const int64_t C = %" PRId64 ", P = %" PRId64
      ";\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t c0 = (int64_t)wg->workgroup_id_x * CB, b = "
      "wg->workgroup_id_z;\n"
      "  if (c0 >= C || b >= %" PRId64
      ") return 0;\n"
      "  const int64_t cn = C - c0 < CB ? C - c0 : CB;\n"
      "  const float* const img = (const float*)ds->binding_ptrs[%u] + b * C "
      "* P;\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  double acc[CB];\n"
      "  for (int64_t j = 0; j < CB; ++j) acc[j] = 0.0;\n",
      s->pixels, s->c, s->n, s->nhwc ? "NHWC" : "NCHW", c_name,
      KILN_CPU_SPATIAL_SUM_CHANNELS, s->c, s->pixels, max_binding, s->n,
      s->in_binding, s->out_binding);
  if (s->nhwc) {
    kiln_ir_sb_printf(out,
                      "  if (cn == CB) {\n"
                      "    for (int64_t p = 0; p < P; ++p) {\n"
                      "      const float* const row = img + p * C + c0;\n"
                      "      for (int64_t j = 0; j < CB; ++j) acc[j] += "
                      "row[j];\n"
                      "    }\n"
                      "  } else {\n"
                      "    for (int64_t p = 0; p < P; ++p) {\n"
                      "      const float* const row = img + p * C + c0;\n"
                      "      for (int64_t j = 0; j < cn; ++j) acc[j] += "
                      "row[j];\n"
                      "    }\n"
                      "  }\n");
  } else {
    kiln_ir_sb_printf(out,
                      "  for (int64_t j = 0; j < cn; ++j) {\n"
                      "    const float* const plane = img + (c0 + j) * P;\n"
                      "    double sum = 0.0;\n"
                      "    for (int64_t p = 0; p < P; ++p) sum += plane[p];\n"
                      "    acc[j] = sum;\n"
                      "  }\n");
  }
  kiln_ir_sb_printf(out,
                    "  for (int64_t j = 0; j < cn; ++j) {\n"
                    "    const int64_t o = b * C + c0 + j;\n"
                    "    eo[o] = (float)acc[j];\n");
  if (s->epilogue) {
    kiln_ir_sb_printf(out,
                      "    const int64_t d0 = b, d1 = c0 + j;\n"
                      "    (void)d0, (void)d1;\n"
                      "%s",
                      s->epilogue);
  }
  kiln_ir_sb_printf(out,
                    "  }\n"
                    "  return 0;\n"
                    "}\n\n");
}

// Values per workgroup, at least (as the elementwise entry).
#define KILN_CPU_ROW_REDUCTION_MIN_ELEMENTS 16384

bool kiln_cpu_match_row_reduction(kiln_ir_context_t* context,
                                  kiln_ir_op_t* region,
                                  kiln_cpu_row_reduction_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = NULL;
  kiln_ir_op_t* op = NULL;
  kiln_structured_op_t s;
  if (!kiln_cpu_reduction_kernel(context, region, &body, &op, &s)) {
    return false;
  }
  if (s.num_ins != 1 || s.num_outs != 1 || !s.body || s.num_dims < 1 ||
      !s.is_reduction[s.num_dims - 1] ||
      kiln_structured_num_reductions(&s) != 1) {
    return false;
  }
  kiln_ir_value_t* in = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 1);
  float init_value;
  if (in->kind != KILN_IR_VALUE_BLOCK_ARG || in->owner_block != body ||
      !kiln_cpu_is_static_f32_tensor(in->type, (int)s.num_dims) ||
      !kiln_cpu_is_static_f32_tensor(init->type, (int)s.num_dims - 1) ||
      init->kind != KILN_IR_VALUE_RESULT ||
      !kiln_cpu_constant_value(init->defining_op, &init_value) ||
      !kiln_ir_affine_map_is_identity(s.maps[0])) {
    return false;
  }
  int64_t want[KILN_STRUCTURED_MAX_DIMS];
  for (uint32_t d = 0; d + 1 < s.num_dims; ++d) want[d] = d;
  if (!kiln_cpu_map_is(s.maps[1], want, s.num_dims - 1)) return false;
  // Body: maximumf/minimumf of the accumulator and the value.
  kiln_ir_op_t* yield = s.body->last_op;
  kiln_ir_op_t* m = s.body->first_op;
  if (!m || m->next != yield || !yield ||
      kiln_ir_op_num_regular_operands(yield) != 1 ||
      kiln_ir_op_operand(yield, 0) != &m->results[0] ||
      kiln_ir_op_num_regular_operands(m) != 2) {
    return false;
  }
  bool is_max = kiln_ir_op_is(m, "arith.maximumf");
  if (!is_max && !kiln_ir_op_is(m, "arith.minimumf")) return false;
  kiln_ir_value_t* a = kiln_ir_op_operand(m, 0);
  kiln_ir_value_t* b = kiln_ir_op_operand(m, 1);
  kiln_ir_value_t* x = s.body->args[0];
  kiln_ir_value_t* acc = s.body->args[1];
  if (!((a == x && b == acc) || (a == acc && b == x))) return false;
  out->n = in->type->shaped.dims[s.num_dims - 1];
  out->rows = 1;
  for (uint32_t d = 0; d + 1 < s.num_dims; ++d) {
    out->rows *= in->type->shaped.dims[d];
  }
  if (out->n < 1 || out->rows < 1) return false;
  out->is_max = is_max;
  memcpy(&out->init_bits, &init_value, sizeof(out->init_bits));
  out->in_binding = in->index;
  out->out_binding = kiln_dispatch_num_tensor_operands(region);
  out->result = op->results[0].type;
  bool ok = false;
  out->epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
  return ok;
}

static int64_t kiln_cpu_row_reduction_rows_per_group(
    const kiln_cpu_row_reduction_t* r) {
  int64_t rows = (KILN_CPU_ROW_REDUCTION_MIN_ELEMENTS + r->n - 1) / r->n;
  return rows < r->rows ? rows : r->rows;
}

void kiln_cpu_row_reduction_workgroups(const kiln_cpu_row_reduction_t* r,
                                       int64_t out_count[3]) {
  int64_t rows = kiln_cpu_row_reduction_rows_per_group(r);
  out_count[0] = (r->rows + rows - 1) / rows;
  out_count[1] = 1;
  out_count[2] = 1;
}

void kiln_cpu_emit_row_reduction_entry(const kiln_cpu_row_reduction_t* r,
                                       const char* c_name,
                                       kiln_ir_string_builder_t* out) {
  const char* f = r->is_max ? "KILN_VM_FMAX" : "KILN_VM_FMIN";
  uint32_t max_binding =
      r->in_binding > r->out_binding ? r->in_binding : r->out_binding;
  kiln_ir_sb_printf(
      out,
      "// f32 row %s of %" PRId64 " rows of %" PRId64
      ": 16 lanes, combined in order.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t R = %" PRId64 ", N = %" PRId64 ", RB = %" PRId64
      ";\n"
      "  const int64_t r0 = (int64_t)wg->workgroup_id_x * RB;\n"
      "  if (r0 >= R) return 0;\n"
      "  const int64_t r1 = R - r0 < RB ? R : r0 + RB;\n"
      "  const float* const in = (const float*)ds->binding_ptrs[%u];\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  const float init = kiln_vm_bits_to_f32(0x%08" PRIx32
      "u);\n"
      "  const int64_t BS_ = R, RS_ = 1, b = 0;\n"
      "  (void)BS_, (void)b;\n"
      "  for (int64_t r = r0; r < r1; ++r) {\n"
      "    const float* const row = in + r * N;\n"
      "    float lane[16];\n"
      "    for (int k = 0; k < 16; ++k) lane[k] = init;\n"
      "    int64_t j = 0;\n"
      "    for (; j + 16 <= N; j += 16) {\n"
      "      for (int k = 0; k < 16; ++k) lane[k] = %s(lane[k], row[j + k]);\n"
      "    }\n"
      "    float acc = init;\n"
      "    for (int k = 0; k < 16; ++k) acc = %s(acc, lane[k]);\n"
      "    for (; j < N; ++j) acc = %s(acc, row[j]);\n"
      "    eo[r] = acc;\n",
      r->is_max ? "max" : "min", r->rows, r->n, c_name, max_binding, r->rows,
      r->n, kiln_cpu_row_reduction_rows_per_group(r), r->in_binding,
      r->out_binding, r->init_bits, f, f, f);
  if (r->epilogue) {
    kiln_cpu_epilogue_emit_rows(r->result, r->rows, 1, r->epilogue, out);
    return;
  }
  kiln_ir_sb_printf(out,
                    "  }\n"
                    "  return 0;\n"
                    "}\n\n");
}
