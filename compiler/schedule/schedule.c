#include "compiler/schedule/schedule.h"

#include <stdint.h>
#include <string.h>

#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/ptr_map.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"

bool kiln_schedule_is_alias_op(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "tensor.expand_shape") ||
         kiln_ir_op_is(op, "tensor.collapse_shape") ||
         kiln_ir_op_is(op, "tensor.reshape") ||
         kiln_ir_op_is(op, "tensor.cast") ||
         kiln_ir_op_is(op, "kiln.complex_view") ||
         kiln_ir_op_is(op, "util.optimization_barrier");
}

// True when |v| is a size operand of a tensor.empty, directly or through
// up to |depth| index arithmetic ops.
static bool kiln_schedule_sizes_a_tensor(kiln_ir_value_t* v, int depth) {
  for (kiln_ir_use_t* u = v->first_use; u; u = u->next_use) {
    kiln_ir_op_t* owner = u->owner;
    // (An expand_shape's run-time output sizes are operands 1 onwards.)
    if (kiln_ir_op_is(owner, "tensor.empty") ||
        kiln_ir_op_is(owner, "tensor.expand_shape")) {
      return true;
    }
    if (depth > 0 && owner->num_results == 1 &&
        kiln_ir_type_is_index(owner->results[0].type) &&
        kiln_string_view_equal_cstr(kiln_ir_op_dialect(owner), "arith") &&
        kiln_schedule_sizes_a_tensor(&owner->results[0], depth - 1)) {
      return true;
    }
  }
  return false;
}

// A host shape value: an index computed from sizes the host
// knows (index constants, tensor.dim, index arguments, shape arithmetic on
// them), or the i1 of comparing two of them.
static bool kiln_schedule_is_shape_value(kiln_ir_value_t* v) {
  if (kiln_ir_type_is_shaped(v->type)) return false;
  if (v->kind == KILN_IR_VALUE_BLOCK_ARG) {
    return kiln_ir_type_is_index(v->type) &&
           kiln_ir_block_parent_op(v->owner_block) &&
           kiln_ir_op_is(kiln_ir_block_parent_op(v->owner_block), "func.func");
  }
  kiln_ir_op_t* def = v->defining_op;
  if (!def) return false;
  if (kiln_ir_op_is(def, "arith.constant")) {
    return kiln_ir_type_is_index(v->type) ||
           (kiln_ir_type_is_integer(v->type) && v->type->integer.width == 1);
  }
  if (kiln_ir_op_is(def, "tensor.dim")) return true;
  return kiln_schedule_is_shape_op(def);
}

bool kiln_schedule_is_shape_op(kiln_ir_op_t* op) {
  static const char* const kinds[] = {
      "arith.addi",       "arith.subi",        "arith.muli",
      "arith.divsi",      "arith.divui",       "arith.ceildivsi",
      "arith.ceildivui",  "arith.floordivsi",  "arith.remsi",
      "arith.remui",      "arith.minsi",       "arith.maxsi",
      "arith.minui",      "arith.maxui",       "arith.cmpi",
      "arith.select",     "arith.andi",        "arith.ori",
      "arith.index_cast", "arith.index_castui"};
  bool known = false;
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !known; ++i) {
    known = kiln_ir_op_is(op, kinds[i]);
  }
  if (!known || op->num_results != 1) return false;
  const kiln_ir_type_t* t = op->results[0].type;
  bool is_i1 = kiln_ir_type_is_integer(t) && t->integer.width == 1;
  if (!kiln_ir_type_is_index(t) && !is_i1) return false;
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    // index_cast into a size of an integer argument, or of an integer the
    // host reads back from a tensor to size one (a shape tensor's entry:
    // vm-emission awaits its producer and loads it). Read-backs feeding only
    // dispatch bodies stay on the device (no wait). lower-host-ops marks
    // the casts it keeps at host level kiln.host_size: the tensor.empty
    // they size moves into a dispatch region later.
    bool cast_arg =
        kiln_ir_op_is(op, "arith.index_cast") &&
        (kiln_ir_type_is_integer(v->type) || kiln_ir_type_is_index(v->type)) &&
        (v->kind == KILN_IR_VALUE_BLOCK_ARG ||
         (v->defining_op && kiln_ir_op_is(v->defining_op, "tensor.extract") &&
          kiln_ir_block_parent_op(v->defining_op->parent_block) &&
          kiln_ir_op_is(kiln_ir_block_parent_op(v->defining_op->parent_block),
                        "func.func") &&
          (kiln_ir_op_get_attr(op, "kiln.host_size") ||
           kiln_schedule_sizes_a_tensor(&op->results[0], 8))));
    if (!cast_arg && !kiln_schedule_is_shape_value(v)) return false;
  }
  return true;
}

static int64_t kiln_align(int64_t v) {
  return (v + KILN_SCHEDULE_ALIGNMENT - 1) &
         ~(int64_t)(KILN_SCHEDULE_ALIGNMENT - 1);
}

// Byte size of a static tensor value.
static int64_t kiln_value_bytes(const kiln_ir_value_t* v) {
  int64_t n = kiln_ir_type_num_elements(v->type);
  size_t eb = kiln_ir_type_storage_bytes(kiln_ir_type_element(v->type));
  return n < 0 ? -1 : n * (int64_t)eb;
}

// The value whose storage |v| uses (follows alias ops back).
static kiln_ir_value_t* kiln_storage_root(kiln_ir_value_t* v) {
  while (v->kind == KILN_IR_VALUE_RESULT && v->defining_op &&
         kiln_schedule_is_alias_op(v->defining_op)) {
    // util.optimization_barrier passes operand i through as result i.
    uint32_t i = kiln_ir_op_is(v->defining_op, "util.optimization_barrier")
                     ? v->index
                     : 0;
    v = kiln_ir_op_operand(v->defining_op, i);
  }
  return v;
}

// Every op of every block of a function body, in block order.
#define KILN_FOR_EACH_HOST_OP(entry, op)                \
  for (kiln_ir_block_t* kiln_blk_ = (entry); kiln_blk_; \
       kiln_blk_ = kiln_blk_->next)                     \
    for (kiln_ir_op_t* op = kiln_blk_->first_op; op; op = op->next)

typedef struct kiln_interval_t {
  kiln_ir_value_t* value;
  size_t start, end;  // op positions
  int64_t size;
  int64_t offset;
} kiln_interval_t;

static kiln_status_t kiln_schedule_function(kiln_ir_context_t* ctx,
                                            kiln_ir_op_t* func) {
  kiln_ir_block_t* entry = kiln_ir_func_entry_block(func);
  if (!entry) return kiln_ok_status();
  // Host control flow (several blocks, loops): liveness is not linear, so
  // every transient value keeps its own bytes for the whole invocation (a
  // value redefined by a later loop iteration reuses its own bytes; its
  // previous instance is dead by SSA dominance). Block arguments get their
  // own buffers in vm-emission.
  bool multi_block = entry->next != NULL;
  // Positions and returned roots.
  kiln_ptr_map_t position = kiln_ptr_map_make(ctx);
  kiln_ptr_map_t returned = kiln_ptr_map_make(ctx);
  size_t pos = 0;
  KILN_FOR_EACH_HOST_OP(entry, op) {
    kiln_ptr_map_put(&position, op, (void*)(uintptr_t)(++pos));
    if (kiln_ir_op_is(op, "func.return")) {
      for (uint32_t i = 0; i < op->num_operands; ++i) {
        kiln_ptr_map_put(
            &returned, kiln_storage_root(kiln_ir_op_operand(op, i)), (void*)1);
      }
    }
  }
  // Intervals of transient values: from the defining region to the last use
  // of the value or of any alias of it.
  size_t count = 0, capacity = 64;
  kiln_interval_t* intervals =
      (kiln_interval_t*)kiln_ir_arena_alloc(ctx, capacity * sizeof(*intervals));
  if (!intervals) return kiln_ir_context_take_error(ctx);
  kiln_ptr_map_t interval_of = kiln_ptr_map_make(ctx);
  KILN_FOR_EACH_HOST_OP(entry, op) {
    size_t here = (size_t)(uintptr_t)kiln_ptr_map_get(&position, op);
    // Extend the intervals of every operand's storage.
    for (uint32_t i = 0; i < op->num_operands; ++i) {
      kiln_ir_value_t* root = kiln_storage_root(kiln_ir_op_operand(op, i));
      kiln_interval_t* iv =
          (kiln_interval_t*)kiln_ptr_map_get(&interval_of, root);
      if (iv && iv->end < here) iv->end = here;
    }
    if (!kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) continue;
    for (uint32_t r = 0; r < op->num_results; ++r) {
      kiln_ir_value_t* v = &op->results[r];
      if (kiln_ptr_map_contains(&returned, v)) continue;
      int64_t bytes = kiln_value_bytes(v);
      // Dynamically shaped: its own buffer, sized at run time.
      if (bytes < 0) continue;
      if (count == capacity) {
        kiln_interval_t* grown = (kiln_interval_t*)kiln_ir_arena_alloc(
            ctx, 2 * capacity * sizeof(*grown));
        if (!grown) return kiln_ir_context_take_error(ctx);
        memcpy(grown, intervals, count * sizeof(*grown));
        // Re-point the map at the moved intervals.
        for (size_t k = 0; k < count; ++k) {
          kiln_ptr_map_put(&interval_of, grown[k].value, &grown[k]);
        }
        intervals = grown;
        capacity *= 2;
      }
      kiln_interval_t* iv = &intervals[count++];
      iv->value = v;
      iv->start = here;
      iv->end = multi_block ? SIZE_MAX : here;
      if (multi_block) iv->start = 0;
      iv->size = kiln_align(bytes > 0 ? bytes : 1);
      iv->offset = -1;
      kiln_ptr_map_put(&interval_of, v, iv);
    }
  }
  // First-fit: place each interval (in definition order) at the lowest
  // offset that does not overlap a live interval already placed.
  int64_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    kiln_interval_t* iv = &intervals[i];
    int64_t offset = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (size_t j = 0; j < i; ++j) {
        kiln_interval_t* o = &intervals[j];
        bool live_overlap = !(o->end < iv->start || iv->end < o->start);
        bool byte_overlap =
            offset < o->offset + o->size && o->offset < offset + iv->size;
        if (live_overlap && byte_overlap) {
          offset = o->offset + o->size;
          moved = true;
        }
      }
    }
    iv->offset = offset;
    if (offset + iv->size > total) total = offset + iv->size;
  }
  // Record the plan.
  KILN_FOR_EACH_HOST_OP(entry, op) {
    if (!kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) continue;
    int64_t offsets[64];
    if (op->num_results > 64) {
      return kiln_ir_op_emit_error(op, ctx, "schedule: too many results");
    }
    for (uint32_t r = 0; r < op->num_results; ++r) {
      kiln_interval_t* iv =
          (kiln_interval_t*)kiln_ptr_map_get(&interval_of, &op->results[r]);
      offsets[r] = iv ? iv->offset : -1;
    }
    KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
        ctx, op, "result_storage",
        kiln_ir_dense_i64_array_attr_get(ctx, kiln_ir_int_type(ctx, 64),
                                         op->num_results, offsets),
        false));
  }
  KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
      ctx, func, "kiln.transient_size",
      kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), total), false));
  return kiln_ir_context_take_error(ctx);
}

kiln_status_t kiln_schedule(kiln_ir_context_t* context, kiln_ir_op_t* module) {
  KILN_RETURN_IF_ERROR(kiln_dispatch_register_ops(context));
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "func.func") || kiln_ir_func_is_declaration(op)) {
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_schedule_function(context, op));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_schedule_run(kiln_ir_context_t* context,
                                       kiln_ir_op_t* module, void* user_data) {
  return kiln_schedule(context, module);
}

const kiln_ir_pass_t kiln_schedule_pass = {
    .name = "schedule",
    .description =
        "plan buffers: result buffers and one liveness-planned transient "
        "allocation per invocation",
    .run = kiln_schedule_run,
    .user_data = NULL,
};
