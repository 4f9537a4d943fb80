// MLIR text parser: reads a .mlir buffer into a builtin.module.
//
// Accepts the generic op form in full, the custom forms registered through
// op definitions' parse hooks (op_parser.h), `#alias`/`!alias` definitions,
// locations, and top-level ops without an enclosing module (they are
// wrapped in an implicit builtin.module, as mlir-opt does).
//
// Errors are recorded as context diagnostics ("file:line:col: error: ...",
// see kiln_ir_diagnostic_print) and the parse returns INVALID_ARGUMENT.
#ifndef KILN_COMPILER_INPUT_MLIR_PARSER_H_
#define KILN_COMPILER_INPUT_MLIR_PARSER_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_mlir_parse_options_t {
  // Line number of the first line of |text| (1 normally; the chunk offset
  // for --split-input-file).
  uint32_t first_line;
} kiln_mlir_parse_options_t;

// Parses |text| (|size| bytes, need not be NUL-terminated) named |filename|
// into a new builtin.module (*out_module). The source is registered with
// the context so diagnostics quote lines. |options| may be NULL.
kiln_status_t kiln_mlir_parse_source(kiln_ir_context_t* context,
                                     kiln_string_view_t filename,
                                     const char* text, size_t size,
                                     const kiln_mlir_parse_options_t* options,
                                     kiln_ir_op_t** out_module);

// Reads and parses the file at |path| ("-" reads stdin).
kiln_status_t kiln_mlir_parse_file(kiln_ir_context_t* context, const char* path,
                                   kiln_ir_op_t** out_module);

// Registers builtin.module, func.func, func.return and func.call with their
// custom-form parse hooks (calls kiln_ir_register_builtin_ops first).
kiln_status_t kiln_mlir_register_builtin_ops(kiln_ir_context_t* context);

// Registers the example custom forms: arith.constant, arith.addf (the
// binary-op pattern), stablehlo.add (both type spellings) and
// stablehlo.constant. The dialect library may override them.
kiln_status_t kiln_mlir_register_example_ops(kiln_ir_context_t* context);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_INPUT_MLIR_PARSER_H_
