// The shared emission helpers of the lowering passes; see lowering_util.h.
#include "compiler/dialects/lowering_util.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/scalar_eval.h"

//===----------------------------------------------------------------------===//
// Generic ops
//===----------------------------------------------------------------------===//

kiln_status_t kiln_lowering_emit(kiln_ir_builder_t* b, const char* name,
                                 const kiln_ir_type_t* type, size_t n,
                                 kiln_ir_value_t* const* args,
                                 kiln_ir_value_t** out) {
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_simple(b, name, n, args, 1, &type, 0, NULL, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_emit1(kiln_ir_builder_t* b, const char* name,
                                  kiln_ir_value_t* x, kiln_ir_value_t** out) {
  return kiln_lowering_emit(b, name, x->type, 1, &x, out);
}

kiln_status_t kiln_lowering_emit2(kiln_ir_builder_t* b, const char* name,
                                  kiln_ir_value_t* x, kiln_ir_value_t* y,
                                  kiln_ir_value_t** out) {
  kiln_ir_value_t* args[2] = {x, y};
  return kiln_lowering_emit(b, name, x->type, 2, args, out);
}

//===----------------------------------------------------------------------===//
// arith ops
//===----------------------------------------------------------------------===//

kiln_status_t kiln_lowering_cmp(kiln_ir_builder_t* b, bool is_int,
                                int64_t predicate, kiln_ir_value_t* x,
                                kiln_ir_value_t* y, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* args[2] = {x, y};
  const kiln_ir_type_t* i1 = kiln_ir_int_type(ctx, 1);
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      ctx, "predicate",
      kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), predicate));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, is_int ? "arith.cmpi" : "arith.cmpf", 2, args, 1, &i1, 1, &attr, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_cmpi(kiln_ir_builder_t* b, int64_t predicate,
                                 kiln_ir_value_t* x, kiln_ir_value_t* y,
                                 kiln_ir_value_t** out) {
  return kiln_lowering_cmp(b, true, predicate, x, y, out);
}

kiln_status_t kiln_lowering_select(kiln_ir_builder_t* b, kiln_ir_value_t* c,
                                   kiln_ir_value_t* x, kiln_ir_value_t* y,
                                   kiln_ir_value_t** out) {
  kiln_ir_value_t* args[3] = {c, x, y};
  return kiln_lowering_emit(b, "arith.select", x->type, 3, args, out);
}

kiln_status_t kiln_lowering_constant(kiln_ir_builder_t* b,
                                     const kiln_ir_attribute_t* value,
                                     const kiln_ir_type_t* type,
                                     kiln_ir_value_t** out) {
  kiln_ir_named_attribute_t attr =
      kiln_ir_named_attr(b->context, "value", value);
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "arith.constant", 0, NULL, 1, &type, 1, &attr, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_int_const(kiln_ir_builder_t* b,
                                      const kiln_ir_type_t* type, int64_t v,
                                      kiln_ir_value_t** out) {
  kiln_scalar_t s;
  s.i = kiln_scalar_canon_int(type, v);
  return kiln_lowering_constant(b, kiln_scalar_to_attr(b->context, type, s),
                                type, out);
}

kiln_status_t kiln_lowering_float_const(kiln_ir_builder_t* b,
                                        const kiln_ir_type_t* type, double v,
                                        kiln_ir_value_t** out) {
  return kiln_lowering_constant(b, kiln_ir_float_attr_get(b->context, type, v),
                                type, out);
}

kiln_status_t kiln_lowering_index_const(kiln_ir_builder_t* b, int64_t v,
                                        kiln_ir_value_t** out) {
  const kiln_ir_type_t* index = kiln_ir_index_type_get(b->context);
  kiln_scalar_t s;
  memset(&s, 0, sizeof(s));
  s.i = v;
  return kiln_lowering_constant(b, kiln_scalar_to_attr(b->context, index, s),
                                index, out);
}

kiln_status_t kiln_lowering_convert(kiln_ir_builder_t* b, kiln_ir_value_t* v,
                                    const kiln_ir_type_t* to,
                                    kiln_ir_value_t** out) {
  const kiln_ir_type_t* from = v->type;
  if (from == to) {
    *out = v;
    return kiln_ok_status();
  }
  bool ff = kiln_lowering_is_float(from), tf = kiln_lowering_is_float(to);
  uint32_t fw = kiln_ir_type_bit_width(from), tw = kiln_ir_type_bit_width(to);
  if (ff && tf) {
    if (fw == tw) {  // f16 <-> bf16: through f32
      kiln_ir_value_t* wide = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_emit(
          b, "arith.extf", kiln_ir_float_type_get(b->context, KILN_IR_F32), 1,
          &v, &wide));
      return kiln_lowering_emit(b, "arith.truncf", to, 1, &wide, out);
    }
    return kiln_lowering_emit(b, tw > fw ? "arith.extf" : "arith.truncf", to, 1,
                              &v, out);
  }
  if (!ff && tf) {
    return kiln_lowering_emit(
        b, kiln_lowering_is_unsigned(from) ? "arith.uitofp" : "arith.sitofp",
        to, 1, &v, out);
  }
  if (tw == 1) {  // to bool: x != 0
    kiln_ir_value_t* zero = NULL;
    if (ff) {
      KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, from, 0.0, &zero));
      return kiln_lowering_cmp(b, false, KILN_CMPF_UNE, v, zero, out);
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, from, 0, &zero));
    return kiln_lowering_cmp(b, true, KILN_CMPI_NE, v, zero, out);
  }
  if (ff) {
    return kiln_lowering_emit(
        b, kiln_lowering_is_unsigned(to) ? "arith.fptoui" : "arith.fptosi", to,
        1, &v, out);
  }
  if (tw > fw) {
    return kiln_lowering_emit(
        b, kiln_lowering_is_unsigned(from) ? "arith.extui" : "arith.extsi", to,
        1, &v, out);
  }
  if (tw < fw) return kiln_lowering_emit(b, "arith.trunci", to, 1, &v, out);
  return kiln_lowering_emit(b, "arith.bitcast", to, 1, &v, out);
}

kiln_status_t kiln_lowering_clamp_index(kiln_ir_builder_t* b,
                                        kiln_ir_value_t* v, int64_t lo,
                                        int64_t hi, kiln_ir_value_t** out) {
  kiln_ir_value_t *l, *h;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, lo, &l));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, hi < lo ? lo : hi, &h));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.maxsi", v, l, &v));
  return kiln_lowering_emit2(b, "arith.minsi", v, h, out);
}

kiln_status_t kiln_lowering_dynamic_dim(kiln_ir_builder_t* b,
                                        kiln_ir_value_t* t, size_t d,
                                        kiln_ir_value_t** out) {
  *out = NULL;
  if (t->type->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) return kiln_ok_status();
  kiln_ir_value_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, (int64_t)d, &c));
  kiln_ir_value_t* args[2] = {t, c};
  return kiln_lowering_emit(b, "tensor.dim", kiln_ir_index_type_get(b->context),
                            2, args, out);
}

kiln_status_t kiln_lowering_clamp_to_size(kiln_ir_builder_t* b,
                                          kiln_ir_value_t* v,
                                          kiln_ir_value_t* size,
                                          int64_t static_size,
                                          kiln_ir_value_t** out) {
  if (!size) return kiln_lowering_clamp_index(b, v, 0, static_size - 1, out);
  kiln_ir_value_t *one, *last;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", size, one, &last));
  return kiln_lowering_clamp_to_bound(b, v, last, out);
}

kiln_status_t kiln_lowering_clamp_to_bound(kiln_ir_builder_t* b,
                                           kiln_ir_value_t* v,
                                           kiln_ir_value_t* hi,
                                           kiln_ir_value_t** out) {
  // min first: an empty range (a run-time size of 0) gives 0, never a
  // negative index.
  kiln_ir_value_t* zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.minsi", v, hi, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 0, &zero));
  return kiln_lowering_emit2(b, "arith.maxsi", v, zero, out);
}

//===----------------------------------------------------------------------===//
// tensor / linalg ops
//===----------------------------------------------------------------------===//

kiln_status_t kiln_lowering_extract(kiln_ir_builder_t* b, kiln_ir_value_t* t,
                                    kiln_ir_value_t* const* coords,
                                    kiln_ir_value_t** out) {
  size_t rank = t->type->shaped.rank;
  if (rank > KILN_LOWERING_MAX_RANK) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "tensor.extract of rank %zu (at most %d)", rank,
                            KILN_LOWERING_MAX_RANK);
  }
  kiln_ir_value_t* args[KILN_LOWERING_MAX_RANK + 1];
  args[0] = t;
  for (size_t i = 0; i < rank; ++i) args[i + 1] = coords[i];
  return kiln_lowering_emit(b, "tensor.extract", t->type->shaped.element,
                            rank + 1, args, out);
}

kiln_status_t kiln_lowering_empty(kiln_ir_builder_t* b,
                                  const kiln_ir_type_t* type,
                                  kiln_ir_value_t** out) {
  return kiln_lowering_emit(b, "tensor.empty", type, 0, NULL, out);
}

kiln_status_t kiln_lowering_dim(kiln_ir_builder_t* b, kiln_ir_value_t* t,
                                size_t r, kiln_ir_value_t** out) {
  if (t->type->shaped.dims[r] != KILN_IR_DYNAMIC_DIM) {
    return kiln_lowering_index_const(b, t->type->shaped.dims[r], out);
  }
  return kiln_lowering_dynamic_dim(b, t, r, out);
}

kiln_status_t kiln_lowering_empty_like(kiln_ir_builder_t* b,
                                       const kiln_ir_type_t* type,
                                       kiln_ir_value_t* like,
                                       kiln_ir_value_t** out) {
  kiln_ir_value_t* sizes[KILN_LOWERING_MAX_RANK];
  uint32_t num_sizes = 0;
  for (size_t j = 0; j < type->shaped.rank; ++j) {
    if (type->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) continue;
    if (num_sizes == KILN_LOWERING_MAX_RANK || j >= like->type->shaped.rank) {
      return kiln_ir_emit_error(b->context, b->location,
                                "cannot size a dynamically shaped %s",
                                kiln_ir_type_to_string(b->context, type));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, like, j, &sizes[num_sizes++]));
  }
  return kiln_lowering_emit(b, "tensor.empty", type, num_sizes, sizes, out);
}

kiln_status_t kiln_lowering_fill(kiln_ir_builder_t* b, kiln_ir_value_t* value,
                                 kiln_ir_value_t* init, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* operands[2] = {value, init};
  int64_t seg[2] = {1, 1};
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      ctx, "operandSegmentSizes",
      kiln_ir_dense_i64_array_attr_get(ctx, kiln_ir_int_type(ctx, 32), 2, seg));
  attr.is_property = true;
  kiln_ir_op_t* fill = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "linalg.fill", 2, operands, 1, &init->type, 1, &attr, &fill));
  *out = kiln_ir_op_result(fill, 0);
  return kiln_ok_status();
}

// cf.assert |cond| with "<loc>: run-time shapes disagree: <what>".
static kiln_status_t kiln_lowering_assert_at(kiln_ir_builder_t* b,
                                             const kiln_ir_location_t* loc,
                                             kiln_ir_value_t* cond,
                                             const char* what) {
  kiln_ir_context_t* ctx = b->context;
  char message[512];
  int at = 0;
  if (loc && loc->kind == KILN_IR_LOC_FILE) {
    at = snprintf(message, sizeof(message), "%.*s:%u:%u: ", (int)loc->file.size,
                  loc->file.data, loc->line, loc->column);
  }
  // The op is often the lowering of the one the user wrote (a stablehlo.add
  // became a linalg.generic with the same operands): the location names it.
  snprintf(message + at, sizeof(message) - (size_t)at,
           "run-time shapes disagree: %s", what);
  kiln_ir_named_attribute_t msg = kiln_ir_named_attr(
      ctx, "msg",
      kiln_ir_string_attr_get(ctx, kiln_make_cstring_view(message)));
  kiln_ir_op_t* check = NULL;
  return kiln_ir_builder_create_simple(b, "cf.assert", 1, &cond, 0, NULL, 1,
                                       &msg, &check);
}

kiln_status_t kiln_lowering_assert(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                   kiln_ir_value_t* cond, const char* what) {
  return kiln_lowering_assert_at(b, op->location, cond, what);
}

// The cf.assert that dim |a_dim| of operand |a| and dim |c_dim| of operand
// |c| satisfy |predicate| (a KILN_CMPI_*); |broken| says what is wrong when
// they do not, with a %s for each operand's dim ("%s and %s differ").
static kiln_status_t kiln_lowering_assert_dim_pair(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, uint32_t a, size_t a_dim,
    uint32_t c, size_t c_dim, int64_t predicate, const char* broken) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* va = kiln_ir_op_operand(op, a);
  kiln_ir_value_t* vc = kiln_ir_op_operand(op, c);
  if (va->type->shaped.dims[a_dim] != KILN_IR_DYNAMIC_DIM &&
      vc->type->shaped.dims[c_dim] != KILN_IR_DYNAMIC_DIM) {
    return kiln_ok_status();  // both static: checked by the verifier
  }
  kiln_ir_value_t *da = NULL, *dc = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, va, a_dim, &da));
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, vc, c_dim, &dc));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, predicate, da, dc, &ok));
  char first[160], second[160], what[400];
  snprintf(first, sizeof(first), "dim %zu of operand %u (%s)", a_dim, a,
           kiln_ir_type_to_string(ctx, va->type));
  snprintf(second, sizeof(second), "dim %zu of operand %u (%s)", c_dim, c,
           kiln_ir_type_to_string(ctx, vc->type));
  snprintf(what, sizeof(what), broken, first, second);
  return kiln_lowering_assert(b, op, ok, what);
}

kiln_status_t kiln_lowering_host_loop(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                      kiln_ir_value_t* count,
                                      kiln_ir_value_t* init,
                                      kiln_lowering_loop_step_fn_t step,
                                      kiln_lowering_loop_step_fn_t finish,
                                      void* user) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_block_t* block = op->parent_block;
  kiln_ir_op_t* owner =
      block && block->parent_region ? block->parent_region->parent_op : NULL;
  if (!owner || !kiln_ir_op_is(owner, "func.func") || op->num_results != 1) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "needs a loop on the host, so it must be "
                                 "directly in a function body");
  }
  // ^block: ... br ^head(0, init)
  // ^head(j, v): cond_br j < count, ^body, ^exit
  // ^body: br ^head(j + 1, step(j, v))
  // ^exit: br ^cont(finish(v))   ^cont(result): the ops after |op|
  kiln_ir_block_t *cont = NULL, *head = NULL, *body = NULL, *exit = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_split_after(ctx, op, &cont));
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(ctx, &head));
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(ctx, &body));
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(ctx, &exit));
  kiln_ir_region_insert_block_after(head, block);
  kiln_ir_region_insert_block_after(body, head);
  kiln_ir_region_insert_block_after(exit, body);
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  kiln_ir_value_t *j = NULL, *v = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_block_add_arg(ctx, head, index, op->location, &j));
  KILN_RETURN_IF_ERROR(
      kiln_ir_block_add_arg(ctx, head, init->type, op->location, &v));
  kiln_ir_builder_t hb = *b;
  kiln_ir_builder_set_before(&hb, op);
  kiln_ir_value_t *zero, *one, *more, *next, *j1;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&hb, 0, &zero));
  kiln_ir_value_t* args[2] = {zero, init};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_br(&hb, head, 2, args));
  kiln_ir_builder_set_to_end(&hb, head);
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(&hb, KILN_CMPI_SLT, j, count, &more));
  kiln_ir_op_state_t st;
  kiln_ir_op_state_init(ctx, &st, "cf.cond_br", hb.location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &st, more));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_successor(ctx, &st, body, 0, NULL));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_successor(ctx, &st, exit, 0, NULL));
  kiln_ir_op_t* br = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(&hb, &st, &br));
  kiln_ir_builder_set_to_end(&hb, body);
  KILN_RETURN_IF_ERROR(step(&hb, j, v, user, &next));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&hb, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&hb, "arith.addi", j, one, &j1));
  args[0] = j1;
  args[1] = next;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_br(&hb, head, 2, args));
  kiln_ir_builder_set_to_end(&hb, exit);
  kiln_ir_value_t* result = v;
  if (finish) KILN_RETURN_IF_ERROR(finish(&hb, NULL, v, user, &result));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_br(&hb, cont, 1, &result));
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_assert_same_dim(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op, uint32_t a,
                                            size_t a_dim, uint32_t c,
                                            size_t c_dim) {
  return kiln_lowering_assert_dim_pair(b, op, a, a_dim, c, c_dim, KILN_CMPI_EQ,
                                       "%s and %s differ");
}

kiln_status_t kiln_lowering_assert_dim_at_most(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op, uint32_t a,
                                               size_t a_dim, uint32_t c,
                                               size_t c_dim) {
  return kiln_lowering_assert_dim_pair(b, op, a, a_dim, c, c_dim, KILN_CMPI_SLE,
                                       "%s exceeds %s");
}

kiln_status_t kiln_lowering_assert_dim_at_least(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op, uint32_t a,
                                                size_t a_dim, int64_t min) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* va = kiln_ir_op_operand(op, a);
  if (va->type->shaped.dims[a_dim] != KILN_IR_DYNAMIC_DIM) {
    return kiln_ok_status();  // static: checked by the verifier
  }
  kiln_ir_value_t *da = NULL, *limit = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, va, a_dim, &da));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, min, &limit));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_SGE, da, limit, &ok));
  char what[400];
  snprintf(what, sizeof(what), "dim %zu of operand %u (%s) is below %lld",
           a_dim, a, kiln_ir_type_to_string(ctx, va->type), (long long)min);
  return kiln_lowering_assert(b, op, ok, what);
}

// Splits |e| into |coef| (one per loop, added to) and |*constant| when it is
// a sum of non-negative multiples of loop dims and a non-negative constant
// (`oh * 2 + kh`, a window read); false for any other form.
static bool kiln_lowering_window_terms(const kiln_ir_affine_expr_t* e,
                                       int64_t scale, int64_t* coef,
                                       uint32_t num_loops, int64_t* constant) {
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
      if (e->value < 0 || e->value >= (int64_t)num_loops) return false;
      coef[e->value] += scale;
      return true;
    case KILN_IR_AFFINE_CONSTANT:
      if (e->value < 0 || e->value > INT32_MAX) return false;
      *constant += scale * e->value;
      return true;
    case KILN_IR_AFFINE_ADD:
      return kiln_lowering_window_terms(e->lhs, scale, coef, num_loops,
                                        constant) &&
             kiln_lowering_window_terms(e->rhs, scale, coef, num_loops,
                                        constant);
    case KILN_IR_AFFINE_MUL: {
      const kiln_ir_affine_expr_t* c = e->rhs;
      const kiln_ir_affine_expr_t* x = e->lhs;
      if (c->kind != KILN_IR_AFFINE_CONSTANT) {
        c = e->lhs;
        x = e->rhs;
      }
      if (c->kind != KILN_IR_AFFINE_CONSTANT || c->value < 0 ||
          c->value > INT32_MAX || scale > INT32_MAX) {
        return false;
      }
      return kiln_lowering_window_terms(x, scale * c->value, coef, num_loops,
                                        constant);
    }
    default:
      return false;
  }
}

kiln_status_t kiln_lowering_assert_window_fits(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, uint32_t a, size_t a_dim,
    const kiln_ir_affine_expr_t* e, const int64_t* extent_operand,
    const size_t* extent_dim, uint32_t num_loops) {
  kiln_ir_context_t* ctx = b->context;
  int64_t coef[KILN_LOWERING_MAX_LOOPS] = {0};
  int64_t constant = 0;
  if (num_loops > KILN_LOWERING_MAX_LOOPS ||
      !kiln_lowering_window_terms(e, 1, coef, num_loops, &constant)) {
    return kiln_ok_status();  // not a window read: nothing to bound
  }
  kiln_ir_value_t* va = kiln_ir_op_operand(op, a);
  bool dynamic = va->type->shaped.dims[a_dim] == KILN_IR_DYNAMIC_DIM;
  // The last element read, + 1: constant + sum coef * (extent - 1) + 1,
  // folded where the extent is static; needed only when no loop it reads
  // is empty.
  int64_t static_reach = constant + 1;
  for (uint32_t d = 0; d < num_loops; ++d) {
    if (coef[d] == 0) continue;
    if (extent_operand[d] < 0) return kiln_ok_status();  // no known extent
    int64_t extent = kiln_ir_op_operand(op, (uint32_t)extent_operand[d])
                         ->type->shaped.dims[extent_dim[d]];
    if (extent == 0) return kiln_ok_status();  // nothing is read
    if (extent == KILN_IR_DYNAMIC_DIM) {
      dynamic = true;
    } else {
      static_reach += coef[d] * (extent - 1);
    }
  }
  if (!dynamic) return kiln_ok_status();  // static: checked by the verifier
  kiln_ir_value_t *reach = NULL, *one = NULL, *zero = NULL, *empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, static_reach, &reach));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 0, &zero));
  for (uint32_t d = 0; d < num_loops; ++d) {
    if (coef[d] == 0) continue;
    kiln_ir_value_t* t = kiln_ir_op_operand(op, (uint32_t)extent_operand[d]);
    if (t->type->shaped.dims[extent_dim[d]] != KILN_IR_DYNAMIC_DIM) continue;
    kiln_ir_value_t *extent = NULL, *last = NULL, *c = NULL, *none = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_dynamic_dim(b, t, extent_dim[d], &extent));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(b, KILN_CMPI_EQ, extent, zero, &none));
    if (empty) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.ori", empty, none, &none));
    }
    empty = none;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.subi", extent, one, &last));
    if (coef[d] != 1) {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, coef[d], &c));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.muli", last, c, &last));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.addi", reach, last, &reach));
  }
  kiln_ir_value_t *size = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, va, a_dim, &size));
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_SGE, size, reach, &ok));
  if (empty) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.ori", ok, empty, &ok));
  }
  char what[400];
  snprintf(what, sizeof(what),
           "dim %zu of operand %u (%s) is smaller than the window read over "
           "it needs",
           a_dim, a, kiln_ir_type_to_string(ctx, va->type));
  return kiln_lowering_assert(b, op, ok, what);
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

// Groups the dims of |big| into the dims of |small|; false when they do
// not group contiguously. A run-time sized dim of |small| takes the dims of
// |big| up to and including its one run-time sized dim (so that its size is
// the product of the group's, or its dynamic dim the quotient); trailing
// dims after such a last group join it.
static bool kiln_lowering_group_dims(
    const kiln_ir_type_t* big, const kiln_ir_type_t* small,
    int64_t groups[KILN_LOWERING_MAX_RANK][KILN_LOWERING_MAX_RANK],
    int64_t* sizes) {
  size_t bi = 0;
  size_t nb = big->shaped.rank, ns = small->shaped.rank;
  if (nb > KILN_LOWERING_MAX_RANK) return false;
  if (ns == 0) {
    for (size_t i = 0; i < nb; ++i) {
      if (big->shaped.dims[i] != 1) return false;
    }
    return true;
  }
  for (size_t si = 0; si < ns; ++si) {
    sizes[si] = 0;
    int64_t want = small->shaped.dims[si];
    if (want == KILN_IR_DYNAMIC_DIM) {
      bool dynamic = false;
      while (!dynamic) {
        if (bi >= nb) return false;
        dynamic = big->shaped.dims[bi] == KILN_IR_DYNAMIC_DIM;
        groups[si][sizes[si]++] = (int64_t)bi++;
      }
      continue;
    }
    int64_t product = 1;
    do {
      if (bi >= nb || big->shaped.dims[bi] == KILN_IR_DYNAMIC_DIM) {
        return false;
      }
      product *= big->shaped.dims[bi];
      groups[si][sizes[si]++] = (int64_t)bi++;
    } while (product < want);
    if (product != want) return false;
  }
  bool last_dynamic = small->shaped.dims[ns - 1] == KILN_IR_DYNAMIC_DIM;
  while (bi < nb) {  // trailing 1s (any static dims after ?) join the last
    if (big->shaped.dims[bi] == KILN_IR_DYNAMIC_DIM ||
        (!last_dynamic && big->shaped.dims[bi] != 1)) {
      return false;
    }
    groups[ns - 1][sizes[ns - 1]++] = (int64_t)bi++;
  }
  return true;
}

// tensor.expand_shape (|rt| of higher rank) or collapse_shape of |input|
// into |rt| along the |num_groups| groups |groups| (|group_sizes| dims
// each), with the |num_sizes| run-time output sizes |sizes| of an expand.
static kiln_status_t kiln_lowering_view(
    kiln_ir_builder_t* b, kiln_ir_value_t* input, const kiln_ir_type_t* rt,
    size_t num_groups,
    int64_t groups[KILN_LOWERING_MAX_RANK][KILN_LOWERING_MAX_RANK],
    const int64_t* group_sizes, uint32_t num_sizes,
    kiln_ir_value_t* const* sizes, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  bool expand = rt->shaped.rank > input->type->shaped.rank;
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  const kiln_ir_attribute_t* elems[KILN_LOWERING_MAX_RANK];
  for (size_t g = 0; g < num_groups; ++g) {
    const kiln_ir_attribute_t* ints[KILN_LOWERING_MAX_RANK];
    for (int64_t j = 0; j < group_sizes[g]; ++j) {
      ints[j] = kiln_ir_integer_attr_get(ctx, i64, groups[g][j]);
    }
    elems[g] = kiln_ir_array_attr_get(ctx, (size_t)group_sizes[g], ints);
  }
  kiln_ir_named_attribute_t attrs[2];
  size_t num_attrs = 0;
  attrs[num_attrs++] = kiln_ir_named_attr(
      ctx, "reassociation", kiln_ir_array_attr_get(ctx, num_groups, elems));
  if (expand) {
    attrs[num_attrs++] = kiln_ir_named_attr(
        ctx, "static_output_shape",
        kiln_dialect_i64_array(ctx, rt->shaped.rank, rt->shaped.dims));
  }
  kiln_ir_value_t* operands[1 + KILN_LOWERING_MAX_RANK];
  operands[0] = input;
  for (uint32_t i = 0; expand && i < num_sizes; ++i) operands[1 + i] = sizes[i];
  kiln_ir_op_t* reshape = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, expand ? "tensor.expand_shape" : "tensor.collapse_shape",
      1 + (expand ? num_sizes : 0), operands, 1, &rt, num_attrs, attrs,
      &reshape));
  *out = kiln_ir_op_result(reshape, 0);
  return kiln_ok_status();
}

// The product of |v|'s dims (read at run time where dynamic) as an index.
static kiln_status_t kiln_lowering_count(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* v,
                                         kiln_ir_value_t** out) {
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, out));
  for (size_t d = 0; d < v->type->shaped.rank; ++d) {
    kiln_ir_value_t* dim = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, v, d, &dim));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.muli", *out, dim, out));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_sizes_from_shape(kiln_ir_builder_t* b,
                                             kiln_ir_value_t* shape,
                                             const kiln_ir_type_t* rt,
                                             kiln_ir_value_t** sizes,
                                             uint32_t* num_sizes) {
  const kiln_ir_type_t* se = shape->type->shaped.element;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(b->context);
  *num_sizes = 0;
  for (size_t j = 0; j < rt->shaped.rank; ++j) {
    if (rt->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) continue;
    kiln_ir_value_t *at = NULL, *args[2], *v = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, (int64_t)j, &at));
    args[0] = shape;
    args[1] = at;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(b, "tensor.extract", se, 2, args, &v));
    // Always a cast (index to index too): the host reads a shape entry back
    // through it (kiln_schedule_is_shape_op).
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(b, "arith.index_cast", index, 1, &v,
                                            &sizes[(*num_sizes)++]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_reshape(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    kiln_ir_value_t* input,
                                    const kiln_ir_type_t* rt,
                                    uint32_t num_sizes,
                                    kiln_ir_value_t* const* sizes,
                                    kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* in = input->type;
  *out = input;
  // (With run-time sizes the same type may still be another shape.)
  if (in == rt && !num_sizes) return kiln_ok_status();
  uint32_t rt_dynamic = 0;
  for (size_t d = 0; d < rt->shaped.rank; ++d) {
    rt_dynamic += rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
  }
  bool dynamic =
      !kiln_ir_type_has_static_shape(in) || !kiln_ir_type_has_static_shape(rt);
  if ((num_sizes && num_sizes != rt_dynamic) ||
      in->shaped.rank > KILN_LOWERING_MAX_RANK ||
      rt->shaped.rank > KILN_LOWERING_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "cannot reshape %s into %s",
                                 kiln_ir_type_to_string(ctx, in),
                                 kiln_ir_type_to_string(ctx, rt));
  }
  int64_t groups[KILN_LOWERING_MAX_RANK][KILN_LOWERING_MAX_RANK];
  int64_t group_sizes[KILN_LOWERING_MAX_RANK] = {0};
  bool expand = rt->shaped.rank > in->shaped.rank;
  if (!num_sizes && in->shaped.rank != rt->shaped.rank &&
      kiln_lowering_group_dims(expand ? rt : in, expand ? in : rt, groups,
                               group_sizes)) {
    KILN_RETURN_IF_ERROR(kiln_lowering_view(
        b, input, rt, expand ? in->shaped.rank : rt->shaped.rank, groups,
        group_sizes, 0, NULL, out));
  } else {
    // Through 1-D: collapse every dim, then expand.
    if (rt_dynamic > 1 && !num_sizes) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "cannot reshape %s into %s: more than one run-time result dim "
          "and no sizes for them",
          kiln_ir_type_to_string(ctx, in), kiln_ir_type_to_string(ctx, rt));
    }
    if ((in->shaped.rank == 0 || rt->shaped.rank == 0) && dynamic) {
      return kiln_ir_op_emit_error(
          op, ctx, "cannot reshape %s into %s: rank 0 with run-time dims",
          kiln_ir_type_to_string(ctx, in), kiln_ir_type_to_string(ctx, rt));
    }
    int64_t count = kiln_ir_type_has_static_shape(in)
                        ? kiln_ir_type_num_elements(in)
                        : KILN_IR_DYNAMIC_DIM;
    const kiln_ir_type_t* flat =
        kiln_ir_tensor_type_get(ctx, 1, &count, rt->shaped.element, NULL);
    kiln_ir_value_t* mid = input;
    int64_t all[KILN_LOWERING_MAX_RANK][KILN_LOWERING_MAX_RANK];
    for (size_t d = 0; d < KILN_LOWERING_MAX_RANK; ++d) all[0][d] = (int64_t)d;
    if (in != flat) {
      int64_t n = (int64_t)in->shaped.rank;
      // Rank 0 to 1-D: an expand with no groups.
      KILN_RETURN_IF_ERROR(kiln_lowering_view(b, input, flat, n ? 1 : 0, all,
                                              &n, 0, NULL, &mid));
    }
    int64_t n = (int64_t)rt->shaped.rank;
    if (rt->shaped.rank == 1) {
      // tensor.cast between ? and a static count (checked at run time).
      if (rt != flat) {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit(b, "tensor.cast", rt, 1, &mid, &mid));
      }
      *out = mid;
    } else if (rt->shaped.rank == 0) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_view(b, mid, rt, 0, all, &n, 0, NULL, out));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_view(b, mid, rt, 1, all, &n, num_sizes, sizes, out));
    }
  }
  if (!dynamic) return kiln_ok_status();
  // The result's sizes (given, or quotients of the input's) must hold the
  // input's elements exactly.
  kiln_ir_value_t *have = NULL, *want = NULL, *ok = NULL, *zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_count(b, input, &have));
  if (num_sizes) {
    // From the given sizes (a 1-D result passes the input through).
    uint32_t k = 0;
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &want));
    for (size_t d = 0; d < rt->shaped.rank; ++d) {
      kiln_ir_value_t* dim = NULL;
      if (rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
        dim = sizes[k++];
      } else {
        KILN_RETURN_IF_ERROR(
            kiln_lowering_index_const(b, rt->shaped.dims[d], &dim));
      }
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.muli", want, dim, &want));
    }
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_count(b, *out, &want));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_EQ, have, want, &ok));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 0, &zero));
  for (uint32_t i = 0; i < num_sizes; ++i) {
    kiln_ir_value_t* ge = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmpi(b, KILN_CMPI_SGE, sizes[i], zero, &ge));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.andi", ok, ge, &ok));
  }
  char what[400];
  snprintf(what, sizeof(what),
           "reshaping %s into %s: the element counts differ or a size is "
           "negative",
           kiln_ir_type_to_string(ctx, in), kiln_ir_type_to_string(ctx, rt));
  return kiln_lowering_assert(b, op, ok, what);
}

kiln_status_t kiln_lowering_reshape_to_shape(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op) {
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_ir_value_t* sizes[KILN_LOWERING_MAX_RANK];
  uint32_t num_sizes = 0;
  kiln_ir_value_t* result = NULL;
  if (rt->shaped.rank > KILN_LOWERING_MAX_RANK) {
    return kiln_ir_op_emit_error(op, b->context, "rank %zu is not supported",
                                 rt->shaped.rank);
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_sizes_from_shape(
      b, kiln_ir_op_operand(op, 1), rt, sizes, &num_sizes));
  KILN_RETURN_IF_ERROR(kiln_lowering_reshape(b, op, kiln_ir_op_operand(op, 0),
                                             rt, num_sizes, sizes, &result));
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_window_empty(
    kiln_ir_builder_t* b, const kiln_ir_type_t* type, kiln_ir_value_t* input,
    const int64_t* src_dim, const int64_t* span, const int64_t* stride,
    kiln_ir_value_t* const* given, kiln_ir_value_t** out) {
  kiln_ir_value_t* sizes[KILN_LOWERING_MAX_RANK];
  uint32_t num_sizes = 0;
  for (size_t r = 0; r < type->shaped.rank; ++r) {
    if (type->shaped.dims[r] != KILN_IR_DYNAMIC_DIM) continue;
    if (given && given[r]) {
      if (num_sizes == KILN_LOWERING_MAX_RANK) {
        return kiln_ir_emit_error(b->context, b->location,
                                  "cannot size run-time dim %zu of %s", r,
                                  kiln_ir_type_to_string(b->context, type));
      }
      sizes[num_sizes++] = given[r];
      continue;
    }
    kiln_ir_value_t* size = NULL;
    if (num_sizes == KILN_LOWERING_MAX_RANK || src_dim[r] < 0 ||
        (size_t)src_dim[r] >= input->type->shaped.rank) {
      return kiln_ir_emit_error(b->context, b->location,
                                "cannot size run-time dim %zu of %s", r,
                                kiln_ir_type_to_string(b->context, type));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_dim(b, input, (size_t)src_dim[r], &size));
    if (span[r] != 1 || stride[r] != 1) {
      kiln_ir_value_t *c = NULL, *one = NULL, *span_c = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, span[r], &span_c));
      if (span[r] > 1 &&
          input->type->shaped.dims[src_dim[r]] == KILN_IR_DYNAMIC_DIM) {
        // An image smaller than one window has no output position: the
        // call fails (an empty result would hide the bad input).
        kiln_ir_value_t* ok = NULL;
        char what[400];
        KILN_RETURN_IF_ERROR(
            kiln_lowering_cmpi(b, KILN_CMPI_SGE, size, span_c, &ok));
        snprintf(what, sizeof(what),
                 "dim %lld of the input (%s, padding included) is smaller "
                 "than one window (%lld)",
                 (long long)src_dim[r],
                 kiln_ir_type_to_string(b->context, input->type),
                 (long long)span[r]);
        KILN_RETURN_IF_ERROR(kiln_lowering_assert_at(b, b->location, ok, what));
      }
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.subi", size, span_c, &size));
      if (stride[r] != 1) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, stride[r], &c));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(b, "arith.divsi", size, c, &size));
      }
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.addi", size, one, &size));
    }
    sizes[num_sizes++] = size;
  }
  return kiln_lowering_emit(b, "tensor.empty", type, num_sizes, sizes, out);
}

kiln_status_t kiln_lowering_empty_from(kiln_ir_builder_t* b,
                                       const kiln_ir_type_t* type, uint32_t n,
                                       kiln_ir_value_t* const* inputs,
                                       const kiln_ir_attribute_t* const* maps,
                                       kiln_ir_value_t** out) {
  if (kiln_ir_type_has_static_shape(type)) {
    return kiln_lowering_empty(b, type, out);
  }
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* sizes[KILN_LOWERING_MAX_RANK];
  uint32_t num_sizes = 0;
  for (size_t j = 0; j < type->shaped.rank; ++j) {
    if (type->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) continue;
    kiln_ir_value_t* size = NULL;
    for (uint32_t i = 0; i < n && !size; ++i) {
      const kiln_ir_type_t* t = inputs[i]->type;
      const kiln_ir_attribute_t* m = maps[i];
      if (!kiln_ir_type_is_ranked_tensor(t) || !m ||
          m->kind != KILN_IR_ATTR_AFFINE_MAP) {
        continue;
      }
      for (size_t r = 0; r < t->shaped.rank; ++r) {
        int64_t pos = 0;
        if (kiln_ir_affine_map_result_is_dim(m->affine_map, r, &pos) &&
            pos == (int64_t)j) {
          KILN_RETURN_IF_ERROR(kiln_lowering_dim(b, inputs[i], r, &size));
          break;
        }
      }
    }
    if (!size || num_sizes == KILN_LOWERING_MAX_RANK) {
      return kiln_ir_emit_error(ctx, b->location,
                                "the run-time size of dim %zu of %s is not "
                                "the size of an operand's dim",
                                j, kiln_ir_type_to_string(ctx, type));
    }
    sizes[num_sizes++] = size;
  }
  return kiln_lowering_emit(b, "tensor.empty", type, num_sizes, sizes, out);
}

kiln_status_t kiln_lowering_linalg_index(kiln_ir_builder_t* b, int64_t dim,
                                         kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      ctx, "dim",
      kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), dim));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(b, "linalg.index", 0, NULL,
                                                     1, &index, 1, &attr, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

kiln_ir_builder_t kiln_lowering_body_builder(kiln_ir_builder_t* b,
                                             kiln_ir_block_t* body) {
  kiln_ir_builder_t bb = kiln_ir_builder_make(b->context);
  kiln_ir_builder_set_to_end(&bb, body);
  bb.location = b->location;
  return bb;
}

kiln_status_t kiln_lowering_yield(kiln_ir_builder_t* bb, size_t n,
                                  kiln_ir_value_t* const* values) {
  kiln_ir_op_t* op = NULL;
  return kiln_ir_builder_create_simple(bb, "linalg.yield", n, values, 0, NULL,
                                       0, NULL, &op);
}

// A parallel generic writing |input| (read through |input_map|) to every
// element of |init|.
static kiln_status_t kiln_lowering_copy_into(
    kiln_ir_builder_t* b, kiln_ir_value_t* input,
    const kiln_ir_attribute_t* input_map, kiln_ir_value_t* init,
    kiln_ir_value_t** out) {
  uint32_t rank = (uint32_t)init->type->shaped.rank;
  const kiln_ir_attribute_t* maps[2] = {
      input_map, kiln_linalg_identity_map(b->context, rank)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &input, 1, &init, maps,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &body->args[0]));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_broadcast_into(kiln_ir_builder_t* b,
                                           kiln_ir_value_t* value,
                                           kiln_ir_value_t* init,
                                           kiln_ir_value_t** out) {
  uint32_t rank = (uint32_t)init->type->shaped.rank;
  return kiln_lowering_copy_into(
      b, value, kiln_ir_affine_map_attr_get(b->context, rank, 0, 0, NULL), init,
      out);
}

kiln_status_t kiln_lowering_copy_through_map(
    kiln_ir_builder_t* b, kiln_ir_value_t* input,
    const kiln_ir_attribute_t* input_map, const kiln_ir_type_t* result_type,
    kiln_ir_value_t** out) {
  kiln_ir_value_t* init = NULL;
  // A dynamic result is sized by the input dims its map reads.
  KILN_RETURN_IF_ERROR(
      kiln_lowering_empty_from(b, result_type, 1, &input, &input_map, &init));
  return kiln_lowering_copy_into(b, input, input_map, init, out);
}

kiln_status_t kiln_lowering_generic_over(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* init,
                                         kiln_ir_op_t** out_generic,
                                         kiln_ir_builder_t* out_bb) {
  uint32_t rank = (uint32_t)init->type->shaped.rank;
  const kiln_ir_attribute_t* map = kiln_linalg_identity_map(b->context, rank);
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 0, NULL, 1, &init, &map, rank, NULL, out_generic, &body));
  *out_bb = kiln_lowering_body_builder(b, body);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_iota(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                 kiln_ir_value_t* init, int64_t dim) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, dim, &v));
  const kiln_ir_type_t* e = init->type->shaped.element;
  if (kiln_lowering_is_float(e)) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(
        &bb, "arith.index_cast", kiln_ir_int_type(ctx, 64), 1, &v, &v));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "arith.sitofp", e, 1, &v, &v));
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.index_cast", e, 1, &v, &v));
  }
  return kiln_lowering_yield_and_replace(&bb, v, op, generic);
}

kiln_status_t kiln_lowering_reverse(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    const bool* reversed) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  if (rank > KILN_LOWERING_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u above %d", rank,
                                 KILN_LOWERING_MAX_RANK);
  }
  if (kiln_ir_type_has_static_shape(rt)) {
    // Static sizes: a copy through the map d -> size - 1 - d.
    const kiln_ir_affine_expr_t* exprs[KILN_LOWERING_MAX_RANK];
    for (uint32_t d = 0; d < rank; ++d) {
      exprs[d] = kiln_ir_affine_dim(ctx, d);
      if (!reversed[d]) continue;
      exprs[d] = kiln_ir_affine_binary(
          ctx, KILN_IR_AFFINE_ADD,
          kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MUL, exprs[d],
                                kiln_ir_affine_constant(ctx, -1)),
          kiln_ir_affine_constant(ctx, rt->shaped.dims[d] - 1));
    }
    return kiln_lowering_replace_by_copy(
        b, op, input, kiln_ir_affine_map_attr_get(ctx, rank, 0, rank, exprs));
  }
  // Run-time sizes: element i of a reversed dim reads size - 1 - i, the
  // size read at host level.
  kiln_ir_value_t* size[KILN_LOWERING_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    size[d] = NULL;
    if (reversed[d] && rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, input, d, &size[d]));
    }
  }
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, input, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(b, init, &generic, &bb));
  kiln_ir_value_t* coords[KILN_LOWERING_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &coords[d]));
    if (!reversed[d]) continue;
    kiln_ir_value_t* last = NULL;
    if (size[d]) {
      kiln_ir_value_t* one = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 1, &one));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.subi", size[d], one, &last));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(&bb, rt->shaped.dims[d] - 1, &last));
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", last, coords[d], &coords[d]));
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_extract(&bb, input, coords, &v));
  return kiln_lowering_yield_and_replace(&bb, v, op, generic);
}

kiln_status_t kiln_lowering_replace_by_copy(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* input,
    const kiln_ir_attribute_t* input_map) {
  kiln_ir_value_t* copy = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
      b, input, input_map, op->results[0].type, &copy));
  kiln_lowering_replace(op, copy);
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_yield_and_replace(kiln_ir_builder_t* bb,
                                              kiln_ir_value_t* v,
                                              kiln_ir_op_t* op,
                                              kiln_ir_op_t* generic) {
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(bb, 1, &v));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Rewriting and types
//===----------------------------------------------------------------------===//

void kiln_lowering_replace(kiln_ir_op_t* op, kiln_ir_value_t* value) {
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0), value);
  kiln_ir_op_erase(op);
}

bool kiln_lowering_is_float(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_FLOAT;
}

bool kiln_lowering_is_unsigned(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_INTEGER &&
         (t->integer.signedness == KILN_IR_UNSIGNED || t->integer.width == 1);
}

//===----------------------------------------------------------------------===//
// Scalar body emitter with a sticky status
//===----------------------------------------------------------------------===//

void kiln_lowering_em_init(kiln_lowering_emitter_t* r, kiln_ir_builder_t* b,
                           kiln_ir_block_t* body) {
  r->ctx = b->context;
  r->status = kiln_ok_status();
  r->b = kiln_ir_builder_make(b->context);
  kiln_ir_builder_set_to_end(&r->b, body);
  r->b.location = b->location;
}

kiln_ir_value_t* kiln_lowering_em_op(kiln_lowering_emitter_t* r,
                                     const char* name,
                                     const kiln_ir_type_t* type, size_t n,
                                     kiln_ir_value_t** args, size_t num_attrs,
                                     kiln_ir_named_attribute_t* attrs) {
  if (r->status) return NULL;
  for (size_t i = 0; i < n; ++i) {
    if (!args[i]) return NULL;
  }
  kiln_ir_op_t* op = NULL;
  r->status = kiln_ir_builder_create_simple(&r->b, name, n, args, 1, &type,
                                            num_attrs, attrs, &op);
  return r->status ? NULL : kiln_ir_op_result(op, 0);
}

kiln_ir_value_t* kiln_lowering_em_bin(kiln_lowering_emitter_t* r,
                                      const char* name, kiln_ir_value_t* a,
                                      kiln_ir_value_t* c) {
  kiln_ir_value_t* args[2] = {a, c};
  return a ? kiln_lowering_em_op(r, name, a->type, 2, args, 0, NULL) : NULL;
}

kiln_ir_value_t* kiln_lowering_em_un(kiln_lowering_emitter_t* r,
                                     const char* name, kiln_ir_value_t* a,
                                     const kiln_ir_type_t* type) {
  return kiln_lowering_em_op(r, name, type ? type : (a ? a->type : NULL), 1, &a,
                             0, NULL);
}

kiln_ir_value_t* kiln_lowering_em_const(kiln_lowering_emitter_t* r,
                                        const kiln_ir_type_t* type,
                                        const kiln_ir_attribute_t* value) {
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(r->ctx, "value", value);
  return kiln_lowering_em_op(r, "arith.constant", type, 0, NULL, 1, &attr);
}

kiln_ir_value_t* kiln_lowering_em_int(kiln_lowering_emitter_t* r,
                                      const kiln_ir_type_t* type, int64_t v) {
  kiln_scalar_t s;
  memset(&s, 0, sizeof(s));
  s.i = kiln_scalar_canon_int(type, v);
  return kiln_lowering_em_const(r, type, kiln_scalar_to_attr(r->ctx, type, s));
}

kiln_ir_value_t* kiln_lowering_em_float(kiln_lowering_emitter_t* r,
                                        const kiln_ir_type_t* type, double v) {
  return kiln_lowering_em_const(r, type,
                                kiln_ir_float_attr_get(r->ctx, type, v));
}

kiln_ir_value_t* kiln_lowering_em_cmpi(kiln_lowering_emitter_t* r,
                                       int64_t predicate, kiln_ir_value_t* a,
                                       kiln_ir_value_t* c) {
  kiln_ir_value_t* args[2] = {a, c};
  kiln_ir_named_attribute_t attr =
      kiln_ir_named_attr(r->ctx, "predicate",
                         kiln_ir_integer_attr_get(
                             r->ctx, kiln_ir_int_type(r->ctx, 64), predicate));
  return kiln_lowering_em_op(r, "arith.cmpi", kiln_ir_int_type(r->ctx, 1), 2,
                             args, 1, &attr);
}

kiln_ir_value_t* kiln_lowering_em_select(kiln_lowering_emitter_t* r,
                                         kiln_ir_value_t* c, kiln_ir_value_t* x,
                                         kiln_ir_value_t* y) {
  kiln_ir_value_t* args[3] = {c, x, y};
  return x ? kiln_lowering_em_op(r, "arith.select", x->type, 3, args, 0, NULL)
           : NULL;
}

kiln_ir_value_t* kiln_lowering_em_index_i64(kiln_lowering_emitter_t* r,
                                            int64_t dim) {
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      r->ctx, "dim",
      kiln_ir_integer_attr_get(r->ctx, kiln_ir_int_type(r->ctx, 64), dim));
  kiln_ir_value_t* idx = kiln_lowering_em_op(
      r, "linalg.index", kiln_ir_index_type_get(r->ctx), 0, NULL, 1, &attr);
  return kiln_lowering_em_un(r, "arith.index_cast", idx,
                             kiln_ir_int_type(r->ctx, 64));
}

kiln_status_t kiln_lowering_em_yield(kiln_lowering_emitter_t* r,
                                     kiln_ir_value_t* v) {
  if (r->status) return r->status;
  if (!v) return kiln_make_status(KILN_STATUS_INTERNAL, "no value to yield");
  kiln_ir_op_t* op = NULL;
  return kiln_ir_builder_create_simple(&r->b, "linalg.yield", 1, &v, 0, NULL, 0,
                                       NULL, &op);
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

kiln_status_t kiln_lowering_elementwise_maps(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, uint32_t n,
    const kiln_ir_attribute_t* const* maps, kiln_lowering_scalar_fn_t scalar) {
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_ir_value_t* inputs[KILN_LOWERING_MAX_ELEMENTWISE_OPERANDS];
  if (n > KILN_LOWERING_MAX_ELEMENTWISE_OPERANDS) {
    return kiln_ir_op_emit_error(op, b->context, "too many operands");
  }
  for (uint32_t i = 0; i < n; ++i) inputs[i] = kiln_ir_op_operand(op, i);
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_from(b, rt, n, inputs, maps, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, n, inputs, 1, &init, maps,
                                                  (uint32_t)rt->shaped.rank,
                                                  NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* result = NULL;
  KILN_RETURN_IF_ERROR(
      scalar(&bb, op, body->args, rt->shaped.element, &result));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &result));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

kiln_status_t kiln_lowering_elementwise(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                        kiln_lowering_scalar_fn_t scalar) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)op->results[0].type->shaped.rank;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_attribute_t* maps[KILN_LOWERING_MAX_ELEMENTWISE_OPERANDS + 1];
  if (n > KILN_LOWERING_MAX_ELEMENTWISE_OPERANDS) {
    return kiln_ir_op_emit_error(op, ctx, "too many operands");
  }
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    maps[i] = (t->shaped.rank == 0 && rank != 0)
                  ? kiln_ir_affine_map_attr_get(ctx, rank, 0, 0, NULL)
                  : kiln_linalg_identity_map(ctx, rank);
  }
  maps[n] = kiln_linalg_identity_map(ctx, rank);
  return kiln_lowering_elementwise_maps(b, op, n, maps, scalar);
}

bool kiln_lowering_is_arith_math(const kiln_ir_op_t* op) {
  kiln_string_view_t dialect = kiln_ir_op_dialect(op);
  return kiln_string_view_equal_cstr(dialect, "arith") ||
         kiln_string_view_equal_cstr(dialect, "math");
}

bool kiln_lowering_is_tensor_arith_math(const kiln_ir_op_t* op) {
  if (!kiln_lowering_is_arith_math(op)) return false;
  return !kiln_ir_op_is(op, "arith.constant") && op->num_results == 1 &&
         kiln_ir_type_is_ranked_tensor(op->results[0].type);
}

kiln_status_t kiln_lowering_arith_math_scalar(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op,
                                              kiln_ir_value_t** args,
                                              const kiln_ir_type_t* result_elem,
                                              kiln_ir_value_t** out) {
  char* name = kiln_ir_arena_printf(b->context, "%.*s", (int)op->name.size,
                                    op->name.data);
  kiln_ir_op_t* scalar = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, name, kiln_ir_op_num_regular_operands(op), args, 1, &result_elem,
      op->num_attributes, op->attributes, &scalar));
  *out = kiln_ir_op_result(scalar, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_lower_elementwise_op(kiln_ir_builder_t* b,
                                        kiln_ir_op_t* op) {
  if (!kiln_lowering_is_tensor_arith_math(op)) return kiln_ok_status();
  return kiln_lowering_elementwise(b, op, kiln_lowering_arith_math_scalar);
}

//===----------------------------------------------------------------------===//
// Driver entry
//===----------------------------------------------------------------------===//

// Input ops on dynamically shaped tensors are rejected with a located
// error (the structured form and the backends need static shapes today).
static kiln_status_t kiln_lowering_check_static_shapes(kiln_ir_context_t* ctx,
                                                       kiln_ir_op_t* op) {
  kiln_string_view_t d = kiln_ir_op_dialect(op);
  if (!kiln_string_view_equal_cstr(d, "stablehlo") &&
      !kiln_string_view_equal_cstr(d, "tosa") &&
      !kiln_string_view_equal_cstr(d, "arith") &&
      !kiln_string_view_equal_cstr(d, "math")) {
    return kiln_ok_status();
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  bool lowers_dynamic =
      kiln_ir_op_has_trait(op, KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES) ||
      kiln_lowering_is_tensor_arith_math(op);
  // Ops whose lowering handles dynamic operands (loop bounds from the
  // operands at run time) as long as their results are static.
  bool dynamic_operands_ok = kiln_ir_op_is(op, "stablehlo.scatter");
  for (uint32_t i = dynamic_operands_ok ? n : 0; i < n + op->num_results; ++i) {
    const kiln_ir_type_t* t =
        i < n ? kiln_ir_op_operand(op, i)->type : op->results[i - n].type;
    if (kiln_ir_type_is_shaped(t) && !kiln_ir_type_has_static_shape(t) &&
        !lowers_dynamic) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "dynamically shaped %s is not supported yet",
                                   kiln_ir_type_to_string(ctx, t));
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_lower_to_structured_op(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_lowering_check_static_shapes(b->context, op));
  if (!op->def) {
    // An unregistered op of an input dialect (--allow-unregistered-dialect)
    // has no definition to route on: the one name test left.
    if (kiln_string_view_equal_cstr(kiln_ir_op_dialect(op), "stablehlo")) {
      return kiln_ir_emit_error(b->context, op->location,
                                "'%.*s' is not a supported op",
                                (int)op->name.size, op->name.data);
    }
    return kiln_ok_status();
  }
  if (!op->def->lower_to_structured) return kiln_ok_status();
  kiln_ir_builder_t ob = *b;
  kiln_ir_builder_set_before(&ob, op);
  ob.location = op->location;
  return op->def->lower_to_structured(&ob, op);
}

static kiln_status_t kiln_lowering_register_copies(
    kiln_ir_context_t* context, const kiln_ir_op_def_t* defs, size_t count,
    kiln_ir_lower_fn_t hook,
    kiln_ir_lower_fn_t (*pick)(const kiln_ir_op_def_t* def)) {
  kiln_ir_op_def_t* copies =
      kiln_ir_arena_alloc(context, sizeof(*copies) * (count ? count : 1));
  if (!copies) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "op definitions");
  }
  for (size_t i = 0; i < count; ++i) {
    copies[i] = defs[i];
    copies[i].lower_to_structured = pick ? pick(&defs[i]) : hook;
  }
  return kiln_ir_register_ops(context, copies, count);
}

kiln_status_t kiln_lowering_register_ops(kiln_ir_context_t* context,
                                         const kiln_ir_op_def_t* defs,
                                         size_t count,
                                         kiln_ir_lower_fn_t hook) {
  return kiln_lowering_register_copies(context, defs, count, hook, NULL);
}

kiln_status_t kiln_lowering_register_ops_picked(
    kiln_ir_context_t* context, const kiln_ir_op_def_t* defs, size_t count,
    kiln_ir_lower_fn_t (*pick)(const kiln_ir_op_def_t* def)) {
  return kiln_lowering_register_copies(context, defs, count, NULL, pick);
}
