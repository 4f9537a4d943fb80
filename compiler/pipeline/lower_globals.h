// util.global -> constants. Globals that no util.global.store writes hold
// their initial value for the whole program, so every util.global.load (and
// util.global.load.indirect through a util.global.address) becomes an
// arith.constant of that value and the globals are erased. Run by
// lower-to-structured first, before inlining.
#ifndef KILN_COMPILER_PIPELINE_LOWER_GLOBALS_H_
#define KILN_COMPILER_PIPELINE_LOWER_GLOBALS_H_

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Rewrites the util.global ops of |module|. Initial values: a dense
// elements attribute, or #util.byte_pattern<N> (every byte N, as IREE fills
// placeholder weights). Errors (located): a store (mutable globals are not
// supported yet), a global without an initial value, an unknown global, a
// load whose type differs from the global's, an indirect load whose
// address is not a util.global.address.
kiln_status_t kiln_lower_util_globals(kiln_ir_context_t* context,
                                      kiln_ir_op_t* module);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_GLOBALS_H_
