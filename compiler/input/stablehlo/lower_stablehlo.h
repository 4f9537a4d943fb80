// The lower_to_structured hooks of the stablehlo and chlo op definitions
// (kiln_ir_op_def_t.lower_to_structured, named by their definitions).
#ifndef KILN_COMPILER_INPUT_STABLEHLO_LOWER_STABLEHLO_H_
#define KILN_COMPILER_INPUT_STABLEHLO_LOWER_STABLEHLO_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// stablehlo.c's elementwise ops (an error for the ones with no lowering).
kiln_status_t kiln_lower_stablehlo_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);
// check.* ops: on complex tensors they are rewritten to compare the real
// pairs lower_complex.c makes (a no-op otherwise).
kiln_status_t kiln_lower_complex_check_op(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op);
// Lowers |op| with |fn|, unless it has complex operands (or is one of
// fft/real/imag/complex), which lower_complex.c lowers instead: every
// stablehlo/chlo hook below goes through here.
kiln_status_t kiln_stablehlo_lower_after_complex(kiln_ir_builder_t* b,
                                                 kiln_ir_op_t* op,
                                                 kiln_ir_lower_fn_t fn);
// The hooks each op definition of stablehlo_data.c, stablehlo_compute.c,
// stablehlo_misc.c and chlo.c names (kiln_stablehlo_lower_<name>, listed
// in lower_stablehlo_{data,compute,misc}.h), defined next to the lowering
// |fn| they wrap.
#define KILN_STABLEHLO_DECLARE_LOWERING(name)                     \
  kiln_status_t kiln_stablehlo_lower_##name(kiln_ir_builder_t* b, \
                                            kiln_ir_op_t* op);
#define KILN_STABLEHLO_DEFINE_LOWERING(name, fn)                  \
  kiln_status_t kiln_stablehlo_lower_##name(kiln_ir_builder_t* b, \
                                            kiln_ir_op_t* op) {   \
    return kiln_stablehlo_lower_after_complex(b, op, fn);         \
  }
// stablehlo.c's ops with a lowering of their own (lower_stablehlo.c):
// broadcast serves broadcast and broadcast_in_dim, dot serves dot and
// dot_general.
#define KILN_STABLEHLO_CORE_LOWERINGS(X) \
  X(constant)                            \
  X(broadcast)                           \
  X(transpose) X(slice) X(reshape) X(iota) X(concatenate) X(reduce) X(dot)
KILN_STABLEHLO_CORE_LOWERINGS(KILN_STABLEHLO_DECLARE_LOWERING)
// stablehlo_rng_fft.c's ops (lower_stablehlo_rng_fft.c, lower_complex.c).
kiln_status_t kiln_lower_stablehlo_rng_fft_hook(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_INPUT_STABLEHLO_LOWER_STABLEHLO_H_
