#include "compiler/targets/cpu/concat_entry.h"

#include <inttypes.h>
#include <string.h>

#include "compiler/dialects/scalar_eval.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/epilogue.h"

// Rows per workgroup: enough bytes per workgroup that its overhead is
// small, enough workgroups that a few workers share the copy.
#define KILN_CPU_CONCAT_MIN_BYTES (64 * 1024)
#define KILN_CPU_CONCAT_MAX_WORKGROUPS 64

// |v| is `op(a, b)` for the named binary op; fills its operands.
static bool kiln_cpu_binary(kiln_ir_value_t* v, const char* name,
                            kiln_ir_value_t** a, kiln_ir_value_t** b) {
  kiln_ir_op_t* def = v->defining_op;
  if (!def || !kiln_ir_op_is(def, name) ||
      kiln_ir_op_num_regular_operands(def) != 2) {
    return false;
  }
  *a = kiln_ir_op_operand(def, 0);
  *b = kiln_ir_op_operand(def, 1);
  return true;
}

// |v| is the index of operand k along |dim|: clamp(index(dim) - offset, 0,
// size - 1) as max(min(x, size - 1), 0), with x = index(dim) for offset 0.
static bool kiln_cpu_concat_index(kiln_ir_value_t* v, int64_t dim,
                                  int64_t offset, int64_t size) {
  kiln_ir_value_t *lo, *zero, *x, *hi, *d, *off;
  int64_t c;
  if (!kiln_cpu_binary(v, "arith.maxsi", &lo, &zero) ||
      !kiln_structured_const_int(zero, &c) || c != 0 ||
      !kiln_cpu_binary(lo, "arith.minsi", &x, &hi) ||
      !kiln_structured_const_int(hi, &c) || c != size - 1) {
    return false;
  }
  if (kiln_cpu_binary(x, "arith.subi", &d, &off)) {
    return kiln_structured_const_int(off, &c) && c == offset &&
           kiln_structured_index_dim(d) == dim;
  }
  return offset == 0 && kiln_structured_index_dim(x) == dim;
}

// Whether generic |g| of region body |body| is a concatenation; fills
// |out| but for the epilogue.
static bool kiln_cpu_match_concat_op(kiln_ir_context_t* context,
                                     kiln_ir_op_t* region,
                                     kiln_ir_block_t* body, kiln_ir_op_t* g,
                                     kiln_cpu_concat_t* out) {
  if (!kiln_ir_op_is(g, "linalg.generic") || g->num_results != 1) {
    return false;
  }
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, g, &s)) return false;
  const kiln_ir_type_t* rt = g->results[0].type;
  if (s.num_ins != 0 || s.num_outs != 1 || !s.body ||
      !kiln_structured_op_all_parallel(&s) ||
      !kiln_ir_affine_map_is_identity(s.maps[0]) ||
      !kiln_ir_type_has_static_shape(rt) || rt->shaped.rank < 1) {
    return false;
  }
  uint32_t bits = kiln_ir_type_bit_width(rt->shaped.element);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return false;
  kiln_ir_op_t* yield = s.body->last_op;
  if (!yield || !kiln_ir_op_is(yield, "linalg.yield") ||
      kiln_ir_op_num_regular_operands(yield) != 1) {
    return false;
  }
  // The select chain: select(index(dim) < end_k, extract_k, rest), then
  // the last operand's extract.
  kiln_ir_value_t* extracts[KILN_CPU_CONCAT_MAX_OPERANDS];
  int64_t ends[KILN_CPU_CONCAT_MAX_OPERANDS];
  uint32_t n = 0;
  int64_t dim = -1;
  kiln_ir_value_t* v = kiln_ir_op_operand(yield, 0);
  for (;;) {
    kiln_ir_op_t* def = v->defining_op;
    if (!def) return false;
    if (kiln_ir_op_is(def, "tensor.extract")) {
      extracts[n++] = v;
      break;
    }
    if (!kiln_ir_op_is(def, "arith.select") ||
        n + 1 >= KILN_CPU_CONCAT_MAX_OPERANDS) {
      return false;
    }
    kiln_ir_value_t *i, *end;
    kiln_ir_op_t* cmp = kiln_ir_op_operand(def, 0)->defining_op;
    const kiln_ir_attribute_t* pred =
        cmp ? kiln_ir_op_get_attr(cmp, "predicate") : NULL;
    if (!kiln_cpu_binary(kiln_ir_op_operand(def, 0), "arith.cmpi", &i, &end) ||
        !pred || pred->kind != KILN_IR_ATTR_INTEGER ||
        pred->i != KILN_CMPI_SLT || !kiln_structured_const_int(end, &ends[n])) {
      return false;
    }
    int64_t d = kiln_structured_index_dim(i);
    if (d < 0 || (dim >= 0 && d != dim)) return false;
    dim = d;
    extracts[n++] = kiln_ir_op_operand(def, 1);
    v = kiln_ir_op_operand(def, 2);
  }
  if (n < 2 || dim < 0 || dim >= (int64_t)rt->shaped.rank) return false;
  // Each extract reads a region argument of the result's shape but for
  // |dim|, at the loop indices but for |dim|, where it reads the clamped
  // index relative to the operand's offset; offsets follow the sizes.
  uint32_t rank = (uint32_t)rt->shaped.rank;
  int64_t offset = 0;
  for (uint32_t k = 0; k < n; ++k) {
    kiln_ir_op_t* ex = extracts[k]->defining_op;
    if (!ex || !kiln_ir_op_is(ex, "tensor.extract") ||
        kiln_ir_op_num_regular_operands(ex) != rank + 1) {
      return false;
    }
    kiln_ir_value_t* src = kiln_ir_op_operand(ex, 0);
    if (src->kind != KILN_IR_VALUE_BLOCK_ARG || src->owner_block != body ||
        src->type->shaped.element != rt->shaped.element ||
        !kiln_ir_type_has_static_shape(src->type) ||
        src->type->shaped.rank != rank) {
      return false;
    }
    int64_t size = src->type->shaped.dims[dim];
    for (uint32_t d = 0; d < rank; ++d) {
      kiln_ir_value_t* at = kiln_ir_op_operand(ex, d + 1);
      if ((int64_t)d == dim) {
        if (size < 1 || !kiln_cpu_concat_index(at, dim, offset, size)) {
          return false;
        }
      } else if (src->type->shaped.dims[d] != rt->shaped.dims[d] ||
                 kiln_structured_index_dim(at) != (int64_t)d) {
        return false;
      }
    }
    offset += size;
    if (k + 1 < n && ends[k] != offset) return false;
    out->bindings[k] = src->index;
    out->sizes[k] = size;
  }
  if (offset != rt->shaped.dims[dim]) return false;
  out->count = n;
  out->total = offset;
  out->outer = 1;
  for (int64_t d = 0; d < dim; ++d) out->outer *= rt->shaped.dims[d];
  out->inner = bits / 8;
  for (uint32_t d = (uint32_t)dim + 1; d < rank; ++d) {
    out->inner *= rt->shaped.dims[d];
  }
  out->out_binding = kiln_dispatch_num_tensor_operands(region);
  return true;
}

bool kiln_cpu_match_concat(kiln_ir_context_t* context, kiln_ir_op_t* region,
                           kiln_cpu_concat_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  if (!body || !body->last_op ||
      kiln_ir_op_num_regular_operands(body->last_op) != 1 ||
      region->num_results != 1) {
    return false;
  }
  // The concatenation is the region's one generic without inputs; any other
  // op must be part of an f32 epilogue on its result (a batch-norm + ReLU
  // fused into the concatenation that feeds only it, as DenseNet's last
  // concatenation of each block).
  kiln_ir_op_t* g = NULL;
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) {
    if (!kiln_ir_op_is(op, "linalg.generic") || op->num_operands != 1) {
      continue;
    }
    if (g) return false;
    g = op;
  }
  if (!g || !kiln_cpu_match_concat_op(context, region, body, g, out)) {
    return false;
  }
  if (kiln_ir_op_operand(body->last_op, 0) == &g->results[0]) return true;
  if (!kiln_cpu_is_static_f32_tensor(g->results[0].type, -1)) return false;
  bool ok = false;
  out->epilogue = kiln_cpu_epilogue_build(context, region, g, &ok);
  out->result = g->results[0].type;
  return ok && out->epilogue;
}

static int64_t kiln_cpu_concat_rows_per_group(const kiln_cpu_concat_t* c) {
  int64_t row_bytes = c->total * c->inner;
  int64_t rows = (KILN_CPU_CONCAT_MIN_BYTES + row_bytes - 1) / row_bytes;
  int64_t min_rows = (c->outer + KILN_CPU_CONCAT_MAX_WORKGROUPS - 1) /
                     KILN_CPU_CONCAT_MAX_WORKGROUPS;
  if (rows < min_rows) rows = min_rows;
  return rows < 1 ? 1 : rows;
}

void kiln_cpu_concat_workgroups(const kiln_cpu_concat_t* c,
                                int64_t out_count[3]) {
  int64_t rows = kiln_cpu_concat_rows_per_group(c);
  out_count[0] = (c->outer + rows - 1) / rows;
  out_count[1] = 1;
  out_count[2] = 1;
}

void kiln_cpu_emit_concat_entry(const kiln_cpu_concat_t* c, const char* c_name,
                                kiln_ir_string_builder_t* out) {
  uint32_t max_binding = c->out_binding;
  for (uint32_t k = 0; k < c->count; ++k) {
    if (c->bindings[k] > max_binding) max_binding = c->bindings[k];
  }
  kiln_ir_sb_printf(
      out,
      "// concatenation of %u operands (%" PRId64 " rows of %" PRId64
      " x %" PRId64
      " bytes): memcpy of each operand's runs.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  const int64_t OUTER = %" PRId64 ", ROWS = %" PRId64
      ", ROW_BYTES = %" PRId64
      ";\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t r0 = (int64_t)wg->workgroup_id_x * ROWS;\n"
      "  if (r0 >= OUTER) return 0;\n"
      "  const int64_t r1 = OUTER - r0 < ROWS ? OUTER : r0 + ROWS;\n"
      "  char* const dst = (char*)ds->binding_ptrs[%u];\n",
      c->count, c->outer, c->total, c->inner, c_name, c->outer,
      kiln_cpu_concat_rows_per_group(c), c->total * c->inner, max_binding,
      c->out_binding);
  if (c->epilogue) {
    // Per row: copy, then the epilogue over the row while it is in L1.
    int64_t row = c->total * c->inner / 4;
    kiln_ir_sb_printf(out,
                      "  float* const eo = (float*)dst;\n"
                      "  const int64_t BS_ = %" PRId64 ", RS_ = %" PRId64
                      ", b = 0;\n"
                      "  for (int64_t r = r0; r < r1; ++r) {\n",
                      c->outer * row, row);
    int64_t at = 0;
    for (uint32_t k = 0; k < c->count; ++k) {
      int64_t run = c->sizes[k] * c->inner;
      kiln_ir_sb_printf(out,
                        "    memcpy(dst + r * ROW_BYTES + %" PRId64
                        ", (const char*)ds->binding_ptrs[%u] + r * %" PRId64
                        ", %" PRId64 ");\n",
                        at, c->bindings[k], run, run);
      at += run;
    }
    kiln_cpu_epilogue_emit_rows(c->result, c->outer, row, c->epilogue, out);
    return;
  }
  int64_t offset = 0;
  for (uint32_t k = 0; k < c->count; ++k) {
    int64_t run = c->sizes[k] * c->inner;
    kiln_ir_sb_printf(
        out,
        "  {\n"
        "    const char* const src = (const char*)ds->binding_ptrs[%u];\n"
        "    for (int64_t r = r0; r < r1; ++r) {\n"
        "      memcpy(dst + r * ROW_BYTES + %" PRId64 ", src + r * %" PRId64
        ", %" PRId64
        ");\n"
        "    }\n"
        "  }\n",
        c->bindings[k], offset, run, run);
    offset += run;
  }
  kiln_ir_sb_printf(out,
                    "  return 0;\n"
                    "}\n\n");
}
