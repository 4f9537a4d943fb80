// Inlining of func.call: every call to a func.func of the module with a
// body is replaced by a copy of that body: a one-block body ending in
// func.return in place, a body of several blocks (host control flow) as
// blocks between the two halves of the caller's split block, entered and
// left by cf.br (callees calling others are inlined transitively, up to a
// depth limit, so recursion is reported instead of looping); private
// functions are then dropped. Run by lower-to-structured
// first: host code and the backends have no calls between functions.
#ifndef KILN_COMPILER_PIPELINE_INLINE_CALLS_H_
#define KILN_COMPILER_PIPELINE_INLINE_CALLS_H_

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Inlines the func.call ops of |module| whose callee is defined in it
// (calls to declarations are left for the host to report). Errors (located
// at the call): signature mismatch, recursion
// (calls nesting deeper than 32).
kiln_status_t kiln_inline_calls(kiln_ir_context_t* context,
                                kiln_ir_op_t* module);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_INLINE_CALLS_H_
