// Small StableHLO ops (lowered by
// compiler/input/stablehlo/lower_stablehlo_misc.c):
//   %a, %b = stablehlo.optimization_barrier %x, %y : tensor<4xf32>, tensor<i32>
//   %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) ->
//        tensor<i32>
//   %r = "stablehlo.map"(%x, %y) ({
//   ^bb0(%a: tensor<f32>, %b: tensor<f32>): ... stablehlo.return %c ...
//   }) {dimensions = array<i64: 0, 1>} : (...) -> tensor<2x3xf32>
// (map: generic form only, as StableHLO prints it);
//   %t = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
//   %b2 = stablehlo.get_tuple_element %t[1] : (tuple<...>) -> tensor<i32>
//   %y = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1]
//          : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
//   %y = stablehlo.dynamic_reshape %x, %shape : (tensor<6xf32>,
//          tensor<2xi64>) -> tensor<2x3xf32>
//   %y = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) ->
//          tensor<4xi32>
// (the dynamic_* ops with statically shaped results become their static
// forms).
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/input/stablehlo/lower_stablehlo_misc.h"

static bool kiln_misc_is_tensor(const kiln_ir_type_t* t) {
  return t && kiln_ir_type_is_ranked_tensor(t);
}

//===----------------------------------------------------------------------===//
// optimization_barrier
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_ob_verify(kiln_ir_context_t* context,
                                    kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (op->num_results != n) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects as many results as operands");
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (op->results[i].type != kiln_ir_op_operand(op, i)->type) {
      return kiln_ir_op_emit_error(
          op, context, "result #%u must have the type of operand #%u", i, i);
    }
  }
  return kiln_ok_status();
}

// `{attrs} %a, %b : T1, T2` or `{attrs} ()`.
static kiln_status_t kiln_ob_parse(kiln_mlir_op_parser_t* p,
                                   kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN);
  }
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  kiln_mlir_type_list_t types = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  if (types.count != operands.count) {
    return kiln_mlir_emit_error(p, "%zu operands but %zu types", operands.count,
                                types.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &operands, types.count,
                                                  types.items, state));
  return kiln_mlir_add_result_types(p, state, &types);
}

static void kiln_ob_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 0) {
    kiln_ir_printer_printf(p, "()");
    return;
  }
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, " : ");
  for (uint32_t i = 0; i < n; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, i)->type);
  }
}

//===----------------------------------------------------------------------===//
// get_dimension_size
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_gds_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dimension");
  if (!kiln_misc_is_tensor(t) || !dim || dim->kind != KILN_IR_ATTR_INTEGER ||
      dim->i < 0 || (size_t)dim->i >= t->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "requires a ranked tensor and a dimension in range");
  }
  const kiln_ir_type_t* r = op->results[0].type;
  if (!kiln_misc_is_tensor(r) || r->shaped.rank != 0 ||
      r->shaped.element != kiln_ir_int_type(context, 32)) {
    return kiln_ir_op_emit_error(op, context, "result must be tensor<i32>");
  }
  return kiln_ok_status();
}

// The custom form `%operand, dim = N {attrs} : (T) -> R` shared by
// get_dimension_size and dynamic_iota; N is stored as |attr_name|.
static kiln_status_t kiln_stablehlo_misc_parse_operand_dim(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state,
    const char* attr_name) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  operands.items = kiln_ir_arena_alloc(context, sizeof(kiln_mlir_operand_t));
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  operands.capacity = 1;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[0]));
  operands.count = 1;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "dim"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, attr_name,
      kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64), dim)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_stablehlo_misc_print_operand_dim(kiln_ir_printer_t* p,
                                                  kiln_ir_op_t* op,
                                                  const char* attr_name) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, attr_name);
  kiln_ir_printer_printf(p, ", dim = %lld", dim ? (long long)dim->i : 0LL);
  const char* const elided[] = {attr_name};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

// `%x, dim = 1 {attrs} : (T) -> tensor<i32>`.
static kiln_status_t kiln_gds_parse(kiln_mlir_op_parser_t* p,
                                    kiln_ir_op_state_t* state) {
  return kiln_stablehlo_misc_parse_operand_dim(p, state, "dimension");
}

static void kiln_gds_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_stablehlo_misc_print_operand_dim(p, op, "dimension");
}

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_map_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* r = op->results[0].type;
  if (n == 0 || !kiln_misc_is_tensor(r)) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects operands and a tensor result");
  }
  for (uint32_t i = 0; i < n; ++i) {
    // Run-time sizes must agree at run time (checked once structured).
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    bool ok = kiln_misc_is_tensor(t) && t->shaped.rank == r->shaped.rank;
    for (size_t d = 0; ok && d < r->shaped.rank; ++d) {
      ok = t->shaped.dims[d] == r->shaped.dims[d] ||
           t->shaped.dims[d] == KILN_IR_DYNAMIC_DIM ||
           r->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
    }
    if (!ok) {
      return kiln_ir_op_emit_error(
          op, context, "operand #%u must have the result's shape", i);
    }
  }
  int64_t dims[16];
  int64_t nd =
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "dimensions"), dims, 16);
  if (nd != (int64_t)r->shaped.rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "dimensions must list every dim in order");
  }
  for (int64_t i = 0; i < nd; ++i) {
    if (dims[i] != i) {
      return kiln_ir_op_emit_error(op, context,
                                   "dimensions must list every dim in order");
    }
  }
  kiln_ir_block_t* body = op->regions[0].first_block;
  if (!body || body->next || body->num_args != n) {
    return kiln_ir_op_emit_error(
        op, context, "computation must be one block taking %u arguments", n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* a = body->args[i]->type;
    if (!kiln_misc_is_tensor(a) || a->shaped.rank != 0 ||
        a->shaped.element != kiln_ir_op_operand(op, i)->type->shaped.element) {
      return kiln_ir_op_emit_error(
          op, context,
          "computation argument #%u must be a rank-0 tensor of operand "
          "#%u's element type",
          i, i);
    }
  }
  kiln_ir_op_t* ret = body->last_op;
  if (!ret || !kiln_ir_op_is(ret, "stablehlo.return") ||
      kiln_ir_op_num_regular_operands(ret) != 1 ||
      kiln_ir_op_operand(ret, 0)->type->shaped.element != r->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context,
        "computation must end with stablehlo.return of one rank-0 tensor of "
        "the result's element type");
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// tuple / get_tuple_element
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tuple_verify(kiln_ir_context_t* context,
                                       kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = op->results[0].type;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (t->kind != KILN_IR_TYPE_TUPLE || t->tuple.count != n) {
    return kiln_ir_op_emit_error(
        op, context, "result must be a tuple of the %u operand types", n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (t->tuple.types[i] != kiln_ir_op_operand(op, i)->type) {
      return kiln_ir_op_emit_error(
          op, context, "tuple element #%u must have operand #%u's type", i, i);
    }
  }
  return kiln_ok_status();
}

// `%a, %b {attrs} : tuple<...>`.
static kiln_status_t kiln_tuple_parse(kiln_mlir_op_parser_t* p,
                                      kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* t = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &t));
  if (t->kind != KILN_IR_TYPE_TUPLE || t->tuple.count != operands.count) {
    return kiln_mlir_emit_error(p, "expected a tuple type of %zu elements",
                                operands.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &operands, t->tuple.count,
                                                  t->tuple.types, state));
  return kiln_mlir_add_result_type(p, state, t);
}

static void kiln_tuple_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  if (kiln_ir_op_num_regular_operands(op) > 0) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_operands(p, op);
  }
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static kiln_status_t kiln_gte_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_attribute_t* index = kiln_ir_op_get_attr(op, "index");
  if (t->kind != KILN_IR_TYPE_TUPLE || !index ||
      index->kind != KILN_IR_ATTR_INTEGER || index->i < 0 ||
      (size_t)index->i >= t->tuple.count) {
    return kiln_ir_op_emit_error(
        op, context, "requires a tuple operand and an index in range");
  }
  if (op->results[0].type != t->tuple.types[index->i]) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must have tuple element #%lld's type",
                                 (long long)index->i);
  }
  return kiln_ok_status();
}

// `%t[1] {attrs} : (tuple<...>) -> T`.
static kiln_status_t kiln_gte_parse(kiln_mlir_op_parser_t* p,
                                    kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  operands.items = kiln_ir_arena_alloc(context, sizeof(kiln_mlir_operand_t));
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  operands.capacity = 1;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[0]));
  operands.count = 1;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  int64_t index = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &index));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "index",
      kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 32), index)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_gte_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  const kiln_ir_attribute_t* index = kiln_ir_op_get_attr(op, "index");
  kiln_ir_printer_printf(p, "[%lld]", index ? (long long)index->i : 0LL);
  static const char* const elided[] = {"index"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

//===----------------------------------------------------------------------===//
// dynamic_broadcast_in_dim / dynamic_reshape / dynamic_iota
//===----------------------------------------------------------------------===//

// |op|'s operand |i| is a 1-D integer tensor of |count| entries (a shape).
static kiln_status_t kiln_dyn_check_shape_operand(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op, uint32_t i,
                                                  size_t count) {
  const kiln_ir_type_t* s = kiln_ir_op_operand(op, i)->type;
  if (!kiln_misc_is_tensor(s) || s->shaped.rank != 1 ||
      !kiln_ir_type_is_integer(s->shaped.element) ||
      (s->shaped.dims[0] != KILN_IR_DYNAMIC_DIM &&
       s->shaped.dims[0] != (int64_t)count)) {
    return kiln_ir_op_emit_error(
        op, context, "operand #%u must be a 1-D integer tensor of %zu entries",
        i, count);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_dbid_verify(kiln_ir_context_t* context,
                                      kiln_ir_op_t* op) {
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (!kiln_misc_is_tensor(in) || !kiln_misc_is_tensor(out) ||
      in->shaped.element != out->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context, "operand and result must be tensors of one element type");
  }
  KILN_RETURN_IF_ERROR(
      kiln_dyn_check_shape_operand(context, op, 1, out->shaped.rank));
  int64_t dims[16];
  int64_t n = kiln_dialect_int_list(
      kiln_ir_op_get_attr(op, "broadcast_dimensions"), dims, 16);
  if (n != (int64_t)in->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context,
        "broadcast_dimensions must have one entry per operand dim");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || (size_t)dims[i] >= out->shaped.rank) {
      return kiln_ir_op_emit_error(op, context,
                                   "broadcast dimension %lld is out of range",
                                   (long long)dims[i]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_parse_i64_list(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state,
                                         const char* name) {
  int64_t v[16];
  size_t n = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    do {
      if (n == 16) return kiln_mlir_emit_error(p, "too many dims");
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &v[n++]));
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
  }
  return kiln_mlir_add_attribute(
      p, state, name,
      kiln_dialect_i64_array(kiln_mlir_parser_context(p), n, v));
}

static void kiln_print_i64_list(kiln_ir_printer_t* p, const kiln_ir_op_t* op,
                                const char* name) {
  int64_t v[16];
  int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, name), v, 16);
  kiln_ir_printer_printf(p, "[");
  for (int64_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
  }
  kiln_ir_printer_printf(p, "]");
}

// `%x, %shape, dims = [..] {attrs} : (T, S) -> R`.
static kiln_status_t kiln_dbid_parse(kiln_mlir_op_parser_t* p,
                                     kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  operands.items =
      kiln_ir_arena_alloc(context, 2 * sizeof(kiln_mlir_operand_t));
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  operands.capacity = 2;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[0]));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[1]));
  operands.count = 2;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "dims"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  KILN_RETURN_IF_ERROR(kiln_parse_i64_list(p, state, "broadcast_dimensions"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_dbid_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ", dims = ");
  kiln_print_i64_list(p, op, "broadcast_dimensions");
  static const char* const elided[] = {"broadcast_dimensions"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

static kiln_status_t kiln_dreshape_verify(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op) {
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (!kiln_misc_is_tensor(in) || !kiln_misc_is_tensor(out) ||
      in->shaped.element != out->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context, "operand and result must be tensors of one element type");
  }
  if (kiln_ir_type_has_static_shape(in) && kiln_ir_type_has_static_shape(out) &&
      kiln_ir_type_num_elements(in) != kiln_ir_type_num_elements(out)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand and result element counts differ");
  }
  return kiln_dyn_check_shape_operand(context, op, 1, out->shaped.rank);
}

static void kiln_dreshape_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

static kiln_status_t kiln_diota_verify(kiln_ir_context_t* context,
                                       kiln_ir_op_t* op) {
  const kiln_ir_type_t* out = op->results[0].type;
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "iota_dimension");
  if (!kiln_misc_is_tensor(out) || !dim || dim->kind != KILN_IR_ATTR_INTEGER ||
      dim->i < 0 || (size_t)dim->i >= out->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "requires a tensor result and an iota_dimension in range");
  }
  return kiln_dyn_check_shape_operand(context, op, 0, out->shaped.rank);
}

// `%shape, dim = 0 {attrs} : (S) -> R`.
static kiln_status_t kiln_diota_parse(kiln_mlir_op_parser_t* p,
                                      kiln_ir_op_state_t* state) {
  return kiln_stablehlo_misc_parse_operand_dim(p, state, "iota_dimension");
}

static void kiln_diota_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_stablehlo_misc_print_operand_dim(p, op, "iota_dimension");
}

static const kiln_ir_op_def_t kiln_stablehlo_misc_defs[] = {
    {"stablehlo.optimization_barrier",
     "returns its operands; no folding or motion across it",
     KILN_IR_TRAIT_SIDE_EFFECTING, KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0,
     kiln_ob_verify, kiln_ob_parse, kiln_ob_print, NULL, NULL,
     kiln_stablehlo_lower_optimization_barrier},
    {"stablehlo.get_dimension_size", "the size of one dim as a tensor<i32>",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_gds_verify, kiln_gds_parse, kiln_gds_print, NULL, NULL,
     kiln_stablehlo_lower_get_dimension_size},
    {"stablehlo.map", "applies a scalar computation elementwise",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK |
         KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
     KILN_IR_VARIADIC, 1, 1, 0, kiln_map_verify, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_map},
    {"stablehlo.tuple", "groups values into a tuple", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tuple_verify, kiln_tuple_parse,
     kiln_tuple_print, NULL, NULL, kiln_stablehlo_lower_tuple},
    {"stablehlo.get_tuple_element", "element |index| of a tuple",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_gte_verify, kiln_gte_parse,
     kiln_gte_print, NULL, NULL, kiln_stablehlo_lower_get_tuple_element},
    {"stablehlo.dynamic_broadcast_in_dim",
     "broadcast_in_dim to a shape given as a tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_dbid_verify, kiln_dbid_parse, kiln_dbid_print, NULL, NULL,
     kiln_stablehlo_lower_dynamic_shape},
    {"stablehlo.dynamic_reshape", "reshape to a shape given as a tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_dreshape_verify, kiln_dialect_parse_operands_functional,
     kiln_dreshape_print, NULL, NULL, kiln_stablehlo_lower_dynamic_shape},
    {"stablehlo.dynamic_iota", "iota of a shape given as a tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_diota_verify, kiln_diota_parse, kiln_diota_print, NULL, NULL,
     kiln_stablehlo_lower_dynamic_shape},
};

kiln_status_t kiln_dialect_register_stablehlo_misc(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_stablehlo_misc_defs,
      sizeof(kiln_stablehlo_misc_defs) / sizeof(kiln_stablehlo_misc_defs[0]));
}
