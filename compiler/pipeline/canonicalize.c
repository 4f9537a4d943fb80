// canonicalize: runs every op's fold hook (constants and identities such as
// x + 0, x * 1, select on a constant, reshape of a constant or of its
// inverse) to a fixed point, applies a few rewrites (stablehlo.reshape of
// reshape, stablehlo.transpose of transpose), and drops dead pure ops.
// Folded constants materialize as arith.constant.
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/input/stablehlo/stablehlo.h"
#include "compiler/pipeline/passes.h"

const kiln_ir_attribute_t* kiln_pipeline_constant_of(kiln_ir_value_t* value) {
  if (!value || value->kind != KILN_IR_VALUE_RESULT) return NULL;
  kiln_ir_op_t* op = value->defining_op;
  if (!kiln_ir_op_has_trait(op, KILN_IR_TRAIT_CONSTANT_LIKE)) return NULL;
  return kiln_ir_op_get_attr(op, "value");
}

typedef struct kiln_canon_t {
  kiln_ir_context_t* ctx;
  bool changed;
  kiln_status_t status;
} kiln_canon_t;

static kiln_status_t kiln_canon_materialize(kiln_canon_t* c, kiln_ir_op_t* op,
                                            const kiln_ir_attribute_t* attr,
                                            const kiln_ir_type_t* type,
                                            kiln_ir_value_t** out) {
  kiln_ir_builder_t b = kiln_ir_builder_make(c->ctx);
  kiln_ir_builder_set_before(&b, op);
  b.location = op->location;
  kiln_ir_named_attribute_t named = kiln_ir_named_attr(c->ctx, "value", attr);
  kiln_ir_op_t* cst = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &b, "arith.constant", 0, NULL, 1, &type, 1, &named, &cst));
  *out = kiln_ir_op_result(cst, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_canon_fold(kiln_canon_t* c, kiln_ir_op_t* op) {
  if (!op->def || !op->def->fold ||
      kiln_ir_op_has_trait(op, KILN_IR_TRAIT_CONSTANT_LIKE) ||
      kiln_ir_op_has_trait(op, KILN_IR_TRAIT_SIDE_EFFECTING) ||
      op->num_results == 0 || op->num_results > 8) {
    return kiln_ok_status();
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_attribute_t* stack_consts[8];
  const kiln_ir_attribute_t** consts = stack_consts;
  if (n > 8) {
    consts = kiln_ir_arena_alloc(c->ctx, sizeof(*consts) * n);
    if (!consts)
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "fold");
  }
  for (uint32_t i = 0; i < n; ++i) {
    consts[i] = kiln_pipeline_constant_of(kiln_ir_op_operand(op, i));
  }
  kiln_ir_fold_result_t results[8];
  memset(results, 0, sizeof(results));
  bool folded = false;
  KILN_RETURN_IF_ERROR(op->def->fold(c->ctx, op, consts, results, &folded));
  if (!folded) return kiln_ok_status();
  kiln_ir_value_t* replacements[8];
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (results[i].value) {
      replacements[i] = results[i].value;
    } else if (results[i].attr) {
      KILN_RETURN_IF_ERROR(kiln_canon_materialize(
          c, op, results[i].attr, op->results[i].type, &replacements[i]));
    } else {
      return kiln_ok_status();
    }
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (replacements[i] == &op->results[i]) return kiln_ok_status();
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    kiln_ir_value_replace_all_uses_with(&op->results[i], replacements[i]);
  }
  kiln_ir_op_erase(op);
  c->changed = true;
  return kiln_ok_status();
}

// stablehlo.reshape(reshape(x)) -> reshape(x) (or x);
// stablehlo.transpose(transpose(x)) -> x when the permutations cancel.
static kiln_status_t kiln_canon_patterns(kiln_canon_t* c, kiln_ir_op_t* op) {
  bool is_reshape = kiln_ir_op_is(op, "stablehlo.reshape");
  bool is_transpose = kiln_ir_op_is(op, "stablehlo.transpose");
  if (!is_reshape && !is_transpose) return kiln_ok_status();
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  if (src->kind != KILN_IR_VALUE_RESULT ||
      !kiln_ir_ident_eq(src->defining_op->name, op->name)) {
    if (is_reshape && src->type == op->results[0].type) {
      kiln_ir_value_replace_all_uses_with(&op->results[0], src);
      kiln_ir_op_erase(op);
      c->changed = true;
    }
    return kiln_ok_status();
  }
  kiln_ir_op_t* inner = src->defining_op;
  kiln_ir_value_t* x = kiln_ir_op_operand(inner, 0);
  if (is_reshape) {
    if (x->type == op->results[0].type) {
      kiln_ir_value_replace_all_uses_with(&op->results[0], x);
      kiln_ir_op_erase(op);
    } else {
      kiln_ir_op_set_operand(op, 0, x);
    }
    c->changed = true;
    return kiln_ok_status();
  }
  int64_t p1[16], p2[16];
  int64_t n1 = kiln_stablehlo_int_list_attr(inner, "permutation", p1, 16);
  int64_t n2 = kiln_stablehlo_int_list_attr(op, "permutation", p2, 16);
  if (n1 != n2 || n1 < 0) return kiln_ok_status();
  // result[i] = inner[p2[i]] = x[p1[p2[i]]]
  int64_t composed[16];
  bool identity = true;
  for (int64_t i = 0; i < n1; ++i) {
    composed[i] = p1[p2[i]];
    identity &= composed[i] == i;
  }
  if (identity) {
    kiln_ir_value_replace_all_uses_with(&op->results[0], x);
    kiln_ir_op_erase(op);
  } else {
    KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
        c->ctx, op, "permutation",
        kiln_dialect_i64_array(c->ctx, (size_t)n1, composed), false));
    kiln_ir_op_set_operand(op, 0, x);
  }
  c->changed = true;
  return kiln_ok_status();
}

static kiln_ir_walk_result_t kiln_canon_visit(kiln_ir_op_t* op,
                                              void* user_data) {
  kiln_canon_t* c = user_data;
  kiln_ir_op_t* saved_next = op->next;
  (void)saved_next;
  bool was_changed = c->changed;
  c->changed = false;
  c->status = kiln_canon_patterns(c, op);
  if (c->status) return KILN_IR_WALK_INTERRUPT;
  if (!c->changed) {
    c->status = kiln_canon_fold(c, op);
    if (c->status) return KILN_IR_WALK_INTERRUPT;
  }
  c->changed |= was_changed;
  return KILN_IR_WALK_ADVANCE;
}

kiln_status_t kiln_pass_canonicalize(kiln_ir_context_t* context,
                                     kiln_ir_op_t* module, void* user_data) {
  kiln_canon_t c = {context, false, NULL};
  for (int iteration = 0; iteration < 16; ++iteration) {
    c.changed = false;
    kiln_ir_op_walk(module, KILN_IR_WALK_POST_ORDER, kiln_canon_visit, &c);
    if (c.status) return c.status;
    KILN_RETURN_IF_ERROR(kiln_pass_dce(context, module, NULL));
    if (!c.changed) break;
  }
  return kiln_ok_status();
}
