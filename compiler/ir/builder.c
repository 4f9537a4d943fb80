#include "compiler/ir/builder.h"

#include <stdio.h>
#include <string.h>

kiln_ir_builder_t kiln_ir_builder_make(kiln_ir_context_t* context) {
  kiln_ir_builder_t b;
  memset(&b, 0, sizeof(b));
  b.context = context;
  b.location = kiln_ir_location_unknown(context);
  return b;
}

void kiln_ir_builder_set_to_end(kiln_ir_builder_t* b, kiln_ir_block_t* block) {
  b->block = block;
  b->before = NULL;
}

void kiln_ir_builder_set_to_start(kiln_ir_builder_t* b,
                                  kiln_ir_block_t* block) {
  b->block = block;
  b->before = block->first_op;
}

void kiln_ir_builder_set_before(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  b->block = op->parent_block;
  b->before = op;
}

void kiln_ir_builder_set_after(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  b->block = op->parent_block;
  b->before = op->next;
}

kiln_status_t kiln_ir_builder_create(kiln_ir_builder_t* b,
                                     kiln_ir_op_state_t* state,
                                     kiln_ir_op_t** out_op) {
  if (!state->location) state->location = b->location;
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(b->context, state, &op));
  if (b->block) {
    if (b->before) {
      kiln_ir_op_insert_before(op, b->before);
    } else {
      kiln_ir_block_append_op(b->block, op);
    }
  }
  if (out_op) *out_op = op;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_builder_create_simple(
    kiln_ir_builder_t* b, const char* name, size_t num_operands,
    kiln_ir_value_t* const* operands, size_t num_results,
    const kiln_ir_type_t* const* result_types, size_t num_attributes,
    const kiln_ir_named_attribute_t* attributes, kiln_ir_op_t** out_op) {
  kiln_ir_op_state_t s;
  kiln_ir_op_state_init(b->context, &s, name, b->location);
  s.num_operands = num_operands;
  s.operands = (kiln_ir_value_t**)operands;
  s.num_result_types = num_results;
  s.result_types = (const kiln_ir_type_t**)result_types;
  s.num_attributes = num_attributes;
  s.attributes = (kiln_ir_named_attribute_t*)attributes;
  return kiln_ir_builder_create(b, &s, out_op);
}

kiln_status_t kiln_ir_builder_create_block(kiln_ir_builder_t* b,
                                           kiln_ir_region_t* region,
                                           size_t num_args,
                                           const kiln_ir_type_t* const* types,
                                           kiln_ir_block_t** out_block) {
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(b->context, &block));
  for (size_t i = 0; i < num_args; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_block_add_arg(b->context, block, types[i], b->location, NULL));
  }
  kiln_ir_region_append_block(region, block);
  kiln_ir_builder_set_to_end(b, block);
  if (out_block) *out_block = block;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_builder_create_br(kiln_ir_builder_t* b,
                                        kiln_ir_block_t* dest, size_t num_args,
                                        kiln_ir_value_t* const* args) {
  kiln_ir_op_state_t st;
  kiln_ir_op_state_init(b->context, &st, "cf.br", b->location);
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_successor(b->context, &st, dest, num_args, args));
  kiln_ir_op_t* op = NULL;
  return kiln_ir_builder_create(b, &st, &op);
}

kiln_status_t kiln_ir_block_split_after(kiln_ir_context_t* ctx,
                                        kiln_ir_op_t* op,
                                        kiln_ir_block_t** out_cont) {
  kiln_ir_block_t* block = op->parent_block;
  kiln_ir_block_t* cont = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(ctx, &cont));
  kiln_ir_region_insert_block_after(cont, block);
  while (op->next) {
    kiln_ir_op_t* next = op->next;
    kiln_ir_op_remove(next);
    kiln_ir_block_append_op(cont, next);
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    kiln_ir_value_t* arg = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_block_add_arg(ctx, cont, op->results[i].type,
                                               op->location, &arg));
    kiln_ir_value_replace_all_uses_with(&op->results[i], arg);
  }
  *out_cont = cont;
  return kiln_ok_status();
}

kiln_ir_named_attribute_t kiln_ir_named_attr(kiln_ir_context_t* context,
                                             const char* name,
                                             const kiln_ir_attribute_t* value) {
  kiln_ir_named_attribute_t a = {kiln_ir_intern_cstr(context, name), value,
                                 false};
  return a;
}

kiln_status_t kiln_ir_op_emit_error(kiln_ir_op_t* op, kiln_ir_context_t* ctx,
                                    const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return kiln_ir_emit_error(ctx, op->location, "'%.*s' op %s",
                            KILN_SV_ARG(op->name), buffer);
}
