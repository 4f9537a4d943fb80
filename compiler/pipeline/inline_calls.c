// func.call inlining. See inline_calls.h.
#include "compiler/pipeline/inline_calls.h"

#include <string.h>

#include "compiler/ir/builder.h"

#define KILN_INLINE_MAX_ROUNDS 32

static bool kiln_inline_is_call(const kiln_ir_op_t* op, void* user_data) {
  (void)user_data;
  return kiln_ir_op_is(op, "func.call");
}

// The func.func of |module| named |name|, or NULL.
static kiln_ir_op_t* kiln_inline_find(kiln_ir_op_t* module,
                                      kiln_string_view_t name) {
  kiln_ir_block_t* body =
      module->num_regions ? module->regions[0].first_block : NULL;
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "func.func")) continue;
    const kiln_ir_attribute_t* sym = kiln_ir_op_get_attr(op, "sym_name");
    if (sym && sym->kind == KILN_IR_ATTR_STRING &&
        kiln_string_view_equal(sym->str, name)) {
      return op;
    }
  }
  return NULL;
}

// Replaces |op| by `cf.br ^dest(regular operands of op)`.
static kiln_status_t kiln_inline_replace_by_br(kiln_ir_context_t* ctx,
                                               kiln_ir_op_t* op,
                                               kiln_ir_block_t* dest) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  kiln_ir_value_t** values =
      kiln_ir_arena_alloc(ctx, (n ? n : 1) * sizeof(*values));
  if (!values) return kiln_ir_context_take_error(ctx);
  for (uint32_t i = 0; i < n; ++i) values[i] = kiln_ir_op_operand(op, i);
  kiln_ir_builder_t builder = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_before(&builder, op);
  builder.location = op->location;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_br(&builder, dest, n, values));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// Inlines a callee of several blocks: the caller's block is split after
// |call|, the callee's blocks are cloned in between, the call becomes a
// branch to the cloned entry and every func.return a branch to the
// continuation, whose arguments are the call's results. Region lowering
// and host control flow take it from there.
static kiln_status_t kiln_inline_blocks(kiln_ir_context_t* ctx,
                                        kiln_ir_op_t* call,
                                        kiln_ir_region_t* callee) {
  for (kiln_ir_block_t* b = callee->first_block; b; b = b->next) {
    kiln_ir_op_t* term = b->last_op;
    if (term && kiln_ir_op_is(term, "func.return") &&
        kiln_ir_op_num_regular_operands(term) != call->num_results) {
      return kiln_ir_op_emit_error(call, ctx,
                                   "expects %u results but a return of the "
                                   "callee has %u",
                                   call->num_results,
                                   kiln_ir_op_num_regular_operands(term));
    }
  }
  kiln_ir_block_t* cont = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_split_after(ctx, call, &cont));
  kiln_ir_region_t* copy = NULL;
  kiln_ir_mapping_t* mapping = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &copy));
  KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(ctx, &mapping));
  KILN_RETURN_IF_ERROR(kiln_ir_region_clone_into(ctx, callee, copy, mapping));
  kiln_ir_block_t* entry = copy->first_block;
  kiln_ir_block_t* anchor = call->parent_block;
  for (kiln_ir_block_t* b = entry; b;) {
    kiln_ir_block_t* next = b->next;
    kiln_ir_block_remove(b);
    kiln_ir_region_insert_block_after(b, anchor);
    anchor = b;
    kiln_ir_op_t* term = b->last_op;
    if (term && kiln_ir_op_is(term, "func.return")) {
      KILN_RETURN_IF_ERROR(kiln_inline_replace_by_br(ctx, term, cont));
    }
    b = next;
  }
  return kiln_inline_replace_by_br(ctx, call, entry);
}

// Inlines |call| when its callee has a body (*out_inlined); calls to
// declarations are left alone (the host reports them).
static kiln_status_t kiln_inline_one(kiln_ir_context_t* ctx,
                                     kiln_ir_op_t* module, kiln_ir_op_t* call,
                                     bool* out_inlined) {
  *out_inlined = false;
  const kiln_ir_attribute_t* callee = kiln_ir_op_get_attr(call, "callee");
  if (!callee || callee->kind != KILN_IR_ATTR_SYMBOL_REF ||
      callee->symbol.num_nested != 0) {
    return kiln_ir_op_emit_error(call, ctx, "needs a flat callee symbol");
  }
  kiln_ir_op_t* func = kiln_inline_find(module, callee->symbol.root);
  kiln_ir_block_t* body =
      func && func->num_regions ? func->regions[0].first_block : NULL;
  if (!body) return kiln_ok_status();
  kiln_ir_op_t* ret = body->last_op;
  uint32_t n = kiln_ir_op_num_regular_operands(call);
  if (n != body->num_args) {
    return kiln_ir_op_emit_error(
        call, ctx, "does not match the signature of '@%.*s'",
        (int)callee->symbol.root.size, callee->symbol.root.data);
  }
  if (body->next || !ret || !kiln_ir_op_is(ret, "func.return")) {
    KILN_RETURN_IF_ERROR(kiln_inline_blocks(ctx, call, &func->regions[0]));
    *out_inlined = true;
    return kiln_ok_status();
  }
  if (kiln_ir_op_num_regular_operands(ret) != call->num_results) {
    return kiln_ir_op_emit_error(
        call, ctx, "does not match the signature of '@%.*s'",
        (int)callee->symbol.root.size, callee->symbol.root.data);
  }
  kiln_ir_mapping_t* mapping = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(ctx, &mapping));
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_mapping_map_value(mapping, body->args[i],
                              kiln_ir_op_operand(call, i));
  }
  for (kiln_ir_op_t* op = body->first_op; op != ret; op = op->next) {
    kiln_ir_op_t* clone = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_op_clone(ctx, op, mapping, &clone));
    kiln_ir_op_insert_before(clone, call);
  }
  for (uint32_t i = 0; i < call->num_results; ++i) {
    kiln_ir_value_replace_all_uses_with(
        kiln_ir_op_result(call, i),
        kiln_ir_mapping_lookup_value(mapping, kiln_ir_op_operand(ret, i)));
  }
  kiln_ir_op_erase(call);
  *out_inlined = true;
  return kiln_ok_status();
}

kiln_status_t kiln_inline_calls(kiln_ir_context_t* context,
                                kiln_ir_op_t* module) {
  for (int round = 0;; ++round) {
    kiln_ir_op_t** calls = NULL;
    size_t num_calls = 0;
    KILN_RETURN_IF_ERROR(
        kiln_ir_collect_ops(context, module, KILN_IR_WALK_PRE_ORDER,
                            kiln_inline_is_call, NULL, &calls, &num_calls));
    if (round == KILN_INLINE_MAX_ROUNDS) {
      // Still inlining after this many rounds: recursion (or absurd depth).
      for (size_t i = 0; i < num_calls; ++i) {
        const kiln_ir_attribute_t* callee =
            kiln_ir_op_get_attr(calls[i], "callee");
        kiln_ir_op_t* func = callee && callee->kind == KILN_IR_ATTR_SYMBOL_REF
                                 ? kiln_inline_find(module, callee->symbol.root)
                                 : NULL;
        if (func && func->num_regions && func->regions[0].first_block) {
          return kiln_ir_op_emit_error(
              calls[i], context,
              "calls nest more than %d deep (recursion is not supported)",
              KILN_INLINE_MAX_ROUNDS);
        }
      }
    }
    bool any = false;
    for (size_t i = 0; i < num_calls; ++i) {
      bool inlined = false;
      KILN_RETURN_IF_ERROR(
          kiln_inline_one(context, module, calls[i], &inlined));
      any |= inlined;
    }
    if (!any) {
      // Private functions were only reachable through calls, all inlined
      // now: drop them (their signatures need not suit an export).
      if (round == 0) return kiln_ok_status();
      kiln_ir_block_t* body =
          module->num_regions ? module->regions[0].first_block : NULL;
      kiln_ir_op_t* next = NULL;
      for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = next) {
        next = op->next;
        const kiln_ir_attribute_t* vis =
            kiln_ir_op_get_attr(op, "sym_visibility");
        if (kiln_ir_op_is(op, "func.func") && op->num_regions &&
            op->regions[0].first_block && vis &&
            vis->kind == KILN_IR_ATTR_STRING &&
            kiln_string_view_equal_cstr(vis->str, "private")) {
          kiln_ir_op_erase(op);
        }
      }
      return kiln_ok_status();
    }
  }
}
