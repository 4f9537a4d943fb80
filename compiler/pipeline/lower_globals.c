// util.global -> constants. See lower_globals.h.
#include "compiler/pipeline/lower_globals.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/dispatch/ptr_map.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"

static bool kiln_globals_is_access(const kiln_ir_op_t* op, void* user_data) {
  (void)user_data;
  return kiln_ir_op_is(op, "util.global.load") ||
         kiln_ir_op_is(op, "util.global.load.indirect") ||
         kiln_ir_op_is(op, "util.global.store") ||
         kiln_ir_op_is(op, "util.global.address");
}

// The util.global of |module| that |ref_op|'s `global` attribute names.
static kiln_status_t kiln_globals_find(kiln_ir_context_t* ctx,
                                       kiln_ir_op_t* module,
                                       kiln_ir_op_t* ref_op,
                                       kiln_ir_op_t** out) {
  const kiln_ir_attribute_t* ref = kiln_ir_op_get_attr(ref_op, "global");
  kiln_ir_block_t* body =
      module->num_regions ? module->regions[0].first_block : NULL;
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "util.global")) continue;
    const kiln_ir_attribute_t* name = kiln_ir_op_get_attr(op, "sym_name");
    if (ref && name && kiln_string_view_equal(name->str, ref->symbol.root)) {
      *out = op;
      return kiln_ok_status();
    }
  }
  return kiln_ir_op_emit_error(
      ref_op, ctx, "refers to an unknown global '@%.*s'",
      ref ? (int)ref->symbol.root.size : 0, ref ? ref->symbol.root.data : "");
}

// Rewrites every scalar-typed util.global of |module| (and its direct
// loads and stores among |ops|) to hold a rank-0 tensor of that type.
static kiln_status_t kiln_globals_scalars_to_tensors(kiln_ir_context_t* ctx,
                                                     kiln_ir_op_t* module,
                                                     kiln_ir_op_t** ops,
                                                     size_t count) {
  kiln_ptr_map_t scalar = kiln_ptr_map_make(ctx);
  kiln_ir_block_t* body =
      module->num_regions ? module->regions[0].first_block : NULL;
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "util.global")) continue;
    const kiln_ir_attribute_t* type_attr = kiln_ir_op_get_attr(op, "type");
    const kiln_ir_type_t* t = type_attr ? type_attr->type : NULL;
    if (!t || kiln_ir_type_is_shaped(t) ||
        !(kiln_ir_type_is_integer(t) || kiln_ir_type_is_float(t) ||
          kiln_ir_type_is_index(t))) {
      continue;
    }
    const kiln_ir_type_t* tensor =
        kiln_ir_tensor_type_get(ctx, 0, NULL, t, NULL);
    const kiln_ir_attribute_t* init = kiln_ir_op_get_attr(op, "initial_value");
    kiln_scalar_t value;
    memset(&value, 0, sizeof(value));
    if (init && !kiln_scalar_from_attr(init, 0, t, &value)) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "a scalar global's initial value must be "
                                   "a number");
    }
    KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
        ctx, op, "type", kiln_ir_type_attr_get(ctx, tensor), false));
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_set_attr(ctx, op, "initial_value",
                            kiln_scalar_splat_attr(ctx, tensor, value), false));
    kiln_ptr_map_put(&scalar, op, (void*)tensor);
  }
  for (size_t i = 0; i < count; ++i) {
    kiln_ir_op_t* op = ops[i];
    bool load = kiln_ir_op_is(op, "util.global.load");
    if (!load && !kiln_ir_op_is(op, "util.global.store")) continue;
    kiln_ir_op_t* global = NULL;
    KILN_RETURN_IF_ERROR(kiln_globals_find(ctx, module, op, &global));
    const kiln_ir_type_t* tensor =
        (const kiln_ir_type_t*)kiln_ptr_map_get(&scalar, global);
    if (!tensor) continue;
    kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
    b.location = op->location;
    if (load) {
      kiln_ir_value_t* result = &op->results[0];
      if (result->type != tensor->shaped.element) {
        return kiln_ir_op_emit_error(
            op, ctx, "reads %s from a global of type %s",
            kiln_ir_type_to_string(ctx, result->type),
            kiln_ir_type_to_string(ctx, tensor->shaped.element));
      }
      kiln_ir_builder_set_after(&b, op);
      kiln_ir_value_set_type(result, tensor);
      kiln_ir_value_t* read = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_extract(&b, result, NULL, &read));
      kiln_ir_value_replace_all_uses_with(result, read);
      // The extract itself reads the load's tensor.
      kiln_ir_op_set_operand(read->defining_op, 0, result);
    } else {
      kiln_ir_builder_set_before(&b, op);
      kiln_ir_value_t* v = kiln_ir_op_operand(op, 0);
      kiln_ir_value_t* t = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit(&b, "tensor.from_elements", tensor, 1, &v, &t));
      kiln_ir_op_set_operand(op, 0, t);
    }
  }
  return kiln_ok_status();
}

// The dense value of |global| (its initial value, byte patterns expanded).
static kiln_status_t kiln_globals_value(kiln_ir_context_t* ctx,
                                        kiln_ir_op_t* global,
                                        const kiln_ir_attribute_t** out) {
  const kiln_ir_attribute_t* init =
      kiln_ir_op_get_attr(global, "initial_value");
  const kiln_ir_type_t* type = kiln_ir_op_get_attr(global, "type")->type;
  if (init && init->kind == KILN_IR_ATTR_DENSE_ELEMENTS) {
    *out = init;
    return kiln_ok_status();
  }
  if (kiln_ir_attr_is_parameter(init)) {
    // Stays a reference: the constant's bytes come from a parameter file
    // when the module is loaded, so nothing folds through it.
    kiln_string_view_t scope, key;
    if (!kiln_ir_parameter_attr_ref(init, &scope, &key)) {
      return kiln_ir_op_emit_error(global, ctx,
                                   "expected #flow.parameter.named<\"key\"> "
                                   "or #flow.parameter.named<\"scope\"::"
                                   "\"key\">");
    }
    if (!kiln_ir_type_is_ranked_tensor(type) ||
        !kiln_ir_type_has_static_shape(type)) {
      return kiln_ir_op_emit_error(global, ctx,
                                   "a parameter global needs a statically "
                                   "shaped tensor type");
    }
    *out = init;
    return kiln_ok_status();
  }
  if (init && init->kind == KILN_IR_ATTR_DIALECT &&
      kiln_string_view_equal_cstr(init->dialect.dialect, "util") &&
      kiln_string_view_equal_cstr(init->dialect.name, "byte_pattern") &&
      init->dialect.structured && init->dialect.num_params == 1 &&
      init->dialect.params[0].value->kind == KILN_IR_ATTR_INTEGER &&
      kiln_ir_type_is_shaped(type)) {
    size_t bytes = kiln_ir_type_storage_bytes(type->shaped.element);
    uint8_t element[16];
    if (bytes == 0 || bytes > sizeof(element)) {
      return kiln_ir_op_emit_error(global, ctx,
                                   "byte pattern of an unsupported element "
                                   "type");
    }
    memset(element, (int)(init->dialect.params[0].value->i & 0xFF), bytes);
    *out = kiln_ir_dense_elements_attr_get(ctx, type, true, element, bytes);
    return *out ? kiln_ok_status() : kiln_ir_context_take_error(ctx);
  }
  if (!init && kiln_ir_type_is_ranked_tensor(type) &&
      kiln_ir_type_has_static_shape(type)) {
    // Set at run time (by "__init"): zeros until then.
    size_t bytes = kiln_ir_type_storage_bytes(type->shaped.element);
    static const uint8_t kZero[16] = {0};
    if (bytes > 0 && bytes <= sizeof(kZero)) {
      *out = kiln_ir_dense_elements_attr_get(ctx, type, true, kZero, bytes);
      return *out ? kiln_ok_status() : kiln_ir_context_take_error(ctx);
    }
  }
  return kiln_ir_op_emit_error(global, ctx,
                               "needs a dense or #util.byte_pattern initial "
                               "value, or a static shape when an "
                               "initializer sets it at run time");
}

// The constant (arith.constant / util.unfoldable_constant) |op| stores when
// it is a util.global.store of one, possibly through a tensor.cast (a
// constant cast to a dynamically shaped global's type: its value, with its
// static shape, is the initial value); else NULL.
static kiln_ir_op_t* kiln_globals_stored_constant(kiln_ir_op_t* op) {
  kiln_ir_value_t* v =
      kiln_ir_op_is(op, "util.global.store") ? kiln_ir_op_operand(op, 0) : NULL;
  kiln_ir_op_t* def =
      v && v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (def && kiln_ir_op_is(def, "tensor.cast")) {
    kiln_ir_value_t* src = kiln_ir_op_operand(def, 0);
    def = src->kind == KILN_IR_VALUE_RESULT ? src->defining_op : NULL;
  }
  return def && (kiln_ir_op_is(def, "arith.constant") ||
                 kiln_ir_op_is(def, "util.unfoldable_constant"))
             ? def
             : NULL;
}

// Whether |op| of an initializer needs no store handling: a constant, a
// cast (read by its store) or the terminator.
static bool kiln_globals_initializer_passive(kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "arith.constant") ||
         kiln_ir_op_is(op, "util.unfoldable_constant") ||
         kiln_ir_op_is(op, "func.return") || kiln_ir_op_is(op, "tensor.cast");
}

// Whether every op of initializer block |b| is passive or a store of a
// constant: it folds into initial values.
static bool kiln_globals_initializer_folds(kiln_ir_block_t* b) {
  for (kiln_ir_op_t* op = b ? b->first_op : NULL; op; op = op->next) {
    if (!kiln_globals_initializer_passive(op) &&
        !kiln_globals_stored_constant(op)) {
      return false;
    }
  }
  return true;
}

// The exported function "__init", which the VM runs once when a context is
// created (before any other call): initializers that compute run in it, in
// module order. |*init| is created on first use; |*ret| is its return.
static kiln_status_t kiln_globals_run_time_initializer(
    kiln_ir_context_t* ctx, kiln_ir_op_t* module, kiln_ir_op_t* initializer,
    kiln_ir_op_t** init, kiln_ir_op_t** ret) {
  if (!*init) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_func_create(ctx, module, kiln_make_cstring_view("__init"),
                            kiln_ir_function_type_get(ctx, 0, NULL, 0, NULL),
                            initializer->location, init));
    kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
    kiln_ir_builder_set_to_end(&b, (*init)->regions[0].first_block);
    b.location = initializer->location;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &b, "func.return", 0, NULL, 0, NULL, 0, NULL, ret));
  }
  kiln_ir_block_t* body = initializer->regions[0].first_block;
  kiln_ir_op_t* next = NULL;
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = next) {
    next = op->next;
    if (kiln_ir_op_is(op, "func.return")) break;  // util.return's alias
    kiln_ir_op_move_before(op, *ret);
  }
  kiln_ir_op_erase(initializer);
  return kiln_ok_status();
}

// util.initializer bodies that store constants: each stored constant
// becomes its global's initial value (what running the initializer when
// the context is created would leave there), and the initializer goes.
// Initializers doing other work run at run time, in "__init".
static kiln_status_t kiln_globals_fold_initializers(kiln_ir_context_t* ctx,
                                                    kiln_ir_op_t* module) {
  kiln_ir_block_t* body =
      module->num_regions ? module->regions[0].first_block : NULL;
  kiln_ir_op_t* next = NULL;
  kiln_ir_op_t *run_time = NULL, *run_time_return = NULL;
  for (kiln_ir_op_t* init = body ? body->first_op : NULL; init; init = next) {
    next = init->next;
    if (!kiln_ir_op_is(init, "util.initializer")) continue;
    kiln_ir_block_t* b = init->regions[0].first_block;
    if (b && b->next) {
      return kiln_ir_op_emit_error(init, ctx,
                                   "initializers with control flow are not "
                                   "supported");
    }
    if (!kiln_globals_initializer_folds(b)) {
      KILN_RETURN_IF_ERROR(kiln_globals_run_time_initializer(
          ctx, module, init, &run_time, &run_time_return));
      continue;
    }
    for (kiln_ir_op_t* op = b ? b->first_op : NULL; op; op = op->next) {
      if (kiln_globals_initializer_passive(op)) continue;
      kiln_ir_op_t* def = kiln_globals_stored_constant(op);
      if (!def) continue;  // (kiln_globals_initializer_folds said it is)
      kiln_ir_op_t* global = NULL;
      KILN_RETURN_IF_ERROR(kiln_globals_find(ctx, module, op, &global));
      const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(def, "value");
      if (!value ||
          !kiln_dialect_type_admits(kiln_ir_op_get_attr(global, "type")->type,
                                    value->type)) {
        return kiln_ir_op_emit_error(op, ctx,
                                     "stores a value of another type than "
                                     "the global's");
      }
      KILN_RETURN_IF_ERROR(
          kiln_ir_op_set_attr(ctx, global, "initial_value", value, false));
    }
    kiln_ir_op_erase(init);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_lower_util_globals(kiln_ir_context_t* context,
                                      kiln_ir_op_t* module) {
  KILN_RETURN_IF_ERROR(kiln_globals_fold_initializers(context, module));
  kiln_ir_op_t** ops = NULL;
  size_t count = 0;
  KILN_RETURN_IF_ERROR(
      kiln_ir_collect_ops(context, module, KILN_IR_WALK_PRE_ORDER,
                          kiln_globals_is_access, NULL, &ops, &count));
  // Scalar globals (counters, step numbers) hold a rank-0 tensor: loads
  // read it back with tensor.extract, stores write tensor.from_elements.
  KILN_RETURN_IF_ERROR(
      kiln_globals_scalars_to_tensors(context, module, ops, count));
  // Globals that are stored to stay globals (module state in the VM); the
  // others' loads become constants.
  kiln_ptr_map_t stored = kiln_ptr_map_make(context);
  for (size_t i = 0; i < count; ++i) {
    kiln_ir_op_t* op = ops[i];
    if (!kiln_ir_op_is(op, "util.global.store")) continue;
    kiln_ir_op_t* global = NULL;
    KILN_RETURN_IF_ERROR(kiln_globals_find(context, module, op, &global));
    // An initializer ("__init") may set an immutable global.
    kiln_ir_op_t* func =
        op->parent_block ? kiln_ir_block_parent_op(op->parent_block) : NULL;
    const kiln_ir_attribute_t* fname =
        func ? kiln_ir_op_get_attr(func, "sym_name") : NULL;
    bool in_init = fname && fname->kind == KILN_IR_ATTR_STRING &&
                   kiln_string_view_equal_cstr(fname->str, "__init");
    if (!kiln_ir_op_get_attr(global, "is_mutable") && !in_init) {
      return kiln_ir_op_emit_error(op, context,
                                   "stores to an immutable global");
    }
    const kiln_ir_type_t* type = kiln_ir_op_get_attr(global, "type")->type;
    if (kiln_ir_op_operand(op, 0)->type != type ||
        !kiln_ir_type_is_ranked_tensor(type)) {
      return kiln_ir_op_emit_error(
          op, context,
          "stores %s to a global of type %s (mutable globals are ranked "
          "tensors)",
          kiln_ir_type_to_string(context, kiln_ir_op_operand(op, 0)->type),
          kiln_ir_type_to_string(context, type));
    }
    kiln_ptr_map_put(&stored, global, global);
  }
  for (size_t i = 0; i < count; ++i) {
    kiln_ir_op_t* op = ops[i];
    if (kiln_ir_op_is(op, "util.global.address")) continue;
    if (kiln_ir_op_is(op, "util.global.store")) continue;
    kiln_ir_op_t* ref_op = op;
    if (kiln_ir_op_is(op, "util.global.load.indirect")) {
      ref_op = kiln_ir_op_operand(op, 0)->defining_op;
      if (!ref_op || !kiln_ir_op_is(ref_op, "util.global.address")) {
        return kiln_ir_op_emit_error(
            op, context, "needs the address of a util.global.address");
      }
    }
    kiln_ir_op_t* global = NULL;
    KILN_RETURN_IF_ERROR(kiln_globals_find(context, module, ref_op, &global));
    const kiln_ir_type_t* type = kiln_ir_op_get_attr(global, "type")->type;
    if (op->results[0].type != type) {
      return kiln_ir_op_emit_error(
          op, context, "reads %s from a global of type %s",
          kiln_ir_type_to_string(context, op->results[0].type),
          kiln_ir_type_to_string(context, type));
    }
    const kiln_ir_attribute_t* value = NULL;
    KILN_RETURN_IF_ERROR(kiln_globals_value(context, global, &value));
    if (kiln_ptr_map_get(&stored, global)) {
      // A load before any store reads the initial value (IREE's
      // semantics): vm-emission initializes the VM global from it.
      if (ref_op != op) {
        return kiln_ir_op_emit_error(
            op, context,
            "indirect loads of a mutable global are not "
            "supported");
      }
      KILN_RETURN_IF_ERROR(
          kiln_ir_op_set_attr(context, op, "kiln.initial_value", value, false));
      continue;
    }
    kiln_ir_builder_t b = kiln_ir_builder_make(context);
    kiln_ir_builder_set_before(&b, op);
    b.location = op->location;
    kiln_ir_value_t* constant = NULL;
    if (value->type != type && !kiln_ir_attr_is_parameter(value)) {
      // A dynamically shaped global: its static value, cast.
      KILN_RETURN_IF_ERROR(
          kiln_lowering_constant(&b, value, value->type, &constant));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit(&b, "tensor.cast", type, 1, &constant, &constant));
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_constant(&b, value, type, &constant));
    }
    kiln_lowering_replace(op, constant);
  }
  // Addresses (now unused) and the globals themselves go.
  for (size_t i = 0; i < count; ++i) {
    kiln_ir_op_t* op = ops[i];
    if (!kiln_ir_op_is(op, "util.global.address")) continue;
    if (!kiln_ir_value_use_empty(&op->results[0])) {
      return kiln_ir_op_emit_error(op, context,
                                   "is used other than by "
                                   "util.global.load.indirect");
    }
    kiln_ir_op_erase(op);
  }
  kiln_ir_block_t* body =
      module->num_regions ? module->regions[0].first_block : NULL;
  kiln_ir_op_t* next = NULL;
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = next) {
    next = op->next;
    if (kiln_ir_op_is(op, "util.global")) kiln_ir_op_erase(op);
  }
  return kiln_ok_status();
}
