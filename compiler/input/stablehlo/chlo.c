// The chlo ("client HLO") broadcasting binary ops: chlo.broadcast_add and
// friends take operands of different shapes and broadcast them to the
// result shape: numpy style (trailing dims aligned, size-1 dims stretched)
// or, with `broadcast_dimensions`, the lower-rank operand's dims map to
// those result dims. Form: `chlo.broadcast_add %a, %b : (A, B) -> R`.
// Lowering: input/stablehlo/lower_stablehlo_data.c (broadcast_in_dim + the
// stablehlo op of the same name).
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

static kiln_status_t kiln_chlo_verify_broadcast_binary(kiln_ir_context_t* ctx,
                                                       kiln_ir_op_t* op) {
  const kiln_ir_type_t* r = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(r)) {
    return kiln_ir_op_emit_error(op, ctx, "result must be a ranked tensor");
  }
  for (uint32_t i = 0; i < 2; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_ranked_tensor(t) || t->shaped.rank > r->shaped.rank) {
      return kiln_ir_op_emit_error(
          op, ctx, "operand #%u must be a ranked tensor of rank <= %zu", i,
          r->shaped.rank);
    }
  }
  if (kiln_ir_op_operand(op, 0)->type->shaped.element !=
      kiln_ir_op_operand(op, 1)->type->shaped.element) {
    return kiln_ir_op_emit_error(op, ctx, "operand element types must match");
  }
  return kiln_ok_status();
}

static void kiln_chlo_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

#define KILN_CHLO_BINARY(NAME)                                                 \
  {                                                                            \
    "chlo.broadcast_" NAME, "broadcasting " NAME, KILN_IR_TRAIT_PURE, 2, 1, 0, \
        0, kiln_chlo_verify_broadcast_binary,                                  \
        kiln_dialect_parse_operands_functional, kiln_chlo_print, NULL, NULL,   \
        kiln_stablehlo_lower_chlo                                              \
  }

static const kiln_ir_op_def_t kiln_chlo_defs[] = {
    KILN_CHLO_BINARY("add"),
    KILN_CHLO_BINARY("subtract"),
    KILN_CHLO_BINARY("multiply"),
    KILN_CHLO_BINARY("divide"),
    KILN_CHLO_BINARY("remainder"),
    KILN_CHLO_BINARY("maximum"),
    KILN_CHLO_BINARY("minimum"),
    KILN_CHLO_BINARY("power"),
    KILN_CHLO_BINARY("atan2"),
    KILN_CHLO_BINARY("and"),
    KILN_CHLO_BINARY("or"),
    KILN_CHLO_BINARY("xor"),
    KILN_CHLO_BINARY("shift_left"),
    KILN_CHLO_BINARY("shift_right_arithmetic"),
    KILN_CHLO_BINARY("shift_right_logical"),
};

kiln_status_t kiln_dialect_register_chlo(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_chlo_defs,
      sizeof(kiln_chlo_defs) / sizeof(kiln_chlo_defs[0]));
}
