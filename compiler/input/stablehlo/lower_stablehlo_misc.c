// stablehlo.optimization_barrier / get_dimension_size / map -> structured
// form. See lower_stablehlo_misc.h.
#include "compiler/input/stablehlo/lower_stablehlo_misc.h"

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

#define KILN_MISC_MAX 16

static kiln_status_t kiln_lm_barrier(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n > KILN_MISC_MAX) {
    return kiln_ir_op_emit_error(op, b->context, "too many operands");
  }
  kiln_ir_value_t* args[KILN_MISC_MAX];
  const kiln_ir_type_t* types[KILN_MISC_MAX];
  for (uint32_t i = 0; i < n; ++i) {
    args[i] = kiln_ir_op_operand(op, i);
    types[i] = args[i]->type;
  }
  kiln_ir_op_t* barrier = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "util.optimization_barrier", n, args, n, types, 0, NULL, &barrier));
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, i),
                                        kiln_ir_op_result(barrier, i));
  }
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

static kiln_status_t kiln_lm_dimension_size(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  int64_t dim = kiln_ir_op_get_attr(op, "dimension")->i;
  int64_t size = t->shaped.dims[dim];
  const kiln_ir_type_t* rt = op->results[0].type;
  if (size == KILN_IR_DYNAMIC_DIM) {
    // The run-time size as a tensor<i32> built at host level.
    kiln_ir_value_t *d = NULL, *v = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, kiln_ir_op_operand(op, 0),
                                                   (size_t)dim, &d));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(b, "arith.index_cast",
                                            rt->shaped.element, 1, &d, &v));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(b, "tensor.from_elements", rt, 1, &v, &v));
    kiln_lowering_replace(op, v);
    return kiln_ok_status();
  }
  int32_t v = (int32_t)size;
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      b->context, "value",
      kiln_ir_dense_elements_attr_get(b->context, rt, true, &v, sizeof(v)));
  kiln_ir_op_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "arith.constant", 0, NULL, 1, &rt, 1, &attr, &c));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(c, 0));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

static kiln_status_t kiln_lm_map(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n > KILN_MISC_MAX)
    return kiln_ir_op_emit_error(op, ctx, "too many operands");
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  kiln_ir_value_t* ins[KILN_MISC_MAX];
  const kiln_ir_attribute_t* maps[KILN_MISC_MAX + 1];
  for (uint32_t i = 0; i < n; ++i) {
    ins[i] = kiln_ir_op_operand(op, i);
    maps[i] = kiln_linalg_identity_map(ctx, rank);
  }
  maps[n] = kiln_linalg_identity_map(ctx, rank);
  // Run-time sizes: the first operand's.
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, ins[0], &empty));
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, n, ins, 1, &empty, maps,
                                                  rank, NULL, &g, &body));
  kiln_ir_builder_t bb = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_to_end(&bb, body);
  bb.location = b->location;
  kiln_ir_value_t* result = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, op, body->args, &result));
  kiln_ir_op_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &bb, "linalg.yield", 1, &result, 0, NULL, 0, NULL, &y));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(g, 0));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// get_tuple_element of a stablehlo.tuple is the tuple's operand; the tuple
// goes once its last element read is gone. Other tuple uses (function
// boundaries, branches) are not supported.
static kiln_status_t kiln_lm_tuple(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  for (kiln_ir_use_t* use = op->results[0].first_use; use;
       use = use->next_use) {
    if (!kiln_ir_op_is(use->owner, "stablehlo.get_tuple_element") &&
        !kiln_ir_op_is(use->owner, "stablehlo.tuple")) {
      return kiln_ir_op_emit_error(op, b->context,
                                   "is only supported when its uses are "
                                   "stablehlo.get_tuple_element or tuple");
    }
  }
  return kiln_ok_status();  // erased with its last get_tuple_element
}

static kiln_status_t kiln_lm_get_tuple_element(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op) {
  kiln_ir_value_t* t = kiln_ir_op_operand(op, 0);
  kiln_ir_op_t* def = t->kind == KILN_IR_VALUE_RESULT ? t->defining_op : NULL;
  if (!def || !kiln_ir_op_is(def, "stablehlo.tuple")) {
    return kiln_ir_op_emit_error(op, b->context,
                                 "is only supported on a stablehlo.tuple "
                                 "result");
  }
  int64_t index = kiln_ir_op_get_attr(op, "index")->i;
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_operand(def, (uint32_t)index));
  kiln_ir_op_erase(op);
  if (!def->results[0].first_use) kiln_ir_op_erase(def);  // visited before
  return kiln_ok_status();
}

// A run-time shaped result of dynamic_broadcast_in_dim / dynamic_iota:
// tensor.empty sized by the shape operand's entries (read at host level),
// then a generic over it: the operand read through the broadcast map (a
// static 1 under a larger dim reads index 0; other dims are asserted equal
// once structured), or the iota index converted to the element type.
static kiln_status_t kiln_lm_dynamic_result(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op, bool iota) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  kiln_ir_value_t* shape = kiln_ir_op_operand(op, iota ? 0 : 1);
  if (rank > KILN_MISC_MAX) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  kiln_ir_value_t* sizes[KILN_MISC_MAX];
  uint32_t num_sizes = 0;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_sizes_from_shape(b, shape, rt, sizes, &num_sizes));
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", rt, num_sizes, sizes, &init));
  if (iota) {
    return kiln_lowering_iota(b, op, init,
                              kiln_ir_op_get_attr(op, "iota_dimension")->i);
  }
  const kiln_ir_attribute_t* out_map = kiln_linalg_identity_map(ctx, rank);
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* xt = x->type;
  int64_t dims[KILN_MISC_MAX];
  int64_t n = kiln_dialect_int_list(
      kiln_ir_op_get_attr(op, "broadcast_dimensions"), dims, KILN_MISC_MAX);
  if (n != (int64_t)xt->shaped.rank) {
    return kiln_ir_op_emit_error(op, ctx, "broadcast_dimensions must list %zu",
                                 xt->shaped.rank);
  }
  const kiln_ir_affine_expr_t* exprs[KILN_MISC_MAX];
  for (int64_t i = 0; i < n; ++i) {
    bool expand = xt->shaped.dims[i] == 1 && rt->shaped.dims[dims[i]] != 1;
    exprs[i] = expand ? kiln_ir_affine_constant(ctx, 0)
                      : kiln_ir_affine_dim(ctx, (uint32_t)dims[i]);
  }
  const kiln_ir_attribute_t* maps[2] = {
      kiln_ir_affine_map_attr_get(ctx, rank, 0, (size_t)n, exprs), out_map};
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &x, 1, &init, maps,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  return kiln_lowering_yield_and_replace(&bb, body->args[0], op, generic);
}

// dynamic_broadcast_in_dim / dynamic_reshape / dynamic_iota with a static
// result: the static op (broadcast_in_dim / reshape / iota) built before
// |op| and lowered as lower-to-structured lowers it; the shape operand is
// not read (the result type already says it). A run-time shaped result:
// kiln_lm_dynamic_result, or for dynamic_reshape a reshape whose run-time
// dims map onto the operand's (their sizes follow from the operand's; the
// shape operand is not read).
static kiln_status_t kiln_lm_dynamic_shape_op(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!kiln_ir_type_has_static_shape(rt) &&
      kiln_ir_op_is(op, "stablehlo.dynamic_reshape")) {
    // The shape operand's entries size the run-time dims.
    return kiln_lowering_reshape_to_shape(b, op);
  }
  if (!kiln_ir_type_has_static_shape(rt)) {
    return kiln_lm_dynamic_result(b, op,
                                  kiln_ir_op_is(op, "stablehlo.dynamic_iota"));
  }
  const char* name = "stablehlo.reshape";
  const char* attr_name = NULL;
  if (kiln_ir_op_is(op, "stablehlo.dynamic_broadcast_in_dim")) {
    name = "stablehlo.broadcast_in_dim";
    attr_name = "broadcast_dimensions";
  } else if (kiln_ir_op_is(op, "stablehlo.dynamic_iota")) {
    name = "stablehlo.iota";
    attr_name = "iota_dimension";
  }
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  bool iota = kiln_ir_op_is(op, "stablehlo.dynamic_iota");
  kiln_ir_named_attribute_t attr;
  if (attr_name) {
    attr =
        kiln_ir_named_attr(ctx, attr_name, kiln_ir_op_get_attr(op, attr_name));
  }
  kiln_ir_op_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, name, iota ? 0 : 1, &x, 1, &rt, attr_name ? 1 : 0, &attr, &s));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(s, 0));
  kiln_ir_op_erase(op);
  kiln_ir_builder_set_before(b, s);
  return kiln_lower_to_structured_op(b, s);
}

KILN_STABLEHLO_DEFINE_LOWERING(optimization_barrier, kiln_lm_barrier)
KILN_STABLEHLO_DEFINE_LOWERING(get_dimension_size, kiln_lm_dimension_size)
KILN_STABLEHLO_DEFINE_LOWERING(map, kiln_lm_map)
KILN_STABLEHLO_DEFINE_LOWERING(tuple, kiln_lm_tuple)
KILN_STABLEHLO_DEFINE_LOWERING(get_tuple_element, kiln_lm_get_tuple_element)
KILN_STABLEHLO_DEFINE_LOWERING(dynamic_shape, kiln_lm_dynamic_shape_op)
