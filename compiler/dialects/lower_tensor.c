// Lowering of tensor.extract_slice / insert_slice / concat / insert to the
// structured form (structured-form.md):
//   - extract_slice with static offsets and strides: a copy generic over the
//     result whose input map is `(d...) -> (off + d * stride)` per source dim
//     (a dropped unit dim reads its constant offset). With SSA offsets,
//     sizes or strides, or dynamic dims: a generic over the result (sized
//     by the SSA sizes) whose body computes `off + i * stride`, clamps it
//     into the source and tensor.extract's.
//   - insert_slice: a generic over the dest reading the dest element; per
//     dim `local = i - off`, inside when local >= 0, local % stride == 0 and
//     local / stride < size; arith.select between the source element
//     (tensor.extract at the clamped position) and the dest element.
//   - concat: a stablehlo.concatenate, lowered in turn.
//   - pad (static or SSA low/high, an index-independent padding value): a
//     generic over the result selecting the source element or the padding
//     value.
//   - insert: a generic over the dest that selects the scalar where every
//     linalg.index equals the given index.
//   - flow.tensor.bitcast: a generic over the result; element j of the
//     result is bits [j * wr, (j + 1) * wr) of the source read as one bit
//     string (little-endian, as IREE packs sub-byte types), wr and ws the
//     element widths: the source element j (equal widths, arith.bitcast),
//     a shifted and truncated part of source element j * wr / ws (narrower
//     result), or ws / ... source elements zero-extended, shifted and or-ed
//     (wider result).
// extract_slice, insert_slice, concat and pad take run-time sizes and
// dynamically shaped operands and results (sized at run time); insert
// takes a dynamic dest.
#include "compiler/dialects/lower_tensor.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/dialects/tensor.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

#define KILN_LT_MAX KILN_TENSOR_MAX_RANK

//===----------------------------------------------------------------------===//
// Slice descriptions
//===----------------------------------------------------------------------===//

// The offsets/sizes/strides of a slice op; dyn_* hold the SSA value where
// the list entry is dynamic (NULL otherwise).
typedef struct kiln_lt_slice_t {
  size_t rank;
  int64_t off[KILN_LT_MAX], size[KILN_LT_MAX], stride[KILN_LT_MAX];
  kiln_ir_value_t* dyn_off[KILN_LT_MAX];
  kiln_ir_value_t* dyn_size[KILN_LT_MAX];
  kiln_ir_value_t* dyn_stride[KILN_LT_MAX];
  int64_t result_dim_of[KILN_LT_MAX];  // -1: dropped unit dim
  bool dynamic;                        // some offset, size or stride is SSA
} kiln_lt_slice_t;

// SSA sizes are accepted when |dynamic_sizes| (extract_slice: they size
// its result at run time).
static kiln_status_t kiln_lt_read_slice(
    kiln_ir_context_t* ctx, kiln_ir_op_t* op, uint32_t first_dynamic,
    const kiln_ir_type_t* full, const kiln_ir_type_t* slice, bool dynamic_sizes,
    kiln_lt_slice_t* s) {
  static const char* const names[3] = {"static_offsets", "static_sizes",
                                       "static_strides"};
  int64_t* lists[3] = {s->off, s->size, s->stride};
  kiln_ir_value_t** dyn[3] = {s->dyn_off, dynamic_sizes ? s->dyn_size : NULL,
                              s->dyn_stride};
  for (size_t i = 0; i < KILN_LT_MAX; ++i) s->dyn_size[i] = NULL;
  uint32_t next = first_dynamic;
  s->rank = full->shaped.rank;
  s->dynamic = false;
  for (int k = 0; k < 3; ++k) {
    int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, names[k]),
                                      lists[k], KILN_LT_MAX);
    if (n != (int64_t)s->rank) {
      return kiln_ir_op_emit_error(op, ctx, "malformed '%s'", names[k]);
    }
    for (size_t i = 0; i < s->rank; ++i) {
      if (dyn[k]) dyn[k][i] = NULL;
      if (lists[k][i] != KILN_IR_DYNAMIC_DIM) continue;
      if (!dyn[k]) {
        return kiln_ir_op_emit_error(
            op, ctx, "dynamic slice sizes are not supported (dim %zu)", i);
      }
      dyn[k][i] = kiln_ir_op_operand(op, next++);
      s->dynamic = true;
    }
  }
  if (!kiln_tensor_match_slice_shape(s->rank, s->size, slice,
                                     s->result_dim_of)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "slice type does not match the slice sizes");
  }
  return kiln_ok_status();
}

// The static value |v| or the SSA value |dyn| as an index.
static kiln_status_t kiln_lt_index(kiln_ir_builder_t* b, int64_t v,
                                   kiln_ir_value_t* dyn,
                                   kiln_ir_value_t** out) {
  if (dyn) {
    *out = dyn;
    return kiln_ok_status();
  }
  return kiln_lowering_index_const(b, v, out);
}

// *acc = *acc && c (NULL *acc: c).
static kiln_status_t kiln_lt_and(kiln_ir_builder_t* b, kiln_ir_value_t* c,
                                 kiln_ir_value_t** acc) {
  if (!*acc) {
    *acc = c;
    return kiln_ok_status();
  }
  return kiln_lowering_emit2(b, "arith.andi", *acc, c, acc);
}

// A linalg.generic under construction: the op, its body block and a
// builder appending to the body.
typedef struct kiln_lt_generic_t {
  kiln_ir_op_t* op;
  kiln_ir_block_t* body;
  kiln_ir_builder_t bb;
} kiln_lt_generic_t;

// A parallel generic over |rt| reading |input| (when not NULL) through
// |input_map|, into |g|.
static kiln_status_t kiln_lt_generic_init(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* init,
                                          kiln_ir_value_t* input,
                                          const kiln_ir_attribute_t* input_map,
                                          kiln_lt_generic_t* g);

static kiln_status_t kiln_lt_generic(kiln_ir_builder_t* b,
                                     const kiln_ir_type_t* rt,
                                     kiln_ir_value_t* input,
                                     const kiln_ir_attribute_t* input_map,
                                     kiln_lt_generic_t* g) {
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, rt, &init));
  return kiln_lt_generic_init(b, init, input, input_map, g);
}

// As above writing |init| (whose type may be dynamic).
static kiln_status_t kiln_lt_generic_init(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* init,
                                          kiln_ir_value_t* input,
                                          const kiln_ir_attribute_t* input_map,
                                          kiln_lt_generic_t* g) {
  uint32_t rank = (uint32_t)init->type->shaped.rank;
  const kiln_ir_attribute_t* maps[2] = {
      input_map, kiln_linalg_identity_map(b->context, rank)};
  size_t num_inputs = input ? 1 : 0;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, num_inputs, &input, 1, &init, maps + (input ? 0 : 1), rank, NULL,
      &g->op, &g->body));
  g->bb = kiln_lowering_body_builder(b, g->body);
  return kiln_ok_status();
}

// A parallel generic over the type of |dest| reading |dest| element by
// element (its body's first argument), into |g|.
static kiln_status_t kiln_lt_generic_over(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* dest,
                                          kiln_lt_generic_t* g) {
  uint32_t rank = (uint32_t)dest->type->shaped.rank;
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, dest->type, dest, &init));
  return kiln_lt_generic_init(b, init, dest,
                              kiln_linalg_identity_map(b->context, rank), g);
}

// |v| or, when |v| is a dynamically shaped tensor.cast of a static one
// (a shape made dynamic on purpose), the static tensor it casts.
static kiln_ir_value_t* kiln_lt_look_through_cast(kiln_ir_value_t* v) {
  while (!kiln_ir_type_has_static_shape(v->type) &&
         v->kind == KILN_IR_VALUE_RESULT && v->defining_op &&
         kiln_ir_op_is(v->defining_op, "tensor.cast")) {
    v = kiln_ir_op_operand(v->defining_op, 0);
  }
  return v;
}

//===----------------------------------------------------------------------===//
// extract_slice
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lt_lower_extract_slice(kiln_ir_builder_t* b,
                                                 kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* src = kiln_lt_look_through_cast(kiln_ir_op_operand(op, 0));
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_lt_slice_t s;
  KILN_RETURN_IF_ERROR(kiln_lt_read_slice(ctx, op, 1, st, rt, true, &s));
  bool dynamic = s.dynamic || !kiln_ir_type_has_static_shape(rt) ||
                 !kiln_ir_type_has_static_shape(st);
  if (src->type == rt && !dynamic) {
    bool whole = true;
    for (size_t i = 0; i < s.rank; ++i) whole &= s.off[i] == 0;
    if (whole) {  // the whole tensor (sizes equal the dims, stride moot)
      kiln_lowering_replace(op, src);
      return kiln_ok_status();
    }
  }
  uint32_t rrank = (uint32_t)rt->shaped.rank;
  kiln_lt_generic_t g;
  if (!dynamic) {
    const kiln_ir_affine_expr_t* exprs[KILN_LT_MAX];
    for (size_t i = 0; i < s.rank; ++i) {
      int64_t j = s.result_dim_of[i];
      const kiln_ir_affine_expr_t* e = kiln_ir_affine_constant(ctx, s.off[i]);
      if (j >= 0) {
        const kiln_ir_affine_expr_t* d = kiln_ir_affine_dim(ctx, (uint32_t)j);
        if (s.stride[i] != 1) {
          d = kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MUL, d,
                                    kiln_ir_affine_constant(ctx, s.stride[i]));
        }
        e = s.off[i] == 0
                ? d
                : kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_ADD, d, e);
      }
      exprs[i] = e;
    }
    const kiln_ir_attribute_t* map =
        kiln_ir_affine_map_attr_get(ctx, rrank, 0, s.rank, exprs);
    KILN_RETURN_IF_ERROR(kiln_lt_generic(b, rt, src, map, &g));
    return kiln_lowering_yield_and_replace(&g.bb, g.body->args[0], op, g.op);
  }
  // Run-time offsets, sizes or strides, or a dynamic source: the body
  // computes each coordinate (sizes known at run time size the result;
  // the source's dims clamp the reads).
  kiln_ir_value_t* sizes[KILN_LT_MAX];
  uint32_t num_sizes = 0;
  kiln_ir_value_t* src_dim[KILN_LT_MAX];
  for (size_t i = 0; i < s.rank; ++i) {
    int64_t j = s.result_dim_of[i];
    if (j >= 0 && rt->shaped.dims[j] == KILN_IR_DYNAMIC_DIM) {
      if (!s.dyn_size[i]) {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_index_const(b, s.size[i], &s.dyn_size[i]));
      }
      sizes[num_sizes++] = s.dyn_size[i];
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, src, i, &src_dim[i]));
  }
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", rt, num_sizes, sizes, &init));
  KILN_RETURN_IF_ERROR(kiln_lt_generic_init(b, init, NULL, NULL, &g));
  kiln_ir_value_t* coords[KILN_LT_MAX];
  for (size_t i = 0; i < s.rank; ++i) {
    kiln_ir_value_t* pos = NULL;
    KILN_RETURN_IF_ERROR(kiln_lt_index(&g.bb, s.off[i], s.dyn_off[i], &pos));
    int64_t j = s.result_dim_of[i];
    if (j >= 0) {
      kiln_ir_value_t *idx, *stride;
      KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&g.bb, j, &idx));
      KILN_RETURN_IF_ERROR(
          kiln_lt_index(&g.bb, s.stride[i], s.dyn_stride[i], &stride));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&g.bb, "arith.muli", idx, stride, &idx));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&g.bb, "arith.addi", pos, idx, &pos));
    }
    // Out-of-bounds SSA offsets are undefined behavior in MLIR; clamping
    // keeps the read inside the source.
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
        &g.bb, pos, src_dim[i], st->shaped.dims[i], &coords[i]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&g.bb, src, coords, &v));
  return kiln_lowering_yield_and_replace(&g.bb, v, op, g.op);
}

//===----------------------------------------------------------------------===//
// insert_slice
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lt_lower_insert_slice(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* src = kiln_lt_look_through_cast(kiln_ir_op_operand(op, 0));
  kiln_ir_value_t* dest = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* dt = dest->type;
  kiln_lt_slice_t s;
  KILN_RETURN_IF_ERROR(kiln_lt_read_slice(ctx, op, 2, dt, st, true, &s));
  for (size_t i = 0; i < s.rank; ++i) {
    if (!s.dyn_size[i] && s.size[i] == 0) {  // empty: the dest unchanged
      kiln_lowering_replace(op, dest);
      return kiln_ok_status();
    }
  }
  kiln_lt_generic_t g;
  KILN_RETURN_IF_ERROR(kiln_lt_generic_over(b, dest, &g));
  kiln_ir_value_t* coords[KILN_LT_MAX];
  kiln_ir_value_t* inside = NULL;
  for (size_t i = 0; i < s.rank; ++i) {
    int64_t j = s.result_dim_of[i];
    kiln_ir_value_t* idx = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&g.bb, (int64_t)i, &idx));
    bool whole = !s.dyn_off[i] && !s.dyn_stride[i] && !s.dyn_size[i] &&
                 s.off[i] == 0 && s.stride[i] == 1 &&
                 dt->shaped.dims[i] != KILN_IR_DYNAMIC_DIM &&
                 s.size[i] == dt->shaped.dims[i];
    if (whole && j >= 0) {
      coords[j] = idx;
      continue;
    }
    kiln_ir_value_t* local = idx;
    if (s.dyn_off[i] || s.off[i] != 0) {
      kiln_ir_value_t* off = NULL;
      KILN_RETURN_IF_ERROR(kiln_lt_index(&g.bb, s.off[i], s.dyn_off[i], &off));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&g.bb, "arith.subi", idx, off, &local));
    }
    kiln_ir_value_t *zero, *c;
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&g.bb, 0, &zero));
    if (j < 0) {  // a dropped unit dim: only `local == 0` is inside
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&g.bb, KILN_CMPI_EQ, local, zero, &c));
      KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, c, &inside));
      continue;
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(&g.bb, KILN_CMPI_SGE, local, zero, &c));
    KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, c, &inside));
    kiln_ir_value_t* q = local;
    if (s.dyn_stride[i] || s.stride[i] != 1) {
      kiln_ir_value_t *stride, *rem;
      KILN_RETURN_IF_ERROR(
          kiln_lt_index(&g.bb, s.stride[i], s.dyn_stride[i], &stride));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&g.bb, "arith.remsi", local, stride, &rem));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&g.bb, KILN_CMPI_EQ, rem, zero, &c));
      KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, c, &inside));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&g.bb, "arith.divsi", local, stride, &q));
    }
    kiln_ir_value_t* size = s.dyn_size[i];
    if (!size) {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&g.bb, s.size[i], &size));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&g.bb, KILN_CMPI_SLT, q, size, &c));
    KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, c, &inside));
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(&g.bb, q, s.dyn_size[i],
                                                     s.size[i], &coords[j]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&g.bb, src, coords, &v));
  if (inside) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&g.bb, inside, v, g.body->args[0], &v));
  }
  return kiln_lowering_yield_and_replace(&g.bb, v, op, g.op);
}

//===----------------------------------------------------------------------===//
// concat, insert
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lt_lower_concat(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  kiln_ir_value_t* args[64];
  if (n > 64) return kiln_ir_op_emit_error(op, ctx, "more than 64 operands");
  for (uint32_t k = 0; k < n; ++k) args[k] = kiln_ir_op_operand(op, k);
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      ctx, "dimension",
      kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64),
                               kiln_ir_op_get_attr(op, "dim")->i));
  kiln_ir_op_t* concat = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "stablehlo.concatenate", n, args, 1, &rt, 1, &attr, &concat));
  kiln_lowering_replace(op, kiln_ir_op_result(concat, 0));
  kiln_ir_builder_t cb = *b;
  kiln_ir_builder_set_before(&cb, concat);
  return kiln_lower_to_structured_op(&cb, concat);
}

static kiln_status_t kiln_lt_lower_insert(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  kiln_ir_value_t* scalar = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* dest = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* dt = dest->type;
  kiln_lt_generic_t g;
  KILN_RETURN_IF_ERROR(kiln_lt_generic_over(b, dest, &g));
  kiln_ir_value_t* hit = NULL;
  for (uint32_t d = 0; d < (uint32_t)dt->shaped.rank; ++d) {
    kiln_ir_value_t *idx, *c;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&g.bb, d, &idx));
    KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&g.bb, KILN_CMPI_EQ, idx,
                                            kiln_ir_op_operand(op, d + 2), &c));
    KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, c, &hit));
  }
  kiln_ir_value_t* v = scalar;
  if (hit) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&g.bb, hit, scalar, g.body->args[0], &v));
  }
  return kiln_lowering_yield_and_replace(&g.bb, v, op, g.op);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// flow.tensor.bitcast
//===----------------------------------------------------------------------===//

// The coordinates in |type| of the row-major linear index |linear|.
static kiln_status_t kiln_lt_delinearize(kiln_ir_builder_t* bb,
                                         const kiln_ir_type_t* type,
                                         kiln_ir_value_t* linear,
                                         kiln_ir_value_t** coords) {
  for (size_t d = type->shaped.rank; d-- > 0;) {
    kiln_ir_value_t* size = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_index_const(bb, type->shaped.dims[d], &size));
    if (d == 0) {
      coords[d] = linear;
      break;
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.remui", linear, size, &coords[d]));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.divui", linear, size, &linear));
  }
  return kiln_ok_status();
}

// Scalar |v| as the integer of its |bits| (float: its bits; a byte-stored
// i1: zero-extended to i8), and back.
static kiln_status_t kiln_lt_to_bits(kiln_ir_builder_t* bb, kiln_ir_value_t* v,
                                     int64_t bits, kiln_ir_value_t** out) {
  const kiln_ir_type_t* it = kiln_ir_int_type(bb->context, (uint32_t)bits);
  if (v->type == it) {
    *out = v;
    return kiln_ok_status();
  }
  const char* name = v->type->kind == KILN_IR_TYPE_FLOAT ? "arith.bitcast"
                     : kiln_ir_type_bit_width(v->type) < (uint32_t)bits
                         ? "arith.extui"
                         : "arith.bitcast";
  return kiln_lowering_emit(bb, name, it, 1, &v, out);
}

static kiln_status_t kiln_lt_from_bits(kiln_ir_builder_t* bb,
                                       kiln_ir_value_t* v,
                                       const kiln_ir_type_t* element,
                                       kiln_ir_value_t** out) {
  if (v->type == element) {
    *out = v;
    return kiln_ok_status();
  }
  const char* name =
      element->kind == KILN_IR_TYPE_FLOAT ? "arith.bitcast"
      : kiln_ir_type_bit_width(element) < kiln_ir_type_bit_width(v->type)
          ? "arith.trunci"
          : "arith.bitcast";
  return kiln_lowering_emit(bb, name, element, 1, &v, out);
}

static kiln_status_t kiln_lt_lower_bitcast(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!kiln_ir_type_has_static_shape(st) ||
      !kiln_ir_type_has_static_shape(rt)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "a dynamically shaped bitcast is not "
                                 "supported yet");
  }
  int64_t ws = 0, wr = 0;
  kiln_flow_bitcast_widths(st, rt, &ws, &wr);
  if ((ws > wr ? ws % wr : wr % ws) != 0 || ws > 64 || wr > 64) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "a bitcast between %lld- and %lld-bit elements is not "
        "supported",
        (long long)ws, (long long)wr);
  }
  uint32_t rank = (uint32_t)rt->shaped.rank;
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, rt, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  // The result element's row-major linear index.
  kiln_ir_value_t* linear = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &linear));
  for (uint32_t d = 0; d < rank; ++d) {
    kiln_ir_value_t *size, *i;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_index_const(&bb, rt->shaped.dims[d], &size));
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &i));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.muli", linear, size, &linear));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", linear, i, &linear));
  }
  const kiln_ir_type_t* ist = kiln_ir_int_type(ctx, (uint32_t)ws);
  const kiln_ir_type_t* irt = kiln_ir_int_type(ctx, (uint32_t)wr);
  kiln_ir_value_t* coords[KILN_LT_MAX];
  kiln_ir_value_t *v = NULL, *bits = NULL;
  if (ws >= wr) {
    int64_t ratio = ws / wr;
    kiln_ir_value_t *q = linear, *r = NULL, *c = NULL;
    if (ratio > 1) {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, ratio, &c));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.divui", linear, c, &q));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.remui", linear, c, &r));
    }
    KILN_RETURN_IF_ERROR(kiln_lt_delinearize(&bb, st, q, coords));
    KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, src, coords, &v));
    KILN_RETURN_IF_ERROR(kiln_lt_to_bits(&bb, v, ws, &bits));
    if (ratio > 1) {
      kiln_ir_value_t *shift, *width;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit(&bb, "arith.index_cast", ist, 1, &r, &shift));
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, ist, wr, &width));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.muli", shift, width, &shift));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.shrui", bits, shift, &bits));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit(&bb, "arith.trunci", irt, 1, &bits, &bits));
    }
  } else {
    int64_t ratio = wr / ws;
    kiln_ir_value_t *base, *c;
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, ratio, &c));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.muli", linear, c, &base));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, irt, 0, &bits));
    for (int64_t k = 0; k < ratio; ++k) {
      kiln_ir_value_t *at, *part, *shift;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, k, &c));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.addi", base, c, &at));
      KILN_RETURN_IF_ERROR(kiln_lt_delinearize(&bb, st, at, coords));
      KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, src, coords, &v));
      KILN_RETURN_IF_ERROR(kiln_lt_to_bits(&bb, v, ws, &part));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit(&bb, "arith.extui", irt, 1, &part, &part));
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, irt, ws * k, &shift));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.shli", part, shift, &part));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.ori", bits, part, &bits));
    }
  }
  KILN_RETURN_IF_ERROR(
      kiln_lt_from_bits(&bb, bits, kiln_ir_type_element(rt), &v));
  return kiln_lowering_yield_and_replace(&bb, v, op, generic);
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

// tensor.pad with static or SSA low/high and a padding value that does not
// depend on the indices (a constant, or a scalar defined outside the
// region): a generic over the result (sized source + low + high at run
// time where dynamic); per dim `local = i - low`, inside when
// 0 <= local < size; arith.select between the source element (at the
// clamped position) and the padding value.
static kiln_status_t kiln_lt_lower_pad(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* src = kiln_lt_look_through_cast(kiln_ir_op_operand(op, 0));
  const kiln_ir_type_t* st = src->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  // Low and high pads: static, or the SSA operands after the source (the
  // lows', then the highs', in dim order).
  int64_t lo[KILN_LT_MAX], hi[KILN_LT_MAX];
  kiln_ir_value_t *dyn_lo[KILN_LT_MAX], *dyn_hi[KILN_LT_MAX];
  size_t rank = rt->shaped.rank;
  uint32_t next = 1, n = kiln_ir_op_num_regular_operands(op);
  if (kiln_dialect_int_list(kiln_ir_op_get_attr(op, "static_low"), lo,
                            KILN_LT_MAX) != (int64_t)rank ||
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "static_high"), hi,
                            KILN_LT_MAX) != (int64_t)rank) {
    return kiln_ir_op_emit_error(op, ctx, "malformed low/high padding");
  }
  for (int k = 0; k < 2; ++k) {
    int64_t* list = k ? hi : lo;
    kiln_ir_value_t** dyn = k ? dyn_hi : dyn_lo;
    for (size_t d = 0; d < rank; ++d) {
      dyn[d] = NULL;
      if (list[d] != KILN_IR_DYNAMIC_DIM) continue;
      if (next >= n) {
        return kiln_ir_op_emit_error(op, ctx, "malformed low/high padding");
      }
      dyn[d] = kiln_ir_op_operand(op, next++);
    }
  }
  // Run-time sizes: the source's dims and the result's (source + low +
  // high, computed at host level).
  kiln_ir_value_t* src_dim[KILN_LT_MAX];
  kiln_ir_value_t* sizes[KILN_LT_MAX];
  uint32_t num_sizes = 0;
  for (size_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, src, d, &src_dim[d]));
    if (rt->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) continue;
    kiln_ir_value_t *size = src_dim[d], *l = NULL, *h = NULL;
    if (!size) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, st->shaped.dims[d], &size));
    }
    KILN_RETURN_IF_ERROR(kiln_lt_index(b, lo[d], dyn_lo[d], &l));
    KILN_RETURN_IF_ERROR(kiln_lt_index(b, hi[d], dyn_hi[d], &h));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addi", size, l, &size));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addi", size, h, &size));
    sizes[num_sizes++] = size;
  }
  kiln_ir_block_t* region = op->regions[0].first_block;
  kiln_ir_value_t* pad = kiln_ir_op_operand(region->last_op, 0);
  kiln_ir_op_t* def =
      pad->kind == KILN_IR_VALUE_RESULT ? pad->defining_op : NULL;
  bool is_constant = def && kiln_ir_op_is(def, "arith.constant");
  if (!is_constant && (!def || kiln_ir_op_parent_op(def) == op)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "a padding value computed in the region is not supported yet (only "
        "a constant or a value defined outside it)");
  }
  // A generic body captures no scalars: an outside value comes in as a
  // rank-0 tensor read with tensor.extract.
  kiln_ir_value_t* pad_tensor = NULL;
  if (!is_constant) {
    const kiln_ir_type_t* t0 =
        kiln_ir_tensor_type_get(ctx, 0, NULL, pad->type, NULL);
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(b, "tensor.from_elements", t0, 1,
                                            &pad, &pad_tensor));
  }
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", rt, num_sizes, sizes, &init));
  kiln_lt_generic_t g;
  KILN_RETURN_IF_ERROR(kiln_lt_generic_init(b, init, NULL, NULL, &g));
  kiln_ir_value_t *idx[KILN_LT_MAX], *inside = NULL;
  for (uint32_t d = 0; d < rank; ++d) {
    int64_t size = st->shaped.dims[d];
    bool dynamic = src_dim[d] || dyn_lo[d] || dyn_hi[d] ||
                   rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
    kiln_ir_value_t *local, *off, *ge, *lt, *zero, *hi_value;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&g.bb, d, &local));
    if (dyn_lo[d] || lo[d] != 0) {
      KILN_RETURN_IF_ERROR(kiln_lt_index(&g.bb, lo[d], dyn_lo[d], &off));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&g.bb, "arith.subi", local, off, &local));
    }
    if (dynamic || lo[d] != 0 || rt->shaped.dims[d] != size) {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&g.bb, 0, &zero));
      hi_value = src_dim[d];
      if (!hi_value) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&g.bb, size, &hi_value));
      }
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&g.bb, KILN_CMPI_SGE, local, zero, &ge));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(&g.bb, KILN_CMPI_SLT, local, hi_value, &lt));
      KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, ge, &inside));
      KILN_RETURN_IF_ERROR(kiln_lt_and(&g.bb, lt, &inside));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_clamp_to_size(&g.bb, local, src_dim[d], size, &local));
    }
    idx[d] = local;
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&g.bb, src, idx, &v));
  if (inside) {
    kiln_ir_value_t* fill = NULL;
    if (is_constant) {
      KILN_RETURN_IF_ERROR(kiln_lowering_constant(
          &g.bb, kiln_ir_op_get_attr(def, "value"), pad->type, &fill));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_extract(&g.bb, pad_tensor, NULL, &fill));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&g.bb, inside, v, fill, &v));
  }
  return kiln_lowering_yield_and_replace(&g.bb, v, op, g.op);
}

// flow.tensor.reshape: a view (kiln_lowering_reshape) sized by its last
// operands, the result's run-time dims (the source's, before them, are
// the source's own).
static kiln_status_t kiln_lt_lower_flow_reshape(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op) {
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t num_sizes = 0;
  for (size_t d = 0; d < rt->shaped.rank; ++d) {
    num_sizes += rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
  }
  kiln_ir_value_t* sizes[KILN_LOWERING_MAX_RANK];
  if (num_sizes >= n || num_sizes > KILN_LOWERING_MAX_RANK) {
    return kiln_ir_op_emit_error(op, b->context, "malformed reshape");
  }
  for (uint32_t i = 0; i < num_sizes; ++i) {
    sizes[i] = kiln_ir_op_operand(op, n - num_sizes + i);
  }
  kiln_ir_value_t* result = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_reshape(b, op, kiln_ir_op_operand(op, 0),
                                             rt, num_sizes, sizes, &result));
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

// One hook per definition, picked once at registration (tensor.c and the
// flow ops of util.c); ops already structured get none.
kiln_ir_lower_fn_t kiln_lower_tensor_pick(const kiln_ir_op_def_t* def) {
  static const struct {
    const char* name;
    kiln_ir_lower_fn_t fn;
  } table[] = {
      {"tensor.extract_slice", kiln_lt_lower_extract_slice},
      {"tensor.insert_slice", kiln_lt_lower_insert_slice},
      {"tensor.concat", kiln_lt_lower_concat},
      {"tensor.pad", kiln_lt_lower_pad},
      {"tensor.insert", kiln_lt_lower_insert},
      {"tensor.reshape", kiln_lowering_reshape_to_shape},
      {"flow.tensor.bitcast", kiln_lt_lower_bitcast},
      {"flow.tensor.reshape", kiln_lt_lower_flow_reshape},
  };
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i) {
    if (!strcmp(def->name, table[i].name)) return table[i].fn;
  }
  return NULL;
}
