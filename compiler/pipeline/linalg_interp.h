// Reference interpreter of linalg.generic over its scalar body, used by
// const-eval (and tests). Scalar ops are evaluated with the same semantics
// as folding (compiler/dialects/scalar_eval.h).
#ifndef KILN_COMPILER_PIPELINE_LINALG_INTERP_H_
#define KILN_COMPILER_PIPELINE_LINALG_INTERP_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Limits: results above this many elements and iteration spaces above
// this many points are not evaluated. 8M elements covers the transposed
// weights of a classifier (ResNet-50's 2048 x 1000 Gemm with transB), which
// otherwise are transposed again on every call.
#define KILN_INTERP_MAX_RESULT_ELEMENTS (1 << 23)
#define KILN_INTERP_MAX_ITERATIONS (1 << 24)

// Evaluates |generic| (a linalg.generic on static shapes). Each regular
// operand's value comes from |operand_values|[i]: a DENSE_ELEMENTS
// attribute, or NULL for an output with no initial contents (tensor.empty;
// read as zeros). Values used in the body but defined outside it must be
// results of constant-like ops. On success *out_ok is true and
// out_results[i] holds a dense attribute per result; *out_ok false means
// "not evaluable" (unsupported op, too large, non-constant capture).
kiln_status_t kiln_linalg_interpret(
    kiln_ir_context_t* context, kiln_ir_op_t* generic,
    const kiln_ir_attribute_t* const* operand_values,
    const kiln_ir_attribute_t** out_results, bool* out_ok);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LINALG_INTERP_H_
