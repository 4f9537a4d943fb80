// More StableHLO ops (lowered by
// compiler/input/stablehlo/lower_stablehlo_rng_fft.c):
//   %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM|NORMAL
//          : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
//   %s, %r = "stablehlo.rng_bit_generator"(%state)
//          {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : ...
//   %r = stablehlo.fft %x, type = FFT|IFFT|RFFT|IRFFT, length = [32]
//          : (tensor<32xf32>) -> tensor<17xcomplex<f32>>
//   %re = stablehlo.real %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
//   %im = stablehlo.imag %z : ...
//   %z = stablehlo.complex %re, %im : (...) -> tensor<4xcomplex<f32>>
//   %r = stablehlo.custom_call @Target(%a, %b) : (...) -> ...
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"

// `#stablehlo<name WORD>` for a parsed bare word.
static const kiln_ir_attribute_t* kiln_shlo_enum(kiln_ir_context_t* context,
                                                 const char* name,
                                                 kiln_string_view_t word) {
  char* text = kiln_ir_arena_printf(context, "#stablehlo<%s %.*s>", name,
                                    (int)word.size, word.data);
  kiln_ir_named_attribute_t param = {
      kiln_ir_intern_cstr(context, ""),
      kiln_ir_keyword_attr_get(context, kiln_ir_intern(context, word)), false};
  return kiln_ir_dialect_attr_get(
      context, kiln_ir_intern_cstr(context, "stablehlo"),
      kiln_ir_intern_cstr(context, name), kiln_make_cstring_view(text), true, 1,
      &param);
}

kiln_string_view_t kiln_stablehlo_enum_word(const kiln_ir_op_t* op,
                                            const char* name) {
  const kiln_ir_attribute_t* attr = kiln_ir_op_get_attr(op, name);
  if (!attr) return kiln_string_view_empty();
  if (attr->kind == KILN_IR_ATTR_DIALECT) {
    return kiln_ir_dialect_attr_keyword(attr);
  }
  if (attr->kind == KILN_IR_ATTR_STRING || attr->kind == KILN_IR_ATTR_KEYWORD) {
    return attr->str;
  }
  return kiln_string_view_empty();
}

// Parses `%a, %b, ...` up to the first bare word or ':'.
static kiln_status_t kiln_shlo_parse_operands(kiln_mlir_op_parser_t* p,
                                              kiln_mlir_operand_list_t* list) {
  kiln_mlir_operand_t operand;
  kiln_status_t status = kiln_ok_status();
  while (kiln_mlir_parse_optional_operand(p, &operand, &status)) {
    KILN_RETURN_IF_ERROR(status);
    kiln_mlir_operand_list_t one = {0};
    (void)one;
    if (list->count == list->capacity) {
      size_t cap = list->capacity ? list->capacity * 2 : 8;
      kiln_mlir_operand_t* items = (kiln_mlir_operand_t*)kiln_ir_arena_alloc(
          kiln_mlir_parser_context(p), cap * sizeof(*items));
      if (!items) {
        return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "parser");
      }
      if (list->count) memcpy(items, list->items, list->count * sizeof(*items));
      list->items = items;
      list->capacity = cap;
    }
    list->items[list->count++] = operand;
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) break;
  }
  return status;
}

// `name = WORD` stored as #stablehlo<attr_name WORD>.
static kiln_status_t kiln_shlo_parse_enum_kw(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state,
                                             const char* keyword,
                                             const char* attr_name) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, keyword));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  kiln_string_view_t word;
  if (!kiln_mlir_parse_optional_any_keyword(p, &word)) {
    return kiln_mlir_emit_error(p, "expected a %s value", keyword);
  }
  return kiln_mlir_add_attribute(
      p, state, attr_name,
      kiln_shlo_enum(kiln_mlir_parser_context(p), attr_name, word));
}

// The shape operand holds one entry per result dim; a result with
// run-time dims reads its sizes from it, so its length must be static.
static kiln_status_t kiln_shlo_verify_rng(kiln_ir_context_t* ctx,
                                          kiln_ir_op_t* op) {
  const kiln_ir_type_t* st = kiln_ir_op_operand(op, 2)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!kiln_ir_type_is_shaped(rt) || !kiln_ir_type_is_shaped(st) ||
      st->shaped.rank != 1 ||
      !(kiln_ir_type_is_integer(st->shaped.element) ||
        kiln_ir_type_is_index(st->shaped.element)) ||
      (st->shaped.dims[0] == KILN_IR_DYNAMIC_DIM
           ? !kiln_ir_type_has_static_shape(rt)
           : st->shaped.dims[0] != (int64_t)rt->shaped.rank)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "the shape operand must be a 1-D integer tensor with one entry per "
        "result dim");
  }
  return kiln_ok_status();
}

// stablehlo.rng %a, %b, %shape, distribution = WORD {attrs} : (...) -> R
static kiln_status_t kiln_shlo_parse_rng(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(kiln_shlo_parse_operands(p, &operands));
  KILN_RETURN_IF_ERROR(
      kiln_shlo_parse_enum_kw(p, state, "distribution", "rng_distribution"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_rng(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_string_view_t w = kiln_stablehlo_enum_word(op, "rng_distribution");
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ", distribution = %.*s", (int)w.size, w.data);
  static const char* const elided[] = {"rng_distribution"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

// stablehlo.fft %x, type = WORD, length = [..] {attrs} : (T) -> R
static kiln_status_t kiln_shlo_parse_fft(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(kiln_shlo_parse_operands(p, &operands));
  KILN_RETURN_IF_ERROR(kiln_shlo_parse_enum_kw(p, state, "type", "fft_type"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "length"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  const kiln_ir_attribute_t* length = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &length));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "fft_length", length));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_fft(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_string_view_t w = kiln_stablehlo_enum_word(op, "fft_type");
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ", type = %.*s, length = ", (int)w.size, w.data);
  int64_t lengths[8];
  int64_t n =
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "fft_length"), lengths, 8);
  kiln_ir_printer_printf(p, "[");
  for (int64_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)lengths[i]);
  }
  kiln_ir_printer_printf(p, "]");
  static const char* const elided[] = {"fft_type", "fft_length"};
  kiln_dialect_print_functional_tail(p, op, elided, 2);
}

// stablehlo.custom_call @target(%a, ...) {attrs} : (...) -> R
static kiln_status_t kiln_shlo_parse_custom_call(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_string_view_t target;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_symbol_name(p, &target));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "call_target_name",
      kiln_ir_string_attr_get(kiln_mlir_parser_context(p), target)));
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_PAREN, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_custom_call(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* t = kiln_ir_op_get_attr(op, "call_target_name");
  kiln_ir_printer_printf(p, " @%.*s(", t ? (int)t->str.size : 0,
                         t ? t->str.data : "");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ")");
  static const char* const elided[] = {"call_target_name"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

static kiln_status_t kiln_shlo_verify_complex_part(kiln_ir_context_t* context,
                                                   kiln_ir_op_t* op) {
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (!kiln_ir_type_is_shaped(in) || !kiln_ir_type_is_shaped(out) ||
      !kiln_dialect_same_shape(in, out)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand and result must be tensors of the "
                                 "same shape");
  }
  return kiln_ok_status();
}

// stablehlo.complex %re, %im {attrs} : tensor<S x complex<T>> (upstream's
// short form: operands are tensor<S x T>) or `: (A, B) -> R`.
static kiln_status_t kiln_shlo_parse_complex(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(kiln_shlo_parse_operands(p, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (operands.count != 2) {
    return kiln_mlir_emit_error(p, "expected 2 operands, but found %zu",
                                operands.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    kiln_mlir_type_list_t inputs = {0}, results = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &inputs));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
    if (inputs.count != 2) {
      return kiln_mlir_emit_error(p, "expected 2 operand types");
    }
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operands(p, &operands, 2, inputs.items, state));
    return kiln_mlir_add_result_types(p, state, &results);
  }
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &type));
  const kiln_ir_type_t* et = kiln_ir_type_element(type);
  if (!et || et->kind != KILN_IR_TYPE_COMPLEX) {
    return kiln_mlir_emit_error(p, "expected a complex result type");
  }
  const kiln_ir_type_t* part = kiln_dialect_with_element(
      kiln_mlir_parser_context(p), type, et->complex.element);
  for (size_t i = 0; i < 2; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &operands.items[i], part, state));
  }
  return kiln_mlir_add_result_type(p, state, type);
}

// `%a {attrs} : (T) -> R` (real, imag, complex).
static void kiln_shlo_print_functional(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

// kiln.complex_view: tensor<S x complex<fN>> <-> tensor<S x 2 x fN> (the
// same bytes; see compiler/input/stablehlo/lower_complex.h).
static kiln_status_t kiln_verify_complex_view(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* r = op->results[0].type;
  if (kiln_ir_type_is_shaped(a) && kiln_ir_type_is_shaped(r) &&
      kiln_ir_type_element(a)->kind != KILN_IR_TYPE_COMPLEX) {
    const kiln_ir_type_t* t = a;
    a = r;
    r = t;
  }
  bool ok = kiln_ir_type_is_shaped(a) && kiln_ir_type_is_shaped(r) &&
            kiln_ir_type_element(a)->kind == KILN_IR_TYPE_COMPLEX &&
            r->shaped.rank == a->shaped.rank + 1 &&
            r->shaped.dims[a->shaped.rank] == 2 &&
            kiln_ir_type_element(r) == kiln_ir_type_element(a)->complex.element;
  for (size_t d = 0; ok && d < a->shaped.rank; ++d) {
    ok = a->shaped.dims[d] == r->shaped.dims[d];
  }
  if (!ok) {
    return kiln_ir_op_emit_error(
        op, context, "expects tensor<S x complex<T>> <-> tensor<S x 2 x T>");
  }
  return kiln_ok_status();
}

// rng_bit_generator: its output's shape comes from the result type alone
// (no operand holds a size), so a run-time (`?`) dim has nothing to be
// sized by.
static kiln_status_t kiln_shlo_verify_rng_bit_generator(kiln_ir_context_t* ctx,
                                                        kiln_ir_op_t* op) {
  if (op->num_results != 2) return kiln_ok_status();
  const kiln_ir_type_t* t = op->results[1].type;
  if (kiln_ir_type_is_shaped(t) && !kiln_ir_type_has_static_shape(t)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "output %s has a run-time (?) dim, which nothing sizes: the op has "
        "no shape operand, so its output shape must be static",
        kiln_ir_type_to_string(ctx, t));
  }
  return kiln_ok_status();
}

static const kiln_ir_op_def_t kiln_shlo_rng_fft_defs[] = {
    {"kiln.complex_view",
     "a complex tensor viewed as (real, imag) pairs of its element type, or "
     "back (no data movement)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_verify_complex_view, NULL, NULL, NULL,
     NULL, NULL},
    {"stablehlo.rng",
     "random numbers (UNIFORM: IREE's LCG; NORMAL: IREE's Box-Muller table)",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 3, 1, 0, 0,
     kiln_shlo_verify_rng, kiln_shlo_parse_rng, kiln_shlo_print_rng, NULL, NULL,
     NULL},
    {"stablehlo.rng_bit_generator",
     "random bits from a state (THREE_FRY, PHILOX/DEFAULT as XLA)",
     KILN_IR_TRAIT_PURE, 1, 2, 0, 0, kiln_shlo_verify_rng_bit_generator, NULL,
     NULL, NULL, NULL, NULL},
    {"stablehlo.fft", "FFT, IFFT, RFFT, IRFFT over the innermost dimensions",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0, NULL,
     kiln_shlo_parse_fft, kiln_shlo_print_fft, NULL, NULL, NULL},
    {"stablehlo.real", "real part of a complex tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_shlo_verify_complex_part, kiln_dialect_parse_operands_functional,
     kiln_shlo_print_functional, NULL, NULL, NULL},
    {"stablehlo.imag", "imaginary part of a complex tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_shlo_verify_complex_part, kiln_dialect_parse_operands_functional,
     kiln_shlo_print_functional, NULL, NULL, NULL},
    {"stablehlo.complex", "complex tensor from real and imaginary parts",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0, NULL,
     kiln_shlo_parse_complex, kiln_shlo_print_functional, NULL, NULL, NULL},
    {"stablehlo.custom_call",
     "a call to a named target (ProductOfElementaryHouseholderReflectors)",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0, NULL,
     kiln_shlo_parse_custom_call, kiln_shlo_print_custom_call, NULL, NULL,
     NULL},
};

kiln_status_t kiln_dialect_register_stablehlo_rng_fft(
    kiln_ir_context_t* context) {
  return kiln_lowering_register_ops(
      context, kiln_shlo_rng_fft_defs,
      sizeof(kiln_shlo_rng_fft_defs) / sizeof(kiln_shlo_rng_fft_defs[0]),
      kiln_lower_stablehlo_rng_fft_hook);
}
