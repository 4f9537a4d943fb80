// lower-to-structured: the conversion driver. Every op whose definition has
// a lower_to_structured hook (kiln_ir_op_def_t, set by each input's
// registration: compiler/input/{stablehlo,tosa,linalg}/, and the core
// tensor/arith/math/linalg registrations) is rewritten through it into the
// structured form of structured-form.md. Routing is by definition: no op
// names are compared here.
#include <string.h>

#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/builtin.h"
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

// A structured op on dynamically shaped tensors reads every operand along
// its loops: where several operand dims span the same loop and one of them
// is dynamic, their run-time sizes must agree, or a loop sized by one would
// read past another. A cf.assert before the op checks each such pair (the
// message names the op's location and the two operands), so that bad
// inputs fail the call instead of reading out of bounds.
// Where the size of dim |dim| of tensor |v| comes from, followed through
// tensor.empty sizes, tensor.dim and structured ops' inits: two operand
// dims with the same source need no check (an init sized from an input).
typedef struct kiln_size_source_t {
  kiln_ir_value_t* value;  // a tensor (dim >= 0) or an index value
  int64_t dim;
} kiln_size_source_t;

static kiln_size_source_t kiln_size_source(kiln_ir_context_t* context,
                                           kiln_ir_value_t* v, int64_t dim) {
  for (int depth = 0; depth < 64; ++depth) {
    if (dim < 0) {
      // An index: tensor.dim of a constant dim is that tensor's dim.
      kiln_ir_op_t* def =
          v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
      const kiln_ir_attribute_t* c =
          def && kiln_ir_op_is(def, "tensor.dim")
              ? kiln_ir_constant_value(kiln_ir_op_operand(def, 1))
              : NULL;
      if (!c || c->kind != KILN_IR_ATTR_INTEGER || c->i < 0) break;
      v = kiln_ir_op_operand(def, 0);
      dim = c->i;
      continue;
    }
    kiln_ir_value_t* tensor = NULL;
    kiln_ir_value_t* size =
        kiln_structured_dim_size(context, v, (size_t)dim, &tensor);
    if (!size) {
      v = tensor;
      break;
    }
    v = size;
    dim = -1;
  }
  kiln_size_source_t out = {v, dim};
  return out;
}

static kiln_status_t kiln_check_structured_dims(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  if (!kiln_structured_op_is(op)) return kiln_ok_status();
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  bool dynamic = false;
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    dynamic |= kiln_ir_type_is_shaped(t) && !kiln_ir_type_has_static_shape(t);
  }
  if (!dynamic) return kiln_ok_status();
  kiln_structured_op_t s;
  KILN_RETURN_IF_ERROR(kiln_structured_op_get(context, op, &s));
  kiln_ir_builder_t b = kiln_ir_builder_make(context);
  kiln_ir_builder_set_before(&b, op);
  b.location = op->location;
  // Loop d's extent: dim extent_dim[d] of operand extent_operand[d], the
  // first that the loop reads plainly (-1: none).
  int64_t extent_operand[KILN_STRUCTURED_MAX_DIMS];
  size_t extent_dim[KILN_STRUCTURED_MAX_DIMS];
  for (uint32_t d = 0; d < s.num_dims; ++d) {
    int64_t first = -1;
    size_t first_dim = 0;
    for (uint32_t i = 0; i < s.num_ins + s.num_outs; ++i) {
      const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
      if (!kiln_ir_type_is_ranked_tensor(t) || !s.maps[i]) continue;
      for (size_t r = 0; r < s.maps[i]->num_results; ++r) {
        int64_t pos = 0;
        if (!kiln_ir_affine_map_result_is_dim(s.maps[i], r, &pos) ||
            pos != (int64_t)d) {
          continue;
        }
        if (first < 0) {
          first = i;
          first_dim = r;
          break;
        }
        kiln_size_source_t x =
            kiln_size_source(context, kiln_ir_op_operand(op, (uint32_t)first),
                             (int64_t)first_dim);
        kiln_size_source_t y =
            kiln_size_source(context, kiln_ir_op_operand(op, i), (int64_t)r);
        if (x.value != y.value || x.dim != y.dim) {
          KILN_RETURN_IF_ERROR(kiln_lowering_assert_same_dim(
              &b, op, (uint32_t)first, first_dim, i, r));
        }
        break;
      }
    }
    extent_operand[d] = first;
    extent_dim[d] = first_dim;
  }
  // Window reads (a convolution's `oh * stride + kh`) of run-time sizes:
  // the operand must hold the last element the loops reach.
  for (uint32_t i = 0; i < s.num_ins + s.num_outs; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_ranked_tensor(t) || !s.maps[i]) continue;
    for (size_t r = 0; r < s.maps[i]->num_results; ++r) {
      int64_t pos = 0;
      if (kiln_ir_affine_map_result_is_dim(s.maps[i], r, &pos)) continue;
      KILN_RETURN_IF_ERROR(kiln_lowering_assert_window_fits(
          &b, op, i, r, s.maps[i]->results[r], extent_operand, extent_dim,
          s.num_dims));
    }
  }
  return kiln_ok_status();
}

static kiln_ir_walk_result_t kiln_collect_structured(kiln_ir_op_t* op,
                                                     void* user_data) {
  kiln_op_list_t* list = user_data;
  if (!kiln_structured_op_is(op)) return KILN_IR_WALK_ADVANCE;
  return kiln_collect(op, user_data) == KILN_IR_WALK_INTERRUPT
             ? KILN_IR_WALK_INTERRUPT
             : (list->oom ? KILN_IR_WALK_INTERRUPT : KILN_IR_WALK_SKIP);
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
  // Lowerings that loop on the host (topk's walk) emit stablehlo.while.
  KILN_RETURN_IF_ERROR(kiln_lower_region_control_flow(context, module));
  // Run-time shape checks of the structured ops on dynamic shapes.
  kiln_op_list_t structured = {context, NULL, 0, 0, false};
  kiln_ir_op_walk(module, KILN_IR_WALK_PRE_ORDER, kiln_collect_structured,
                  &structured);
  if (structured.oom) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "lower-to-structured");
  }
  for (size_t i = 0; i < structured.count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_check_structured_dims(context, structured.ops[i]));
  }
  return kiln_ok_status();
}
