// lower-host-ops: the last step of the default pipeline, after const-eval.
// It leaves the host level (function bodies) with only what the backend
// schedules: structured ops, constants, aliases and check ops on tensors.
//
//   - util.unfoldable_constant becomes arith.constant: const-eval has run,
//     so nothing folds through it any more; tensors become rodata (or are
//     cloned into dispatches when splat), scalars are cloned into bodies.
//   - Shape arithmetic (kiln_schedule_is_shape_op: index math on sizes
//     the host knows) stays at host level.
//   - Any other scalar op at host level (arith.*, math.*, tensor.extract of
//     device data) becomes a rank-0 linalg.generic computing it on the device:
//     scalar operands that are themselves computed become rank-0 `ins`,
//     constants and tensors are captured by the body. Uses of the old
//     scalar inside structured bodies read it back with `tensor.extract
//     %t[]` (the tensor becomes a binding of the dispatch), and `ins`
//     operands of structured ops take the rank-0 tensor with the same
//     `(d...) -> ()` map.
//   - check.expect_true(%x) becomes check.expect_all_true on the rank-0
//     tensor of %x; check.expect_false(%x) checks that `%x == 0` is all true.
#include <string.h>

#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"
#include "compiler/pipeline/passes.h"
#include "compiler/schedule/schedule.h"

typedef struct kiln_host_t {
  kiln_ir_context_t* ctx;
  kiln_ir_block_t* block;
  // Scalars computed at host level and their rank-0 tensors (parallel
  // arrays; small functions, linear search is fine).
  size_t count, capacity;
  kiln_ir_value_t** scalars;
  kiln_ir_value_t** tensors;
  kiln_ir_op_t** ops;  // the original scalar ops, erased at the end
} kiln_host_t;

static bool kiln_is_scalar_type(const kiln_ir_type_t* t) {
  return t && !kiln_ir_type_is_shaped(t) &&
         (kiln_ir_type_is_integer(t) || kiln_ir_type_is_float(t) ||
          kiln_ir_type_is_index(t));
}

static kiln_ir_value_t* kiln_host_lookup(kiln_host_t* h, kiln_ir_value_t* v) {
  for (size_t i = 0; i < h->count; ++i) {
    if (h->scalars[i] == v) return h->tensors[i];
  }
  return NULL;
}

static kiln_status_t kiln_host_record(kiln_host_t* h, kiln_ir_op_t* op,
                                      kiln_ir_value_t* scalar,
                                      kiln_ir_value_t* tensor) {
  if (h->count == h->capacity) {
    size_t cap = h->capacity ? h->capacity * 2 : 16;
    kiln_ir_value_t** s = kiln_ir_arena_alloc(h->ctx, sizeof(*s) * cap);
    kiln_ir_value_t** t = kiln_ir_arena_alloc(h->ctx, sizeof(*t) * cap);
    kiln_ir_op_t** o = kiln_ir_arena_alloc(h->ctx, sizeof(*o) * cap);
    if (!s || !t || !o) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "lower-host-ops: out of memory");
    }
    if (h->count) {
      memcpy(s, h->scalars, sizeof(*s) * h->count);
      memcpy(t, h->tensors, sizeof(*t) * h->count);
      memcpy(o, h->ops, sizeof(*o) * h->count);
    }
    h->scalars = s;
    h->tensors = t;
    h->ops = o;
    h->capacity = cap;
  }
  h->scalars[h->count] = scalar;
  h->tensors[h->count] = tensor;
  h->ops[h->count] = op;
  ++h->count;
  return kiln_ok_status();
}

static bool kiln_host_is_lowered_op(kiln_host_t* h, kiln_ir_op_t* op) {
  for (size_t i = 0; i < h->count; ++i) {
    if (h->ops[i] == op) return true;
  }
  return false;
}

// tensor.empty of |type| at |b|.
static kiln_status_t kiln_host_empty(kiln_ir_builder_t* b,
                                     const kiln_ir_type_t* type,
                                     kiln_ir_value_t** out) {
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(b, "tensor.empty", 0, NULL,
                                                     1, &type, 0, NULL, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_host_yield(kiln_ir_builder_t* b, kiln_ir_value_t* v) {
  kiln_ir_op_t* op = NULL;
  return kiln_ir_builder_create_simple(b, "linalg.yield", 1, &v, 0, NULL, 0,
                                       NULL, &op);
}

// A rank-0 generic before |at| computing a clone of scalar op |op| (or,
// when |op| is NULL, just yielding |value|); returns its tensor.
static kiln_status_t kiln_host_rank0(kiln_host_t* h, kiln_ir_op_t* at,
                                     kiln_ir_op_t* op, kiln_ir_value_t* value,
                                     kiln_ir_value_t** out_tensor) {
  kiln_ir_context_t* ctx = h->ctx;
  kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_before(&b, at);
  b.location = at->location;
  const kiln_ir_type_t* scalar_type = op ? op->results[0].type : value->type;
  const kiln_ir_type_t* tensor_type =
      kiln_ir_tensor_type_get(ctx, 0, NULL, scalar_type, NULL);
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_host_empty(&b, tensor_type, &init));
  // Computed scalar operands become rank-0 inputs.
  kiln_ir_value_t* inputs[16];
  uint32_t operand_of_input[16];
  size_t num_inputs = 0;
  uint32_t n = op ? op->num_operands : 0;
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_t* t = kiln_host_lookup(h, kiln_ir_op_operand(op, i));
    if (!t) continue;
    if (num_inputs == 16) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "lower-host-ops: too many computed "
                                   "scalar operands");
    }
    operand_of_input[num_inputs] = i;
    inputs[num_inputs++] = t;
  }
  const kiln_ir_attribute_t* maps[17];
  for (size_t i = 0; i <= num_inputs; ++i) {
    maps[i] = kiln_linalg_identity_map(ctx, 0);
  }
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      &b, num_inputs, inputs, 1, &init, maps, 0, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_to_end(&bb, body);
  bb.location = at->location;
  kiln_ir_value_t* result = value;
  if (op) {
    kiln_ir_mapping_t* mapping = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(ctx, &mapping));
    for (size_t i = 0; i < num_inputs; ++i) {
      kiln_ir_mapping_map_value(
          mapping, kiln_ir_op_operand(op, operand_of_input[i]), body->args[i]);
    }
    kiln_ir_op_t* clone = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_op_clone(ctx, op, mapping, &clone));
    kiln_ir_block_append_op(body, clone);
    result = kiln_ir_op_result(clone, 0);
  }
  KILN_RETURN_IF_ERROR(kiln_host_yield(&bb, result));
  *out_tensor = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

// The tensor holding scalar |v| (a rank-0 generic yielding it when |v| is
// not computed at host level, e.g. a constant).
static kiln_status_t kiln_host_tensor_of(kiln_host_t* h, kiln_ir_op_t* at,
                                         kiln_ir_value_t* v,
                                         kiln_ir_value_t** out) {
  if (kiln_ir_type_is_shaped(v->type)) {
    *out = v;
    return kiln_ok_status();
  }
  kiln_ir_value_t* t = kiln_host_lookup(h, v);
  if (t) {
    *out = t;
    return kiln_ok_status();
  }
  return kiln_host_rank0(h, at, NULL, v, out);
}

// True for a scalar op at host level that must run on the device.
static bool kiln_host_is_scalar_op(kiln_ir_op_t* op) {
  if (kiln_schedule_is_shape_op(op)) return false;
  if (op->num_results != 1 || op->num_regions != 0 ||
      !kiln_is_scalar_type(op->results[0].type)) {
    return false;
  }
  if (kiln_ir_op_is(op, "arith.constant")) return false;
  if (kiln_ir_op_is(op, "tensor.extract")) {
    // A read-back feeding only host branches (cf.cond_br), results or
    // shape arithmetic (a shape tensor's entry sizing a tensor) stays at
    // host level: vm-emission awaits the producer and loads the scalar.
    bool host_only = op->results[0].first_use != NULL;
    for (kiln_ir_use_t* u = op->results[0].first_use; u; u = u->next_use) {
      host_only = host_only && (kiln_string_view_equal_cstr(
                                    kiln_ir_op_dialect(u->owner), "cf") ||
                                kiln_ir_op_is(u->owner, "func.return") ||
                                (u->owner->parent_block == op->parent_block &&
                                 kiln_schedule_is_shape_op(u->owner)));
    }
    return !host_only;
  }
  kiln_string_view_t dialect = kiln_ir_op_dialect(op);
  return kiln_string_view_equal_cstr(dialect, "arith") ||
         kiln_string_view_equal_cstr(dialect, "math");
}

// check.expect_true/false -> check.expect_all_true.
static kiln_status_t kiln_host_lower_check(kiln_host_t* h, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = h->ctx;
  bool is_false = kiln_ir_op_is(op, "check.expect_false");
  kiln_ir_value_t* t = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_host_tensor_of(h, op, kiln_ir_op_operand(op, 0), &t));
  kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_before(&b, op);
  b.location = op->location;
  if (is_false) {
    // %z = (%t == 0) elementwise, as i1.
    const kiln_ir_type_t* tt = t->type;
    const kiln_ir_type_t* elem = tt->shaped.element;
    uint32_t rank = (uint32_t)tt->shaped.rank;
    const kiln_ir_type_t* i1 = kiln_ir_int_type(ctx, 1);
    kiln_ir_value_t* init = NULL;
    KILN_RETURN_IF_ERROR(kiln_host_empty(
        &b, kiln_ir_tensor_type_get(ctx, rank, tt->shaped.dims, i1, NULL),
        &init));
    const kiln_ir_attribute_t* maps[2] = {kiln_linalg_identity_map(ctx, rank),
                                          kiln_linalg_identity_map(ctx, rank)};
    kiln_ir_op_t* generic = NULL;
    kiln_ir_block_t* body = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        &b, 1, &t, 1, &init, maps, rank, NULL, &generic, &body));
    kiln_ir_builder_t bb = kiln_ir_builder_make(ctx);
    kiln_ir_builder_set_to_end(&bb, body);
    bb.location = op->location;
    bool is_float = kiln_ir_type_is_float(elem);
    kiln_scalar_t zero_value;
    memset(&zero_value, 0, sizeof(zero_value));
    kiln_ir_named_attribute_t zero_attr = kiln_ir_named_attr(
        ctx, "value", kiln_scalar_to_attr(ctx, elem, zero_value));
    kiln_ir_op_t* zero = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, "arith.constant", 0, NULL, 1, &elem, 1, &zero_attr, &zero));
    // Predicates: cmpi eq = 0, cmpf oeq = 1.
    kiln_ir_named_attribute_t pred = kiln_ir_named_attr(
        ctx, "predicate",
        kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64),
                                 is_float ? 1 : 0));
    kiln_ir_value_t* args[2] = {body->args[0], kiln_ir_op_result(zero, 0)};
    kiln_ir_op_t* cmp = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, is_float ? "arith.cmpf" : "arith.cmpi", 2, args, 1, &i1, 1, &pred,
        &cmp));
    KILN_RETURN_IF_ERROR(kiln_host_yield(&bb, kiln_ir_op_result(cmp, 0)));
    t = kiln_ir_op_result(generic, 0);
  }
  kiln_ir_op_t* check = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &b, "check.expect_all_true", 1, &t, 0, NULL, 0, NULL, &check));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// Redirects the uses of host scalar |v| to its rank-0 tensor |t|.
static kiln_status_t kiln_host_redirect_uses(kiln_host_t* h, kiln_ir_value_t* v,
                                             kiln_ir_value_t* t) {
  kiln_ir_context_t* ctx = h->ctx;
  kiln_ir_use_t* next = NULL;
  for (kiln_ir_use_t* u = v->first_use; u; u = next) {
    next = u->next_use;
    kiln_ir_op_t* owner = u->owner;
    uint32_t index = u->index;
    if (owner->parent_block == h->block) {
      if (kiln_host_is_lowered_op(h, owner)) continue;
      if (kiln_ir_op_is(owner, "tensor.from_elements") &&
          owner->num_operands == 1 && owner->results[0].type == t->type) {
        // The rank-0 tensor of a computed scalar (a scalar global's store):
        // the tensor the scalar was computed into.
        kiln_ir_value_replace_all_uses_with(&owner->results[0], t);
        kiln_ir_op_erase(owner);
        continue;
      }
      if (kiln_string_view_equal_cstr(kiln_ir_op_dialect(owner), "cf") ||
          kiln_ir_op_is(owner, "func.return")) {
        // A host branch on a computed scalar, or a scalar result: read it
        // back from its rank-0 tensor (vm-emission awaits, then loads).
        kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
        kiln_ir_builder_set_before(&rb, owner);
        rb.location = owner->location;
        kiln_ir_op_t* read = NULL;
        const kiln_ir_type_t* type = v->type;
        KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
            &rb, "tensor.extract", 1, &t, 1, &type, 0, NULL, &read));
        kiln_ir_op_set_operand(owner, index, kiln_ir_op_result(read, 0));
        continue;
      }
      if (!kiln_linalg_is_structured(owner) ||
          index >= kiln_linalg_num_inputs(owner)) {
        continue;  // reported by the backend
      }
      if (!kiln_ir_op_is(owner, "linalg.generic")) {
        KILN_RETURN_IF_ERROR(kiln_linalg_generalize(ctx, owner, &owner));
        next = v->first_use;  // the use list changed
        continue;
      }
      // A scalar `ins` operand has a `(d...) -> ()` map: a rank-0 tensor
      // reads the same value everywhere.
      kiln_ir_op_set_operand(owner, index, t);
      continue;
    }
    // A use inside a structured op's body: read the tensor back there.
    kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
    kiln_ir_builder_set_before(&b, owner);
    b.location = owner->location;
    kiln_ir_op_t* extract = NULL;
    const kiln_ir_type_t* type = v->type;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &b, "tensor.extract", 1, &t, 1, &type, 0, NULL, &extract));
    kiln_ir_op_set_operand(owner, index, kiln_ir_op_result(extract, 0));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_host_lower_block(kiln_ir_context_t* ctx,
                                           kiln_ir_block_t* block,
                                           bool is_entry) {
  kiln_host_t h = {ctx, block, 0, 0, NULL, NULL, NULL};
  kiln_ir_op_t* next = NULL;
  // Scalar arguments: rank-0 tensors written by the host on entry
  // (tensor.from_elements), so that device work reads them like any other
  // computed scalar.
  for (uint32_t i = 0; is_entry && i < block->num_args; ++i) {
    kiln_ir_value_t* arg = block->args[i];
    if (!kiln_is_scalar_type(arg->type) || kiln_ir_value_use_empty(arg)) {
      continue;
    }
    kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
    if (block->first_op) {
      kiln_ir_builder_set_before(&b, block->first_op);
      b.location = block->first_op->location;
    } else {
      kiln_ir_builder_set_to_end(&b, block);
    }
    const kiln_ir_type_t* type =
        kiln_ir_tensor_type_get(ctx, 0, NULL, arg->type, NULL);
    kiln_ir_op_t* from = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &b, "tensor.from_elements", 1, &arg, 1, &type, 0, NULL, &from));
    KILN_RETURN_IF_ERROR(
        kiln_host_record(&h, from, arg, kiln_ir_op_result(from, 0)));
  }
  for (kiln_ir_op_t* op = block->first_op; op; op = next) {
    next = op->next;
    if (kiln_ir_op_is(op, "util.unfoldable_constant")) {
      kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
      kiln_ir_builder_set_before(&b, op);
      b.location = op->location;
      kiln_ir_named_attribute_t value =
          kiln_ir_named_attr(ctx, "value", kiln_ir_op_get_attr(op, "value"));
      const kiln_ir_type_t* type = op->results[0].type;
      kiln_ir_op_t* cst = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
          &b, "arith.constant", 0, NULL, 1, &type, 1, &value, &cst));
      kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                          kiln_ir_op_result(cst, 0));
      kiln_ir_op_erase(op);
    } else if (kiln_ir_op_is(op, "arith.index_cast") &&
               kiln_schedule_is_shape_op(op)) {
      // Kept at host level (a size, maybe read back from a tensor): marked,
      // as the tensor.empty it sizes moves into a dispatch region later.
      KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
          ctx, op, "kiln.host_size", kiln_ir_unit_attr_get(ctx), false));
    } else if (kiln_host_is_scalar_op(op)) {
      kiln_ir_value_t* t = NULL;
      KILN_RETURN_IF_ERROR(kiln_host_rank0(&h, op, op, NULL, &t));
      KILN_RETURN_IF_ERROR(
          kiln_host_record(&h, op, kiln_ir_op_result(op, 0), t));
    } else if (kiln_ir_op_is(op, "check.expect_true") ||
               kiln_ir_op_is(op, "check.expect_false")) {
      KILN_RETURN_IF_ERROR(kiln_host_lower_check(&h, op));
    }
  }
  for (size_t i = 0; i < h.count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_host_redirect_uses(&h, h.scalars[i], h.tensors[i]));
  }
  // Erase the host scalar ops nothing else uses (last first: they may use
  // each other).
  for (size_t i = h.count; i-- > 0;) {
    kiln_ir_op_t* op = h.ops[i];
    bool used = false;
    for (kiln_ir_use_t* u = op->results[0].first_use; u && !used;
         u = u->next_use) {
      used = !kiln_host_is_lowered_op(&h, u->owner);
    }
    if (!used) {
      kiln_ir_op_drop_all_uses_made(op);
    }
  }
  for (size_t i = h.count; i-- > 0;) {
    kiln_ir_op_t* op = h.ops[i];
    if (kiln_ir_value_use_empty(kiln_ir_op_result(op, 0))) {
      kiln_ir_op_erase(op);
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_pass_lower_host_ops(kiln_ir_context_t* context,
                                       kiln_ir_op_t* module, void* user_data) {
  (void)user_data;
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "func.func") || kiln_ir_func_is_declaration(op)) {
      continue;
    }
    for (kiln_ir_block_t* b = op->regions[0].first_block; b; b = b->next) {
      KILN_RETURN_IF_ERROR(
          kiln_host_lower_block(context, b, b == op->regions[0].first_block));
    }
  }
  return kiln_ok_status();
}
