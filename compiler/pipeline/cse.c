// cse: within each block, a pure op without regions that repeats an earlier
// op (same name, operands, attributes and result types) is replaced by it.
// Side-effecting ops are never merged.
#include <string.h>

#include "compiler/ir/op_registry.h"
#include "compiler/pipeline/passes.h"

static bool kiln_cse_equivalent(const kiln_ir_op_t* a, const kiln_ir_op_t* b) {
  if (!kiln_ir_ident_eq(a->name, b->name) ||
      a->num_operands != b->num_operands || a->num_results != b->num_results ||
      a->num_attributes != b->num_attributes || a->num_regions ||
      b->num_regions || a->num_successors || b->num_successors) {
    return false;
  }
  for (uint32_t i = 0; i < a->num_operands; ++i) {
    if (a->operands[i].value != b->operands[i].value) return false;
  }
  for (uint32_t i = 0; i < a->num_results; ++i) {
    if (a->results[i].type != b->results[i].type) return false;
  }
  for (uint32_t i = 0; i < a->num_attributes; ++i) {
    if (!kiln_ir_ident_eq(a->attributes[i].name, b->attributes[i].name) ||
        !kiln_ir_attribute_equal(a->attributes[i].value,
                                 b->attributes[i].value)) {
      return false;
    }
  }
  return true;
}

static bool kiln_cse_candidate(const kiln_ir_op_t* op) {
  return kiln_ir_op_has_trait(op, KILN_IR_TRAIT_PURE) &&
         !kiln_ir_op_has_trait(op, KILN_IR_TRAIT_SIDE_EFFECTING) &&
         !kiln_ir_op_has_trait(op, KILN_IR_TRAIT_TERMINATOR) &&
         op->num_regions == 0 && op->num_results > 0;
}

static void kiln_cse_block(kiln_ir_block_t* block) {
  for (kiln_ir_op_t* op = block->first_op; op;) {
    kiln_ir_op_t* next = op->next;
    for (uint32_t r = 0; r < op->num_regions; ++r) {
      for (kiln_ir_block_t* b = op->regions[r].first_block; b; b = b->next) {
        kiln_cse_block(b);
      }
    }
    if (kiln_cse_candidate(op)) {
      for (kiln_ir_op_t* prior = block->first_op; prior != op;
           prior = prior->next) {
        if (kiln_cse_candidate(prior) && kiln_cse_equivalent(prior, op)) {
          for (uint32_t i = 0; i < op->num_results; ++i) {
            kiln_ir_value_replace_all_uses_with(&op->results[i],
                                                &prior->results[i]);
          }
          kiln_ir_op_erase(op);
          break;
        }
      }
    }
    op = next;
  }
}

kiln_status_t kiln_pass_cse(kiln_ir_context_t* context, kiln_ir_op_t* module,
                            void* user_data) {
  for (uint32_t r = 0; r < module->num_regions; ++r) {
    for (kiln_ir_block_t* b = module->regions[r].first_block; b; b = b->next) {
      kiln_cse_block(b);
    }
  }
  return kiln_ok_status();
}
