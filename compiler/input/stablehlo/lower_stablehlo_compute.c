// stablehlo.sort / dynamic_update_slice / cholesky / triangular_solve /
// batch_norm_training / reduce_precision -> structured form. See
// lower_stablehlo_compute.h.
//
// sort (N operands, dim d of size n): two generics, O(n^2) per row, no
// scatter and no data-dependent writes, deterministic for any thread count:
//   1. ranks (tensor<shape x i32>): a generic over (shape..., k) with k a
//      reduction loop over dim d. Element j's rank counts the k != j that
//      go before it: comparator(x[k], x[j]), or neither comparator(x[k],
//      x[j]) nor comparator(x[j], x[k]) and k < j (ties keep the input
//      order, so every sort is stable; is_stable = false allows that too).
//   2. gather: a generic over (shape..., k), k a reduction loop, whose N
//      accumulators start as copies of the operands; output position p
//      takes x_i[k] for the k whose rank is p.
// For a comparator that is a strict weak order the ranks are a
// permutation of 0..n-1, so every position is written exactly once.
//
// dynamic_update_slice: one parallel generic over the result; each start
// index is clamped to [0, operand_dim - update_dim] as StableHLO specifies,
// and the body selects between the operand element and the update element
// (read with tensor.extract at the clamped relative index).
//
// cholesky (...xNxN, N static, batch dims static or not): column by column
// (Cholesky-Banachiewicz), unrolled at compile time, two generics per column j
// starting from L = 0:
//   S[..., i] = sum_{k < j} L[..., i, k] * L[..., j, k]   (reduction over k)
//   L[..., j, j] = sqrt(A[..., j, j] - S[..., j]),
//   L[..., i, j] = (A[..., i, j] - S[..., i]) / L[..., j, j] for i > j;
// the other triangle stays 0. `lower = false` reads A's upper triangle
// (A transposed) and returns L transposed.
//
// triangular_solve: reduced to T y = c with T the effective triangular
// matrix (op(a), transposed again for the right side, where c = b^T and the
// result is y^T), then substitution unrolled row by row (forward for a
// lower T, backward for an upper one), two generics per row i as for
// cholesky: S[j] = sum over the solved rows k of T[i,k] y[k,j], then
// y[i,j] = (c[i,j] - S[j]) / T[i,i] (no division with unit_diagonal). Only
// the triangle named by `lower` is read.
//
// batch_norm_training: per-feature mean and (biased) variance as
// reduction generics over every other dim (then / N), and one elementwise
// generic (x - mean) / sqrt(var + epsilon) * scale + offset.
// batch_norm_grad: sum(g) and sum(g * xhat) per feature in one two-output
// reduction generic, then grad_operand elementwise (StableHLO's formula).
//
// select_and_scatter: two generics, no scatter. (1) over (source dims,
// window dims), the window dims reductions in row-major order: the
// operand position each window selects (the select region decides whether
// the current pick is kept; padding is never picked) as a linear index;
// (2) over (operand dims, source dims), the source dims reductions in
// order: the result starts as init_value and combines (scatter region)
// the source value of every window that selected this position.
// O(operand x source), deterministic.
//
// reduce_precision: an elementwise generic on the float's bits (XLA's
// algorithm): round the mantissa to nearest even by adding a bias and
// masking, then map exponents above/below the reduced range to signed
// infinity/zero; NaNs stay NaN. f16/bf16 are widened to f32 (exact) with
// the bit counts capped at theirs, then narrowed back (exact).
#include "compiler/input/stablehlo/lower_stablehlo_compute.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

#define KILN_SORT_MAX_RANK 15
#define KILN_SORT_MAX_OPERANDS 8

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

// Integer arith.constant |v| of |type| taken as is (not canonicalized,
// unlike kiln_lowering_int_const).
static kiln_status_t kiln_ls_int_const(kiln_ir_builder_t* b,
                                       const kiln_ir_type_t* type, int64_t v,
                                       kiln_ir_value_t** out) {
  kiln_scalar_t s;
  memset(&s, 0, sizeof(s));
  s.i = v;
  return kiln_lowering_constant(b, kiln_scalar_to_attr(b->context, type, s),
                                type, out);
}

// A fresh copy of |v| (an identity generic into a tensor.empty).
static kiln_status_t kiln_ls_copy(kiln_ir_builder_t* b, kiln_ir_value_t* v,
                                  kiln_ir_value_t** out) {
  return kiln_lowering_copy_through_map(
      b, v,
      kiln_linalg_identity_map(b->context, (uint32_t)v->type->shaped.rank),
      v->type, out);
}

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

// Maps over (d0..d<rank-1>, k): "at j" (the point itself) and "at k" (dim
// |d| replaced by the reduction loop k = d<rank>), shared by the rank and
// the permutation generics.
static void kiln_sort_maps(kiln_ir_context_t* ctx, uint32_t rank, int64_t d,
                           const kiln_ir_attribute_t** out_map_j,
                           const kiln_ir_attribute_t** out_map_k) {
  int64_t at_j[KILN_SORT_MAX_RANK], at_k[KILN_SORT_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) at_j[i] = at_k[i] = i;
  at_k[d] = rank;
  *out_map_j = kiln_linalg_projection_map(ctx, rank + 1, rank, at_j);
  *out_map_k = kiln_linalg_projection_map(ctx, rank + 1, rank, at_k);
}

kiln_status_t kiln_lower_sort_ranks(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    uint32_t n, kiln_ir_value_t* const* xs,
                                    int64_t d, kiln_ir_value_t** out_ranks) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* t0 = xs[0]->type;
  uint32_t rank = (uint32_t)t0->shaped.rank;
  if (n > KILN_SORT_MAX_OPERANDS || rank > KILN_SORT_MAX_RANK || d < 0) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "sort of %u operands of rank %u is not "
                                 "supported",
                                 n, rank);
  }
  const kiln_ir_attribute_t *map_j, *map_k;
  kiln_sort_maps(ctx, rank, d, &map_j, &map_k);
  bool reduction[KILN_SORT_MAX_RANK + 1] = {false};
  reduction[rank] = true;
  const kiln_ir_type_t* i32 = kiln_ir_int_type(ctx, 32);
  const kiln_ir_type_t* i1 = kiln_ir_int_type(ctx, 1);

  // 1. Ranks.
  const kiln_ir_type_t* rank_type = kiln_dialect_with_element(ctx, t0, i32);
  int32_t zero = 0;
  kiln_ir_value_t* rank_init = NULL;
  if (!kiln_ir_type_has_static_shape(rank_type)) {
    // Sized like the sorted operand at run time.
    kiln_ir_value_t *empty = NULL, *z = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rank_type, xs[0], &empty));
    KILN_RETURN_IF_ERROR(kiln_ls_int_const(b, i32, 0, &z));
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, z, empty, &rank_init));
  } else {
    kiln_ir_named_attribute_t attr =
        kiln_ir_named_attr(ctx, "value",
                           kiln_ir_dense_elements_attr_get(
                               ctx, rank_type, true, &zero, sizeof(zero)));
    kiln_ir_op_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        b, "arith.constant", 0, NULL, 1, &rank_type, 1, &attr, &c));
    rank_init = kiln_ir_op_result(c, 0);
  }
  kiln_ir_value_t* ins[2 * KILN_SORT_MAX_OPERANDS];
  const kiln_ir_attribute_t* maps[2 * KILN_SORT_MAX_OPERANDS + 1];
  for (uint32_t i = 0; i < n; ++i) {
    ins[i] = xs[i];
    ins[n + i] = xs[i];
    maps[i] = map_j;
    maps[n + i] = map_k;
  }
  maps[2 * n] = map_j;
  kiln_ir_op_t* ranks_op = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 2 * n, ins, 1, &rank_init,
                                                  maps, rank + 1, reduction,
                                                  &ranks_op, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* args[2 * KILN_SORT_MAX_OPERANDS];
    kiln_ir_value_t *less_kj, *less_jk;
    for (uint32_t i = 0; i < n; ++i) {
      args[2 * i] = body->args[n + i];  // lhs: x[k]
      args[2 * i + 1] = body->args[i];  // rhs: x[j]
    }
    KILN_RETURN_IF_ERROR(
        kiln_lower_stablehlo_region_inline(&bb, op, args, &less_kj));
    for (uint32_t i = 0; i < n; ++i) {
      args[2 * i] = body->args[i];
      args[2 * i + 1] = body->args[n + i];
    }
    KILN_RETURN_IF_ERROR(
        kiln_lower_stablehlo_region_inline(&bb, op, args, &less_jk));
    kiln_ir_value_t *j, *k, *k_lt_j, *k_ne_j, *t, *not_jk, *before, *one, *z,
        *inc, *sum;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &j));
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank, &k));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, k, j, &k_lt_j));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_NE, k, j, &k_ne_j));
    KILN_RETURN_IF_ERROR(kiln_ls_int_const(&bb, i1, 1, &t));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.xori", less_jk, t, &not_jk));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", not_jk, k_lt_j, &before));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.ori", less_kj, before, &before));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", before, k_ne_j, &before));
    KILN_RETURN_IF_ERROR(kiln_ls_int_const(&bb, i32, 1, &one));
    KILN_RETURN_IF_ERROR(kiln_ls_int_const(&bb, i32, 0, &z));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, before, one, z, &inc));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", body->args[2 * n], inc, &sum));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &sum));
  }
  *out_ranks = kiln_ir_op_result(ranks_op, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_lower_comparator_sort(kiln_ir_builder_t* b,
                                         kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* t0 = kiln_ir_op_operand(op, 0)->type;
  uint32_t rank = (uint32_t)t0->shaped.rank;
  int64_t d = kiln_stablehlo_sort_dimension(op);
  if (n > KILN_SORT_MAX_OPERANDS || rank > KILN_SORT_MAX_RANK || d < 0) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "sort of %u operands of rank %u is not "
                                 "supported",
                                 n, rank);
  }
  kiln_ir_value_t* xs[KILN_SORT_MAX_OPERANDS];
  for (uint32_t i = 0; i < n; ++i) xs[i] = kiln_ir_op_operand(op, i);
  // 1. Ranks.
  kiln_ir_value_t* ranks = NULL;
  KILN_RETURN_IF_ERROR(kiln_lower_sort_ranks(b, op, n, xs, d, &ranks));
  const kiln_ir_attribute_t *map_j, *map_k;
  kiln_sort_maps(ctx, rank, d, &map_j, &map_k);
  bool reduction[KILN_SORT_MAX_RANK + 1] = {false};
  reduction[rank] = true;
  kiln_ir_value_t* ins[2 * KILN_SORT_MAX_OPERANDS];
  const kiln_ir_attribute_t* maps[2 * KILN_SORT_MAX_OPERANDS + 1];
  kiln_ir_block_t* body = NULL;

  // 2. Gather by rank.
  kiln_ir_value_t* accs[KILN_SORT_MAX_OPERANDS];
  for (uint32_t i = 0; i < n; ++i) {
    KILN_RETURN_IF_ERROR(kiln_ls_copy(b, xs[i], &accs[i]));
  }
  ins[0] = ranks;
  maps[0] = map_k;
  for (uint32_t i = 0; i < n; ++i) {
    ins[1 + i] = xs[i];
    maps[1 + i] = map_k;
    maps[1 + n + i] = map_j;
  }
  kiln_ir_op_t* gather = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1 + n, ins, n, accs, maps, rank + 1, reduction, &gather, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *p, *r, *sel;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &p));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "arith.index_cast",
                                            kiln_ir_index_type_get(ctx), 1,
                                            &body->args[0], &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, r, p, &sel));
    kiln_ir_value_t* outs[KILN_SORT_MAX_OPERANDS];
    for (uint32_t i = 0; i < n; ++i) {
      KILN_RETURN_IF_ERROR(kiln_lowering_select(
          &bb, sel, body->args[1 + i], body->args[1 + n + i], &outs[i]));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, n, outs));
  }
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, i),
                                        kiln_ir_op_result(gather, i));
  }
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// dynamic_update_slice
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_ls_lower_dus(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* operand = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* update = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* t = operand->type;
  const kiln_ir_type_t* u = update->type;
  uint32_t rank = (uint32_t)t->shaped.rank;
  if (rank > KILN_SORT_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  // Run-time sizes (read at host level): the update must fit (checked),
  // starts clamp to [0, operand - update] and update coordinates to
  // [0, update - 1] (index 0 for an empty update).
  kiln_ir_value_t* room[KILN_SORT_MAX_RANK] = {NULL};
  kiln_ir_value_t* size[KILN_SORT_MAX_RANK] = {NULL};
  for (uint32_t dim = 0; dim < rank; ++dim) {
    if (t->shaped.dims[dim] != KILN_IR_DYNAMIC_DIM &&
        u->shaped.dims[dim] != KILN_IR_DYNAMIC_DIM) {
      continue;
    }
    kiln_ir_value_t* td = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_assert_dim_at_most(b, op, 1, dim, 0, dim));
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, operand, dim, &td));
    if (!td) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, t->shaped.dims[dim], &td));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, update, dim, &size[dim]));
    if (!size[dim]) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, u->shaped.dims[dim], &size[dim]));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.subi", td, size[dim], &room[dim]));
  }
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, t, operand, &empty));
  const kiln_ir_attribute_t* maps[2] = {kiln_linalg_identity_map(ctx, rank),
                                        kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1, &operand, 1, &empty, maps, rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* coords[KILN_SORT_MAX_RANK + 1];
  kiln_ir_value_t* inside = NULL;
  coords[0] = update;
  for (uint32_t dim = 0; dim < rank; ++dim) {
    kiln_ir_value_t* start = kiln_ir_op_operand(op, 2 + dim);
    const kiln_ir_type_t* et = start->type->shaped.element;
    bool is_unsigned = et->integer.signedness == KILN_IR_UNSIGNED;
    kiln_ir_value_t *s, *i, *rel, *lo, *hi, *ge, *lt, *ok;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "tensor.extract", et, 1, &start, &s));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(
        &bb, is_unsigned ? "arith.index_castui" : "arith.index_cast", index, 1,
        &s, &s));
    if (room[dim]) {
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_bound(&bb, s, room[dim], &s));
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_index(
          &bb, s, 0, t->shaped.dims[dim] - u->shaped.dims[dim], &s));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, dim, &i));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subi", i, s, &rel));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &lo));
    if (room[dim]) {
      hi = size[dim];
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, u->shaped.dims[dim], &hi));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, rel, lo, &ge));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, rel, hi, &lt));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", ge, lt, &ok));
    if (inside) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", inside, ok, &ok));
    }
    inside = ok;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_clamp_to_size(&bb, rel, room[dim] ? size[dim] : NULL,
                                    u->shaped.dims[dim], &coords[1 + dim]));
  }
  kiln_ir_value_t *v, *r;
  KILN_RETURN_IF_ERROR(kiln_lowering_emit(
      &bb, "tensor.extract", u->shaped.element, 1 + rank, coords, &v));
  if (inside) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, inside, v, body->args[0], &r));
  } else {
    r = v;  // rank 0: the update replaces the operand
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(generic, 0));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// cholesky
//===----------------------------------------------------------------------===//

// (d0..d<loops-1>) -> (d<dims[0]>, ...) where a negative entry -1 - c is
// the constant c.
static const kiln_ir_attribute_t* kiln_ls_map(kiln_ir_context_t* ctx,
                                              uint32_t loops, size_t n,
                                              const int64_t* dims) {
  const kiln_ir_affine_expr_t* exprs[KILN_SORT_MAX_RANK + 1];
  for (size_t i = 0; i < n; ++i) {
    exprs[i] = dims[i] >= 0 ? kiln_ir_affine_dim(ctx, dims[i])
                            : kiln_ir_affine_constant(ctx, -1 - dims[i]);
  }
  return kiln_ir_affine_map_attr_get(ctx, loops, 0, n, exprs);
}

// tensor.empty of |type| whose run-time dim j is dim |from[j]| of |like|.
static kiln_status_t kiln_ls_empty_from(kiln_ir_builder_t* b,
                                        const kiln_ir_type_t* type,
                                        kiln_ir_value_t* like,
                                        const int64_t* from,
                                        kiln_ir_value_t** out) {
  kiln_ir_value_t* sizes[KILN_SORT_MAX_RANK];
  uint32_t n = 0;
  for (size_t j = 0; j < type->shaped.rank; ++j) {
    if (type->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) continue;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_dynamic_dim(b, like, (size_t)from[j], &sizes[n]));
    if (!sizes[n]) {
      return kiln_ir_emit_error(b->context, b->location,
                                "cannot size a dynamically shaped %s",
                                kiln_ir_type_to_string(b->context, type));
    }
    ++n;
  }
  return kiln_lowering_emit(b, "tensor.empty", type, n, sizes, out);
}

// A tensor of |type| filled with float 0, sized as kiln_ls_empty_from
// (|like| and |from| unused for a static |type|).
static kiln_status_t kiln_ls_zeros(kiln_ir_builder_t* b,
                                   const kiln_ir_type_t* type,
                                   kiln_ir_value_t* like, const int64_t* from,
                                   kiln_ir_value_t** out) {
  uint32_t rank = (uint32_t)type->shaped.rank;
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_empty_from(b, type, like, from, &empty));
  const kiln_ir_attribute_t* map = kiln_linalg_identity_map(b->context, rank);
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 0, NULL, 1, &empty, &map,
                                                  rank, NULL, &g, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* e = type->shaped.element;
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      b->context, "value", kiln_ir_float_attr_get(b->context, e, 0.0));
  kiln_ir_op_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &bb, "arith.constant", 0, NULL, 1, &e, 1, &attr, &c));
  kiln_ir_value_t* z = kiln_ir_op_result(c, 0);
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &z));
  *out = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

// tensor.extract of |t| at the generic's loop indices |loops| (one per dim
// of |t|), a negative entry -1 - i taking the scalar |scalars|[i] instead.
static kiln_status_t kiln_ls_extract_at(kiln_ir_builder_t* bb,
                                        kiln_ir_value_t* t,
                                        const int64_t* loops,
                                        kiln_ir_value_t* const* scalars,
                                        kiln_ir_value_t** out) {
  kiln_ir_value_t* coords[KILN_SORT_MAX_RANK];
  for (size_t d = 0; d < t->type->shaped.rank; ++d) {
    if (loops[d] < 0) {
      coords[d] = scalars[-1 - loops[d]];
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_linalg_index(bb, loops[d], &coords[d]));
    }
  }
  return kiln_lowering_extract(bb, t, coords, out);
}

static kiln_status_t kiln_ls_float(kiln_ir_builder_t* bb,
                                   const kiln_ir_type_t* type, double v,
                                   kiln_ir_value_t** out);

// The body of the partial sums of a cholesky column or a substitution row:
// yields |acc| + (k |pred| |bound| ? |x| * |y| : 0), k = linalg.index
// |k_loop| (the solved columns / rows count, the others add nothing).
static kiln_status_t kiln_ls_partial_sum_body(kiln_ir_builder_t* bb,
                                              kiln_ir_value_t* x,
                                              kiln_ir_value_t* y,
                                              kiln_ir_value_t* acc,
                                              uint32_t k_loop, int64_t pred,
                                              kiln_ir_value_t* bound) {
  kiln_ir_value_t *k, *solved, *prod, *zero, *term, *sum;
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(bb, k_loop, &k));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, pred, k, bound, &solved));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.mulf", x, y, &prod));
  KILN_RETURN_IF_ERROR(kiln_ls_float(bb, acc->type, 0.0, &zero));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, solved, prod, zero, &term));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.addf", acc, term, &sum));
  return kiln_lowering_yield(bb, 1, &sum);
}

// The body of cholesky's column-|j| update at (i, c) = linalg.index
// (|i_loop|, |i_loop| + 1): yields c == j ? (i == j ? sqrt(ajj - sj)
// : i > j ? (aij - si) / sqrt(ajj - sj) : l) : l.
static kiln_status_t kiln_ls_cholesky_update_body(
    kiln_ir_builder_t* bb, uint32_t i_loop, kiln_ir_value_t* j,
    kiln_ir_value_t* aij, kiln_ir_value_t* ajj, kiln_ir_value_t* si,
    kiln_ir_value_t* sj, kiln_ir_value_t* l) {
  kiln_ir_value_t *i, *c, *piv, *below, *is_diag, *is_below, *is_col, *v;
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(bb, i_loop, &i));
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(bb, i_loop + 1, &c));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.subf", ajj, sj, &piv));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(bb, "math.sqrt", l->type, 1, &piv, &piv));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.subf", aij, si, &below));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(bb, "arith.divf", below, piv, &below));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, KILN_CMPI_EQ, i, j, &is_diag));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, KILN_CMPI_SGT, i, j, &is_below));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, KILN_CMPI_EQ, c, j, &is_col));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, is_below, below, l, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, is_diag, piv, v, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, is_col, v, l, &v));
  return kiln_lowering_yield(bb, 1, &v);
}

// The body of triangular_solve's row-|i| update at row r = linalg.index
// |r_loop|: yields r == i ? (cij - s) / tii : y (no division when |tii| is
// NULL: a unit diagonal).
static kiln_status_t kiln_ls_solve_update_body(
    kiln_ir_builder_t* bb, uint32_t r_loop, kiln_ir_value_t* i,
    kiln_ir_value_t* cij, kiln_ir_value_t* s, kiln_ir_value_t* tii,
    kiln_ir_value_t* y) {
  kiln_ir_value_t *r, *is_row, *v;
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.subf", cij, s, &v));
  if (tii) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.divf", v, tii, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(bb, r_loop, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, KILN_CMPI_EQ, r, i, &is_row));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, is_row, v, y, &v));
  return kiln_lowering_yield(bb, 1, &v);
}

// One step of a run-time sized cholesky or triangular_solve, for
// kiln_lowering_host_loop.
typedef struct kiln_ls_loop_t {
  kiln_ir_op_t* op;
  kiln_ir_value_t* a;
  kiln_ir_value_t* c;        // triangular_solve: the right-hand sides (n x k)
  kiln_ir_value_t* n;        // the matrix size (index)
  uint32_t nb;               // batch dims
  bool lower;                // cholesky: reads A's lower triangle
  bool swap, t_lower, unit;  // triangular_solve (see below)
} kiln_ls_loop_t;

// The update generic of a run-time step: parallel over |cur|'s shape
// (sized like |like| through |from|, see kiln_ls_empty_from), reading
// |cur| (identity), the partial sums |s| at (batch..., loop |s_loop|) and
// the step's index |j| (a scalar); its body block in |*body|.
static kiln_status_t kiln_ls_update_generic(
    kiln_ir_builder_t* b, kiln_ir_value_t* cur, kiln_ir_value_t* like,
    const int64_t* from, kiln_ir_value_t* s, uint32_t s_loop,
    kiln_ir_value_t* j, kiln_ir_op_t** g, kiln_ir_block_t** body) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)cur->type->shaped.rank, nb = rank - 2;
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_empty_from(b, cur->type, like, from, &empty));
  int64_t m[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < nb; ++d) m[d] = d;
  m[nb] = s_loop;
  const kiln_ir_attribute_t* maps[4] = {
      kiln_linalg_identity_map(ctx, rank), kiln_ls_map(ctx, rank, nb + 1, m),
      kiln_ls_map(ctx, rank, 0, NULL), kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_value_t* ins[3] = {cur, s, j};
  return kiln_linalg_create_generic(b, 3, ins, 1, &empty, maps, rank, NULL, g,
                                    body);
}

// Column |j| of cholesky at run time (as the unrolled column step, with
// the column read by tensor.extract at |j| instead of a constant map):
// S[..., i] = sum_{k < j} L[..., i, k] L[..., j, k], then column j of L.
static kiln_status_t kiln_ls_cholesky_step(kiln_ir_builder_t* b,
                                           kiln_ir_value_t* j,
                                           kiln_ir_value_t* l, void* user,
                                           kiln_ir_value_t** next) {
  kiln_ls_loop_t* p = (kiln_ls_loop_t*)user;
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* t = l->type;
  const kiln_ir_type_t* e = t->shaped.element;
  uint32_t nb = p->nb, rank = nb + 2;
  int64_t m[KILN_SORT_MAX_RANK + 1], same[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) same[d] = d;
  int64_t sdims[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d <= nb; ++d) sdims[d] = t->shaped.dims[d];
  const kiln_ir_type_t* st =
      kiln_ir_tensor_type_get(ctx, nb + 1, sdims, e, NULL);
  // 1. S over (batch..., i, k), k a reduction; j a scalar input.
  kiln_ir_value_t* s0 = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, st, p->a, same, &s0));
  uint32_t loops = nb + 2;
  const kiln_ir_attribute_t* maps[6];
  maps[0] = kiln_linalg_identity_map(ctx, loops);  // L[b, i, k]
  maps[1] = kiln_ls_map(ctx, loops, 0, NULL);      // j
  for (uint32_t d = 0; d <= nb; ++d) m[d] = d;
  maps[2] = kiln_ls_map(ctx, loops, nb + 1, m);  // S[b, i]
  bool reduction[KILN_SORT_MAX_RANK + 1] = {false};
  reduction[nb + 1] = true;
  kiln_ir_value_t* ins[4] = {l, j};
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 2, ins, 1, &s0, maps,
                                                  loops, reduction, &g, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* ljk = NULL;
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = -1;  // j
    m[nb + 1] = nb + 1;
    KILN_RETURN_IF_ERROR(kiln_ls_extract_at(&bb, l, m, &body->args[1], &ljk));
    KILN_RETURN_IF_ERROR(
        kiln_ls_partial_sum_body(&bb, body->args[0], ljk, body->args[2], nb + 1,
                                 KILN_CMPI_SLT, body->args[1]));
  }
  kiln_ir_value_t* s = kiln_ir_op_result(g, 0);
  // 2. New L over (batch..., i, c), reading S[b, i].
  KILN_RETURN_IF_ERROR(
      kiln_ls_update_generic(b, l, p->a, same, s, nb, j, &g, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t** x = body->args;
    kiln_ir_value_t *aij, *ajj, *sj;
    // A(b, i, j) and A(b, j, j) as the op reads A (upper: transposed).
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[p->lower ? nb : nb + 1] = nb;
    m[p->lower ? nb + 1 : nb] = -1;
    KILN_RETURN_IF_ERROR(kiln_ls_extract_at(&bb, p->a, m, &x[2], &aij));
    m[nb] = m[nb + 1] = -1;
    KILN_RETURN_IF_ERROR(kiln_ls_extract_at(&bb, p->a, m, &x[2], &ajj));
    KILN_RETURN_IF_ERROR(kiln_ls_extract_at(&bb, s, m, &x[2], &sj));
    KILN_RETURN_IF_ERROR(
        kiln_ls_cholesky_update_body(&bb, nb, x[2], aij, ajj, x[1], sj, x[0]));
  }
  *next = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_ls_transpose_last2(kiln_ir_builder_t* b,
                                             kiln_ir_value_t* in,
                                             const kiln_ir_type_t* rt,
                                             kiln_ir_value_t** out);

// U = L^T (square matrices), for kiln_lowering_host_loop's finish.
static kiln_status_t kiln_ls_transpose_square(kiln_ir_builder_t* b,
                                              kiln_ir_value_t* j,
                                              kiln_ir_value_t* in, void* user,
                                              kiln_ir_value_t** out) {
  (void)j;
  (void)user;
  return kiln_ls_transpose_last2(b, in, in->type, out);
}

// cholesky with a run-time matrix size: a host loop over the columns
// (kiln_ls_cholesky_step), A checked square at run time.
static kiln_status_t kiln_ls_lower_cholesky_dynamic(kiln_ir_builder_t* b,
                                                    kiln_ir_op_t* op,
                                                    bool lower) {
  kiln_ir_value_t* a = kiln_ir_op_operand(op, 0);
  uint32_t rank = (uint32_t)a->type->shaped.rank;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_assert_same_dim(b, op, 0, rank - 2, 0, rank - 1));
  kiln_ls_loop_t p = {op, a, NULL, NULL, rank - 2, lower, false, false, false};
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, a, rank - 1, &p.n));
  int64_t same[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) same[d] = d;
  kiln_ir_value_t* l = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, a->type, a, same, &l));
  return kiln_lowering_host_loop(b, op, p.n, l, kiln_ls_cholesky_step,
                                 lower ? NULL : kiln_ls_transpose_square, &p);
}

static kiln_status_t kiln_ls_lower_cholesky(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* a = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* t = a->type;
  const kiln_ir_type_t* e = t->shaped.element;
  uint32_t rank = (uint32_t)t->shaped.rank;
  if (rank > KILN_SORT_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  if (t->shaped.dims[rank - 1] == KILN_IR_DYNAMIC_DIM ||
      t->shaped.dims[rank - 2] == KILN_IR_DYNAMIC_DIM) {
    const kiln_ir_attribute_t* la = kiln_ir_op_get_attr(op, "lower");
    return kiln_ls_lower_cholesky_dynamic(b, op, la && la->i != 0);
  }
  uint32_t nb = rank - 2;  // batch dims
  int64_t n = t->shaped.dims[rank - 1];
  const kiln_ir_attribute_t* lower_attr = kiln_ir_op_get_attr(op, "lower");
  bool lower = lower_attr && lower_attr->i != 0;
  // S: tensor<batch x n>.
  int64_t sdims[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < nb; ++d) sdims[d] = t->shaped.dims[d];
  sdims[nb] = n;
  const kiln_ir_type_t* st =
      kiln_ir_tensor_type_get(ctx, nb + 1, sdims, e, NULL);
  // Element (batch..., r, c) of A as the op reads it (upper: A[c][r]).
  uint32_t ar = lower ? nb : nb + 1, ac = lower ? nb + 1 : nb;
  // Run-time batch dims come from A's (L and S share its leading dims).
  int64_t same[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) same[d] = d;
  kiln_ir_value_t* l = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, t, a, same, &l));
  int64_t m[KILN_SORT_MAX_RANK + 1];
  for (int64_t j = 0; j < n; ++j) {
    // 1. S over (batch..., i, k), k a reduction.
    kiln_ir_value_t* s0 = NULL;
    KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, st, a, same, &s0));
    uint32_t loops = nb + 2;
    const kiln_ir_attribute_t* maps[6];
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = nb;
    m[nb + 1] = nb + 1;
    maps[0] = kiln_ls_map(ctx, loops, rank, m);  // L[b, i, k]
    m[nb] = -1 - j;
    maps[1] = kiln_ls_map(ctx, loops, rank, m);  // L[b, j, k]
    m[nb] = nb;
    maps[2] = kiln_ls_map(ctx, loops, nb + 1, m);  // S[b, i]
    bool reduction[KILN_SORT_MAX_RANK + 1] = {false};
    reduction[nb + 1] = true;
    kiln_ir_value_t* ins[5] = {l, l};
    kiln_ir_op_t* sg = NULL;
    kiln_ir_block_t* body = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 2, ins, 1, &s0, maps, loops, reduction, &sg, &body));
    {
      kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
      kiln_ir_value_t* jc = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, j, &jc));
      KILN_RETURN_IF_ERROR(
          kiln_ls_partial_sum_body(&bb, body->args[0], body->args[1],
                                   body->args[2], nb + 1, KILN_CMPI_SLT, jc));
    }
    kiln_ir_value_t* s = kiln_ir_op_result(sg, 0);
    // 2. New L over (batch..., i, c).
    kiln_ir_value_t* empty = NULL;
    KILN_RETURN_IF_ERROR(kiln_ls_empty_from(b, t, a, same, &empty));
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = nb;
    m[nb + 1] = nb + 1;
    maps[0] = kiln_linalg_identity_map(ctx, rank);  // L[b, i, c]
    m[ar] = nb;
    m[ac] = -1 - j;
    maps[1] = kiln_ls_map(ctx, rank, rank, m);  // A(b, i, j)
    m[ar] = -1 - j;
    maps[2] = kiln_ls_map(ctx, rank, rank, m);  // A(b, j, j)
    m[nb] = nb;
    maps[3] = kiln_ls_map(ctx, rank, nb + 1, m);  // S[b, i]
    m[nb] = -1 - j;
    maps[4] = kiln_ls_map(ctx, rank, nb + 1, m);  // S[b, j]
    maps[5] = kiln_linalg_identity_map(ctx, rank);
    ins[0] = l;
    ins[1] = a;
    ins[2] = a;
    ins[3] = s;
    ins[4] = s;
    kiln_ir_op_t* lg = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 5, ins, 1, &empty, maps,
                                                    rank, NULL, &lg, &body));
    {
      kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
      kiln_ir_value_t** x = body->args;
      kiln_ir_value_t* jc = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, j, &jc));
      KILN_RETURN_IF_ERROR(kiln_ls_cholesky_update_body(&bb, nb, jc, x[1], x[2],
                                                        x[3], x[4], x[0]));
    }
    l = kiln_ir_op_result(lg, 0);
  }
  if (!lower) {  // U = L^T
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = nb + 1;
    m[nb + 1] = nb;
    KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
        b, l, kiln_ls_map(ctx, rank, rank, m), t, &l));
  }
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0), l);
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// triangular_solve
//===----------------------------------------------------------------------===//

// out[..., r, c] = in[..., c, r] (a fresh tensor of |rt|).
static kiln_status_t kiln_ls_transpose_last2(kiln_ir_builder_t* b,
                                             kiln_ir_value_t* in,
                                             const kiln_ir_type_t* rt,
                                             kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  int64_t m[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) m[d] = d;
  m[rank - 2] = rank - 1;
  m[rank - 1] = rank - 2;
  return kiln_lowering_copy_through_map(b, in, kiln_ls_map(ctx, rank, rank, m),
                                        rt, out);
}

// Substitution step |step| of a run-time sized triangular_solve (as the
// unrolled row step, row i = step (lower T) or n - 1 - step (upper T) read
// by tensor.extract): S[..., j] = sum over the solved rows k of
// T[i, k] y[k, j], then row i of y.
static kiln_status_t kiln_ls_solve_step(kiln_ir_builder_t* b,
                                        kiln_ir_value_t* step,
                                        kiln_ir_value_t* y, void* user,
                                        kiln_ir_value_t** next) {
  kiln_ls_loop_t* p = (kiln_ls_loop_t*)user;
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* yt = y->type;
  const kiln_ir_type_t* e = yt->shaped.element;
  uint32_t nb = p->nb, rank = nb + 2;
  kiln_ir_value_t* i = step;
  if (!p->t_lower) {
    kiln_ir_value_t* last = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &last));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.subi", p->n, last, &last));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", last, step, &i));
  }
  int64_t m[KILN_SORT_MAX_RANK + 1], sdims[KILN_SORT_MAX_RANK],
      sfrom[KILN_SORT_MAX_RANK], yfrom[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < nb; ++d) sdims[d] = yt->shaped.dims[d];
  sdims[nb] = yt->shaped.dims[nb + 1];
  for (uint32_t d = 0; d < rank; ++d) sfrom[d] = yfrom[d] = d;
  sfrom[nb] = nb + 1;
  const kiln_ir_type_t* st =
      kiln_ir_tensor_type_get(ctx, nb + 1, sdims, e, NULL);
  // 1. S over (batch..., j, k), k a reduction; i a scalar input.
  kiln_ir_value_t* s0 = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, st, y, sfrom, &s0));
  uint32_t loops = nb + 2;
  int64_t jl = nb, kl = nb + 1;
  const kiln_ir_attribute_t* maps[5];
  for (uint32_t d = 0; d < nb; ++d) m[d] = d;
  m[nb] = kl;
  m[nb + 1] = jl;
  maps[0] = kiln_ls_map(ctx, loops, rank, m);  // y[k, j]
  maps[1] = kiln_ls_map(ctx, loops, 0, NULL);  // i
  m[nb] = jl;
  maps[2] = kiln_ls_map(ctx, loops, nb + 1, m);  // S[j]
  bool reduction[KILN_SORT_MAX_RANK + 1] = {false};
  reduction[kl] = true;
  kiln_ir_value_t* ins[4] = {y, i};
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 2, ins, 1, &s0, maps,
                                                  loops, reduction, &g, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* tik = NULL;
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = p->swap ? kl : -1;  // T[i, k] = swap ? a[k, i] : a[i, k]
    m[nb + 1] = p->swap ? -1 : kl;
    KILN_RETURN_IF_ERROR(
        kiln_ls_extract_at(&bb, p->a, m, &body->args[1], &tik));
    KILN_RETURN_IF_ERROR(kiln_ls_partial_sum_body(
        &bb, tik, body->args[0], body->args[2], (uint32_t)kl,
        p->t_lower ? KILN_CMPI_SLT : KILN_CMPI_SGT, body->args[1]));
  }
  kiln_ir_value_t* sv = kiln_ir_op_result(g, 0);
  // 2. Row i of y over (batch..., r, j).
  KILN_RETURN_IF_ERROR(
      kiln_ls_update_generic(b, y, y, yfrom, sv, nb + 1, i, &g, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t** x = body->args;
    kiln_ir_value_t *cij, *tii = NULL;
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = -1;
    m[nb + 1] = nb + 1;
    KILN_RETURN_IF_ERROR(kiln_ls_extract_at(&bb, p->c, m, &x[2], &cij));
    if (!p->unit) {
      m[nb + 1] = -1;
      KILN_RETURN_IF_ERROR(kiln_ls_extract_at(&bb, p->a, m, &x[2], &tii));
    }
    KILN_RETURN_IF_ERROR(
        kiln_ls_solve_update_body(&bb, nb, x[2], cij, x[1], tii, x[0]));
  }
  *next = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

// triangular_solve's result from y: y itself, or y transposed back for the
// right side (|user| the op), for kiln_lowering_host_loop's finish.
static kiln_status_t kiln_ls_solve_finish(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* j,
                                          kiln_ir_value_t* y, void* user,
                                          kiln_ir_value_t** out);

static kiln_status_t kiln_ls_lower_triangular_solve(kiln_ir_builder_t* b,
                                                    kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* a = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* rhs = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* bt = rhs->type;
  const kiln_ir_type_t* e = bt->shaped.element;
  uint32_t rank = (uint32_t)bt->shaped.rank;
  if (rank > KILN_SORT_MAX_RANK - 1) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  uint32_t nb = rank - 2;
  const kiln_ir_attribute_t* attr = kiln_ir_op_get_attr(op, "left_side");
  bool left = attr && attr->i;
  attr = kiln_ir_op_get_attr(op, "lower");
  bool lower = attr && attr->i;
  attr = kiln_ir_op_get_attr(op, "unit_diagonal");
  bool unit = attr && attr->i;
  kiln_string_view_t tr = kiln_stablehlo_enum_word(op, "transpose_a");
  bool transpose = tr.size && !kiln_string_view_equal_cstr(tr, "NO_TRANSPOSE");
  bool swap = transpose != !left;  // T[r, c] = swap ? a[c, r] : a[r, c]
  bool t_lower = lower != swap;
  // y, c: [batch..., n, k]; S: [batch..., k].
  int64_t ydims[KILN_SORT_MAX_RANK], sdims[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) ydims[d] = bt->shaped.dims[d];
  if (!left) {
    ydims[nb] = bt->shaped.dims[nb + 1];
    ydims[nb + 1] = bt->shaped.dims[nb];
  }
  for (uint32_t d = 0; d < nb; ++d) sdims[d] = ydims[d];
  sdims[nb] = ydims[nb + 1];
  int64_t n = ydims[nb];
  const kiln_ir_type_t* yt = kiln_ir_tensor_type_get(ctx, rank, ydims, e, NULL);
  const kiln_ir_type_t* st =
      kiln_ir_tensor_type_get(ctx, nb + 1, sdims, e, NULL);
  // Run-time dims (batch, b's column count) come from b's: y's dim d is
  // b's yfrom[d], S's dim d b's sfrom[d].
  int64_t yfrom[KILN_SORT_MAX_RANK], sfrom[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) yfrom[d] = sfrom[d] = d;
  if (!left) {
    yfrom[nb] = nb + 1;
    yfrom[nb + 1] = nb;
  }
  sfrom[nb] = yfrom[nb + 1];
  kiln_ir_value_t* c = rhs;
  if (!left) KILN_RETURN_IF_ERROR(kiln_ls_transpose_last2(b, rhs, yt, &c));
  kiln_ir_value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, yt, rhs, yfrom, &y));
  if (n == KILN_IR_DYNAMIC_DIM ||
      a->type->shaped.dims[nb] == KILN_IR_DYNAMIC_DIM ||
      a->type->shaped.dims[nb + 1] == KILN_IR_DYNAMIC_DIM) {
    // A run-time matrix size: a host loop over the rows; a square and its
    // size b's matching dim, checked at run time.
    KILN_RETURN_IF_ERROR(
        kiln_lowering_assert_same_dim(b, op, 0, nb, 0, nb + 1));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_assert_same_dim(b, op, 0, nb + 1, 1, left ? nb : nb + 1));
    kiln_ls_loop_t p = {op, a, c, NULL, nb, lower, swap, t_lower, unit};
    KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, a, nb + 1, &p.n));
    return kiln_lowering_host_loop(b, op, p.n, y, kiln_ls_solve_step,
                                   left ? NULL : kiln_ls_solve_finish, &p);
  }
  int64_t m[KILN_SORT_MAX_RANK + 1];
  for (int64_t step = 0; step < n; ++step) {
    int64_t i = t_lower ? step : n - 1 - step;
    // 1. S over (batch..., j, k), k a reduction: sum T[i, k] y[k, j].
    kiln_ir_value_t* s0 = NULL;
    KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, st, rhs, sfrom, &s0));
    uint32_t loops = nb + 2;
    int64_t jl = nb, kl = nb + 1;
    const kiln_ir_attribute_t* maps[5];
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    m[nb] = swap ? kl : -1 - i;
    m[nb + 1] = swap ? -1 - i : kl;
    maps[0] = kiln_ls_map(ctx, loops, rank, m);  // T[i, k]
    m[nb] = kl;
    m[nb + 1] = jl;
    maps[1] = kiln_ls_map(ctx, loops, rank, m);  // y[k, j]
    m[nb] = jl;
    maps[2] = kiln_ls_map(ctx, loops, nb + 1, m);  // S[j]
    bool reduction[KILN_SORT_MAX_RANK + 1] = {false};
    reduction[kl] = true;
    kiln_ir_value_t* ins[4] = {a, y};
    kiln_ir_op_t* sg = NULL;
    kiln_ir_block_t* body = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 2, ins, 1, &s0, maps, loops, reduction, &sg, &body));
    {
      kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
      kiln_ir_value_t* ic = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, i, &ic));
      KILN_RETURN_IF_ERROR(kiln_ls_partial_sum_body(
          &bb, body->args[0], body->args[1], body->args[2], (uint32_t)kl,
          t_lower ? KILN_CMPI_SLT : KILN_CMPI_SGT, ic));
    }
    kiln_ir_value_t* sv = kiln_ir_op_result(sg, 0);
    // 2. Row i of y over (batch..., r, j).
    kiln_ir_value_t* empty = NULL;
    KILN_RETURN_IF_ERROR(kiln_ls_empty_from(b, yt, rhs, yfrom, &empty));
    for (uint32_t d = 0; d < nb; ++d) m[d] = d;
    maps[0] = kiln_linalg_identity_map(ctx, rank);  // y[r, j]
    m[nb] = -1 - i;
    m[nb + 1] = nb + 1;
    maps[1] = kiln_ls_map(ctx, rank, rank, m);  // c[i, j]
    m[nb] = nb + 1;
    maps[2] = kiln_ls_map(ctx, rank, nb + 1, m);  // S[j]
    m[nb] = -1 - i;
    m[nb + 1] = -1 - i;
    maps[3] = kiln_ls_map(ctx, rank, rank, m);  // T[i, i]
    maps[4] = kiln_linalg_identity_map(ctx, rank);
    ins[0] = y;
    ins[1] = c;
    ins[2] = sv;
    ins[3] = a;
    kiln_ir_op_t* yg = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 4, ins, 1, &empty, maps,
                                                    rank, NULL, &yg, &body));
    {
      kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
      kiln_ir_value_t** x = body->args;
      kiln_ir_value_t* ic = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, i, &ic));
      KILN_RETURN_IF_ERROR(kiln_ls_solve_update_body(&bb, nb, ic, x[1], x[2],
                                                     unit ? NULL : x[3], x[0]));
    }
    y = kiln_ir_op_result(yg, 0);
  }
  if (!left) KILN_RETURN_IF_ERROR(kiln_ls_transpose_last2(b, y, bt, &y));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0), y);
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

static kiln_status_t kiln_ls_solve_finish(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* j,
                                          kiln_ir_value_t* y, void* user,
                                          kiln_ir_value_t** out) {
  (void)j;
  kiln_ls_loop_t* p = (kiln_ls_loop_t*)user;
  return kiln_ls_transpose_last2(b, y, kiln_ir_op_operand(p->op, 1)->type, out);
}

//===----------------------------------------------------------------------===//
// batch_norm_training
//===----------------------------------------------------------------------===//

// A float constant of |type| at |bb|.
static kiln_status_t kiln_ls_float(kiln_ir_builder_t* bb,
                                   const kiln_ir_type_t* type, double v,
                                   kiln_ir_value_t** out) {
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      bb->context, "value", kiln_ir_float_attr_get(bb->context, type, v));
  kiln_ir_op_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      bb, "arith.constant", 0, NULL, 1, &type, 1, &attr, &c));
  *out = kiln_ir_op_result(c, 0);
  return kiln_ok_status();
}

// sum over every dim but |fi| of x (or of (x - mean[c])^2 with |mean|),
// times 1/N: a reduction generic into zeros, then a scaling generic.
// The number of elements of |x| per feature (dim |fi|) as a scalar of
// |x|'s element type, for generic bodies: when |x| has run-time dims,
// computed at |b| (before the generic that uses it) from the dims, else
// NULL and kiln_ls_count_in_body builds the constant in the body.
static kiln_status_t kiln_ls_run_time_count(kiln_ir_builder_t* b,
                                            kiln_ir_value_t* x, int64_t fi,
                                            kiln_ir_value_t** out) {
  const kiln_ir_type_t* xt = x->type;
  *out = NULL;
  if (kiln_ir_type_has_static_shape(xt)) return kiln_ok_status();
  kiln_ir_value_t* n = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &n));
  for (size_t d = 0; d < xt->shaped.rank; ++d) {
    if ((int64_t)d == fi) continue;
    kiln_ir_value_t* dim = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, x, d, &dim));
    if (!dim) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, xt->shaped.dims[d], &dim));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.muli", n, dim, &n));
  }
  const kiln_ir_type_t* i64 = kiln_ir_int_type(b->context, 64);
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "arith.index_cast", i64, 1, &n, &n));
  return kiln_lowering_emit(b, "arith.sitofp", xt->shaped.element, 1, &n, out);
}

// The count of kiln_ls_run_time_count inside a body (|bb|): |run_time|, or
// the static count as a constant.
static kiln_status_t kiln_ls_count_in_body(kiln_ir_builder_t* bb,
                                           kiln_ir_value_t* x, int64_t fi,
                                           kiln_ir_value_t* run_time,
                                           kiln_ir_value_t** out) {
  const kiln_ir_type_t* xt = x->type;
  if (run_time) {
    *out = run_time;
    return kiln_ok_status();
  }
  return kiln_ls_float(
      bb, xt->shaped.element,
      (double)(kiln_ir_type_num_elements(xt) / xt->shaped.dims[fi]), out);
}

static kiln_status_t kiln_ls_feature_mean(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* x,
                                          kiln_ir_value_t* mean, uint32_t fi,
                                          const kiln_ir_type_t* ft,
                                          kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* xt = x->type;
  uint32_t rank = (uint32_t)xt->shaped.rank;
  kiln_ir_value_t* acc = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, ft, NULL, NULL, &acc));
  int64_t f = fi;
  const kiln_ir_attribute_t* fmap =
      kiln_linalg_projection_map(ctx, rank, 1, &f);
  const kiln_ir_attribute_t* maps[3] = {kiln_linalg_identity_map(ctx, rank),
                                        fmap, fmap};
  bool reduction[KILN_SORT_MAX_RANK] = {false};
  for (uint32_t d = 0; d < rank; ++d) reduction[d] = d != fi;
  kiln_ir_value_t* ins[2] = {x, mean};
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  // maps: x, [mean], acc (the mean's map and the acc's are both fmap).
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, mean ? 2 : 1, ins, 1, &acc, maps, rank, reduction, &g, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* v = body->args[0];
    if (mean) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.subf", v, body->args[1], &v));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", v, v, &v));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addf",
                                             body->args[mean ? 2 : 1], v, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  }
  kiln_ir_value_t* sum = kiln_ir_op_result(g, 0);
  kiln_ir_value_t *empty = NULL, *count = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_run_time_count(b, x, fi, &count));
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, ft, &empty));
  const kiln_ir_attribute_t* emaps[2] = {kiln_linalg_identity_map(ctx, 1),
                                         kiln_linalg_identity_map(ctx, 1)};
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &sum, 1, &empty, emaps,
                                                  1, NULL, &g, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *n, *v;
    KILN_RETURN_IF_ERROR(kiln_ls_count_in_body(&bb, x, fi, count, &n));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.divf", body->args[0], n, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  }
  *out = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

// One generic normalizing |x| (sized like it, run-time dims included) by
// the per-feature (dim |fi|) |mean|, |var|, |scale| and |offset|, in the
// order IREE's unfused batch norms compute: training (x - mean) / sd *
// scale + offset, inference (|scale_first|) (x - mean) * scale / sd +
// offset, sd = sqrt(var + eps).
static kiln_status_t kiln_ls_batch_norm_apply(
    kiln_ir_builder_t* b, kiln_ir_value_t* x, kiln_ir_value_t* mean,
    kiln_ir_value_t* var, kiln_ir_value_t* scale, kiln_ir_value_t* offset,
    int64_t fi, double eps, bool scale_first, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* xt = x->type;
  const kiln_ir_type_t* e = xt->shaped.element;
  uint32_t rank = (uint32_t)xt->shaped.rank;
  const kiln_ir_attribute_t* fmap =
      kiln_linalg_projection_map(ctx, rank, 1, &fi);
  const kiln_ir_attribute_t* maps[6] = {
      kiln_linalg_identity_map(ctx, rank), fmap, fmap, fmap, fmap,
      kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_value_t* ins[5] = {x, mean, var, scale, offset};
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, xt, x, &empty));
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 5, ins, 1, &empty, maps,
                                                  rank, NULL, &g, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t** a = body->args;
  kiln_ir_value_t *ce, *d, *s, *v;
  KILN_RETURN_IF_ERROR(kiln_ls_float(&bb, e, eps, &ce));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addf", a[2], ce, &s));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "math.sqrt", e, 1, &s, &s));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subf", a[0], a[1], &d));
  if (scale_first) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", d, a[3], &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.divf", v, s, &v));
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.divf", d, s, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", v, a[3], &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addf", v, a[4], &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  *out = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

// (operand, scale, offset, mean, variance) -> the normalized operand.
static kiln_status_t kiln_ls_lower_batch_norm_inference(kiln_ir_builder_t* b,
                                                        kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* eps = kiln_ir_op_get_attr(op, "epsilon");
  kiln_ir_value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_batch_norm_apply(
      b, kiln_ir_op_operand(op, 0), kiln_ir_op_operand(op, 3),
      kiln_ir_op_operand(op, 4), kiln_ir_op_operand(op, 1),
      kiln_ir_op_operand(op, 2), kiln_ir_op_get_attr(op, "feature_index")->i,
      eps && eps->kind == KILN_IR_ATTR_FLOAT ? eps->f.value : 0.0, true, &y));
  kiln_lowering_replace(op, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_ls_lower_batch_norm_training(kiln_ir_builder_t* b,
                                                       kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* xt = x->type;
  uint32_t rank = (uint32_t)xt->shaped.rank;
  if (rank > KILN_SORT_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  uint32_t fi = (uint32_t)kiln_ir_op_get_attr(op, "feature_index")->i;
  double eps = kiln_ir_op_get_attr(op, "epsilon")->f.value;
  const kiln_ir_type_t* ft = op->results[1].type;
  kiln_ir_value_t *mean, *var;
  KILN_RETURN_IF_ERROR(kiln_ls_feature_mean(b, x, NULL, fi, ft, &mean));
  KILN_RETURN_IF_ERROR(kiln_ls_feature_mean(b, x, mean, fi, ft, &var));
  kiln_ir_value_t* y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ls_batch_norm_apply(b, x, mean, var, kiln_ir_op_operand(op, 1),
                               kiln_ir_op_operand(op, 2), fi, eps, false, &y));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0), y);
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 1), mean);
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 2), var);
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// reduce_precision
//===----------------------------------------------------------------------===//

// An iN constant from the low N bits of |u|.
static kiln_status_t kiln_ls_bits(kiln_ir_builder_t* b,
                                  const kiln_ir_type_t* it, uint64_t u,
                                  kiln_ir_value_t** out) {
  int64_t v =
      it->integer.width == 32 ? (int64_t)(int32_t)(uint32_t)u : (int64_t)u;
  return kiln_ls_int_const(b, it, v, out);
}

static kiln_status_t kiln_ls_lower_reduce_precision(kiln_ir_builder_t* b,
                                                    kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* t = x->type;
  const kiln_ir_type_t* ft = t->shaped.element;
  int64_t dest_e = kiln_ir_op_get_attr(op, "exponent_bits")->i;
  int64_t dest_m = kiln_ir_op_get_attr(op, "mantissa_bits")->i;
  int64_t src_e = 8, src_m = 23;
  const kiln_ir_type_t* wt = ft;  // the type the bits are handled in
  switch (ft->flt.kind) {
    case KILN_IR_F16:
      wt = kiln_ir_float_type_get(ctx, KILN_IR_F32);
      if (dest_e > 5) dest_e = 5;
      if (dest_m > 10) dest_m = 10;
      break;
    case KILN_IR_BF16:
      wt = kiln_ir_float_type_get(ctx, KILN_IR_F32);
      if (dest_m > 7) dest_m = 7;
      break;
    case KILN_IR_F64:
      src_e = 11;
      src_m = 52;
      break;
    default:
      break;
  }
  if (dest_e > src_e) dest_e = src_e;
  if (dest_m > src_m) dest_m = src_m;
  uint32_t nbits = wt->flt.kind == KILN_IR_F64 ? 64 : 32;
  const kiln_ir_type_t* it = kiln_ir_int_type(ctx, nbits);
  uint32_t rank = (uint32_t)t->shaped.rank;
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, t, &empty));
  const kiln_ir_attribute_t* maps[2] = {kiln_linalg_identity_map(ctx, rank),
                                        kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &x, 1, &empty, maps,
                                                  rank, NULL, &g, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* v = body->args[0];
  if (wt != ft)
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "arith.extf", wt, 1, &v, &v));
  kiln_ir_value_t* xw = v;
  kiln_ir_value_t* bits = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(&bb, "arith.bitcast", it, 1, &v, &bits));
  if (dest_m < src_m) {
    uint64_t shift = (uint64_t)(src_m - dest_m);
    uint64_t last = 1ull << shift;
    kiln_ir_value_t *c_last, *c_shift, *c_bias, *c_trunc, *lb, *bias;
    KILN_RETURN_IF_ERROR(kiln_ls_bits(&bb, it, last, &c_last));
    KILN_RETURN_IF_ERROR(kiln_ls_bits(&bb, it, shift, &c_shift));
    KILN_RETURN_IF_ERROR(kiln_ls_bits(&bb, it, (last >> 1) - 1, &c_bias));
    KILN_RETURN_IF_ERROR(kiln_ls_bits(&bb, it, ~(last - 1), &c_trunc));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", bits, c_last, &lb));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.shrui", lb, c_shift, &lb));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", lb, c_bias, &bias));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", bits, bias, &bits));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", bits, c_trunc, &bits));
  }
  if (dest_e < src_e) {
    uint64_t sign_mask = 1ull << (nbits - 1);
    uint64_t exp_mask = ((1ull << src_e) - 1) << src_m;
    uint64_t bias = (1ull << (src_e - 1)) - 1;
    uint64_t rbias = (1ull << (dest_e - 1)) - 1;
    kiln_ir_value_t *c_sign, *c_exp, *c_max, *c_min, *ex, *over, *under, *zero,
        *inf;
    KILN_RETURN_IF_ERROR(kiln_ls_bits(&bb, it, sign_mask, &c_sign));
    KILN_RETURN_IF_ERROR(kiln_ls_bits(&bb, it, exp_mask, &c_exp));
    KILN_RETURN_IF_ERROR(
        kiln_ls_bits(&bb, it, (bias + rbias) << src_m, &c_max));
    KILN_RETURN_IF_ERROR(
        kiln_ls_bits(&bb, it, (bias - rbias) << src_m, &c_min));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", bits, c_exp, &ex));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_UGT, ex, c_max, &over));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_ULE, ex, c_min, &under));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", bits, c_sign, &zero));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.ori", zero, c_exp, &inf));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, under, zero, bits, &bits));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, over, inf, bits, &bits));
  }
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(&bb, "arith.bitcast", wt, 1, &bits, &v));
  if (dest_m > 0) {  // NaN stays NaN (rounding may have carried it to inf)
    kiln_ir_value_t* args[2] = {xw, xw};
    const kiln_ir_type_t* i1 = kiln_ir_int_type(ctx, 1);
    kiln_ir_named_attribute_t attr =
        kiln_ir_named_attr(ctx, "predicate",
                           kiln_ir_integer_attr_get(
                               ctx, kiln_ir_int_type(ctx, 64), KILN_CMPF_UNE));
    kiln_ir_op_t* cmp = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, "arith.cmpf", 2, args, 1, &i1, 1, &attr, &cmp));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, kiln_ir_op_result(cmp, 0), xw, v, &v));
  }
  if (wt != ft) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.truncf", ft, 1, &v, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(g, 0));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// (x - mean[c]) / sqrt(var[c] + eps) at |bb|.
static kiln_status_t kiln_ls_normalized(kiln_ir_builder_t* bb,
                                        kiln_ir_value_t* x,
                                        kiln_ir_value_t* mean,
                                        kiln_ir_value_t* var, double eps,
                                        kiln_ir_value_t** out_stddev,
                                        kiln_ir_value_t** out) {
  const kiln_ir_type_t* e = x->type;
  kiln_ir_value_t *ce, *s, *d;
  KILN_RETURN_IF_ERROR(kiln_ls_float(bb, e, eps, &ce));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.addf", var, ce, &s));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit(bb, "math.sqrt", e, 1, &s, &s));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.subf", x, mean, &d));
  if (out_stddev) *out_stddev = s;
  return kiln_lowering_emit2(bb, "arith.divf", d, s, out);
}

static kiln_status_t kiln_ls_lower_batch_norm_grad(kiln_ir_builder_t* b,
                                                   kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* scale = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* mean = kiln_ir_op_operand(op, 2);
  kiln_ir_value_t* var = kiln_ir_op_operand(op, 3);
  kiln_ir_value_t* g = kiln_ir_op_operand(op, 4);
  const kiln_ir_type_t* xt = x->type;
  uint32_t rank = (uint32_t)xt->shaped.rank;
  if (rank > KILN_SORT_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  int64_t fi = kiln_ir_op_get_attr(op, "feature_index")->i;
  double eps = kiln_ir_op_get_attr(op, "epsilon")->f.value;
  const kiln_ir_type_t* ft = op->results[1].type;
  const kiln_ir_attribute_t* id = kiln_linalg_identity_map(ctx, rank);
  const kiln_ir_attribute_t* fmap =
      kiln_linalg_projection_map(ctx, rank, 1, &fi);
  // 1. grad_offset = sum g, grad_scale = sum g * xhat (per feature).
  kiln_ir_value_t *z0, *z1;
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, ft, NULL, NULL, &z0));
  KILN_RETURN_IF_ERROR(kiln_ls_zeros(b, ft, NULL, NULL, &z1));
  bool reduction[KILN_SORT_MAX_RANK] = {false};
  for (uint32_t d = 0; d < rank; ++d) reduction[d] = d != (uint32_t)fi;
  kiln_ir_value_t* ins[7] = {x, g, mean, var};
  const kiln_ir_attribute_t* maps[8] = {id, id, fmap, fmap, fmap, fmap};
  kiln_ir_value_t* outs[2] = {z0, z1};
  kiln_ir_op_t* red = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 4, ins, 2, outs, maps, rank, reduction, &red, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t** a = body->args;
    kiln_ir_value_t *xh, *gx, *so, *ss;
    KILN_RETURN_IF_ERROR(
        kiln_ls_normalized(&bb, a[0], a[2], a[3], eps, NULL, &xh));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", a[1], xh, &gx));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addf", a[4], a[1], &so));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addf", a[5], gx, &ss));
    kiln_ir_value_t* ys[2] = {so, ss};
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 2, ys));
  }
  kiln_ir_value_t* goff = kiln_ir_op_result(red, 0);
  kiln_ir_value_t* gscale = kiln_ir_op_result(red, 1);
  // 2. grad_operand = scale / stddev / N * (N g - sum g - xhat * sum g xhat).
  kiln_ir_value_t *empty = NULL, *count = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_run_time_count(b, x, fi, &count));
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, xt, x, &empty));
  ins[4] = scale;
  ins[5] = goff;
  ins[6] = gscale;
  const kiln_ir_attribute_t* emaps[8] = {id,   id,   fmap, fmap,
                                         fmap, fmap, fmap, id};
  kiln_ir_op_t* eg = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 7, ins, 1, &empty, emaps,
                                                  rank, NULL, &eg, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t** a = body->args;
    kiln_ir_value_t *xh, *sd, *n, *t, *u, *w;
    KILN_RETURN_IF_ERROR(
        kiln_ls_normalized(&bb, a[0], a[2], a[3], eps, &sd, &xh));
    KILN_RETURN_IF_ERROR(kiln_ls_count_in_body(&bb, x, fi, count, &n));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", a[1], n, &t));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subf", t, a[5], &t));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", xh, a[6], &u));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subf", t, u, &t));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.divf", a[4], sd, &w));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.divf", w, n, &w));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", t, w, &t));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &t));
  }
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(eg, 0));
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 1), gscale);
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 2), goff);
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// select_and_scatter
//===----------------------------------------------------------------------===//

// A splat constant of |type| whose elements are all-zero bytes (0 / 0.0).
static kiln_status_t kiln_ls_zero_const(kiln_ir_builder_t* b,
                                        const kiln_ir_type_t* type,
                                        kiln_ir_value_t** out) {
  static const uint8_t kZero[16] = {0};
  size_t n = kiln_ir_type_storage_bytes(type->shaped.element);
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      b->context, "value",
      kiln_ir_dense_elements_attr_get(b->context, type, true, kZero, n));
  kiln_ir_op_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "arith.constant", 0, NULL, 1, &type, 1, &attr, &c));
  *out = kiln_ir_op_result(c, 0);
  return kiln_ok_status();
}

// sum_d idx[d] * row-major stride of |t| (indices); |sizes| holds the
// index values of |t|'s dims.
static kiln_status_t kiln_ls_linear(kiln_ir_builder_t* bb,
                                    const kiln_ir_type_t* t,
                                    kiln_ir_value_t* const* sizes,
                                    kiln_ir_value_t* const* idx,
                                    kiln_ir_value_t** out) {
  uint32_t rank = (uint32_t)t->shaped.rank;
  kiln_ir_value_t* lin = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(bb, 0, &lin));
  for (uint32_t d = 0; d < rank; ++d) {
    kiln_ir_value_t* size = sizes[d];
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.muli", lin, size, &lin));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.addi", lin, idx[d], &lin));
  }
  *out = lin;
  return kiln_ok_status();
}

static kiln_status_t kiln_ls_lower_select_and_scatter(kiln_ir_builder_t* b,
                                                      kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 2);
  const kiln_ir_type_t* xt = x->type;
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)xt->shaped.rank;
  if (2 * rank > KILN_SORT_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is not supported", rank);
  }
  int64_t wdims[16], strides[16], lo[16], hi[16];
  kiln_stablehlo_sas_window(op, rank, wdims, strides, lo, hi);
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  // Run-time dims: the operand's sizes are host values the bodies use; an
  // empty operand dim is an error (the clamped reads need an element) and
  // the source must have the operand's window counts.
  kiln_ir_value_t* xsize[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, x, d, &xsize[d]));
    if (!xsize[d]) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, xt->shaped.dims[d], &xsize[d]));
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_assert_dim_at_least(b, op, 0, d, 1));
  }
  for (uint32_t d = 0; d < rank; ++d) {
    if (xt->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        st->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
      continue;  // checked by the verifier
    }
    // (size + lo + hi - window) / stride + 1, the size being at least 1
    // and the padding and window below 2^31.
    kiln_ir_value_t *c, *span, *want, *have, *ok;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_index_const(b, lo[d] + hi[d] - wdims[d], &c));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.addi", xsize[d], c, &span));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, strides[d], &c));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.floordivsi", span, c, &want));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &c));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addi", want, c, &want));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 0, &c));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.maxsi", want, c, &want));
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, src, d, &have));
    if (!have) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, st->shaped.dims[d], &have));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_EQ, have, want, &ok));
    char what[400];
    snprintf(what, sizeof(what),
             "dim %u of operand 1 (%s) is not the window count of dim %u of "
             "operand 0 (%s)",
             d, kiln_ir_type_to_string(ctx, st), d,
             kiln_ir_type_to_string(ctx, xt));
    KILN_RETURN_IF_ERROR(kiln_lowering_assert(b, op, ok, what));
  }
  // 1. Per window (source position s): the selected operand position, as a
  //    linear index (-1: none), over (s..., w...), w reductions in order.
  const kiln_ir_type_t* vt =
      kiln_dialect_with_element(ctx, st, xt->shaped.element);
  const kiln_ir_type_t* it = kiln_dialect_with_element(ctx, st, i64);
  kiln_ir_value_t *best0, *idx0;
  {
    kiln_ir_value_t *e, *zero, *minus_one;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, vt, src, &e));
    const kiln_ir_type_t* xe = xt->shaped.element;
    KILN_RETURN_IF_ERROR(kiln_lowering_is_float(xe)
                             ? kiln_lowering_float_const(b, xe, 0.0, &zero)
                             : kiln_lowering_int_const(b, xe, 0, &zero));
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, zero, e, &best0));
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, it, src, &e));
    KILN_RETURN_IF_ERROR(kiln_ls_int_const(b, i64, -1, &minus_one));
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, minus_one, e, &idx0));
  }
  int64_t m[KILN_SORT_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) m[d] = d;
  const kiln_ir_attribute_t* smap =
      kiln_linalg_projection_map(ctx, 2 * rank, rank, m);
  // A zero splat of the window's shape gives the window loops their range.
  kiln_ir_value_t* window = NULL;
  KILN_RETURN_IF_ERROR(kiln_ls_zero_const(
      b,
      kiln_ir_tensor_type_get(ctx, rank, wdims, kiln_ir_int_type(ctx, 8), NULL),
      &window));
  for (uint32_t d = 0; d < rank; ++d) m[d] = rank + d;
  const kiln_ir_attribute_t* wmap =
      kiln_linalg_projection_map(ctx, 2 * rank, rank, m);
  for (uint32_t d = 0; d < rank; ++d) m[d] = d;
  const kiln_ir_attribute_t* maps[3] = {wmap, smap, smap};
  bool reduction[KILN_SORT_MAX_RANK] = {false};
  for (uint32_t d = rank; d < 2 * rank; ++d) reduction[d] = true;
  kiln_ir_value_t* outs[2] = {best0, idx0};
  kiln_ir_op_t* ga = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1, &window, 2, outs, maps, 2 * rank, reduction, &ga, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* coords[KILN_SORT_MAX_RANK + 1];
    kiln_ir_value_t* oidx[KILN_SORT_MAX_RANK];
    kiln_ir_value_t* valid = NULL;
    coords[0] = x;
    for (uint32_t d = 0; d < rank; ++d) {
      kiln_ir_value_t *s, *w, *c, *o, *zero, *ge, *lt, *ok;
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &s));
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank + d, &w));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, strides[d], &c));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.muli", s, c, &o));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", o, w, &o));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, lo[d], &c));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subi", o, c, &o));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, o, zero, &ge));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, o, xsize[d], &lt));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", ge, lt, &ok));
      if (valid) {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(&bb, "arith.andi", valid, ok, &ok));
      }
      valid = ok;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_clamp_to_size(&bb, o, xsize[d], 0, &oidx[d]));
      coords[1 + d] = oidx[d];
    }
    kiln_ir_value_t *v, *lin, *lin64, *none, *have, *keep, *t, *take, *nv, *ni;
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(
        &bb, "tensor.extract", xt->shaped.element, 1 + rank, coords, &v));
    KILN_RETURN_IF_ERROR(kiln_ls_linear(&bb, xt, xsize, oidx, &lin));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.index_cast", i64, 1, &lin, &lin64));
    KILN_RETURN_IF_ERROR(kiln_ls_int_const(&bb, i64, -1, &none));
    // body args: window (unused), best value, best index.
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_NE, body->args[2], none, &have));
    kiln_ir_value_t* sel_args[2] = {body->args[1], v};
    KILN_RETURN_IF_ERROR(
        kiln_lower_stablehlo_region_inline_at(&bb, op, 0, sel_args, &keep));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", have, keep, &t));
    kiln_ir_value_t* one = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_ls_int_const(&bb, kiln_ir_int_type(ctx, 1), 1, &one));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.xori", t, one, &t));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", valid, t, &take));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, take, v, body->args[1], &nv));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, take, lin64, body->args[2], &ni));
    kiln_ir_value_t* ys[2] = {nv, ni};
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 2, ys));
  }
  kiln_ir_value_t* selected = kiln_ir_op_result(ga, 1);
  // 2. Over (p..., s...), s reductions in order: acc starts as init_value;
  //    each window that selected p combines its source value.
  kiln_ir_value_t* acc = NULL;
  {
    kiln_ir_value_t* e = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, x, &e));
    KILN_RETURN_IF_ERROR(kiln_lowering_broadcast_into(b, init, e, &acc));
  }
  for (uint32_t d = 0; d < rank; ++d) m[d] = rank + d;
  const kiln_ir_attribute_t* srcmap =
      kiln_linalg_projection_map(ctx, 2 * rank, rank, m);
  for (uint32_t d = 0; d < rank; ++d) m[d] = d;
  const kiln_ir_attribute_t* bmaps[3] = {
      srcmap, srcmap, kiln_linalg_projection_map(ctx, 2 * rank, rank, m)};
  kiln_ir_value_t* ins[2] = {selected, src};
  kiln_ir_op_t* gb = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 2, ins, 1, &acc, bmaps, 2 * rank, reduction, &gb, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* pidx[KILN_SORT_MAX_RANK];
    for (uint32_t d = 0; d < rank; ++d) {
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &pidx[d]));
    }
    kiln_ir_value_t *lin, *sel, *hit, *v, *r;
    KILN_RETURN_IF_ERROR(kiln_ls_linear(&bb, xt, xsize, pidx, &lin));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "arith.index_cast", index, 1,
                                            &body->args[0], &sel));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, sel, lin, &hit));
    kiln_ir_value_t* sc_args[2] = {body->args[2], body->args[1]};
    KILN_RETURN_IF_ERROR(
        kiln_lower_stablehlo_region_inline_at(&bb, op, 1, sc_args, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, hit, v, body->args[2], &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  }
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(gb, 0));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//
KILN_STABLEHLO_DEFINE_LOWERING(sort, kiln_lower_comparator_sort)
KILN_STABLEHLO_DEFINE_LOWERING(dynamic_update_slice, kiln_ls_lower_dus)
KILN_STABLEHLO_DEFINE_LOWERING(cholesky, kiln_ls_lower_cholesky)
KILN_STABLEHLO_DEFINE_LOWERING(reduce_precision, kiln_ls_lower_reduce_precision)
KILN_STABLEHLO_DEFINE_LOWERING(triangular_solve, kiln_ls_lower_triangular_solve)
KILN_STABLEHLO_DEFINE_LOWERING(batch_norm_inference,
                               kiln_ls_lower_batch_norm_inference)
KILN_STABLEHLO_DEFINE_LOWERING(batch_norm_training,
                               kiln_ls_lower_batch_norm_training)
KILN_STABLEHLO_DEFINE_LOWERING(select_and_scatter,
                               kiln_ls_lower_select_and_scatter)
KILN_STABLEHLO_DEFINE_LOWERING(batch_norm_grad, kiln_ls_lower_batch_norm_grad)
