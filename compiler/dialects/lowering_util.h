// Emission helpers shared by the lowering passes: each builds one small op
// of the structured form (structured-form.md) at a builder's insertion point.
// They were copied into every pass; this is the one copy.
//   - Status-returning helpers (lower_stablehlo.c, lower_tosa.c,
//     lower_stablehlo_compute.c, lower_stablehlo_data.c): every helper that
//     creates an op returns the builder's status (NULL on success) and, on
//     success, stores the op's single result in *out.
//   - The sticky-status scalar emitter kiln_lowering_em_* (lower_complex.c,
//     lower_stablehlo_rng_fft.c): expression style, one check at the end.
#ifndef KILN_COMPILER_DIALECTS_LOWERING_UTIL_H_
#define KILN_COMPILER_DIALECTS_LOWERING_UTIL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Generic ops
//===----------------------------------------------------------------------===//

// Creates op |name| with the |n| operands |args|, one result of |type| and
// no attributes.
kiln_status_t kiln_lowering_emit(kiln_ir_builder_t* b, const char* name,
                                 const kiln_ir_type_t* type, size_t n,
                                 kiln_ir_value_t* const* args,
                                 kiln_ir_value_t** out);

// Unary op |name| on |x|; the result has |x|'s type.
kiln_status_t kiln_lowering_emit1(kiln_ir_builder_t* b, const char* name,
                                  kiln_ir_value_t* x, kiln_ir_value_t** out);

// Binary op |name| on (|x|, |y|); the result has |x|'s type.
kiln_status_t kiln_lowering_emit2(kiln_ir_builder_t* b, const char* name,
                                  kiln_ir_value_t* x, kiln_ir_value_t* y,
                                  kiln_ir_value_t** out);

//===----------------------------------------------------------------------===//
// arith ops
//===----------------------------------------------------------------------===//

// arith.cmpi (|is_int|) or arith.cmpf with the i64 attribute `predicate`;
// the result is i1.
kiln_status_t kiln_lowering_cmp(kiln_ir_builder_t* b, bool is_int,
                                int64_t predicate, kiln_ir_value_t* x,
                                kiln_ir_value_t* y, kiln_ir_value_t** out);

// arith.cmpi: kiln_lowering_cmp with is_int = true.
kiln_status_t kiln_lowering_cmpi(kiln_ir_builder_t* b, int64_t predicate,
                                 kiln_ir_value_t* x, kiln_ir_value_t* y,
                                 kiln_ir_value_t** out);

// arith.select |c| ? |x| : |y|; the result has |x|'s type.
kiln_status_t kiln_lowering_select(kiln_ir_builder_t* b, kiln_ir_value_t* c,
                                   kiln_ir_value_t* x, kiln_ir_value_t* y,
                                   kiln_ir_value_t** out);

// arith.constant of |type| whose `value` attribute is |value|.
kiln_status_t kiln_lowering_constant(kiln_ir_builder_t* b,
                                     const kiln_ir_attribute_t* value,
                                     const kiln_ir_type_t* type,
                                     kiln_ir_value_t** out);

// Integer arith.constant |v| of |type|, canonicalized to |type|'s width and
// signedness first (kiln_scalar_canon_int).
kiln_status_t kiln_lowering_int_const(kiln_ir_builder_t* b,
                                      const kiln_ir_type_t* type, int64_t v,
                                      kiln_ir_value_t** out);

// Float arith.constant |v| of |type|.
kiln_status_t kiln_lowering_float_const(kiln_ir_builder_t* b,
                                        const kiln_ir_type_t* type, double v,
                                        kiln_ir_value_t** out);

// arith.constant |v| of type index (no canonicalization: index is 64-bit).
kiln_status_t kiln_lowering_index_const(kiln_ir_builder_t* b, int64_t v,
                                        kiln_ir_value_t** out);

// Converts scalar |v| to |to| with StableHLO convert semantics: float <->
// float (f16 <-> bf16 through f32), int -> float by the source's
// signedness, anything -> i1 as `!= 0`, float -> int truncating toward
// zero, int -> int extending by the source's signedness or truncating.
kiln_status_t kiln_lowering_convert(kiln_ir_builder_t* b, kiln_ir_value_t* v,
                                    const kiln_ir_type_t* to,
                                    kiln_ir_value_t** out);

// min(max(|v|, |lo|), |hi|) on indices (arith.maxsi then arith.minsi); an
// empty range (|hi| < |lo|) clamps to |lo|.
kiln_status_t kiln_lowering_clamp_index(kiln_ir_builder_t* b,
                                        kiln_ir_value_t* v, int64_t lo,
                                        int64_t hi, kiln_ir_value_t** out);

//===----------------------------------------------------------------------===//
// tensor / linalg ops
//===----------------------------------------------------------------------===//

// Dim |d| of tensor |t| as an index value: tensor.dim when it is dynamic,
// else NULL (the static size is in the type).
kiln_status_t kiln_lowering_dynamic_dim(kiln_ir_builder_t* b,
                                        kiln_ir_value_t* t, size_t d,
                                        kiln_ir_value_t** out);

// Dim |r| of tensor |t| as an index value (a constant when static).
kiln_status_t kiln_lowering_dim(kiln_ir_builder_t* b, kiln_ir_value_t* t,
                                size_t r, kiln_ir_value_t** out);

// |v| (an index) clamped into [0, size), |size| an index value (a run-time
// size: max(min(v, size - 1), 0), so 0 when it is empty) or, when NULL, the
// constant |static_size|.
kiln_status_t kiln_lowering_clamp_to_size(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* v,
                                          kiln_ir_value_t* size,
                                          int64_t static_size,
                                          kiln_ir_value_t** out);

// max(min(|v|, |hi|), 0) for a run-time index bound |hi| (0 when |hi| is
// negative).
kiln_status_t kiln_lowering_clamp_to_bound(kiln_ir_builder_t* b,
                                           kiln_ir_value_t* v,
                                           kiln_ir_value_t* hi,
                                           kiln_ir_value_t** out);

// tensor.empty of |type|.
kiln_status_t kiln_lowering_empty(kiln_ir_builder_t* b,
                                  const kiln_ir_type_t* type,
                                  kiln_ir_value_t** out);

// tensor.empty of |type|, whose dynamic dims are those of |like| (a tensor
// of the same rank, read with tensor.dim).
kiln_status_t kiln_lowering_empty_like(kiln_ir_builder_t* b,
                                       const kiln_ir_type_t* type,
                                       kiln_ir_value_t* like,
                                       kiln_ir_value_t** out);

// A generic writing the rank-0 tensor |value| to every element of |init|.
kiln_status_t kiln_lowering_broadcast_into(kiln_ir_builder_t* b,
                                           kiln_ir_value_t* value,
                                           kiln_ir_value_t* init,
                                           kiln_ir_value_t** out);

// linalg.fill of scalar |value| into |init|.
kiln_status_t kiln_lowering_fill(kiln_ir_builder_t* b, kiln_ir_value_t* value,
                                 kiln_ir_value_t* init, kiln_ir_value_t** out);

// A cf.assert that dim |a_dim| of operand |a| of |op| and dim |c_dim| of
// operand |c| have the same run-time size (nothing when both are static);
// its message names |op|'s location and both operands.
kiln_status_t kiln_lowering_assert_same_dim(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op, uint32_t a,
                                            size_t a_dim, uint32_t c,
                                            size_t c_dim);

// A cf.assert of the i1 |cond| whose message names |op|'s location and says
// "run-time shapes disagree: |what|".
kiln_status_t kiln_lowering_assert(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                   kiln_ir_value_t* cond, const char* what);

// As kiln_lowering_assert_same_dim, asserting dim |a_dim| of operand |a|
// at most dim |c_dim| of operand |c| (an update that must fit).
kiln_status_t kiln_lowering_assert_dim_at_most(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op, uint32_t a,
                                               size_t a_dim, uint32_t c,
                                               size_t c_dim);

// A cf.assert that dim |a_dim| of operand |a| of |op| is at least |min| at
// run time (nothing when it is static), named like the one above.
kiln_status_t kiln_lowering_assert_dim_at_least(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op, uint32_t a,
                                                size_t a_dim, int64_t min);

// Builds the value after |count| steps of a loop (|count| an index value;
// none when it is 0 or less). |step| gets a builder inside the loop, the
// step number |j| (an index) and the carried value |current|, and returns
// the next value (same type) in |*next|; |user| is passed through.
typedef kiln_status_t (*kiln_lowering_loop_step_fn_t)(kiln_ir_builder_t* b,
                                                      kiln_ir_value_t* j,
                                                      kiln_ir_value_t* current,
                                                      void* user,
                                                      kiln_ir_value_t** next);

// Replaces the one-result |op| (directly in a function body) by a host
// loop (cf blocks: a header comparing the step number with |count|, a
// body, and |op|'s block split after |op|) that carries |init| through
// |step|; the final value, passed through |finish| when it is not NULL
// (called at a builder after the loop, with |j| NULL), replaces |op|'s
// result. Erases |op|. For counts only known at run time, where a
// lowering that unrolls cannot.
kiln_status_t kiln_lowering_host_loop(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                      kiln_ir_value_t* count,
                                      kiln_ir_value_t* init,
                                      kiln_lowering_loop_step_fn_t step,
                                      kiln_lowering_loop_step_fn_t finish,
                                      void* user);

// The most loops kiln_lowering_assert_window_fits takes.
#define KILN_LOWERING_MAX_LOOPS 16

// A cf.assert that dim |a_dim| of operand |a| of |op| holds what a
// structured op reads of it through |e|, a window read (a sum of
// non-negative multiples of loop dims and a non-negative constant: `oh *
// stride + kh * dilation`) with a run-time size somewhere: loop d runs over
// dim |extent_dim[d]| of operand |extent_operand[d]|. Empty loops read
// nothing. Nothing when |e| has another form, a loop it uses has no
// extent (|extent_operand[d]| < 0) or everything is static.
kiln_status_t kiln_lowering_assert_window_fits(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, uint32_t a, size_t a_dim,
    const kiln_ir_affine_expr_t* e, const int64_t* extent_operand,
    const size_t* extent_dim, uint32_t num_loops);

// tensor.empty of |type|, the result of windows sliding over |input| (a
// convolution's or pooling's padded input): a run-time dim r is |given|[r]
// where |given| (optional) has a size for it (an output channel count read
// off the weights), else (size - span[r]) / stride[r] + 1 of |input|'s
// run-time dim src_dim[r]
// (a span and stride of 1 pass the size through). A cf.assert at |b|'s
// location fails the call when a run-time dim is smaller than one window
// (span > 1), naming the dim; the window reads are asserted to fit
// (kiln_lowering_assert_window_fits).
kiln_status_t kiln_lowering_window_empty(
    kiln_ir_builder_t* b, const kiln_ir_type_t* type, kiln_ir_value_t* input,
    const int64_t* src_dim, const int64_t* span, const int64_t* stride,
    kiln_ir_value_t* const* given, kiln_ir_value_t** out);

// tensor.empty of |type| whose dynamic dims are read at run time
// (tensor.dim) from |inputs|: dim j of the result is dim r of the first
// input i whose map |maps[i]| has loop j as its result r (identity output
// map). That the other inputs agree is checked once the op is structured
// (lower-to-structured asserts every structured op's shared loop dims).
kiln_status_t kiln_lowering_empty_from(kiln_ir_builder_t* b,
                                       const kiln_ir_type_t* type, uint32_t n,
                                       kiln_ir_value_t* const* inputs,
                                       const kiln_ir_attribute_t* const* maps,
                                       kiln_ir_value_t** out);

// Reshapes |input| into |rt| (same element type, row-major, no data
// movement) with tensor.collapse_shape / expand_shape: by grouping dims
// where they group, else through 1-D. |sizes| holds the |num_sizes| index
// values of |rt|'s run-time dims in order, or none (|num_sizes| 0): each
// run-time result dim then follows from the input's (a product, or a
// quotient by the static dims beside it), so a result group may hold one
// run-time dim. Where run-time sizes take part, a cf.assert named by |op|
// checks that the element counts agree and no size is negative.
kiln_status_t kiln_lowering_reshape(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    kiln_ir_value_t* input,
                                    const kiln_ir_type_t* rt,
                                    uint32_t num_sizes,
                                    kiln_ir_value_t* const* sizes,
                                    kiln_ir_value_t** out);

// The run-time sizes of |rt|'s dynamic dims read at host level from the
// 1-D shape tensor |shape| (integers or index, one per dim of |rt|): entry
// j for each dynamic dim j, as index values in |sizes| (room for the rank
// of |rt|), |*num_sizes| of them.
kiln_status_t kiln_lowering_sizes_from_shape(kiln_ir_builder_t* b,
                                             kiln_ir_value_t* shape,
                                             const kiln_ir_type_t* rt,
                                             kiln_ir_value_t** sizes,
                                             uint32_t* num_sizes);

// Replaces |op| (tensor.reshape, stablehlo.dynamic_reshape: operand 0 the
// data, operand 1 a 1-D shape tensor) by kiln_lowering_reshape of its
// operand into its result type, the run-time dims sized by the shape's
// entries (kiln_lowering_sizes_from_shape).
kiln_status_t kiln_lowering_reshape_to_shape(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op);

// linalg.index |dim| (an index), inside a linalg.generic body.
kiln_status_t kiln_lowering_linalg_index(kiln_ir_builder_t* b, int64_t dim,
                                         kiln_ir_value_t** out);

// The largest tensor rank kiln_lowering_extract takes.
#define KILN_LOWERING_MAX_RANK 16

// tensor.extract %t[coords] with the rank-of-|t| index values |coords| (NULL
// for a rank-0 tensor); the result has |t|'s element type. Fails with
// INVALID_ARGUMENT above KILN_LOWERING_MAX_RANK.
kiln_status_t kiln_lowering_extract(kiln_ir_builder_t* b, kiln_ir_value_t* t,
                                    kiln_ir_value_t* const* coords,
                                    kiln_ir_value_t** out);

// A builder appending at the end of |body| (a generic's region block) that
// carries |b|'s location, so the body ops point at the op being lowered.
kiln_ir_builder_t kiln_lowering_body_builder(kiln_ir_builder_t* b,
                                             kiln_ir_block_t* body);

// linalg.yield of the |n| values |values| (terminates a generic body).
kiln_status_t kiln_lowering_yield(kiln_ir_builder_t* bb, size_t n,
                                  kiln_ir_value_t* const* values);

// A linalg.generic copying |input|, read through |input_map| (from the
// result's dims to |input|'s), into a new tensor of |result_type|: the one
// data-movement generic behind transposes, slices, reversals, plain copies
// and broadcasts of a rank-0 value (an empty-result map).
kiln_status_t kiln_lowering_copy_through_map(
    kiln_ir_builder_t* b, kiln_ir_value_t* input,
    const kiln_ir_attribute_t* input_map, const kiln_ir_type_t* result_type,
    kiln_ir_value_t** out);

// A parallel linalg.generic with |init| as its only operand (an output read
// through the identity map) in |*out_generic|, and a builder at the end of
// its body in |*out_bb|: the body computes each element from linalg.index.
kiln_status_t kiln_lowering_generic_over(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* init,
                                         kiln_ir_op_t** out_generic,
                                         kiln_ir_builder_t* out_bb);

// Replaces |op| by an iota over |init| (a tensor.empty of its result type):
// each element is its index along |dim| in the element type (int or float).
kiln_status_t kiln_lowering_iota(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                 kiln_ir_value_t* init, int64_t dim);

// Lowers |op|, whose result 0 is its operand 0 with the dims where
// |reversed| (one flag per dim) is true in reverse order (stablehlo.reverse,
// iree_linalg_ext.reverse): a copy through d -> size - 1 - d, the size read
// at run time where it is dynamic. Replaces and erases |op|.
kiln_status_t kiln_lowering_reverse(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    const bool* reversed);

// Replaces |op|'s result 0 with kiln_lowering_copy_through_map of |input|
// (sized like that result) and erases |op|.
kiln_status_t kiln_lowering_replace_by_copy(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* input,
    const kiln_ir_attribute_t* input_map);

// Ends a single-result lowering: linalg.yield |v| in the body builder |bb|,
// then replaces |op|'s result 0 with |generic|'s result 0 and erases |op|.
kiln_status_t kiln_lowering_yield_and_replace(kiln_ir_builder_t* bb,
                                              kiln_ir_value_t* v,
                                              kiln_ir_op_t* op,
                                              kiln_ir_op_t* generic);

//===----------------------------------------------------------------------===//
// Rewriting and types
//===----------------------------------------------------------------------===//

// Replaces every use of |op|'s result 0 with |value| and erases |op|.
void kiln_lowering_replace(kiln_ir_op_t* op, kiln_ir_value_t* value);

// Emits the scalar form of elementwise |op| at |b| on |args| (elements of
// its operands), producing a value of |result_elem| in *out.
typedef kiln_status_t (*kiln_lowering_scalar_fn_t)(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t** args,
    const kiln_ir_type_t* result_elem, kiln_ir_value_t** out);
#define KILN_LOWERING_MAX_ELEMENTWISE_OPERANDS 3
// Replaces elementwise |op| (at most 3 tensor operands of its result's
// shape, or rank 0, broadcast) with one parallel linalg.generic whose body
// |scalar| builds.
kiln_status_t kiln_lowering_elementwise(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                        kiln_lowering_scalar_fn_t scalar);
// As above with the generic's |maps| given: the first |n| operands of |op|
// (maps[0..n-1]) and the result (maps[n]).
kiln_status_t kiln_lowering_elementwise_maps(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, uint32_t n,
    const kiln_ir_attribute_t* const* maps, kiln_lowering_scalar_fn_t scalar);
// True for an op of the arith or math dialect.
bool kiln_lowering_is_arith_math(const kiln_ir_op_t* op);
// True for an arith or math op on a tensor (not arith.constant).
bool kiln_lowering_is_tensor_arith_math(const kiln_ir_op_t* op);
// The scalar form of an arith/math op on tensors: the same op on |args|
// (a kiln_lowering_scalar_fn_t).
kiln_status_t kiln_lowering_arith_math_scalar(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op,
                                              kiln_ir_value_t** args,
                                              const kiln_ir_type_t* result_elem,
                                              kiln_ir_value_t** out);
// The lower_to_structured hook of arith and math: an op on tensors becomes
// one generic of the same op on scalars; a no-op on scalars.
kiln_status_t kiln_lower_elementwise_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);

// Whether |t| is a float type.
bool kiln_lowering_is_float(const kiln_ir_type_t* t);

// Whether |t| is an integer type read as unsigned (ui* or i1).
bool kiln_lowering_is_unsigned(const kiln_ir_type_t* t);

//===----------------------------------------------------------------------===//
// Scalar body emitter with a sticky status
//===----------------------------------------------------------------------===//

// Builds scalar ops (typically in a linalg.generic body) as expressions: each
// kiln_lowering_em_* call returns the new op's result, or NULL once any
// earlier call failed (|status| keeps the first error) or an operand is NULL,
// so a chain of calls needs one check at the end (kiln_lowering_em_yield).
// Fields in this order: {builder, context, status} initializers rely on it.
typedef struct kiln_lowering_emitter_t {
  kiln_ir_builder_t b;
  kiln_ir_context_t* ctx;
  kiln_status_t status;
} kiln_lowering_emitter_t;

// Points |r| at the end of |body| with |b|'s context and location, status OK.
void kiln_lowering_em_init(kiln_lowering_emitter_t* r, kiln_ir_builder_t* b,
                           kiln_ir_block_t* body);

// Op |name| with the |n| operands |args|, one result of |type| and the
// |num_attrs| attributes |attrs|.
kiln_ir_value_t* kiln_lowering_em_op(kiln_lowering_emitter_t* r,
                                     const char* name,
                                     const kiln_ir_type_t* type, size_t n,
                                     kiln_ir_value_t** args, size_t num_attrs,
                                     kiln_ir_named_attribute_t* attrs);

// Binary op |name| on (|a|, |c|), of |a|'s type.
kiln_ir_value_t* kiln_lowering_em_bin(kiln_lowering_emitter_t* r,
                                      const char* name, kiln_ir_value_t* a,
                                      kiln_ir_value_t* c);

// Unary op |name| on |a|, of |type| (NULL: |a|'s type).
kiln_ir_value_t* kiln_lowering_em_un(kiln_lowering_emitter_t* r,
                                     const char* name, kiln_ir_value_t* a,
                                     const kiln_ir_type_t* type);

// arith.constant of |type| with `value` |value|.
kiln_ir_value_t* kiln_lowering_em_const(kiln_lowering_emitter_t* r,
                                        const kiln_ir_type_t* type,
                                        const kiln_ir_attribute_t* value);

// Integer arith.constant |v| of |type|, canonicalized (kiln_scalar_canon_int).
kiln_ir_value_t* kiln_lowering_em_int(kiln_lowering_emitter_t* r,
                                      const kiln_ir_type_t* type, int64_t v);

// Float arith.constant |v| of |type|.
kiln_ir_value_t* kiln_lowering_em_float(kiln_lowering_emitter_t* r,
                                        const kiln_ir_type_t* type, double v);

// arith.cmpi with |predicate| (eq 0, ne 1, slt 2, sle 3, sgt 4, sge 5,
// ult 6, ule 7, ugt 8, uge 9); the result is i1.
kiln_ir_value_t* kiln_lowering_em_cmpi(kiln_lowering_emitter_t* r,
                                       int64_t predicate, kiln_ir_value_t* a,
                                       kiln_ir_value_t* c);

// arith.select |c| ? |x| : |y|.
kiln_ir_value_t* kiln_lowering_em_select(kiln_lowering_emitter_t* r,
                                         kiln_ir_value_t* c, kiln_ir_value_t* x,
                                         kiln_ir_value_t* y);

// linalg.index |dim| cast to i64.
kiln_ir_value_t* kiln_lowering_em_index_i64(kiln_lowering_emitter_t* r,
                                            int64_t dim);

// linalg.yield |v|; returns the sticky status if set, an INTERNAL error when
// |v| is NULL, else the builder's status.
kiln_status_t kiln_lowering_em_yield(kiln_lowering_emitter_t* r,
                                     kiln_ir_value_t* v);

//===----------------------------------------------------------------------===//
// The lower-to-structured driver's one public entry
//===----------------------------------------------------------------------===//

// Lowers |op| to the structured form through its definition's
// lower_to_structured hook (a no-op for ops without one), after the static
// shape check lower-to-structured applies. Lowerings call it for the ops
// they decompose into others; |b| only supplies the context.
kiln_status_t kiln_lower_to_structured_op(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op);

// Registers |count| definitions of |defs| with |hook| as their
// lower_to_structured: copies them into |context|'s arena (the tables stay
// const and each context owns its copies).
kiln_status_t kiln_lowering_register_ops(kiln_ir_context_t* context,
                                         const kiln_ir_op_def_t* defs,
                                         size_t count, kiln_ir_lower_fn_t hook);
// As above with the hook of each definition chosen by |pick| (once per
// definition, at registration).
kiln_status_t kiln_lowering_register_ops_picked(
    kiln_ir_context_t* context, const kiln_ir_op_def_t* defs, size_t count,
    kiln_ir_lower_fn_t (*pick)(const kiln_ir_op_def_t* def));

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_LOWERING_UTIL_H_
