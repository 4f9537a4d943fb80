// The vmvx backend: the shared dispatch codegen's loop programs, kept as
// verified VM bytecode and interpreted by the runtime's vmvx loader. It is
// portable (any host, no C compiler) and as safe as the host bytecode.
#include "compiler/targets/target_backend.h"

const kiln_target_backend_t kiln_vmvx_target_backend = {
    .name = "vmvx",
    .aliases = NULL,
    .summary = "portable bytecode interpreted by the runtime",
    .matmuls_alone = false,
    // A contraction's inner loop in one instruction instead of a dozen
    // interpreted ones per step.
    .vm_dot_ops = true,
    .serialize = NULL,
};
