// iree_linalg_ext ops (linalg_ext.c) and linalg.pack / unpack
// (linalg_pack.c, see kiln_lx_lower_pack) -> linalg.generic. See
// lower_linalg_ext.h. Like the StableHLO sort/scatter lowerings, none of
// these writes at data-dependent positions: every output element is
// computed by a generic over its own coordinates, with reduction loops run
// in order, so results are deterministic for any thread count.
//   - sort: the comparator sort of lower_stablehlo_compute.c (ranks, then a
//     gather by rank).
//   - scan along d (size n): a generic over (dims..., k), k a reduction loop
//     over d. Inclusive: out[j] = x[0], then f(out, x[k]) for 0 < k <= j.
//     Exclusive: out[j] = acc, then f(out, x[k]) for k < j. (IREE's
//     recurrence: out[j] = f(out[j-1], x[j]) resp. f(out[j-1], x[j-1]).)
//     The accumulator result is out[n-1] (the initial one when n == 1).
//   - topk / topk_v2 with a static K of at most KILN_LX_TOPK_MAX_SLOTS:
//     IREE's insertion, step for step, so ties come out in IREE's order. A
//     generic over the values, the topk dim a reduction loop run in order,
//     keeps the K output slots (value, index) as 2K accumulators shaped
//     like the output without that dim, started from the outputs' slots:
//     each element walks the slots with a carry; a slot keeps the better of
//     slot and carry under the comparator, and of two equivalent ones the
//     index of the smaller index (the value stays); topk_v2 with is_sorted
//     then runs IREE's bubble sort over the slots after every insertion
//     (it swaps equivalent neighbours, which is where IREE's tie order
//     comes from). A second generic writes slot p to output position p.
//     Outputs from tensor.empty (undefined in IREE) count as empty slots
//     that the first K elements fill. The initial output values take part
//     as IREE's do (a fill with the comparator's worst value, as programs
//     use, is never picked over an element).
//   - topk with a run-time or larger K, from initial outputs in order
//     (a fill, all equivalent, or tensor.empty) and without is_sorted: the
//     order that IREE's insertion leaves in its slots, as counts. The
//     initial outputs S (unless from tensor.empty) arrive before the
//     elements E. Under the insertion a carry passes every slot that is not
//     worse, so values keep "comparator, then arrival"; of two equivalent
//     ones the slot keeps the smaller index, so indices keep "comparator,
//     then smaller index". For every entry of S and E two counts (how many
//     entries go before it under each order) are reductions over S and E,
//     and output position p takes the value counted p and the index
//     counted p.
//   - any other topk with a run-time or larger K (topk_v2 with is_sorted,
//     whose bubble sorts reorder equivalent values; initial outputs that
//     may be out of order): IREE's walk itself, as a host loop over the
//     elements along d (lowered to host blocks after the op lowerings).
//     Each insertion is one generic over (slot j, slot q), q a reduction
//     loop: the carry starts as element t at q = 0 and takes the insertion
//     step with slot q; slot j's new pair is what the step at q = j
//     leaves. With is_sorted a nested host loop runs the K - 1 bubble
//     sweeps, each a generic of the same form (the carry is the element
//     moving right). All rows advance together, one dispatch per step.
//   - arg_compare: a reduction generic over d whose accumulators start as
//     the outputs; an element replaces the current pick when the
//     comparator(element, pick) holds; its index is its position (+
//     index_base) or its input index.
//   - gather: a parallel generic over the output; the body reads the index
//     vector of its batch coordinates (clamped into the source), extracts
//     the source element; a false mask keeps the output's element.
//   - scatter: a generic over (original dims, batch dims), the batch dims
//     reduction loops run in order: each original element combines (the
//     region, update first) every update whose slice covers it.
#include "compiler/input/linalg/lower_linalg_ext.h"

#include <math.h>
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/input/stablehlo/lower_stablehlo_compute.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

#define KILN_LX_MAX_RANK 12

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

// The maps over (d0..d<rank-1>, k): the point itself ("at j"), the point
// with dim |d| replaced by the loop k ("at k"), and the point without dim
// |d| ("reduced").
typedef struct kiln_lx_maps_t {
  const kiln_ir_attribute_t* at_j;
  const kiln_ir_attribute_t* at_k;
  const kiln_ir_attribute_t* reduced;
  bool reduction[KILN_LX_MAX_RANK + 1];
} kiln_lx_maps_t;

static void kiln_lx_make_maps(kiln_ir_context_t* ctx, uint32_t rank, int64_t d,
                              kiln_lx_maps_t* m) {
  int64_t at_j[KILN_LX_MAX_RANK], at_k[KILN_LX_MAX_RANK],
      reduced[KILN_LX_MAX_RANK];
  size_t nr = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    at_j[i] = at_k[i] = i;
    if ((int64_t)i != d) reduced[nr++] = i;
  }
  at_k[d] = rank;
  m->at_j = kiln_linalg_projection_map(ctx, rank + 1, rank, at_j);
  m->at_k = kiln_linalg_projection_map(ctx, rank + 1, rank, at_k);
  m->reduced = kiln_linalg_projection_map(ctx, rank + 1, nr, reduced);
  memset(m->reduction, 0, sizeof(m->reduction));
  m->reduction[rank] = true;
}

// Every operand and result of |op| statically shaped, of rank at most
// KILN_LX_MAX_RANK.
static kiln_status_t kiln_lx_expect_static(kiln_ir_context_t* ctx,
                                           kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_shaped(t)) continue;
    if (!kiln_ir_type_has_static_shape(t)) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "dynamically shaped %s is not supported yet",
                                   kiln_ir_type_to_string(ctx, t));
    }
    if (t->shaped.rank > KILN_LX_MAX_RANK) {
      return kiln_ir_op_emit_error(op, ctx, "rank %lld is not supported",
                                   (long long)t->shaped.rank);
    }
  }
  return kiln_ok_status();
}

// |v| (an integer or index) converted to the integer type |to|.
static kiln_status_t kiln_lx_to_int(kiln_ir_builder_t* b, kiln_ir_value_t* v,
                                    const kiln_ir_type_t* to,
                                    kiln_ir_value_t** out) {
  if (v->type == to) {
    *out = v;
    return kiln_ok_status();
  }
  if (v->type->kind == KILN_IR_TYPE_INDEX || to->kind == KILN_IR_TYPE_INDEX) {
    return kiln_lowering_emit(b, "arith.index_cast", to, 1, &v, out);
  }
  return kiln_lowering_convert(b, v, to, out);
}

static void kiln_lx_replace(kiln_ir_op_t* op, kiln_ir_op_t* generic,
                            uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, i),
                                        kiln_ir_op_result(generic, i));
  }
  kiln_ir_op_erase(op);
}

// |v| converted elementwise to the element type of |rt| (same shape); |v|
// itself when it already has it.
static kiln_status_t kiln_lx_convert_tensor(kiln_ir_builder_t* b,
                                            kiln_ir_value_t* v,
                                            const kiln_ir_type_t* rt,
                                            kiln_ir_value_t** out) {
  const kiln_ir_type_t* e = kiln_ir_type_element(rt);
  if (kiln_ir_type_element(v->type) == e) {
    *out = v;
    return kiln_ok_status();
  }
  uint32_t rank = (uint32_t)rt->shaped.rank;
  const kiln_ir_attribute_t* id = kiln_linalg_identity_map(b->context, rank);
  const kiln_ir_attribute_t* maps[2] = {id, id};
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, rt, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &v, 1, &init, maps,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[0], e, &c));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &c));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

// The number of inputs (the `ins` group) of |op|.
static uint32_t kiln_lx_num_ins(const kiln_ir_op_t* op) {
  return kiln_linalg_num_inputs(op);
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lx_lower_scan(kiln_ir_builder_t* b,
                                        kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* out = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* acc = kiln_ir_op_operand(op, 2);
  uint32_t rank = (uint32_t)x->type->shaped.rank;
  int64_t d = kiln_linalg_ext_dimension(op);
  int64_t n = x->type->shaped.dims[d];
  bool inclusive = kiln_linalg_ext_bool(op, "inclusive", true);
  kiln_lx_maps_t m;
  kiln_lx_make_maps(ctx, rank, d, &m);
  kiln_ir_value_t* ins[2] = {x, acc};
  const kiln_ir_attribute_t* maps[3] = {m.at_k, m.reduced, m.at_j};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 2, ins, 1, &out, maps, rank + 1, m.reduction, &generic, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* xk = body->args[0];
    kiln_ir_value_t* init = body->args[1];
    kiln_ir_value_t* carried = body->args[2];
    kiln_ir_value_t *j, *k, *zero, *is_first, *in_range, *base, *stepped,
        *result;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &j));
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank, &k));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, k, zero, &is_first));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(
        &bb, inclusive ? KILN_CMPI_SLE : KILN_CMPI_SLT, k, j, &in_range));
    if (inclusive) {
      base = carried;
      kiln_ir_value_t* args[2] = {carried, xk};
      KILN_RETURN_IF_ERROR(
          kiln_lower_stablehlo_region_inline(&bb, op, args, &stepped));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_select(&bb, is_first, xk, stepped, &stepped));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_select(&bb, is_first, init, carried, &base));
      kiln_ir_value_t* args[2] = {base, xk};
      KILN_RETURN_IF_ERROR(
          kiln_lower_stablehlo_region_inline(&bb, op, args, &stepped));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, in_range, stepped, base, &result));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &result));
  }
  kiln_ir_value_t* scanned = kiln_ir_op_result(generic, 0);
  // The accumulator result: the last scanned element along d.
  kiln_ir_value_t* last = acc;
  if (n == KILN_IR_DYNAMIC_DIM) {
    // A run-time size: a reduction over d keeping the element at size - 1
    // (the accumulator as given when the size is 0).
    kiln_ir_value_t* size = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, x, (size_t)d, &size));
    int64_t kept[KILN_LX_MAX_RANK];
    size_t num_kept = 0;
    for (uint32_t i = 0; i < rank; ++i) {
      if ((int64_t)i != d) kept[num_kept++] = i;
    }
    const kiln_ir_attribute_t* last_maps[2] = {
        kiln_linalg_identity_map(ctx, rank),
        kiln_linalg_projection_map(ctx, rank, num_kept, kept)};
    bool last_reduction[KILN_LX_MAX_RANK] = {false};
    last_reduction[d] = true;
    kiln_ir_value_t* acc_copy = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
        b, acc, kiln_linalg_identity_map(ctx, (uint32_t)acc->type->shaped.rank),
        acc->type, &acc_copy));
    kiln_ir_op_t* pick = NULL;
    kiln_ir_block_t* pick_body = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_linalg_create_generic(b, 1, &scanned, 1, &acc_copy, last_maps,
                                   rank, last_reduction, &pick, &pick_body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, pick_body);
    kiln_ir_value_t *j, *one, *end, *is_last, *v;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &j));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 1, &one));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", size, one, &end));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, j, end, &is_last));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, is_last, pick_body->args[0],
                                              pick_body->args[1], &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
    last = kiln_ir_op_result(pick, 0);
  } else if (n > 1) {
    const kiln_ir_affine_expr_t* exprs[KILN_LX_MAX_RANK];
    for (uint32_t i = 0, r = 0; i < rank; ++i) {
      exprs[i] = (int64_t)i == d ? kiln_ir_affine_constant(ctx, n - 1)
                                 : kiln_ir_affine_dim(ctx, r++);
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
        b, scanned, kiln_ir_affine_map_attr_get(ctx, rank - 1, 0, rank, exprs),
        acc->type, &last));
  }
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0), scanned);
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 1), last);
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

// The largest static K that topk lowers slot by slot (IREE's order): 2K
// slot accumulators and two inputs stay within a structured op's operands.
#define KILN_LX_TOPK_MAX_SLOTS 12

// topk_v2 with is_sorted (IREE's bubble sort after every insertion).
static bool kiln_lx_topk_is_sorted(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "iree_linalg_ext.topk_v2") &&
         kiln_ir_op_get_attr(op, "is_sorted") != NULL;
}

// One step of IREE's topk insertion at a slot: the carry (|cv|, |ci|) and
// the slot (|kv|, |ki|) become the slot's new pair and the new carry. The
// slot takes the carry's value when comparator(carry, slot) holds (or the
// slot is |empty|, an i1 or NULL); its index is the carry's also when
// neither is before the other and the carry's index is smaller. |ci|/|ki|
// are NULL without output indices.
static kiln_status_t kiln_lx_topk_insert_step(
    kiln_ir_builder_t* bb, kiln_ir_op_t* op, kiln_ir_value_t* empty,
    kiln_ir_value_t** cv, kiln_ir_value_t** ci, kiln_ir_value_t** kv,
    kiln_ir_value_t** ki) {
  kiln_ir_value_t* args[2] = {*cv, *kv};
  kiln_ir_value_t *fwd, *rev, *eq, *first, *take_index, *v, *c;
  KILN_RETURN_IF_ERROR(kiln_lower_stablehlo_region_inline(bb, op, args, &fwd));
  kiln_ir_value_t* take = fwd;
  if (empty) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.ori", fwd, empty, &take));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, take, *cv, *kv, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, take, *kv, *cv, &c));
  if (*ci) {
    args[0] = *kv;
    args[1] = *cv;
    KILN_RETURN_IF_ERROR(
        kiln_lower_stablehlo_region_inline(bb, op, args, &rev));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, KILN_CMPI_EQ, fwd, rev, &eq));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(bb, KILN_CMPI_SLT, *ci, *ki, &first));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.andi", eq, first, &eq));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.ori", take, eq, &take_index));
    kiln_ir_value_t *i, *ic;
    KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, take_index, *ci, *ki, &i));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(bb, take_index, *ki, *ci, &ic));
    *ki = i;
    *ci = ic;
  }
  *kv = v;
  *cv = c;
  return kiln_ok_status();
}

// IREE's topk for a static K (see the file comment): the slot generic and
// the generic that writes the slots out. |indices| are the input indices
// or NULL; |outs[1]| is NULL without output indices.
static kiln_status_t kiln_lx_lower_topk_slots(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* x,
    kiln_ir_value_t* indices, uint32_t num_outs, kiln_ir_value_t* const* outs,
    int64_t d, int64_t k) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)x->type->shaped.rank;
  bool sorted = kiln_lx_topk_is_sorted(op);
  // Slot p of each output, shaped like the output without dim d.
  bool reduction[KILN_LX_MAX_RANK + 1] = {false};
  int64_t kept[KILN_LX_MAX_RANK];
  uint32_t num_kept = 0;
  const kiln_ir_type_t* slot_types[2];
  for (uint32_t o = 0; o < num_outs; ++o) {
    slot_types[o] = kiln_linalg_reduce_one_dim(ctx, outs[o]->type, d, reduction,
                                               kept, &num_kept);
  }
  const kiln_ir_affine_expr_t* exprs[KILN_LX_MAX_RANK];
  kiln_ir_value_t* slots[2 * KILN_LX_TOPK_MAX_SLOTS];
  bool from_empty[2] = {false, false};
  for (uint32_t o = 0; o < num_outs; ++o) {
    kiln_ir_op_t* def = outs[o]->defining_op;
    from_empty[o] = def && kiln_ir_op_is(def, "tensor.empty");
    for (int64_t p = 0; p < k; ++p) {
      for (uint32_t i = 0, j = 0; i < rank; ++i) {
        exprs[i] = (int64_t)i == d ? kiln_ir_affine_constant(ctx, p)
                                   : kiln_ir_affine_dim(ctx, j++);
      }
      const kiln_ir_attribute_t* map =
          kiln_ir_affine_map_attr_get(ctx, rank - 1, 0, rank, exprs);
      KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
          b, outs[o], map, slot_types[o], &slots[o * k + p]));
    }
  }
  bool empty = from_empty[0];

  // 1. The slots, element by element along d.
  const kiln_ir_attribute_t* id = kiln_linalg_identity_map(ctx, rank);
  const kiln_ir_attribute_t* drop_d =
      kiln_linalg_projection_map(ctx, rank, num_kept, kept);
  kiln_ir_value_t* ins[2] = {x, indices};
  uint32_t n_in = indices ? 2 : 1;
  uint32_t n_slots = num_outs * (uint32_t)k;
  const kiln_ir_attribute_t* maps[2 + 2 * KILN_LX_TOPK_MAX_SLOTS];
  for (uint32_t i = 0; i < n_in; ++i) maps[i] = id;
  for (uint32_t i = 0; i < n_slots; ++i) maps[n_in + i] = drop_d;
  bool red[KILN_LX_MAX_RANK] = {false};
  red[d] = true;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, n_in, ins, n_slots, slots, maps, rank, red, &generic, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* v[KILN_LX_TOPK_MAX_SLOTS];
    kiln_ir_value_t* ix[KILN_LX_TOPK_MAX_SLOTS] = {NULL};
    for (int64_t p = 0; p < k; ++p) {
      v[p] = body->args[n_in + p];
      if (num_outs == 2) ix[p] = body->args[n_in + k + p];
    }
    kiln_ir_value_t *cv = body->args[0], *ci = NULL, *t = NULL;
    if (num_outs == 2 || empty) {
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &t));
    }
    if (num_outs == 2) {
      ci = indices ? body->args[1] : t;
      KILN_RETURN_IF_ERROR(
          kiln_lx_to_int(&bb, ci, kiln_ir_type_element(outs[1]->type), &ci));
    }
    for (int64_t p = 0; p < k; ++p) {
      // From tensor.empty, slot p is empty until element p arrives.
      kiln_ir_value_t *pc = NULL, *is_empty = NULL;
      if (empty) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, p, &pc));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, pc, t, &is_empty));
      }
      KILN_RETURN_IF_ERROR(
          kiln_lx_topk_insert_step(&bb, op, is_empty, &cv, &ci, &v[p], &ix[p]));
    }
    // is_sorted: K - 1 bubble sweeps over the slots filled so far; a pair
    // out of order under the comparator swaps (so do equivalent ones).
    for (int64_t i = 0; sorted && i < k - 1; ++i) {
      for (int64_t j = 0; j < k - 1 - i; ++j) {
        kiln_ir_value_t *keep, *args[2] = {v[j], v[j + 1]};
        KILN_RETURN_IF_ERROR(
            kiln_lower_stablehlo_region_inline(&bb, op, args, &keep));
        if (empty) {
          kiln_ir_value_t *jc, *unfilled;
          KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, j + 1, &jc));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_cmpi(&bb, KILN_CMPI_SGT, jc, t, &unfilled));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_emit2(&bb, "arith.ori", keep, unfilled, &keep));
        }
        kiln_ir_value_t** pairs[2] = {v, ix};
        for (uint32_t o = 0; o < num_outs; ++o) {
          kiln_ir_value_t *lo, *hi;
          kiln_ir_value_t** s = pairs[o];
          KILN_RETURN_IF_ERROR(
              kiln_lowering_select(&bb, keep, s[j], s[j + 1], &lo));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_select(&bb, keep, s[j + 1], s[j], &hi));
          s[j] = lo;
          s[j + 1] = hi;
        }
      }
    }
    kiln_ir_value_t* results[2 * KILN_LX_TOPK_MAX_SLOTS];
    for (int64_t p = 0; p < k; ++p) {
      results[p] = v[p];
      if (num_outs == 2) results[k + p] = ix[p];
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, n_slots, results));
  }

  // 2. Output position p along d takes slot p.
  kiln_ir_value_t* inits[2];
  for (uint32_t o = 0; o < num_outs; ++o) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_empty_like(b, outs[o]->type, outs[o], &inits[o]));
    maps[n_slots + o] = id;
  }
  for (uint32_t i = 0; i < n_slots; ++i) {
    slots[i] = kiln_ir_op_result(generic, i);
    maps[i] = drop_d;
  }
  kiln_ir_op_t* out_generic = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, n_slots, slots, num_outs,
                                                  inits, maps, rank, NULL,
                                                  &out_generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *pos, *results[2];
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &pos));
  for (uint32_t o = 0; o < num_outs; ++o) {
    results[o] = body->args[o * k + k - 1];
  }
  for (int64_t p = k - 2; p >= 0; --p) {
    kiln_ir_value_t *pc, *is_p;
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, p, &pc));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, pos, pc, &is_p));
    for (uint32_t o = 0; o < num_outs; ++o) {
      KILN_RETURN_IF_ERROR(kiln_lowering_select(
          &bb, is_p, body->args[o * k + p], results[o], &results[o]));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, num_outs, results));
  kiln_lx_replace(op, out_generic, num_outs);
  return kiln_ok_status();
}

// How two sequences counted against each other (kiln_lx_topk_count) tie
// by arrival when their values are equivalent.
typedef enum kiln_lx_arrival_t {
  KILN_LX_ARRIVAL_SAME,     // one sequence: the earlier position goes first
  KILN_LX_ARRIVAL_B_FIRST,  // every element of b arrived before a's
  KILN_LX_ARRIVAL_A_FIRST,  // every element of a arrived before b's
} kiln_lx_arrival_t;

// Zeros of i32 shaped like |like| (run-time dims read from it).
static kiln_status_t kiln_lx_zero_counts(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* like,
                                         kiln_ir_value_t** out) {
  const kiln_ir_type_t* i32 = kiln_ir_int_type(b->context, 32);
  kiln_ir_value_t *empty, *z;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(
      b, kiln_dialect_with_element(b->context, like->type, i32), like, &empty));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, i32, 0, &z));
  return kiln_lowering_fill(b, z, empty, out);
}

// A generic over the dims of |ins|[0] plus one reduction loop k
// (kiln_lx_make_maps): the inputs |ins| (the last two NULL without
// indices) read at j (d) or, where |at_k|, at k; the outputs |outs| (the
// second NULL without indices) are at j.
static kiln_status_t kiln_lx_pair_generic(kiln_ir_builder_t* b, int64_t d,
                                          kiln_ir_value_t* const* ins,
                                          const bool* at_k,
                                          kiln_ir_value_t* const* outs,
                                          kiln_ir_op_t** generic,
                                          kiln_ir_block_t** body) {
  uint32_t rank = (uint32_t)ins[0]->type->shaped.rank;
  uint32_t n_in = ins[2] ? 4 : 2, n_out = outs[1] ? 2 : 1;
  kiln_lx_maps_t m;
  kiln_lx_make_maps(b->context, rank, d, &m);
  const kiln_ir_attribute_t* maps[6];
  for (uint32_t i = 0; i < n_in; ++i) maps[i] = at_k[i] ? m.at_k : m.at_j;
  for (uint32_t o = 0; o < n_out; ++o) maps[n_in + o] = m.at_j;
  return kiln_linalg_create_generic(b, n_in, ins, n_out, outs, maps, rank + 1,
                                    m.reduction, generic, body);
}

// For every element j of the sequence |av| along d (indices |ai|, NULL
// without output indices), adds to |*cv| the number of elements k of |bv|
// whose value goes before it: comparator(b[k], a[j]), or equivalent and
// arrived earlier (|arrival|); and to |*ci| the number whose index goes
// before it: comparator(b[k], a[j]), or equivalent with a smaller index (the
// same index: arrived earlier). These are the orders that IREE's insertion
// leaves in its slots (see kiln_lx_lower_topk_ranked).
static kiln_status_t kiln_lx_topk_count(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* av,
    kiln_ir_value_t* ai, kiln_ir_value_t* bv, kiln_ir_value_t* bi, int64_t d,
    kiln_lx_arrival_t arrival, kiln_ir_value_t** cv, kiln_ir_value_t** ci) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)av->type->shaped.rank;
  bool with_i = ai != NULL;
  kiln_ir_value_t* ins[4] = {av, bv, ai, bi};
  kiln_ir_value_t* outs[2] = {*cv, with_i ? *ci : NULL};
  static const bool at_k[4] = {false, true, false, true};
  uint32_t n_in = with_i ? 4 : 2, n_out = with_i ? 2 : 1;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lx_pair_generic(b, d, ins, at_k, outs, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* i1 = kiln_ir_int_type(ctx, 1);
  const kiln_ir_type_t* i32 = kiln_ir_int_type(ctx, 32);
  kiln_ir_value_t *less_ba, *less_ab, *t, *equiv, *tie, *one, *zero;
  kiln_ir_value_t* args[2] = {body->args[1], body->args[0]};
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, op, args, &less_ba));
  args[0] = body->args[0];
  args[1] = body->args[1];
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, op, args, &less_ab));
  // Equivalent (neither before the other) once less_ba is false.
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i1, 1, &t));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.xori", less_ab, t, &equiv));
  if (arrival == KILN_LX_ARRIVAL_SAME) {
    kiln_ir_value_t *j, *k;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &j));
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank, &k));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, k, j, &tie));
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(
        &bb, i1, arrival == KILN_LX_ARRIVAL_B_FIRST, &tie));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i32, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i32, 0, &zero));
  kiln_ir_value_t *before, *inc, *results[2];
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.andi", equiv, tie, &before));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.ori", less_ba, before, &before));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, before, one, zero, &inc));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", body->args[n_in],
                                           inc, &results[0]));
  if (with_i) {
    kiln_ir_value_t *lt, *eq, *idx_first;
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, body->args[3],
                                            body->args[2], &lt));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, body->args[3],
                                            body->args[2], &eq));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", eq, tie, &eq));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.ori", lt, eq, &idx_first));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.andi", equiv, idx_first, &before));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.ori", less_ba, before, &before));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, before, one, zero, &inc));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(
        &bb, "arith.addi", body->args[n_in + 1], inc, &results[1]));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, n_out, results));
  *cv = kiln_ir_op_result(generic, 0);
  if (with_i) *ci = kiln_ir_op_result(generic, 1);
  return kiln_ok_status();
}

// Output position p along d takes, from the sequence |sv| (indices |si|),
// the value whose value count |rv| is p and the index whose index count
// |ri| is p; |*outs| (value [, index]) keep their element where none is.
static kiln_status_t kiln_lx_topk_select(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* sv,
                                         kiln_ir_value_t* si,
                                         kiln_ir_value_t* rv,
                                         kiln_ir_value_t* ri, int64_t d,
                                         kiln_ir_value_t** outs) {
  kiln_ir_context_t* ctx = b->context;
  bool with_i = si != NULL;
  kiln_ir_value_t* ins[4] = {rv, sv, ri, si};
  static const bool at_k[4] = {true, true, true, true};
  uint32_t n_in = with_i ? 4 : 2, n_out = with_i ? 2 : 1;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lx_pair_generic(b, d, ins, at_k, outs, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  kiln_ir_value_t *p, *r, *sel, *results[2];
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &p));
  for (uint32_t o = 0; o < n_out; ++o) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "arith.index_cast", index, 1,
                                            &body->args[2 * o], &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, r, p, &sel));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(
        &bb, sel, body->args[2 * o + 1], body->args[n_in + o], &results[o]));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, n_out, results));
  for (uint32_t o = 0; o < n_out; ++o) outs[o] = kiln_ir_op_result(generic, o);
  return kiln_ok_status();
}

// The input's indices in the output indices' element type (|indices|
// converted, or each element's position along d), shaped like |x|.
static kiln_status_t kiln_lx_topk_input_indices(
    kiln_ir_builder_t* b, kiln_ir_value_t* x, kiln_ir_value_t* indices,
    const kiln_ir_type_t* index_type, int64_t d, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)x->type->shaped.rank;
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(
      b, kiln_dialect_with_element(ctx, x->type, index_type), x, &init));
  const kiln_ir_attribute_t* id = kiln_linalg_identity_map(ctx, rank);
  const kiln_ir_attribute_t* maps[2] = {id, id};
  uint32_t n_in = indices ? 1 : 0;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, n_in, indices ? &indices : NULL, 1, &init, indices ? maps : maps + 1,
      rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* v = NULL;
  if (indices) {
    v = body->args[0];
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lx_to_int(&bb, v, index_type, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

// topk with a run-time or larger K, as the order that IREE's insertion
// leaves (see the file comment): the initial outputs S (unless from
// tensor.empty) arrive before the elements E; position p takes the value
// of count p under "comparator, then arrival" and the index of count p
// under "comparator, then smaller index, then arrival", counted over S
// and E. |indices| are the input indices or NULL; |outs[1]| is NULL
// without output indices.
static kiln_status_t kiln_lx_lower_topk_ranked(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* x,
    kiln_ir_value_t* indices, uint32_t num_outs, kiln_ir_value_t* const* outs,
    int64_t d) {
  bool with_i = num_outs == 2;
  kiln_ir_op_t* def = outs[0]->defining_op;
  bool with_s = !(def && kiln_ir_op_is(def, "tensor.empty"));
  kiln_ir_value_t *ei = NULL, *si = with_i ? outs[1] : NULL;
  if (with_i) {
    KILN_RETURN_IF_ERROR(kiln_lx_topk_input_indices(
        b, x, indices, kiln_ir_type_element(outs[1]->type), d, &ei));
  }
  // Counts of E: against E, then against S (which arrived first).
  kiln_ir_value_t *ecv, *eci = NULL;
  KILN_RETURN_IF_ERROR(kiln_lx_zero_counts(b, x, &ecv));
  if (with_i) KILN_RETURN_IF_ERROR(kiln_lx_zero_counts(b, x, &eci));
  KILN_RETURN_IF_ERROR(kiln_lx_topk_count(b, op, x, ei, x, ei, d,
                                          KILN_LX_ARRIVAL_SAME, &ecv, &eci));
  kiln_ir_value_t* results[2] = {outs[0], with_i ? outs[1] : NULL};
  if (with_s) {
    KILN_RETURN_IF_ERROR(kiln_lx_topk_count(
        b, op, x, ei, outs[0], si, d, KILN_LX_ARRIVAL_B_FIRST, &ecv, &eci));
    kiln_ir_value_t *scv, *sci = NULL;
    KILN_RETURN_IF_ERROR(kiln_lx_zero_counts(b, outs[0], &scv));
    if (with_i) KILN_RETURN_IF_ERROR(kiln_lx_zero_counts(b, outs[0], &sci));
    KILN_RETURN_IF_ERROR(kiln_lx_topk_count(b, op, outs[0], si, outs[0], si, d,
                                            KILN_LX_ARRIVAL_SAME, &scv, &sci));
    KILN_RETURN_IF_ERROR(kiln_lx_topk_count(
        b, op, outs[0], si, x, ei, d, KILN_LX_ARRIVAL_A_FIRST, &scv, &sci));
    KILN_RETURN_IF_ERROR(
        kiln_lx_topk_select(b, outs[0], si, scv, sci, d, results));
  }
  KILN_RETURN_IF_ERROR(kiln_lx_topk_select(b, x, ei, ecv, eci, d, results));
  for (uint32_t o = 0; o < num_outs; ++o) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, o), results[o]);
  }
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// A host loop for i in [0, |n|) (an index) carrying the |num| values
// |init|: a stablehlo.while, which lower-to-structured turns into host
// blocks after the op lowerings (lower_region_cf.c). |fn| builds one
// iteration at its builder from (i, the carried values) into the next
// ones; |out| receive the values after the last iteration.
typedef kiln_status_t (*kiln_lx_loop_body_fn_t)(kiln_ir_builder_t* b,
                                                void* user, kiln_ir_value_t* i,
                                                kiln_ir_value_t* const* carried,
                                                kiln_ir_value_t** next);

#define KILN_LX_LOOP_MAX_CARRIED 4

static kiln_status_t kiln_lx_host_loop(kiln_ir_builder_t* b, kiln_ir_value_t* n,
                                       uint32_t num,
                                       kiln_ir_value_t* const* init,
                                       kiln_lx_loop_body_fn_t fn, void* user,
                                       kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  if (num > KILN_LX_LOOP_MAX_CARRIED) {
    return kiln_make_status(KILN_STATUS_INTERNAL, "too many loop values");
  }
  kiln_ir_value_t* operands[KILN_LX_LOOP_MAX_CARRIED + 1];
  const kiln_ir_type_t* types[KILN_LX_LOOP_MAX_CARRIED + 1];
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 0, &operands[0]));
  types[0] = operands[0]->type;
  for (uint32_t v = 0; v < num; ++v) {
    operands[1 + v] = init[v];
    types[1 + v] = init[v]->type;
  }
  kiln_ir_region_t *cond = NULL, *body = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &cond));
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &body));
  kiln_ir_builder_t rb = *b;
  kiln_ir_block_t* block = NULL;
  kiln_ir_value_t *pred, *next[KILN_LX_LOOP_MAX_CARRIED + 1];
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, cond, num + 1, types, &block));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_cmpi(&rb, KILN_CMPI_SLT, block->args[0], n, &pred));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &pred, 0, NULL, 0, NULL, &ret));
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, body, num + 1, types, &block));
  KILN_RETURN_IF_ERROR(
      fn(&rb, user, block->args[0], block->args + 1, next + 1));
  kiln_ir_value_t* one = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&rb, 1, &one));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&rb, "arith.addi", block->args[0], one, &next[0]));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", num + 1, next, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.while", b->location);
  state.num_operands = num + 1;
  state.operands = operands;
  state.num_result_types = num + 1;
  state.result_types = types;
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, cond));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, body));
  kiln_ir_op_t* loop = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(b, &state, &loop));
  for (uint32_t v = 0; v < num; ++v) out[v] = kiln_ir_op_result(loop, 1 + v);
  return kiln_ok_status();
}

// What the walk of kiln_lx_lower_topk_walk needs in its loop bodies.
typedef struct kiln_lx_walk_t {
  kiln_ir_op_t* op;     // the topk (its comparator)
  kiln_ir_value_t* x;   // the input values
  kiln_ir_value_t* xi;  // the input indices, or NULL (positions)
  int64_t d;            // the topk dim
  uint32_t num_outs;    // 2 with output indices, else 1
  bool empty;           // the outputs come from tensor.empty
  kiln_ir_value_t* k;   // K (an index)
  kiln_ir_value_t* t;   // the element being inserted (in the sweeps)
} kiln_lx_walk_t;

// A generic over the slots' dims plus a reduction loop q over the slots
// (kiln_lx_make_maps): the slots (values [, indices]) read at q, and 2
// (without indices) or 4 accumulators at the slot position j: the carry
// (value [, index]) and the slot's new pair (value [, index]).
static kiln_status_t kiln_lx_walk_generic(kiln_ir_builder_t* b,
                                          const kiln_lx_walk_t* w,
                                          kiln_ir_value_t* const* slots,
                                          kiln_ir_op_t** generic,
                                          kiln_ir_block_t** body) {
  uint32_t rank = (uint32_t)slots[0]->type->shaped.rank;
  uint32_t n = w->num_outs;
  kiln_lx_maps_t m;
  kiln_lx_make_maps(b->context, rank, w->d, &m);
  kiln_ir_value_t* inits[4];
  const kiln_ir_attribute_t* maps[6];
  for (uint32_t o = 0; o < n; ++o) {
    maps[o] = m.at_k;
    maps[n + o] = maps[2 * n + o] = m.at_j;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_empty_like(b, slots[o]->type, slots[o], &inits[o]));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_empty_like(b, slots[o]->type, slots[o], &inits[n + o]));
  }
  return kiln_linalg_create_generic(b, n, slots, 2 * n, inits, maps, rank + 1,
                                    m.reduction, generic, body);
}

// Ends a kiln_lx_walk_generic body with its 2 |n| accumulators |results|;
// |next| receive the slots' new pairs (the last |n|).
static kiln_status_t kiln_lx_walk_yield(kiln_ir_builder_t* bb,
                                        kiln_ir_op_t* generic, uint32_t n,
                                        kiln_ir_value_t* const* results,
                                        kiln_ir_value_t** next) {
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(bb, 2 * n, results));
  for (uint32_t o = 0; o < n; ++o) next[o] = kiln_ir_op_result(generic, n + o);
  return kiln_ok_status();
}

// One insertion of IREE's walk: element t walks the slots (values
// [, indices]) with a carry, kiln_lx_topk_insert_step at each slot in
// order. The generic's accumulators at slot j fold over the slots q: the
// carry starts as element t at q = 0, and the slot's new pair is the one
// the step at q = j leaves.
static kiln_status_t kiln_lx_walk_insert(kiln_ir_builder_t* b, void* user,
                                         kiln_ir_value_t* t,
                                         kiln_ir_value_t* const* slots,
                                         kiln_ir_value_t** next) {
  const kiln_lx_walk_t* w = user;
  uint32_t rank = (uint32_t)slots[0]->type->shaped.rank, n = w->num_outs;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_lx_walk_generic(b, w, slots, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *j, *q, *coords[KILN_LX_MAX_RANK], *c0, *first, *at;
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, w->d, &j));
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank, &q));
  for (uint32_t r = 0; r < rank; ++r) {
    if ((int64_t)r == w->d) {
      coords[r] = t;
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, r, &coords[r]));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &c0));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, q, c0, &first));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, q, j, &at));
  // The carry: element t at q = 0, else the accumulator.
  kiln_ir_value_t *ev, *cv, *ci = NULL, *kv = body->args[0], *ki = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, w->x, coords, &ev));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_select(&bb, first, ev, body->args[n], &cv));
  if (n == 2) {
    kiln_ir_value_t* ei = t;
    if (w->xi)
      KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, w->xi, coords, &ei));
    KILN_RETURN_IF_ERROR(
        kiln_lx_to_int(&bb, ei, kiln_ir_type_element(slots[1]->type), &ei));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, first, ei, body->args[n + 1], &ci));
    ki = body->args[1];
  }
  // From tensor.empty, slot q is empty until element q arrives.
  kiln_ir_value_t* is_empty = NULL;
  if (w->empty) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, q, t, &is_empty));
  }
  KILN_RETURN_IF_ERROR(
      kiln_lx_topk_insert_step(&bb, w->op, is_empty, &cv, &ci, &kv, &ki));
  kiln_ir_value_t *results[4], *slot_new[2] = {kv, ki};
  for (uint32_t o = 0; o < n; ++o) {
    results[o] = o ? ci : cv;
    KILN_RETURN_IF_ERROR(kiln_lowering_select(
        &bb, at, slot_new[o], body->args[2 * n + o], &results[n + o]));
  }
  return kiln_lx_walk_yield(&bb, generic, n, results, next);
}

// Sweep s of IREE's bubble sort over the slots (values [, indices]): j from
// 0 to ub - 1 (ub = K - 1 - s), the pair at (j, j + 1) swaps unless
// comparator(slot j, slot j + 1) holds (or, from tensor.empty, slot j + 1
// is not filled yet). The element at j moves on as a carry; the
// accumulators at slot j fold over q: the carry starts as slot 0, and
// position j takes what the step at q = j + 1 leaves there (or the carry
// after q = ub at j = ub; positions past ub keep their slot).
static kiln_status_t kiln_lx_walk_sweep(kiln_ir_builder_t* b, void* user,
                                        kiln_ir_value_t* s,
                                        kiln_ir_value_t* const* slots,
                                        kiln_ir_value_t** next) {
  const kiln_lx_walk_t* w = user;
  uint32_t rank = (uint32_t)slots[0]->type->shaped.rank, n = w->num_outs;
  // ub = K - 1 - s, on the host.
  kiln_ir_value_t *one, *ub;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", w->k, one, &ub));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", ub, s, &ub));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_lx_walk_generic(b, w, slots, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *j, *q, *c0, *c1, *first, *active, *le, *at, *after, *jp1;
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, w->d, &j));
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank, &q));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &c0));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 1, &c1));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, q, c0, &first));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, q, c1, &active));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLE, q, ub, &le));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.andi", active, le, &active));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, q, j, &at));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", j, c1, &jp1));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, q, jp1, &after));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.andi", after, active, &after));
  // keep = comparator(carry, slot q) [or slot q not filled yet].
  kiln_ir_value_t *keep, *args[2] = {body->args[n], body->args[0]};
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, w->op, args, &keep));
  if (w->empty) {
    kiln_ir_value_t* unfilled = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_SGT, q, w->t, &unfilled));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.ori", keep, unfilled, &keep));
  }
  kiln_ir_value_t* results[4];
  for (uint32_t o = 0; o < n; ++o) {
    kiln_ir_value_t *a = body->args[o], *c = body->args[n + o];
    kiln_ir_value_t *moved, *c_new, *left, *o_new;
    // The carry after step q: slot q when kept in order, else the carry.
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, keep, a, c, &moved));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, active, moved, c, &c_new));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, first, a, c_new, &c_new));
    // Position q - 1 after step q: the carry when kept in order, else slot q.
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, keep, c, a, &left));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, active, c_new, a, &o_new));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, at, o_new, body->args[2 * n + o], &o_new));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, after, left, o_new, &o_new));
    results[o] = c_new;
    results[n + o] = o_new;
  }
  return kiln_lx_walk_yield(&bb, generic, n, results, next);
}

// One step of the walk: the insertion of element t, then for topk_v2 with
// is_sorted the K - 1 sweeps of the bubble sort (a nested host loop).
static kiln_status_t kiln_lx_walk_step(kiln_ir_builder_t* b, void* user,
                                       kiln_ir_value_t* t,
                                       kiln_ir_value_t* const* slots,
                                       kiln_ir_value_t** next) {
  kiln_lx_walk_t w = *(const kiln_lx_walk_t*)user;
  KILN_RETURN_IF_ERROR(kiln_lx_walk_insert(b, &w, t, slots, next));
  if (!kiln_lx_topk_is_sorted(w.op)) {
    return kiln_ok_status();
  }
  w.t = t;
  kiln_ir_value_t *one, *sweeps;
  kiln_ir_value_t* inserted[2] = {next[0], w.num_outs == 2 ? next[1] : NULL};
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", w.k, one, &sweeps));
  return kiln_lx_host_loop(b, sweeps, w.num_outs, inserted, kiln_lx_walk_sweep,
                           &w, next);
}

// topk by IREE's walk itself, for any K and any initial outputs: a host
// loop over the elements along d, each insertion (and each sweep of
// topk_v2's bubble sort) one generic over all rows at once
// (kiln_lx_walk_insert, kiln_lx_walk_sweep).
static kiln_status_t kiln_lx_lower_topk_walk(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* x,
    kiln_ir_value_t* indices, uint32_t num_outs, kiln_ir_value_t* const* outs,
    int64_t d) {
  kiln_ir_op_t* def = outs[0]->defining_op;
  kiln_lx_walk_t w = {op,   x,        indices,
                      d,    num_outs, def && kiln_ir_op_is(def, "tensor.empty"),
                      NULL, NULL};
  kiln_ir_value_t *n, *results[2] = {NULL, NULL};
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, x, (size_t)d, &n));
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, outs[0], (size_t)d, &w.k));
  KILN_RETURN_IF_ERROR(
      kiln_lx_host_loop(b, n, num_outs, outs, kiln_lx_walk_step, &w, results));
  for (uint32_t o = 0; o < num_outs; ++o) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, o), results[o]);
  }
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

static kiln_status_t kiln_lx_lower_topk(kiln_ir_builder_t* b,
                                        kiln_ir_op_t* op) {
  uint32_t num_ins = kiln_lx_num_ins(op);
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* indices = num_ins == 2 ? kiln_ir_op_operand(op, 1) : NULL;
  // topk_v2 may have no output indices.
  uint32_t num_outs = op->num_results;
  kiln_ir_value_t* outs[2] = {
      kiln_ir_op_operand(op, num_ins),
      num_outs == 2 ? kiln_ir_op_operand(op, num_ins + 1) : NULL};
  int64_t d = kiln_linalg_ext_dimension(op);
  int64_t k = outs[0]->type->shaped.dims[d];
  if (k != KILN_IR_DYNAMIC_DIM && k >= 1 && k <= KILN_LX_TOPK_MAX_SLOTS) {
    return kiln_lx_lower_topk_slots(b, op, x, indices, num_outs, outs, d, k);
  }
  // The counts give IREE's order when the initial outputs are in order
  // under the comparator (a fill: all equivalent; tensor.empty) and no
  // bubble sort reorders equivalent values; otherwise the walk itself.
  bool sorted = kiln_lx_topk_is_sorted(op);
  bool in_order = true;
  for (uint32_t o = 0; o < num_outs; ++o) {
    kiln_ir_op_t* def = outs[o]->defining_op;
    in_order = in_order && def &&
               (kiln_ir_op_is(def, "tensor.empty") ||
                kiln_ir_op_is(def, "linalg.fill"));
  }
  if (!sorted && in_order) {
    return kiln_lx_lower_topk_ranked(b, op, x, indices, num_outs, outs, d);
  }
  return kiln_lx_lower_topk_walk(b, op, x, indices, num_outs, outs, d);
}

//===----------------------------------------------------------------------===//
// arg_compare
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lx_lower_arg_compare(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t num_ins = kiln_lx_num_ins(op);
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* indices = num_ins == 2 ? kiln_ir_op_operand(op, 1) : NULL;
  kiln_ir_value_t* outs[2] = {kiln_ir_op_operand(op, num_ins),
                              kiln_ir_op_operand(op, num_ins + 1)};
  uint32_t rank = (uint32_t)x->type->shaped.rank;
  int64_t d = kiln_linalg_ext_dimension(op);
  // index_base: a compile-time constant (IREE's tiling makes it one).
  int64_t base = 0;
  if (n > num_ins + 2) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, num_ins + 2);
    kiln_ir_op_t* def = v->defining_op;
    const kiln_ir_attribute_t* value =
        def && kiln_ir_op_is(def, "arith.constant")
            ? kiln_ir_op_get_attr(def, "value")
            : NULL;
    if (!value || value->kind != KILN_IR_ATTR_INTEGER) {
      return kiln_ir_op_emit_error(
          op, ctx, "index_base must be an arith.constant index");
    }
    base = value->i;
  }
  int64_t all[KILN_LX_MAX_RANK], kept[KILN_LX_MAX_RANK];
  size_t nk = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    all[i] = i;
    if ((int64_t)i != d) kept[nk++] = i;
  }
  const kiln_ir_attribute_t* full =
      kiln_linalg_projection_map(ctx, rank, rank, all);
  const kiln_ir_attribute_t* reduced =
      kiln_linalg_projection_map(ctx, rank, nk, kept);
  kiln_ir_value_t* ins[2] = {x, indices};
  size_t n_in = indices ? 2 : 1;
  const kiln_ir_attribute_t* maps[4] = {full, full, reduced, reduced};
  maps[n_in] = reduced;
  bool reduction[KILN_LX_MAX_RANK] = {false};
  reduction[d] = true;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, n_in, ins, 2, outs, maps, rank, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* index_type = kiln_ir_type_element(outs[1]->type);
  kiln_ir_value_t* value = body->args[0];
  kiln_ir_value_t* pick = body->args[n_in];
  kiln_ir_value_t* pick_index = body->args[n_in + 1];
  kiln_ir_value_t *better, *idx, *results[2];
  kiln_ir_value_t* args[2] = {value, pick};
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, op, args, &better));
  if (indices) {
    idx = body->args[1];
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &idx));
    if (base != 0) {
      kiln_ir_value_t* c = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, base, &c));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.addi", idx, c, &idx));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_lx_to_int(&bb, idx, index_type, &idx));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_select(&bb, better, value, pick, &results[0]));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_select(&bb, better, idx, pick_index, &results[1]));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 2, results));
  kiln_lx_replace(op, generic, 2);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// gather / scatter
//===----------------------------------------------------------------------===//

typedef struct kiln_lx_indexing_t {
  kiln_ir_value_t* indices;
  kiln_ir_value_t* mask;  // NULL when absent
  int64_t depth;
  int64_t map[KILN_LX_MAX_RANK];
  int64_t batch_rank;
  bool depth_dim;  // the indices have a trailing index-depth dim
} kiln_lx_indexing_t;

static void kiln_lx_indexing(const kiln_ir_op_t* op,
                             const kiln_ir_type_t* batched,
                             const kiln_ir_type_t* data,
                             kiln_lx_indexing_t* x) {
  x->indices = kiln_ir_op_operand((kiln_ir_op_t*)op, 1);
  x->mask = kiln_lx_num_ins(op) == 3 ? kiln_ir_op_operand((kiln_ir_op_t*)op, 2)
                                     : NULL;
  x->depth = kiln_linalg_ext_dimension_map(op, x->map, KILN_LX_MAX_RANK);
  int64_t slice_rank = data->shaped.rank - x->depth;
  x->batch_rank = batched->shaped.rank - slice_rank;
  if (kiln_linalg_ext_scatter_trailing_slice(op)) x->batch_rank = 1;
  x->depth_dim = (int64_t)x->indices->type->shaped.rank == x->batch_rank + 1;
}

// Index component |i| of the index vector at batch coordinates |batch|, as
// an index.
static kiln_status_t kiln_lx_index_component(kiln_ir_builder_t* bb,
                                             const kiln_lx_indexing_t* x,
                                             kiln_ir_value_t* const* batch,
                                             int64_t i, kiln_ir_value_t** out) {
  kiln_ir_value_t* coords[KILN_LX_MAX_RANK + 1];
  for (int64_t j = 0; j < x->batch_rank; ++j) coords[j] = batch[j];
  if (x->depth_dim) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_index_const(bb, i, &coords[x->batch_rank]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(bb, x->indices, coords, &v));
  return kiln_lx_to_int(bb, v, kiln_ir_index_type_get(bb->context), out);
}

// *acc &= the mask at |batch| (nothing without a mask).
static kiln_status_t kiln_lx_and_mask(kiln_ir_builder_t* bb,
                                      const kiln_lx_indexing_t* x,
                                      kiln_ir_value_t* const* batch,
                                      kiln_ir_value_t** acc) {
  if (!x->mask) return kiln_ok_status();
  kiln_ir_value_t *v = NULL, *zero = NULL, *on = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(bb, x->mask, batch, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(bb, v->type, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(bb, KILN_CMPI_NE, v, zero, &on));
  if (*acc) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.andi", *acc, on, &on));
  }
  *acc = on;
  return kiln_ok_status();
}

static kiln_status_t kiln_lx_lower_gather(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* source = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* out = kiln_ir_op_operand(op, kiln_lx_num_ins(op));
  const kiln_ir_type_t* st = source->type;
  const kiln_ir_type_t* ot = out->type;
  kiln_lx_indexing_t x;
  kiln_lx_indexing(op, ot, st, &x);
  uint32_t rank = (uint32_t)ot->shaped.rank;
  const kiln_ir_attribute_t* map = kiln_linalg_identity_map(ctx, rank);
  kiln_ir_value_t* src_dim[KILN_LX_MAX_RANK];
  for (int64_t i = 0; i < x.depth; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_dynamic_dim(b, source, (size_t)x.map[i], &src_dim[i]));
  }
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 0, NULL, 1, &out, &map,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *r[KILN_LX_MAX_RANK], *coords[KILN_LX_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &r[i]));
  }
  for (int64_t i = 0; i < x.depth; ++i) {
    int64_t sd = x.map[i];
    kiln_ir_value_t* s = NULL;
    KILN_RETURN_IF_ERROR(kiln_lx_index_component(&bb, &x, r, i, &s));
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
        &bb, s, src_dim[i], st->shaped.dims[sd], &coords[sd]));
  }
  for (int64_t i = x.depth; i < (int64_t)st->shaped.rank; ++i) {
    coords[i] = r[x.batch_rank + i - x.depth];
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, source, coords, &v));
  kiln_ir_value_t* on = NULL;
  KILN_RETURN_IF_ERROR(kiln_lx_and_mask(&bb, &x, r, &on));
  if (on)
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, on, v, body->args[0], &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  kiln_lx_replace(op, generic, 1);
  return kiln_ok_status();
}

static kiln_status_t kiln_lx_lower_scatter(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* updates = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* original = kiln_ir_op_operand(op, kiln_lx_num_ins(op));
  const kiln_ir_type_t* ut = updates->type;
  const kiln_ir_type_t* rt = original->type;
  kiln_lx_indexing_t x;
  kiln_lx_indexing(op, ut, rt, &x);
  int64_t rank = (int64_t)rt->shaped.rank;
  int64_t nb = x.batch_rank;
  uint32_t num_loops = (uint32_t)(rank + nb);
  kiln_ir_value_t* acc = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
      b, original, kiln_linalg_identity_map(ctx, (uint32_t)rank), rt, &acc));
  // The batch loops take their extent from the updates (slice dims read at
  // 0; the body reads updates with tensor.extract, not through this map).
  kiln_ir_value_t* ins[1] = {updates};
  const kiln_ir_attribute_t* maps[2];
  size_t num_ins = 0;
  if (nb > 0) {
    const kiln_ir_affine_expr_t* exprs[KILN_LX_MAX_RANK];
    for (int64_t i = 0; i < (int64_t)ut->shaped.rank; ++i) {
      exprs[i] = i < nb ? kiln_ir_affine_dim(ctx, rank + i)
                        : kiln_ir_affine_constant(ctx, 0);
    }
    maps[num_ins++] =
        kiln_ir_affine_map_attr_get(ctx, num_loops, 0, ut->shaped.rank, exprs);
  }
  int64_t outs[KILN_LX_MAX_RANK];
  for (int64_t i = 0; i < rank; ++i) outs[i] = i;
  maps[num_ins] =
      kiln_linalg_projection_map(ctx, num_loops, (size_t)rank, outs);
  bool reduction[2 * KILN_LX_MAX_RANK] = {false};
  for (int64_t i = 0; i < nb; ++i) reduction[rank + i] = true;
  // The update slice covers the original's dims first.. (today's form:
  // the dims after the indexed ones; the 2023 form: the trailing ones,
  // possibly indexed too).
  int64_t first = rank - ((int64_t)ut->shaped.rank - nb);
  // The run-time extents of the update slice's dims (read at host level).
  kiln_ir_value_t* slice_extent[KILN_LX_MAX_RANK] = {NULL};
  for (int64_t i = first; i < rank; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(
        b, updates, (size_t)(nb + i - first), &slice_extent[i]));
  }
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, num_ins, ins, 1, &acc, maps, num_loops, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* acc_arg = body->args[num_ins];
  kiln_ir_value_t *o[KILN_LX_MAX_RANK], *u[KILN_LX_MAX_RANK];
  for (int64_t i = 0; i < rank; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &o[i]));
  }
  for (int64_t i = 0; i < nb; ++i) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, rank + i, &u[i]));
  }
  // The index vector's component for each dim it indexes.
  kiln_ir_value_t* off[KILN_LX_MAX_RANK] = {NULL};
  for (int64_t i = 0; i < x.depth; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_lx_index_component(&bb, &x, u, i, &off[x.map[i]]));
  }
  // Hit: the dims before the slice equal the index vector (0 where it does
  // not index them), the slice dims lie in the update slice placed at it.
  kiln_ir_value_t *hit = NULL, *zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
  for (int64_t d = 0; d < first; ++d) {
    kiln_ir_value_t* eq = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, o[d],
                                            off[d] ? off[d] : zero, &eq));
    if (hit) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", hit, eq, &eq));
    }
    hit = eq;
  }
  if (!hit)
    KILN_RETURN_IF_ERROR(
        kiln_lowering_int_const(&bb, kiln_ir_int_type(ctx, 1), 1, &hit));
  kiln_ir_value_t* ucoords[KILN_LX_MAX_RANK];
  for (int64_t i = 0; i < nb; ++i) ucoords[i] = u[i];
  for (int64_t i = first; i < rank; ++i) {
    int64_t size = ut->shaped.dims[nb + i - first];
    kiln_ir_value_t* rel = o[i];
    if (off[i]) {
      // An indexed slice dim (2023 form): the slice starts at the index.
      kiln_ir_value_t* ge = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.subi", o[i], off[i], &rel));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, rel, zero, &ge));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", hit, ge, &hit));
    }
    if (size == KILN_IR_DYNAMIC_DIM ||
        rt->shaped.dims[i] == KILN_IR_DYNAMIC_DIM) {
      // Run-time sizes: inside the update slice's run-time extent.
      kiln_ir_value_t *extent = slice_extent[i], *lt = NULL;
      if (!extent) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, size, &extent));
      }
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, rel, extent, &lt));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", hit, lt, &hit));
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
          &bb, rel, extent, 0, &ucoords[nb + i - first]));
      continue;
    }
    if (size < rt->shaped.dims[i] || off[i]) {
      kiln_ir_value_t *limit = NULL, *lt = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, size, &limit));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, rel, limit, &lt));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", hit, lt, &hit));
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_index(&bb, rel, 0, size - 1,
                                                     &ucoords[nb + i - first]));
    } else {
      ucoords[nb + i - first] = rel;
    }
  }
  KILN_RETURN_IF_ERROR(kiln_lx_and_mask(&bb, &x, u, &hit));
  kiln_ir_value_t *upd = NULL, *combined = NULL, *result = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, updates, ucoords, &upd));
  kiln_ir_value_t* args[2] = {upd, acc_arg};
  KILN_RETURN_IF_ERROR(
      kiln_lower_stablehlo_region_inline(&bb, op, args, &combined));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_select(&bb, hit, combined, acc_arg, &result));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &result));
  kiln_lx_replace(op, generic, 1);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// attention
//===----------------------------------------------------------------------===//

// IREE's decomposition, in f32 with exp2 (so a score region sees the scores
// scaled by log2(e), as in IREE): over the dims of its indexing maps,
// K1 = query & key dims not in the output (the QK reduction), K2 = key &
// value dims not in the query (the softmax / PV reduction),
//   S = (Q * scale * log2 e) . K          reduce K1
//   S = region(S) [+ mask: i1 -> 0 / -inf, float -> m * log2 e]
//   mx = max_K2 S,  sum = sum_K2 exp2(S - mx)
//   out = sum_K2 exp2(S - mx) / sum * V
// Each step is a generic over a subset of the dims (a "space"); the maps
// are the op's maps renumbered into it.
typedef struct kiln_lx_space_t {
  uint32_t count;
  int64_t dims[KILN_LX_MAX_RANK];  // original dim of each loop
} kiln_lx_space_t;

static void kiln_lx_space_add(kiln_lx_space_t* s, const bool* in_set,
                              uint32_t num_dims) {
  for (uint32_t d = 0; d < num_dims; ++d) {
    if (in_set[d]) s->dims[s->count++] = d;
  }
}

// The original map |map| (results: dims) as a map over |space|.
static const kiln_ir_attribute_t* kiln_lx_map_in(
    kiln_ir_context_t* ctx, const kiln_ir_affine_map_t* map,
    const kiln_lx_space_t* space) {
  int64_t dims[KILN_LX_MAX_RANK];
  for (size_t r = 0; r < map->num_results; ++r) {
    int64_t d = 0;
    kiln_ir_affine_map_result_is_dim(map, r, &d);
    dims[r] = 0;
    for (uint32_t i = 0; i < space->count; ++i) {
      if (space->dims[i] == d) dims[r] = i;
    }
  }
  return kiln_linalg_projection_map(ctx, space->count, map->num_results, dims);
}

// A map over |space| onto the dims of |set| (ascending).
static const kiln_ir_affine_map_t* kiln_lx_set_map(kiln_ir_context_t* ctx,
                                                   const bool* set,
                                                   uint32_t num_dims) {
  int64_t dims[KILN_LX_MAX_RANK];
  size_t n = 0;
  for (uint32_t d = 0; d < num_dims; ++d) {
    if (set[d]) dims[n++] = d;
  }
  return kiln_linalg_projection_map(ctx, num_dims, n, dims)->affine_map;
}

// A tensor over the dims of |set| (sizes from |sizes|; a dynamic one's
// run-time size in |size_values|), filled with |v|.
static kiln_status_t kiln_lx_filled(kiln_ir_builder_t* b, const bool* set,
                                    uint32_t num_dims, const int64_t* sizes,
                                    kiln_ir_value_t* const* size_values,
                                    const kiln_ir_type_t* e, double v,
                                    kiln_ir_value_t** out) {
  int64_t shape[KILN_LX_MAX_RANK] = {0};
  kiln_ir_value_t* dynamic[KILN_LX_MAX_RANK];
  size_t n = 0, num_dynamic = 0;
  for (uint32_t d = 0; d < num_dims; ++d) {
    if (!set[d]) continue;
    shape[n++] = sizes[d];
    if (sizes[d] == KILN_IR_DYNAMIC_DIM)
      dynamic[num_dynamic++] = size_values[d];
  }
  const kiln_ir_type_t* t =
      kiln_ir_tensor_type_get(b->context, n, shape, e, NULL);
  kiln_scalar_t s;
  memset(&s, 0, sizeof(s));
  s.f = v;
  if (num_dynamic == 0) {
    return kiln_lowering_constant(b, kiln_scalar_splat_attr(b->context, t, s),
                                  t, out);
  }
  kiln_ir_value_t *init = NULL, *value = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", t, num_dynamic, dynamic, &init));
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      b, kiln_scalar_to_attr(b->context, e, s), e, &value));
  return kiln_lowering_fill(b, value, init, out);
}

// x * exp2(old_max - new_max), elementwise over the dims of |set|: |x| is
// read through |xmap| (and written in its layout), the maxima through
// |max_map| (online attention's rescaling of its running sum and output).
static kiln_status_t kiln_lx_rescale(kiln_ir_builder_t* b, kiln_ir_value_t* x,
                                     const kiln_ir_affine_map_t* xmap,
                                     kiln_ir_value_t* old_max,
                                     kiln_ir_value_t* new_max,
                                     const kiln_ir_affine_map_t* max_map,
                                     const bool* set, uint32_t num_dims,
                                     kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  kiln_lx_space_t space = {0, {0}};
  kiln_lx_space_add(&space, set, num_dims);
  kiln_ir_value_t* ins[3] = {x, old_max, new_max};
  const kiln_ir_attribute_t* m[4] = {
      kiln_lx_map_in(ctx, xmap, &space), kiln_lx_map_in(ctx, max_map, &space),
      kiln_lx_map_in(ctx, max_map, &space), kiln_lx_map_in(ctx, xmap, &space)};
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, x->type, x, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 3, ins, 1, &init, m, space.count, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *d, *r;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.subf", body->args[1], body->args[2], &d));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit1(&bb, "math.exp2", d, &d));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.mulf", body->args[0], d, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_lx_lower_attention(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t num_ins = kiln_lx_num_ins(op);
  bool has_mask = num_ins == 5;
  bool online = kiln_ir_op_is(op, "iree_linalg_ext.online_attention");
  const kiln_ir_attribute_t* maps_attr =
      kiln_ir_op_get_attr(op, "indexing_maps");
  const kiln_ir_affine_map_t* maps[8];
  // IREE's first attention forms (2023-24): ins(Q, K, V[, scale]) outs(O),
  // no maps or score region: softmax(Q K^T * scale) V over (batch, m, k1,
  // k2, n), scale 1 when absent.
  bool legacy = !maps_attr && (num_ins == 3 || num_ins == 4) && !online;
  if (legacy) {
    static const int64_t dims[4][3] = {
        {0, 1, 2}, {0, 3, 2}, {0, 3, 4}, {0, 1, 4}};
    for (uint32_t i = 0; i < 4; ++i) {
      maps[i == 3 ? num_ins : i] =
          kiln_linalg_projection_map(ctx, 5, 3, dims[i])->affine_map;
    }
    if (num_ins == 4) {  // the scale's (not read through it)
      maps[3] = kiln_linalg_projection_map(ctx, 5, 0, NULL)->affine_map;
    }
  } else {
    for (uint32_t i = 0; i < num_ins + (online ? 3u : 1u); ++i) {
      maps[i] = maps_attr->array.elements[i]->affine_map;
    }
  }
  const kiln_ir_affine_map_t* omap = maps[num_ins];
  kiln_ir_value_t* q = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* k = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* v = kiln_ir_op_operand(op, 2);
  kiln_ir_value_t* mask = has_mask ? kiln_ir_op_operand(op, 4) : NULL;
  kiln_ir_value_t* out = kiln_ir_op_operand(op, num_ins);
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!kiln_lowering_is_float(kiln_ir_type_element(rt))) {
    return kiln_ir_op_emit_error(op, ctx, "expects a float output");
  }
  const kiln_ir_type_t* f32 = kiln_ir_float_type_get(ctx, KILN_IR_F32);
  for (uint32_t i = 0; online && i < 3; ++i) {
    if (kiln_ir_type_element(op->results[i].type) != f32) {
      return kiln_ir_op_emit_error(
          op, ctx, "online_attention with non-f32 outputs is not supported");
    }
  }
  // The scale: a constant, materialized in the first body (1 for the
  // legacy form).
  bool has_scale = num_ins >= 4;
  kiln_ir_op_t* scale_def =
      has_scale ? kiln_ir_op_operand(op, 3)->defining_op : NULL;
  const kiln_ir_attribute_t* scale_attr =
      scale_def && kiln_ir_op_is(scale_def, "arith.constant")
          ? kiln_ir_op_get_attr(scale_def, "value")
          : NULL;
  if (has_scale && (!scale_attr || scale_attr->kind != KILN_IR_ATTR_FLOAT)) {
    return kiln_ir_op_emit_error(
        op, ctx, "a scale that is not an arith.constant is not supported");
  }
  double scale_value = has_scale ? scale_attr->f.value : 1.0;
  uint32_t nd = omap->num_dims;
  bool in[4][KILN_LX_MAX_RANK];  // q, k, v, out
  const kiln_ir_affine_map_t* qkvo[4] = {maps[0], maps[1], maps[2], omap};
  kiln_ir_value_t* qkvo_values[4] = {q, k, v, out};
  int64_t sizes[KILN_LX_MAX_RANK];
  kiln_ir_value_t* size_values[KILN_LX_MAX_RANK];  // run-time sizes
  for (uint32_t d = 0; d < nd; ++d) {
    sizes[d] = 1;
    size_values[d] = NULL;
  }
  for (int t = 0; t < 4; ++t) {
    memset(in[t], 0, sizeof(in[t]));
    for (size_t r = 0; r < qkvo[t]->num_results; ++r) {
      int64_t d = 0;
      kiln_ir_affine_map_result_is_dim(qkvo[t], r, &d);
      in[t][d] = true;
      int64_t size = qkvo_values[t]->type->shaped.dims[r];
      if (sizes[d] != 1 && sizes[d] != KILN_IR_DYNAMIC_DIM &&
          size == KILN_IR_DYNAMIC_DIM) {
        continue;  // a static size of the same loop is known already
      }
      sizes[d] = size;
      if (size == KILN_IR_DYNAMIC_DIM && !size_values[d]) {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_dynamic_dim(b, qkvo_values[t], r, &size_values[d]));
      }
    }
  }
  bool k1[KILN_LX_MAX_RANK], k2[KILN_LX_MAX_RANK], s_dims[KILN_LX_MAX_RANK],
      row[KILN_LX_MAX_RANK];
  for (uint32_t d = 0; d < nd; ++d) {
    k1[d] = in[0][d] && in[1][d] && !in[3][d];
    k2[d] = in[1][d] && in[2][d] && !in[0][d];
    s_dims[d] = (in[0][d] || in[1][d]) && !k1[d];
    row[d] = s_dims[d] && !k2[d];
  }
  const kiln_ir_affine_map_t* smap = kiln_lx_set_map(ctx, s_dims, nd);
  const kiln_ir_affine_map_t* rmap = kiln_lx_set_map(ctx, row, nd);
  const double log2e = 1.4426950408889634;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  bool reduction[KILN_LX_MAX_RANK];

  // S = (Q * scale * log2 e) . K over (S dims, K1).
  kiln_lx_space_t space = {0, {0}};
  kiln_lx_space_add(&space, s_dims, nd);
  uint32_t first_k1 = space.count;
  kiln_lx_space_add(&space, k1, nd);
  memset(reduction, 0, sizeof(reduction));
  for (uint32_t i = first_k1; i < space.count; ++i) reduction[i] = true;
  kiln_ir_value_t* s = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lx_filled(b, s_dims, nd, sizes, size_values, f32, 0.0, &s));
  {
    kiln_ir_value_t* ins[2] = {q, k};
    const kiln_ir_attribute_t* m[3] = {kiln_lx_map_in(ctx, maps[0], &space),
                                       kiln_lx_map_in(ctx, maps[1], &space),
                                       kiln_lx_map_in(ctx, smap, &space)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 2, ins, 1, &s, m, space.count, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *a, *c, *scale, *prod, *sum;
    KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[0], f32, &a));
    KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[1], f32, &c));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_float_const(&bb, f32, scale_value * log2e, &scale));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", a, scale, &a));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", a, c, &prod));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addf", body->args[2], prod, &sum));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &sum));
    s = kiln_ir_op_result(generic, 0);
  }
  // S = region(S) [+ mask], over the S dims.
  space.count = 0;
  kiln_lx_space_add(&space, s_dims, nd);
  {
    kiln_ir_value_t* ins[2] = {s, mask};
    const kiln_ir_attribute_t* m[3] = {
        kiln_lx_map_in(ctx, smap, &space),
        has_mask ? kiln_lx_map_in(ctx, maps[4], &space) : NULL,
        kiln_lx_map_in(ctx, smap, &space)};
    if (!has_mask) m[1] = m[2];
    kiln_ir_value_t* init = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, s->type, s, &init));
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, has_mask ? 2 : 1, ins, 1,
                                                    &init, m, space.count, NULL,
                                                    &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *x = body->args[0], *score = x;
    // Earlier forms have no score region: the scores pass unchanged.
    if (op->num_regions == 1 && op->regions[0].first_block) {
      kiln_ir_block_t* region = op->regions[0].first_block;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_convert(&bb, body->args[0], region->args[0]->type, &x));
      KILN_RETURN_IF_ERROR(
          kiln_lower_stablehlo_region_inline(&bb, op, &x, &score));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, score, f32, &score));
    if (has_mask) {
      kiln_ir_value_t* mv = body->args[1];
      kiln_ir_value_t* add = NULL;
      if (mv->type->kind == KILN_IR_TYPE_INTEGER) {
        kiln_ir_value_t *zero, *ninf, *izero, *on;
        KILN_RETURN_IF_ERROR(kiln_lowering_float_const(&bb, f32, 0.0, &zero));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_float_const(&bb, f32, -INFINITY, &ninf));
        KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, mv->type, 0, &izero));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_cmpi(&bb, KILN_CMPI_NE, mv, izero, &on));
        KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, on, zero, ninf, &add));
      } else {
        kiln_ir_value_t* c = NULL;
        KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, mv, f32, &add));
        KILN_RETURN_IF_ERROR(kiln_lowering_float_const(&bb, f32, log2e, &c));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(&bb, "arith.mulf", add, c, &add));
      }
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.addf", score, add, &score));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &score));
    s = kiln_ir_op_result(generic, 0);
  }
  // mx = max_K2 S (online: starting from the old max) and sum = sum_K2
  // exp2(S - mx) (online: starting from old sum * exp2(old mx - mx)), over
  // the S dims with K2 reductions. Row statistics use the op's max/sum maps
  // when online, else the S map without K2.
  const kiln_ir_affine_map_t* max_map = online ? maps[num_ins + 1] : rmap;
  const kiln_ir_affine_map_t* sum_map = online ? maps[num_ins + 2] : rmap;
  kiln_ir_value_t* old_max =
      online ? kiln_ir_op_operand(op, num_ins + 1) : NULL;
  kiln_ir_value_t* old_sum =
      online ? kiln_ir_op_operand(op, num_ins + 2) : NULL;
  memset(reduction, 0, sizeof(reduction));
  for (uint32_t i = 0; i < space.count; ++i) {
    reduction[i] = k2[space.dims[i]];
  }
  kiln_ir_value_t *mx = old_max, *sum = old_sum;
  if (!online) {
    KILN_RETURN_IF_ERROR(kiln_lx_filled(b, row, nd, sizes, size_values, f32,
                                        -3.4028234663852886e38, &mx));
    KILN_RETURN_IF_ERROR(
        kiln_lx_filled(b, row, nd, sizes, size_values, f32, 0.0, &sum));
  }
  {
    const kiln_ir_attribute_t* m[2] = {kiln_lx_map_in(ctx, smap, &space),
                                       kiln_lx_map_in(ctx, max_map, &space)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 1, &s, 1, &mx, m, space.count, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* r = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.maximumf",
                                             body->args[1], body->args[0], &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
    mx = kiln_ir_op_result(generic, 0);
  }
  if (online) {
    KILN_RETURN_IF_ERROR(kiln_lx_rescale(b, old_sum, sum_map, old_max, mx,
                                         max_map, row, nd, &sum));
  }
  {
    kiln_ir_value_t* ins[2] = {s, mx};
    const kiln_ir_attribute_t* m[3] = {kiln_lx_map_in(ctx, smap, &space),
                                       kiln_lx_map_in(ctx, max_map, &space),
                                       kiln_lx_map_in(ctx, sum_map, &space)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 2, ins, 1, &sum, m, space.count, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* r = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subf", body->args[0],
                                             body->args[1], &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit1(&bb, "math.exp2", r, &r));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addf", body->args[2], r, &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
    sum = kiln_ir_op_result(generic, 0);
  }
  // out = sum_K2 exp2(S - mx) [/ sum] * V over (output dims, K2); online:
  // starting from the old output * exp2(old mx - mx), not normalized.
  kiln_ir_value_t* acc = NULL;
  if (online) {
    KILN_RETURN_IF_ERROR(
        kiln_lx_rescale(b, out, omap, old_max, mx, max_map, in[3], nd, &acc));
  } else {
    // The accumulator has the output's shape (its map may permute dims).
    const kiln_ir_type_t* acc_type = kiln_dialect_with_element(ctx, rt, f32);
    kiln_scalar_t zero;
    memset(&zero, 0, sizeof(zero));
    zero.f = 0.0;
    if (kiln_ir_type_has_static_shape(acc_type)) {
      KILN_RETURN_IF_ERROR(kiln_lowering_constant(
          b, kiln_scalar_splat_attr(ctx, acc_type, zero), acc_type, &acc));
    } else {
      kiln_ir_value_t *init = NULL, *value = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, acc_type, out, &init));
      KILN_RETURN_IF_ERROR(kiln_lowering_constant(
          b, kiln_scalar_to_attr(ctx, f32, zero), f32, &value));
      KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, value, init, &acc));
    }
  }
  space.count = 0;
  kiln_lx_space_add(&space, in[3], nd);
  uint32_t first_k2 = space.count;
  kiln_lx_space_add(&space, k2, nd);
  memset(reduction, 0, sizeof(reduction));
  for (uint32_t i = first_k2; i < space.count; ++i) reduction[i] = true;
  {
    kiln_ir_value_t* ins[4] = {s, mx, sum, v};
    const kiln_ir_attribute_t* m[5] = {kiln_lx_map_in(ctx, smap, &space),
                                       kiln_lx_map_in(ctx, max_map, &space),
                                       kiln_lx_map_in(ctx, sum_map, &space),
                                       kiln_lx_map_in(ctx, maps[2], &space),
                                       kiln_lx_map_in(ctx, omap, &space)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 4, ins, 1, &acc, m, space.count, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *p, *vv, *r;
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subf", body->args[0],
                                             body->args[1], &p));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit1(&bb, "math.exp2", p, &p));
    if (!online) {
      // A row the mask hides entirely (every score -inf: sum 0) gives 0,
      // as IREE's attention does, not 0 / 0.
      kiln_ir_value_t *fzero = NULL, *none = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.divf", p, body->args[2], &p));
      KILN_RETURN_IF_ERROR(kiln_lowering_float_const(&bb, f32, 0.0, &fzero));
      KILN_RETURN_IF_ERROR(kiln_lowering_cmp(&bb, false, KILN_CMPF_OEQ,
                                             body->args[2], fzero, &none));
      KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, none, fzero, p, &p));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[3], f32, &vv));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.mulf", p, vv, &p));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addf", body->args[4], p, &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  }
  kiln_ir_value_t* result = kiln_ir_op_result(generic, 0);
  if (online) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0), result);
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 1), mx);
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 2), sum);
    kiln_ir_op_erase(op);
    return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_lx_convert_tensor(b, result, rt, &result));
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// winograd.input_transform / output_transform
//===----------------------------------------------------------------------===//

// Winograd F(6x6, 3x3) with the interpolation points 0, 1, -1, 2, -2, 1/2,
// -1/2 and infinity (Lavin and Gray): B^T (8x8) and A^T (6x8).
static const float kiln_lx_winograd_bt[8][8] = {
    {1, 0, -21.f / 4, 0, 21.f / 4, 0, -1, 0},
    {0, 1, 1, -17.f / 4, -17.f / 4, 1, 1, 0},
    {0, -1, 1, 17.f / 4, -17.f / 4, -1, 1, 0},
    {0, 0.5f, 0.25f, -2.5f, -1.25f, 2, 1, 0},
    {0, -0.5f, 0.25f, 2.5f, -1.25f, -2, 1, 0},
    {0, 2, 4, -2.5f, -5, 0.5f, 1, 0},
    {0, -2, 4, 2.5f, -5, -0.5f, 1, 0},
    {0, -1, 0, 21.f / 4, 0, -21.f / 4, 0, 1}};
static const float kiln_lx_winograd_at[6][8] = {
    {1, 1, 1, 1, 1, 1, 1, 0},
    {0, 1, -1, 2, -2, 0.5f, -0.5f, 0},
    {0, 1, 1, 4, 4, 0.25f, 0.25f, 0},
    {0, 1, -1, 8, -8, 0.125f, -0.125f, 0},
    {0, 1, 1, 16, 16, 0.0625f, 0.0625f, 0},
    {0, 1, -1, 32, -32, 0.03125f, -0.03125f, 1}};

// input: out[i, j, n, h, w, c] = sum_{a, b} BT[i, a] X[n, 6h + a, 6w + b, c]
//   BT[j, b] (X read as 0 past the image), a generic over (i, j, n, h, w, c,
//   a, b) with a, b reductions;
// output: out[n, 6h + i, 6w + j, c] = sum_{a, b} AT[i, a] Y[a, b, n, h, w,
//   c] AT[j, b], a generic over (n, H, W, c, a, b) reading Y and AT through
//   `floordiv 6` / `mod 6` maps.
// NCHW images swap the roles of their dims 1..3.
static kiln_status_t kiln_lx_lower_winograd(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  bool input = kiln_ir_op_is(op, "iree_linalg_ext.winograd.input_transform");
  int64_t image_dims[2];
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "image_dimensions"), image_dims,
                        2);
  bool nchw = image_dims[0] == 2;
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* f32 = kiln_ir_float_type_get(ctx, KILN_IR_F32);
  // The matrix as an f32 constant.
  int64_t rows = input ? 8 : 6;
  int64_t mshape[2] = {rows, 8};
  const kiln_ir_type_t* mt = kiln_ir_tensor_type_get(ctx, 2, mshape, f32, NULL);
  const kiln_ir_attribute_t* mattr =
      kiln_ir_dense_elements_attr_get(ctx, mt, false,
                                      input ? (const void*)kiln_lx_winograd_bt
                                            : (const void*)kiln_lx_winograd_at,
                                      (size_t)(rows * 8) * sizeof(float));
  kiln_ir_value_t* mat = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(b, mattr, mt, &mat));
  // Image dims: batch, channel, height, width positions.
  int64_t in_n = 0, in_c = nchw ? 1 : 3, in_h = nchw ? 2 : 1,
          in_w = nchw ? 3 : 2;
  kiln_scalar_t zero;
  memset(&zero, 0, sizeof(zero));
  zero.f = 0.0;
  const kiln_ir_type_t* acc_type = kiln_dialect_with_element(ctx, rt, f32);
  kiln_ir_value_t* acc = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      b, kiln_scalar_splat_attr(ctx, acc_type, zero), acc_type, &acc));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  const kiln_ir_affine_expr_t* (*dim)(kiln_ir_context_t*, int64_t) =
      kiln_ir_affine_dim;
  if (input) {
    // Loops: i j n h w c a b (the output's dims, then a, b).
    const kiln_ir_affine_expr_t* ia[2] = {dim(ctx, 0), dim(ctx, 6)};
    const kiln_ir_affine_expr_t* jb[2] = {dim(ctx, 1), dim(ctx, 7)};
    int64_t out_dims[6] = {0, 1, 2, 3, 4, 5};
    const kiln_ir_attribute_t* maps[3] = {
        kiln_ir_affine_map_attr_get(ctx, 8, 0, 2, ia),
        kiln_ir_affine_map_attr_get(ctx, 8, 0, 2, jb),
        kiln_linalg_projection_map(ctx, 8, 6, out_dims)};
    kiln_ir_value_t* ins[2] = {mat, mat};
    bool reduction[8] = {false, false, false, false, false, false, true, true};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 2, ins, 1, &acc, maps, 8, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *l[8], *six, *coords[4], *inside = NULL, *v, *p, *r;
    for (int i = 0; i < 8; ++i) {
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &l[i]));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 6, &six));
    coords[in_n] = l[2];
    coords[in_c] = l[5];
    // Row 6h + a and column 6w + b, zero past the image.
    int64_t spatial[2] = {in_h, in_w};
    kiln_ir_value_t* tile[2] = {l[3], l[4]};
    kiln_ir_value_t* off[2] = {l[6], l[7]};
    for (int s = 0; s < 2; ++s) {
      kiln_ir_value_t *pos, *size, *lt;
      int64_t extent = x->type->shaped.dims[spatial[s]];
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.muli", tile[s], six, &pos));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.addi", pos, off[s], &pos));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, extent, &size));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, pos, size, &lt));
      if (inside) {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(&bb, "arith.andi", inside, lt, &lt));
      }
      inside = lt;
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_index(&bb, pos, 0, extent - 1,
                                                     &coords[spatial[s]]));
    }
    kiln_ir_value_t* fzero = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, x, coords, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, v, f32, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_float_const(&bb, f32, 0.0, &fzero));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, inside, v, fzero, &v));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.mulf", body->args[0], v, &p));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.mulf", p, body->args[1], &p));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addf", body->args[2], p, &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  } else {
    // Loops: the output image's dims (positions as in the image), then a, b.
    const kiln_ir_affine_expr_t* c6 = kiln_ir_affine_constant(ctx, 6);
    const kiln_ir_affine_expr_t* hh = dim(ctx, in_h);
    const kiln_ir_affine_expr_t* ww = dim(ctx, in_w);
    const kiln_ir_affine_expr_t* y[6] = {
        dim(ctx, 4),
        dim(ctx, 5),
        dim(ctx, in_n),
        kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_FLOORDIV, hh, c6),
        kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_FLOORDIV, ww, c6),
        dim(ctx, in_c)};
    const kiln_ir_affine_expr_t* ia[2] = {
        kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MOD, hh, c6), dim(ctx, 4)};
    const kiln_ir_affine_expr_t* jb[2] = {
        kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MOD, ww, c6), dim(ctx, 5)};
    int64_t out_dims[4] = {0, 1, 2, 3};
    const kiln_ir_attribute_t* maps[4] = {
        kiln_ir_affine_map_attr_get(ctx, 6, 0, 6, y),
        kiln_ir_affine_map_attr_get(ctx, 6, 0, 2, ia),
        kiln_ir_affine_map_attr_get(ctx, 6, 0, 2, jb),
        kiln_linalg_projection_map(ctx, 6, 4, out_dims)};
    kiln_ir_value_t* ins[3] = {x, mat, mat};
    bool reduction[6] = {false, false, false, false, true, true};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 3, ins, 1, &acc, maps, 6, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *v, *p, *r;
    KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[0], f32, &v));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.mulf", body->args[1], v, &p));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.mulf", p, body->args[2], &p));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addf", body->args[3], p, &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  }
  kiln_ir_value_t* result = kiln_ir_op_result(generic, 0);
  KILN_RETURN_IF_ERROR(kiln_lx_convert_tensor(b, result, rt, &result));
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// map_load / map_store
//===----------------------------------------------------------------------===//

// Emits the index region of |op| at |bb| with its arguments bound to
// |args|: affine.linearize/delinearize_index become arith on index, other
// scalar ops are cloned, constants defined outside the region are cloned in
// (a generic body captures nothing). *results receive the yielded values.
static kiln_status_t kiln_lx_inline_index_region(kiln_ir_builder_t* bb,
                                                 kiln_ir_op_t* op,
                                                 kiln_ir_value_t** args,
                                                 kiln_ir_value_t** results) {
  kiln_ir_context_t* ctx = bb->context;
  kiln_ir_block_t* region = op->regions[0].first_block;
  kiln_ir_mapping_t* mapping = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(ctx, &mapping));
  for (uint32_t i = 0; i < region->num_args; ++i) {
    kiln_ir_mapping_map_value(mapping, region->args[i], args[i]);
  }
  for (kiln_ir_op_t* inner = region->first_op; inner; inner = inner->next) {
    uint32_t n = kiln_ir_op_num_regular_operands(inner);
    kiln_ir_value_t* mapped[KILN_LX_MAX_RANK + 1];
    if (n > KILN_LX_MAX_RANK + 1) {
      return kiln_ir_op_emit_error(inner, ctx, "has too many operands");
    }
    for (uint32_t i = 0; i < n; ++i) {
      kiln_ir_value_t* v = kiln_ir_op_operand(inner, i);
      kiln_ir_value_t* m = kiln_ir_mapping_lookup_value(mapping, v);
      if (m == v && v->defining_op &&
          kiln_ir_op_parent_op(v->defining_op) != op) {
        // A value from outside the region: only constants can come in.
        kiln_ir_op_t* def = v->defining_op;
        if (!kiln_ir_op_is(def, "arith.constant")) {
          return kiln_ir_op_emit_error(
              op, ctx,
              "its region uses a value defined outside that is not an "
              "arith.constant");
        }
        KILN_RETURN_IF_ERROR(kiln_lowering_constant(
            bb, kiln_ir_op_get_attr(def, "value"), v->type, &m));
        kiln_ir_mapping_map_value(mapping, v, m);
      }
      mapped[i] = m;
    }
    if (kiln_ir_op_is(inner, "iree_linalg_ext.yield")) {
      for (uint32_t i = 0; i < n; ++i) results[i] = mapped[i];
      return kiln_ok_status();
    }
    bool linearize = kiln_ir_op_is(inner, "affine.linearize_index");
    if (linearize || kiln_ir_op_is(inner, "affine.delinearize_index")) {
      int64_t basis[KILN_LX_MAX_RANK];
      int64_t nb = kiln_dialect_int_list(
          kiln_ir_op_get_attr(inner, "static_basis"), basis, KILN_LX_MAX_RANK);
      int64_t count = linearize ? (int64_t)n : (int64_t)inner->num_results;
      int64_t skip = count - nb;  // 1 when the outer bound is left out
      kiln_ir_value_t* c = NULL;
      if (linearize) {
        kiln_ir_value_t* acc = mapped[0];
        for (int64_t i = 1; i < count; ++i) {
          KILN_RETURN_IF_ERROR(
              kiln_lowering_index_const(bb, basis[i - skip], &c));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_emit2(bb, "arith.muli", acc, c, &acc));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_emit2(bb, "arith.addi", acc, mapped[i], &acc));
        }
        kiln_ir_mapping_map_value(mapping, kiln_ir_op_result(inner, 0), acc);
      } else {
        kiln_ir_value_t* rest = mapped[0];
        for (int64_t i = count - 1; i > 0; --i) {
          kiln_ir_value_t* r = NULL;
          KILN_RETURN_IF_ERROR(
              kiln_lowering_index_const(bb, basis[i - skip], &c));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_emit2(bb, "arith.remui", rest, c, &r));
          KILN_RETURN_IF_ERROR(
              kiln_lowering_emit2(bb, "arith.divui", rest, c, &rest));
          kiln_ir_mapping_map_value(mapping,
                                    kiln_ir_op_result(inner, (uint32_t)i), r);
        }
        kiln_ir_mapping_map_value(mapping, kiln_ir_op_result(inner, 0), rest);
      }
      continue;
    }
    kiln_string_view_t d = kiln_ir_op_dialect(inner);
    if (inner->num_regions != 0 || (!kiln_string_view_equal_cstr(d, "arith") &&
                                    !kiln_string_view_equal_cstr(d, "math"))) {
      return kiln_ir_op_emit_error(inner, ctx,
                                   "is not supported in a map_load / "
                                   "map_store region");
    }
    kiln_ir_op_t* clone = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_op_clone(ctx, inner, mapping, &clone));
    kiln_ir_block_append_op(bb->block, clone);
  }
  return kiln_ir_op_emit_error(op, ctx, "region has no iree_linalg_ext.yield");
}

// map_load: a parallel generic over the output; map_store: a generic over
// (output dims, input dims), the input dims reduction loops in order, where
// an output element takes every input element mapped onto it (the last
// one wins; unmapped elements keep the output's value).
static kiln_status_t kiln_lx_lower_map(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  bool load = kiln_ir_op_is(op, "iree_linalg_ext.map_load");
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* out = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* ot = out->type;
  uint32_t out_rank = (uint32_t)ot->shaped.rank;
  uint32_t src_rank = (uint32_t)st->shaped.rank;
  kiln_ir_value_t *idx[KILN_LX_MAX_RANK], *yielded[KILN_LX_MAX_RANK + 1];
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  if (load) {
    const kiln_ir_attribute_t* map = kiln_linalg_identity_map(ctx, out_rank);
    kiln_ir_value_t* init = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, ot, &init));
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 0, NULL, 1, &init, &map, out_rank, NULL, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    for (uint32_t i = 0; i < out_rank; ++i) {
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &idx[i]));
    }
    KILN_RETURN_IF_ERROR(kiln_lx_inline_index_region(&bb, op, idx, yielded));
    kiln_ir_value_t *inside = NULL, *coords[KILN_LX_MAX_RANK], *v = NULL;
    for (uint32_t i = 0; i < src_rank; ++i) {
      kiln_ir_value_t *lo, *hi, *ge, *lt;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &lo));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, st->shaped.dims[i], &hi));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SGE, yielded[i], lo, &ge));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, yielded[i], hi, &lt));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", ge, lt, &ge));
      if (inside) {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(&bb, "arith.andi", inside, ge, &ge));
      }
      inside = ge;
      KILN_RETURN_IF_ERROR(kiln_lowering_clamp_index(
          &bb, yielded[i], 0, st->shaped.dims[i] - 1, &coords[i]));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, src, coords, &v));
    if (inside) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_select(&bb, inside, v, yielded[src_rank], &v));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
    kiln_lx_replace(op, generic, 1);
    return kiln_ok_status();
  }
  uint32_t num_loops = out_rank + src_rank;
  int64_t in_dims[KILN_LX_MAX_RANK], out_dims[KILN_LX_MAX_RANK];
  for (uint32_t i = 0; i < src_rank; ++i) in_dims[i] = out_rank + i;
  for (uint32_t i = 0; i < out_rank; ++i) out_dims[i] = i;
  const kiln_ir_attribute_t* maps[2] = {
      kiln_linalg_projection_map(ctx, num_loops, src_rank, in_dims),
      kiln_linalg_projection_map(ctx, num_loops, out_rank, out_dims)};
  bool reduction[2 * KILN_LX_MAX_RANK] = {false};
  for (uint32_t i = out_rank; i < num_loops; ++i) reduction[i] = true;
  kiln_ir_value_t* acc = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
      b, out, kiln_linalg_identity_map(ctx, out_rank), ot, &acc));
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1, &src, 1, &acc, maps, num_loops, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  for (uint32_t i = 0; i < src_rank; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_linalg_index(&bb, out_rank + i, &idx[i]));
  }
  KILN_RETURN_IF_ERROR(kiln_lx_inline_index_region(&bb, op, idx, yielded));
  kiln_ir_value_t* hit = yielded[out_rank];  // the mask
  for (uint32_t i = 0; i < out_rank; ++i) {
    kiln_ir_value_t *o = NULL, *eq = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, i, &o));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&bb, KILN_CMPI_EQ, o, yielded[i], &eq));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", hit, eq, &hit));
  }
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_select(&bb, hit, body->args[0], body->args[1], &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_lx_replace(op, generic, 1);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// linalg.pack / linalg.unpack
//===----------------------------------------------------------------------===//

// pack without padding and unpack are copies through an affine map from
// the result's coordinates: pack reads source dim d at `o_j * tile + i_t`
// (o_j the outer dim holding d, i_t its tile dim), unpack reads the outer
// dim at `d floordiv tile` and the tile dim at `d mod tile`. A pack whose
// last tiles hang over the source reads with tensor.extract at clamped
// coordinates and selects the padding value outside.
static kiln_status_t kiln_lx_lower_pack(kiln_ir_builder_t* b,
                                        kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_linalg_pack_layout_t l;
  if (!kiln_linalg_pack_layout(op, &l)) {
    return kiln_ir_op_emit_error(op, ctx, "malformed pack layout");
  }
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* dst = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  int64_t n = l.rank;
  int64_t outer_of[KILN_LINALG_PACK_MAX_RANK];  // unpacked dim -> outer pos
  for (int64_t j = 0; j < n; ++j) outer_of[l.outer_perm[j]] = j;
  const kiln_ir_affine_expr_t* exprs[2 * KILN_LINALG_PACK_MAX_RANK];
  kiln_ir_value_t* out = NULL;
  bool dynamic =
      !kiln_ir_type_has_static_shape(st) || !kiln_ir_type_has_static_shape(rt);
  bool ssa_tiles = false;
  for (int64_t t = 0; t < l.num_tiled; ++t) {
    if (l.tile_operand[t] >= 0) ssa_tiles = true;
  }
  if (!l.is_pack && ssa_tiles) {
    // Tile sizes known at run time only: read the source at
    // (d / tile, ..., d % tile) computed in the body (the tiles are host
    // values the dispatch reads as push constants).
    const kiln_ir_attribute_t* map = kiln_linalg_identity_map(ctx, (uint32_t)n);
    kiln_ir_op_t* generic = NULL;
    kiln_ir_block_t* body = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        b, 0, NULL, 1, &dst, &map, (uint32_t)n, NULL, &generic, &body));
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t* coords[2 * KILN_LINALG_PACK_MAX_RANK];
    kiln_ir_value_t* tile_value[KILN_LINALG_PACK_MAX_RANK];
    for (int64_t t = 0; t < l.num_tiled; ++t) {
      if (l.tile_operand[t] >= 0) {
        tile_value[t] = kiln_ir_op_operand(op, (uint32_t)l.tile_operand[t]);
      } else {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_index_const(&bb, l.tiles[t], &tile_value[t]));
      }
    }
    for (int64_t j = 0; j < n; ++j) {
      int64_t d = l.outer_perm[j];
      int64_t t = l.tile_of[d];
      kiln_ir_value_t* i = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &i));
      if (t < 0) {
        coords[j] = i;
        continue;
      }
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.divui", i,
                                               tile_value[t], &coords[j]));
    }
    for (int64_t t = 0; t < l.num_tiled; ++t) {
      kiln_ir_value_t* i = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_linalg_index(&bb, l.inner_dims_pos[t], &i));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.remui", i,
                                               tile_value[t], &coords[n + t]));
    }
    kiln_ir_value_t* v = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, src, coords, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
    kiln_lx_replace(op, generic, 1);
    return kiln_ok_status();
  }
  if (!l.is_pack) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t d = l.outer_perm[j];
      int64_t t = l.tile_of[d];
      const kiln_ir_affine_expr_t* e = kiln_ir_affine_dim(ctx, d);
      exprs[j] = t < 0 ? e
                       : kiln_ir_affine_binary(
                             ctx, KILN_IR_AFFINE_FLOORDIV, e,
                             kiln_ir_affine_constant(ctx, l.tiles[t]));
    }
    for (int64_t t = 0; t < l.num_tiled; ++t) {
      exprs[n + t] = kiln_ir_affine_binary(
          ctx, KILN_IR_AFFINE_MOD, kiln_ir_affine_dim(ctx, l.inner_dims_pos[t]),
          kiln_ir_affine_constant(ctx, l.tiles[t]));
    }
    const kiln_ir_attribute_t* read = kiln_ir_affine_map_attr_get(
        ctx, (uint32_t)n, 0, (size_t)(n + l.num_tiled), exprs);
    if (dynamic) {
      // The destination carries the run-time result sizes.
      const kiln_ir_attribute_t* maps[2] = {
          read, kiln_linalg_identity_map(ctx, (uint32_t)n)};
      kiln_ir_op_t* generic = NULL;
      kiln_ir_block_t* body = NULL;
      KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
          b, 1, &src, 1, &dst, maps, (uint32_t)n, NULL, &generic, &body));
      kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
      KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &body->args[0]));
      kiln_lx_replace(op, generic, 1);
      return kiln_ok_status();
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_copy_through_map(b, src, read, rt, &out));
    kiln_lowering_replace(op, out);
    return kiln_ok_status();
  }
  // A dynamic source dim may not be a multiple of its tile: read it as
  // padded (the sizes come from tensor.dim at run time).
  bool padded = false;
  kiln_ir_value_t* src_size[KILN_LINALG_PACK_MAX_RANK];
  for (int64_t d = 0; d < n; ++d) {
    int64_t t = l.tile_of[d];
    src_size[d] = NULL;
    if (t < 0) continue;
    if (st->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_dynamic_dim(b, src, (size_t)d, &src_size[d]));
      padded = true;
    } else if (l.tiles[t] == KILN_IR_DYNAMIC_DIM) {
      padded = true;  // an SSA tile
    } else if (st->shaped.dims[d] % l.tiles[t] != 0 ||
               (rt->shaped.dims[outer_of[d]] != KILN_IR_DYNAMIC_DIM &&
                rt->shaped.dims[outer_of[d]] * l.tiles[t] >
                    st->shaped.dims[d])) {
      // A ragged last tile, or outer tiles past the data.
      padded = true;
    }
  }
  padded = padded || dynamic || ssa_tiles;
  uint32_t num_loops = (uint32_t)(n + l.num_tiled);
  if (!padded) {
    for (int64_t d = 0; d < n; ++d) {
      int64_t t = l.tile_of[d];
      const kiln_ir_affine_expr_t* o = kiln_ir_affine_dim(ctx, outer_of[d]);
      exprs[d] = t < 0 ? o
                       : kiln_ir_affine_binary(
                             ctx, KILN_IR_AFFINE_ADD,
                             kiln_ir_affine_binary(
                                 ctx, KILN_IR_AFFINE_MUL, o,
                                 kiln_ir_affine_constant(ctx, l.tiles[t])),
                             kiln_ir_affine_dim(ctx, n + t));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
        b, src,
        kiln_ir_affine_map_attr_get(ctx, num_loops, 0, (size_t)n, exprs), rt,
        &out));
    kiln_lowering_replace(op, out);
    return kiln_ok_status();
  }
  // The padding value: a constant, materialized inside the body (zero for
  // a dynamic pack without one: MLIR leaves the hanging tile undefined).
  kiln_ir_op_t* pad_def =
      l.has_padding ? kiln_ir_op_operand(op, 2)->defining_op : NULL;
  const kiln_ir_attribute_t* pad_value =
      pad_def && kiln_ir_op_is(pad_def, "arith.constant")
          ? kiln_ir_op_get_attr(pad_def, "value")
          : NULL;
  if (!l.has_padding) {
    kiln_scalar_t zero;
    memset(&zero, 0, sizeof(zero));
    pad_value = kiln_scalar_to_attr(ctx, kiln_ir_type_element(rt), zero);
  }
  if (!pad_value) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "a padding_value that is not an arith.constant is not "
        "supported");
  }
  const kiln_ir_attribute_t* map = kiln_linalg_identity_map(ctx, num_loops);
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 0, NULL, 1, &dst, &map, num_loops, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *coords[KILN_LINALG_PACK_MAX_RANK], *inside = NULL;
  for (int64_t d = 0; d < n; ++d) {
    int64_t t = l.tile_of[d];
    kiln_ir_value_t* o = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, outer_of[d], &o));
    if (t < 0) {
      coords[d] = o;
      continue;
    }
    kiln_ir_value_t *tile, *i, *c, *size, *lt;
    if (l.tile_operand[t] >= 0) {
      tile = kiln_ir_op_operand(op, (uint32_t)l.tile_operand[t]);
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, l.tiles[t], &tile));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, n + t, &i));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.muli", o, tile, &c));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", c, i, &c));
    size = src_size[d];
    if (!size) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, st->shaped.dims[d], &size));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&bb, KILN_CMPI_SLT, c, size, &lt));
    if (inside) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", inside, lt, &lt));
    }
    inside = lt;
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
        &bb, c, src_size[d], st->shaped.dims[d], &coords[d]));
  }
  kiln_ir_value_t *v = NULL, *pad = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, src, coords, &v));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_constant(&bb, pad_value, kiln_ir_type_element(rt), &pad));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, inside, v, pad, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  kiln_lx_replace(op, generic, 1);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// reverse
//===----------------------------------------------------------------------===//

// The shared reversal copy (kiln_lowering_reverse); the output operand only
// gives the result's type.
static kiln_status_t kiln_lx_lower_reverse(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  int64_t dims[KILN_LX_MAX_RANK];
  int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, "dimensions"), dims,
                                    KILN_LX_MAX_RANK);
  bool reversed[KILN_LX_MAX_RANK] = {false};
  for (int64_t i = 0; i < n; ++i) reversed[dims[i]] = true;
  return kiln_lowering_reverse(b, op, reversed);
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lx_lower_unsupported(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op) {
  return kiln_ir_op_emit_error(op, b->context, "is not supported");
}

#define KILN_LX_DEFINE_LOWERING(name, fn)                          \
  kiln_status_t kiln_linalg_ext_lower_##name(kiln_ir_builder_t* b, \
                                             kiln_ir_op_t* op) {   \
    KILN_RETURN_IF_ERROR(kiln_lx_expect_static(b->context, op));   \
    return fn(b, op);                                              \
  }
KILN_LX_DEFINE_LOWERING(map, kiln_lx_lower_map)
KILN_LX_DEFINE_LOWERING(winograd, kiln_lx_lower_winograd)
KILN_LX_DEFINE_LOWERING(unsupported, kiln_lx_lower_unsupported)
#undef KILN_LX_DEFINE_LOWERING

// Operands of rank at most KILN_LX_MAX_RANK, dynamic dims allowed.
static kiln_status_t kiln_lx_expect_rank(kiln_ir_context_t* ctx,
                                         kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (kiln_ir_type_is_shaped(t) && t->shaped.rank > KILN_LX_MAX_RANK) {
      return kiln_ir_op_emit_error(op, ctx, "rank %lld is not supported",
                                   (long long)t->shaped.rank);
    }
  }
  return kiln_ok_status();
}

// The lowerings that read run-time sizes where shapes are dynamic: sort,
// topk and arg_compare rank or compare along loops sized by their operands
// (a sort's outputs are sized like its inputs), scan reads its last element
// at the run-time size, gather
// clamps to the source's run-time dims, attention sizes its intermediate
// scores and row statistics from its operands' dims, scatter reads update
// slices within their run-time extent.
#define KILN_LX_DEFINE_DYNAMIC_LOWERING(name, fn)                  \
  kiln_status_t kiln_linalg_ext_lower_##name(kiln_ir_builder_t* b, \
                                             kiln_ir_op_t* op) {   \
    KILN_RETURN_IF_ERROR(kiln_lx_expect_rank(b->context, op));     \
    return fn(b, op);                                              \
  }
KILN_LX_DEFINE_DYNAMIC_LOWERING(sort, kiln_lower_comparator_sort)
KILN_LX_DEFINE_DYNAMIC_LOWERING(scan, kiln_lx_lower_scan)
KILN_LX_DEFINE_DYNAMIC_LOWERING(arg_compare, kiln_lx_lower_arg_compare)
KILN_LX_DEFINE_DYNAMIC_LOWERING(topk, kiln_lx_lower_topk)
KILN_LX_DEFINE_DYNAMIC_LOWERING(gather, kiln_lx_lower_gather)
KILN_LX_DEFINE_DYNAMIC_LOWERING(scatter, kiln_lx_lower_scatter)
KILN_LX_DEFINE_DYNAMIC_LOWERING(attention, kiln_lx_lower_attention)
KILN_LX_DEFINE_DYNAMIC_LOWERING(reverse, kiln_lx_lower_reverse)
#undef KILN_LX_DEFINE_DYNAMIC_LOWERING

// pack / unpack read run-time sizes (tensor.dim) where shapes are dynamic.
kiln_status_t kiln_linalg_ext_lower_pack(kiln_ir_builder_t* b,
                                         kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_lx_expect_rank(b->context, op));
  return kiln_lx_lower_pack(b, op);
}
