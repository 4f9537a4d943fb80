// Verifier: structural checks (operand/result/region/successor counts
// against the op definition, terminators, dominance within and across
// blocks for the common cases, isolation from above, registered ops) plus
// the per-op verify hooks. Every problem is recorded as a diagnostic at the
// op's location; verification continues so that several errors are
// reported at once.
#ifndef KILN_COMPILER_IR_VERIFIER_H_
#define KILN_COMPILER_IR_VERIFIER_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Verifies |op| and everything nested in it. Returns OK or an
// INVALID_ARGUMENT status "N verification error(s)" (details in the
// context's diagnostics).
kiln_status_t kiln_ir_verify(kiln_ir_context_t* context, kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_VERIFIER_H_
