// Builder: creates ops at an insertion point, for passes and parsers.
#ifndef KILN_COMPILER_IR_BUILDER_H_
#define KILN_COMPILER_IR_BUILDER_H_

#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// An insertion point: new ops go into |block| before |before| (NULL: at the
// end). |location| is used when a state carries none. A plain value type:
// copy it to save/restore the insertion point.
typedef struct kiln_ir_builder_t {
  kiln_ir_context_t* context;
  kiln_ir_block_t* block;
  kiln_ir_op_t* before;
  const kiln_ir_location_t* location;
} kiln_ir_builder_t;

// A builder with no insertion point (ops are created detached).
kiln_ir_builder_t kiln_ir_builder_make(kiln_ir_context_t* context);
void kiln_ir_builder_set_to_end(kiln_ir_builder_t* b, kiln_ir_block_t* block);
void kiln_ir_builder_set_to_start(kiln_ir_builder_t* b, kiln_ir_block_t* block);
void kiln_ir_builder_set_before(kiln_ir_builder_t* b, kiln_ir_op_t* op);
void kiln_ir_builder_set_after(kiln_ir_builder_t* b, kiln_ir_op_t* op);

// Creates an op from |state| and inserts it at the insertion point (if
// any). The builder's location is used when state->location is NULL.
kiln_status_t kiln_ir_builder_create(kiln_ir_builder_t* b,
                                     kiln_ir_op_state_t* state,
                                     kiln_ir_op_t** out_op);

// Shorthand for the common shape: |name| with operands, result types and
// attributes, no regions or successors.
kiln_status_t kiln_ir_builder_create_simple(
    kiln_ir_builder_t* b, const char* name, size_t num_operands,
    kiln_ir_value_t* const* operands, size_t num_results,
    const kiln_ir_type_t* const* result_types, size_t num_attributes,
    const kiln_ir_named_attribute_t* attributes, kiln_ir_op_t** out_op);

// Creates a block with |num_args| arguments of |arg_types| at the end of
// |region| (arguments get the builder's location) and moves the insertion
// point to its end.
kiln_status_t kiln_ir_builder_create_block(kiln_ir_builder_t* b,
                                           kiln_ir_region_t* region,
                                           size_t num_args,
                                           const kiln_ir_type_t* const* types,
                                           kiln_ir_block_t** out_block);

// Creates `cf.br ^dest(args...)` at the insertion point (control-flow
// rewrites: region lowering, inlining of multi-block callees).
kiln_status_t kiln_ir_builder_create_br(kiln_ir_builder_t* b,
                                        kiln_ir_block_t* dest, size_t num_args,
                                        kiln_ir_value_t* const* args);

// Splits |op|'s block after |op|: the ops after it move to a new block,
// inserted right after, whose arguments replace |op|'s results (so |op| can
// be replaced by a branch that passes them).
kiln_status_t kiln_ir_block_split_after(kiln_ir_context_t* context,
                                        kiln_ir_op_t* op,
                                        kiln_ir_block_t** out_continuation);

// A named attribute from a C string name (interned).
kiln_ir_named_attribute_t kiln_ir_named_attr(kiln_ir_context_t* context,
                                             const char* name,
                                             const kiln_ir_attribute_t* value);

// Records an error diagnostic at |op|'s location and returns the matching
// INVALID_ARGUMENT status ("'op.name' op <message>" as MLIR words it).
kiln_status_t kiln_ir_op_emit_error(kiln_ir_op_t* op, kiln_ir_context_t* ctx,
                                    const char* format, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_BUILDER_H_
