// Control-flow ops with regions (generic form), lowered to cf host blocks
// by compiler/pipeline/lower_region_cf.c:
//   %r:2 = "stablehlo.while"(%a, %b) ({ ^bb0(...): ... stablehlo.return %p
//          }, { ^bb0(...): ... stablehlo.return %x, %y }) : (...) -> (...)
//   %r = "stablehlo.if"(%pred) ({ stablehlo.return %x }, { ... })
//   %r = "stablehlo.case"(%index) ({ ... }, { ... }, ...)
//   %r = "tosa.while_loop"(%a) ({ ... tosa.yield %p }, { ... tosa.yield %x })
//   %r = "tosa.cond_if"(%pred, %ins...) ({ ... tosa.yield %x }, { ... })
// and the pretty forms of the TOSA ops as MLIR prints them:
//   %r = tosa.while_loop (%a = %x, ...) : (T...) -> (T...) { cond } do {
//        ^bb0(%a: T, ...): body }
//   %r = tosa.cond_if %p [(%a = %x, ...)] : tensor<i1> [(T...)] -> (R...)
//        { then } else { else }
// (older spellings: `tosa.cond_if %p, %x, ... : tensor<i1>, T... -> R`
// with the regions' own `^bb0(...)` headers, and `tosa.cond_if %p -> (R...)`
// whose regions use values from above).
#include <string.h>

// stablehlo.while also has StableHLO's custom form (parsed; printed in the
// generic form above):
//   %r:2 = stablehlo.while(%i = %a, %acc = %b) : tensor<i32>, tensor<f32>
//    cond { ... stablehlo.return %p : tensor<i1> }
//    do { ... stablehlo.return %x, %y : tensor<i32>, tensor<f32> }
// (`attributes {...}` may follow the types; both regions see the iteration
// arguments as their entry block arguments).
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

#define KILN_RCF_MAX_ITER_ARGS 64

static kiln_status_t kiln_rcf_parse_while(kiln_mlir_op_parser_t* p,
                                          kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_block_arg_t args[KILN_RCF_MAX_ITER_ARGS];
  kiln_mlir_operand_t inits[KILN_RCF_MAX_ITER_ARGS];
  size_t n = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
    do {
      if (n == KILN_RCF_MAX_ITER_ARGS) {
        return kiln_mlir_emit_error(p, "too many while iteration arguments");
      }
      memset(&args[n], 0, sizeof(args[n]));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &args[n].name));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &inits[n]));
      ++n;
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  kiln_mlir_type_list_t types = {0};
  if (n > 0) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
    if (types.count != n) {
      return kiln_mlir_emit_error(p, "%zu iteration arguments but %zu types", n,
                                  types.count);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    args[i].type = types.items[i];
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &inits[i], types.items[i], state));
  }
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_optional_attr_dict_with_keyword(p, state));
  kiln_ir_region_t* cond = NULL;
  kiln_ir_region_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "cond"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, n, args, false, &cond));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "do"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, n, args, false, &body));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, cond));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, body));
  return kiln_mlir_add_result_types(p, state, &types);
}

//===----------------------------------------------------------------------===//
// TOSA pretty forms
//===----------------------------------------------------------------------===//

#define KILN_RCF_MAX_ARGS 64

// `(%a = %x, %b = %y)`: region argument names into |args| and the initial
// values into |values|.
static kiln_status_t kiln_rcf_parse_init_list(kiln_mlir_op_parser_t* p,
                                              kiln_mlir_block_arg_t* args,
                                              kiln_mlir_operand_t* values,
                                              size_t* out_count) {
  size_t n = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
    do {
      if (n >= KILN_RCF_MAX_ARGS) {
        return kiln_mlir_emit_error(p, "too many loop-carried values");
      }
      memset(&args[n], 0, sizeof(args[n]));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &args[n].name));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &values[n]));
      ++n;
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  *out_count = n;
  return kiln_ok_status();
}

// Resolves |values| with |types| and gives |args| those types.
static kiln_status_t kiln_rcf_resolve_inits(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state, size_t n,
    kiln_mlir_block_arg_t* args, kiln_mlir_operand_t* values,
    const kiln_mlir_type_list_t* types) {
  if (types->count != n) {
    return kiln_mlir_emit_error(p, "%zu initial values, but %zu types", n,
                                types->count);
  }
  for (size_t i = 0; i < n; ++i) {
    args[i].type = types->items[i];
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &values[i], types->items[i], state));
  }
  return kiln_ok_status();
}

// `(T1, T2)` or a single type, appended to |list|.
static kiln_status_t kiln_rcf_parse_types(kiln_mlir_op_parser_t* p,
                                          kiln_mlir_type_list_t* list) {
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
      return kiln_ok_status();
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, list));
    return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN);
  }
  const kiln_ir_type_t* t = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &t));
  return kiln_mlir_type_list_push(p, list, t);
}

static kiln_status_t kiln_rcf_parse_tosa_while(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_block_arg_t args[KILN_RCF_MAX_ARGS];
  kiln_mlir_operand_t values[KILN_RCF_MAX_ARGS];
  size_t n = 0;
  KILN_RETURN_IF_ERROR(kiln_rcf_parse_init_list(p, args, values, &n));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  kiln_mlir_type_list_t inputs = {0}, results = {0};
  KILN_RETURN_IF_ERROR(kiln_rcf_parse_types(p, &inputs));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
  KILN_RETURN_IF_ERROR(
      kiln_rcf_resolve_inits(p, state, n, args, values, &inputs));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_result_types(p, state, &results));
  kiln_ir_region_t* cond = NULL;
  kiln_ir_region_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, n, args, false, &cond));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "do"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, false, &body));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, cond));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, body));
  return kiln_mlir_parse_optional_attr_dict_with_keyword(p, state);
}

static kiln_status_t kiln_rcf_parse_tosa_cond_if(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t cond;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &cond));
  kiln_mlir_block_arg_t args[KILN_RCF_MAX_ARGS];
  kiln_mlir_operand_t values[KILN_RCF_MAX_ARGS];
  size_t n = 0;
  bool init_list = kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN;
  kiln_mlir_operand_list_t plain = {0};
  if (init_list) {
    KILN_RETURN_IF_ERROR(kiln_rcf_parse_init_list(p, args, values, &n));
  } else if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &plain));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_type_list_t inputs = {0}, results = {0};
  if (!init_list && plain.count == 0 &&
      kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_ARROW) {
    // Oldest spelling, `tosa.cond_if %p -> (R...) {...}`: no types given,
    // the predicate has the type of its definition.
    kiln_ir_value_t* pred = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_value(p, &cond, NULL, &pred));
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(context, state, pred));
  } else {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
    const kiln_ir_type_t* cond_type = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &cond_type));
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &cond, cond_type, state));
  }
  if (init_list) {
    if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
      KILN_RETURN_IF_ERROR(kiln_rcf_parse_types(p, &inputs));
    }
    KILN_RETURN_IF_ERROR(
        kiln_rcf_resolve_inits(p, state, n, args, values, &inputs));
  } else if (plain.count > 0) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &inputs));
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &plain, inputs.count,
                                                    inputs.items, state));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_result_types(p, state, &results));
  kiln_ir_region_t* then_region = NULL;
  kiln_ir_region_t* else_region = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, n, args, false, &then_region));
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_region(context, state, then_region));
  if (kiln_mlir_parse_optional_keyword(p, "else")) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_region(p, n, args, false, &else_region));
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_region(context, state, else_region));
  }
  return kiln_mlir_parse_optional_attr_dict_with_keyword(p, state);
}

static const kiln_ir_op_def_t kiln_region_cf_defs[] = {
    {"stablehlo.while", "loop: cond region, then body region (host blocks)", 0,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 2, 0, NULL, kiln_rcf_parse_while, NULL,
     NULL, NULL, NULL},
    {"stablehlo.if", "runs one of two regions on a tensor<i1> predicate", 0, 1,
     KILN_IR_VARIADIC, 2, 0, NULL, NULL, NULL, NULL, NULL, NULL},
    {"stablehlo.case", "runs the region chosen by a tensor<i32> index", 0, 1,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, NULL, NULL, NULL, NULL, NULL, NULL},
    {"tosa.while_loop", "loop: cond region, then body region (host blocks)", 0,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 2, 0, NULL, kiln_rcf_parse_tosa_while,
     NULL, NULL, NULL, NULL},
    {"tosa.cond_if", "runs one of two regions on a tensor<i1> predicate", 0,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 2, 0, NULL,
     kiln_rcf_parse_tosa_cond_if, NULL, NULL, NULL, NULL},
    {"tosa.yield", "returns values from a tosa region",
     KILN_IR_TRAIT_TERMINATOR, KILN_IR_VARIADIC, 0, 0, 0, NULL,
     kiln_dialect_parse_return_like, kiln_dialect_print_return_like, NULL, NULL,
     NULL},
};

kiln_status_t kiln_dialect_register_region_cf(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_region_cf_defs,
      sizeof(kiln_region_cf_defs) / sizeof(kiln_region_cf_defs[0]));
}
