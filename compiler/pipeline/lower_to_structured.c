// lower-to-structured: the conversion driver. Every op whose definition has
// a lower_to_structured hook (kiln_ir_op_def_t, set by each input's
// registration: compiler/input/{stablehlo,tosa,linalg}/, and the core
// tensor/arith/math/linalg registrations) is rewritten through it into the
// structured form of structured-form.md. Routing is by definition: no op
// names are compared here.
#include <string.h>

#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/ir/op_registry.h"
#include "compiler/pipeline/inline_calls.h"
#include "compiler/pipeline/lower_globals.h"
#include "compiler/pipeline/lower_region_cf.h"
#include "compiler/pipeline/passes.h"

typedef struct kiln_op_list_t {
  kiln_ir_context_t* ctx;
  kiln_ir_op_t** ops;
  size_t count;
  size_t capacity;
  bool oom;
} kiln_op_list_t;

static kiln_ir_walk_result_t kiln_collect(kiln_ir_op_t* op, void* user_data) {
  kiln_op_list_t* list = user_data;
  // The regions of an op with a lowering (reduce bodies, linalg.generic
  // bodies, sort comparators) are lowered with it (or are scalar already).
  kiln_ir_op_t* parent = kiln_ir_op_parent_op(op);
  if (parent && parent->def && parent->def->lower_to_structured) {
    return KILN_IR_WALK_SKIP;
  }
  if (list->count == list->capacity) {
    size_t cap = list->capacity ? list->capacity * 2 : 64;
    kiln_ir_op_t** ops = kiln_ir_arena_alloc(list->ctx, sizeof(*ops) * cap);
    if (!ops) {
      list->oom = true;
      return KILN_IR_WALK_INTERRUPT;
    }
    if (list->count) memcpy(ops, list->ops, sizeof(*ops) * list->count);
    list->ops = ops;
    list->capacity = cap;
  }
  list->ops[list->count++] = op;
  return KILN_IR_WALK_ADVANCE;
}

// Drops IREE's layout encodings from |v|'s tensor type (the identity
// layout: see iree_encoding.c).
static void kiln_drop_encoding(kiln_ir_context_t* context, kiln_ir_value_t* v) {
  const kiln_ir_type_t* t = v->type;
  if (!t || !kiln_ir_type_is_ranked_tensor(t) ||
      !kiln_is_layout_encoding(t->shaped.encoding)) {
    return;
  }
  kiln_ir_value_set_type(
      v, kiln_ir_tensor_type_get(context, t->shaped.rank, t->shaped.dims,
                                 t->shaped.element, NULL));
}

static kiln_ir_walk_result_t kiln_drop_encodings_in(kiln_ir_op_t* op,
                                                    void* user_data) {
  kiln_ir_context_t* context = user_data;
  for (uint32_t r = 0; r < op->num_results; ++r) {
    kiln_drop_encoding(context, &op->results[r]);
  }
  for (uint32_t g = 0; g < op->num_regions; ++g) {
    for (kiln_ir_block_t* b = op->regions[g].first_block; b; b = b->next) {
      for (uint32_t i = 0; i < b->num_args; ++i) {
        kiln_drop_encoding(context, b->args[i]);
      }
    }
  }
  return KILN_IR_WALK_ADVANCE;
}

kiln_status_t kiln_pass_lower_to_structured(kiln_ir_context_t* context,
                                            kiln_ir_op_t* module,
                                            void* user_data) {
  (void)user_data;
  // Loads of util.global become constants (lower_globals.c), calls are
  // inlined (inline_calls.c), then while/if/case regions become host
  // blocks (lower_region_cf.c).
  // Layout encodings go first: set/unset_encoding then forward their
  // operand, and no later pass sees an encoded type.
  kiln_ir_op_walk(module, KILN_IR_WALK_PRE_ORDER, kiln_drop_encodings_in,
                  context);
  KILN_RETURN_IF_ERROR(kiln_lower_util_globals(context, module));
  KILN_RETURN_IF_ERROR(kiln_inline_calls(context, module));
  KILN_RETURN_IF_ERROR(kiln_lower_region_control_flow(context, module));
  kiln_op_list_t list = {context, NULL, 0, 0, false};
  kiln_ir_op_walk(module, KILN_IR_WALK_PRE_ORDER, kiln_collect, &list);
  if (list.oom) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "lower-to-structured");
  }
  kiln_ir_builder_t b = kiln_ir_builder_make(context);
  for (size_t i = 0; i < list.count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lower_to_structured_op(&b, list.ops[i]));
  }
  return kiln_ok_status();
}
