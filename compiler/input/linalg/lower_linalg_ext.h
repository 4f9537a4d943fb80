// Lowering of the iree_linalg_ext ops (linalg_ext.c: sort, scan,
// topk, arg_compare, gather, scatter, attention, online_attention, map_load,
// map_store, winograd input/output transforms) and of
// linalg.pack / linalg.unpack (linalg_pack.c) to the structured form,
// called from lower-to-structured. How each op becomes linalg.generic is
// described at the top of lower_linalg_ext.c.
#ifndef KILN_COMPILER_PIPELINE_LOWER_LINALG_EXT_H_
#define KILN_COMPILER_PIPELINE_LOWER_LINALG_EXT_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Lowers the iree_linalg_ext op or pack/unpack |op| (kiln_linalg_ext_is_op,
// kiln_linalg_is_pack_op; uses replaced,
// |op| erased) with |b| placed before it. Operands must be statically
// shaped.
kiln_status_t kiln_lower_linalg_ext_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_LINALG_EXT_H_
