// The ONNX importer: an ONNX model (ModelProto bytes) -> a builtin.module
// holding one func.func built with the IR builder from stablehlo / math /
// arith ops that the default pipeline lowers.
//
// Calling convention: the function is named after the graph; its arguments
// are the graph inputs that are not initializers, in order; its results are
// the graph outputs, in order. A sequence input or output is passed as one
// tensor per element, in order (none for an empty sequence); an optional
// one as its contents (nothing when absent). Their lengths and presence
// are fixed at import (see kiln_onnx_import_options_t.inputs_like).
//
// Threading: no global state; one import per context at a time.
#ifndef KILN_COMPILER_INPUT_ONNX_ONNX_IMPORT_H_
#define KILN_COMPILER_INPUT_ONNX_ONNX_IMPORT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compiler/ir/operation.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// True when |data| looks like an ONNX ModelProto rather than MLIR text: it
// starts with a ModelProto field tag that no MLIR file starts with, or the
// whole buffer reads as protobuf fields that include a graph.
bool kiln_onnx_is_model(const void* data, size_t length);

// The driver's test: never for a |filename| ending in ".mlir"; else
// kiln_onnx_is_model, or a |filename| ending in ".onnx" (so that a damaged
// model gets the importer's error, not the MLIR parser's). |filename| may
// be NULL.
bool kiln_onnx_should_import(const char* filename, const void* data,
                             size_t length);

// Imports |length| bytes of a serialized ModelProto. |filename| names the
// model in errors and locates external data (relative to its folder; NULL
// or "<stdin>": the current folder). The ops needed (stablehlo, math,
// arith, func) must be registered in |context|. On success |*out_module|
// is a detached builtin.module owned by |context|. Errors read
// "<filename>: node 'n' (Op, opset 13): <why>" or "<filename>: <why>".
kiln_status_t kiln_onnx_import(kiln_ir_context_t* context, const char* filename,
                               const void* data, size_t length,
                               kiln_ir_op_t** out_module);

// Import options (zero-initialize; NULL means all defaults).
typedef struct kiln_onnx_import_options_t {
  // A folder of sample inputs in ONNX test-data form: input_<k>.pb for the
  // k-th graph input that is not an initializer (a TensorProto,
  // SequenceProto or OptionalProto file). A graph input whose declared
  // type is not a static tensor (symbolic dims, sequence, optional) takes
  // the shape, length or presence of its sample; the module is then
  // specialized to it. NULL: no samples (such inputs are refused).
  const char* inputs_like;
} kiln_onnx_import_options_t;

// kiln_onnx_import with |options| (may be NULL).
kiln_status_t kiln_onnx_import_with_options(
    kiln_ir_context_t* context, const char* filename, const void* data,
    size_t length, const kiln_onnx_import_options_t* options,
    kiln_ir_op_t** out_module);

// Writes a summary of the model without importing it, one item a line:
//   function <graph name>
//   opset <ai.onnx opset>
//   input <type>       (each graph input that is not an initializer, in
//   output <type>       order: 3x4xbf16; "sequence" or "optional" for
//                       those types; ? for another type that is not a
//                       static tensor)
//   op <OpType>        (each distinct op type of the main graph, in order)
// For the backend-test runner's tables. Errors: a model that does not
// decode.
kiln_status_t kiln_onnx_describe(const char* filename, const void* data,
                                 size_t length, FILE* out);

// Writes the ops the importer lowers, one a line, sorted by name:
// "<OpType> <since version>[,<since version>...]" (the opsets from which
// each lowering applies).
void kiln_onnx_list_ops(FILE* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_INPUT_ONNX_ONNX_IMPORT_H_
