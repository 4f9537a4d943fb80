// IREE's iree_linalg_ext dialect, the ops IREE's own programs use that
// linalg has no form for: sort, scan, topk, topk_v2, arg_compare, gather,
// scatter, attention, online_attention, map_load, map_store and
// winograd.input_transform / output_transform (and their terminator,
// yield), plus affine.linearize_index / delinearize_index for the map_load /
// map_store regions. Semantics follow IREE's LinalgExt op definitions;
// lower_linalg_ext.c turns each into linalg.generic.
//
// One custom form covers all but map_load/map_store (each op takes the
// clauses it has):
//   iree_linalg_ext.OP [attr-dict]
//       [dimension_map = [i, ...]] [unique_indices(true|false)]
//       [dimension(N)] [inclusive(true|false)] [is_sorted]
//       [output_tile_size(M)] [kernel_size(R)] [image_dimensions([h, w])]
//       [ins(%a, ... : T, ...)] outs(%b, ... : U, ...)
//       [index_base(%i : index)] [{ region }] [-> types]
// `operandSegmentSizes = array<i32: #ins, #outs>` is kept as a property
// (linalg's layout); an index_base operand follows the outputs. map_load /
// map_store: `OP %src into %out { region } [attr-dict] : S into O -> O`.
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/linalg/lower_linalg_ext.h"

#define KILN_LINALG_EXT_MAX_RANK 12

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

// kiln_dialect_int_list, -1 when the list does not fit in |capacity| (it
// returns the full count and writes only |capacity| entries).
static int64_t kiln_lx_int_list(const kiln_ir_attribute_t* attr, int64_t* out,
                                int64_t capacity) {
  int64_t n = kiln_dialect_int_list(attr, out, (size_t)capacity);
  return n > capacity ? -1 : n;
}

bool kiln_linalg_ext_is_op(const kiln_ir_op_t* op) {
  return kiln_string_view_equal_cstr(kiln_ir_op_dialect(op),
                                     "iree_linalg_ext") &&
         !kiln_ir_op_is(op, "iree_linalg_ext.yield");
}

int64_t kiln_linalg_ext_dimension(const kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "dimension");
  return a && a->kind == KILN_IR_ATTR_INTEGER ? a->i : -1;
}

bool kiln_linalg_ext_bool(const kiln_ir_op_t* op, const char* name,
                          bool default_value) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, name);
  if (!a) return default_value;
  return a->kind == KILN_IR_ATTR_BOOL ? a->i != 0 : default_value;
}

int64_t kiln_linalg_ext_dimension_map(const kiln_ir_op_t* op, int64_t* out,
                                      int64_t capacity) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "dimension_map");
  return a ? kiln_lx_int_list(a, out, capacity) : -1;
}

bool kiln_linalg_ext_scatter_trailing_slice(const kiln_ir_op_t* op) {
  if (!kiln_ir_op_is(op, "iree_linalg_ext.scatter") ||
      kiln_ir_op_num_regular_operands(op) < 3) {
    return false;
  }
  int64_t map[KILN_LINALG_EXT_MAX_RANK];
  int64_t depth =
      kiln_linalg_ext_dimension_map(op, map, KILN_LINALG_EXT_MAX_RANK);
  const kiln_ir_type_t* ut = kiln_ir_op_operand((kiln_ir_op_t*)op, 0)->type;
  const kiln_ir_type_t* it = kiln_ir_op_operand((kiln_ir_op_t*)op, 1)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  if (depth < 1 || !kiln_ir_type_is_ranked_tensor(ut) ||
      !kiln_ir_type_is_ranked_tensor(it) ||
      !kiln_ir_type_is_ranked_tensor(rt)) {
    return false;
  }
  int64_t rank = (int64_t)rt->shaped.rank;
  int64_t ur = (int64_t)ut->shaped.rank, ir = (int64_t)it->shaped.rank;
  // Today's form fits: the batch is what the slice leaves of the updates.
  int64_t batch = ur - (rank - depth);
  if (batch >= 0 && (ir == batch + 1 || (ir == batch && depth == 1))) {
    return false;
  }
  return ir == 2 && it->shaped.dims[1] == depth && ur >= 1 && ur - 1 <= rank &&
         ut->shaped.dims[0] == it->shaped.dims[0];
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

typedef struct kiln_lx_operands_t {
  uint32_t ins;
  uint32_t outs;
  uint32_t extra;  // index_base
} kiln_lx_operands_t;

static kiln_lx_operands_t kiln_lx_operands(const kiln_ir_op_t* op) {
  kiln_lx_operands_t r = {0, 0, 0};
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  r.ins = kiln_linalg_num_inputs(op);
  if (r.ins > n) r.ins = n;
  const kiln_ir_attribute_t* seg =
      kiln_ir_op_get_attr(op, "operandSegmentSizes");
  int64_t v[2];
  if (seg && kiln_dialect_int_list(seg, v, 2) == 2 && v[0] >= 0 && v[1] >= 0 &&
      v[0] + v[1] <= n) {
    r.outs = (uint32_t)v[1];
    r.extra = n - (uint32_t)(v[0] + v[1]);
  } else {
    r.outs = n - r.ins;
  }
  return r;
}

static const kiln_ir_type_t* kiln_lx_type(const kiln_ir_op_t* op, uint32_t i) {
  return kiln_ir_op_operand((kiln_ir_op_t*)op, i)->type;
}

static int64_t kiln_lx_rank(const kiln_ir_type_t* t) {
  return (int64_t)t->shaped.rank;
}

static kiln_status_t kiln_lx_expect_counts(kiln_ir_context_t* ctx,
                                           kiln_ir_op_t* op,
                                           kiln_lx_operands_t c,
                                           uint32_t ins_lo, uint32_t ins_hi,
                                           uint32_t outs) {
  if (c.ins < ins_lo || c.ins > ins_hi) {
    if (ins_lo == ins_hi) {
      return kiln_ir_op_emit_error(op, ctx, "expects %u inputs, got %u", ins_lo,
                                   c.ins);
    }
    return kiln_ir_op_emit_error(op, ctx, "expects %u or %u inputs, got %u",
                                 ins_lo, ins_hi, c.ins);
  }
  if (c.outs != outs) {
    return kiln_ir_op_emit_error(op, ctx, "expects %u outputs, got %u", outs,
                                 c.outs);
  }
  for (uint32_t i = 0; i < c.ins + c.outs; ++i) {
    if (!kiln_ir_type_is_ranked_tensor(kiln_lx_type(op, i))) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "operand %u must be a ranked tensor", i);
    }
  }
  // Results: one per output, of the output's type.
  if (op->num_results != c.outs) {
    return kiln_ir_op_emit_error(op, ctx, "expects %u results, got %u", c.outs,
                                 op->num_results);
  }
  for (uint32_t i = 0; i < c.outs; ++i) {
    if (op->results[i].type != kiln_lx_type(op, c.ins + i)) {
      return kiln_ir_op_emit_error(
          op, ctx, "result %u type %s does not match output %u type %s", i,
          kiln_ir_type_to_string(ctx, op->results[i].type), i,
          kiln_ir_type_to_string(ctx, kiln_lx_type(op, c.ins + i)));
    }
  }
  return kiln_ok_status();
}

// The dimension attribute, in [0, rank).
static kiln_status_t kiln_lx_expect_dimension(kiln_ir_context_t* ctx,
                                              kiln_ir_op_t* op, int64_t rank,
                                              int64_t* out) {
  int64_t d = kiln_linalg_ext_dimension(op);
  if (!kiln_ir_op_get_attr(op, "dimension")) {
    return kiln_ir_op_emit_error(op, ctx, "requires a dimension");
  }
  if (d < 0 || d >= rank) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "dimension %lld is out of range for rank %lld",
                                 (long long)d, (long long)rank);
  }
  *out = d;
  return kiln_ok_status();
}

// The region: one block of |num_args| scalar arguments of |types| whose
// yield returns one value of |yield_type| (NULL: any).
static kiln_status_t kiln_lx_expect_region(kiln_ir_context_t* ctx,
                                           kiln_ir_op_t* op, uint32_t num_args,
                                           const kiln_ir_type_t* const* types,
                                           const kiln_ir_type_t* yield_type) {
  kiln_ir_block_t* body =
      op->num_regions == 1 ? op->regions[0].first_block : NULL;
  if (!body) return kiln_ir_op_emit_error(op, ctx, "expects a region");
  if (body->num_args != num_args) {
    return kiln_ir_op_emit_error(op, ctx, "region expects %u arguments, got %u",
                                 num_args, body->num_args);
  }
  for (uint32_t i = 0; i < num_args; ++i) {
    if (body->args[i]->type != types[i]) {
      return kiln_ir_op_emit_error(
          op, ctx, "region argument %u must be %s, got %s", i,
          kiln_ir_type_to_string(ctx, types[i]),
          kiln_ir_type_to_string(ctx, body->args[i]->type));
    }
  }
  kiln_ir_op_t* yield = body->last_op;
  if (!yield || !kiln_ir_op_is(yield, "iree_linalg_ext.yield") ||
      kiln_ir_op_num_regular_operands(yield) != 1) {
    return kiln_ir_op_emit_error(
        op, ctx, "region must end with iree_linalg_ext.yield of one value");
  }
  const kiln_ir_type_t* yt = kiln_ir_op_operand(yield, 0)->type;
  if (yield_type && yt != yield_type) {
    return kiln_ir_op_emit_error(op, ctx, "region must yield %s, got %s",
                                 kiln_ir_type_to_string(ctx, yield_type),
                                 kiln_ir_type_to_string(ctx, yt));
  }
  return kiln_ok_status();
}

// |reduced| is |full| without dimension |d| (same element type unless
// |element| is given).
static bool kiln_lx_is_reduced(const kiln_ir_type_t* full,
                               const kiln_ir_type_t* reduced, int64_t d) {
  if (kiln_lx_rank(reduced) != kiln_lx_rank(full) - 1) return false;
  for (int64_t i = 0, j = 0; i < kiln_lx_rank(full); ++i) {
    if (i == d) continue;
    if (full->shaped.dims[i] != reduced->shaped.dims[j++]) return false;
  }
  return true;
}

// |a| and |b| have the same dims except dimension |d|.
static bool kiln_lx_same_but(const kiln_ir_type_t* a, const kiln_ir_type_t* b,
                             int64_t d) {
  if (kiln_lx_rank(a) != kiln_lx_rank(b)) return false;
  for (int64_t i = 0; i < kiln_lx_rank(a); ++i) {
    if (i != d && a->shaped.dims[i] != b->shaped.dims[i]) return false;
  }
  return true;
}

static bool kiln_lx_is_int(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_INTEGER;
}

static kiln_status_t kiln_lx_verify_sort(kiln_ir_context_t* ctx,
                                         kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  if (c.ins != 0) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "sort with inputs is not supported; the "
                                 "sorted operands are its outputs");
  }
  if (c.outs < 1 || c.outs > 8) {
    return kiln_ir_op_emit_error(op, ctx, "expects 1 to 8 outputs, got %u",
                                 c.outs);
  }
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 0, 0, c.outs));
  const kiln_ir_type_t* t0 = kiln_lx_type(op, 0);
  for (uint32_t i = 1; i < c.outs; ++i) {
    if (!kiln_dialect_same_shape(t0, kiln_lx_type(op, i))) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "all outputs must have the same shape");
    }
  }
  int64_t d = 0;
  KILN_RETURN_IF_ERROR(kiln_lx_expect_dimension(ctx, op, kiln_lx_rank(t0), &d));
  const kiln_ir_type_t* types[16];
  for (uint32_t i = 0; i < c.outs; ++i) {
    types[2 * i] = types[2 * i + 1] = kiln_ir_type_element(kiln_lx_type(op, i));
  }
  return kiln_lx_expect_region(ctx, op, 2 * c.outs, types,
                               kiln_ir_int_type(ctx, 1));
}

static kiln_status_t kiln_lx_verify_scan(kiln_ir_context_t* ctx,
                                         kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 1, 1, 2));
  const kiln_ir_type_t* in = kiln_lx_type(op, 0);
  const kiln_ir_type_t* out = kiln_lx_type(op, 1);
  const kiln_ir_type_t* acc = kiln_lx_type(op, 2);
  int64_t d = 0;
  KILN_RETURN_IF_ERROR(kiln_lx_expect_dimension(ctx, op, kiln_lx_rank(in), &d));
  if (!kiln_ir_op_get_attr(op, "inclusive")) {
    return kiln_ir_op_emit_error(op, ctx, "requires inclusive(true|false)");
  }
  if (!kiln_dialect_same_shape(in, out) ||
      kiln_ir_type_element(in) != kiln_ir_type_element(out)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "output type must be the input type %s",
                                 kiln_ir_type_to_string(ctx, in));
  }
  if (!kiln_lx_is_reduced(in, acc, d) ||
      kiln_ir_type_element(acc) != kiln_ir_type_element(in)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "accumulator %s must be the input shape without dimension %lld",
        kiln_ir_type_to_string(ctx, acc), (long long)d);
  }
  const kiln_ir_type_t* e = kiln_ir_type_element(in);
  const kiln_ir_type_t* types[2] = {e, e};
  return kiln_lx_expect_region(ctx, op, 2, types, e);
}

// reverse: one input, one output of its type, distinct dimensions in range.
static kiln_status_t kiln_lx_verify_reverse(kiln_ir_context_t* ctx,
                                            kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 1, 1, 1));
  const kiln_ir_type_t* in = kiln_lx_type(op, 0);
  const kiln_ir_type_t* out = kiln_lx_type(op, 1);
  if (!kiln_dialect_same_shape(in, out) ||
      kiln_ir_type_element(in) != kiln_ir_type_element(out)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "output type must be the input type %s",
                                 kiln_ir_type_to_string(ctx, in));
  }
  int64_t dims[KILN_LINALG_EXT_MAX_RANK];
  int64_t n = kiln_lx_int_list(kiln_ir_op_get_attr(op, "dimensions"), dims,
                               KILN_LINALG_EXT_MAX_RANK);
  if (n < 0) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "requires dimensions(...), a list of at most "
                                 "%d integers",
                                 KILN_LINALG_EXT_MAX_RANK);
  }
  bool seen[KILN_LINALG_EXT_MAX_RANK] = {false};
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || dims[i] >= kiln_lx_rank(in) || seen[dims[i]]) {
      return kiln_ir_op_emit_error(
          op, ctx, "dimension %lld is out of range or repeated (rank %lld)",
          (long long)dims[i], (long long)kiln_lx_rank(in));
    }
    seen[dims[i]] = true;
  }
  return kiln_ok_status();
}

// topk and arg_compare: values [, indices] in; value and index outputs
// shaped |out_shape_ok|.
static kiln_status_t kiln_lx_verify_selection(kiln_ir_context_t* ctx,
                                              kiln_ir_op_t* op, bool reduce) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  // topk_v2: the output indices are optional (then no input indices).
  bool v2 = kiln_ir_op_is(op, "iree_linalg_ext.topk_v2");
  uint32_t outs = v2 && c.outs == 1 ? 1 : 2;
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 1, outs, outs));
  const kiln_ir_type_t* values = kiln_lx_type(op, 0);
  const kiln_ir_type_t* out_values = kiln_lx_type(op, c.ins);
  const kiln_ir_type_t* out_indices =
      kiln_lx_type(op, c.ins + (outs == 2 ? 1 : 0));
  int64_t d = 0;
  KILN_RETURN_IF_ERROR(
      kiln_lx_expect_dimension(ctx, op, kiln_lx_rank(values), &d));
  if (c.ins == 2 && outs == 1) {
    return kiln_ir_op_emit_error(op, ctx, "input indices need output indices");
  }
  if (c.ins == 2) {
    const kiln_ir_type_t* indices = kiln_lx_type(op, 1);
    if (!kiln_dialect_same_shape(values, indices) ||
        !kiln_lx_is_int(kiln_ir_type_element(indices))) {
      return kiln_ir_op_emit_error(
          op, ctx, "input indices must be integers shaped like the values");
    }
  }
  bool shape_ok =
      reduce ? kiln_lx_is_reduced(values, out_values, d) &&
                   kiln_lx_is_reduced(values, out_indices, d)
             : kiln_lx_same_but(values, out_values, d) &&
                   kiln_lx_same_but(values, out_indices, d) &&
                   (values->shaped.dims[d] == KILN_IR_DYNAMIC_DIM ||
                    out_values->shaped.dims[d] <= values->shaped.dims[d]);
  if (!shape_ok) {
    return kiln_ir_op_emit_error(
        op, ctx,
        reduce ? "outputs must be the input shape without dimension %lld"
               : "outputs must be the input shape with at most as many "
                 "elements along dimension %lld",
        (long long)d);
  }
  if (kiln_ir_type_element(out_values) != kiln_ir_type_element(values)) {
    return kiln_ir_op_emit_error(
        op, ctx, "output values must have the input element type");
  }
  if (outs == 2 && !kiln_lx_is_int(kiln_ir_type_element(out_indices))) {
    return kiln_ir_op_emit_error(op, ctx, "output indices must be integers");
  }
  if (c.extra > 1 || (c.extra == 1 && kiln_lx_type(op, c.ins + c.outs)->kind !=
                                          KILN_IR_TYPE_INDEX)) {
    return kiln_ir_op_emit_error(op, ctx, "index_base must be one index");
  }
  if (c.extra == 1 && c.ins == 2) {
    return kiln_ir_op_emit_error(
        op, ctx, "index_base is only allowed without input indices");
  }
  const kiln_ir_type_t* e = kiln_ir_type_element(values);
  const kiln_ir_type_t* types[2] = {e, e};
  return kiln_lx_expect_region(ctx, op, 2, types, kiln_ir_int_type(ctx, 1));
}

static kiln_status_t kiln_lx_verify_topk(kiln_ir_context_t* ctx,
                                         kiln_ir_op_t* op) {
  return kiln_lx_verify_selection(ctx, op, false);
}

static kiln_status_t kiln_lx_verify_arg_compare(kiln_ir_context_t* ctx,
                                                kiln_ir_op_t* op) {
  return kiln_lx_verify_selection(ctx, op, true);
}

// gather / scatter: (data, indices [, mask]) -> the indexed tensor. |data|
// is the sliced side (gather: source; scatter: original, the output) and
// |batched| the side with batch dims (gather: output; scatter: updates).
static kiln_status_t kiln_lx_verify_indexed(kiln_ir_context_t* ctx,
                                            kiln_ir_op_t* op,
                                            const kiln_ir_type_t* data,
                                            const kiln_ir_type_t* batched,
                                            const char* data_name,
                                            const char* batched_name) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  const kiln_ir_type_t* indices = kiln_lx_type(op, 1);
  int64_t map[KILN_LINALG_EXT_MAX_RANK];
  int64_t depth =
      kiln_linalg_ext_dimension_map(op, map, KILN_LINALG_EXT_MAX_RANK);
  if (depth < 1) {
    return kiln_ir_op_emit_error(op, ctx, "requires a non-empty dimension_map");
  }
  int64_t rank = kiln_lx_rank(data);
  if (depth > rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "dimension_map has %lld entries for a %s of rank %lld",
        (long long)depth, data_name, (long long)rank);
  }
  bool seen[KILN_LINALG_EXT_MAX_RANK] = {false};
  for (int64_t i = 0; i < depth; ++i) {
    if (map[i] < 0 || map[i] >= depth || seen[map[i]]) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "dimension_map must be a permutation of the first %lld dims of "
          "the %s",
          (long long)depth, data_name);
    }
    seen[map[i]] = true;
  }
  int64_t slice_rank = rank - depth;
  int64_t batch_rank = kiln_lx_rank(batched) - slice_rank;
  int64_t slice_first = depth;  // the data dim the slice starts at
  if (kiln_linalg_ext_scatter_trailing_slice(op)) {
    batch_rank = 1;
    slice_rank = kiln_lx_rank(batched) - 1;
    slice_first = rank - slice_rank;
  }
  if (batch_rank < 0) {
    return kiln_ir_op_emit_error(op, ctx, "%s rank is too small", batched_name);
  }
  bool depth_dim = kiln_lx_rank(indices) == batch_rank + 1;
  if (!depth_dim && !(kiln_lx_rank(indices) == batch_rank && depth == 1)) {
    return kiln_ir_op_emit_error(
        op, ctx, "indices must be the batch shape followed by %lld",
        (long long)depth);
  }
  if (depth_dim && indices->shaped.dims[batch_rank] != depth) {
    return kiln_ir_op_emit_error(
        op, ctx, "indices last dim must be the index depth %lld",
        (long long)depth);
  }
  if (!kiln_lx_is_int(kiln_ir_type_element(indices))) {
    return kiln_ir_op_emit_error(op, ctx, "indices must be integers");
  }
  for (int64_t i = 0; i < batch_rank; ++i) {
    if (indices->shaped.dims[i] != batched->shaped.dims[i]) {
      return kiln_ir_op_emit_error(
          op, ctx, "batch dim %lld of the %s and the indices differ",
          (long long)i, batched_name);
    }
  }
  for (int64_t i = 0; i < slice_rank; ++i) {
    int64_t s = batched->shaped.dims[batch_rank + i];
    int64_t full = data->shaped.dims[slice_first + i];
    if (s != KILN_IR_DYNAMIC_DIM && full != KILN_IR_DYNAMIC_DIM && s > full) {
      return kiln_ir_op_emit_error(
          op, ctx, "slice dim %lld of the %s is larger than the %s's",
          (long long)i, batched_name, data_name);
    }
  }
  if (kiln_ir_type_element(data) != kiln_ir_type_element(batched)) {
    return kiln_ir_op_emit_error(op, ctx, "%s and %s element types differ",
                                 data_name, batched_name);
  }
  if (c.ins == 3) {
    const kiln_ir_type_t* mask = kiln_lx_type(op, 2);
    const kiln_ir_type_t* me = kiln_ir_type_element(mask);
    if (kiln_lx_rank(mask) != batch_rank || !kiln_lx_is_int(me) ||
        (me->integer.width != 1 && me->integer.width != 8)) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "mask must be i1 of the batch shape");
    }
    for (int64_t i = 0; i < batch_rank; ++i) {
      if (mask->shaped.dims[i] != batched->shaped.dims[i]) {
        return kiln_ir_op_emit_error(op, ctx,
                                     "mask must be i1 of the batch shape");
      }
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_lx_verify_gather(kiln_ir_context_t* ctx,
                                           kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 2, 3, 1));
  return kiln_lx_verify_indexed(ctx, op, kiln_lx_type(op, 0),
                                kiln_lx_type(op, c.ins), "source", "output");
}

static kiln_status_t kiln_lx_verify_scatter(kiln_ir_context_t* ctx,
                                            kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 2, 3, 1));
  const kiln_ir_type_t* original = kiln_lx_type(op, c.ins);
  KILN_RETURN_IF_ERROR(kiln_lx_verify_indexed(
      ctx, op, original, kiln_lx_type(op, 0), "original", "updates"));
  const kiln_ir_type_t* e = kiln_ir_type_element(original);
  const kiln_ir_type_t* types[2] = {e, e};
  return kiln_lx_expect_region(ctx, op, 2, types, e);
}

// attention: ins(query, key, value, scale[, mask]) outs(output), one
// indexing map per operand (projections of one iteration space), and a
// score region (one f32 argument, yields f32).
static kiln_status_t kiln_lx_verify_attention(kiln_ir_context_t* ctx,
                                              kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  // online_attention: outs(output, max, sum).
  uint32_t outs = kiln_ir_op_is(op, "iree_linalg_ext.online_attention") ? 3 : 1;
  if (outs == 1 && op->num_regions == 0 &&
      !kiln_ir_op_get_attr(op, "indexing_maps")) {
    // IREE's first forms: ins(Q, K, V[, scale]) outs(O), softmax(Q K^T *
    // scale) V with Q BxMxK1, K BxK2xK1, V BxK2xN and O BxMxN (no mask or
    // region; a float scale, 1 when absent).
    const kiln_ir_type_t* t[4] = {NULL, NULL, NULL, NULL};
    bool ok = (c.ins == 3 || c.ins == 4) && c.outs == 1 &&
              op->num_results == 1 &&
              (c.ins == 3 || kiln_lx_type(op, 3)->kind == KILN_IR_TYPE_FLOAT);
    for (uint32_t i = 0; ok && i < 4; ++i) {
      t[i] = kiln_lx_type(op, i == 3 ? c.ins : i);
      ok = kiln_ir_type_is_ranked_tensor(t[i]) && t[i]->shaped.rank == 3 &&
           kiln_ir_type_is_float(t[i]->shaped.element);
    }
    // (operand, dim) pairs that must agree: B, M, K1, K2, N.
    static const int pairs[6][4] = {{0, 0, 1, 0}, {0, 0, 2, 0}, {0, 0, 3, 0},
                                    {0, 1, 3, 1}, {0, 2, 1, 2}, {1, 1, 2, 1}};
    for (int i = 0; ok && i < 6; ++i) {
      int64_t a = t[pairs[i][0]]->shaped.dims[pairs[i][1]];
      int64_t b = t[pairs[i][2]]->shaped.dims[pairs[i][3]];
      ok = a == b || a == KILN_IR_DYNAMIC_DIM || b == KILN_IR_DYNAMIC_DIM;
    }
    ok = ok && t[2]->shaped.dims[2] == t[3]->shaped.dims[2];
    if (!ok || op->results[0].type != t[3]) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "expects ins(query, key, value, scale[, mask]) with indexing_maps "
          "and a score region, or ins(query BxMxK1, key BxK2xK1, value "
          "BxK2xN[, scale]) outs(BxMxN) of floats");
    }
    return kiln_ok_status();
  }
  if (c.ins < 4 || c.ins > 5 || c.outs != outs || op->num_results != outs) {
    return kiln_ir_op_emit_error(
        op, ctx,
        outs == 1
            ? "expects ins(query, key, value, scale[, mask]) and one output"
            : "expects ins(query, key, value, scale[, mask]) and outs(output, "
              "max, sum)");
  }
  const kiln_ir_type_t* scale = kiln_lx_type(op, 3);
  if (scale->kind != KILN_IR_TYPE_FLOAT) {
    return kiln_ir_op_emit_error(op, ctx, "scale must be a float scalar");
  }
  const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
  if (!maps || maps->kind != KILN_IR_ATTR_ARRAY ||
      maps->array.count != c.ins + outs) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects %u indexing_maps, one per operand", c.ins + outs);
  }
  uint32_t num_dims = 0;
  for (uint32_t i = 0; i < c.ins + outs; ++i) {
    const kiln_ir_attribute_t* m = maps->array.elements[i];
    if (m->kind != KILN_IR_ATTR_AFFINE_MAP) {
      return kiln_ir_op_emit_error(op, ctx, "indexing_maps[%u] is not a map",
                                   i);
    }
    if (i == 0) num_dims = m->affine_map->num_dims;
    const kiln_ir_type_t* t = kiln_lx_type(op, i);
    size_t rank = i == 3 ? 0 : t->shaped.rank;
    if (m->affine_map->num_dims != num_dims ||
        m->affine_map->num_results != rank ||
        num_dims > KILN_LINALG_EXT_MAX_RANK) {
      return kiln_ir_op_emit_error(
          op, ctx, "indexing_maps[%u] must map the same %u dims to %zu results",
          i, num_dims, rank);
    }
    for (size_t r = 0; r < rank; ++r) {
      int64_t d = 0;
      if (!kiln_ir_affine_map_result_is_dim(m->affine_map, r, &d)) {
        return kiln_ir_op_emit_error(
            op, ctx, "indexing_maps[%u] result %zu must be a dim", i, r);
      }
    }
  }
  for (uint32_t i = 0; i < outs; ++i) {
    if (op->results[i].type != kiln_lx_type(op, c.ins + i)) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "result %u type must be the output type", i);
    }
  }
  // The score region is optional (IREE's 2024 form has none).
  kiln_ir_block_t* body =
      op->num_regions == 1 ? op->regions[0].first_block : NULL;
  if (op->num_regions > 1 ||
      (op->num_regions == 1 &&
       (!body || body->num_args != 1 ||
        body->args[0]->type->kind != KILN_IR_TYPE_FLOAT))) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects a score region of one float argument");
  }
  if (!body) return kiln_ok_status();
  const kiln_ir_type_t* score = body->args[0]->type;
  return kiln_lx_expect_region(ctx, op, 1, &score, score);
}

//===----------------------------------------------------------------------===//
// Custom form
//===----------------------------------------------------------------------===//

// `KEYWORD(true|false)` into the bool attribute KEYWORD.
static kiln_status_t kiln_lx_parse_optional_bool(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state,
                                                 const char* keyword) {
  if (!kiln_mlir_parse_optional_keyword(p, keyword)) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  bool value = false;
  if (kiln_mlir_parse_optional_keyword(p, "true")) {
    value = true;
  } else if (!kiln_mlir_parse_optional_keyword(p, "false")) {
    return kiln_mlir_emit_error(p, "expected true or false in %s(...)",
                                keyword);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  return kiln_mlir_add_attribute(
      p, state, keyword,
      kiln_ir_bool_attr_get(kiln_mlir_parser_context(p), value));
}

static kiln_status_t kiln_lx_parse(kiln_mlir_op_parser_t* p,
                                   kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_BARE_ID &&
      kiln_string_view_equal_cstr(kiln_mlir_peek(p)->spelling,
                                  "dimension_map")) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_parse_int_list_attr(p, state, "dimension_map"));
  }
  KILN_RETURN_IF_ERROR(kiln_lx_parse_optional_bool(p, state, "unique_indices"));
  if (kiln_mlir_parse_optional_keyword(p, "dimension")) {
    int64_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "dimension",
        kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), dim)));
  }
  KILN_RETURN_IF_ERROR(kiln_lx_parse_optional_bool(p, state, "inclusive"));
  // winograd: output_tile_size(6) kernel_size(3) image_dimensions([1, 2]).
  static const char* const int_clauses[] = {"output_tile_size", "kernel_size"};
  for (int i = 0; i < 2; ++i) {
    if (!kiln_mlir_parse_optional_keyword(p, int_clauses[i])) continue;
    int64_t v = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &v));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, int_clauses[i],
        kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), v)));
  }
  if (kiln_mlir_parse_optional_keyword(p, "image_dimensions")) {
    int64_t v[4];
    size_t n = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
    do {
      if (n == 4) return kiln_mlir_emit_error(p, "too many image dimensions");
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &v[n++]));
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "image_dimensions", kiln_dialect_i64_array(ctx, n, v)));
  }
  if (kiln_mlir_parse_optional_keyword(p, "is_sorted")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "is_sorted",
                                                 kiln_ir_unit_attr_get(ctx)));
  }
  // reverse: dimensions(dense<[0, 1]> : tensor<2xi64>).
  if (kiln_mlir_parse_optional_keyword(p, "dimensions")) {
    const kiln_ir_attribute_t* dims = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &dims));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "dimensions", dims));
  }
  int64_t ins = 0, outs = 0;
  kiln_mlir_type_list_t out_types = {0};
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "ins", &ins, NULL));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "outs", &outs, &out_types));
  if (outs == 0) return kiln_mlir_emit_error(p, "expected outs(...)");
  int64_t base = 0;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "index_base", &base, NULL));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_optional_region(p, 0, NULL, false, &region));
  if (region) {
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, state, region));
  }
  // `-> T, U` (IREE's form, no parentheses), linalg's `-> (T, U)`, or
  // `: T` (reverse).
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_COLON) {
    kiln_mlir_type_list_t results = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &results));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_result_types(p, state, &results));
  } else if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_ARROW) {
    kiln_mlir_type_list_t results = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
    while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
      const kiln_ir_type_t* t = NULL;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &t));
      KILN_RETURN_IF_ERROR(kiln_mlir_type_list_push(p, &results, t));
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_add_result_types(p, state, &results));
  } else {
    KILN_RETURN_IF_ERROR(kiln_linalg_parse_results(p, state, &out_types));
  }
  return kiln_linalg_add_segments(ctx, state, ins, outs);
}

static void kiln_lx_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* const elided[] = {
      "operandSegmentSizes", "dimension", "inclusive",        "dimension_map",
      "unique_indices",      "is_sorted", "output_tile_size", "kernel_size",
      "image_dimensions",    "dimensions"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 10);
  const kiln_ir_attribute_t* map = kiln_ir_op_get_attr(op, "dimension_map");
  if (map) {
    int64_t v[KILN_LINALG_EXT_MAX_RANK];
    int64_t n = kiln_lx_int_list(map, v, KILN_LINALG_EXT_MAX_RANK);
    kiln_ir_printer_printf(p, " dimension_map = [");
    for (int64_t i = 0; i < n; ++i) {
      kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
    }
    kiln_ir_printer_printf(p, "]");
  }
  if (kiln_ir_op_get_attr(op, "unique_indices")) {
    kiln_ir_printer_printf(
        p, " unique_indices(%s)",
        kiln_linalg_ext_bool(op, "unique_indices", true) ? "true" : "false");
  }
  if (kiln_ir_op_get_attr(op, "dimension")) {
    kiln_ir_printer_printf(p, " dimension(%lld)",
                           (long long)kiln_linalg_ext_dimension(op));
  }
  if (kiln_ir_op_get_attr(op, "inclusive")) {
    kiln_ir_printer_printf(
        p, " inclusive(%s)",
        kiln_linalg_ext_bool(op, "inclusive", true) ? "true" : "false");
  }
  if (kiln_ir_op_get_attr(op, "is_sorted")) {
    kiln_ir_printer_printf(p, " is_sorted");
  }
  static const char* const int_clauses[] = {"output_tile_size", "kernel_size"};
  for (int i = 0; i < 2; ++i) {
    const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, int_clauses[i]);
    if (a && a->kind == KILN_IR_ATTR_INTEGER) {
      kiln_ir_printer_printf(p, " %s(%lld)", int_clauses[i], (long long)a->i);
    }
  }
  const kiln_ir_attribute_t* image =
      kiln_ir_op_get_attr(op, "image_dimensions");
  if (image) {
    int64_t v[4];
    int64_t n = kiln_lx_int_list(image, v, 4);
    kiln_ir_printer_printf(p, " image_dimensions([");
    for (int64_t i = 0; i < n; ++i) {
      kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
    }
    kiln_ir_printer_printf(p, "])");
  }
  const kiln_ir_attribute_t* dims = kiln_ir_op_get_attr(op, "dimensions");
  if (dims) {
    kiln_ir_printer_printf(p, " dimensions(");
    kiln_ir_printer_print_attribute(p, dims);
    kiln_ir_printer_printf(p, ")");
  }
  kiln_lx_operands_t c = kiln_lx_operands(op);
  kiln_linalg_print_group(p, op, "ins", 0, c.ins);
  kiln_linalg_print_group(p, op, "outs", c.ins, c.ins + c.outs);
  kiln_linalg_print_group(p, op, "index_base", c.ins + c.outs,
                          c.ins + c.outs + c.extra);
  if (op->num_regions == 1) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_region(p, &op->regions[0], true);
  }
  kiln_linalg_print_results(p, op);
}

//===----------------------------------------------------------------------===//
// winograd.input_transform / output_transform
//===----------------------------------------------------------------------===//

// F(6x6, 3x3) only (IREE's too): image (N, H, W, C) with image_dimensions
// [1, 2] or (N, C, H, W) with [2, 3]; the transformed tensor is
// (8, 8, N, H', W', C).
static kiln_status_t kiln_lx_verify_winograd(kiln_ir_context_t* ctx,
                                             kiln_ir_op_t* op) {
  kiln_lx_operands_t c = kiln_lx_operands(op);
  KILN_RETURN_IF_ERROR(kiln_lx_expect_counts(ctx, op, c, 1, 1, 1));
  const kiln_ir_attribute_t* m = kiln_ir_op_get_attr(op, "output_tile_size");
  const kiln_ir_attribute_t* r = kiln_ir_op_get_attr(op, "kernel_size");
  if (!m || !r || m->kind != KILN_IR_ATTR_INTEGER ||
      r->kind != KILN_IR_ATTR_INTEGER || m->i != 6 || r->i != 3) {
    return kiln_ir_op_emit_error(
        op, ctx, "supports output_tile_size(6) kernel_size(3) only");
  }
  int64_t dims[2];
  if (kiln_dialect_int_list(kiln_ir_op_get_attr(op, "image_dimensions"), dims,
                            2) != 2 ||
      !((dims[0] == 1 && dims[1] == 2) || (dims[0] == 2 && dims[1] == 3))) {
    return kiln_ir_op_emit_error(
        op, ctx, "image_dimensions must be [1, 2] (NHWC) or [2, 3] (NCHW)");
  }
  bool input = kiln_ir_op_is(op, "iree_linalg_ext.winograd.input_transform");
  const kiln_ir_type_t* image = kiln_lx_type(op, input ? 0 : 1);
  const kiln_ir_type_t* tiles = kiln_lx_type(op, input ? 1 : 0);
  if (kiln_lx_rank(image) != 4 || kiln_lx_rank(tiles) != 6 ||
      tiles->shaped.dims[0] != 8 || tiles->shaped.dims[1] != 8) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects a rank-4 image and an 8x8xNxH'xW'xC tile tensor");
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// map_load / map_store and the affine index ops their regions use
//===----------------------------------------------------------------------===//

// `iree_linalg_ext.map_load %src into %out { ^bb0(%i: index, ...): ...
//   iree_linalg_ext.yield %j..., %pad : index..., T } : S into O -> O`
// (map_store: the region yields output indices and an i1 mask).
static kiln_status_t kiln_lx_parse_map(kiln_mlir_op_parser_t* p,
                                       kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t src, dst;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &src));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &dst));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, false, &region));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, state, region));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t *st = NULL, *dt = NULL, *rt = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &st));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &dt));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_ARROW)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &rt));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &src, st, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dst, dt, state));
  if (rt) KILN_RETURN_IF_ERROR(kiln_mlir_add_result_type(p, state, rt));
  return kiln_ok_status();
}

static void kiln_lx_print_map(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, " into ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 1));
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_region(p, &op->regions[0], true);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " into ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 1)->type);
  if (op->num_results == 1) {
    kiln_ir_printer_printf(p, " -> ");
    kiln_ir_printer_print_type(p, op->results[0].type);
  }
}

static kiln_status_t kiln_lx_verify_map(kiln_ir_context_t* ctx,
                                        kiln_ir_op_t* op) {
  bool load = kiln_ir_op_is(op, "iree_linalg_ext.map_load");
  if (kiln_ir_op_num_regular_operands(op) != 2 || op->num_results != 1) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "expects a source, an output and a result");
  }
  const kiln_ir_type_t* st = kiln_lx_type(op, 0);
  const kiln_ir_type_t* ot = kiln_lx_type(op, 1);
  if (!kiln_ir_type_is_ranked_tensor(st) ||
      !kiln_ir_type_is_ranked_tensor(ot) || op->results[0].type != ot ||
      kiln_ir_type_element(st) != kiln_ir_type_element(ot)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "expects ranked tensors of one element type, the result typed as "
        "the output");
  }
  // The region: an index per dim of the iterated tensor (map_load: the
  // output; map_store: the input); it yields an index per dim of the other
  // and the padding value (map_load) or an i1 mask (map_store).
  const kiln_ir_type_t* iterated = load ? ot : st;
  const kiln_ir_type_t* addressed = load ? st : ot;
  kiln_ir_block_t* body = op->regions[0].first_block;
  kiln_ir_op_t* yield = body ? body->last_op : NULL;
  if (!body || body->num_args != iterated->shaped.rank || !yield ||
      !kiln_ir_op_is(yield, "iree_linalg_ext.yield") ||
      kiln_ir_op_num_regular_operands(yield) != addressed->shaped.rank + 1) {
    return kiln_ir_op_emit_error(
        op, ctx, "region takes %zu indices and yields %zu indices and %s",
        iterated->shaped.rank, addressed->shaped.rank,
        load ? "a padding value" : "an i1 mask");
  }
  for (uint32_t i = 0; i < body->num_args; ++i) {
    if (body->args[i]->type->kind != KILN_IR_TYPE_INDEX) {
      return kiln_ir_op_emit_error(op, ctx, "region arguments must be index");
    }
  }
  for (uint32_t i = 0; i < kiln_ir_op_num_regular_operands(yield); ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(yield, i)->type;
    bool last = i + 1 == kiln_ir_op_num_regular_operands(yield);
    const kiln_ir_type_t* want = !last  ? kiln_ir_index_type_get(ctx)
                                 : load ? kiln_ir_type_element(st)
                                        : kiln_ir_int_type(ctx, 1);
    if (t != want) {
      return kiln_ir_op_emit_error(op, ctx, "region yield %u must be %s", i,
                                   kiln_ir_type_to_string(ctx, want));
    }
  }
  return kiln_ok_status();
}

// `affine.linearize_index [disjoint] [%a, %b] by (B0, B1) : index` and
// `affine.delinearize_index %x into (B0, B1) : index, index`, static bases.
static kiln_status_t kiln_affine_parse_basis(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  int64_t basis[KILN_LINALG_EXT_MAX_RANK];
  size_t n = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  do {
    if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_PERCENT_ID) {
      return kiln_mlir_emit_error(p, "dynamic bases are not supported");
    }
    if (n == KILN_LINALG_EXT_MAX_RANK) {
      return kiln_mlir_emit_error(p, "too many basis entries");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &basis[n++]));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  return kiln_mlir_add_attribute(
      p, state, "static_basis",
      kiln_dialect_i64_array(kiln_mlir_parser_context(p), n, basis));
}

static kiln_status_t kiln_affine_parse_linearize(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  if (kiln_mlir_parse_optional_keyword(p, "disjoint")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "disjoint",
                                                 kiln_ir_unit_attr_get(ctx)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  kiln_mlir_operand_list_t ops = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &ops));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "by"));
  KILN_RETURN_IF_ERROR(kiln_affine_parse_basis(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* t = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &t));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &ops, 1, &index, state));
  return kiln_mlir_add_result_type(p, state, t);
}

static kiln_status_t kiln_affine_parse_delinearize(kiln_mlir_op_parser_t* p,
                                                   kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t x;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &x));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_affine_parse_basis(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_type_list_t types = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &x, kiln_ir_index_type_get(ctx), state));
  return kiln_mlir_add_result_types(p, state, &types);
}

static kiln_status_t kiln_affine_verify_basis(kiln_ir_context_t* ctx,
                                              kiln_ir_op_t* op) {
  int64_t basis[KILN_LINALG_EXT_MAX_RANK];
  int64_t n = kiln_lx_int_list(kiln_ir_op_get_attr(op, "static_basis"), basis,
                               KILN_LINALG_EXT_MAX_RANK);
  bool linearize = kiln_ir_op_is(op, "affine.linearize_index");
  int64_t count = linearize ? (int64_t)kiln_ir_op_num_regular_operands(op)
                            : (int64_t)op->num_results;
  // The outermost basis entry may be left out.
  if (n != count && n != count - 1) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "basis has %lld entries for %lld indices",
                                 (long long)n, (long long)count);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (basis[i] < 1) {
      return kiln_ir_op_emit_error(op, ctx, "basis entries must be positive");
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

// lower: the op's hook, kiln_linalg_ext_lower_<lower> (lower_linalg_ext.h).
#define KILN_LX_DEF(name, summary, regions, verify, lower)                     \
  {                                                                            \
    name, summary, KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK,            \
        KILN_IR_VARIADIC, KILN_IR_VARIADIC, regions, 0, verify, kiln_lx_parse, \
        kiln_lx_print, NULL, NULL, kiln_linalg_ext_lower_##lower               \
  }

static const kiln_ir_op_def_t kiln_linalg_ext_defs[] = {
    KILN_LX_DEF("iree_linalg_ext.sort",
                "sorts its outputs along a dimension with a comparator region",
                1, kiln_lx_verify_sort, sort),
    KILN_LX_DEF("iree_linalg_ext.scan",
                "inclusive or exclusive scan along a dimension", 1,
                kiln_lx_verify_scan, scan),
    KILN_LX_DEF("iree_linalg_ext.topk",
                "the K first elements (and their indices) along a dimension "
                "by a comparator",
                1, kiln_lx_verify_topk, topk),
    KILN_LX_DEF("iree_linalg_ext.topk_v2",
                "topk with optional output indices and a pure ordering "
                "comparator (is_sorted: the slots bubble-sorted after each "
                "element, as IREE does)",
                1, kiln_lx_verify_topk, topk),
    KILN_LX_DEF("iree_linalg_ext.arg_compare",
                "value and index selected by a comparator along a dimension", 1,
                kiln_lx_verify_arg_compare, arg_compare),
    KILN_LX_DEF("iree_linalg_ext.attention",
                "softmax(score(Q K * scale) + mask) V over indexing maps (or "
                "IREE's first form: softmax(Q K^T) V, no region)",
                KILN_IR_VARIADIC, kiln_lx_verify_attention, attention),
    KILN_LX_DEF("iree_linalg_ext.online_attention",
                "one step of attention with running max and sum (output not "
                "normalized)",
                1, kiln_lx_verify_attention, attention),
    KILN_LX_DEF("iree_linalg_ext.winograd.input_transform",
                "B^T X B of each 8x8 input tile (Winograd F(6x6, 3x3))", 0,
                kiln_lx_verify_winograd, winograd),
    KILN_LX_DEF("iree_linalg_ext.winograd.output_transform",
                "A^T Y A of each 8x8 tile into a 6x6 output tile (Winograd "
                "F(6x6, 3x3))",
                0, kiln_lx_verify_winograd, winograd),
    KILN_LX_DEF("iree_linalg_ext.reverse",
                "reverses the input along the listed dimensions (IREE's "
                "earlier op, now stablehlo.reverse or linalg)",
                0, kiln_lx_verify_reverse, reverse),
    KILN_LX_DEF("iree_linalg_ext.gather",
                "gathers slices of the source at a tensor of indices", 0,
                kiln_lx_verify_gather, gather),
    KILN_LX_DEF("iree_linalg_ext.scatter",
                "combines updates into slices of the original at a tensor of "
                "indices",
                1, kiln_lx_verify_scatter, scatter),
    {"iree_linalg_ext.map_load",
     "reads the source at indices computed from each output index (padding "
     "outside)",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK, 2, 1, 1, 0,
     kiln_lx_verify_map, kiln_lx_parse_map, kiln_lx_print_map, NULL, NULL,
     kiln_linalg_ext_lower_map},
    {"iree_linalg_ext.map_store",
     "writes each input element at the output index its region computes "
     "(where its mask holds)",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK, 2, 1, 1, 0,
     kiln_lx_verify_map, kiln_lx_parse_map, kiln_lx_print_map, NULL, NULL,
     kiln_linalg_ext_lower_map},
    {"affine.linearize_index",
     "row-major linear index of indices in a static basis", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_affine_verify_basis,
     kiln_affine_parse_linearize, NULL, NULL, NULL,
     kiln_linalg_ext_lower_unsupported},
    {"affine.delinearize_index",
     "indices of a row-major linear index in a static basis",
     KILN_IR_TRAIT_PURE, 1, KILN_IR_VARIADIC, 0, 0, kiln_affine_verify_basis,
     kiln_affine_parse_delinearize, NULL, NULL, NULL,
     kiln_linalg_ext_lower_unsupported},
    {"iree_linalg_ext.yield", "yields the value of an iree_linalg_ext region",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE,
     KILN_IR_VARIADIC, 0, 0, 0, NULL, kiln_dialect_parse_return_like,
     kiln_dialect_print_return_like, NULL, NULL,
     kiln_linalg_ext_lower_unsupported},
};

kiln_status_t kiln_dialect_register_linalg_ext(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_ir_register_ops(
      context, kiln_linalg_ext_defs,
      sizeof(kiln_linalg_ext_defs) / sizeof(kiln_linalg_ext_defs[0])));
  // IREE's earlier names (map_gather/map_scatter until early 2026; softmax
  // before it moved to linalg), still in programs written then.
  KILN_RETURN_IF_ERROR(kiln_ir_register_op_alias(
      context, "iree_linalg_ext.map_gather", "iree_linalg_ext.map_load"));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op_alias(
      context, "iree_linalg_ext.map_scatter", "iree_linalg_ext.map_store"));
  return kiln_ir_register_op_alias(context, "iree_linalg_ext.softmax",
                                   "linalg.softmax");
}
