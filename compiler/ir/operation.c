#include "compiler/ir/operation.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/ir/context_internal.h"
#include "compiler/ir/op_registry.h"

//===----------------------------------------------------------------------===//
// Uses
//===----------------------------------------------------------------------===//

static void kiln_ir_use_link(kiln_ir_use_t* use, kiln_ir_value_t* value) {
  use->value = value;
  use->prev_use = NULL;
  use->next_use = NULL;
  if (!value) return;
  use->next_use = value->first_use;
  if (value->first_use) value->first_use->prev_use = use;
  value->first_use = use;
}

static void kiln_ir_use_unlink(kiln_ir_use_t* use) {
  if (!use->value) return;
  if (use->prev_use) {
    use->prev_use->next_use = use->next_use;
  } else {
    use->value->first_use = use->next_use;
  }
  if (use->next_use) use->next_use->prev_use = use->prev_use;
  use->value = NULL;
  use->prev_use = use->next_use = NULL;
}

size_t kiln_ir_value_num_uses(const kiln_ir_value_t* value) {
  size_t n = 0;
  for (kiln_ir_use_t* u = value->first_use; u; u = u->next_use) ++n;
  return n;
}

void kiln_ir_value_replace_all_uses_with(kiln_ir_value_t* from,
                                         kiln_ir_value_t* to) {
  if (from == to) return;
  while (from->first_use) {
    kiln_ir_use_t* u = from->first_use;
    kiln_ir_use_unlink(u);
    kiln_ir_use_link(u, to);
  }
}

kiln_ir_block_t* kiln_ir_value_parent_block(const kiln_ir_value_t* value) {
  return value->kind == KILN_IR_VALUE_RESULT ? value->defining_op->parent_block
                                             : value->owner_block;
}

void kiln_ir_value_set_type(kiln_ir_value_t* value,
                            const kiln_ir_type_t* type) {
  value->type = type;
}

//===----------------------------------------------------------------------===//
// Op state
//===----------------------------------------------------------------------===//

// Grows |*array| of |elem| bytes per item so that |count|+1 fit.
static bool kiln_ir_grow(kiln_ir_context_t* c, void** array, size_t* capacity,
                         size_t count, size_t elem) {
  if (count < *capacity) return true;
  size_t cap = *capacity ? *capacity * 2 : 4;
  if (cap < count + 1) cap = count + 1;
  void* grown = kiln_ir_arena_alloc(c, cap * elem);
  if (!grown) return false;
  if (count) memcpy(grown, *array, count * elem);
  *array = grown;
  *capacity = cap;
  return true;
}

#define KILN_IR_OOM_STATUS() \
  kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "IR arena out of memory")

void kiln_ir_op_state_init(kiln_ir_context_t* c, kiln_ir_op_state_t* state,
                           const char* name,
                           const kiln_ir_location_t* location) {
  memset(state, 0, sizeof(*state));
  state->name = kiln_ir_intern_cstr(c, name);
  state->location = location;
}

kiln_status_t kiln_ir_op_state_add_operand(kiln_ir_context_t* c,
                                           kiln_ir_op_state_t* s,
                                           kiln_ir_value_t* value) {
  if (!kiln_ir_grow(c, (void**)&s->operands, &s->operand_capacity,
                    s->num_operands, sizeof(*s->operands))) {
    return KILN_IR_OOM_STATUS();
  }
  s->operands[s->num_operands++] = value;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_op_state_add_result_type(kiln_ir_context_t* c,
                                               kiln_ir_op_state_t* s,
                                               const kiln_ir_type_t* type) {
  if (!kiln_ir_grow(c, (void**)&s->result_types, &s->result_capacity,
                    s->num_result_types, sizeof(*s->result_types))) {
    return KILN_IR_OOM_STATUS();
  }
  s->result_types[s->num_result_types++] = type;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_op_state_add_named_attribute(
    kiln_ir_context_t* c, kiln_ir_op_state_t* s,
    kiln_ir_named_attribute_t attr) {
  attr.name = kiln_ir_intern(c, attr.name);
  for (size_t i = 0; i < s->num_attributes; ++i) {
    if (kiln_string_view_equal(s->attributes[i].name, attr.name)) {
      s->attributes[i] = attr;
      return kiln_ok_status();
    }
  }
  if (!kiln_ir_grow(c, (void**)&s->attributes, &s->attribute_capacity,
                    s->num_attributes, sizeof(*s->attributes))) {
    return KILN_IR_OOM_STATUS();
  }
  s->attributes[s->num_attributes++] = attr;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_op_state_add_attribute(kiln_ir_context_t* c,
                                             kiln_ir_op_state_t* s,
                                             const char* name,
                                             const kiln_ir_attribute_t* value) {
  kiln_ir_named_attribute_t a = {kiln_make_cstring_view(name), value, false};
  return kiln_ir_op_state_add_named_attribute(c, s, a);
}

kiln_status_t kiln_ir_op_state_add_successor(kiln_ir_context_t* c,
                                             kiln_ir_op_state_t* s,
                                             kiln_ir_block_t* block,
                                             size_t count,
                                             kiln_ir_value_t* const* operands) {
  size_t cap = s->successor_capacity;
  if (!kiln_ir_grow(c, (void**)&s->successors, &cap, s->num_successors,
                    sizeof(*s->successors))) {
    return KILN_IR_OOM_STATUS();
  }
  size_t cap2 = s->successor_capacity;
  if (!kiln_ir_grow(c, (void**)&s->successor_operand_counts, &cap2,
                    s->num_successors, sizeof(*s->successor_operand_counts))) {
    return KILN_IR_OOM_STATUS();
  }
  s->successor_capacity = cap < cap2 ? cap : cap2;
  s->successors[s->num_successors] = block;
  s->successor_operand_counts[s->num_successors] = (uint32_t)count;
  ++s->num_successors;
  for (size_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(c, s, operands[i]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_ir_op_state_add_region(kiln_ir_context_t* c,
                                          kiln_ir_op_state_t* s,
                                          kiln_ir_region_t* body) {
  if (!kiln_ir_grow(c, (void**)&s->region_bodies, &s->region_capacity,
                    s->num_regions, sizeof(*s->region_bodies))) {
    return KILN_IR_OOM_STATUS();
  }
  s->region_bodies[s->num_regions++] = body;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Op creation and accessors
//===----------------------------------------------------------------------===//

static int kiln_ir_attr_name_cmp(const void* a, const void* b) {
  return kiln_string_view_compare(((const kiln_ir_named_attribute_t*)a)->name,
                                  ((const kiln_ir_named_attribute_t*)b)->name);
}

kiln_status_t kiln_ir_op_create(kiln_ir_context_t* c,
                                const kiln_ir_op_state_t* s,
                                kiln_ir_op_t** out_op) {
  *out_op = NULL;
  kiln_ir_op_t* op = (kiln_ir_op_t*)kiln_ir_arena_alloc(c, sizeof(*op));
  if (!op) return KILN_IR_OOM_STATUS();
  op->name = kiln_ir_intern(c, s->name);
  op->def = kiln_ir_lookup_op(c, op->name);
  op->location = s->location ? s->location : kiln_ir_location_unknown(c);
  op->num_operands = (uint32_t)s->num_operands;
  op->operand_capacity = (uint32_t)s->num_operands;
  op->operands = (kiln_ir_use_t*)kiln_ir_arena_alloc(
      c, (s->num_operands + 1) * sizeof(kiln_ir_use_t));
  op->num_results = (uint32_t)s->num_result_types;
  op->results = (kiln_ir_value_t*)kiln_ir_arena_alloc(
      c, (s->num_result_types + 1) * sizeof(kiln_ir_value_t));
  op->num_attributes = (uint32_t)s->num_attributes;
  op->attribute_capacity = (uint32_t)s->num_attributes;
  op->attributes = (kiln_ir_named_attribute_t*)kiln_ir_arena_alloc(
      c, (s->num_attributes + 1) * sizeof(kiln_ir_named_attribute_t));
  op->num_successors = (uint32_t)s->num_successors;
  op->successors = (kiln_ir_successor_t*)kiln_ir_arena_alloc(
      c, (s->num_successors + 1) * sizeof(kiln_ir_successor_t));
  op->num_regions = (uint32_t)s->num_regions;
  op->regions = (kiln_ir_region_t*)kiln_ir_arena_alloc(
      c, (s->num_regions + 1) * sizeof(kiln_ir_region_t));
  if (!op->operands || !op->results || !op->attributes || !op->successors ||
      !op->regions) {
    return KILN_IR_OOM_STATUS();
  }
  for (size_t i = 0; i < s->num_operands; ++i) {
    op->operands[i].owner = op;
    op->operands[i].index = (uint32_t)i;
    kiln_ir_use_link(&op->operands[i], s->operands[i]);
  }
  for (size_t i = 0; i < s->num_result_types; ++i) {
    kiln_ir_value_t* r = &op->results[i];
    r->kind = KILN_IR_VALUE_RESULT;
    r->index = (uint32_t)i;
    r->type = s->result_types[i];
    r->defining_op = op;
  }
  for (size_t i = 0; i < s->num_attributes; ++i) {
    op->attributes[i] = s->attributes[i];
    op->attributes[i].name = kiln_ir_intern(c, s->attributes[i].name);
  }
  if (s->num_attributes > 1) {
    qsort(op->attributes, s->num_attributes, sizeof(*op->attributes),
          kiln_ir_attr_name_cmp);
  }
  size_t total_succ = 0;
  for (size_t i = 0; i < s->num_successors; ++i) {
    total_succ +=
        s->successor_operand_counts ? s->successor_operand_counts[i] : 0;
  }
  if (total_succ > s->num_operands) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "successor operand counts exceed operands");
  }
  uint32_t start = (uint32_t)(s->num_operands - total_succ);
  for (size_t i = 0; i < s->num_successors; ++i) {
    uint32_t n =
        s->successor_operand_counts ? s->successor_operand_counts[i] : 0;
    op->successors[i].block = s->successors[i];
    op->successors[i].operand_start = start;
    op->successors[i].num_operands = n;
    start += n;
  }
  for (size_t i = 0; i < s->num_regions; ++i) {
    op->regions[i].parent_op = op;
    if (s->region_bodies && s->region_bodies[i]) {
      kiln_ir_region_take_body(&op->regions[i], s->region_bodies[i]);
    }
  }
  *out_op = op;
  return kiln_ok_status();
}

bool kiln_ir_op_is(const kiln_ir_op_t* op, const char* name) {
  return op && kiln_string_view_equal_cstr(op->name, name);
}

kiln_string_view_t kiln_ir_op_dialect(const kiln_ir_op_t* op) {
  size_t dot = kiln_string_view_find_char(op->name, '.', 0);
  return dot == SIZE_MAX ? kiln_string_view_empty()
                         : kiln_string_view_substr(op->name, 0, dot);
}

uint32_t kiln_ir_op_num_regular_operands(const kiln_ir_op_t* op) {
  uint32_t n = op->num_operands;
  for (uint32_t i = 0; i < op->num_successors; ++i) {
    n -= op->successors[i].num_operands;
  }
  return n;
}

void kiln_ir_op_set_operand(kiln_ir_op_t* op, uint32_t i,
                            kiln_ir_value_t* value) {
  kiln_ir_use_unlink(&op->operands[i]);
  kiln_ir_use_link(&op->operands[i], value);
}

kiln_status_t kiln_ir_op_set_operands(kiln_ir_context_t* c, kiln_ir_op_t* op,
                                      size_t count,
                                      kiln_ir_value_t* const* values) {
  uint32_t regular = kiln_ir_op_num_regular_operands(op);
  uint32_t succ = op->num_operands - regular;
  size_t total = count + succ;
  kiln_ir_value_t** all =
      (kiln_ir_value_t**)kiln_ir_arena_alloc(c, (total + 1) * sizeof(*all));
  if (!all) return KILN_IR_OOM_STATUS();
  for (size_t i = 0; i < count; ++i) all[i] = values[i];
  for (uint32_t i = 0; i < succ; ++i) {
    all[count + i] = op->operands[regular + i].value;
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    kiln_ir_use_unlink(&op->operands[i]);
  }
  if (total > op->operand_capacity) {
    kiln_ir_use_t* uses = (kiln_ir_use_t*)kiln_ir_arena_alloc(
        c, (total + 1) * sizeof(kiln_ir_use_t));
    if (!uses) return KILN_IR_OOM_STATUS();
    op->operands = uses;
    op->operand_capacity = (uint32_t)total;
  }
  op->num_operands = (uint32_t)total;
  for (size_t i = 0; i < total; ++i) {
    op->operands[i].owner = op;
    op->operands[i].index = (uint32_t)i;
    kiln_ir_use_link(&op->operands[i], all[i]);
  }
  int32_t delta = (int32_t)count - (int32_t)regular;
  for (uint32_t i = 0; i < op->num_successors; ++i) {
    op->successors[i].operand_start =
        (uint32_t)((int32_t)op->successors[i].operand_start + delta);
  }
  return kiln_ok_status();
}

const kiln_ir_attribute_t* kiln_ir_op_get_attr(const kiln_ir_op_t* op,
                                               const char* name) {
  for (uint32_t i = 0; i < op->num_attributes; ++i) {
    if (kiln_string_view_equal_cstr(op->attributes[i].name, name)) {
      return op->attributes[i].value;
    }
  }
  return NULL;
}

kiln_status_t kiln_ir_op_set_attr(kiln_ir_context_t* c, kiln_ir_op_t* op,
                                  const char* name,
                                  const kiln_ir_attribute_t* value,
                                  bool is_property) {
  for (uint32_t i = 0; i < op->num_attributes; ++i) {
    if (kiln_string_view_equal_cstr(op->attributes[i].name, name)) {
      op->attributes[i].value = value;
      op->attributes[i].is_property = is_property;
      return kiln_ok_status();
    }
  }
  size_t cap = op->attribute_capacity;
  void* array = op->attributes;
  if (!kiln_ir_grow(c, &array, &cap, op->num_attributes,
                    sizeof(kiln_ir_named_attribute_t))) {
    return KILN_IR_OOM_STATUS();
  }
  op->attributes = (kiln_ir_named_attribute_t*)array;
  op->attribute_capacity = (uint32_t)cap;
  kiln_ir_named_attribute_t a = {kiln_ir_intern_cstr(c, name), value,
                                 is_property};
  op->attributes[op->num_attributes++] = a;
  qsort(op->attributes, op->num_attributes, sizeof(*op->attributes),
        kiln_ir_attr_name_cmp);
  return kiln_ok_status();
}

bool kiln_ir_op_remove_attr(kiln_ir_op_t* op, const char* name) {
  for (uint32_t i = 0; i < op->num_attributes; ++i) {
    if (kiln_string_view_equal_cstr(op->attributes[i].name, name)) {
      memmove(&op->attributes[i], &op->attributes[i + 1],
              (op->num_attributes - i - 1) * sizeof(*op->attributes));
      --op->num_attributes;
      return true;
    }
  }
  return false;
}

kiln_ir_op_t* kiln_ir_op_parent_op(const kiln_ir_op_t* op) {
  return op->parent_block ? kiln_ir_block_parent_op(op->parent_block) : NULL;
}

kiln_ir_region_t* kiln_ir_op_parent_region(const kiln_ir_op_t* op) {
  return op->parent_block ? op->parent_block->parent_region : NULL;
}

bool kiln_ir_op_is_ancestor(const kiln_ir_op_t* ancestor,
                            const kiln_ir_op_t* op) {
  for (const kiln_ir_op_t* o = op; o; o = kiln_ir_op_parent_op(o)) {
    if (o == ancestor) return true;
  }
  return false;
}

kiln_ir_op_t* kiln_ir_op_parent_of_name(kiln_ir_op_t* op, const char* name) {
  for (kiln_ir_op_t* o = op; o; o = kiln_ir_op_parent_op(o)) {
    if (kiln_ir_op_is(o, name)) return o;
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Op list manipulation
//===----------------------------------------------------------------------===//

static void kiln_ir_link_op(kiln_ir_block_t* block, kiln_ir_op_t* op,
                            kiln_ir_op_t* prev, kiln_ir_op_t* next) {
  op->parent_block = block;
  op->prev = prev;
  op->next = next;
  if (prev) {
    prev->next = op;
  } else {
    block->first_op = op;
  }
  if (next) {
    next->prev = op;
  } else {
    block->last_op = op;
  }
}

void kiln_ir_op_remove(kiln_ir_op_t* op) {
  kiln_ir_block_t* b = op->parent_block;
  if (!b) return;
  if (op->prev) {
    op->prev->next = op->next;
  } else {
    b->first_op = op->next;
  }
  if (op->next) {
    op->next->prev = op->prev;
  } else {
    b->last_op = op->prev;
  }
  op->prev = op->next = NULL;
  op->parent_block = NULL;
}

void kiln_ir_op_insert_before(kiln_ir_op_t* op, kiln_ir_op_t* anchor) {
  kiln_ir_op_remove(op);
  kiln_ir_link_op(anchor->parent_block, op, anchor->prev, anchor);
}

void kiln_ir_op_insert_after(kiln_ir_op_t* op, kiln_ir_op_t* anchor) {
  kiln_ir_op_remove(op);
  kiln_ir_link_op(anchor->parent_block, op, anchor, anchor->next);
}

void kiln_ir_block_append_op(kiln_ir_block_t* block, kiln_ir_op_t* op) {
  kiln_ir_op_remove(op);
  kiln_ir_link_op(block, op, block->last_op, NULL);
}

void kiln_ir_block_prepend_op(kiln_ir_block_t* block, kiln_ir_op_t* op) {
  kiln_ir_op_remove(op);
  kiln_ir_link_op(block, op, NULL, block->first_op);
}

void kiln_ir_op_move_before(kiln_ir_op_t* op, kiln_ir_op_t* anchor) {
  if (op != anchor) kiln_ir_op_insert_before(op, anchor);
}

void kiln_ir_op_move_after(kiln_ir_op_t* op, kiln_ir_op_t* anchor) {
  if (op != anchor) kiln_ir_op_insert_after(op, anchor);
}

void kiln_ir_op_drop_all_uses_made(kiln_ir_op_t* op) {
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    kiln_ir_use_unlink(&op->operands[i]);
  }
  for (uint32_t r = 0; r < op->num_regions; ++r) {
    for (kiln_ir_block_t* b = op->regions[r].first_block; b; b = b->next) {
      for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
        kiln_ir_op_drop_all_uses_made(o);
      }
    }
  }
}

void kiln_ir_op_erase(kiln_ir_op_t* op) {
  kiln_ir_op_drop_all_uses_made(op);
  kiln_ir_op_remove(op);
}

//===----------------------------------------------------------------------===//
// Blocks and regions
//===----------------------------------------------------------------------===//

kiln_status_t kiln_ir_block_create(kiln_ir_context_t* c,
                                   kiln_ir_block_t** out_block) {
  *out_block = (kiln_ir_block_t*)kiln_ir_arena_alloc(c, sizeof(**out_block));
  return *out_block ? kiln_ok_status() : KILN_IR_OOM_STATUS();
}

kiln_status_t kiln_ir_block_add_arg(kiln_ir_context_t* c,
                                    kiln_ir_block_t* block,
                                    const kiln_ir_type_t* type,
                                    const kiln_ir_location_t* location,
                                    kiln_ir_value_t** out_arg) {
  size_t cap = block->arg_capacity;
  void* array = block->args;
  if (!kiln_ir_grow(c, &array, &cap, block->num_args,
                    sizeof(kiln_ir_value_t*))) {
    return KILN_IR_OOM_STATUS();
  }
  block->args = (kiln_ir_value_t**)array;
  block->arg_capacity = (uint32_t)cap;
  kiln_ir_value_t* v = (kiln_ir_value_t*)kiln_ir_arena_alloc(c, sizeof(*v));
  if (!v) return KILN_IR_OOM_STATUS();
  v->kind = KILN_IR_VALUE_BLOCK_ARG;
  v->index = block->num_args;
  v->type = type;
  v->owner_block = block;
  v->location = location ? location : kiln_ir_location_unknown(c);
  block->args[block->num_args++] = v;
  if (out_arg) *out_arg = v;
  return kiln_ok_status();
}

void kiln_ir_block_erase_arg(kiln_ir_block_t* block, uint32_t index) {
  if (index >= block->num_args) return;
  memmove(&block->args[index], &block->args[index + 1],
          (block->num_args - index - 1) * sizeof(*block->args));
  --block->num_args;
  for (uint32_t i = index; i < block->num_args; ++i) block->args[i]->index = i;
}

kiln_ir_op_t* kiln_ir_block_terminator(kiln_ir_block_t* block) {
  kiln_ir_op_t* last = block->last_op;
  if (!last) return NULL;
  if (!last->def) return last;
  return (last->def->traits & KILN_IR_TRAIT_TERMINATOR) ? last : NULL;
}

kiln_ir_op_t* kiln_ir_block_parent_op(const kiln_ir_block_t* block) {
  return block->parent_region ? block->parent_region->parent_op : NULL;
}

kiln_status_t kiln_ir_region_create(kiln_ir_context_t* c,
                                    kiln_ir_region_t** out_region) {
  *out_region = (kiln_ir_region_t*)kiln_ir_arena_alloc(c, sizeof(**out_region));
  return *out_region ? kiln_ok_status() : KILN_IR_OOM_STATUS();
}

void kiln_ir_block_remove(kiln_ir_block_t* block) {
  kiln_ir_region_t* r = block->parent_region;
  if (!r) return;
  if (block->prev) {
    block->prev->next = block->next;
  } else {
    r->first_block = block->next;
  }
  if (block->next) {
    block->next->prev = block->prev;
  } else {
    r->last_block = block->prev;
  }
  block->prev = block->next = NULL;
  block->parent_region = NULL;
}

void kiln_ir_region_append_block(kiln_ir_region_t* region,
                                 kiln_ir_block_t* block) {
  kiln_ir_block_remove(block);
  block->parent_region = region;
  block->prev = region->last_block;
  block->next = NULL;
  if (region->last_block) {
    region->last_block->next = block;
  } else {
    region->first_block = block;
  }
  region->last_block = block;
}

void kiln_ir_region_insert_block_after(kiln_ir_block_t* block,
                                       kiln_ir_block_t* anchor) {
  kiln_ir_block_remove(block);
  kiln_ir_region_t* r = anchor->parent_region;
  block->parent_region = r;
  block->prev = anchor;
  block->next = anchor->next;
  if (anchor->next) {
    anchor->next->prev = block;
  } else {
    r->last_block = block;
  }
  anchor->next = block;
}

void kiln_ir_block_erase(kiln_ir_block_t* block) {
  for (kiln_ir_op_t* o = block->first_op; o; o = o->next) {
    kiln_ir_op_drop_all_uses_made(o);
  }
  kiln_ir_block_remove(block);
}

void kiln_ir_region_take_body(kiln_ir_region_t* to, kiln_ir_region_t* from) {
  while (from->first_block) {
    kiln_ir_region_append_block(to, from->first_block);
  }
}

size_t kiln_ir_region_num_blocks(const kiln_ir_region_t* region) {
  size_t n = 0;
  for (kiln_ir_block_t* b = region->first_block; b; b = b->next) ++n;
  return n;
}

size_t kiln_ir_block_index(const kiln_ir_block_t* block) {
  size_t n = 0;
  for (kiln_ir_block_t* b = block->prev; b; b = b->prev) ++n;
  return n;
}

//===----------------------------------------------------------------------===//
// Walk
//===----------------------------------------------------------------------===//

typedef struct kiln_ir_collect_t {
  kiln_ir_context_t* context;
  kiln_ir_op_match_fn_t match;
  void* user_data;
  kiln_ir_op_t** ops;
  size_t count, capacity;
  bool oom;
} kiln_ir_collect_t;

static kiln_ir_walk_result_t kiln_ir_collect_one(kiln_ir_op_t* op,
                                                 void* user_data) {
  kiln_ir_collect_t* c = user_data;
  if (c->match && !c->match(op, c->user_data)) return KILN_IR_WALK_ADVANCE;
  if (c->count == c->capacity) {
    size_t cap = c->capacity ? c->capacity * 2 : 16;
    kiln_ir_op_t** ops = kiln_ir_arena_alloc(c->context, cap * sizeof(*ops));
    if (!ops) {
      c->oom = true;
      return KILN_IR_WALK_INTERRUPT;
    }
    if (c->count) memcpy(ops, c->ops, c->count * sizeof(*ops));
    c->ops = ops;
    c->capacity = cap;
  }
  c->ops[c->count++] = op;
  return KILN_IR_WALK_ADVANCE;
}

kiln_status_t kiln_ir_collect_ops(kiln_ir_context_t* context,
                                  kiln_ir_op_t* root,
                                  kiln_ir_walk_order_t order,
                                  kiln_ir_op_match_fn_t match, void* user_data,
                                  kiln_ir_op_t*** out_ops, size_t* out_count) {
  kiln_ir_collect_t c = {context, match, user_data, NULL, 0, 0, false};
  kiln_ir_op_walk(root, order, kiln_ir_collect_one, &c);
  *out_ops = c.ops;
  *out_count = c.count;
  if (c.oom) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "collecting ops");
  }
  return kiln_ok_status();
}

kiln_ir_walk_result_t kiln_ir_op_walk(kiln_ir_op_t* op,
                                      kiln_ir_walk_order_t order,
                                      kiln_ir_walk_fn_t fn, void* user_data) {
  if (order == KILN_IR_WALK_PRE_ORDER) {
    kiln_ir_walk_result_t r = fn(op, user_data);
    if (r == KILN_IR_WALK_INTERRUPT) return r;
    if (r == KILN_IR_WALK_SKIP) return KILN_IR_WALK_ADVANCE;
  }
  for (uint32_t i = 0; i < op->num_regions; ++i) {
    kiln_ir_block_t* b = op->regions[i].first_block;
    while (b) {
      kiln_ir_block_t* next_block = b->next;
      kiln_ir_op_t* o = b->first_op;
      while (o) {
        kiln_ir_op_t* next = o->next;
        if (kiln_ir_op_walk(o, order, fn, user_data) ==
            KILN_IR_WALK_INTERRUPT) {
          return KILN_IR_WALK_INTERRUPT;
        }
        o = next;
      }
      b = next_block;
    }
  }
  if (order == KILN_IR_WALK_POST_ORDER) {
    kiln_ir_walk_result_t r = fn(op, user_data);
    if (r == KILN_IR_WALK_INTERRUPT) return r;
  }
  return KILN_IR_WALK_ADVANCE;
}

//===----------------------------------------------------------------------===//
// Mapping and clone
//===----------------------------------------------------------------------===//

struct kiln_ir_mapping_t {
  kiln_ir_context_t* context;
  size_t capacity;  // power of two
  size_t count;
  const void** keys;
  void** values;
};

kiln_status_t kiln_ir_mapping_create(kiln_ir_context_t* c,
                                     kiln_ir_mapping_t** out_mapping) {
  kiln_ir_mapping_t* m = (kiln_ir_mapping_t*)kiln_ir_arena_alloc(c, sizeof(*m));
  if (!m) return KILN_IR_OOM_STATUS();
  m->context = c;
  *out_mapping = m;
  return kiln_ok_status();
}

static size_t kiln_ir_ptr_hash(const void* p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

static void kiln_ir_mapping_put(kiln_ir_mapping_t* m, const void* key,
                                void* value) {
  if ((m->count + 1) * 2 > m->capacity) {
    size_t cap = m->capacity ? m->capacity * 2 : 32;
    const void** keys =
        (const void**)kiln_ir_arena_alloc(m->context, cap * sizeof(void*));
    void** values =
        (void**)kiln_ir_arena_alloc(m->context, cap * sizeof(void*));
    if (!keys || !values) return;
    for (size_t i = 0; i < m->capacity; ++i) {
      if (!m->keys[i]) continue;
      size_t j = kiln_ir_ptr_hash(m->keys[i]) & (cap - 1);
      while (keys[j]) j = (j + 1) & (cap - 1);
      keys[j] = m->keys[i];
      values[j] = m->values[i];
    }
    m->keys = keys;
    m->values = values;
    m->capacity = cap;
  }
  size_t j = kiln_ir_ptr_hash(key) & (m->capacity - 1);
  while (m->keys[j] && m->keys[j] != key) j = (j + 1) & (m->capacity - 1);
  if (!m->keys[j]) ++m->count;
  m->keys[j] = key;
  m->values[j] = value;
}

static void* kiln_ir_mapping_get(kiln_ir_mapping_t* m, const void* key) {
  if (!m || !m->capacity) return NULL;
  size_t j = kiln_ir_ptr_hash(key) & (m->capacity - 1);
  while (m->keys[j]) {
    if (m->keys[j] == key) return m->values[j];
    j = (j + 1) & (m->capacity - 1);
  }
  return NULL;
}

void kiln_ir_mapping_map_value(kiln_ir_mapping_t* m,
                               const kiln_ir_value_t* from,
                               kiln_ir_value_t* to) {
  kiln_ir_mapping_put(m, from, to);
}
void kiln_ir_mapping_map_block(kiln_ir_mapping_t* m,
                               const kiln_ir_block_t* from,
                               kiln_ir_block_t* to) {
  kiln_ir_mapping_put(m, from, to);
}
kiln_ir_value_t* kiln_ir_mapping_lookup_value(kiln_ir_mapping_t* m,
                                              kiln_ir_value_t* value) {
  kiln_ir_value_t* v = (kiln_ir_value_t*)kiln_ir_mapping_get(m, value);
  return v ? v : value;
}
kiln_ir_block_t* kiln_ir_mapping_lookup_block(kiln_ir_mapping_t* m,
                                              kiln_ir_block_t* block) {
  kiln_ir_block_t* b = (kiln_ir_block_t*)kiln_ir_mapping_get(m, block);
  return b ? b : block;
}

kiln_status_t kiln_ir_region_clone_into(kiln_ir_context_t* c,
                                        kiln_ir_region_t* from,
                                        kiln_ir_region_t* to,
                                        kiln_ir_mapping_t* m) {
  // First create all blocks and arguments so that successors and forward
  // uses across blocks resolve.
  for (kiln_ir_block_t* b = from->first_block; b; b = b->next) {
    kiln_ir_block_t* nb = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_block_create(c, &nb));
    for (uint32_t i = 0; i < b->num_args; ++i) {
      kiln_ir_value_t* arg = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_block_add_arg(c, nb, b->args[i]->type,
                                                 b->args[i]->location, &arg));
      kiln_ir_mapping_map_value(m, b->args[i], arg);
    }
    kiln_ir_mapping_map_block(m, b, nb);
    kiln_ir_region_append_block(to, nb);
  }
  for (kiln_ir_block_t* b = from->first_block; b; b = b->next) {
    kiln_ir_block_t* nb = kiln_ir_mapping_lookup_block(m, b);
    for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
      kiln_ir_op_t* clone = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_op_clone(c, o, m, &clone));
      kiln_ir_block_append_op(nb, clone);
    }
  }
  // Values defined later in the region but used earlier (graph-like uses)
  // were cloned unmapped; fix them now.
  for (kiln_ir_block_t* b = to->first_block; b; b = b->next) {
    for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
      for (uint32_t i = 0; i < o->num_operands; ++i) {
        kiln_ir_value_t* v = o->operands[i].value;
        kiln_ir_value_t* mapped = kiln_ir_mapping_lookup_value(m, v);
        if (mapped != v) kiln_ir_op_set_operand(o, i, mapped);
      }
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_ir_op_clone(kiln_ir_context_t* c, kiln_ir_op_t* op,
                               kiln_ir_mapping_t* m, kiln_ir_op_t** out_clone) {
  *out_clone = NULL;
  if (!m) KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(c, &m));
  kiln_ir_op_state_t s;
  memset(&s, 0, sizeof(s));
  s.name = op->name;
  s.location = op->location;
  s.num_operands = op->num_operands;
  s.operands = (kiln_ir_value_t**)kiln_ir_arena_alloc(
      c, (op->num_operands + 1) * sizeof(kiln_ir_value_t*));
  s.num_result_types = op->num_results;
  s.result_types = (const kiln_ir_type_t**)kiln_ir_arena_alloc(
      c, (op->num_results + 1) * sizeof(kiln_ir_type_t*));
  s.num_successors = op->num_successors;
  s.successors = (kiln_ir_block_t**)kiln_ir_arena_alloc(
      c, (op->num_successors + 1) * sizeof(kiln_ir_block_t*));
  s.successor_operand_counts = (uint32_t*)kiln_ir_arena_alloc(
      c, (op->num_successors + 1) * sizeof(uint32_t));
  if (!s.operands || !s.result_types || !s.successors ||
      !s.successor_operand_counts) {
    return KILN_IR_OOM_STATUS();
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    s.operands[i] = kiln_ir_mapping_lookup_value(m, op->operands[i].value);
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    s.result_types[i] = op->results[i].type;
  }
  for (uint32_t i = 0; i < op->num_successors; ++i) {
    s.successors[i] = kiln_ir_mapping_lookup_block(m, op->successors[i].block);
    s.successor_operand_counts[i] = op->successors[i].num_operands;
  }
  s.num_attributes = op->num_attributes;
  s.attributes = op->attributes;
  s.num_regions = op->num_regions;
  kiln_ir_op_t* clone = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(c, &s, &clone));
  clone->def = op->def;
  for (uint32_t i = 0; i < op->num_results; ++i) {
    kiln_ir_mapping_map_value(m, &op->results[i], &clone->results[i]);
  }
  for (uint32_t i = 0; i < op->num_regions; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_region_clone_into(c, &op->regions[i], &clone->regions[i], m));
  }
  *out_clone = clone;
  return kiln_ok_status();
}

const char* kiln_ir_op_get_string_attr(const kiln_ir_op_t* op, const char* name,
                                       size_t* out_length) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, name);
  if (!a || a->kind != KILN_IR_ATTR_STRING) {
    *out_length = 0;
    return "";
  }
  *out_length = a->str.size;
  return a->str.data;
}
