// Lowering of the StableHLO data-movement and window ops and the chlo
// broadcasting ops to the structured form (structured-form.md). Every op
// becomes linalg.generic(s); the backends need no knowledge of them:
//   - pad: a generic over the result; per dim `local = i - low`, inside when
//     local >= 0, local % (interior + 1) == 0 and local / (interior + 1) <
//     size; tensor.extract at the clamped source index, arith.select with
//     the padding value (negative edge padding just shifts `local`).
//   - reverse: a copy with the map `d -> size - 1 - d`.
//   - dynamic_slice / torch_index_select / gather: a generic over the
//     result whose body reads the indices (tensor.extract), clamps them as
//     the spec says, and extracts the operand element.
//   - scatter: a generic over (operand dims, update scatter dims), the
//     latter reduction loops run in order: every operand element scans the
//     updates; an update whose window covers the element is combined into
//     the accumulator with the update computation. O(operand x updates),
//     deterministic (updates apply in index order, the last one wins).
//   - reduce_window: pad (padding + base dilation, with the init value),
//     then a generic with window reduction loops; input map
//     `o * stride + w * window_dilation`.
//   - convolution: pad the input (padding + lhs dilation, zeros), then a
//     generic over (output dims, kernel input feature, kernel spatial);
//     input map `o * stride + k * rhs_dilation`, feature groups select the
//     input feature `(of floordiv (O/G)) * Ci + ci`, batch groups the input
//     batch `(of floordiv (O/B)) * (N/B) + ob`.
//   - batch_norm_inference and chlo.broadcast_*: decomposed into
//     stablehlo ops (broadcast_in_dim, add, rsqrt, ...) lowered in turn.
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/input/stablehlo/stablehlo_data.h"

#define KILN_LD_MAX KILN_SHLO_DATA_MAX_RANK

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

static kiln_scalar_t kiln_ld_zero(const kiln_ir_type_t* e) {
  kiln_scalar_t z;
  memset(&z, 0, sizeof(z));
  if (e->kind == KILN_IR_TYPE_FLOAT) z.f = 0.0;
  return z;
}

// An integer scalar as an index (unsigned types zero-extend).
static kiln_status_t kiln_ld_to_index(kiln_ir_builder_t* b, kiln_ir_value_t* v,
                                      kiln_ir_value_t** out) {
  const kiln_ir_type_t* t = v->type;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(b->context);
  bool is_unsigned =
      t->kind == KILN_IR_TYPE_INTEGER &&
      (t->integer.signedness == KILN_IR_UNSIGNED || t->integer.width == 1);
  return kiln_lowering_emit(
      b, is_unsigned ? "arith.index_castui" : "arith.index_cast", index, 1, &v,
      out);
}

// *acc = *acc && (lo <= v < hi) (NULL *acc: just the test).
static kiln_status_t kiln_ld_and_in_range(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* v, int64_t lo,
                                          int64_t hi, kiln_ir_value_t** acc) {
  kiln_ir_value_t *l, *h, *ge, *lt, *ok;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, lo, &l));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, hi, &h));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_SGE, v, l, &ge));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_SLT, v, h, &lt));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.andi", ge, lt, &ok));
  if (*acc)
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.andi", *acc, ok, &ok));
  *acc = ok;
  return kiln_ok_status();
}

// As above over a fresh tensor of static type |rt|.
static kiln_status_t kiln_ld_generic_over(kiln_ir_builder_t* b,
                                          const kiln_ir_type_t* rt,
                                          kiln_ir_op_t** out_generic,
                                          kiln_ir_builder_t* out_bb) {
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, rt, &init));
  return kiln_lowering_generic_over(b, init, out_generic, out_bb);
}

// The init value (rank 0) broadcast into a fresh tensor of |rt|.
static kiln_status_t kiln_ld_fill(kiln_ir_builder_t* b, kiln_ir_value_t* init,
                                  const kiln_ir_type_t* rt,
                                  kiln_ir_value_t** out) {
  return kiln_lowering_copy_through_map(
      b, init,
      kiln_ir_affine_map_attr_get(b->context, (uint32_t)rt->shaped.rank, 0, 0,
                                  NULL),
      rt, out);
}

static const kiln_ir_affine_expr_t* kiln_ld_mul(kiln_ir_context_t* ctx,
                                                const kiln_ir_affine_expr_t* e,
                                                int64_t c) {
  if (c == 1) return e;
  return kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MUL, e,
                               kiln_ir_affine_constant(ctx, c));
}

static const kiln_ir_affine_expr_t* kiln_ld_add(
    kiln_ir_context_t* ctx, const kiln_ir_affine_expr_t* a,
    const kiln_ir_affine_expr_t* b) {
  return kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_ADD, a, b);
}

//===----------------------------------------------------------------------===//
// pad (also used by reduce_window and convolution)
//===----------------------------------------------------------------------===//

// |input| padded to |rt| by |lo|/|hi| (may be negative) and |interior|;
// the padding value is element [] of the rank-0 tensor |pad_value|, or zero
// when NULL. *out is |input| itself when nothing is padded.
static kiln_status_t kiln_ld_pad(kiln_ir_builder_t* b, kiln_ir_value_t* input,
                                 kiln_ir_value_t* pad_value, const int64_t* lo,
                                 const int64_t* interior,
                                 const kiln_ir_type_t* rt,
                                 kiln_ir_value_t** out) {
  const kiln_ir_type_t* in = input->type;
  uint32_t rank = (uint32_t)in->shaped.rank;
  bool trivial = true;
  for (uint32_t d = 0; d < rank; ++d) {
    trivial &= lo[d] == 0 && interior[d] == 0 &&
               rt->shaped.dims[d] == in->shaped.dims[d];
  }
  if (trivial) {
    *out = input;
    return kiln_ok_status();
  }
  // Run-time sized dims are unpadded (the callers check): sized like the
  // input's.
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, input, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  kiln_ir_value_t* idx[KILN_LD_MAX];
  kiln_ir_value_t* inside = NULL;
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &idx[d]));
    int64_t size = in->shaped.dims[d];
    if (lo[d] == 0 && interior[d] == 0 && rt->shaped.dims[d] <= size) continue;
    kiln_ir_value_t* local = idx[d];
    if (lo[d] != 0) {
      kiln_ir_value_t* off = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, lo[d], &off));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.subi", local, off, &local));
    }
    if (interior[d] != 0) {
      kiln_ir_value_t *step, *rem, *zero, *on_grid, *q;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, interior[d] + 1, &step));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
      KILN_RETURN_IF_ERROR(kiln_ld_and_in_range(
          &bb, local, 0, (size - 1) * (interior[d] + 1) + 1, &inside));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.remsi", local, step, &rem));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, rem, zero, &on_grid));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", inside, on_grid, &inside));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.divsi", local, step, &q));
      local = q;
    } else {
      KILN_RETURN_IF_ERROR(kiln_ld_and_in_range(&bb, local, 0, size, &inside));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_clamp_index(&bb, local, 0, size - 1, &idx[d]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, input, idx, &v));
  if (inside) {
    kiln_ir_value_t* fill = NULL;
    const kiln_ir_type_t* e = in->shaped.element;
    if (pad_value) {
      KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, pad_value, NULL, &fill));
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_constant(
          &bb, kiln_scalar_to_attr(b->context, e, kiln_ld_zero(e)), e, &fill));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, inside, v, fill, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

static int64_t kiln_ld_list(const kiln_ir_op_t* op, const char* name,
                            int64_t* out, size_t rank, int64_t fallback) {
  int64_t n =
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, name), out, KILN_LD_MAX);
  if (n < 0) {
    for (size_t i = 0; i < rank; ++i) out[i] = fallback;
    return (int64_t)rank;
  }
  return n;
}

// stablehlo.pad of a dynamically shaped operand: a generic over the result
// (|rt|), sized operand + low + high + interior * (operand - 1) at run time;
// element i reads the operand at (i - low) / (interior + 1) where that is on
// the grid and inside it (its run-time size), else the padding value
// (element [] of the rank-0 |pad_value|, or zero when NULL).
static kiln_status_t kiln_ld_pad_dynamic(
    kiln_ir_builder_t* b, kiln_ir_value_t* input, kiln_ir_value_t* pad_value,
    const int64_t* lo, const int64_t* hi, const int64_t* interior,
    const kiln_ir_type_t* rt, kiln_ir_value_t** out) {
  const kiln_ir_type_t* in = input->type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  kiln_ir_value_t* size[KILN_LD_MAX];
  kiln_ir_value_t* sizes[KILN_LD_MAX];
  uint32_t num_sizes = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, input, d, &size[d]));
    if (rt->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) continue;
    kiln_ir_value_t *n = size[d], *pads = NULL;
    if (!n) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, in->shaped.dims[d], &n));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, lo[d] + hi[d], &pads));
    if (interior[d] != 0) {
      // interior * max(n - 1, 0) more elements.
      kiln_ir_value_t *one = NULL, *zero = NULL, *gaps = NULL, *step = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 0, &zero));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", n, one, &gaps));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.maxsi", gaps, zero, &gaps));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, interior[d], &step));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.muli", gaps, step, &gaps));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.addi", pads, gaps, &pads));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.addi", n, pads, &sizes[num_sizes++]));
  }
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", rt, num_sizes, sizes, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  kiln_ir_value_t *idx[KILN_LD_MAX], *inside = NULL;
  for (uint32_t d = 0; d < rank; ++d) {
    kiln_ir_value_t *local = NULL, *off = NULL, *zero = NULL, *ge = NULL,
                    *lt = NULL, *n = size[d];
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &local));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, lo[d], &off));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", local, off, &local));
    if (!n) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, in->shaped.dims[d], &n));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, local, zero, &ge));
    if (interior[d] != 0) {
      // On the grid of every (interior + 1)-th element, then its index.
      kiln_ir_value_t *step = NULL, *rem = NULL, *on_grid = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, interior[d] + 1, &step));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.remsi", local, step, &rem));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, rem, zero, &on_grid));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", ge, on_grid, &ge));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.divsi", local, step, &local));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, local, n, &lt));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", ge, lt, &ge));
    if (inside) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", inside, ge, &ge));
    }
    inside = ge;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_clamp_to_size(&bb, local, n, 0, &idx[d]));
  }
  kiln_ir_value_t *v = NULL, *fill = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, input, idx, &v));
  const kiln_ir_type_t* e = in->shaped.element;
  if (pad_value) {
    KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, pad_value, NULL, &fill));
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        &bb, kiln_scalar_to_attr(b->context, e, kiln_ld_zero(e)), e, &fill));
  }
  if (inside) {
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, inside, v, fill, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_ld_lower_pad(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  int64_t lo[KILN_LD_MAX], hi[KILN_LD_MAX], interior[KILN_LD_MAX];
  size_t rank = op->results[0].type->shaped.rank;
  kiln_ld_list(op, "edge_padding_low", lo, rank, 0);
  kiln_ld_list(op, "edge_padding_high", hi, rank, 0);
  kiln_ld_list(op, "interior_padding", interior, rank, 0);
  kiln_ir_value_t* v = NULL;
  if (!kiln_ir_type_has_static_shape(kiln_ir_op_operand(op, 0)->type) ||
      !kiln_ir_type_has_static_shape(op->results[0].type)) {
    KILN_RETURN_IF_ERROR(kiln_ld_pad_dynamic(
        b, kiln_ir_op_operand(op, 0), kiln_ir_op_operand(op, 1), lo, hi,
        interior, op->results[0].type, &v));
    kiln_lowering_replace(op, v);
    return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_ld_pad(b, kiln_ir_op_operand(op, 0),
                                   kiln_ir_op_operand(op, 1), lo, interior,
                                   op->results[0].type, &v));
  kiln_lowering_replace(op, v);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// reverse, dynamic_slice, torch_index_select, gather
//===----------------------------------------------------------------------===//

// The number of start positions of a |size|-element slice of a static dim
// of |dim| elements (unused, 0, when |dim| is a run-time size: its
// sentinel is not arithmetic).
static int64_t kiln_ld_num_static_starts(int64_t dim, int64_t size) {
  return dim == KILN_IR_DYNAMIC_DIM ? 0 : dim - size + 1;
}

// For a slice of |size| elements along dim |dim| of operand 0 of |op|: when
// that dim is dynamic, asserts it holds the slice and returns in |*out| the
// number of valid start positions (dim - size + 1, clamping's bound); NULL
// when it is static.
static kiln_status_t kiln_ld_num_starts(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                        size_t dim, int64_t size,
                                        kiln_ir_value_t** out) {
  kiln_ir_value_t *run_time = NULL, *last = NULL;
  *out = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_dynamic_dim(b, kiln_ir_op_operand(op, 0), dim, &run_time));
  if (!run_time) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_lowering_assert_dim_at_least(b, op, 0, dim, size));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, size - 1, &last));
  return kiln_lowering_emit2(b, "arith.subi", run_time, last, out);
}

static kiln_status_t kiln_ld_lower_reverse(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  int64_t dims[KILN_LD_MAX];
  int64_t n = kiln_ld_list(op, "dimensions", dims, 0, 0);
  bool rev[KILN_LD_MAX] = {false};
  for (int64_t i = 0; i < n; ++i) rev[dims[i]] = true;
  return kiln_lowering_reverse(b, op, rev);
}

static kiln_status_t kiln_ld_lower_dynamic_slice(kiln_ir_builder_t* b,
                                                 kiln_ir_op_t* op) {
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  // A dynamic operand dim: checked to hold the (static) slice, and the
  // start clamped to its run-time size less the slice's.
  kiln_ir_value_t* num_starts[KILN_LD_MAX];
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(
        kiln_ld_num_starts(b, op, d, rt->shaped.dims[d], &num_starts[d]));
  }
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_ld_generic_over(b, rt, &generic, &bb));
  kiln_ir_value_t* idx[KILN_LD_MAX];
  for (uint32_t d = 0; d < rank; ++d) {
    kiln_ir_value_t *s, *i;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_extract(&bb, kiln_ir_op_operand(op, d + 1), NULL, &s));
    KILN_RETURN_IF_ERROR(kiln_ld_to_index(&bb, s, &s));
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
        &bb, s, num_starts[d],
        kiln_ld_num_static_starts(in->shaped.dims[d], rt->shaped.dims[d]), &s));
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &i));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", s, i, &idx[d]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, input, idx, &v));
  return kiln_lowering_yield_and_replace(&bb, v, op, generic);
}

static kiln_status_t kiln_ld_lower_torch_index_select(kiln_ir_builder_t* b,
                                                      kiln_ir_op_t* op) {
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* index = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_ir_context_t* ctx = b->context;
  int64_t dim = 0, bd = 0;
  kiln_stablehlo_torch_index_select_dims(op, &dim, &bd);  // verified
  int64_t irank = (int64_t)index->type->shaped.rank;
  int64_t num_index_dims = irank - bd;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  kiln_ir_value_t* dim_size = NULL;  // the run-time size of input dim |dim|
  if (kiln_ir_type_has_static_shape(rt) &&
      in->shaped.dims[dim] != KILN_IR_DYNAMIC_DIM) {
    KILN_RETURN_IF_ERROR(kiln_ld_generic_over(b, rt, &generic, &bb));
  } else {
    // Result dims: input dims before |dim| (batch dims shared with the
    // index), the index's own dims, then input dims after |dim|.
    uint32_t rank = (uint32_t)rt->shaped.rank;
    const kiln_ir_affine_expr_t* in_exprs[KILN_LD_MAX];
    const kiln_ir_affine_expr_t* ix_exprs[KILN_LD_MAX];
    for (int64_t i = 0; i < (int64_t)in->shaped.rank; ++i) {
      in_exprs[i] = i < dim    ? kiln_ir_affine_dim(ctx, (uint32_t)i)
                    : i == dim ? kiln_ir_affine_constant(ctx, 0)
                               : kiln_ir_affine_dim(
                                     ctx, (uint32_t)(i - 1 + num_index_dims));
    }
    for (int64_t i = 0; i < irank; ++i) {
      ix_exprs[i] =
          kiln_ir_affine_dim(ctx, (uint32_t)(i < bd ? i : dim + (i - bd)));
    }
    const kiln_ir_attribute_t* maps[2] = {
        kiln_ir_affine_map_attr_get(ctx, rank, 0, in->shaped.rank, in_exprs),
        kiln_ir_affine_map_attr_get(ctx, rank, 0, (size_t)irank, ix_exprs)};
    kiln_ir_value_t* inputs[2] = {input, index};
    kiln_ir_value_t* init = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_empty_from(b, rt, 2, inputs, maps, &init));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_dynamic_dim(b, input, (size_t)dim, &dim_size));
    KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  }
  kiln_ir_value_t* r[KILN_LD_MAX];
  for (size_t d = 0; d < rt->shaped.rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, (int64_t)d, &r[d]));
  }
  kiln_ir_value_t* icoords[KILN_LD_MAX];
  for (int64_t i = 0; i < bd; ++i) icoords[i] = r[i];
  for (int64_t i = 0; i < num_index_dims; ++i) icoords[bd + i] = r[dim + i];
  kiln_ir_value_t* sel = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, index, icoords, &sel));
  KILN_RETURN_IF_ERROR(kiln_ld_to_index(&bb, sel, &sel));
  KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(&bb, sel, dim_size,
                                                   in->shaped.dims[dim], &sel));
  kiln_ir_value_t* coords[KILN_LD_MAX];
  for (int64_t i = 0; i < dim; ++i) coords[i] = r[i];
  coords[dim] = sel;
  for (int64_t i = dim + 1; i < (int64_t)in->shaped.rank; ++i) {
    coords[i] = r[i - 1 + num_index_dims];
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, input, coords, &v));
  return kiln_lowering_yield_and_replace(&bb, v, op, generic);
}

static bool kiln_ld_contains(const int64_t* list, int64_t n, int64_t v) {
  for (int64_t i = 0; i < n; ++i) {
    if (list[i] == v) return true;
  }
  return false;
}

// Start index component |k| of the index vector at |batch| (the indices
// tensor's coords without index_vector_dim, in order).
static kiln_status_t kiln_ld_index_component(kiln_ir_builder_t* bb,
                                             kiln_ir_value_t* indices,
                                             int64_t index_vector_dim,
                                             kiln_ir_value_t* const* batch,
                                             int64_t k, kiln_ir_value_t** out) {
  int64_t rank = (int64_t)indices->type->shaped.rank;
  kiln_ir_value_t* coords[KILN_LD_MAX];
  int64_t j = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == index_vector_dim) {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(bb, k, &coords[d]));
    } else {
      coords[d] = batch[j++];
    }
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(bb, indices, coords, &v));
  return kiln_ld_to_index(bb, v, out);
}

static kiln_status_t kiln_ld_lower_gather(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* indices = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_stablehlo_index_dims_t d;
  kiln_stablehlo_index_dims(op, &d);
  int64_t sizes[KILN_LD_MAX];
  kiln_ld_list(op, "slice_sizes", sizes, 0, 0);
  int64_t rank = (int64_t)in->shaped.rank;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  // Dynamic shapes: the result's batch dims are the indices' dims at run
  // time; each start index is clamped to the operand's run-time dim less
  // the slice size, after checking the operand holds a slice.
  kiln_ir_value_t* num_starts[KILN_LD_MAX] = {NULL};
  if (!kiln_ir_type_has_static_shape(rt) ||
      !kiln_ir_type_has_static_shape(in) ||
      !kiln_ir_type_has_static_shape(indices->type)) {
    for (int64_t k = 0; k < d.num_to_operand; ++k) {
      int64_t od = d.to_operand[k];
      KILN_RETURN_IF_ERROR(
          kiln_ld_num_starts(b, op, (size_t)od, sizes[od], &num_starts[k]));
    }
    kiln_ir_value_t* dyn_sizes[KILN_LD_MAX];
    uint32_t num_sizes = 0;
    int64_t p = 0;
    for (int64_t i = 0; i < (int64_t)rt->shaped.rank; ++i) {
      if (kiln_ld_contains(d.window, d.num_window, i)) continue;
      int64_t id = p < d.index_vector_dim ? p : p + 1;
      ++p;
      if (rt->shaped.dims[i] != KILN_IR_DYNAMIC_DIM) continue;
      KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, indices, (size_t)id,
                                                     &dyn_sizes[num_sizes]));
      if (!dyn_sizes[num_sizes]) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(
            b, indices->type->shaped.dims[id], &dyn_sizes[num_sizes]));
      }
      ++num_sizes;
    }
    kiln_ir_value_t* init = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(b, "tensor.empty", rt, num_sizes, dyn_sizes, &init));
    KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  } else {
    KILN_RETURN_IF_ERROR(kiln_ld_generic_over(b, rt, &generic, &bb));
  }
  kiln_ir_value_t *r[KILN_LD_MAX], *batch[KILN_LD_MAX];
  int64_t nb = 0;
  for (int64_t i = 0; i < (int64_t)rt->shaped.rank; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &r[i]));
    if (!kiln_ld_contains(d.window, d.num_window, i)) batch[nb++] = r[i];
  }
  kiln_ir_value_t* coords[KILN_LD_MAX];
  kiln_ir_value_t* zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
  for (int64_t i = 0; i < rank; ++i) coords[i] = zero;
  // Start indices, clamped so the slice fits.
  for (int64_t k = 0; k < d.num_to_operand; ++k) {
    int64_t od = d.to_operand[k];
    kiln_ir_value_t* s = NULL;
    KILN_RETURN_IF_ERROR(kiln_ld_index_component(
        &bb, indices, d.index_vector_dim, batch, k, &s));
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
        &bb, s, num_starts[k],
        kiln_ld_num_static_starts(in->shaped.dims[od], sizes[od]),
        &coords[od]));
  }
  // Batching dims: the batch coordinate of the paired indices dim.
  for (int64_t i = 0; i < d.num_operand_batching; ++i) {
    int64_t sd = d.indices_batching[i];
    int64_t pos = sd - (d.index_vector_dim < sd ? 1 : 0);
    coords[d.operand_batching[i]] = batch[pos];
  }
  // Offsets.
  int64_t j = 0;
  for (int64_t od = 0; od < rank; ++od) {
    if (kiln_ld_contains(d.inserted, d.num_inserted, od) ||
        kiln_ld_contains(d.operand_batching, d.num_operand_batching, od)) {
      continue;
    }
    if (j >= d.num_window) break;
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", coords[od],
                                             r[d.window[j++]], &coords[od]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, input, coords, &v));
  return kiln_lowering_yield_and_replace(&bb, v, op, generic);
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_ld_lower_scatter(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  if (kiln_ir_op_num_regular_operands(op) != 3) {
    return kiln_ir_op_emit_error(
        op, ctx, "scatter of %u inputs is not supported (only one input)",
        (kiln_ir_op_num_regular_operands(op) - 1) / 2);
  }
  kiln_ir_value_t* operand = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* indices = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* updates = kiln_ir_op_operand(op, 2);
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* ut = updates->type;
  const kiln_ir_type_t* e = rt->shaped.element;
  kiln_stablehlo_index_dims_t d;
  kiln_stablehlo_index_dims(op, &d);
  int64_t rank = (int64_t)rt->shaped.rank;
  // Update scatter dims: the update dims that are not window dims.
  int64_t scatter_dims[KILN_LD_MAX], scatter_sizes[KILN_LD_MAX];
  int64_t ns = 0;
  for (int64_t i = 0; i < (int64_t)ut->shaped.rank; ++i) {
    if (!kiln_ld_contains(d.window, d.num_window, i)) {
      scatter_sizes[ns] = ut->shaped.dims[i];
      scatter_dims[ns++] = i;
    }
  }
  for (int64_t i = 0; i < d.num_window; ++i) {
    if (ut->shaped.dims[d.window[i]] == KILN_IR_DYNAMIC_DIM) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "scatter with a dynamic update window dim (%lld) is not supported",
          (long long)d.window[i]);
    }
  }
  uint32_t num_loops = (uint32_t)(rank + ns);
  // Accumulator: a copy of the operand.
  kiln_ir_value_t* acc = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
      b, operand, kiln_linalg_identity_map(ctx, (uint32_t)rank), rt, &acc));
  // The scatter loops' extent comes from a splat constant of their shape.
  kiln_ir_value_t* ins[1];
  const kiln_ir_attribute_t* maps[2];
  size_t num_ins = 0;
  bool dynamic_updates = false;
  for (int64_t i = 0; i < ns; ++i) {
    if (scatter_sizes[i] == KILN_IR_DYNAMIC_DIM) dynamic_updates = true;
  }
  if (dynamic_updates) {
    // Dynamic update count: the updates tensor itself gives the scatter
    // loops their extent (window dims read at 0; the body never uses the
    // block argument, so nothing is loaded through this map).
    const kiln_ir_affine_expr_t* exprs[KILN_LD_MAX];
    int64_t k = 0;
    for (int64_t i = 0; i < (int64_t)ut->shaped.rank; ++i) {
      exprs[i] = k < ns && scatter_dims[k] == i
                     ? kiln_ir_affine_dim(ctx, (uint32_t)(rank + k++))
                     : kiln_ir_affine_constant(ctx, 0);
    }
    ins[0] = updates;
    maps[num_ins++] =
        kiln_ir_affine_map_attr_get(ctx, num_loops, 0, ut->shaped.rank, exprs);
  } else if (ns > 0) {
    const kiln_ir_type_t* st =
        kiln_ir_tensor_type_get(ctx, (size_t)ns, scatter_sizes, e, NULL);
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_splat_attr(ctx, st, kiln_ld_zero(e)), st, &ins[0]));
    int64_t loops[KILN_LD_MAX];
    for (int64_t i = 0; i < ns; ++i) loops[i] = rank + i;
    maps[num_ins++] =
        kiln_linalg_projection_map(ctx, num_loops, (size_t)ns, loops);
  }
  int64_t outs[KILN_LD_MAX];
  for (int64_t i = 0; i < rank; ++i) outs[i] = i;
  maps[num_ins] =
      kiln_linalg_projection_map(ctx, num_loops, (size_t)rank, outs);
  bool reduction[2 * KILN_LD_MAX] = {false};
  for (int64_t i = 0; i < ns; ++i) reduction[rank + i] = true;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, num_ins, ins, 1, &acc, maps, num_loops, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* acc_arg = body->args[num_ins];
  kiln_ir_value_t *o[KILN_LD_MAX], *u[KILN_LD_MAX];
  for (int64_t i = 0; i < rank; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &o[i]));
  }
  for (int64_t i = 0; i < ns; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank + i, &u[i]));
  }
  // Window position of each operand dim: o - start - batch.
  kiln_ir_value_t* w[KILN_LD_MAX];
  for (int64_t i = 0; i < rank; ++i) w[i] = o[i];
  for (int64_t k = 0; k < d.num_to_operand; ++k) {
    int64_t od = d.to_operand[k];
    kiln_ir_value_t* s = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_ld_index_component(&bb, indices, d.index_vector_dim, u, k, &s));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", w[od], s, &w[od]));
  }
  for (int64_t i = 0; i < d.num_operand_batching; ++i) {
    int64_t sd = d.indices_batching[i];
    int64_t pos = sd - (d.index_vector_dim < sd ? 1 : 0);
    int64_t od = d.operand_batching[i];
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", w[od], u[pos], &w[od]));
  }
  kiln_ir_value_t* hit = NULL;
  kiln_ir_value_t* ucoords[KILN_LD_MAX];
  for (int64_t i = 0; i < ns; ++i) ucoords[scatter_dims[i]] = u[i];
  int64_t j = 0;
  for (int64_t od = 0; od < rank; ++od) {
    bool windowed =
        !kiln_ld_contains(d.inserted, d.num_inserted, od) &&
        !kiln_ld_contains(d.operand_batching, d.num_operand_batching, od);
    int64_t size = 1;
    if (windowed && j < d.num_window) size = ut->shaped.dims[d.window[j]];
    KILN_RETURN_IF_ERROR(kiln_ld_and_in_range(&bb, w[od], 0, size, &hit));
    if (windowed && j < d.num_window) {
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_index(&bb, w[od], 0, size - 1,
                                                     &ucoords[d.window[j]]));
      ++j;
    }
  }
  kiln_ir_value_t* upd = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, updates, ucoords, &upd));
  kiln_ir_value_t* args[2] = {acc_arg, upd};
  kiln_ir_value_t* combined = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, op, args, &combined));
  kiln_ir_value_t* result = combined;
  if (hit) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, hit, combined, acc_arg, &result));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &result));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_ld_lower_reduce_window(kiln_ir_builder_t* b,
                                                 kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  if (kiln_ir_op_num_regular_operands(op) != 2) {
    return kiln_ir_op_emit_error(
        op, ctx, "reduce_window of %u inputs is not supported (only one input)",
        kiln_ir_op_num_regular_operands(op) / 2);
  }
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* e = rt->shaped.element;
  size_t rank = in->shaped.rank;
  int64_t window[KILN_LD_MAX], strides[KILN_LD_MAX], base[KILN_LD_MAX],
      wdil[KILN_LD_MAX], pad[2 * KILN_LD_MAX];
  kiln_ld_list(op, "window_dimensions", window, rank, 1);
  kiln_ld_list(op, "window_strides", strides, rank, 1);
  kiln_ld_list(op, "base_dilations", base, rank, 1);
  kiln_ld_list(op, "window_dilations", wdil, rank, 1);
  int64_t np = kiln_dialect_int_list(kiln_ir_op_get_attr(op, "padding"), pad,
                                     2 * KILN_LD_MAX);
  if (np < 0) {
    for (size_t i = 0; i < 2 * rank; ++i) pad[i] = 0;
  } else if (np != (int64_t)(2 * rank)) {
    return kiln_ir_op_emit_error(op, ctx, "padding must be %zux2", rank);
  }
  // Padded, base-dilated input (padding value: the init value).
  int64_t lo[KILN_LD_MAX], hi[KILN_LD_MAX], interior[KILN_LD_MAX],
      pdims[KILN_LD_MAX], src[KILN_LD_MAX], span[KILN_LD_MAX];
  bool dynamic = false;
  for (size_t i = 0; i < rank; ++i) {
    lo[i] = pad[2 * i];
    interior[i] = base[i] - 1;
    hi[i] = pad[2 * i + 1];
    src[i] = (int64_t)i;
    span[i] = (window[i] - 1) * wdil[i] + 1;
    int64_t n = in->shaped.dims[i];
    if (n == KILN_IR_DYNAMIC_DIM || rt->shaped.dims[i] == KILN_IR_DYNAMIC_DIM) {
      // A run-time size: padded and windowed on the host's sizes
      // (kiln_ld_pad_dynamic, kiln_lowering_window_empty).
      if (n != rt->shaped.dims[i]) {
        return kiln_ir_op_emit_error(
            op, ctx,
            "dim %zu must be run-time sized in both the operand and the "
            "result, or in neither",
            i);
      }
      dynamic = true;
      pdims[i] = KILN_IR_DYNAMIC_DIM;
      continue;
    }
    pdims[i] =
        (n > 0 ? (n - 1) * base[i] + 1 : 0) + pad[2 * i] + pad[2 * i + 1];
  }
  const kiln_ir_type_t* pt = kiln_ir_tensor_type_get(ctx, rank, pdims, e, NULL);
  if (dynamic) {
    KILN_RETURN_IF_ERROR(
        kiln_ld_pad_dynamic(b, input, init, lo, hi, interior, pt, &input));
  } else {
    KILN_RETURN_IF_ERROR(kiln_ld_pad(b, input, init, lo, interior, pt, &input));
  }
  kiln_ir_value_t *acc, *wconst;
  if (kiln_ir_type_has_static_shape(rt)) {
    KILN_RETURN_IF_ERROR(kiln_ld_fill(b, init, rt, &acc));
  } else {
    kiln_ir_value_t* empty = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_window_empty(b, rt, input, src, span,
                                                    strides, NULL, &empty));
    KILN_RETURN_IF_ERROR(kiln_lowering_broadcast_into(b, init, empty, &acc));
  }
  const kiln_ir_type_t* wt =
      kiln_ir_tensor_type_get(ctx, rank, window, e, NULL);
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      b, kiln_scalar_splat_attr(ctx, wt, kiln_ld_zero(e)), wt, &wconst));
  uint32_t num_loops = (uint32_t)(2 * rank);
  const kiln_ir_affine_expr_t* exprs[KILN_LD_MAX];
  int64_t wloops[KILN_LD_MAX], oloops[KILN_LD_MAX];
  for (size_t i = 0; i < rank; ++i) {
    exprs[i] = kiln_ld_add(
        ctx, kiln_ld_mul(ctx, kiln_ir_affine_dim(ctx, i), strides[i]),
        kiln_ld_mul(ctx, kiln_ir_affine_dim(ctx, rank + i), wdil[i]));
    wloops[i] = (int64_t)(rank + i);
    oloops[i] = (int64_t)i;
  }
  const kiln_ir_attribute_t* maps[3] = {
      kiln_ir_affine_map_attr_get(ctx, num_loops, 0, rank, exprs),
      kiln_linalg_projection_map(ctx, num_loops, rank, wloops),
      kiln_linalg_projection_map(ctx, num_loops, rank, oloops)};
  bool reduction[2 * KILN_LD_MAX] = {false};
  for (size_t i = 0; i < rank; ++i) reduction[rank + i] = true;
  kiln_ir_value_t* ins[2] = {input, wconst};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 2, ins, 1, &acc, maps, num_loops, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* args[2] = {body->args[2], body->args[0]};
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_lower_stablehlo_region_inline(&bb, op, args, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// convolution
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_ld_lower_convolution(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* kernel = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* kt = kernel->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* e = rt->shaped.element;
  kiln_stablehlo_conv_dims_t d;
  kiln_stablehlo_conv_dims(op, &d);
  int64_t ns = d.num_spatial;
  size_t rank = (size_t)ns + 2;
  const kiln_ir_attribute_t* fg =
      kiln_ir_op_get_attr(op, "feature_group_count");
  const kiln_ir_attribute_t* bg = kiln_ir_op_get_attr(op, "batch_group_count");
  int64_t groups = fg && fg->kind == KILN_IR_ATTR_INTEGER ? fg->i : 1;
  int64_t bgroups = bg && bg->kind == KILN_IR_ATTR_INTEGER ? bg->i : 1;
  if (e->kind != KILN_IR_TYPE_FLOAT && e->kind != KILN_IR_TYPE_INTEGER) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "convolution on %s elements is not supported",
                                 kiln_ir_type_to_string(ctx, e));
  }
  if (groups > 1 && bgroups > 1) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "batch_group_count > 1 with "
                                 "feature_group_count > 1 is not supported");
  }
  int64_t out_features = rt->shaped.dims[d.output_feature];
  int64_t in_batch = in->shaped.dims[d.input_batch];
  int64_t k_in = kt->shaped.dims[d.kernel_input_feature];
  if (groups < 1 || bgroups < 1 || out_features % groups != 0 ||
      out_features % bgroups != 0 || in_batch % bgroups != 0 ||
      in->shaped.dims[d.input_feature] != k_in * groups) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "feature_group_count %lld / batch_group_count %lld do not divide the "
        "features and batch",
        (long long)groups, (long long)bgroups);
  }
  int64_t strides[KILN_LD_MAX], lhs_dil[KILN_LD_MAX], rhs_dil[KILN_LD_MAX],
      pad[2 * KILN_LD_MAX], rev[KILN_LD_MAX];
  kiln_ld_list(op, "window_strides", strides, (size_t)ns, 1);
  kiln_ld_list(op, "lhs_dilation", lhs_dil, (size_t)ns, 1);
  kiln_ld_list(op, "rhs_dilation", rhs_dil, (size_t)ns, 1);
  kiln_ld_list(op, "window_reversal", rev, (size_t)ns, 0);
  int64_t np = kiln_dialect_int_list(kiln_ir_op_get_attr(op, "padding"), pad,
                                     2 * KILN_LD_MAX);
  if (np < 0) {
    for (int64_t i = 0; i < 2 * ns; ++i) pad[i] = 0;
  } else if (np != 2 * ns) {
    return kiln_ir_op_emit_error(op, ctx, "padding must be %lldx2",
                                 (long long)ns);
  }
  // Padded, lhs-dilated input.
  int64_t lo[KILN_LD_MAX] = {0}, interior[KILN_LD_MAX] = {0},
          pdims[KILN_LD_MAX];
  for (size_t i = 0; i < rank; ++i) pdims[i] = in->shaped.dims[i];
  // Run-time sizes: the batch (one batch group) and the spatial dims, each
  // in both the input and the output or in neither (the output's computed
  // from the padded input's: kiln_lowering_window_empty); the kernel and
  // the features are static.
  int64_t hi[KILN_LD_MAX] = {0}, src[KILN_LD_MAX], span[KILN_LD_MAX],
          ostride[KILN_LD_MAX];
  for (size_t i = 0; i < rank; ++i) {
    src[i] = -1;
    span[i] = ostride[i] = 1;
  }
  src[d.output_batch] = d.input_batch;
  bool dynamic = !kiln_ir_type_has_static_shape(in);
  bool ok = kiln_ir_type_has_static_shape(kt) &&
            in->shaped.dims[d.input_feature] != KILN_IR_DYNAMIC_DIM &&
            rt->shaped.dims[d.output_feature] != KILN_IR_DYNAMIC_DIM &&
            (in->shaped.dims[d.input_batch] == KILN_IR_DYNAMIC_DIM) ==
                (rt->shaped.dims[d.output_batch] == KILN_IR_DYNAMIC_DIM) &&
            (!dynamic || bgroups == 1);
  for (int64_t s = 0; s < ns && ok; ++s) {
    ok = (in->shaped.dims[d.input_spatial[s]] == KILN_IR_DYNAMIC_DIM) ==
         (rt->shaped.dims[d.output_spatial[s]] == KILN_IR_DYNAMIC_DIM);
  }
  if (!ok) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "only the batch (one batch group) and spatial dims of a convolution "
        "may have a run-time size, in both the input and the output");
  }
  for (int64_t s = 0; s < ns; ++s) {
    int64_t dim = d.input_spatial[s];
    int64_t n = in->shaped.dims[dim];
    lo[dim] = pad[2 * s];
    hi[dim] = pad[2 * s + 1];
    interior[dim] = lhs_dil[s] - 1;
    int64_t od = d.output_spatial[s];
    src[od] = dim;
    span[od] = (kt->shaped.dims[d.kernel_spatial[s]] - 1) * rhs_dil[s] + 1;
    ostride[od] = strides[s];
    pdims[dim] = n == KILN_IR_DYNAMIC_DIM
                     ? KILN_IR_DYNAMIC_DIM
                     : (n > 0 ? (n - 1) * lhs_dil[s] + 1 : 0) + pad[2 * s] +
                           pad[2 * s + 1];
  }
  const kiln_ir_type_t* pt =
      kiln_ir_tensor_type_get(ctx, rank, pdims, in->shaped.element, NULL);
  if (dynamic) {
    KILN_RETURN_IF_ERROR(
        kiln_ld_pad_dynamic(b, input, NULL, lo, hi, interior, pt, &input));
  } else {
    KILN_RETURN_IF_ERROR(kiln_ld_pad(b, input, NULL, lo, interior, pt, &input));
  }
  // Loops: output dims (in output order), ci, kernel spatial.
  uint32_t num_loops = (uint32_t)(rank + 1 + (size_t)ns);
  int64_t ci = (int64_t)rank;
  const kiln_ir_affine_expr_t* of = kiln_ir_affine_dim(ctx, d.output_feature);
  const kiln_ir_affine_expr_t* iexprs[KILN_LD_MAX];
  const kiln_ir_affine_expr_t* kexprs[KILN_LD_MAX];
  const kiln_ir_affine_expr_t* batch = kiln_ir_affine_dim(ctx, d.output_batch);
  if (bgroups > 1) {
    const kiln_ir_affine_expr_t* g = kiln_ir_affine_binary(
        ctx, KILN_IR_AFFINE_FLOORDIV, of,
        kiln_ir_affine_constant(ctx, out_features / bgroups));
    batch = kiln_ld_add(ctx, kiln_ld_mul(ctx, g, in_batch / bgroups), batch);
  }
  iexprs[d.input_batch] = batch;
  const kiln_ir_affine_expr_t* feature = kiln_ir_affine_dim(ctx, ci);
  if (groups > 1) {
    const kiln_ir_affine_expr_t* g = kiln_ir_affine_binary(
        ctx, KILN_IR_AFFINE_FLOORDIV, of,
        kiln_ir_affine_constant(ctx, out_features / groups));
    feature = kiln_ld_add(ctx, kiln_ld_mul(ctx, g, k_in), feature);
  }
  iexprs[d.input_feature] = feature;
  kexprs[d.kernel_input_feature] = kiln_ir_affine_dim(ctx, ci);
  kexprs[d.kernel_output_feature] = of;
  for (int64_t s = 0; s < ns; ++s) {
    const kiln_ir_affine_expr_t* k = kiln_ir_affine_dim(ctx, ci + 1 + s);
    iexprs[d.input_spatial[s]] = kiln_ld_add(
        ctx,
        kiln_ld_mul(ctx, kiln_ir_affine_dim(ctx, d.output_spatial[s]),
                    strides[s]),
        kiln_ld_mul(ctx, k, rhs_dil[s]));
    if (rev[s]) {
      int64_t size = kt->shaped.dims[d.kernel_spatial[s]];
      k = kiln_ld_add(ctx, kiln_ld_mul(ctx, k, -1),
                      kiln_ir_affine_constant(ctx, size - 1));
    }
    kexprs[d.kernel_spatial[s]] = k;
  }
  // The kernel map must name every reduction loop plainly for the loop
  // extents: with window reversal, the extent comes from a splat constant.
  int64_t oloops[KILN_LD_MAX];
  for (size_t i = 0; i < rank; ++i) oloops[i] = (int64_t)i;
  kiln_ir_value_t* ins[3] = {input, kernel, NULL};
  const kiln_ir_attribute_t* maps[4];
  maps[0] = kiln_ir_affine_map_attr_get(ctx, num_loops, 0, rank, iexprs);
  maps[1] = kiln_ir_affine_map_attr_get(ctx, num_loops, 0, rank, kexprs);
  size_t num_ins = 2;
  bool any_rev = false;
  for (int64_t s = 0; s < ns; ++s) any_rev |= rev[s] != 0;
  if (any_rev) {
    int64_t wdims[KILN_LD_MAX], wloops[KILN_LD_MAX];
    for (int64_t s = 0; s < ns; ++s) {
      wdims[s] = kt->shaped.dims[d.kernel_spatial[s]];
      wloops[s] = ci + 1 + s;
    }
    const kiln_ir_type_t* wt =
        kiln_ir_tensor_type_get(ctx, (size_t)ns, wdims, e, NULL);
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_splat_attr(ctx, wt, kiln_ld_zero(e)), wt, &ins[2]));
    maps[num_ins++] =
        kiln_linalg_projection_map(ctx, num_loops, (size_t)ns, wloops);
  }
  maps[num_ins] = kiln_linalg_projection_map(ctx, num_loops, rank, oloops);
  kiln_ir_value_t* acc = NULL;
  if (kiln_ir_type_has_static_shape(rt)) {
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_splat_attr(ctx, rt, kiln_ld_zero(e)), rt, &acc));
  } else {
    // The output batch sized by the input's, the spatial dims by the
    // windows over the padded input.
    kiln_ir_value_t *empty = NULL, *zero = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_window_empty(b, rt, ins[0], src, span,
                                                    ostride, NULL, &empty));
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_to_attr(ctx, e, kiln_ld_zero(e)), e, &zero));
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, zero, empty, &acc));
  }
  bool reduction[2 * KILN_LD_MAX + 1] = {false};
  for (uint32_t i = (uint32_t)rank; i < num_loops; ++i) reduction[i] = true;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, num_ins, ins, 1, &acc, maps, num_loops, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *x, *w, *prod, *sum;
  KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[0], e, &x));
  KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[1], e, &w));
  bool f = e->kind == KILN_IR_TYPE_FLOAT;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, f ? "arith.mulf" : "arith.muli", x, w, &prod));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, f ? "arith.addf" : "arith.addi",
                                           body->args[num_ins], prod, &sum));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &sum));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Decompositions: batch_norm_inference, chlo.broadcast_*
//===----------------------------------------------------------------------===//

typedef struct kiln_ld_ops_t {
  kiln_ir_op_t* ops[16];
  size_t count;
} kiln_ld_ops_t;

static kiln_status_t kiln_ld_make(kiln_ir_builder_t* b, kiln_ld_ops_t* list,
                                  const char* name, size_t n,
                                  kiln_ir_value_t* const* args,
                                  const kiln_ir_type_t* type, size_t num_attrs,
                                  const kiln_ir_named_attribute_t* attrs,
                                  kiln_ir_value_t** out) {
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(b, name, n, args, 1, &type,
                                                     num_attrs, attrs, &op));
  list->ops[list->count++] = op;
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

// stablehlo.broadcast_in_dim of |v| to |shape_of| (with |v|'s element type)
// along |dims|; |v| itself when the types already agree.
static kiln_status_t kiln_ld_make_broadcast(kiln_ir_builder_t* b,
                                            kiln_ld_ops_t* list,
                                            kiln_ir_value_t* v,
                                            const kiln_ir_type_t* shape_of,
                                            const int64_t* dims,
                                            kiln_ir_value_t** out) {
  const kiln_ir_type_t* t = kiln_ir_tensor_type_get(
      b->context, shape_of->shaped.rank, shape_of->shaped.dims,
      v->type->shaped.element, NULL);
  if (v->type == t) {
    *out = v;
    return kiln_ok_status();
  }
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      b->context, "broadcast_dimensions",
      kiln_dialect_i64_array(b->context, v->type->shaped.rank, dims));
  return kiln_ld_make(b, list, "stablehlo.broadcast_in_dim", 1, &v, t, 1, &attr,
                      out);
}

// Replaces |op| by |result| and lowers the created ops in order.
static kiln_status_t kiln_ld_finish(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    kiln_ld_ops_t* list,
                                    kiln_ir_value_t* result) {
  kiln_lowering_replace(op, result);
  for (size_t i = 0; i < list->count; ++i) {
    kiln_ir_builder_t lb = kiln_ir_builder_make(b->context);
    kiln_ir_builder_set_before(&lb, list->ops[i]);
    lb.location = b->location;
    KILN_RETURN_IF_ERROR(kiln_lower_to_structured_op(&lb, list->ops[i]));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_ld_lower_chlo(kiln_ir_builder_t* b,
                                        kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  size_t rank = rt->shaped.rank;
  kiln_ld_ops_t list = {{0}, 0};
  kiln_ir_value_t* args[2];
  int64_t bdims[KILN_LD_MAX];
  int64_t nb = kiln_dialect_int_list(
      kiln_ir_op_get_attr(op, "broadcast_dimensions"), bdims, KILN_LD_MAX);
  for (uint32_t i = 0; i < 2; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    size_t r = v->type->shaped.rank;
    int64_t dims[KILN_LD_MAX];
    if (nb == (int64_t)r && r < rank) {
      memcpy(dims, bdims, sizeof(int64_t) * r);
    } else {
      for (size_t j = 0; j < r; ++j) dims[j] = (int64_t)(rank - r + j);
    }
    for (size_t j = 0; j < r; ++j) {
      int64_t have = v->type->shaped.dims[j], want = rt->shaped.dims[dims[j]];
      if (have != 1 && have != want) {
        return kiln_ir_op_emit_error(
            op, ctx, "operand #%u dim %zu (size %lld) cannot broadcast to %lld",
            i, j, (long long)have, (long long)want);
      }
    }
    KILN_RETURN_IF_ERROR(
        kiln_ld_make_broadcast(b, &list, v, rt, dims, &args[i]));
  }
  // chlo.broadcast_add -> stablehlo.add
  char* name = kiln_ir_arena_printf(
      ctx, "stablehlo.%.*s", (int)op->name.size - 15, op->name.data + 15);
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_ld_make(b, &list, name, 2, args, rt, 0, NULL, &r));
  return kiln_ld_finish(b, op, &list, r);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//
KILN_STABLEHLO_DEFINE_LOWERING(pad, kiln_ld_lower_pad)
KILN_STABLEHLO_DEFINE_LOWERING(reverse, kiln_ld_lower_reverse)
KILN_STABLEHLO_DEFINE_LOWERING(dynamic_slice, kiln_ld_lower_dynamic_slice)
KILN_STABLEHLO_DEFINE_LOWERING(torch_index_select,
                               kiln_ld_lower_torch_index_select)
KILN_STABLEHLO_DEFINE_LOWERING(gather, kiln_ld_lower_gather)
KILN_STABLEHLO_DEFINE_LOWERING(scatter, kiln_ld_lower_scatter)
KILN_STABLEHLO_DEFINE_LOWERING(reduce_window, kiln_ld_lower_reduce_window)
KILN_STABLEHLO_DEFINE_LOWERING(convolution, kiln_ld_lower_convolution)
KILN_STABLEHLO_DEFINE_LOWERING(chlo, kiln_ld_lower_chlo)
