// TOSA -> structured form (linalg.generic, tensor.*, arith/math scalar ops),
// called by lower-to-structured for every op of the tosa dialect.
#ifndef KILN_COMPILER_PIPELINE_LOWER_TOSA_H_
#define KILN_COMPILER_PIPELINE_LOWER_TOSA_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Replaces tosa op |op| with its structured form, built at |b| (which the
// caller positions before |op|, with |op|'s location), then erases |op|.
// Returns an error diagnostic located at |op| when the op (or this form of
// it, e.g. a non-constant mul shift) is not supported.
kiln_status_t kiln_lower_tosa_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_TOSA_H_
