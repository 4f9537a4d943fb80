#include "compiler/ir/verifier.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"

typedef struct kiln_ir_verifier_t {
  kiln_ir_context_t* context;
  size_t errors;
  // Set of ops visited so far (pre-order), for dominance within blocks.
  size_t capacity;
  size_t count;
  const void** keys;
  bool oom;
} kiln_ir_verifier_t;

static void kiln_ir_verifier_mark(kiln_ir_verifier_t* v, const void* key) {
  if ((v->count + 1) * 2 > v->capacity) {
    size_t cap = v->capacity ? v->capacity * 2 : 1024;
    const void** keys = (const void**)calloc(cap, sizeof(void*));
    if (!keys) {
      v->oom = true;
      return;
    }
    for (size_t i = 0; i < v->capacity; ++i) {
      if (!v->keys[i]) continue;
      size_t j = ((uintptr_t)v->keys[i] >> 4) & (cap - 1);
      while (keys[j]) j = (j + 1) & (cap - 1);
      keys[j] = v->keys[i];
    }
    free(v->keys);
    v->keys = keys;
    v->capacity = cap;
  }
  size_t j = ((uintptr_t)key >> 4) & (v->capacity - 1);
  while (v->keys[j] && v->keys[j] != key) j = (j + 1) & (v->capacity - 1);
  if (!v->keys[j]) {
    v->keys[j] = key;
    ++v->count;
  }
}

static bool kiln_ir_verifier_seen(const kiln_ir_verifier_t* v,
                                  const void* key) {
  if (!v->capacity) return false;
  size_t j = ((uintptr_t)key >> 4) & (v->capacity - 1);
  while (v->keys[j]) {
    if (v->keys[j] == key) return true;
    j = (j + 1) & (v->capacity - 1);
  }
  return false;
}

static void kiln_ir_verifier_fail(kiln_ir_verifier_t* v, kiln_status_t st) {
  if (st) {
    ++v->errors;
    kiln_status_free(st);
  }
}

static bool kiln_ir_is_isolated(const kiln_ir_op_t* op) {
  return kiln_ir_op_has_trait(op, KILN_IR_TRAIT_ISOLATED_FROM_ABOVE);
}

// Checks that |value| is visible from |user| (defined in an enclosing block
// before the use, not across an isolated-from-above boundary).
static void kiln_ir_verify_operand(kiln_ir_verifier_t* v, kiln_ir_op_t* user,
                                   uint32_t index, kiln_ir_value_t* value) {
  kiln_ir_context_t* c = v->context;
  if (!value) {
    kiln_ir_verifier_fail(
        v, kiln_ir_op_emit_error(user, c, "operand #%u is null", index));
    return;
  }
  kiln_ir_block_t* def_block = kiln_ir_value_parent_block(value);
  if (!def_block) {
    kiln_ir_verifier_fail(
        v, kiln_ir_op_emit_error(user, c,
                                 "operand #%u uses a value whose definition "
                                 "was erased or is detached",
                                 index));
    return;
  }
  // Walk up from the user to the block that holds the definition.
  kiln_ir_op_t* anchor = user;
  while (anchor && anchor->parent_block != def_block) {
    kiln_ir_op_t* parent = kiln_ir_op_parent_op(anchor);
    if (parent && kiln_ir_is_isolated(parent) &&
        parent->parent_block != def_block &&
        !(value->kind == KILN_IR_VALUE_BLOCK_ARG &&
          kiln_ir_block_parent_op(def_block) == parent)) {
      // The definition is outside the isolated op.
      if (!kiln_ir_op_is_ancestor(parent,
                                  value->kind == KILN_IR_VALUE_RESULT
                                      ? value->defining_op
                                      : kiln_ir_block_parent_op(def_block))) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(
                   user, c,
                   "operand #%u uses a value defined outside the isolated "
                   "region of '%.*s'",
                   index, KILN_SV_ARG(parent->name)));
        return;
      }
    }
    if (anchor->parent_block && value->kind == KILN_IR_VALUE_BLOCK_ARG &&
        anchor->parent_block == def_block) {
      break;
    }
    anchor = parent;
  }
  if (!anchor) {
    // Different block (maybe of the same region): CFG dominance is not
    // computed; accept when the definition shares a region with an
    // enclosing block of the user.
    kiln_ir_region_t* def_region = def_block->parent_region;
    for (kiln_ir_op_t* o = user; o; o = kiln_ir_op_parent_op(o)) {
      if (kiln_ir_op_parent_region(o) == def_region) return;
    }
    kiln_ir_verifier_fail(
        v, kiln_ir_op_emit_error(
               user, c, "operand #%u does not dominate this use", index));
    return;
  }
  if (value->kind == KILN_IR_VALUE_RESULT) {
    if (value->defining_op == anchor ||
        !kiln_ir_verifier_seen(v, value->defining_op)) {
      kiln_ir_verifier_fail(
          v, kiln_ir_op_emit_error(
                 user, c, "operand #%u does not dominate this use", index));
    }
  }
}

static void kiln_ir_verify_op(kiln_ir_verifier_t* v, kiln_ir_op_t* op);

static void kiln_ir_verify_region(kiln_ir_verifier_t* v, kiln_ir_op_t* op,
                                  kiln_ir_region_t* region) {
  kiln_ir_context_t* c = v->context;
  bool need_terminator =
      op->def && !(op->def->traits & KILN_IR_TRAIT_NO_TERMINATOR);
  if (op->def && (op->def->traits & KILN_IR_TRAIT_SINGLE_BLOCK) &&
      kiln_ir_region_num_blocks(region) > 1) {
    kiln_ir_verifier_fail(
        v, kiln_ir_op_emit_error(op, c, "expects a single-block region"));
  }
  for (kiln_ir_block_t* b = region->first_block; b; b = b->next) {
    if (b->parent_region != region) {
      kiln_ir_verifier_fail(
          v, kiln_ir_op_emit_error(op, c, "block has a wrong parent region"));
    }
    for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
      if (o->parent_block != b) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(o, c, "op has a wrong parent block"));
      }
      if (o->next && kiln_ir_op_has_trait(o, KILN_IR_TRAIT_TERMINATOR)) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(
                   o, c, "must be the last operation in the parent block"));
      }
      kiln_ir_verify_op(v, o);
    }
    if (need_terminator) {
      kiln_ir_op_t* last = b->last_op;
      if (!last) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(op, c,
                                     "empty block: expect at least a "
                                     "terminator"));
      } else if (last->def && !(last->def->traits & KILN_IR_TRAIT_TERMINATOR)) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(last, c,
                                     "block with no terminator: the last op "
                                     "of a region of '%.*s' must be a "
                                     "terminator",
                                     KILN_SV_ARG(op->name)));
      }
    }
  }
}

static void kiln_ir_verify_count(kiln_ir_verifier_t* v, kiln_ir_op_t* op,
                                 int32_t expected, uint32_t actual,
                                 const char* what) {
  if (expected == KILN_IR_VARIADIC || (uint32_t)expected == actual) return;
  kiln_ir_verifier_fail(
      v, kiln_ir_op_emit_error(op, v->context, "requires %d %s but found %u",
                               expected, what, actual));
}

static void kiln_ir_verify_op(kiln_ir_verifier_t* v, kiln_ir_op_t* op) {
  kiln_ir_context_t* c = v->context;
  size_t errors_before = v->errors;
  if (!op->def) {
    op->def = kiln_ir_lookup_op(c, op->name);
  }
  if (!op->def && !kiln_ir_context_allow_unregistered_ops(c)) {
    kiln_ir_verifier_fail(
        v, kiln_ir_emit_error(c, op->location,
                              "unregistered operation '%.*s' found in "
                              "known-op-only mode",
                              KILN_SV_ARG(op->name)));
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    if (op->operands[i].owner != op || op->operands[i].index != i) {
      kiln_ir_verifier_fail(
          v,
          kiln_ir_op_emit_error(op, c, "corrupt use list at operand #%u", i));
    }
    kiln_ir_verify_operand(v, op, i, op->operands[i].value);
  }
  for (uint32_t i = 0; i < op->num_successors; ++i) {
    kiln_ir_block_t* s = op->successors[i].block;
    if (!s || !op->parent_block ||
        s->parent_region != op->parent_block->parent_region) {
      kiln_ir_verifier_fail(
          v, kiln_ir_op_emit_error(op, c,
                                   "successor #%u is not a block of the same "
                                   "region",
                                   i));
      continue;
    }
    if (s->num_args != op->successors[i].num_operands) {
      kiln_ir_verifier_fail(
          v, kiln_ir_op_emit_error(
                 op, c, "successor #%u expects %u operands but %u were passed",
                 i, s->num_args, op->successors[i].num_operands));
      continue;
    }
    for (uint32_t k = 0; k < s->num_args; ++k) {
      kiln_ir_value_t* val =
          op->operands[op->successors[i].operand_start + k].value;
      if (val && val->type != s->args[k]->type) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(op, c,
                                     "type mismatch for successor #%u "
                                     "operand #%u",
                                     i, k));
      }
    }
  }
  if (op->def) {
    kiln_ir_verify_count(v, op, op->def->num_operands,
                         kiln_ir_op_num_regular_operands(op), "operands");
    kiln_ir_verify_count(v, op, op->def->num_results, op->num_results,
                         "results");
    kiln_ir_verify_count(v, op, op->def->num_regions, op->num_regions,
                         "regions");
    kiln_ir_verify_count(v, op, op->def->num_successors, op->num_successors,
                         "successors");
    if ((op->def->traits & KILN_IR_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE)) {
      const kiln_ir_type_t* t = NULL;
      bool ok = true;
      for (uint32_t i = 0; i < op->num_operands; ++i) {
        kiln_ir_value_t* val = op->operands[i].value;
        if (!val) continue;
        if (t && val->type != t) ok = false;
        t = val->type;
      }
      for (uint32_t i = 0; i < op->num_results; ++i) {
        if (t && op->results[i].type != t) ok = false;
        t = op->results[i].type;
      }
      if (!ok) {
        kiln_ir_verifier_fail(
            v, kiln_ir_op_emit_error(op, c,
                                     "requires the same type for all "
                                     "operands and results"));
      }
    }
  }
  kiln_ir_verifier_mark(v, op);
  for (uint32_t i = 0; i < op->num_regions; ++i) {
    kiln_ir_verify_region(v, op, &op->regions[i]);
  }
  // Run the op hook only when the structure is sound.
  if (op->def && op->def->verify && v->errors == errors_before) {
    kiln_ir_verifier_fail(v, op->def->verify(c, op));
  }
}

kiln_status_t kiln_ir_verify(kiln_ir_context_t* context, kiln_ir_op_t* op) {
  kiln_ir_verifier_t v;
  memset(&v, 0, sizeof(v));
  v.context = context;
  kiln_ir_verify_op(&v, op);
  free(v.keys);
  if (v.oom) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory while verifying");
  }
  if (v.errors) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%zu verification error(s)", v.errors);
  }
  return kiln_ok_status();
}
