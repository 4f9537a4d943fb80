#include "compiler/dispatch/structured.h"

#include <string.h>

#include "compiler/ir/builder.h"

bool kiln_structured_op_is(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "linalg.generic") ||
         kiln_ir_op_is(op, "linalg.matmul") ||
         kiln_ir_op_is(op, "linalg.batch_matmul") ||
         kiln_ir_op_is(op, "linalg.fill");
}

// A map (d0..d{num_dims-1}) -> (d{dims[0]}, ...).
static const kiln_ir_affine_map_t* kiln_make_dim_map(kiln_ir_context_t* context,
                                                     uint32_t num_dims,
                                                     size_t count,
                                                     const int64_t* dims) {
  const kiln_ir_affine_expr_t* exprs[KILN_STRUCTURED_MAX_DIMS];
  for (size_t i = 0; i < count; ++i) {
    exprs[i] = kiln_ir_affine_dim(context, dims[i]);
    if (!exprs[i]) return NULL;
  }
  const kiln_ir_attribute_t* attr =
      kiln_ir_affine_map_attr_get(context, num_dims, 0, count, exprs);
  return attr ? attr->affine_map : NULL;
}

// "parallel"/"reduction" from a string or #linalg.iterator_type<...> attr.
static bool kiln_iterator_is_reduction(const kiln_ir_attribute_t* attr) {
  kiln_string_view_t text = kiln_string_view_empty();
  if (attr->kind == KILN_IR_ATTR_STRING || attr->kind == KILN_IR_ATTR_KEYWORD) {
    text = attr->str;
  } else if (attr->kind == KILN_IR_ATTR_DIALECT) {
    text = kiln_ir_dialect_attr_keyword(attr);
    if (text.size == 0) text = attr->dialect.text;
  }
  for (size_t i = 0; i + 9 <= text.size; ++i) {
    if (memcmp(text.data + i, "reduction", 9) == 0) return true;
  }
  return false;
}

kiln_status_t kiln_structured_op_get(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op,
                                     kiln_structured_op_t* out) {
  memset(out, 0, sizeof(*out));
  out->op = op;
  uint32_t num_operands = kiln_ir_op_num_regular_operands(op);
  out->num_outs = op->num_results;
  if (num_operands < out->num_outs ||
      num_operands > KILN_STRUCTURED_MAX_OPERANDS) {
    return kiln_ir_op_emit_error(op, context,
                                 "unsupported operand count %u for %u results",
                                 num_operands, op->num_results);
  }
  out->num_ins = num_operands - out->num_outs;
  if (kiln_ir_op_is(op, "linalg.generic")) {
    out->kind = KILN_STRUCTURED_GENERIC;
    const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
    const kiln_ir_attribute_t* iters =
        kiln_ir_op_get_attr(op, "iterator_types");
    if (!maps || maps->kind != KILN_IR_ATTR_ARRAY ||
        maps->array.count != num_operands || !iters ||
        iters->kind != KILN_IR_ATTR_ARRAY) {
      return kiln_ir_op_emit_error(
          op, context,
          "expects indexing_maps (one per operand) and iterator_types");
    }
    out->num_dims = (uint32_t)iters->array.count;
    if (out->num_dims > KILN_STRUCTURED_MAX_DIMS) {
      return kiln_ir_op_emit_error(op, context, "more than %d loops",
                                   KILN_STRUCTURED_MAX_DIMS);
    }
    for (uint32_t d = 0; d < out->num_dims; ++d) {
      out->is_reduction[d] =
          kiln_iterator_is_reduction(iters->array.elements[d]);
    }
    for (uint32_t i = 0; i < num_operands; ++i) {
      const kiln_ir_attribute_t* m = maps->array.elements[i];
      if (m->kind != KILN_IR_ATTR_AFFINE_MAP ||
          m->affine_map->num_dims != out->num_dims ||
          m->affine_map->num_symbols != 0) {
        return kiln_ir_op_emit_error(
            op, context, "indexing map %u does not match the %u loops", i,
            out->num_dims);
      }
      out->maps[i] = m->affine_map;
    }
    if (op->num_regions != 1 || !op->regions[0].first_block) {
      return kiln_ir_op_emit_error(op, context, "expects a body region");
    }
    out->body = op->regions[0].first_block;
  } else if (kiln_ir_op_is(op, "linalg.matmul") ||
             kiln_ir_op_is(op, "linalg.batch_matmul")) {
    bool batch = kiln_ir_op_is(op, "linalg.batch_matmul");
    out->kind = batch ? KILN_STRUCTURED_BATCH_MATMUL : KILN_STRUCTURED_MATMUL;
    if (out->num_ins != 2 || out->num_outs != 1) {
      return kiln_ir_op_emit_error(op, context,
                                   "expects 2 inputs and 1 output");
    }
    if (batch) {
      // (b, m, n, k): A(b, m, k) B(b, k, n) C(b, m, n)
      static const int64_t a[] = {0, 1, 3}, b[] = {0, 3, 2}, c[] = {0, 1, 2};
      out->num_dims = 4;
      out->maps[0] = kiln_make_dim_map(context, 4, 3, a);
      out->maps[1] = kiln_make_dim_map(context, 4, 3, b);
      out->maps[2] = kiln_make_dim_map(context, 4, 3, c);
      out->is_reduction[3] = true;
    } else {
      // (m, n, k): A(m, k) B(k, n) C(m, n)
      static const int64_t a[] = {0, 2}, b[] = {2, 1}, c[] = {0, 1};
      out->num_dims = 3;
      out->maps[0] = kiln_make_dim_map(context, 3, 2, a);
      out->maps[1] = kiln_make_dim_map(context, 3, 2, b);
      out->maps[2] = kiln_make_dim_map(context, 3, 2, c);
      out->is_reduction[2] = true;
    }
  } else if (kiln_ir_op_is(op, "linalg.fill")) {
    out->kind = KILN_STRUCTURED_FILL;
    if (out->num_ins != 1 || out->num_outs != 1) {
      return kiln_ir_op_emit_error(op, context, "expects 1 input and 1 output");
    }
    const kiln_ir_type_t* t = op->results[0].type;
    if (!kiln_ir_type_is_ranked_tensor(t)) {
      return kiln_ir_op_emit_error(op, context,
                                   "expects a ranked tensor result");
    }
    int64_t ids[KILN_STRUCTURED_MAX_DIMS];
    out->num_dims = (uint32_t)t->shaped.rank;
    if (out->num_dims > KILN_STRUCTURED_MAX_DIMS) {
      return kiln_ir_op_emit_error(op, context, "rank too large");
    }
    for (uint32_t d = 0; d < out->num_dims; ++d) ids[d] = d;
    out->maps[0] = kiln_make_dim_map(context, out->num_dims, 0, ids);
    out->maps[1] =
        kiln_make_dim_map(context, out->num_dims, out->num_dims, ids);
  } else {
    return kiln_ir_op_emit_error(op, context, "not a structured op");
  }
  for (uint32_t i = 0; i < num_operands; ++i) {
    if (!out->maps[i]) return kiln_ir_context_take_error(context);
  }
  // Loop ranges from the operand shapes, outputs first: an input read
  // through a plain `d0` map may be larger than the loop (a slice from 0).
  for (uint32_t d = 0; d < out->num_dims; ++d) out->ranges[d] = -1;
  for (uint32_t k = 0; k < num_operands; ++k) {
    uint32_t i = (k + out->num_ins) % num_operands;
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_shaped(t)) continue;  // scalar operand
    if (t->shaped.rank != out->maps[i]->num_results) {
      return kiln_ir_op_emit_error(
          op, context, "indexing map %u has %zu results for a rank-%zu operand",
          i, out->maps[i]->num_results, t->shaped.rank);
    }
    for (size_t r = 0; r < t->shaped.rank; ++r) {
      int64_t pos;
      // A static extent wins over a dynamic one (KILN_IR_DYNAMIC_DIM, which
      // is negative: the backends find its value at run time).
      if (kiln_ir_affine_map_result_is_dim(out->maps[i], r, &pos) &&
          (out->ranges[pos] == -1 ||
           (out->ranges[pos] == KILN_IR_DYNAMIC_DIM &&
            t->shaped.dims[r] != KILN_IR_DYNAMIC_DIM))) {
        out->ranges[pos] = t->shaped.dims[r];
      }
    }
  }
  for (uint32_t d = 0; d < out->num_dims; ++d) {
    if (out->ranges[d] == -1) {
      return kiln_ir_op_emit_error(
          op, context, "cannot derive the range of loop d%u from the operands",
          d);
    }
  }
  return kiln_ok_status();
}

int64_t kiln_structured_index_dim(kiln_ir_value_t* v) {
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (!def || !kiln_ir_op_is(def, "linalg.index")) return -1;
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(def, "dim");
  return a && a->kind == KILN_IR_ATTR_INTEGER ? a->i : -1;
}

bool kiln_structured_const_int(kiln_ir_value_t* v, int64_t* out) {
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (!def || !kiln_ir_op_is(def, "arith.constant")) return false;
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(def, "value");
  if (!a || a->kind != KILN_IR_ATTR_INTEGER) return false;
  *out = a->i;
  return true;
}

bool kiln_structured_op_all_parallel(const kiln_structured_op_t* s) {
  return kiln_structured_num_reductions(s) == 0;
}

uint32_t kiln_structured_num_reductions(const kiln_structured_op_t* s) {
  uint32_t n = 0;
  for (uint32_t d = 0; d < s->num_dims; ++d) n += s->is_reduction[d] ? 1 : 0;
  return n;
}

bool kiln_structured_out_map_is_permutation(const kiln_structured_op_t* s,
                                            uint32_t i) {
  const kiln_ir_affine_map_t* m = s->maps[s->num_ins + i];
  if (m->num_results != s->num_dims) return false;
  bool seen[KILN_STRUCTURED_MAX_DIMS] = {0};
  for (size_t r = 0; r < m->num_results; ++r) {
    int64_t pos;
    if (!kiln_ir_affine_map_result_is_dim(m, r, &pos) || seen[pos])
      return false;
    seen[pos] = true;
  }
  return true;
}

bool kiln_structured_is_elementwise(const kiln_structured_op_t* s) {
  if (!kiln_structured_op_all_parallel(s)) return false;
  for (uint32_t i = 0; i < s->num_outs; ++i) {
    if (!kiln_structured_out_map_is_permutation(s, i)) return false;
  }
  return true;
}

bool kiln_structured_map_is_parallel_projection(
    const kiln_structured_op_t* s, const kiln_ir_affine_map_t* map) {
  size_t r = 0;
  for (uint32_t d = 0; d < s->num_dims; ++d) {
    if (s->is_reduction[d]) continue;
    int64_t pos;
    if (r >= map->num_results ||
        !kiln_ir_affine_map_result_is_dim(map, r, &pos) || pos != d) {
      return false;
    }
    ++r;
  }
  return r == map->num_results;
}

kiln_ir_value_t* kiln_structured_empty_size(kiln_ir_op_t* empty, size_t dim) {
  const kiln_ir_type_t* t = empty->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(t) || dim >= t->shaped.rank ||
      t->shaped.dims[dim] != KILN_IR_DYNAMIC_DIM) {
    return NULL;
  }
  uint32_t k = 0;
  for (size_t i = 0; i < dim; ++i) {
    if (t->shaped.dims[i] == KILN_IR_DYNAMIC_DIM) ++k;
  }
  return k < empty->num_operands ? kiln_ir_op_operand(empty, k) : NULL;
}

kiln_ir_value_t* kiln_structured_dim_size(kiln_ir_context_t* context,
                                          kiln_ir_value_t* v, size_t dim,
                                          kiln_ir_value_t** out_tensor) {
  for (int depth = 0; depth < 64; ++depth) {
    *out_tensor = v;
    kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
    if (!def || !kiln_ir_type_is_ranked_tensor(v->type) ||
        dim >= v->type->shaped.rank ||
        v->type->shaped.dims[dim] != KILN_IR_DYNAMIC_DIM) {
      return NULL;
    }
    if (kiln_ir_op_is(def, "tensor.empty")) {
      return kiln_structured_empty_size(def, dim);
    }
    if (!kiln_structured_op_is(def)) return NULL;
    kiln_structured_op_t s;
    kiln_status_t status = kiln_structured_op_get(context, def, &s);
    if (status) {
      kiln_status_free(status);
      return NULL;
    }
    if (v->index >= s.num_outs) return NULL;
    kiln_ir_value_t* init = kiln_ir_op_operand(def, s.num_ins + v->index);
    if (init->type != v->type) return NULL;
    v = init;
  }
  return NULL;
}

bool kiln_structured_op_try_get(kiln_ir_context_t* context, kiln_ir_op_t* op,
                                kiln_structured_op_t* out) {
  kiln_status_t status = kiln_structured_op_get(context, op, out);
  if (!status) return true;
  kiln_status_free(status);
  return false;
}
