// Region control flow -> cf host blocks. See lower_region_cf.h.
#include "compiler/pipeline/lower_region_cf.h"

#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"

static bool kiln_rcf_is_control(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "stablehlo.while") ||
         kiln_ir_op_is(op, "stablehlo.if") ||
         kiln_ir_op_is(op, "stablehlo.case") ||
         kiln_ir_op_is(op, "tosa.while_loop") ||
         kiln_ir_op_is(op, "tosa.cond_if");
}

static bool kiln_rcf_match_control(const kiln_ir_op_t* op, void* user_data) {
  (void)user_data;
  return kiln_rcf_is_control(op);
}

// cf.cond_br at |b|.
static kiln_status_t kiln_rcf_cond_br(kiln_ir_builder_t* b,
                                      kiln_ir_value_t* pred, kiln_ir_block_t* t,
                                      size_t tn, kiln_ir_value_t* const* targs,
                                      kiln_ir_block_t* f, size_t fn,
                                      kiln_ir_value_t* const* fargs) {
  kiln_ir_context_t* ctx = b->context;
  // A rank-0 tensor<i1> predicate is read back on the host.
  if (kiln_ir_type_is_shaped(pred->type)) {
    const kiln_ir_type_t* i1 = kiln_ir_int_type(ctx, 1);
    kiln_ir_op_t* ex = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        b, "tensor.extract", 1, &pred, 1, &i1, 0, NULL, &ex));
    pred = kiln_ir_op_result(ex, 0);
  }
  kiln_ir_op_state_t st;
  kiln_ir_op_state_init(ctx, &st, "cf.cond_br", b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &st, pred));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_successor(ctx, &st, t, tn, targs));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_successor(ctx, &st, f, fn, fargs));
  kiln_ir_op_t* op = NULL;
  return kiln_ir_builder_create(b, &st, &op);
}

static bool kiln_rcf_is_return(const kiln_ir_op_t* op) {
  return op && (kiln_ir_op_is(op, "stablehlo.return") ||
                kiln_ir_op_is(op, "tosa.yield"));
}

// Moves the blocks of |region| after |anchor| (in order); returns the
// entry block and the last moved block.
static kiln_ir_block_t* kiln_rcf_inline_region(kiln_ir_region_t* region,
                                               kiln_ir_block_t** anchor) {
  kiln_ir_block_t* entry = region->first_block;
  kiln_ir_block_t* block = entry;
  while (block) {
    kiln_ir_block_t* next = block->next;
    kiln_ir_block_remove(block);
    kiln_ir_region_insert_block_after(block, *anchor);
    *anchor = block;
    block = next;
  }
  return entry;
}

// Every return of the blocks [first, last] -> cf.br ^dest(values), or,
// for a while condition (|cond_true| set), cf.cond_br %v, ^cond_true(args),
// ^dest(args) with |args| the condition's entry arguments.
static kiln_status_t kiln_rcf_rewrite_returns(kiln_ir_context_t* ctx,
                                              kiln_ir_block_t* first,
                                              kiln_ir_block_t* last,
                                              kiln_ir_block_t* dest,
                                              kiln_ir_block_t* cond_true) {
  for (kiln_ir_block_t* block = first; block; block = block->next) {
    kiln_ir_op_t* ret = block->last_op;
    if (kiln_rcf_is_return(ret)) {
      kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
      kiln_ir_builder_set_before(&b, ret);
      b.location = ret->location;
      uint32_t n = kiln_ir_op_num_regular_operands(ret);
      kiln_ir_value_t* vals[64];
      if (n > 64) return kiln_ir_op_emit_error(ret, ctx, "too many values");
      for (uint32_t i = 0; i < n; ++i) vals[i] = kiln_ir_op_operand(ret, i);
      if (cond_true) {
        if (n != 1) {
          return kiln_ir_op_emit_error(ret, ctx,
                                       "a while condition must return one "
                                       "tensor<i1>");
        }
        kiln_ir_block_t* entry = first;
        KILN_RETURN_IF_ERROR(
            kiln_rcf_cond_br(&b, vals[0], cond_true, entry->num_args,
                             entry->args, dest, entry->num_args, entry->args));
      } else {
        KILN_RETURN_IF_ERROR(kiln_ir_builder_create_br(&b, dest, n, vals));
      }
      kiln_ir_op_erase(ret);
    }
    if (block == last) break;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_rcf_lower(kiln_ir_context_t* ctx, kiln_ir_op_t* op) {
  kiln_ir_block_t* block = op->parent_block;
  // Directly in a function body, or in a region of another control op
  // (lowered after this one, innermost first).
  kiln_ir_op_t* owner =
      block && block->parent_region ? block->parent_region->parent_op : NULL;
  while (owner && kiln_rcf_is_control(owner)) {
    owner = owner->parent_block && owner->parent_block->parent_region
                ? owner->parent_block->parent_region->parent_op
                : NULL;
  }
  if (!owner || !kiln_ir_op_is(owner, "func.func")) {
    return kiln_ir_op_emit_error(
        op, ctx, "is only supported in a function body (host control flow)");
  }
  kiln_ir_block_t* cont = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_split_after(ctx, op, &cont));
  kiln_ir_builder_t b = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_to_end(&b, block);
  b.location = op->location;
  kiln_ir_block_t* anchor = block;
  uint32_t nops = kiln_ir_op_num_regular_operands(op);
  kiln_ir_value_t* operands[64];
  if (nops > 64) return kiln_ir_op_emit_error(op, ctx, "too many operands");
  for (uint32_t i = 0; i < nops; ++i) operands[i] = kiln_ir_op_operand(op, i);
  bool is_while = kiln_ir_op_is(op, "stablehlo.while") ||
                  kiln_ir_op_is(op, "tosa.while_loop");
  if (is_while) {
    if (op->num_regions != 2) {
      return kiln_ir_op_emit_error(op, ctx, "expects cond and body regions");
    }
    kiln_ir_region_t* cond = kiln_ir_op_region(op, 0);
    kiln_ir_region_t* body = kiln_ir_op_region(op, 1);
    if (kiln_ir_region_empty(cond) || kiln_ir_region_empty(body) ||
        cond->first_block->num_args != nops ||
        body->first_block->num_args != nops) {
      return kiln_ir_op_emit_error(
          op, ctx, "cond and body must take one argument per operand");
    }
    kiln_ir_block_t* cond_first = cond->first_block;
    kiln_ir_block_t* cond_entry = kiln_rcf_inline_region(cond, &anchor);
    kiln_ir_block_t* cond_last = anchor;
    kiln_ir_block_t* body_first = body->first_block;
    kiln_ir_block_t* body_entry = kiln_rcf_inline_region(body, &anchor);
    kiln_ir_block_t* body_last = anchor;
    KILN_RETURN_IF_ERROR(
        kiln_ir_builder_create_br(&b, cond_entry, nops, operands));
    KILN_RETURN_IF_ERROR(
        kiln_rcf_rewrite_returns(ctx, cond_first, cond_last, cont, body_entry));
    KILN_RETURN_IF_ERROR(
        kiln_rcf_rewrite_returns(ctx, body_first, body_last, cond_entry, NULL));
  } else if (kiln_ir_op_is(op, "stablehlo.if") ||
             kiln_ir_op_is(op, "tosa.cond_if")) {
    if (op->num_regions != 2 || nops < 1) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "expects a predicate and then/else regions");
    }
    kiln_ir_block_t* entries[2];
    for (uint32_t r = 0; r < 2; ++r) {
      kiln_ir_region_t* region = kiln_ir_op_region(op, r);
      if (kiln_ir_region_empty(region)) {
        return kiln_ir_op_emit_error(op, ctx, "empty branch region");
      }
      // tosa.cond_if regions may take the remaining operands as arguments.
      uint32_t nargs = region->first_block->num_args;
      if (nargs != 0 && nargs != nops - 1) {
        return kiln_ir_op_emit_error(
            op, ctx, "branch regions take no arguments or the inputs");
      }
      kiln_ir_block_t* first = region->first_block;
      // The inputs dominate the branches: use them directly (no copies).
      for (uint32_t i = nargs; i > 0; --i) {
        kiln_ir_value_replace_all_uses_with(first->args[i - 1], operands[i]);
        kiln_ir_block_erase_arg(first, i - 1);
      }
      entries[r] = kiln_rcf_inline_region(region, &anchor);
      KILN_RETURN_IF_ERROR(
          kiln_rcf_rewrite_returns(ctx, first, anchor, cont, NULL));
    }
    size_t n0 = entries[0]->num_args, n1 = entries[1]->num_args;
    KILN_RETURN_IF_ERROR(kiln_rcf_cond_br(&b, operands[0], entries[0], n0,
                                          operands + 1, entries[1], n1,
                                          operands + 1));
  } else {  // stablehlo.case
    uint32_t n = op->num_regions;
    if (n < 1 || nops != 1) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "expects an index and one region or more");
    }
    kiln_ir_block_t* entries[256];
    if (n > 256) return kiln_ir_op_emit_error(op, ctx, "too many branches");
    for (uint32_t r = 0; r < n; ++r) {
      kiln_ir_region_t* region = kiln_ir_op_region(op, r);
      if (kiln_ir_region_empty(region) || region->first_block->num_args != 0) {
        return kiln_ir_op_emit_error(
            op, ctx, "branch regions must be non-empty and take no arguments");
      }
      kiln_ir_block_t* first = region->first_block;
      entries[r] = kiln_rcf_inline_region(region, &anchor);
      KILN_RETURN_IF_ERROR(
          kiln_rcf_rewrite_returns(ctx, first, anchor, cont, NULL));
    }
    // index == r ? ^branch_r : (test r + 1); the last branch is the default.
    kiln_ir_value_t* index = operands[0];
    const kiln_ir_type_t* it = index->type;
    const kiln_ir_type_t* bt =
        kiln_ir_tensor_type_get(ctx, 0, NULL, kiln_ir_int_type(ctx, 1), NULL);
    kiln_ir_block_t* test_block = block;
    for (uint32_t r = 0; r + 1 < n; ++r) {
      kiln_ir_builder_set_to_end(&b, test_block);
      int32_t value = (int32_t)r;
      kiln_ir_named_attribute_t cattr =
          kiln_ir_named_attr(ctx, "value",
                             kiln_ir_dense_elements_attr_get(
                                 ctx, it, true, &value, sizeof(value)));
      kiln_ir_op_t* c = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
          &b, "arith.constant", 0, NULL, 1, &it, 1, &cattr, &c));
      kiln_ir_value_t* args[2] = {index, kiln_ir_op_result(c, 0)};
      kiln_ir_named_attribute_t dir = kiln_ir_named_attr(
          ctx, "comparison_direction",
          kiln_ir_string_attr_get(ctx, kiln_make_cstring_view("EQ")));
      kiln_ir_op_t* cmp = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
          &b, "stablehlo.compare", 2, args, 1, &bt, 1, &dir, &cmp));
      kiln_ir_block_t* next = entries[r + 1];
      if (r + 2 < n) {
        KILN_RETURN_IF_ERROR(kiln_ir_block_create(ctx, &next));
        kiln_ir_region_insert_block_after(next, test_block);
      }
      KILN_RETURN_IF_ERROR(kiln_rcf_cond_br(
          &b, kiln_ir_op_result(cmp, 0), entries[r], 0, NULL, next, 0, NULL));
      test_block = next;
    }
    if (n == 1)
      KILN_RETURN_IF_ERROR(kiln_ir_builder_create_br(&b, entries[0], 0, NULL));
  }
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// flow.dispatch.region: its body's ops move before it and its results
// become the flow.return operands (kiln forms its own dispatches).
static bool kiln_rcf_match_flow_region(const kiln_ir_op_t* op,
                                       void* user_data) {
  (void)user_data;
  return kiln_ir_op_is(op, "flow.dispatch.region");
}

static void kiln_rcf_inline_flow_region(kiln_ir_op_t* op) {
  kiln_ir_block_t* body = op->regions[0].first_block;
  kiln_ir_op_t* ret = body->last_op;
  for (kiln_ir_op_t* inner = body->first_op; inner && inner != ret;) {
    kiln_ir_op_t* next = inner->next;
    kiln_ir_op_remove(inner);
    kiln_ir_op_insert_before(inner, op);
    inner = next;
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    kiln_ir_value_replace_all_uses_with(&op->results[i],
                                        kiln_ir_op_operand(ret, i));
  }
  kiln_ir_op_erase(op);
}

kiln_status_t kiln_lower_region_control_flow(kiln_ir_context_t* context,
                                             kiln_ir_op_t* module) {
  kiln_ir_op_t** ops = NULL;
  size_t count = 0;
  KILN_RETURN_IF_ERROR(
      kiln_ir_collect_ops(context, module, KILN_IR_WALK_POST_ORDER,
                          kiln_rcf_match_flow_region, NULL, &ops, &count));
  for (size_t i = 0; i < count; ++i) kiln_rcf_inline_flow_region(ops[i]);
  KILN_RETURN_IF_ERROR(
      kiln_ir_collect_ops(context, module, KILN_IR_WALK_POST_ORDER,
                          kiln_rcf_match_control, NULL, &ops, &count));
  for (size_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_rcf_lower(context, ops[i]));
  }
  return kiln_ok_status();
}
