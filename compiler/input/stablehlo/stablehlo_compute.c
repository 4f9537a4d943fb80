// StableHLO ops whose lowering computes more than an elementwise or data
// movement generic (lowered by
// compiler/input/stablehlo/lower_stablehlo_compute.c): sort,
// dynamic_update_slice, cholesky, reduce_precision, triangular_solve,
// batch_norm_training, batch_norm_grad, select_and_scatter.
//   %r:2 = "stablehlo.sort"(%keys, %values) ({
//   ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
//     %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) ->
//          tensor<i1>
//     stablehlo.return %p : tensor<i1>
//   }) {dimension = 0 : i64, is_stable = true} : (...) -> (...)
// (generic form only, as StableHLO prints it; `dimension` defaults to -1,
// the last dim, and may be negative);
//   %r = stablehlo.dynamic_update_slice %operand, %update, %i0, %i1
//          : (tensor<3x3xi32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>)
//          -> tensor<3x3xi32>
// (custom and generic form);
//   %l = stablehlo.cholesky %a, lower = true : tensor<4x4xf32>
// (custom and generic form; `lower` defaults to false);
//   %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
// (generic: {exponent_bits = 5 : i32, mantissa_bits = 10 : i32});
//   %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true,
//          lower = true, unit_diagonal = false,
//          transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (...) -> ...
// (generic form only, as StableHLO prints it);
//   %y, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset)
//          {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (...) -> (...)
// (generic form only).
#include <stdio.h>
#include <string.h>
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/input/stablehlo/lower_stablehlo_compute.h"

static bool kiln_sort_is_tensor(const kiln_ir_type_t* t) {
  return t && kiln_ir_type_is_ranked_tensor(t);
}

int64_t kiln_stablehlo_sort_dimension(const kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand((kiln_ir_op_t*)op, 0)->type;
  int64_t rank = (int64_t)t->shaped.rank;
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "dimension");
  int64_t d = (a && a->kind == KILN_IR_ATTR_INTEGER) ? a->i : -1;
  if (d < 0) d += rank;
  return (d < 0 || d >= rank) ? -1 : d;
}

static kiln_status_t kiln_sort_verify(kiln_ir_context_t* context,
                                      kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 0 || op->num_results != n) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects N >= 1 operands and N results");
  }
  const kiln_ir_type_t* t0 = kiln_ir_op_operand(op, 0)->type;
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_sort_is_tensor(t) || !kiln_dialect_same_shape(t, t0)) {
      return kiln_ir_op_emit_error(
          op, context, "operand #%u must be a ranked tensor shaped as #0", i);
    }
    if (op->results[i].type != t) {
      return kiln_ir_op_emit_error(op, context,
                                   "result #%u must have the type %s", i,
                                   kiln_ir_type_to_string(context, t));
    }
  }
  if (t0->shaped.rank == 0) {
    return kiln_ir_op_emit_error(op, context, "operands must have rank >= 1");
  }
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dimension");
  if (dim && dim->kind != KILN_IR_ATTR_INTEGER) {
    return kiln_ir_op_emit_error(op, context,
                                 "'dimension' must be an integer attribute");
  }
  if (kiln_stablehlo_sort_dimension(op) < 0) {
    return kiln_ir_op_emit_error(op, context,
                                 "dimension %lld is out of range for rank %zu",
                                 (long long)dim->i, t0->shaped.rank);
  }
  const kiln_ir_attribute_t* stable = kiln_ir_op_get_attr(op, "is_stable");
  if (stable && stable->kind != KILN_IR_ATTR_BOOL) {
    return kiln_ir_op_emit_error(op, context,
                                 "'is_stable' must be a bool attribute");
  }
  kiln_ir_block_t* body = op->regions[0].first_block;
  if (!body || body->next || body->num_args != 2 * n) {
    return kiln_ir_op_emit_error(
        op, context, "comparator must be one block taking %u arguments", 2 * n);
  }
  for (uint32_t i = 0; i < 2 * n; ++i) {
    const kiln_ir_type_t* a = body->args[i]->type;
    const kiln_ir_type_t* e = kiln_ir_op_operand(op, i / 2)->type;
    if (!kiln_sort_is_tensor(a) || a->shaped.rank != 0 ||
        a->shaped.element != e->shaped.element) {
      return kiln_ir_op_emit_error(
          op, context, "comparator argument #%u must be tensor<%s>", i,
          kiln_ir_type_to_string(context, e->shaped.element));
    }
  }
  kiln_ir_op_t* ret = body->last_op;
  if (!ret || !kiln_ir_op_is(ret, "stablehlo.return") ||
      kiln_ir_op_num_regular_operands(ret) != 1) {
    return kiln_ir_op_emit_error(
        op, context, "comparator must end with stablehlo.return of one value");
  }
  const kiln_ir_type_t* rt = kiln_ir_op_operand(ret, 0)->type;
  if (!kiln_sort_is_tensor(rt) || rt->shaped.rank != 0 ||
      !kiln_ir_type_is_integer(rt->shaped.element) ||
      rt->shaped.element->integer.width != 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "comparator must return a tensor<i1>");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_dus_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* u = n > 1 ? kiln_ir_op_operand(op, 1)->type : NULL;
  if (!kiln_sort_is_tensor(t) || !kiln_sort_is_tensor(u)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand and update must be ranked tensors");
  }
  size_t rank = t->shaped.rank;
  if (u->shaped.rank != rank || u->shaped.element != t->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context, "update must have the operand's rank and element type");
  }
  if (n != 2 + rank) {
    return kiln_ir_op_emit_error(
        op, context, "expects %zu start indices, got %u", rank, n - 2);
  }
  for (size_t d = 0; d < rank; ++d) {
    // Run-time sizes are checked when the op runs.
    if (u->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        t->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        u->shaped.dims[d] > t->shaped.dims[d]) {
      return kiln_ir_op_emit_error(
          op, context, "update dim %zu (%lld) exceeds the operand's (%lld)", d,
          (long long)u->shaped.dims[d], (long long)t->shaped.dims[d]);
    }
    const kiln_ir_type_t* it = kiln_ir_op_operand(op, 2 + (uint32_t)d)->type;
    if (!kiln_sort_is_tensor(it) || it->shaped.rank != 0 ||
        !kiln_ir_type_is_integer(it->shaped.element) ||
        it->shaped.element != kiln_ir_op_operand(op, 2)->type->shaped.element) {
      return kiln_ir_op_emit_error(
          op, context,
          "start index #%zu must be a rank-0 integer tensor (all the same "
          "type)",
          d);
    }
  }
  if (op->results[0].type != t) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must have the operand's type %s",
                                 kiln_ir_type_to_string(context, t));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_dus_parse(kiln_mlir_op_parser_t* p,
                                    kiln_ir_op_state_t* state) {
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
    return kiln_mlir_parse_generic_op_body(p, state);
  }
  return kiln_dialect_parse_operands_functional(p, state);
}

static void kiln_dus_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, i ? ", " : " ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, i));
  }
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

static kiln_status_t kiln_cholesky_verify(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  size_t rank = kiln_sort_is_tensor(t) ? t->shaped.rank : 0;
  // Any dim may be run-time (a run-time matrix size is a host loop over
  // the columns, squareness checked at run time); static matrix dims must
  // agree.
  if (rank < 2 ||
      (t->shaped.dims[rank - 1] != KILN_IR_DYNAMIC_DIM &&
       t->shaped.dims[rank - 2] != KILN_IR_DYNAMIC_DIM &&
       t->shaped.dims[rank - 1] != t->shaped.dims[rank - 2]) ||
      !kiln_ir_type_is_float(t->shaped.element)) {
    return kiln_ir_op_emit_error(
        op, context,
        "operand must be a float tensor of square matrices (...xNxN)");
  }
  if (op->results[0].type != t) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must have the operand's type %s",
                                 kiln_ir_type_to_string(context, t));
  }
  const kiln_ir_attribute_t* lower = kiln_ir_op_get_attr(op, "lower");
  if (lower && lower->kind != KILN_IR_ATTR_BOOL) {
    return kiln_ir_op_emit_error(op, context,
                                 "'lower' must be a bool attribute");
  }
  return kiln_ok_status();
}

// `%a, lower = true {attrs} : T` (`lower = ...` optional).
static kiln_status_t kiln_cholesky_parse(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state) {
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
    return kiln_mlir_parse_generic_op_body(p, state);
  }
  kiln_mlir_operand_t a;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &a));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "lower"));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    const kiln_ir_attribute_t* lower = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &lower));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "lower", lower));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &a, type, state));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_cholesky_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  const kiln_ir_attribute_t* lower = kiln_ir_op_get_attr(op, "lower");
  if (lower && lower->kind == KILN_IR_ATTR_BOOL) {
    kiln_ir_printer_printf(p, ", lower = %s", lower->i ? "true" : "false");
  }
  static const char* const elided[] = {"lower"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static bool kiln_rp_bits(const kiln_ir_op_t* op, const char* name,
                         int64_t* out) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, name);
  if (!a || a->kind != KILN_IR_ATTR_INTEGER) return false;
  *out = a->i;
  return true;
}

static kiln_status_t kiln_rp_verify(kiln_ir_context_t* context,
                                    kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  if (!kiln_sort_is_tensor(t) || !kiln_ir_type_is_float(t->shaped.element)) {
    return kiln_ir_op_emit_error(op, context, "operand must be a float tensor");
  }
  if (op->results[0].type != t) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must have the operand's type %s",
                                 kiln_ir_type_to_string(context, t));
  }
  int64_t e = 0, m = 0;
  if (!kiln_rp_bits(op, "exponent_bits", &e) ||
      !kiln_rp_bits(op, "mantissa_bits", &m) || e < 1 || m < 0) {
    return kiln_ir_op_emit_error(
        op, context,
        "requires integer attributes exponent_bits >= 1 and mantissa_bits >= "
        "0");
  }
  return kiln_ok_status();
}

// `%x, format = e5m10 {attrs} : T`.
static kiln_status_t kiln_rp_parse(kiln_mlir_op_parser_t* p,
                                   kiln_ir_op_state_t* state) {
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
    return kiln_mlir_parse_generic_op_body(p, state);
  }
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t x;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &x));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "format"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
  uint32_t line = tok->line, col = tok->column;
  kiln_string_view_t word = kiln_string_view_empty();
  char buf[32] = {0};
  unsigned e = 0, m = 0;
  char tail = 0;
  bool ok = kiln_mlir_parse_optional_any_keyword(p, &word) && word.size < 32;
  if (ok) {
    memcpy(buf, word.data, word.size);
    ok = sscanf(buf, "e%um%u%c", &e, &m, &tail) == 2;
  }
  if (!ok) {
    return kiln_mlir_emit_error_at(p, line, col,
                                   "expected a format like e5m10");
  }
  const kiln_ir_type_t* i32 = kiln_ir_int_type(context, 32);
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "exponent_bits", kiln_ir_integer_attr_get(context, i32, e)));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "mantissa_bits", kiln_ir_integer_attr_get(context, i32, m)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &x, type, state));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_rp_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  int64_t e = 0, m = 0;
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  if (kiln_rp_bits(op, "exponent_bits", &e) &&
      kiln_rp_bits(op, "mantissa_bits", &m)) {
    kiln_ir_printer_printf(p, ", format = e%lldm%lld", (long long)e,
                           (long long)m);
  }
  static const char* const elided[] = {"exponent_bits", "mantissa_bits"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 2);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static kiln_status_t kiln_ts_verify(kiln_ir_context_t* context,
                                    kiln_ir_op_t* op) {
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* b = kiln_ir_op_operand(op, 1)->type;
  size_t rank = kiln_sort_is_tensor(a) ? a->shaped.rank : 0;
  // Any dim may be run-time (a run-time N is a host loop over the rows).
  if (rank < 2 || !kiln_sort_is_tensor(b) || b->shaped.rank != rank ||
      !kiln_ir_type_is_float(a->shaped.element) ||
      b->shaped.element != a->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects float tensors a (...xNxN) and b of the same rank and "
        "element type");
  }
  for (size_t d = 0; d + 2 < rank; ++d) {
    if (a->shaped.dims[d] != b->shaped.dims[d] &&
        a->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        b->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
      return kiln_ir_op_emit_error(op, context,
                                   "batch dims of a and b must match");
    }
  }
  const kiln_ir_attribute_t* left = kiln_ir_op_get_attr(op, "left_side");
  bool is_left = left && left->kind == KILN_IR_ATTR_BOOL && left->i;
  // Static sizes must agree; run-time ones are checked at run time.
  int64_t sizes[3] = {
      a->shaped.dims[rank - 2], a->shaped.dims[rank - 1],
      is_left ? b->shaped.dims[rank - 2] : b->shaped.dims[rank - 1]};
  int64_t n = KILN_IR_DYNAMIC_DIM;
  for (int k = 0; k < 3; ++k) {
    if (sizes[k] == KILN_IR_DYNAMIC_DIM) continue;
    if (n != KILN_IR_DYNAMIC_DIM && sizes[k] != n) {
      return kiln_ir_op_emit_error(op, context,
                                   "a must be square and match b's %s dim",
                                   is_left ? "second-to-last" : "last");
    }
    n = sizes[k];
  }
  kiln_string_view_t tr = kiln_stablehlo_enum_word(op, "transpose_a");
  if (tr.size && !kiln_string_view_equal_cstr(tr, "NO_TRANSPOSE") &&
      !kiln_string_view_equal_cstr(tr, "TRANSPOSE") &&
      !kiln_string_view_equal_cstr(tr, "ADJOINT")) {
    return kiln_ir_op_emit_error(op, context, "unknown transpose_a '%.*s'",
                                 (int)tr.size, tr.data);
  }
  if (op->results[0].type != b) {
    return kiln_ir_op_emit_error(op, context, "result must have b's type");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_bnt_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_attribute_t* fi = kiln_ir_op_get_attr(op, "feature_index");
  // Run-time sizes: any dim but the feature dim.
  if (!kiln_sort_is_tensor(x) || !kiln_ir_type_is_float(x->shaped.element) ||
      !fi || fi->kind != KILN_IR_ATTR_INTEGER || fi->i < 0 ||
      (size_t)fi->i >= x->shaped.rank ||
      x->shaped.dims[fi->i] == KILN_IR_DYNAMIC_DIM) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a float operand with a static "
                                 "feature dim and a feature_index in range");
  }
  const kiln_ir_attribute_t* eps = kiln_ir_op_get_attr(op, "epsilon");
  if (!eps || eps->kind != KILN_IR_ATTR_FLOAT) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a float attribute 'epsilon'");
  }
  int64_t c = x->shaped.dims[fi->i];
  const kiln_ir_type_t* ft =
      kiln_ir_tensor_type_get(context, 1, &c, x->shaped.element, NULL);
  for (uint32_t i = 1; i < 3; ++i) {
    if (kiln_ir_op_operand(op, i)->type != ft) {
      return kiln_ir_op_emit_error(op, context, "operand #%u must be %s", i,
                                   kiln_ir_type_to_string(context, ft));
    }
  }
  if (op->results[0].type != x || op->results[1].type != ft ||
      op->results[2].type != ft) {
    return kiln_ir_op_emit_error(
        op, context, "results must be the operand's type, then %s twice",
        kiln_ir_type_to_string(context, ft));
  }
  return kiln_ok_status();
}

int64_t kiln_stablehlo_sas_window_count(int64_t size, int64_t window,
                                        int64_t stride, int64_t lo,
                                        int64_t hi) {
  if (size == KILN_IR_DYNAMIC_DIM) return -1;
  int64_t padded = size + lo + hi;
  return padded < window ? 0 : (padded - window) / stride + 1;
}

// window_dimensions (required), window_strides (default 1s), padding
// (default 0s; `dense<[[lo, hi], ...]>`) of select_and_scatter.
bool kiln_stablehlo_sas_window(const kiln_ir_op_t* op, size_t rank,
                               int64_t* dims, int64_t* strides, int64_t* lo,
                               int64_t* hi) {
  int64_t pad[32];
  if (rank > 16 ||
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "window_dimensions"), dims,
                            16) != (int64_t)rank) {
    return false;
  }
  const kiln_ir_attribute_t* st = kiln_ir_op_get_attr(op, "window_strides");
  const kiln_ir_attribute_t* pa = kiln_ir_op_get_attr(op, "padding");
  for (size_t i = 0; i < rank; ++i) {
    strides[i] = 1;
    lo[i] = 0;
    hi[i] = 0;
  }
  if (st && kiln_dialect_int_list(st, strides, 16) != (int64_t)rank) {
    return false;
  }
  if (pa) {
    if (kiln_dialect_int_list(pa, pad, 32) != 2 * (int64_t)rank) return false;
    for (size_t i = 0; i < rank; ++i) {
      lo[i] = pad[2 * i];
      hi[i] = pad[2 * i + 1];
    }
  }
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] < 1 || strides[i] < 1) return false;
  }
  return true;
}

static kiln_status_t kiln_sas_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_window_attrs(context, op));
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* init = kiln_ir_op_operand(op, 2)->type;
  // Run-time dims are allowed anywhere: the source's must equal the window
  // counts of the operand's, checked here when both are static and at run
  // time otherwise.
  if (!kiln_sort_is_tensor(x) || !kiln_sort_is_tensor(src) ||
      !kiln_sort_is_tensor(init) || src->shaped.rank != x->shaped.rank ||
      init->shaped.rank != 0 || src->shaped.element != init->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects operand and source tensors of one rank and a rank-0 "
        "init_value of the source's element type");
  }
  int64_t dims[16], strides[16], lo[16], hi[16];
  if (!kiln_stablehlo_sas_window(op, x->shaped.rank, dims, strides, lo, hi)) {
    return kiln_ir_op_emit_error(
        op, context,
        "window_dimensions / window_strides / padding must have one valid "
        "entry (padding: a pair) per dim");
  }
  for (size_t d = 0; d < x->shaped.rank; ++d) {
    int64_t count = kiln_stablehlo_sas_window_count(x->shaped.dims[d], dims[d],
                                                    strides[d], lo[d], hi[d]);
    if (count >= 0 && src->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        src->shaped.dims[d] != count) {
      return kiln_ir_op_emit_error(
          op, context, "source dim %zu is %lld, the operand has %lld windows",
          d, (long long)src->shaped.dims[d], (long long)count);
    }
  }
  if (op->results[0].type !=
      kiln_dialect_with_element(context, x, src->shaped.element)) {
    return kiln_ir_op_emit_error(
        op, context,
        "result must have the operand's shape and the source's "
        "element type");
  }
  for (uint32_t r = 0; r < 2; ++r) {
    kiln_ir_block_t* body = op->regions[r].first_block;
    if (!body || body->num_args != 2 || !body->last_op ||
        !kiln_ir_op_is(body->last_op, "stablehlo.return")) {
      return kiln_ir_op_emit_error(
          op, context,
          "%s must be one block of 2 arguments ending in stablehlo.return",
          r ? "scatter" : "select");
    }
  }
  return kiln_ok_status();
}

// (operand, scale, mean, variance, grad_output) -> (grad_operand,
// grad_scale, grad_offset).
static kiln_status_t kiln_bng_verify(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op) {
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_attribute_t* fi = kiln_ir_op_get_attr(op, "feature_index");
  const kiln_ir_attribute_t* eps = kiln_ir_op_get_attr(op, "epsilon");
  if (!kiln_sort_is_tensor(x) || !kiln_ir_type_is_float(x->shaped.element) ||
      !fi || fi->kind != KILN_IR_ATTR_INTEGER || fi->i < 0 ||
      (size_t)fi->i >= x->shaped.rank ||
      x->shaped.dims[fi->i] == KILN_IR_DYNAMIC_DIM || !eps ||
      eps->kind != KILN_IR_ATTR_FLOAT) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects a float operand with a static feature dim, a feature_index "
        "in range and a float epsilon");
  }
  int64_t c = x->shaped.dims[fi->i];
  const kiln_ir_type_t* ft =
      kiln_ir_tensor_type_get(context, 1, &c, x->shaped.element, NULL);
  for (uint32_t i = 1; i < 4; ++i) {
    if (kiln_ir_op_operand(op, i)->type != ft) {
      return kiln_ir_op_emit_error(op, context, "operand #%u must be %s", i,
                                   kiln_ir_type_to_string(context, ft));
    }
  }
  if (kiln_ir_op_operand(op, 4)->type != x || op->results[0].type != x ||
      op->results[1].type != ft || op->results[2].type != ft) {
    return kiln_ir_op_emit_error(
        op, context,
        "grad_output and grad_operand must have the operand's type, "
        "grad_scale and grad_offset %s",
        kiln_ir_type_to_string(context, ft));
  }
  return kiln_ok_status();
}

static const kiln_ir_op_def_t kiln_stablehlo_compute_defs[] = {
    {"stablehlo.sort",
     "sorts N same-shaped tensors along a dimension with a comparator",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK |
         KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 1, 0, kiln_sort_verify, NULL, NULL,
     NULL, NULL, kiln_stablehlo_lower_sort},
    {"stablehlo.dynamic_update_slice",
     "writes update into operand at clamped run-time start indices",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, KILN_IR_VARIADIC,
     1, 0, 0, kiln_dus_verify, kiln_dus_parse, kiln_dus_print, NULL, NULL,
     kiln_stablehlo_lower_dynamic_update_slice},
    {"stablehlo.cholesky",
     "Cholesky factors of (a batch of) symmetric positive-definite matrices",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_cholesky_verify, kiln_cholesky_parse, kiln_cholesky_print, NULL, NULL,
     kiln_stablehlo_lower_cholesky},
    {"stablehlo.reduce_precision",
     "rounds floats to fewer exponent and mantissa bits (kept in their type)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_rp_verify, kiln_rp_parse,
     kiln_rp_print, NULL, NULL, kiln_stablehlo_lower_reduce_precision},
    {"stablehlo.triangular_solve",
     "solves op(a) x = b or x op(a) = b for triangular a",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_ts_verify, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_triangular_solve},
    {"stablehlo.batch_norm_training",
     "normalizes by the batch mean and variance of each feature",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 3, 3, 0, 0,
     kiln_bnt_verify, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_batch_norm_training},
    {"stablehlo.batch_norm_grad",
     "gradients of batch normalization for operand, scale and offset",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 5, 3, 0, 0,
     kiln_bng_verify, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_batch_norm_grad},
    {"stablehlo.select_and_scatter",
     "scatters source values to the element each window selects",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK |
         KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
     3, 1, 2, 0, kiln_sas_verify, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_select_and_scatter},
};

kiln_status_t kiln_dialect_register_stablehlo_compute(
    kiln_ir_context_t* context) {
  return kiln_ir_register_ops(context, kiln_stablehlo_compute_defs,
                              sizeof(kiln_stablehlo_compute_defs) /
                                  sizeof(kiln_stablehlo_compute_defs[0]));
}
