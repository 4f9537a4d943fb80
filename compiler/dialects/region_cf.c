// Control-flow ops with regions (generic form), lowered to cf host blocks
// by compiler/pipeline/lower_region_cf.c:
//   %r:2 = "stablehlo.while"(%a, %b) ({ ^bb0(...): ... stablehlo.return %p
//          }, { ^bb0(...): ... stablehlo.return %x, %y }) : (...) -> (...)
//   %r = "stablehlo.if"(%pred) ({ stablehlo.return %x }, { ... })
//   %r = "stablehlo.case"(%index) ({ ... }, { ... }, ...)
//   %r = "tosa.while_loop"(%a) ({ ... tosa.yield %p }, { ... tosa.yield %x })
//   %r = "tosa.cond_if"(%pred, %ins...) ({ ... tosa.yield %x }, { ... })
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

static const kiln_ir_op_def_t kiln_region_cf_defs[] = {
    {"stablehlo.while", "loop: cond region, then body region (host blocks)", 0,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 2, 0, NULL, NULL, NULL, NULL, NULL},
    {"stablehlo.if", "runs one of two regions on a tensor<i1> predicate", 0, 1,
     KILN_IR_VARIADIC, 2, 0, NULL, NULL, NULL, NULL, NULL},
    {"stablehlo.case", "runs the region chosen by a tensor<i32> index", 0, 1,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, NULL, NULL, NULL, NULL, NULL},
    {"tosa.while_loop", "loop: cond region, then body region (host blocks)", 0,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 2, 0, NULL, NULL, NULL, NULL, NULL},
    {"tosa.cond_if", "runs one of two regions on a tensor<i1> predicate", 0,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 2, 0, NULL, NULL, NULL, NULL, NULL},
    {"tosa.yield", "returns values from a tosa region",
     KILN_IR_TRAIT_TERMINATOR, KILN_IR_VARIADIC, 0, 0, 0, NULL,
     kiln_dialect_parse_return_like, kiln_dialect_print_return_like, NULL,
     NULL},
};

kiln_status_t kiln_dialect_register_region_cf(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_region_cf_defs,
      sizeof(kiln_region_cf_defs) / sizeof(kiln_region_cf_defs[0]));
}
