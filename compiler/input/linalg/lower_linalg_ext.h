// Lowering of the iree_linalg_ext ops (linalg_ext.c: sort, scan,
// topk, arg_compare, gather, scatter, reverse, attention, online_attention,
// map_load, map_store, winograd input/output transforms) and of linalg.pack /
// linalg.unpack (linalg_pack.c) to the structured form, called from
// lower-to-structured. How each op becomes linalg.generic is described at the
// top of lower_linalg_ext.c.
#ifndef KILN_COMPILER_PIPELINE_LOWER_LINALG_EXT_H_
#define KILN_COMPILER_PIPELINE_LOWER_LINALG_EXT_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The lower_to_structured hooks the op definitions of linalg_ext.c and
// linalg_pack.c name, kiln_linalg_ext_lower_<name>: each lowers its |op|
// (uses replaced, |op| erased) with |b| placed before it, after checking
// that its operands are statically shaped. unsupported is the error of the
// ops that only live inside others' regions (affine index ops, yield).
#define KILN_LINALG_EXT_LOWERINGS(X)                                       \
  X(pack)                                                                  \
  X(sort)                                                                  \
  X(scan) X(topk) X(arg_compare) X(attention) X(map) X(winograd) X(gather) \
      X(scatter) X(reverse) X(unsupported)
#define KILN_LINALG_EXT_DECLARE_LOWERING(name)                     \
  kiln_status_t kiln_linalg_ext_lower_##name(kiln_ir_builder_t* b, \
                                             kiln_ir_op_t* op);
KILN_LINALG_EXT_LOWERINGS(KILN_LINALG_EXT_DECLARE_LOWERING)
#undef KILN_LINALG_EXT_DECLARE_LOWERING

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_LINALG_EXT_H_
