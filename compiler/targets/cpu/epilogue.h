// Epilogues of the cpu backend's matmul and convolution entries: the f32
// elementwise consumers of the kernel op (bias add, batchnorm affine,
// relu/clip, sigmoid/SiLU, residual add) that form-dispatch-regions placed
// in its dispatch (epilogue_op_ok). The entry evaluates them on each output
// block right after unpacking it, while it is in cache, instead of in a
// separate dispatch over the whole tensor.
#ifndef KILN_COMPILER_TARGETS_CPU_EPILOGUE_H_
#define KILN_COMPILER_TARGETS_CPU_EPILOGUE_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

// True when |t| is a static f32 tensor, of rank |rank| unless it is -1 (the
// operand type every cpu entry requires).
bool kiln_cpu_is_static_f32_tensor(const kiln_ir_type_t* t, int rank);

// True when |op| is an f32 arith.constant, scalar or splat; stores its
// value.
bool kiln_cpu_constant_value(kiln_ir_op_t* op, float* out);

// True when linalg op |op| can run in an epilogue: an f32 linalg.generic
// with all loops parallel, one output indexed by the identity (its init
// never read), inputs indexed by projections (each result a loop dim, or 0
// along an extent-1 dim of the input), and
// a body of the scalar ops the entry emits.
bool kiln_cpu_epilogue_op_ok(kiln_ir_context_t* context, kiln_ir_op_t* op);

// C statements computing the epilogue of |region| (whose kernel op is
// |root|) for one output element: they read the kernel's value from
// `eo[o]` (eo: the output binding, o: the element's row-major offset in
// the result tensor), read captured operands from their bindings
// (ds->binding_ptrs) at indices d0..dN (the element's coordinates in the
// result tensor, declared by the caller) and store the result to `eo[o]`. NULL
// when the region has no epilogue (the root's result is returned) or on out of
// memory; sets *out_ok false when the region holds anything else. With
// |root| NULL every structured op of the region is part of the epilogue
// (an elementwise dispatch): no kernel value is read from `eo[o]`, and the
// region must return a linalg.generic's result.
const char* kiln_cpu_epilogue_build(kiln_ir_context_t* context,
                                    kiln_ir_op_t* region, kiln_ir_op_t* root,
                                    bool* out_ok);

// An epilogue that is a bias add along the result's last dim, then at most
// a max and a min with constant bounds (a ReLU or clip): what mmt4d's
// KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP computes on each tile it writes, with
// the same scalar ops (the kernel's value first in the add; bounds with
// which numerics.h's constant-bound forms give the general forms' bits).
//
// Or a bias add then SiLU, t * logistic(t), as the StableHLO lowering
// writes logistic (|silu|): what KILN_UKERNEL_MMT4D_FLAG_BIAS_SILU computes.
typedef struct kiln_cpu_epilogue_bias_clamp_t {
  uint32_t bias_binding;  // a rank-1 f32 tensor of the last dim's extent
  float lo, hi;           // -inf / +inf where the op is absent
  bool silu;              // SiLU instead of the clamp (lo, hi infinite)
} kiln_cpu_epilogue_bias_clamp_t;

// True when the epilogue of |region| (kernel op |root|) has that form.
bool kiln_cpu_epilogue_match_bias_clamp(kiln_ir_context_t* context,
                                        kiln_ir_op_t* region,
                                        kiln_ir_op_t* root,
                                        kiln_cpu_epilogue_bias_clamp_t* out);

// The body of the loop over one element (b, r, c) of |result|, in an entry
// that declares b, r, c, eo and the constants BS_ = |batch_stride| and RS_ =
// |row_stride| (BS_ a multiple of RS_ when both are used): the element's
// offset o = b * BS_ + r * RS_ + c, its coordinates d0..dN (each from the
// fewest loop variables) and kiln_cpu_epilogue_build's |statements|.
void kiln_cpu_epilogue_emit_element(const kiln_ir_type_t* result,
                                    int64_t batch_stride, int64_t row_stride,
                                    const char* statements,
                                    kiln_ir_string_builder_t* out);

// The tail of an entry whose rows r (in [r0, r1), declared by the caller)
// are runs of |row| elements of |result| with eo (the output) declared:
// for each row, the epilogue |statements| on every element of it, then the
// entry's `return 0;` and closing brace.
void kiln_cpu_epilogue_emit_rows(const kiln_ir_type_t* result, int64_t rows,
                                 int64_t row, const char* statements,
                                 kiln_ir_string_builder_t* out);

// The kernel op of |region|: the op whose result the region returns, or
// the op it reaches through an epilogue chain; NULL when neither is a
// structured op.
kiln_ir_op_t* kiln_cpu_epilogue_root(kiln_ir_context_t* context,
                                     kiln_ir_op_t* region);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_EPILOGUE_H_
