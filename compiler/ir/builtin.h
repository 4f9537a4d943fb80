// The builtin and func op definitions the IR itself relies on
// (builtin.module, func.func, func.return, func.call) and helpers for
// modules, functions and symbol tables. Their custom parse hooks live in
// compiler/ir/text (they need the parser API); the definitions here
// carry traits, verifiers and print hooks.
#ifndef KILN_COMPILER_IR_BUILTIN_H_
#define KILN_COMPILER_IR_BUILTIN_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers builtin.module, builtin.unrealized_conversion_cast, func.func,
// func.return and func.call (without parse hooks; the MLIR parser library
// re-registers them with hooks via kiln_mlir_register_builtin_ops).
kiln_status_t kiln_ir_register_builtin_ops(kiln_ir_context_t* context);

// The definitions themselves (for the parser library to extend).
extern const kiln_ir_op_def_t kiln_ir_builtin_module_def;
extern const kiln_ir_op_def_t kiln_ir_func_func_def;
extern const kiln_ir_op_def_t kiln_ir_func_return_def;
extern const kiln_ir_op_def_t kiln_ir_func_call_def;

//===----------------------------------------------------------------------===//
// Modules and symbols
//===----------------------------------------------------------------------===//

// Creates a detached `builtin.module` with one empty body block.
kiln_status_t kiln_ir_module_create(kiln_ir_context_t* context,
                                    const kiln_ir_location_t* location,
                                    kiln_ir_op_t** out_module);
// The body block of a module (or of any single-region, single-block op).
kiln_ir_block_t* kiln_ir_module_body(kiln_ir_op_t* module);

// The `value` attribute of the arith.constant defining |v|, or NULL when
// |v| is not an arith.constant's result.
const kiln_ir_attribute_t* kiln_ir_constant_value(const kiln_ir_value_t* v);
// The `sym_name` of a symbol op; empty view when none.
kiln_string_view_t kiln_ir_symbol_name(const kiln_ir_op_t* op);
// Finds the op named |name| directly in |symbol_table_op|'s body; NULL if
// none. Nested references (@a::@b) go through
// kiln_ir_symbol_lookup_ref.
kiln_ir_op_t* kiln_ir_symbol_lookup(kiln_ir_op_t* symbol_table_op,
                                    kiln_string_view_t name);
kiln_ir_op_t* kiln_ir_symbol_lookup_ref(kiln_ir_op_t* symbol_table_op,
                                        const kiln_ir_attribute_t* ref);

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// Creates a func.func named |name| of |function_type| with an entry block
// whose arguments match the inputs, appended to |module|'s body.
kiln_status_t kiln_ir_func_create(kiln_ir_context_t* context,
                                  kiln_ir_op_t* module, kiln_string_view_t name,
                                  const kiln_ir_type_t* function_type,
                                  const kiln_ir_location_t* location,
                                  kiln_ir_op_t** out_func);
// The `function_type` of a func.func (a FUNCTION type) or NULL.
const kiln_ir_type_t* kiln_ir_func_type(const kiln_ir_op_t* func);
// The entry block of a func.func (NULL for declarations).
kiln_ir_block_t* kiln_ir_func_entry_block(kiln_ir_op_t* func);
// True for `func.func private` declarations without a body.
bool kiln_ir_func_is_declaration(const kiln_ir_op_t* func);
// The attribute dictionary of argument |index| (arg_attrs); NULL when it
// has none or an empty one.
const kiln_ir_attribute_t* kiln_ir_func_arg_attrs(const kiln_ir_op_t* func,
                                                  size_t index);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_BUILTIN_H_
