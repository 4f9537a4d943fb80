// The linalg dialect subset of the structured form: linalg.generic,
// linalg.yield, linalg.index, and the named ops matmul, batch_matmul and
// fill (each generalizable to linalg.generic).
//
// Custom form (as MLIR prints it):
//   %r = linalg.generic {indexing_maps = [...], iterator_types = ["parallel"]}
//          ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
//          outs(%init : tensor<4xf32>) {
//        ^bb0(%x: f32, %y: f32, %out: f32):
//          %s = arith.addf %x, %y : f32
//          linalg.yield %s : f32
//        } -> tensor<4xf32>
//   %m = linalg.matmul ins(%a, %b : T, T) outs(%c : T) -> T
//   %f = linalg.fill ins(%cst : f32) outs(%e : T) -> T
// `operandSegmentSizes = array<i32: #ins, #outs>` is kept as a property.
#include "compiler/dialects/linalg.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool kiln_linalg_is_structured(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "linalg.generic") ||
         kiln_ir_op_is(op, "linalg.matmul") ||
         kiln_ir_op_is(op, "linalg.batch_matmul") ||
         kiln_ir_op_is(op, "linalg.fill");
}

static bool kiln_linalg_segments(const kiln_ir_op_t* op, int64_t* ins,
                                 int64_t* outs) {
  const kiln_ir_attribute_t* seg =
      kiln_ir_op_get_attr(op, "operandSegmentSizes");
  int64_t v[2];
  if (seg && kiln_dialect_int_list(seg, v, 2) == 2) {
    *ins = v[0];
    *outs = v[1];
    return true;
  }
  return false;
}

uint32_t kiln_linalg_num_inputs(const kiln_ir_op_t* op) {
  int64_t ins, outs;
  if (kiln_linalg_segments(op, &ins, &outs)) return (uint32_t)ins;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  return n >= op->num_results ? n - op->num_results : 0;
}

uint32_t kiln_linalg_num_outputs(const kiln_ir_op_t* op) {
  return kiln_ir_op_num_regular_operands(op) - kiln_linalg_num_inputs(op);
}

const kiln_ir_affine_map_t* kiln_linalg_indexing_map(const kiln_ir_op_t* op,
                                                     uint32_t i) {
  const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
  if (!maps || maps->kind != KILN_IR_ATTR_ARRAY || i >= maps->array.count) {
    return NULL;
  }
  const kiln_ir_attribute_t* m = maps->array.elements[i];
  return m->kind == KILN_IR_ATTR_AFFINE_MAP ? m->affine_map : NULL;
}

uint32_t kiln_linalg_num_loops(const kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* its = kiln_ir_op_get_attr(op, "iterator_types");
  if (!its || its->kind != KILN_IR_ATTR_ARRAY) return 0;
  return (uint32_t)its->array.count;
}

// Returns 0 parallel, 1 reduction, -1 unknown.
static int kiln_linalg_iterator_kind(const kiln_ir_attribute_t* a) {
  kiln_string_view_t word = kiln_string_view_empty();
  if (a->kind == KILN_IR_ATTR_STRING || a->kind == KILN_IR_ATTR_KEYWORD) {
    word = a->str;
  } else if (a->kind == KILN_IR_ATTR_DIALECT) {
    word = kiln_ir_dialect_attr_keyword(a);
    if (word.size == 0) {
      // `#linalg.iterator_type<parallel>`: the word is the whole body.
      kiln_string_view_t text = a->dialect.text;
      size_t lt = kiln_string_view_find_char(text, '<', 0);
      if (lt != SIZE_MAX && text.size > lt + 2) {
        word = kiln_string_view_trim(
            kiln_string_view_substr(text, lt + 1, text.size - lt - 2));
      }
    }
  }
  if (kiln_string_view_equal_cstr(word, "parallel")) return 0;
  if (kiln_string_view_equal_cstr(word, "reduction")) return 1;
  return -1;
}

bool kiln_linalg_is_reduction(const kiln_ir_op_t* op, uint32_t i) {
  const kiln_ir_attribute_t* its = kiln_ir_op_get_attr(op, "iterator_types");
  if (!its || its->kind != KILN_IR_ATTR_ARRAY || i >= its->array.count) {
    return false;
  }
  return kiln_linalg_iterator_kind(its->array.elements[i]) == 1;
}

kiln_ir_block_t* kiln_linalg_body(kiln_ir_op_t* op) {
  if (!kiln_ir_op_is(op, "linalg.generic") || op->num_regions != 1) return NULL;
  return op->regions[0].first_block;
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

const kiln_ir_attribute_t* kiln_linalg_identity_map(kiln_ir_context_t* context,
                                                    uint32_t rank) {
  int64_t dims[16];
  if (rank > 16) return NULL;
  for (uint32_t i = 0; i < rank; ++i) dims[i] = i;
  return kiln_linalg_projection_map(context, rank, rank, dims);
}

const kiln_ir_attribute_t* kiln_linalg_projection_map(
    kiln_ir_context_t* context, uint32_t num_dims, size_t count,
    const int64_t* dims) {
  const kiln_ir_affine_expr_t* exprs[16];
  if (count > 16) return NULL;
  for (size_t i = 0; i < count; ++i) {
    exprs[i] = kiln_ir_affine_dim(context, dims[i]);
  }
  return kiln_ir_affine_map_attr_get(context, num_dims, 0, count, exprs);
}

static const kiln_ir_attribute_t* kiln_linalg_segment_attr(
    kiln_ir_context_t* context, int64_t ins, int64_t outs) {
  int64_t v[2] = {ins, outs};
  return kiln_ir_dense_i64_array_attr_get(context,
                                          kiln_ir_int_type(context, 32), 2, v);
}

kiln_status_t kiln_linalg_create_generic(
    kiln_ir_builder_t* b, size_t num_inputs, kiln_ir_value_t* const* inputs,
    size_t num_outputs, kiln_ir_value_t* const* outputs,
    const kiln_ir_attribute_t* const* maps, uint32_t num_loops,
    const bool* reduction, kiln_ir_op_t** out_op, kiln_ir_block_t** out_body) {
  kiln_ir_context_t* context = b->context;
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(context, &state, "linalg.generic", b->location);
  for (size_t i = 0; i < num_inputs; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_operand(context, &state, inputs[i]));
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_operand(context, &state, outputs[i]));
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_result_type(context, &state, outputs[i]->type));
  }
  size_t num_maps = num_inputs + num_outputs;
  const kiln_ir_attribute_t* map_array =
      kiln_ir_array_attr_get(context, num_maps, maps);
  const kiln_ir_attribute_t** its =
      kiln_ir_arena_alloc(context, sizeof(*its) * (num_loops ? num_loops : 1));
  if (!its || !map_array) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "linalg.generic");
  }
  for (uint32_t i = 0; i < num_loops; ++i) {
    its[i] = kiln_ir_string_attr_get(
        context, kiln_make_cstring_view(
                     reduction && reduction[i] ? "reduction" : "parallel"));
  }
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      context, &state, "indexing_maps", map_array));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      context, &state, "iterator_types",
      kiln_ir_array_attr_get(context, num_loops, its)));
  kiln_ir_named_attribute_t seg =
      kiln_ir_named_attr(context, "operandSegmentSizes",
                         kiln_linalg_segment_attr(context, (int64_t)num_inputs,
                                                  (int64_t)num_outputs));
  seg.is_property = true;
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_named_attribute(context, &state, seg));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(context, &region));
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(context, &body));
  kiln_ir_region_append_block(region, body);
  for (size_t i = 0; i < num_maps; ++i) {
    kiln_ir_value_t* v = i < num_inputs ? inputs[i] : outputs[i - num_inputs];
    KILN_RETURN_IF_ERROR(kiln_ir_block_add_arg(
        context, body, kiln_ir_type_element(v->type), b->location, NULL));
  }
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, &state, region));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(b, &state, out_op));
  *out_body = (*out_op)->regions[0].first_block;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Generalization
//===----------------------------------------------------------------------===//

// Appends `%r = <name> %a, %b : type` to the builder.
static kiln_status_t kiln_linalg_emit(kiln_ir_builder_t* b, const char* name,
                                      size_t n, kiln_ir_value_t* const* args,
                                      const kiln_ir_type_t* type,
                                      kiln_ir_value_t** out) {
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_simple(b, name, n, args, 1, &type, 0, NULL, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

// Converts |v| to element type |to| (ext/trunc/sitofp as needed).
static kiln_status_t kiln_linalg_convert(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* v,
                                         const kiln_ir_type_t* to,
                                         kiln_ir_value_t** out) {
  const kiln_ir_type_t* from = v->type;
  if (from == to) {
    *out = v;
    return kiln_ok_status();
  }
  bool ff = from->kind == KILN_IR_TYPE_FLOAT,
       tf = to->kind == KILN_IR_TYPE_FLOAT;
  uint32_t fw = kiln_ir_type_bit_width(from), tw = kiln_ir_type_bit_width(to);
  const char* name;
  if (ff && tf) {
    name = tw > fw ? "arith.extf" : "arith.truncf";
  } else if (!ff && tf) {
    name = "arith.sitofp";
  } else if (ff && !tf) {
    name = "arith.fptosi";
  } else {
    name = tw > fw ? "arith.extsi" : "arith.trunci";
  }
  return kiln_linalg_emit(b, name, 1, &v, to, out);
}

kiln_status_t kiln_linalg_generalize(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op,
                                     kiln_ir_op_t** out_generic) {
  if (kiln_ir_op_is(op, "linalg.generic")) {
    *out_generic = op;
    return kiln_ok_status();
  }
  bool is_matmul = kiln_ir_op_is(op, "linalg.matmul");
  bool is_batch = kiln_ir_op_is(op, "linalg.batch_matmul");
  bool is_fill = kiln_ir_op_is(op, "linalg.fill");
  if (!is_matmul && !is_batch && !is_fill) {
    return kiln_ir_op_emit_error(op, context, "cannot be generalized");
  }
  kiln_ir_builder_t b = kiln_ir_builder_make(context);
  kiln_ir_builder_set_before(&b, op);
  b.location = op->location;
  kiln_ir_value_t* out_value =
      kiln_ir_op_operand(op, kiln_linalg_num_inputs(op));
  const kiln_ir_type_t* out_type = out_value->type;
  uint32_t rank = (uint32_t)out_type->shaped.rank;
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  if (is_fill) {
    kiln_ir_value_t* scalar = kiln_ir_op_operand(op, 0);
    const kiln_ir_attribute_t* maps[2] = {
        kiln_ir_affine_map_attr_get(context, rank, 0, 0, NULL),
        kiln_linalg_identity_map(context, rank)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        &b, 1, &scalar, 1, &out_value, maps, rank, NULL, &generic, &body));
    kiln_ir_builder_t bb = kiln_ir_builder_make(context);
    kiln_ir_builder_set_to_end(&bb, body);
    bb.location = op->location;
    kiln_ir_value_t* v = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_convert(
        &bb, body->args[0], kiln_ir_type_element(out_type), &v));
    kiln_ir_op_t* yield = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, "linalg.yield", 1, &v, 0, NULL, 0, NULL, &yield));
  } else {
    // matmul: (m, n, k); batch_matmul: (b, m, n, k).
    uint32_t loops = is_batch ? 4 : 3;
    int64_t lhs_dims[3], rhs_dims[3], out_dims[3];
    if (is_batch) {
      int64_t l[3] = {0, 1, 3}, r[3] = {0, 3, 2}, o[3] = {0, 1, 2};
      memcpy(lhs_dims, l, sizeof l);
      memcpy(rhs_dims, r, sizeof r);
      memcpy(out_dims, o, sizeof o);
    } else {
      int64_t l[2] = {0, 2}, r[2] = {2, 1}, o[2] = {0, 1};
      memcpy(lhs_dims, l, sizeof l);
      memcpy(rhs_dims, r, sizeof r);
      memcpy(out_dims, o, sizeof o);
    }
    size_t n = is_batch ? 3 : 2;
    const kiln_ir_attribute_t* maps[3] = {
        kiln_linalg_projection_map(context, loops, n, lhs_dims),
        kiln_linalg_projection_map(context, loops, n, rhs_dims),
        kiln_linalg_projection_map(context, loops, n, out_dims)};
    bool reduction[4] = {false, false, false, false};
    reduction[loops - 1] = true;
    kiln_ir_value_t* ins[2] = {kiln_ir_op_operand(op, 0),
                               kiln_ir_op_operand(op, 1)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        &b, 2, ins, 1, &out_value, maps, loops, reduction, &generic, &body));
    kiln_ir_builder_t bb = kiln_ir_builder_make(context);
    kiln_ir_builder_set_to_end(&bb, body);
    bb.location = op->location;
    const kiln_ir_type_t* acc_type = body->args[2]->type;
    bool is_float = acc_type->kind == KILN_IR_TYPE_FLOAT;
    kiln_ir_value_t *a = NULL, *c = NULL, *prod = NULL, *sum = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_convert(&bb, body->args[0], acc_type, &a));
    KILN_RETURN_IF_ERROR(kiln_linalg_convert(&bb, body->args[1], acc_type, &c));
    kiln_ir_value_t* mul_args[2] = {a, c};
    KILN_RETURN_IF_ERROR(
        kiln_linalg_emit(&bb, is_float ? "arith.mulf" : "arith.muli", 2,
                         mul_args, acc_type, &prod));
    kiln_ir_value_t* add_args[2] = {body->args[2], prod};
    KILN_RETURN_IF_ERROR(
        kiln_linalg_emit(&bb, is_float ? "arith.addf" : "arith.addi", 2,
                         add_args, acc_type, &sum));
    kiln_ir_op_t* yield = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, "linalg.yield", 1, &sum, 0, NULL, 0, NULL, &yield));
  }
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, 0),
                                      kiln_ir_op_result(generic, 0));
  kiln_ir_op_erase(op);
  *out_generic = generic;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static uint32_t kiln_linalg_rank(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_RANKED_TENSOR || t->kind == KILN_IR_TYPE_MEMREF
             ? (uint32_t)t->shaped.rank
             : 0;
}

static kiln_status_t kiln_linalg_verify_segments(kiln_ir_context_t* context,
                                                 kiln_ir_op_t* op) {
  int64_t ins, outs;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (kiln_linalg_segments(op, &ins, &outs)) {
    if (ins < 0 || outs < 0 || ins + outs != (int64_t)n) {
      return kiln_ir_op_emit_error(
          op, context, "operandSegmentSizes does not match the %u operands", n);
    }
  }
  uint32_t num_outs = kiln_linalg_num_outputs(op);
  uint32_t num_tensor_outs = 0;
  for (uint32_t i = n - num_outs; i < n; ++i) {
    if (kiln_ir_type_is_ranked_tensor(kiln_ir_op_operand(op, i)->type)) {
      ++num_tensor_outs;
    }
  }
  if (op->num_results != num_tensor_outs) {
    return kiln_ir_op_emit_error(
        op, context, "expected %u results (one per tensor output), found %u",
        num_tensor_outs, op->num_results);
  }
  for (uint32_t i = 0, r = 0; i < num_outs; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, n - num_outs + i);
    if (!kiln_ir_type_is_ranked_tensor(v->type)) continue;
    if (op->results[r].type != v->type) {
      return kiln_ir_op_emit_error(
          op, context, "result #%u type %s must match output type %s", r,
          kiln_ir_type_to_string(context, op->results[r].type),
          kiln_ir_type_to_string(context, v->type));
    }
    ++r;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_generic(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
  const kiln_ir_attribute_t* its = kiln_ir_op_get_attr(op, "iterator_types");
  if (!maps || maps->kind != KILN_IR_ATTR_ARRAY) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an array attribute 'indexing_maps'");
  }
  if (!its || its->kind != KILN_IR_ATTR_ARRAY) {
    return kiln_ir_op_emit_error(
        op, context, "requires an array attribute 'iterator_types'");
  }
  for (size_t i = 0; i < its->array.count; ++i) {
    if (kiln_linalg_iterator_kind(its->array.elements[i]) < 0) {
      return kiln_ir_op_emit_error(
          op, context, "iterator_types[%zu] must be parallel or reduction", i);
    }
  }
  if (maps->array.count != n) {
    return kiln_ir_op_emit_error(
        op, context, "expected %u indexing maps (one per operand), found %zu",
        n, maps->array.count);
  }
  uint32_t loops = (uint32_t)its->array.count;
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_affine_map_t* m = kiln_linalg_indexing_map(op, i);
    if (!m) {
      return kiln_ir_op_emit_error(
          op, context, "indexing_maps[%u] must be an affine map", i);
    }
    if (m->num_dims != loops) {
      return kiln_ir_op_emit_error(
          op, context,
          "indexing_maps[%u] has %u dims but there are %u iterators", i,
          m->num_dims, loops);
    }
    uint32_t rank = kiln_linalg_rank(kiln_ir_op_operand(op, i)->type);
    if (m->num_results != rank) {
      return kiln_ir_op_emit_error(
          op, context,
          "indexing_maps[%u] has %zu results but operand #%u has rank %u", i,
          m->num_results, i, rank);
    }
  }
  kiln_ir_block_t* body = kiln_linalg_body(op);
  if (!body) {
    return kiln_ir_op_emit_error(op, context, "expects a body region");
  }
  if (body->num_args != n) {
    return kiln_ir_op_emit_error(
        op, context, "body has %u arguments but the op has %u operands",
        body->num_args, n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* e =
        kiln_ir_type_element(kiln_ir_op_operand(op, i)->type);
    if (body->args[i]->type != e) {
      return kiln_ir_op_emit_error(
          op, context, "body argument #%u has type %s, expected %s", i,
          kiln_ir_type_to_string(context, body->args[i]->type),
          kiln_ir_type_to_string(context, e));
    }
  }
  kiln_ir_op_t* yield = body->last_op;
  if (!yield || !kiln_ir_op_is(yield, "linalg.yield")) {
    return kiln_ir_op_emit_error(op, context,
                                 "body must end with linalg.yield");
  }
  uint32_t outs = kiln_linalg_num_outputs(op);
  if (kiln_ir_op_num_regular_operands(yield) != outs) {
    return kiln_ir_op_emit_error(
        yield, context, "expects %u yielded values (one per output), found %u",
        outs, kiln_ir_op_num_regular_operands(yield));
  }
  for (uint32_t i = 0; i < outs; ++i) {
    const kiln_ir_type_t* e =
        kiln_ir_type_element(kiln_ir_op_operand(op, n - outs + i)->type);
    if (kiln_ir_op_operand(yield, i)->type != e) {
      return kiln_ir_op_emit_error(
          yield, context, "yielded value #%u has type %s, expected %s", i,
          kiln_ir_type_to_string(context, kiln_ir_op_operand(yield, i)->type),
          kiln_ir_type_to_string(context, e));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_matmul(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  bool batch = kiln_ir_op_is(op, "linalg.batch_matmul");
  uint32_t want = batch ? 3 : 2;
  if (kiln_ir_op_num_regular_operands(op) != 3 ||
      kiln_linalg_num_inputs(op) != 2) {
    return kiln_ir_op_emit_error(op, context, "expects 2 inputs and 1 output");
  }
  const kiln_ir_type_t* t[3];
  for (uint32_t i = 0; i < 3; ++i) {
    t[i] = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_ranked_tensor(t[i]) || t[i]->shaped.rank != want) {
      return kiln_ir_op_emit_error(
          op, context, "operand #%u must be a rank-%u tensor", i, want);
    }
  }
  const int64_t *a = t[0]->shaped.dims, *b = t[1]->shaped.dims,
                *c = t[2]->shaped.dims;
  uint32_t o = batch ? 1 : 0;
  bool ok = a[o] == c[o] && a[o + 1] == b[o] && b[o + 1] == c[o + 1];
  if (batch) ok = ok && a[0] == b[0] && a[0] == c[0];
  if (!ok) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand shapes are incompatible");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_fill(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  if (kiln_ir_op_num_regular_operands(op) != 2 ||
      kiln_ir_type_is_shaped(kiln_ir_op_operand(op, 0)->type)) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a scalar input and one output");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_index(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dim");
  if (!dim || dim->kind != KILN_IR_ATTR_INTEGER || dim->i < 0) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a non-negative integer 'dim'");
  }
  kiln_ir_op_t* parent = kiln_ir_op_parent_of_name(op, "linalg.generic");
  if (!parent) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a linalg.generic parent");
  }
  if ((uint32_t)dim->i >= kiln_linalg_num_loops(parent)) {
    return kiln_ir_op_emit_error(
        op, context, "dim %lld is out of range of the %u loops",
        (long long)dim->i, kiln_linalg_num_loops(parent));
  }
  if (op->results[0].type->kind != KILN_IR_TYPE_INDEX) {
    return kiln_ir_op_emit_error(op, context, "result must be index");
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

// `ins(%a, %b : T1, T2)` / `outs(...)`; returns the operand count.
static kiln_status_t kiln_linalg_parse_operand_group(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state, const char* keyword,
    int64_t* out_count, kiln_mlir_type_list_t* out_types) {
  *out_count = 0;
  if (!kiln_mlir_parse_optional_keyword(p, keyword)) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  kiln_mlir_type_list_t types = {0};
  if (operands.count > 0) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  if (types.count != operands.count) {
    return kiln_mlir_emit_error(p, "%zu operands present, but expected %zu",
                                operands.count, types.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &operands, types.count,
                                                  types.items, state));
  *out_count = (int64_t)operands.count;
  if (out_types) *out_types = types;
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_parse_structured(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  bool is_generic = kiln_string_view_equal_cstr(state->name, "linalg.generic");
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  int64_t ins = 0, outs = 0;
  kiln_mlir_type_list_t out_types = {0};
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "ins", &ins, NULL));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "outs", &outs, &out_types));
  if (kiln_mlir_parse_optional_keyword(p, "attrs")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  }
  if (is_generic) {
    kiln_ir_region_t* region = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, false, &region));
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, region));
  }
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_ARROW) {
    kiln_mlir_type_list_t results = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_result_types(p, state, &results));
  }
  kiln_ir_named_attribute_t seg =
      kiln_ir_named_attr(context, "operandSegmentSizes",
                         kiln_linalg_segment_attr(context, ins, outs));
  seg.is_property = true;
  return kiln_ir_op_state_add_named_attribute(context, state, seg);
}

static void kiln_linalg_print_group(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                    const char* keyword, uint32_t begin,
                                    uint32_t end) {
  if (begin == end) return;
  kiln_ir_printer_printf(p, " %s(", keyword);
  for (uint32_t i = begin; i < end; ++i) {
    if (i != begin) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, i));
  }
  kiln_ir_printer_printf(p, " : ");
  for (uint32_t i = begin; i < end; ++i) {
    if (i != begin) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, i)->type);
  }
  kiln_ir_printer_printf(p, ")");
}

static void kiln_linalg_print_structured(kiln_ir_printer_t* p,
                                         kiln_ir_op_t* op) {
  static const char* const elided[] = {"operandSegmentSizes"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t ins = kiln_linalg_num_inputs(op);
  kiln_linalg_print_group(p, op, "ins", 0, ins);
  kiln_linalg_print_group(p, op, "outs", ins, n);
  if (op->num_regions == 1) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_region(p, &op->regions[0], true);
  }
  if (op->num_results > 0) {
    // Several results in parentheses, as MLIR prints (and parses) them.
    bool parens = op->num_results > 1;
    kiln_ir_printer_printf(p, parens ? " -> (" : " -> ");
    for (uint32_t i = 0; i < op->num_results; ++i) {
      if (i) kiln_ir_printer_printf(p, ", ");
      kiln_ir_printer_print_type(p, op->results[i].type);
    }
    if (parens) kiln_ir_printer_printf(p, ")");
  }
}

// `linalg.index 0 : index`
static kiln_status_t kiln_linalg_parse_index(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "dim",
      kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64), dim)));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_linalg_print_index(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dim");
  kiln_ir_printer_printf(p, " %lld", dim ? (long long)dim->i : 0ll);
  static const char* const elided[] = {"dim"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

static const kiln_ir_op_def_t kiln_linalg_defs[] = {
    {"linalg.generic", "structured op: maps, iterators and a scalar body",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK, KILN_IR_VARIADIC,
     KILN_IR_VARIADIC, 1, 0, kiln_linalg_verify_generic,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL},
    {"linalg.matmul", "C += A * B", KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC,
     KILN_IR_VARIADIC, 0, 0, kiln_linalg_verify_matmul,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL},
    {"linalg.batch_matmul", "C[b] += A[b] * B[b]", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0, kiln_linalg_verify_matmul,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL},
    {"linalg.fill", "fills the output with a scalar", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0, kiln_linalg_verify_fill,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL},
    {"linalg.yield", "yields the body results of a linalg.generic",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE,
     KILN_IR_VARIADIC, 0, 0, 0, NULL, kiln_dialect_parse_return_like,
     kiln_dialect_print_return_like, NULL, NULL},
    {"linalg.index", "the current index of a loop of the enclosing generic",
     KILN_IR_TRAIT_PURE, 0, 1, 0, 0, kiln_linalg_verify_index,
     kiln_linalg_parse_index, kiln_linalg_print_index, NULL, NULL},
};

kiln_status_t kiln_dialect_register_linalg(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_linalg_defs,
      sizeof(kiln_linalg_defs) / sizeof(kiln_linalg_defs[0]));
}
