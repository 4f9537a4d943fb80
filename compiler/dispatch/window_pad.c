#include "compiler/dispatch/window_pad.h"

#include <string.h>

#include "compiler/dialects/scalar_eval.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"

static kiln_ir_op_t* kiln_pad_def(kiln_ir_value_t* v, const char* name) {
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  return def && kiln_ir_op_is(def, name) && def->num_operands == 2 ? def : NULL;
}

// Per padded dim: the unclamped source index (i - lo, or i when lo is 0).
typedef struct kiln_pad_dim_t {
  kiln_ir_value_t* local;
  int64_t size;
  bool padded, low_checked, high_checked;
} kiln_pad_dim_t;

// Marks the range checks of the select condition |cond| (an andi tree of
// `local >= 0` and `local < size`); false on any other leaf.
static bool kiln_pad_mark_checks(kiln_ir_value_t* cond, kiln_pad_dim_t dims[4],
                                 int depth) {
  if (depth > 16) return false;
  kiln_ir_op_t* a = kiln_pad_def(cond, "arith.andi");
  if (a) {
    return kiln_pad_mark_checks(kiln_ir_op_operand(a, 0), dims, depth + 1) &&
           kiln_pad_mark_checks(kiln_ir_op_operand(a, 1), dims, depth + 1);
  }
  kiln_ir_op_t* c = kiln_pad_def(cond, "arith.cmpi");
  const kiln_ir_attribute_t* pred = c ? kiln_ir_op_get_attr(c, "predicate") : 0;
  int64_t bound;
  if (!pred || pred->kind != KILN_IR_ATTR_INTEGER ||
      !kiln_structured_const_int(kiln_ir_op_operand(c, 1), &bound)) {
    return false;
  }
  for (int d = 0; d < 4; ++d) {
    if (!dims[d].padded || kiln_ir_op_operand(c, 0) != dims[d].local) continue;
    if (pred->i == KILN_CMPI_SGE && bound == 0) {
      dims[d].low_checked = true;
      return true;
    }
    if (pred->i == KILN_CMPI_SLT && bound == dims[d].size) {
      dims[d].high_checked = true;
      return true;
    }
  }
  return false;
}

bool kiln_window_pad_match(kiln_ir_context_t* context, kiln_ir_op_t* op,
                           kiln_window_pad_t* out) {
  if (!kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1) {
    return false;
  }
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, op, &s)) return false;
  if (s.num_ins != 0 || s.num_outs != 1 || s.num_dims != 4 || !s.body ||
      !kiln_structured_op_all_parallel(&s) ||
      !kiln_ir_affine_map_is_identity(s.maps[0]) || !s.body->last_op ||
      !kiln_ir_op_is(s.body->last_op, "linalg.yield") ||
      s.body->last_op->num_operands != 1) {
    return false;
  }
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(rt) ||
      !kiln_ir_type_has_static_shape(rt) || rt->shaped.rank != 4 ||
      !kiln_ir_type_is_float(rt->shaped.element) ||
      rt->shaped.element->flt.kind != KILN_IR_F32) {
    return false;
  }
  kiln_ir_value_t* yielded = kiln_ir_op_operand(s.body->last_op, 0);
  kiln_ir_op_t* select =
      yielded->kind == KILN_IR_VALUE_RESULT ? yielded->defining_op : NULL;
  if (!select || !kiln_ir_op_is(select, "arith.select") ||
      select->num_operands != 3) {
    return false;
  }
  kiln_ir_value_t* read = kiln_ir_op_operand(select, 1);
  kiln_ir_op_t* extract =
      read->kind == KILN_IR_VALUE_RESULT ? read->defining_op : NULL;
  kiln_ir_value_t* fill = kiln_ir_op_operand(select, 2);
  kiln_ir_op_t* fill_def =
      fill->kind == KILN_IR_VALUE_RESULT ? fill->defining_op : NULL;
  const kiln_ir_attribute_t* fill_value =
      fill_def && kiln_ir_op_is(fill_def, "arith.constant")
          ? kiln_ir_op_get_attr(fill_def, "value")
          : NULL;
  if (!extract || !kiln_ir_op_is(extract, "tensor.extract") ||
      extract->num_operands != 5 || !fill_value ||
      fill_value->kind != KILN_IR_ATTR_FLOAT) {
    return false;
  }
  kiln_ir_value_t* source = kiln_ir_op_operand(extract, 0);
  const kiln_ir_type_t* st = source->type;
  // The source lives outside the generic (a capture of the region).
  if (!kiln_ir_type_is_ranked_tensor(st) ||
      !kiln_ir_type_has_static_shape(st) || st->shaped.rank != 4 ||
      (source->kind == KILN_IR_VALUE_BLOCK_ARG &&
       source->owner_block == s.body)) {
    return false;
  }
  kiln_pad_dim_t dims[4];
  memset(dims, 0, sizeof(dims));
  kiln_window_pad_t pad;
  memset(&pad, 0, sizeof(pad));
  bool any = false;
  for (int d = 0; d < 4; ++d) {
    kiln_ir_value_t* idx = kiln_ir_op_operand(extract, 1 + (uint32_t)d);
    int64_t size = st->shaped.dims[d];
    if (kiln_structured_index_dim(idx) == d) {
      if (rt->shaped.dims[d] != size) return false;
      continue;
    }
    // min(max(local, 0), size - 1) with local = i - lo or i.
    kiln_ir_op_t* mn = kiln_pad_def(idx, "arith.minsi");
    kiln_ir_op_t* mx =
        mn ? kiln_pad_def(kiln_ir_op_operand(mn, 0), "arith.maxsi") : NULL;
    int64_t top, zero;
    if (!mx || !kiln_structured_const_int(kiln_ir_op_operand(mn, 1), &top) ||
        top != size - 1 ||
        !kiln_structured_const_int(kiln_ir_op_operand(mx, 1), &zero) ||
        zero != 0) {
      return false;
    }
    kiln_ir_value_t* local = kiln_ir_op_operand(mx, 0);
    int64_t lo = 0;
    if (kiln_structured_index_dim(local) != d) {
      kiln_ir_op_t* sub = kiln_pad_def(local, "arith.subi");
      if (!sub || kiln_structured_index_dim(kiln_ir_op_operand(sub, 0)) != d ||
          !kiln_structured_const_int(kiln_ir_op_operand(sub, 1), &lo) ||
          lo <= 0) {
        return false;
      }
    }
    int64_t hi = rt->shaped.dims[d] - size - lo;
    if (hi < 0) return false;
    dims[d].local = local;
    dims[d].size = size;
    dims[d].padded = true;
    pad.lo[d] = lo;
    pad.hi[d] = hi;
    any = true;
  }
  if (!any || !kiln_pad_mark_checks(kiln_ir_op_operand(select, 0), dims, 0)) {
    return false;
  }
  for (int d = 0; d < 4; ++d) {
    if (dims[d].padded && (!dims[d].low_checked || !dims[d].high_checked)) {
      return false;
    }
  }
  pad.source = source;
  pad.value = fill_value->f.value;
  if (out) *out = pad;
  return true;
}

bool kiln_window_pad_is_spatial(const kiln_window_pad_t* wp, bool nhwc) {
  int other = nhwc ? 3 : 1;
  return !wp->lo[0] && !wp->hi[0] && !wp->lo[other] && !wp->hi[other];
}
