// The lower_to_structured hooks of the stablehlo and chlo op definitions
// (kiln_ir_op_def_t.lower_to_structured, set by their registrations), and
// the elementwise hook arith/math ops on tensors share.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_LOWER_STABLEHLO_H_
#define KILN_COMPILER_INPUT_STABLEHLO_LOWER_STABLEHLO_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The hook of one of stablehlo.c's definitions: constant, broadcast,
// transpose, slice, reshape, iota, concatenate, reduce and dot each have
// their own; the rest get kiln_lower_stablehlo_op (used at registration).
kiln_ir_lower_fn_t kiln_stablehlo_pick_lowering(const kiln_ir_op_def_t* def);
// stablehlo.c's elementwise ops (an error for the ones with no lowering).
kiln_status_t kiln_lower_stablehlo_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);
// arith/math (and stablehlo) elementwise ops on tensors -> one generic; a
// no-op on scalars.
kiln_status_t kiln_lower_elementwise_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);
// check.* ops: on complex tensors they are rewritten to compare the real
// pairs lower_complex.c makes (a no-op otherwise).
kiln_status_t kiln_lower_complex_check_op(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op);
// stablehlo_data.c and chlo.c's ops (lower_stablehlo_data.c).
kiln_status_t kiln_lower_stablehlo_data_hook(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op);
// stablehlo_compute.c's ops (lower_stablehlo_compute.c).
kiln_status_t kiln_lower_stablehlo_compute_hook(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op);
// stablehlo_misc.c's ops (lower_stablehlo_misc.c).
kiln_status_t kiln_lower_stablehlo_misc_hook(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op);
// stablehlo_rng_fft.c's ops (lower_stablehlo_rng_fft.c, lower_complex.c).
kiln_status_t kiln_lower_stablehlo_rng_fft_hook(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_INPUT_STABLEHLO_LOWER_STABLEHLO_H_
