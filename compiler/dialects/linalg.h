// linalg helpers for passes and backends: reading linalg.generic's parts
// (inputs/outputs, indexing maps, iterator kinds), building generics, and
// generalizing the named structured ops (matmul, batch_matmul, fill and the
// ops of kiln_linalg_is_named_op) to linalg.generic. See
// docs/website/docs/developers/design-docs/ structured-form.md for the
// contract.
#ifndef KILN_COMPILER_DIALECTS_LINALG_H_
#define KILN_COMPILER_DIALECTS_LINALG_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/text/op_parser.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Queries (linalg.generic and the named ops)
//===----------------------------------------------------------------------===//

// True for linalg.generic, linalg.matmul, linalg.batch_matmul, linalg.fill.
bool kiln_linalg_is_structured(const kiln_ir_op_t* op);
// True for the other named ops kiln reads as input (matvec, vecmat, dot,
// batch_matvec, batch_vecmat, matmul_transpose_a/b,
// batch_matmul_transpose_a/b, batch_reduce_matmul, matmul/batch_matmul
// with explicit indexing_maps, conv_1d, conv_2d, conv_1d_nwc_wcf,
// conv_1d_ncw_fcw, conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc, conv_2d_nchw_fchw,
// conv_3d_ndhwc_dhwcf, depthwise_conv_2d_nhwc_hwc/nchw_chw,
// pooling_{nhwc,nwc}_{sum,max,min}, pooling_{nchw,ncw}_{sum,max}, the
// elementwise add, sub, mul, div, div_unsigned, max, min, powf, exp, log,
// abs, ceil, floor, negf, round, sqrt, rsqrt, tanh, erf, square,
// reciprocal, linalg.elementwise, and copy, transpose, broadcast, reduce,
// map, softmax): lower-to-structured rewrites them with
// kiln_linalg_generalize.
bool kiln_linalg_is_named_op(const kiln_ir_op_t* op);
// Number of `ins` / `outs` operands (from `operandSegmentSizes`; without
// it, outs are the last num_results operands).
uint32_t kiln_linalg_num_inputs(const kiln_ir_op_t* op);
uint32_t kiln_linalg_num_outputs(const kiln_ir_op_t* op);
// The indexing map of operand |i| of a linalg.generic (NULL if missing).
const kiln_ir_affine_map_t* kiln_linalg_indexing_map(const kiln_ir_op_t* op,
                                                     uint32_t i);
// Number of loops (iterator_types entries) of a linalg.generic.
uint32_t kiln_linalg_num_loops(const kiln_ir_op_t* op);
// True when loop |i| is a reduction (accepts both `"reduction"` and
// `#linalg.iterator_type<reduction>` spellings).
bool kiln_linalg_is_reduction(const kiln_ir_op_t* op, uint32_t i);
// The body block of a linalg.generic (NULL for named ops).
kiln_ir_block_t* kiln_linalg_body(kiln_ir_op_t* op);

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

// An identity map over |rank| dims.
const kiln_ir_attribute_t* kiln_linalg_identity_map(kiln_ir_context_t* context,
                                                    uint32_t rank);
// (d0..d<num_dims-1>) -> (d<dims[0]>, ..., d<dims[count-1]>).
const kiln_ir_attribute_t* kiln_linalg_projection_map(
    kiln_ir_context_t* context, uint32_t num_dims, size_t count,
    const int64_t* dims);
// Reducing |type| (a ranked tensor of rank <= 16) along dim |axis|:
// |reduction| (one entry per dim) marks |axis|, |kept| gets the other dims
// in order (*num_kept of them), and the result is the tensor type of their
// sizes, the reduction's result type. NULL when the rank is over 16.
const kiln_ir_type_t* kiln_linalg_reduce_one_dim(kiln_ir_context_t* context,
                                                 const kiln_ir_type_t* type,
                                                 int64_t axis, bool* reduction,
                                                 int64_t* kept,
                                                 uint32_t* num_kept);

// d<out_loop> * stride + d<window_loop> * dilation: the input index of a
// convolution or pooling window (a factor of 1 is left out).
const kiln_ir_affine_expr_t* kiln_linalg_window_expr(kiln_ir_context_t* context,
                                                     int64_t out_loop,
                                                     int64_t stride,
                                                     int64_t window_loop,
                                                     int64_t dilation);

// Creates a linalg.generic at |b| with |inputs| and |outputs|, one affine
// map attribute per operand in |maps|, |num_loops| iterators
// (|reduction|[i] true for reduction loops; NULL: all parallel), result
// types = the output types, and an empty body block whose arguments are
// the operands' element types. The caller appends the body ops and a
// linalg.yield into *out_body.
kiln_status_t kiln_linalg_create_generic(
    kiln_ir_builder_t* b, size_t num_inputs, kiln_ir_value_t* const* inputs,
    size_t num_outputs, kiln_ir_value_t* const* outputs,
    const kiln_ir_attribute_t* const* maps, uint32_t num_loops,
    const bool* reduction, kiln_ir_op_t** out_op, kiln_ir_block_t** out_body);

// Rewrites a linalg.matmul / batch_matmul / fill or a named op of
// kiln_linalg_is_named_op into an equivalent linalg.generic (inserted
// before |op|, uses replaced, |op| erased) and returns it. A
// linalg.generic is returned as is. linalg.softmax becomes a fill of -inf,
// a max generic, a fill of 0, an exp-sum generic and a divide generic (the
// last is returned). Convolutions need statically shaped tensor operands.
kiln_status_t kiln_linalg_generalize(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op,
                                     kiln_ir_op_t** out_generic);

//===----------------------------------------------------------------------===//
// linalg.pack / linalg.unpack (linalg_pack.c)
//===----------------------------------------------------------------------===//

#define KILN_LINALG_PACK_MAX_RANK 12

// The relayout of a pack/unpack: the unpacked tensor has |rank| dims; dims
// inner_dims_pos[t] are tiled by tiles[t] (tile_of[d] = t, or -1 for an
// untiled dim); packed outer dim j holds unpacked dim outer_perm[j].
typedef struct kiln_linalg_pack_layout_t {
  bool is_pack;
  bool has_padding;
  int64_t rank;
  int64_t num_tiled;
  int64_t inner_dims_pos[KILN_LINALG_PACK_MAX_RANK];
  int64_t tiles[KILN_LINALG_PACK_MAX_RANK];  // KILN_IR_DYNAMIC_DIM: SSA
  // Operand holding tile t when tiles[t] is dynamic (an index), else -1.
  int64_t tile_operand[KILN_LINALG_PACK_MAX_RANK];
  int64_t outer_perm[KILN_LINALG_PACK_MAX_RANK];
  int64_t tile_of[KILN_LINALG_PACK_MAX_RANK];
} kiln_linalg_pack_layout_t;

// Whether |op| is linalg.pack or linalg.unpack.
bool kiln_linalg_is_pack_op(const kiln_ir_op_t* op);
// Reads the layout of a pack/unpack; false when its attributes are
// malformed (the verifier reports why).
bool kiln_linalg_pack_layout(const kiln_ir_op_t* op,
                             kiln_linalg_pack_layout_t* out);
kiln_status_t kiln_dialect_register_linalg_pack(kiln_ir_context_t* context);

//===----------------------------------------------------------------------===//
// Custom-form pieces shared with other structured dialects (linalg_ext.c)
//===----------------------------------------------------------------------===//

// Adds the `operandSegmentSizes = array<i32: ins, outs>` property.
kiln_status_t kiln_linalg_add_segments(kiln_ir_context_t* context,
                                       kiln_ir_op_state_t* state, int64_t ins,
                                       int64_t outs);
// Parses an optional `KEYWORD(%a, %b : T1, T2)` group into |state|'s
// operands; *out_count receives the operand count (0 when absent) and
// |out_types| (optional) their types.
kiln_status_t kiln_linalg_parse_operand_group(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state,
                                              const char* keyword,
                                              int64_t* out_count,
                                              kiln_mlir_type_list_t* out_types);
// Parses `[-> types]`; when absent and |inferred_from| is given, one
// result per ranked tensor among those types.
kiln_status_t kiln_linalg_parse_results(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state,
    const kiln_mlir_type_list_t* inferred_from);
// Parses `NAME = [i, j, ...]` into the i64 array attribute NAME.
kiln_status_t kiln_linalg_parse_int_list_attr(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state,
                                              const char* name);
// Prints ` KEYWORD(%a, ... : T, ...)` for operands [begin, end) (nothing
// when empty) and ` -> T` / ` -> (T, U)` for the results.
void kiln_linalg_print_group(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                             const char* keyword, uint32_t begin, uint32_t end);
void kiln_linalg_print_results(kiln_ir_printer_t* p, kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_LINALG_H_
