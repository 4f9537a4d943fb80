// Registration of every dialect the compiler understands (arith, math,
// linalg, tensor, stablehlo, tosa, util, check; func/builtin come from the
// IR and the MLIR parser library).
#ifndef KILN_COMPILER_DIALECTS_DIALECTS_H_
#define KILN_COMPILER_DIALECTS_DIALECTS_H_

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers every op of every supported dialect into |context| (builtin,
// func, then the dialect files below; later registrations replace the
// parser library's example definitions).
kiln_status_t kiln_compiler_register_dialects(kiln_ir_context_t* context);

//===----------------------------------------------------------------------===//
// Per-dialect registration (one file each)
//===----------------------------------------------------------------------===//

kiln_status_t kiln_dialect_register_arith(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_math(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_linalg(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_tensor(kiln_ir_context_t* context);
// iree_encoding.c: IREE's set_encoding/unset_encoding (identity layout).
kiln_status_t kiln_dialect_register_iree_encoding(kiln_ir_context_t* context);
// Whether |encoding| (a tensor type's) is an IREE data-tiling layout
// encoding, which kiln materializes as the identity layout.
bool kiln_is_layout_encoding(const kiln_ir_attribute_t* encoding);
// linalg_ext.c: IREE's iree_linalg_ext sort, scan, topk, arg_compare,
// gather, scatter and yield.
kiln_status_t kiln_dialect_register_linalg_ext(kiln_ir_context_t* context);
// Whether |op| is an iree_linalg_ext op other than its yield.
bool kiln_linalg_ext_is_op(const kiln_ir_op_t* op);
// The `dimension` attribute of an iree_linalg_ext op (-1 when absent).
int64_t kiln_linalg_ext_dimension(const kiln_ir_op_t* op);
// The bool attribute |name| (`inclusive`, `unique_indices`), or
// |default_value| when absent.
bool kiln_linalg_ext_bool(const kiln_ir_op_t* op, const char* name,
                          bool default_value);
// The `dimension_map` of gather/scatter into |out| (at most |capacity|);
// returns its length, -1 when absent.
int64_t kiln_linalg_ext_dimension_map(const kiln_ir_op_t* op, int64_t* out,
                                      int64_t capacity);
// Whether iree_linalg_ext.scatter |op| has IREE's 2023 shapes, which
// today's rule (rank(original) = rank(update slice) + index depth) does not
// fit: indices N x depth, updates N x slice, the slice (of any rank up to
// the original's) covering the original's trailing dims, starting at the
// index vector in the dims it indexes (0 in the others).
bool kiln_linalg_ext_scatter_trailing_slice(const kiln_ir_op_t* op);
kiln_status_t kiln_dialect_register_stablehlo(kiln_ir_context_t* context);
// stablehlo_data.c: pad, reverse, gather, scatter, reduce_window,
// convolution...
kiln_status_t kiln_dialect_register_stablehlo_data(kiln_ir_context_t* context);
// chlo.c: chlo.broadcast_* binary ops.
kiln_status_t kiln_dialect_register_chlo(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_tosa(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_util(kiln_ir_context_t* context);
// The bits one element of |tensor_type| takes in flow.tensor.bitcast: its
// bit width, except i1 without an encoding (a byte, as IREE stores it;
// `#iree_encoding.packed_storage` i1 is one bit).
int64_t kiln_flow_bitcast_element_bits(const kiln_ir_type_t* tensor_type);
// The element widths flow.tensor.bitcast reads |src| and writes |dst|
// with: kiln_flow_bitcast_element_bits of each, except that where a
// byte-stored i1 side cannot match the other side's bits but packed i1 can
// (`tensor<1xi8> -> tensor<8xi1>`, as IREE bitcast plain i1 before
// #iree_encoding.packed_storage), the i1 side is packed (1 bit).
void kiln_flow_bitcast_widths(const kiln_ir_type_t* src,
                              const kiln_ir_type_t* dst, int64_t* src_bits,
                              int64_t* dst_bits);
kiln_status_t kiln_dialect_register_check(kiln_ir_context_t* context);
// cf.br / cf.cond_br: host control flow (compiler/dialects/cf.c).
kiln_status_t kiln_dialect_register_cf(kiln_ir_context_t* context);
// stablehlo.rng, rng_bit_generator, fft, real, imag, complex, custom_call
// (compiler/input/stablehlo/stablehlo_rng_fft.c).
kiln_status_t kiln_dialect_register_stablehlo_rng_fft(
    kiln_ir_context_t* context);
// stablehlo.sort, dynamic_update_slice, cholesky, reduce_precision,
// triangular_solve, batch_norm_training
// (compiler/input/stablehlo/stablehlo_compute.c).
kiln_status_t kiln_dialect_register_stablehlo_compute(
    kiln_ir_context_t* context);
// The sort dimension of a stablehlo.sort, normalized to [0, rank) (-1 when
// out of range).
int64_t kiln_stablehlo_sort_dimension(const kiln_ir_op_t* op);
// window_dimensions, window_strides (default 1) and low and high padding
// (default 0) of a stablehlo.select_and_scatter of |rank| dims; false if
// malformed.
// The number of windows along a dim of |size| elements (-1 when |size| is
// KILN_IR_DYNAMIC_DIM), padded by |lo| and |hi|.
int64_t kiln_stablehlo_sas_window_count(int64_t size, int64_t window,
                                        int64_t stride, int64_t lo, int64_t hi);
bool kiln_stablehlo_sas_window(const kiln_ir_op_t* op, size_t rank,
                               int64_t* dims, int64_t* strides, int64_t* lo,
                               int64_t* hi);
// stablehlo.optimization_barrier, get_dimension_size, map
// (compiler/input/stablehlo/stablehlo_misc.c).
kiln_status_t kiln_dialect_register_stablehlo_misc(kiln_ir_context_t* context);
// `mhlo.<op>` (MHLO, StableHLO's predecessor, in IREE's older tests) as an
// alias of every registered `stablehlo.<op>`: call after the StableHLO
// registrations.
kiln_status_t kiln_dialect_register_mhlo_aliases(kiln_ir_context_t* context);
// stablehlo.while/if/case, tosa.while_loop/cond_if/yield (region_cf.c).
kiln_status_t kiln_dialect_register_region_cf(kiln_ir_context_t* context);
// The bare word of a `#stablehlo<name WORD>` attribute |name| of |op|.
kiln_string_view_t kiln_stablehlo_enum_word(const kiln_ir_op_t* op,
                                            const char* name);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_DIALECTS_H_
