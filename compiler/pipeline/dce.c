// dce: deletes ops whose results are unused and that are marked pure.
// Side-effecting ops (check.*, util.optimization_barrier), terminators and
// unregistered ops are never removed.
#include "compiler/ir/op_registry.h"
#include "compiler/pipeline/passes.h"

static bool kiln_dce_is_dead(kiln_ir_op_t* op) {
  if (!kiln_ir_op_has_trait(op, KILN_IR_TRAIT_PURE)) return false;
  if (kiln_ir_op_has_trait(op, KILN_IR_TRAIT_SIDE_EFFECTING) ||
      kiln_ir_op_has_trait(op, KILN_IR_TRAIT_TERMINATOR)) {
    return false;
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (!kiln_ir_value_use_empty(&op->results[i])) return false;
  }
  return true;
}

static kiln_ir_walk_result_t kiln_dce_visit(kiln_ir_op_t* op, void* user_data) {
  if (kiln_dce_is_dead(op)) {
    kiln_ir_op_erase(op);
    *(bool*)user_data = true;
  }
  return KILN_IR_WALK_ADVANCE;
}

// Post-order over each block from its end so users die before producers.
static bool kiln_dce_block(kiln_ir_block_t* block) {
  bool changed = false;
  kiln_ir_op_t* op = block->last_op;
  while (op) {
    kiln_ir_op_t* prev = op->prev;
    for (uint32_t r = 0; r < op->num_regions; ++r) {
      for (kiln_ir_block_t* b = op->regions[r].first_block; b; b = b->next) {
        changed |= kiln_dce_block(b);
      }
    }
    if (kiln_dce_is_dead(op)) {
      kiln_ir_op_erase(op);
      changed = true;
    }
    op = prev;
  }
  return changed;
}

kiln_status_t kiln_pass_dce(kiln_ir_context_t* context, kiln_ir_op_t* module,
                            void* user_data) {
  (void)kiln_dce_visit;
  for (int iteration = 0; iteration < 16; ++iteration) {
    bool changed = false;
    for (uint32_t r = 0; r < module->num_regions; ++r) {
      for (kiln_ir_block_t* b = module->regions[r].first_block; b;
           b = b->next) {
        changed |= kiln_dce_block(b);
      }
    }
    if (!changed) break;
  }
  return kiln_ok_status();
}
