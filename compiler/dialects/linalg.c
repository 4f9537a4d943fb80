// The linalg dialect subset of the structured form: linalg.generic,
// linalg.yield, linalg.index, and the named ops matmul, batch_matmul and
// fill (each generalizable to linalg.generic). Input-only named ops
// (kiln_linalg_is_named_op: matvec/vecmat/dot and friends, conv_2d_*,
// depthwise_conv_2d_nhwc_hwc, pooling_*, elementwise add/exp/..., copy,
// transpose, broadcast, reduce, map, softmax) are verified here and rewritten
// into generics by kiln_linalg_generalize during lower-to-structured.
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
//   %t = linalg.transpose ins(%a : T) outs(%e : T2) permutation = [1, 0]
//   %r = linalg.reduce { arith.addf } ins(%a : T) outs(%i : T3)
//          dimensions = [1]
//   %s = linalg.softmax dimension(1) ins(%a : T) outs(%e : T) -> T
// `operandSegmentSizes = array<i32: #ins, #outs>` is kept as a property.
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"

#include <math.h>
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

const kiln_ir_type_t* kiln_linalg_reduce_one_dim(kiln_ir_context_t* context,
                                                 const kiln_ir_type_t* type,
                                                 int64_t axis, bool* reduction,
                                                 int64_t* kept,
                                                 uint32_t* num_kept) {
  uint32_t rank = (uint32_t)type->shaped.rank;
  int64_t sizes[16];
  *num_kept = 0;
  if (rank > 16) return NULL;
  for (uint32_t d = 0; d < rank; ++d) {
    reduction[d] = (int64_t)d == axis;
    if (reduction[d]) continue;
    sizes[*num_kept] = type->shaped.dims[d];
    kept[(*num_kept)++] = d;
  }
  return kiln_ir_tensor_type_get(context, *num_kept, sizes,
                                 kiln_ir_type_element(type), NULL);
}

// Adds the `operandSegmentSizes = array<i32: ins, outs>` property.
kiln_status_t kiln_linalg_add_segments(kiln_ir_context_t* context,
                                       kiln_ir_op_state_t* state, int64_t ins,
                                       int64_t outs) {
  int64_t v[2] = {ins, outs};
  kiln_ir_named_attribute_t seg =
      kiln_ir_named_attr(context, "operandSegmentSizes",
                         kiln_ir_dense_i64_array_attr_get(
                             context, kiln_ir_int_type(context, 32), 2, v));
  seg.is_property = true;
  return kiln_ir_op_state_add_named_attribute(context, state, seg);
}

// A new region holding one empty block (a body to fill).
static kiln_status_t kiln_linalg_new_region(kiln_ir_context_t* context,
                                            kiln_ir_region_t** out_region,
                                            kiln_ir_block_t** out_block) {
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(context, out_region));
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(context, out_block));
  kiln_ir_region_append_block(*out_region, *out_block);
  return kiln_ok_status();
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
  KILN_RETURN_IF_ERROR(kiln_linalg_add_segments(
      context, &state, (int64_t)num_inputs, (int64_t)num_outputs));
  kiln_ir_region_t* region = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_new_region(context, &region, &body));
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

static kiln_status_t kiln_linalg_generalize_named(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op,
                                                  kiln_ir_op_t** out_generic);
static kiln_status_t kiln_linalg_build_mul_add(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op,
                                               kiln_ir_block_t* body);

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

// A builder that appends to the end of |body| at |location|.
static kiln_ir_builder_t kiln_linalg_body_builder(
    kiln_ir_context_t* context, kiln_ir_block_t* body,
    const kiln_ir_location_t* location) {
  kiln_ir_builder_t b = kiln_ir_builder_make(context);
  kiln_ir_builder_set_to_end(&b, body);
  b.location = location;
  return b;
}

// A builder that inserts before |op|, at its location.
static kiln_ir_builder_t kiln_linalg_builder_before(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* op) {
  kiln_ir_builder_t b = kiln_ir_builder_make(context);
  kiln_ir_builder_set_before(&b, op);
  b.location = op->location;
  return b;
}

// Appends `linalg.yield %v` to the builder.
static kiln_status_t kiln_linalg_yield(kiln_ir_builder_t* b,
                                       kiln_ir_value_t* v) {
  kiln_ir_op_t* yield = NULL;
  return kiln_ir_builder_create_simple(b, "linalg.yield", 1, &v, 0, NULL, 0,
                                       NULL, &yield);
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

// Appends `linalg.yield convert(arg 0)` to |body|, converted to the element
// type of its last argument (the output's): fill, copy, transpose,
// broadcast.
static kiln_status_t kiln_linalg_build_copy(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op,
                                            kiln_ir_block_t* body) {
  kiln_ir_builder_t bb = kiln_linalg_body_builder(context, body, op->location);
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_convert(
      &bb, body->args[0], body->args[body->num_args - 1]->type, &v));
  return kiln_linalg_yield(&bb, v);
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
    return kiln_linalg_generalize_named(context, op, out_generic);
  }
  kiln_ir_builder_t b = kiln_linalg_builder_before(context, op);
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
    KILN_RETURN_IF_ERROR(kiln_linalg_build_copy(context, op, body));
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
    const kiln_ir_attribute_t* given = kiln_ir_op_get_attr(op, "indexing_maps");
    if (given) {  // verified: 3 maps of loop dims
      const kiln_ir_affine_map_t* out_map = kiln_linalg_indexing_map(op, 2);
      for (uint32_t i = 0; i < 3; ++i) maps[i] = given->array.elements[i];
      for (uint32_t d = 0; d < loops; ++d) {
        reduction[d] = true;
        for (size_t j = 0; j < out_map->num_results; ++j) {
          int64_t pos = -1;
          if (kiln_ir_affine_map_result_is_dim(out_map, j, &pos) && pos == d) {
            reduction[d] = false;
          }
        }
      }
    }
    kiln_ir_value_t* ins[2] = {kiln_ir_op_operand(op, 0),
                               kiln_ir_op_operand(op, 1)};
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
        &b, 2, ins, 1, &out_value, maps, loops, reduction, &generic, &body));
    KILN_RETURN_IF_ERROR(kiln_linalg_build_mul_add(context, op, body));
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

// |body|'s arguments have the element types of the operands in order, and
// it ends in a linalg.yield of one value per output, typed as that
// output's element. The caller has checked the argument count.
static kiln_status_t kiln_linalg_verify_body_types(kiln_ir_context_t* context,
                                                   kiln_ir_op_t* op,
                                                   kiln_ir_block_t* body) {
  for (uint32_t i = 0; i < body->num_args; ++i) {
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
  uint32_t n = kiln_ir_op_num_regular_operands(op);
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
  return kiln_linalg_verify_body_types(context, op, body);
}

static kiln_status_t kiln_linalg_verify_matmul_maps(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* op);

static kiln_status_t kiln_linalg_verify_matmul(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  bool batch = kiln_ir_op_is(op, "linalg.batch_matmul");
  uint32_t want = batch ? 3 : 2;
  if (kiln_ir_op_num_regular_operands(op) != 3 ||
      kiln_linalg_num_inputs(op) != 2) {
    return kiln_ir_op_emit_error(op, context, "expects 2 inputs and 1 output");
  }
  if (kiln_ir_op_get_attr(op, "indexing_maps")) {
    return kiln_linalg_verify_matmul_maps(context, op);
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
kiln_status_t kiln_linalg_parse_operand_group(
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

// `[-> types]`; when absent and |inferred_from| is given, one result per
// ranked tensor among those output types.
kiln_status_t kiln_linalg_parse_results(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state,
    const kiln_mlir_type_list_t* inferred_from) {
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_ARROW) {
    kiln_mlir_type_list_t results = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
    return kiln_mlir_add_result_types(p, state, &results);
  }
  for (size_t i = 0; inferred_from && i < inferred_from->count; ++i) {
    if (kiln_ir_type_is_ranked_tensor(inferred_from->items[i])) {
      KILN_RETURN_IF_ERROR(
          kiln_mlir_add_result_type(p, state, inferred_from->items[i]));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_parse_structured(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  bool is_generic = kiln_string_view_equal_cstr(state->name, "linalg.generic");
  // `linalg.matmul indexing_maps = [...] ins(...)`: transposed or
  // broadcast operands (MLIR's replacement of matmul_transpose_a/b).
  bool is_matmul =
      kiln_string_view_equal_cstr(state->name, "linalg.matmul") ||
      kiln_string_view_equal_cstr(state->name, "linalg.batch_matmul");
  if (is_matmul && kiln_mlir_parse_optional_keyword(p, "indexing_maps")) {
    const kiln_ir_attribute_t* maps = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &maps));
    KILN_RETURN_IF_ERROR(
        kiln_mlir_add_attribute(p, state, "indexing_maps", maps));
  }
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
  KILN_RETURN_IF_ERROR(kiln_linalg_parse_results(p, state, NULL));
  return kiln_linalg_add_segments(context, state, ins, outs);
}

void kiln_linalg_print_group(kiln_ir_printer_t* p, kiln_ir_op_t* op,
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

// ` -> T` after the operand groups; several results in parentheses, as
// MLIR prints (and parses) them. Nothing when the op has no results.
void kiln_linalg_print_results(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  if (op->num_results == 0) return;
  bool parens = op->num_results > 1;
  kiln_ir_printer_printf(p, parens ? " -> (" : " -> ");
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_type(p, op->results[i].type);
  }
  if (parens) kiln_ir_printer_printf(p, ")");
}

static void kiln_linalg_print_structured(kiln_ir_printer_t* p,
                                         kiln_ir_op_t* op) {
  static const char* const elided[] = {"operandSegmentSizes", "indexing_maps"};
  const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
  bool matmul_maps = maps && (kiln_ir_op_is(op, "linalg.matmul") ||
                              kiln_ir_op_is(op, "linalg.batch_matmul"));
  if (matmul_maps) {
    kiln_ir_printer_printf(p, " indexing_maps = ");
    kiln_ir_printer_print_attribute(p, maps);
  }
  kiln_ir_printer_print_attr_dict(p, op, elided, matmul_maps ? 2 : 1);
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t ins = kiln_linalg_num_inputs(op);
  kiln_linalg_print_group(p, op, "ins", 0, ins);
  kiln_linalg_print_group(p, op, "outs", ins, n);
  if (op->num_regions == 1) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_region(p, &op->regions[0], true);
  }
  kiln_linalg_print_results(p, op);
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
// More named ops: contractions, copy/transpose/broadcast, reduce/map,
// convolutions and softmax
//===----------------------------------------------------------------------===//

#define KILN_LINALG_MAX_RANK 12

// A contraction named op: three operands (lhs, rhs, acc) indexed by loops.
typedef struct kiln_linalg_contraction_t {
  const char* name;
  const char* loops;   // one letter per loop, for diagnostics
  const char* reduce;  // the letters of the reduction loops
  uint32_t rank[3];
  int64_t dims[3][3];  // the loop indexing each operand dim
  // Quantized: two scalar zero points follow lhs and rhs among the inputs,
  // and the body is acc + (a - a_zp) * (b - b_zp).
  bool zero_points;
} kiln_linalg_contraction_t;

static const kiln_linalg_contraction_t kiln_linalg_contractions[] = {
    {"linalg.matvec", "mk", "k", {2, 1, 1}, {{0, 1}, {1}, {0}}, false},
    {"linalg.vecmat", "nk", "k", {1, 2, 1}, {{1}, {1, 0}, {0}}, false},
    {"linalg.dot", "k", "k", {1, 1, 0}, {{0}, {0}, {0}}, false},
    {"linalg.batch_matvec",
     "bmk",
     "k",
     {3, 2, 2},
     {{0, 1, 2}, {0, 2}, {0, 1}},
     false},
    {"linalg.batch_vecmat",
     "bnk",
     "k",
     {2, 3, 2},
     {{0, 2}, {0, 2, 1}, {0, 1}},
     false},
    {"linalg.matmul_transpose_a",
     "mnk",
     "k",
     {2, 2, 2},
     {{2, 0}, {2, 1}, {0, 1}},
     false},
    {"linalg.matmul_transpose_b",
     "mnk",
     "k",
     {2, 2, 2},
     {{0, 2}, {1, 2}, {0, 1}},
     false},
    {"linalg.batch_matmul_transpose_a",
     "bmnk",
     "k",
     {3, 3, 3},
     {{0, 3, 1}, {0, 3, 2}, {0, 1, 2}},
     false},
    {"linalg.batch_matmul_transpose_b",
     "bmnk",
     "k",
     {3, 3, 3},
     {{0, 1, 3}, {0, 2, 3}, {0, 1, 2}},
     false},
    {"linalg.batch_reduce_matmul",
     "bmnk",
     "bk",
     {3, 3, 2},
     {{0, 1, 3}, {0, 3, 2}, {1, 2}},
     false},
    {"linalg.quantized_matmul",
     "mnk",
     "k",
     {2, 2, 2},
     {{0, 2}, {2, 1}, {0, 1}},
     true},
};

static const kiln_linalg_contraction_t* kiln_linalg_find_contraction(
    const kiln_ir_op_t* op) {
  size_t n =
      sizeof(kiln_linalg_contractions) / sizeof(kiln_linalg_contractions[0]);
  for (size_t i = 0; i < n; ++i) {
    if (kiln_ir_op_is(op, kiln_linalg_contractions[i].name)) {
      return &kiln_linalg_contractions[i];
    }
  }
  return NULL;
}

// Convolutions. Loops: the parallel ones first (batch, output spatial,
// output channel), then the reductions (window, input channel).
typedef enum kiln_linalg_conv_kind_e {
  KILN_LINALG_CONV_NONE = -1,
  KILN_LINALG_CONV_NHWC_HWCF = 0,
  KILN_LINALG_CONV_NCHW_FCHW = 1,
  KILN_LINALG_CONV_DW_NHWC_HWC = 2,
} kiln_linalg_conv_kind_t;

typedef enum kiln_linalg_window_body_e {
  KILN_LINALG_WINDOW_MUL_ADD = 0,  // convolutions: acc + in * filter
  KILN_LINALG_WINDOW_SUM = 1,      // pooling: acc + in
  KILN_LINALG_WINDOW_MAX = 2,      // pooling: max(acc, in)
  KILN_LINALG_WINDOW_MIN = 3,      // pooling: min(acc, in)
} kiln_linalg_window_body_t;

typedef struct kiln_linalg_conv_t {
  const char* name;
  kiln_linalg_window_body_t body;
  const char* loops;   // one letter per loop, for diagnostics
  uint32_t num_loops;  // the first |rank| are parallel, the rest reduce
  uint32_t rank;       // of the input and the output
  int64_t input[5];    // loop of each input dim (the output loop for
                       // spatial dims)
  int64_t window[5];   // window loop of spatial input dims, else -1
  uint32_t filter_rank;
  int64_t filter[5];  // loop of each filter dim
  int64_t output[5];  // loop of each output dim
} kiln_linalg_conv_t;

#define KILN_LINALG_CONV(name, body, loops, num_loops, rank, input, window, \
                         filter_rank, filter, output)                       \
  {                                                                         \
    name, body, loops, num_loops, rank, input, window, filter_rank, filter, \
        output                                                              \
  }
#define KILN_LINALG_L(...) \
  { __VA_ARGS__ }
#define KILN_LINALG_MA KILN_LINALG_WINDOW_MUL_ADD

static const kiln_linalg_conv_t kiln_linalg_convs[] = {
    // (n, oh, ow, f, kh, kw, c)
    KILN_LINALG_CONV("linalg.conv_2d_nhwc_hwcf", KILN_LINALG_MA, "nhwfijc", 7,
                     4, KILN_LINALG_L(0, 1, 2, 6), KILN_LINALG_L(-1, 4, 5, -1),
                     4, KILN_LINALG_L(4, 5, 6, 3), KILN_LINALG_L(0, 1, 2, 3)),
    KILN_LINALG_CONV("linalg.conv_2d_nhwc_fhwc", KILN_LINALG_MA, "nhwfijc", 7,
                     4, KILN_LINALG_L(0, 1, 2, 6), KILN_LINALG_L(-1, 4, 5, -1),
                     4, KILN_LINALG_L(3, 4, 5, 6), KILN_LINALG_L(0, 1, 2, 3)),
    // (n, f, oh, ow, c, kh, kw)
    KILN_LINALG_CONV("linalg.conv_2d_nchw_fchw", KILN_LINALG_MA, "nfhwcij", 7,
                     4, KILN_LINALG_L(0, 4, 2, 3), KILN_LINALG_L(-1, -1, 5, 6),
                     4, KILN_LINALG_L(1, 4, 5, 6), KILN_LINALG_L(0, 1, 2, 3)),
    // (n, oh, ow, c, kh, kw)
    KILN_LINALG_CONV("linalg.depthwise_conv_2d_nhwc_hwc", KILN_LINALG_MA,
                     "nhwcij", 6, 4, KILN_LINALG_L(0, 1, 2, 3),
                     KILN_LINALG_L(-1, 4, 5, -1), 3, KILN_LINALG_L(4, 5, 3),
                     KILN_LINALG_L(0, 1, 2, 3)),
    // (n, c, oh, ow, kh, kw)
    KILN_LINALG_CONV("linalg.depthwise_conv_2d_nchw_chw", KILN_LINALG_MA,
                     "nchwij", 6, 4, KILN_LINALG_L(0, 1, 2, 3),
                     KILN_LINALG_L(-1, -1, 4, 5), 3, KILN_LINALG_L(1, 4, 5),
                     KILN_LINALG_L(0, 1, 2, 3)),
    // (n, ow, f, kw, c)
    KILN_LINALG_CONV("linalg.conv_1d_nwc_wcf", KILN_LINALG_MA, "nwfkc", 5, 3,
                     KILN_LINALG_L(0, 1, 4), KILN_LINALG_L(-1, 3, -1), 3,
                     KILN_LINALG_L(3, 4, 2), KILN_LINALG_L(0, 1, 2)),
    // (n, f, ow, c, kw)
    KILN_LINALG_CONV("linalg.conv_1d_ncw_fcw", KILN_LINALG_MA, "nfwck", 5, 3,
                     KILN_LINALG_L(0, 3, 2), KILN_LINALG_L(-1, -1, 4), 3,
                     KILN_LINALG_L(1, 3, 4), KILN_LINALG_L(0, 1, 2)),
    // (ow, kw) and (oh, ow, kh, kw): no batch, no channels
    KILN_LINALG_CONV("linalg.conv_1d", KILN_LINALG_MA, "wk", 2, 1,
                     KILN_LINALG_L(0), KILN_LINALG_L(1), 1, KILN_LINALG_L(1),
                     KILN_LINALG_L(0)),
    KILN_LINALG_CONV("linalg.conv_2d", KILN_LINALG_MA, "hwij", 4, 2,
                     KILN_LINALG_L(0, 1), KILN_LINALG_L(2, 3), 2,
                     KILN_LINALG_L(2, 3), KILN_LINALG_L(0, 1)),
    // (n, od, oh, ow, f, kd, kh, kw, c)
    KILN_LINALG_CONV(
        "linalg.conv_3d_ndhwc_dhwcf", KILN_LINALG_MA, "ndhwfxyzc", 9, 5,
        KILN_LINALG_L(0, 1, 2, 3, 8), KILN_LINALG_L(-1, 5, 6, 7, -1), 5,
        KILN_LINALG_L(5, 6, 7, 8, 4), KILN_LINALG_L(0, 1, 2, 3, 4)),
// Pooling: the second input only gives the window's shape.
#define KILN_LINALG_POOL_NHWC(name, body)                                 \
  KILN_LINALG_CONV(name, body, "nhwcij", 6, 4, KILN_LINALG_L(0, 1, 2, 3), \
                   KILN_LINALG_L(-1, 4, 5, -1), 2, KILN_LINALG_L(4, 5),   \
                   KILN_LINALG_L(0, 1, 2, 3))
#define KILN_LINALG_POOL_NCHW(name, body)                                 \
  KILN_LINALG_CONV(name, body, "nchwij", 6, 4, KILN_LINALG_L(0, 1, 2, 3), \
                   KILN_LINALG_L(-1, -1, 4, 5), 2, KILN_LINALG_L(4, 5),   \
                   KILN_LINALG_L(0, 1, 2, 3))
#define KILN_LINALG_POOL_NWC(name, body)                             \
  KILN_LINALG_CONV(name, body, "nwck", 4, 3, KILN_LINALG_L(0, 1, 2), \
                   KILN_LINALG_L(-1, 3, -1), 1, KILN_LINALG_L(3),    \
                   KILN_LINALG_L(0, 1, 2))
#define KILN_LINALG_POOL_NCW(name, body)                             \
  KILN_LINALG_CONV(name, body, "ncwk", 4, 3, KILN_LINALG_L(0, 1, 2), \
                   KILN_LINALG_L(-1, -1, 3), 1, KILN_LINALG_L(3),    \
                   KILN_LINALG_L(0, 1, 2))
    KILN_LINALG_POOL_NHWC("linalg.pooling_nhwc_sum", KILN_LINALG_WINDOW_SUM),
    KILN_LINALG_POOL_NHWC("linalg.pooling_nhwc_max", KILN_LINALG_WINDOW_MAX),
    KILN_LINALG_POOL_NHWC("linalg.pooling_nhwc_min", KILN_LINALG_WINDOW_MIN),
    KILN_LINALG_POOL_NCHW("linalg.pooling_nchw_sum", KILN_LINALG_WINDOW_SUM),
    KILN_LINALG_POOL_NCHW("linalg.pooling_nchw_max", KILN_LINALG_WINDOW_MAX),
    KILN_LINALG_POOL_NWC("linalg.pooling_nwc_sum", KILN_LINALG_WINDOW_SUM),
    KILN_LINALG_POOL_NWC("linalg.pooling_nwc_max", KILN_LINALG_WINDOW_MAX),
    KILN_LINALG_POOL_NWC("linalg.pooling_nwc_min", KILN_LINALG_WINDOW_MIN),
    KILN_LINALG_POOL_NCW("linalg.pooling_ncw_sum", KILN_LINALG_WINDOW_SUM),
    KILN_LINALG_POOL_NCW("linalg.pooling_ncw_max", KILN_LINALG_WINDOW_MAX),
#undef KILN_LINALG_POOL_NHWC
#undef KILN_LINALG_POOL_NCHW
#undef KILN_LINALG_POOL_NWC
#undef KILN_LINALG_POOL_NCW
};
#undef KILN_LINALG_CONV
#undef KILN_LINALG_L
#undef KILN_LINALG_MA

static const kiln_linalg_conv_t* kiln_linalg_find_conv(const kiln_ir_op_t* op) {
  for (size_t i = 0;
       i < sizeof(kiln_linalg_convs) / sizeof(kiln_linalg_convs[0]); ++i) {
    if (kiln_ir_op_is(op, kiln_linalg_convs[i].name)) {
      return &kiln_linalg_convs[i];
    }
  }
  return NULL;
}

// Elementwise named ops: the inputs (converted to the output's element
// type) go through one scalar op. NULL: that element kind is rejected.
typedef struct kiln_linalg_elementwise_t {
  const char* name;  // the named op (NULL: only linalg.elementwise has it)
  const char* kind;  // its #linalg.elementwise_kind<...> spelling
  uint32_t arity;
  const char* float_op;
  const char* int_op;
} kiln_linalg_elementwise_t;

static const kiln_linalg_elementwise_t kiln_linalg_elementwise_ops[] = {
    {"linalg.add", "add", 2, "arith.addf", "arith.addi"},
    {"linalg.sub", "sub", 2, "arith.subf", "arith.subi"},
    {"linalg.mul", "mul", 2, "arith.mulf", "arith.muli"},
    {"linalg.div", "div", 2, "arith.divf", "arith.divsi"},
    {"linalg.div_unsigned", "div_unsigned", 2, NULL, "arith.divui"},
    {"linalg.max", "max_signed", 2, "arith.maximumf", "arith.maxsi"},
    {"linalg.min", "min_signed", 2, "arith.minimumf", "arith.minsi"},
    {"linalg.powf", "powf", 2, "math.powf", NULL},
    {"linalg.exp", "exp", 1, "math.exp", NULL},
    {"linalg.log", "log", 1, "math.log", NULL},
    {"linalg.abs", "abs", 1, "math.absf", "math.absi"},
    {"linalg.ceil", "ceil", 1, "math.ceil", NULL},
    {"linalg.floor", "floor", 1, "math.floor", NULL},
    {"linalg.negf", "negf", 1, "arith.negf", NULL},
    {"linalg.round", "round", 1, "math.round", NULL},
    {"linalg.sqrt", "sqrt", 1, "math.sqrt", NULL},
    {"linalg.rsqrt", "rsqrt", 1, "math.rsqrt", NULL},
    {"linalg.tanh", "tanh", 1, "math.tanh", NULL},
    {"linalg.erf", "erf", 1, "math.erf", NULL},
    {"linalg.square", "square", 1, "arith.mulf", "arith.muli"},  // x * x
    {"linalg.reciprocal", "reciprocal", 1, "arith.divf", NULL},  // 1 / x
    {NULL, "max_unsigned", 2, NULL, "arith.maxui"},
    {NULL, "min_unsigned", 2, NULL, "arith.minui"},
};

// The word in `#linalg.elementwise_kind<add>` (or a plain string).
static kiln_string_view_t kiln_linalg_angle_word(const kiln_ir_attribute_t* a) {
  if (!a) return kiln_string_view_empty();
  if (a->kind == KILN_IR_ATTR_STRING || a->kind == KILN_IR_ATTR_KEYWORD) {
    return a->str;
  }
  if (a->kind != KILN_IR_ATTR_DIALECT) return kiln_string_view_empty();
  kiln_string_view_t text = a->dialect.text;
  size_t lt = kiln_string_view_find_char(text, '<', 0);
  if (lt == SIZE_MAX || text.size < lt + 2 || text.data[text.size - 1] != '>') {
    return kiln_string_view_empty();
  }
  return kiln_string_view_trim(
      kiln_string_view_substr(text, lt + 1, text.size - lt - 2));
}

static const kiln_linalg_elementwise_t* kiln_linalg_find_elementwise(
    const kiln_ir_op_t* op) {
  size_t n = sizeof(kiln_linalg_elementwise_ops) /
             sizeof(kiln_linalg_elementwise_ops[0]);
  if (kiln_ir_op_is(op, "linalg.elementwise")) {
    kiln_string_view_t kind =
        kiln_linalg_angle_word(kiln_ir_op_get_attr(op, "kind"));
    for (size_t i = 0; i < n; ++i) {
      if (kiln_string_view_equal_cstr(kind,
                                      kiln_linalg_elementwise_ops[i].kind)) {
        return &kiln_linalg_elementwise_ops[i];
      }
    }
    return NULL;
  }
  for (size_t i = 0; i < n; ++i) {
    if (kiln_linalg_elementwise_ops[i].name &&
        kiln_ir_op_is(op, kiln_linalg_elementwise_ops[i].name)) {
      return &kiln_linalg_elementwise_ops[i];
    }
  }
  return NULL;
}

static bool kiln_linalg_is_dps_elementwise(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "linalg.copy") ||
         kiln_ir_op_is(op, "linalg.transpose") ||
         kiln_ir_op_is(op, "linalg.broadcast");
}

bool kiln_linalg_is_named_op(const kiln_ir_op_t* op) {
  if ((kiln_ir_op_is(op, "linalg.matmul") ||
       kiln_ir_op_is(op, "linalg.batch_matmul")) &&
      kiln_ir_op_get_attr(op, "indexing_maps")) {
    return true;  // not the canonical maps the dispatch layer expects
  }
  return kiln_linalg_find_contraction(op) || kiln_linalg_find_conv(op) ||
         kiln_linalg_find_elementwise(op) ||
         kiln_ir_op_is(op, "linalg.elementwise") ||
         kiln_linalg_is_dps_elementwise(op) ||
         kiln_ir_op_is(op, "linalg.reduce") ||
         kiln_ir_op_is(op, "linalg.map") || kiln_ir_op_is(op, "linalg.softmax");
}

//===----------------------------------------------------------------------===//
// Named ops: verification helpers
//===----------------------------------------------------------------------===//

static bool kiln_linalg_has_rank(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_RANKED_TENSOR ||
         t->kind == KILN_IR_TYPE_MEMREF;
}

static bool kiln_linalg_is_number(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_FLOAT || t->kind == KILN_IR_TYPE_INTEGER;
}

// Operand |i| must be a ranked tensor or memref of rank |rank| with an
// integer or float element type.
static kiln_status_t kiln_linalg_expect_rank(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op, uint32_t i,
                                             uint32_t rank, const char* role) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
  if (!kiln_linalg_has_rank(t) || t->shaped.rank != rank ||
      !kiln_linalg_is_number(kiln_ir_type_element(t))) {
    return kiln_ir_op_emit_error(
        op, context,
        "%s (operand #%u) must be a rank-%u tensor of numbers, "
        "found %s",
        role, i, rank, kiln_ir_type_to_string(context, t));
  }
  return kiln_ok_status();
}

// One size per loop: operand |i| dim |j| is indexed by loop dims[i][j]
// (-1: not a plain loop, skipped). Dynamic sizes are skipped.
typedef struct kiln_linalg_loop_sizes_t {
  int64_t size[KILN_LINALG_MAX_RANK];
  int32_t operand[KILN_LINALG_MAX_RANK];  // who set it (-1: nobody)
  int32_t dim[KILN_LINALG_MAX_RANK];
} kiln_linalg_loop_sizes_t;

static void kiln_linalg_loop_sizes_init(kiln_linalg_loop_sizes_t* s) {
  for (int i = 0; i < KILN_LINALG_MAX_RANK; ++i) {
    s->size[i] = KILN_IR_DYNAMIC_DIM;
    s->operand[i] = -1;
    s->dim[i] = -1;
  }
}

static kiln_status_t kiln_linalg_loop_sizes_add(
    kiln_ir_context_t* context, kiln_ir_op_t* op, kiln_linalg_loop_sizes_t* s,
    const char* loop_names, uint32_t i, size_t count, const int64_t* loops) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
  for (size_t j = 0; j < count; ++j) {
    int64_t loop = loops[j];
    int64_t size = t->shaped.dims[j];
    if (loop < 0 || size == KILN_IR_DYNAMIC_DIM) continue;
    if (s->operand[loop] < 0) {
      s->size[loop] = size;
      s->operand[loop] = (int32_t)i;
      s->dim[loop] = (int32_t)j;
    } else if (s->size[loop] != size) {
      return kiln_ir_op_emit_error(
          op, context,
          "operand #%u dim %zu (loop %c) has size %lld, but operand #%d dim "
          "%d has size %lld",
          i, j, loop_names[loop], (long long)size, s->operand[loop],
          s->dim[loop], (long long)s->size[loop]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_expect_counts(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op, uint32_t ins,
                                               uint32_t outs) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  if (kiln_linalg_num_inputs(op) != ins ||
      kiln_linalg_num_outputs(op) != outs) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects %u input%s and %u output%s, found %u "
        "and %u",
        ins, ins == 1 ? "" : "s", outs, outs == 1 ? "" : "s",
        kiln_linalg_num_inputs(op), kiln_linalg_num_outputs(op));
  }
  return kiln_ok_status();
}

// linalg.matmul / batch_matmul with explicit `indexing_maps`: one map per
// operand over (m, n, k) / (b, m, n, k), each result a loop dim; loops the
// output does not index are reductions.
static kiln_status_t kiln_linalg_verify_matmul_maps(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* op) {
  uint32_t loops = kiln_ir_op_is(op, "linalg.batch_matmul") ? 4 : 3;
  const char* names = loops == 4 ? "bmnk" : "mnk";
  const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
  if (maps->kind != KILN_IR_ATTR_ARRAY || maps->array.count != 3) {
    return kiln_ir_op_emit_error(
        op, context, "indexing_maps must be an array of 3 affine maps");
  }
  kiln_linalg_loop_sizes_t sizes;
  kiln_linalg_loop_sizes_init(&sizes);
  for (uint32_t i = 0; i < 3; ++i) {
    const kiln_ir_affine_map_t* m = kiln_linalg_indexing_map(op, i);
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!m || m->num_dims != loops || m->num_symbols != 0) {
      return kiln_ir_op_emit_error(
          op, context, "indexing_maps[%u] must be an affine map over %u dims",
          i, loops);
    }
    if (!kiln_linalg_has_rank(t) || m->num_results != t->shaped.rank) {
      return kiln_ir_op_emit_error(
          op, context,
          "indexing_maps[%u] has %zu results but operand #%u is %s", i,
          m->num_results, i, kiln_ir_type_to_string(context, t));
    }
    int64_t dims[KILN_LINALG_MAX_RANK];
    for (size_t j = 0; j < m->num_results; ++j) {
      if (!kiln_ir_affine_map_result_is_dim(m, j, &dims[j])) {
        return kiln_ir_op_emit_error(
            op, context, "indexing_maps[%u] result %zu must be a loop dim", i,
            j);
      }
    }
    KILN_RETURN_IF_ERROR(kiln_linalg_loop_sizes_add(context, op, &sizes, names,
                                                    i, m->num_results, dims));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_contraction(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* op) {
  const kiln_linalg_contraction_t* c = kiln_linalg_find_contraction(op);
  uint32_t ins = c->zero_points ? 4 : 2;
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_counts(context, op, ins, 1));
  static const char* const roles[3] = {"lhs", "rhs", "output"};
  // Operand of each role: the output follows the inputs.
  const uint32_t operand[3] = {0, 1, ins};
  for (uint32_t i = 0; i < 3; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_expect_rank(context, op, operand[i], c->rank[i], roles[i]));
  }
  for (uint32_t i = 2; i < ins; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (t->kind != KILN_IR_TYPE_INTEGER) {
      return kiln_ir_op_emit_error(
          op, context, "zero point (operand #%u) must be an integer, found %s",
          i, kiln_ir_type_to_string(context, t));
    }
  }
  if (c->zero_points) {
    for (uint32_t i = 0; i < 3; ++i) {
      const kiln_ir_type_t* e =
          kiln_ir_type_element(kiln_ir_op_operand(op, operand[i])->type);
      if (e->kind != KILN_IR_TYPE_INTEGER) {
        return kiln_ir_op_emit_error(
            op, context, "%s (operand #%u) must have integer elements",
            roles[i], operand[i]);
      }
    }
  }
  kiln_linalg_loop_sizes_t sizes;
  kiln_linalg_loop_sizes_init(&sizes);
  for (uint32_t i = 0; i < 3; ++i) {
    KILN_RETURN_IF_ERROR(kiln_linalg_loop_sizes_add(
        context, op, &sizes, c->loops, operand[i], c->rank[i], c->dims[i]));
  }
  return kiln_ok_status();
}

// The number of spatial (windowed) dims of a convolution.
static uint32_t kiln_linalg_conv_spatial(const kiln_linalg_conv_t* c) {
  uint32_t n = 0;
  for (uint32_t j = 0; j < c->rank; ++j) n += c->window[j] >= 0;
  return n;
}

// Reads `strides` / `dilations` (absent: 1), one per spatial dim; a single
// value applies to all.
static kiln_status_t kiln_linalg_conv_param(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op, const char* name,
                                            int64_t* out) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_window_attrs(context, op));
  uint32_t spatial = kiln_linalg_conv_spatial(kiln_linalg_find_conv(op));
  for (uint32_t i = 0; i < 5; ++i) out[i] = 1;
  const kiln_ir_attribute_t* attr = kiln_ir_op_get_attr(op, name);
  if (!attr) return kiln_ok_status();
  int64_t v[5] = {0, 0, 0, 0, 0};
  int64_t n = kiln_dialect_int_list(attr, v, 5);
  bool ok = n == 1 || n == (int64_t)spatial;
  for (uint32_t i = 0; ok && i < spatial; ++i) {
    out[i] = v[n == 1 ? 0 : i];
    ok = out[i] > 0;
  }
  if (!ok) {
    return kiln_ir_op_emit_error(
        op, context,
        "'%s' must hold %u positive integers (dense<[..]> : "
        "tensor<%uxi64>)",
        name, spatial, spatial);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_conv(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  const kiln_linalg_conv_t* c = kiln_linalg_find_conv(op);
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_counts(context, op, 2, 1));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_expect_rank(context, op, 0, c->rank, "input"));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_expect_rank(context, op, 1, c->filter_rank, "filter"));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_expect_rank(context, op, 2, c->rank, "output"));
  int64_t strides[5], dilations[5];
  KILN_RETURN_IF_ERROR(kiln_linalg_conv_param(context, op, "strides", strides));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_conv_param(context, op, "dilations", dilations));
  kiln_linalg_loop_sizes_t sizes;
  kiln_linalg_loop_sizes_init(&sizes);
  int64_t plain_input[5];
  for (uint32_t j = 0; j < c->rank; ++j) {
    plain_input[j] = c->window[j] < 0 ? c->input[j] : -1;
  }
  KILN_RETURN_IF_ERROR(kiln_linalg_loop_sizes_add(context, op, &sizes, c->loops,
                                                  2, c->rank, c->output));
  KILN_RETURN_IF_ERROR(kiln_linalg_loop_sizes_add(
      context, op, &sizes, c->loops, 1, c->filter_rank, c->filter));
  KILN_RETURN_IF_ERROR(kiln_linalg_loop_sizes_add(context, op, &sizes, c->loops,
                                                  0, c->rank, plain_input));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  for (uint32_t j = 0, s = 0; j < c->rank; ++j) {
    if (c->window[j] < 0) continue;
    int64_t o = sizes.size[c->input[j]], k = sizes.size[c->window[j]];
    int64_t have = in->shaped.dims[j];
    if (o != KILN_IR_DYNAMIC_DIM && k != KILN_IR_DYNAMIC_DIM &&
        have != KILN_IR_DYNAMIC_DIM && o > 0 && k > 0) {
      int64_t need = (o - 1) * strides[s] + (k - 1) * dilations[s] + 1;
      if (need > have) {
        return kiln_ir_op_emit_error(
            op, context,
            "input dim %d has size %lld, but %lld outputs with a window of "
            "%lld (stride %lld, dilation %lld) read %lld",
            j, (long long)have, (long long)o, (long long)k,
            (long long)strides[s], (long long)dilations[s], (long long)need);
      }
    }
    ++s;
  }
  return kiln_ok_status();
}

// The dims of |full| not marked in |dropped|, in order, must have the
// sizes of |part|'s dims (dynamic sizes match any): broadcast (full: the
// output) and reduce (full: the input).
static kiln_status_t kiln_linalg_expect_kept_dims(
    kiln_ir_context_t* context, kiln_ir_op_t* op, const kiln_ir_type_t* full,
    const char* full_role, const bool* dropped, const kiln_ir_type_t* part,
    const char* part_role) {
  for (uint32_t d = 0, j = 0; d < (uint32_t)full->shaped.rank; ++d) {
    if (dropped[d]) continue;
    int64_t f = full->shaped.dims[d], x = part->shaped.dims[j];
    if (f != KILN_IR_DYNAMIC_DIM && x != KILN_IR_DYNAMIC_DIM && f != x) {
      return kiln_ir_op_emit_error(
          op, context, "%s dim %u has size %lld, but %s dim %u has %lld",
          part_role, j, (long long)x, full_role, d, (long long)f);
    }
    ++j;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_elementwise(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_counts(context, op, 1, 1));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = kiln_ir_op_operand(op, 1)->type;
  bool is_copy = kiln_ir_op_is(op, "linalg.copy");
  if (!kiln_ir_type_is_shaped(in) || !kiln_ir_type_is_shaped(out) ||
      !kiln_linalg_has_rank(in) || !kiln_linalg_has_rank(out)) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects ranked tensor or memref operands");
  }
  if (!is_copy && kiln_ir_type_element(in) != kiln_ir_type_element(out)) {
    return kiln_ir_op_emit_error(
        op, context, "input element type %s must match the output's %s",
        kiln_ir_type_to_string(context, kiln_ir_type_element(in)),
        kiln_ir_type_to_string(context, kiln_ir_type_element(out)));
  }
  uint32_t in_rank = (uint32_t)in->shaped.rank,
           out_rank = (uint32_t)out->shaped.rank;
  if (is_copy) {
    if (!kiln_dialect_same_shape(in, out)) {
      return kiln_ir_op_emit_error(
          op, context, "input %s and output %s must have the same shape",
          kiln_ir_type_to_string(context, in),
          kiln_ir_type_to_string(context, out));
    }
    return kiln_ok_status();
  }
  bool is_transpose = kiln_ir_op_is(op, "linalg.transpose");
  const char* attr_name = is_transpose ? "permutation" : "dimensions";
  int64_t v[KILN_LINALG_MAX_RANK];
  int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, attr_name), v,
                                    KILN_LINALG_MAX_RANK);
  if (n < 0) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an integer list '%s' (at most %d)",
                                 attr_name, KILN_LINALG_MAX_RANK);
  }
  if (is_transpose) {
    if (in_rank != out_rank || (uint32_t)n != in_rank) {
      return kiln_ir_op_emit_error(
          op, context,
          "permutation has %lld entries, input rank %u and output rank %u "
          "must all agree",
          (long long)n, in_rank, out_rank);
    }
    if (!kiln_dialect_is_permutation(v, n)) {
      return kiln_ir_op_emit_error(
          op, context, "permutation is not a permutation of 0..%lld",
          (long long)n - 1);
    }
    for (int64_t i = 0; i < n; ++i) {
      int64_t o = out->shaped.dims[i], x = in->shaped.dims[v[i]];
      if (o != KILN_IR_DYNAMIC_DIM && x != KILN_IR_DYNAMIC_DIM && o != x) {
        return kiln_ir_op_emit_error(
            op, context,
            "output dim %lld has size %lld, but input dim %lld (permutation"
            "[%lld]) has size %lld",
            (long long)i, (long long)o, (long long)v[i], (long long)i,
            (long long)x);
      }
    }
    return kiln_ok_status();
  }
  // broadcast: `dimensions` are the output dims the input does not have.
  if (in_rank + (uint32_t)n != out_rank) {
    return kiln_ir_op_emit_error(
        op, context,
        "input rank %u plus %lld broadcast dimensions must equal the output "
        "rank %u",
        in_rank, (long long)n, out_rank);
  }
  bool seen[KILN_LINALG_MAX_RANK] = {false};
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] < 0 || v[i] >= (int64_t)out_rank || seen[v[i]] ||
        (i > 0 && v[i] <= v[i - 1])) {
      return kiln_ir_op_emit_error(
          op, context,
          "dimensions must be increasing output dims in [0, %u), found %lld",
          out_rank, (long long)v[i]);
    }
    seen[v[i]] = true;
  }
  return kiln_linalg_expect_kept_dims(context, op, out, "output", seen, in,
                                      "input");
}

static kiln_status_t kiln_linalg_verify_elementwise_named(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  const kiln_linalg_elementwise_t* e = kiln_linalg_find_elementwise(op);
  if (!e) {
    return kiln_ir_op_emit_error(
        op, context,
        "requires 'kind' = #linalg.elementwise_kind<...> of a supported kind");
  }
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_counts(context, op, e->arity, 1));
  const kiln_ir_type_t* out = kiln_ir_op_operand(op, e->arity)->type;
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_rank(
      context, op, e->arity, kiln_linalg_rank(out), "output"));
  const kiln_ir_type_t* oe = kiln_ir_type_element(out);
  bool is_float = oe->kind == KILN_IR_TYPE_FLOAT;
  if (!(is_float ? e->float_op : e->int_op)) {
    return kiln_ir_op_emit_error(op, context, "expects %s output, found %s",
                                 is_float ? "an integer" : "a float",
                                 kiln_ir_type_to_string(context, out));
  }
  const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
  if (maps) {  // linalg.elementwise: projected permutations of the loops
    uint32_t loops = kiln_linalg_rank(out);
    if (maps->kind != KILN_IR_ATTR_ARRAY || maps->array.count != e->arity + 1) {
      return kiln_ir_op_emit_error(
          op, context, "indexing_maps must hold %u affine maps", e->arity + 1);
    }
    kiln_linalg_loop_sizes_t sizes;
    kiln_linalg_loop_sizes_init(&sizes);
    for (uint32_t i = 0; i <= e->arity; ++i) {
      const kiln_ir_affine_map_t* m = kiln_linalg_indexing_map(op, i);
      const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
      int64_t dims[KILN_LINALG_MAX_RANK];
      bool ok = m && m->num_dims == loops && m->num_symbols == 0 &&
                kiln_linalg_has_rank(t) && m->num_results == t->shaped.rank &&
                m->num_results <= KILN_LINALG_MAX_RANK;
      for (size_t j = 0; ok && j < m->num_results; ++j) {
        ok = kiln_ir_affine_map_result_is_dim(m, j, &dims[j]);
      }
      if (!ok) {
        return kiln_ir_op_emit_error(
            op, context,
            "indexing_maps[%u] must map the %u loops to the dims of %s", i,
            loops, kiln_ir_type_to_string(context, t));
      }
      KILN_RETURN_IF_ERROR(kiln_linalg_loop_sizes_add(
          context, op, &sizes, "abcdefghijkl", i, m->num_results, dims));
    }
    return kiln_ok_status();
  }
  for (uint32_t i = 0; i < e->arity; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_linalg_has_rank(t) ||
        !kiln_linalg_is_number(kiln_ir_type_element(t)) ||
        !kiln_dialect_same_shape(t, out)) {
      return kiln_ir_op_emit_error(
          op, context, "input #%u %s must have the shape of the output %s", i,
          kiln_ir_type_to_string(context, t),
          kiln_ir_type_to_string(context, out));
    }
  }
  return kiln_ok_status();
}

// The body of a reduce/map: |num_args| arguments of the given operands'
// element types, ending in a linalg.yield of |num_yield| values typed as
// the outputs' elements.
static kiln_status_t kiln_linalg_verify_named_body(kiln_ir_context_t* context,
                                                   kiln_ir_op_t* op,
                                                   uint32_t num_args) {
  kiln_ir_block_t* body =
      op->num_regions == 1 ? op->regions[0].first_block : NULL;
  if (!body) {
    return kiln_ir_op_emit_error(op, context, "expects a body region");
  }
  if (body->num_args != num_args) {
    return kiln_ir_op_emit_error(op, context,
                                 "body has %u arguments, expected %u",
                                 body->num_args, num_args);
  }
  return kiln_linalg_verify_body_types(context, op, body);
}

static kiln_status_t kiln_linalg_expect_shaped(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_shaped(t) || !kiln_linalg_has_rank(t) ||
        t->shaped.rank > KILN_LINALG_MAX_RANK) {
      return kiln_ir_op_emit_error(
          op, context,
          "operand #%u must be a ranked tensor or memref (rank <= %d), "
          "found %s",
          i, KILN_LINALG_MAX_RANK, kiln_ir_type_to_string(context, t));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_verify_reduce(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_shaped(context, op));
  uint32_t ins = kiln_linalg_num_inputs(op), outs = kiln_linalg_num_outputs(op);
  if (ins == 0 || outs == 0) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects at least one input and one output");
  }
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* init = kiln_ir_op_operand(op, ins)->type;
  for (uint32_t i = 1; i < ins + outs; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    const kiln_ir_type_t* ref = i < ins ? in : init;
    if (i != ins && !kiln_dialect_same_shape(t, ref)) {
      return kiln_ir_op_emit_error(
          op, context, "%s #%u has shape %s, but %s #0 has %s",
          i < ins ? "input" : "output", i < ins ? i : i - ins,
          kiln_ir_type_to_string(context, t), i < ins ? "input" : "output",
          kiln_ir_type_to_string(context, ref));
    }
  }
  int64_t dims[KILN_LINALG_MAX_RANK];
  int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, "dimensions"), dims,
                                    KILN_LINALG_MAX_RANK);
  if (n < 0) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an integer list 'dimensions'");
  }
  uint32_t rank = (uint32_t)in->shaped.rank;
  bool reduced[KILN_LINALG_MAX_RANK] = {false};
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || dims[i] >= (int64_t)rank || reduced[dims[i]]) {
      return kiln_ir_op_emit_error(
          op, context,
          "dimensions must be distinct input dims in [0, %u), found %lld", rank,
          (long long)dims[i]);
    }
    reduced[dims[i]] = true;
  }
  if ((uint32_t)init->shaped.rank + (uint32_t)n != rank) {
    return kiln_ir_op_emit_error(
        op, context,
        "output rank %u plus %lld reduced dimensions must equal the input "
        "rank %u",
        (uint32_t)init->shaped.rank, (long long)n, rank);
  }
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_kept_dims(context, op, in, "input",
                                                    reduced, init, "output"));
  return kiln_linalg_verify_named_body(context, op, ins + outs);
}

static kiln_status_t kiln_linalg_verify_map(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_verify_segments(context, op));
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_shaped(context, op));
  uint32_t ins = kiln_linalg_num_inputs(op), outs = kiln_linalg_num_outputs(op);
  if (outs != 1) {
    return kiln_ir_op_emit_error(op, context, "expects one output, found %u",
                                 outs);
  }
  const kiln_ir_type_t* out = kiln_ir_op_operand(op, ins)->type;
  for (uint32_t i = 0; i < ins; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_dialect_same_shape(t, out)) {
      return kiln_ir_op_emit_error(
          op, context, "input #%u %s must have the shape of the output %s", i,
          kiln_ir_type_to_string(context, t),
          kiln_ir_type_to_string(context, out));
    }
  }
  // MLIR's mapper takes the inputs' elements; a body that also takes the
  // output's element (as a generic's does) is accepted too.
  kiln_ir_block_t* body =
      op->num_regions == 1 ? op->regions[0].first_block : NULL;
  uint32_t num_args = body && body->num_args == ins + 1 ? ins + 1 : ins;
  return kiln_linalg_verify_named_body(context, op, num_args);
}

static kiln_status_t kiln_linalg_verify_softmax(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_counts(context, op, 1, 1));
  KILN_RETURN_IF_ERROR(kiln_linalg_expect_shaped(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = kiln_ir_op_operand(op, 1)->type;
  if (kiln_ir_type_element(in)->kind != KILN_IR_TYPE_FLOAT) {
    return kiln_ir_op_emit_error(op, context, "expects a float input, found %s",
                                 kiln_ir_type_to_string(context, in));
  }
  if (!kiln_dialect_same_shape(in, out) ||
      kiln_ir_type_element(in) != kiln_ir_type_element(out)) {
    return kiln_ir_op_emit_error(
        op, context, "input %s and output %s must have the same shape and type",
        kiln_ir_type_to_string(context, in),
        kiln_ir_type_to_string(context, out));
  }
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dimension");
  if (!dim || dim->kind != KILN_IR_ATTR_INTEGER || dim->i < 0 ||
      dim->i >= (int64_t)in->shaped.rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "dimension must be an input dim in [0, %lld)",
                                 (long long)in->shaped.rank);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Named ops: generalization
//===----------------------------------------------------------------------===//

// Appends `acc + convert(a) * convert(b)` and a linalg.yield to |body|
// (arguments a, b, acc).
static kiln_status_t kiln_linalg_build_window_body(
    kiln_ir_context_t* context, kiln_ir_op_t* op, kiln_ir_block_t* body,
    kiln_linalg_window_body_t kind);

static kiln_status_t kiln_linalg_build_mul_add(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op,
                                               kiln_ir_block_t* body) {
  return kiln_linalg_build_window_body(context, op, body,
                                       KILN_LINALG_WINDOW_MUL_ADD);
}

// Appends `acc + (a - a_zp) * (b - b_zp)`, each converted to the
// accumulator's type first (sign-extended, as linalg.quantized_matmul
// defines it), and a linalg.yield to |body| (arguments a, b, a_zp, b_zp,
// acc).
static kiln_status_t kiln_linalg_build_quantized_mul_add(
    kiln_ir_context_t* context, kiln_ir_op_t* op, kiln_ir_block_t* body) {
  kiln_ir_builder_t bb = kiln_linalg_body_builder(context, body, op->location);
  const kiln_ir_type_t* acc_type = body->args[4]->type;
  kiln_ir_value_t* centered[2];
  for (int i = 0; i < 2; ++i) {
    kiln_ir_value_t* sub[2];
    KILN_RETURN_IF_ERROR(
        kiln_linalg_convert(&bb, body->args[i], acc_type, &sub[0]));
    KILN_RETURN_IF_ERROR(
        kiln_linalg_convert(&bb, body->args[2 + i], acc_type, &sub[1]));
    KILN_RETURN_IF_ERROR(
        kiln_linalg_emit(&bb, "arith.subi", 2, sub, acc_type, &centered[i]));
  }
  kiln_ir_value_t* add[2] = {body->args[4], NULL};
  KILN_RETURN_IF_ERROR(
      kiln_linalg_emit(&bb, "arith.muli", 2, centered, acc_type, &add[1]));
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_emit(&bb, "arith.addi", 2, add, acc_type, &v));
  return kiln_linalg_yield(&bb, v);
}

// Appends `acc = f(acc, x)` and a linalg.yield of it to |body| (arguments
// in, filter/window, acc): x = convert(in) * convert(filter) for
// MUL_ADD, else convert(in) (pooling: the window operand is unused).
static kiln_status_t kiln_linalg_build_window_body(
    kiln_ir_context_t* context, kiln_ir_op_t* op, kiln_ir_block_t* body,
    kiln_linalg_window_body_t kind) {
  kiln_ir_builder_t bb = kiln_linalg_body_builder(context, body, op->location);
  const kiln_ir_type_t* acc_type = body->args[2]->type;
  bool is_float = acc_type->kind == KILN_IR_TYPE_FLOAT;
  kiln_ir_value_t* args[2] = {body->args[2], NULL};
  KILN_RETURN_IF_ERROR(
      kiln_linalg_convert(&bb, body->args[0], acc_type, &args[1]));
  if (kind == KILN_LINALG_WINDOW_MUL_ADD) {
    kiln_ir_value_t* mul_args[2] = {args[1], NULL};
    KILN_RETURN_IF_ERROR(
        kiln_linalg_convert(&bb, body->args[1], acc_type, &mul_args[1]));
    KILN_RETURN_IF_ERROR(
        kiln_linalg_emit(&bb, is_float ? "arith.mulf" : "arith.muli", 2,
                         mul_args, acc_type, &args[1]));
  }
  const char* name = kind == KILN_LINALG_WINDOW_MAX
                         ? (is_float ? "arith.maximumf" : "arith.maxsi")
                     : kind == KILN_LINALG_WINDOW_MIN
                         ? (is_float ? "arith.minimumf" : "arith.minsi")
                         : (is_float ? "arith.addf" : "arith.addi");
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_emit(&bb, name, 2, args, acc_type, &v));
  return kiln_linalg_yield(&bb, v);
}

// Replaces |op|'s results with |generic|'s, erases |op|.
static void kiln_linalg_replace_op(kiln_ir_op_t* op, kiln_ir_op_t* generic) {
  for (uint32_t i = 0; i < op->num_results; ++i) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, i),
                                        kiln_ir_op_result(generic, i));
  }
  kiln_ir_op_erase(op);
}

// Creates a generic over op's own inputs/outputs with |maps|.
static kiln_status_t kiln_linalg_generic_like(
    kiln_ir_builder_t* b, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* maps, uint32_t num_loops,
    const bool* reduction, kiln_ir_op_t** out_op, kiln_ir_block_t** out_body) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t ins = kiln_linalg_num_inputs(op);
  kiln_ir_value_t* values[KILN_LINALG_MAX_RANK * 2];
  if (n > sizeof(values) / sizeof(values[0])) {
    return kiln_ir_op_emit_error(op, b->context, "too many operands");
  }
  for (uint32_t i = 0; i < n; ++i) values[i] = kiln_ir_op_operand(op, i);
  return kiln_linalg_create_generic(b, ins, values, n - ins, values + ins, maps,
                                    num_loops, reduction, out_op, out_body);
}

// Moves the ops of |from| to the end of |to|; argument i of |from| becomes
// argument i of |to|.
static void kiln_linalg_move_body(kiln_ir_block_t* from, kiln_ir_block_t* to) {
  for (uint32_t i = 0; i < from->num_args && i < to->num_args; ++i) {
    kiln_ir_value_replace_all_uses_with(from->args[i], to->args[i]);
  }
  while (from->first_op) {
    kiln_ir_op_t* o = from->first_op;
    kiln_ir_op_remove(o);
    kiln_ir_block_append_op(to, o);
  }
}

const kiln_ir_affine_expr_t* kiln_linalg_window_expr(kiln_ir_context_t* context,
                                                     int64_t out_loop,
                                                     int64_t stride,
                                                     int64_t window_loop,
                                                     int64_t dilation) {
  const kiln_ir_affine_expr_t* o = kiln_ir_affine_dim(context, out_loop);
  const kiln_ir_affine_expr_t* w = kiln_ir_affine_dim(context, window_loop);
  if (stride != 1) {
    o = kiln_ir_affine_binary(context, KILN_IR_AFFINE_MUL, o,
                              kiln_ir_affine_constant(context, stride));
  }
  if (dilation != 1) {
    w = kiln_ir_affine_binary(context, KILN_IR_AFFINE_MUL, w,
                              kiln_ir_affine_constant(context, dilation));
  }
  return kiln_ir_affine_binary(context, KILN_IR_AFFINE_ADD, o, w);
}

static kiln_status_t kiln_linalg_generalize_conv(kiln_ir_context_t* context,
                                                 kiln_ir_builder_t* b,
                                                 kiln_ir_op_t* op,
                                                 kiln_ir_op_t** out_generic) {
  const kiln_linalg_conv_t* c = kiln_linalg_find_conv(op);
  int64_t strides[5], dilations[5];
  KILN_RETURN_IF_ERROR(kiln_linalg_conv_param(context, op, "strides", strides));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_conv_param(context, op, "dilations", dilations));
  const kiln_ir_affine_expr_t* in_exprs[5];
  for (uint32_t j = 0, s = 0; j < c->rank; ++j) {
    if (c->window[j] < 0) {
      in_exprs[j] = kiln_ir_affine_dim(context, c->input[j]);
    } else {
      in_exprs[j] = kiln_linalg_window_expr(context, c->input[j], strides[s],
                                            c->window[j], dilations[s]);
      ++s;
    }
  }
  const kiln_ir_attribute_t* maps[3] = {
      kiln_ir_affine_map_attr_get(context, c->num_loops, 0, c->rank, in_exprs),
      kiln_linalg_projection_map(context, c->num_loops, c->filter_rank,
                                 c->filter),
      kiln_linalg_projection_map(context, c->num_loops, c->rank, c->output)};
  bool reduction[KILN_LINALG_MAX_RANK] = {false};
  for (uint32_t i = c->rank; i < c->num_loops; ++i) reduction[i] = true;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_generic_like(b, op, maps, c->num_loops,
                                                reduction, out_generic, &body));
  return kiln_linalg_build_window_body(context, op, body, c->body);
}

// A tensor of |type| filled with |value|; dynamic dim k of |type| is dim
// like_dims[k] of |like| (read with tensor.dim).
static kiln_status_t kiln_linalg_filled(kiln_ir_builder_t* b,
                                        const kiln_ir_type_t* type,
                                        kiln_ir_value_t* like,
                                        const int64_t* like_dims, double value,
                                        kiln_ir_value_t** out) {
  kiln_ir_context_t* context = b->context;
  const kiln_ir_type_t* e = kiln_ir_type_element(type);
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      context, "value", kiln_ir_float_attr_get(context, e, value));
  kiln_ir_op_t *cst = NULL, *empty = NULL, *fill = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "arith.constant", 0, NULL, 1, &e, 1, &attr, &cst));
  kiln_ir_value_t* sizes[KILN_LINALG_MAX_RANK];
  uint32_t num_sizes = 0;
  for (size_t k = 0; k < type->shaped.rank; ++k) {
    if (type->shaped.dims[k] != KILN_IR_DYNAMIC_DIM) continue;
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(
        b, like, (size_t)like_dims[k], &sizes[num_sizes++]));
  }
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "tensor.empty", num_sizes, sizes, 1, &type, 0, NULL, &empty));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(context, &state, "linalg.fill", b->location);
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_operand(context, &state, kiln_ir_op_result(cst, 0)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(
      context, &state, kiln_ir_op_result(empty, 0)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(context, &state, type));
  KILN_RETURN_IF_ERROR(kiln_linalg_add_segments(context, &state, 1, 1));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(b, &state, &fill));
  *out = kiln_ir_op_result(fill, 0);
  return kiln_ok_status();
}

// Moves |bb| to the end of |body| (arguments a, b, c) and appends
// `combine(exp(a - b), c)` and a yield of it, all of type |e|.
static kiln_status_t kiln_linalg_build_exp_diff(kiln_ir_builder_t* bb,
                                                kiln_ir_block_t* body,
                                                const kiln_ir_type_t* e,
                                                const char* combine,
                                                kiln_ir_value_t** out) {
  kiln_ir_builder_set_to_end(bb, body);
  kiln_ir_value_t *diff = NULL, *ex = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_emit(bb, "arith.subf", 2, body->args, e, &diff));
  KILN_RETURN_IF_ERROR(kiln_linalg_emit(bb, "math.exp", 1, &diff, e, &ex));
  kiln_ir_value_t* args[2] = {ex, body->args[2]};
  KILN_RETURN_IF_ERROR(kiln_linalg_emit(bb, combine, 2, args, e, out));
  return kiln_linalg_yield(bb, *out);
}

// softmax(x) along d = exp(x - max_d x) / sum_d exp(x - max_d x), as three
// generics: the max, the sum of exponentials, and the division.
static kiln_status_t kiln_linalg_generalize_softmax(
    kiln_ir_context_t* context, kiln_ir_builder_t* b, kiln_ir_op_t* op,
    kiln_ir_op_t** out_generic) {
  kiln_ir_value_t* x = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* out = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* type = x->type;
  const kiln_ir_type_t* e = kiln_ir_type_element(type);
  uint32_t rank = (uint32_t)type->shaped.rank;
  int64_t d = kiln_ir_op_get_attr(op, "dimension")->i;
  int64_t kept[KILN_LINALG_MAX_RANK];
  uint32_t num_kept = 0;
  bool reduction[KILN_LINALG_MAX_RANK] = {false};
  const kiln_ir_type_t* reduced_type =
      kiln_linalg_reduce_one_dim(context, type, d, reduction, kept, &num_kept);
  const kiln_ir_attribute_t* id = kiln_linalg_identity_map(context, rank);
  const kiln_ir_attribute_t* proj =
      kiln_linalg_projection_map(context, rank, num_kept, kept);
  // max
  kiln_ir_value_t* max_init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_filled(b, reduced_type, x, kept, -INFINITY, &max_init));
  kiln_ir_op_t* max_op = NULL;
  kiln_ir_block_t* body = NULL;
  const kiln_ir_attribute_t* max_maps[2] = {id, proj};
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1, &x, 1, &max_init, max_maps, rank, reduction, &max_op, &body));
  kiln_ir_builder_t bb = kiln_linalg_body_builder(context, body, op->location);
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_emit(&bb, "arith.maximumf", 2, body->args, e, &v));
  KILN_RETURN_IF_ERROR(kiln_linalg_yield(&bb, v));
  kiln_ir_value_t* max = kiln_ir_op_result(max_op, 0);
  // sum of exp(x - max)
  kiln_ir_value_t* sum_init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_filled(b, reduced_type, x, kept, 0.0, &sum_init));
  kiln_ir_op_t* sum_op = NULL;
  const kiln_ir_attribute_t* sum_maps[3] = {id, proj, proj};
  kiln_ir_value_t* sum_ins[2] = {x, max};
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 2, sum_ins, 1, &sum_init, sum_maps, rank, reduction, &sum_op, &body));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_build_exp_diff(&bb, body, e, "arith.addf", &v));
  // exp(x - max) / sum
  kiln_ir_op_t* div_op = NULL;
  const kiln_ir_attribute_t* div_maps[4] = {id, proj, proj, id};
  kiln_ir_value_t* div_ins[3] = {x, max, kiln_ir_op_result(sum_op, 0)};
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 3, div_ins, 1, &out, div_maps, rank, NULL, &div_op, &body));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_build_exp_diff(&bb, body, e, "arith.divf", &v));
  *out_generic = div_op;
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_generalize_elementwise(
    kiln_ir_context_t* context, kiln_ir_builder_t* b, kiln_ir_op_t* op,
    kiln_ir_op_t** out_generic) {
  const kiln_linalg_elementwise_t* e = kiln_linalg_find_elementwise(op);
  const kiln_ir_type_t* out = kiln_ir_op_operand(op, e->arity)->type;
  const kiln_ir_type_t* oe = kiln_ir_type_element(out);
  uint32_t rank = (uint32_t)out->shaped.rank;
  const kiln_ir_attribute_t* id = kiln_linalg_identity_map(context, rank);
  const kiln_ir_attribute_t* maps[3] = {id, id, id};
  const kiln_ir_attribute_t* given = kiln_ir_op_get_attr(op, "indexing_maps");
  for (uint32_t i = 0; given && i <= e->arity; ++i) {
    maps[i] = given->array.elements[i];  // verified
  }
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_generic_like(b, op, maps, rank, NULL, out_generic, &body));
  kiln_ir_builder_t bb = kiln_linalg_body_builder(context, body, op->location);
  kiln_ir_value_t* args[2] = {NULL, NULL};
  for (uint32_t i = 0; i < e->arity; ++i) {
    KILN_RETURN_IF_ERROR(kiln_linalg_convert(&bb, body->args[i], oe, &args[i]));
  }
  bool is_float = oe->kind == KILN_IR_TYPE_FLOAT;
  const char* name = is_float ? e->float_op : e->int_op;
  uint32_t n = e->arity;
  if (strcmp(e->kind, "square") == 0) {
    args[1] = args[0];
    n = 2;
  } else if (strcmp(e->kind, "reciprocal") == 0) {
    kiln_ir_named_attribute_t one = kiln_ir_named_attr(
        context, "value", kiln_ir_float_attr_get(context, oe, 1.0));
    kiln_ir_op_t* cst = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, "arith.constant", 0, NULL, 1, &oe, 1, &one, &cst));
    args[1] = args[0];
    args[0] = kiln_ir_op_result(cst, 0);
    n = 2;
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_emit(&bb, name, n, args, oe, &v));
  return kiln_linalg_yield(&bb, v);
}

static kiln_status_t kiln_linalg_generalize_named(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op,
                                                  kiln_ir_op_t** out_generic) {
  // Named ops keep their ins and outs (whose run-time sizes the host knows)
  // or, for softmax, read them with tensor.dim. A convolution's window
  // reads of run-time sizes are bounded when lower-to-structured checks the
  // generic (kiln_lowering_assert_window_fits).
  kiln_ir_builder_t b = kiln_linalg_builder_before(context, op);
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  uint32_t ins = kiln_linalg_num_inputs(op);
  const kiln_linalg_contraction_t* contraction =
      kiln_linalg_find_contraction(op);
  if (contraction) {
    uint32_t loops = (uint32_t)strlen(contraction->loops);
    // lhs, rhs, [lhs_zp, rhs_zp: `() `], output.
    const kiln_ir_attribute_t* maps[5];
    uint32_t num_maps = 0;
    for (int i = 0; i < 3; ++i) {
      if (i == 2 && contraction->zero_points) {
        const kiln_ir_attribute_t* scalar =
            kiln_linalg_projection_map(context, loops, 0, NULL);
        maps[num_maps++] = scalar;
        maps[num_maps++] = scalar;
      }
      maps[num_maps++] = kiln_linalg_projection_map(
          context, loops, contraction->rank[i], contraction->dims[i]);
    }
    bool reduction[4] = {false, false, false, false};
    for (uint32_t i = 0; i < loops; ++i) {
      reduction[i] = strchr(contraction->reduce, contraction->loops[i]) != NULL;
    }
    KILN_RETURN_IF_ERROR(kiln_linalg_generic_like(&b, op, maps, loops,
                                                  reduction, &generic, &body));
    KILN_RETURN_IF_ERROR(
        contraction->zero_points
            ? kiln_linalg_build_quantized_mul_add(context, op, body)
            : kiln_linalg_build_mul_add(context, op, body));
  } else if (kiln_linalg_find_conv(op)) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_generalize_conv(context, &b, op, &generic));
  } else if (kiln_linalg_find_elementwise(op)) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_generalize_elementwise(context, &b, op, &generic));
  } else if (kiln_ir_op_is(op, "linalg.softmax")) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_generalize_softmax(context, &b, op, &generic));
  } else if (kiln_linalg_is_dps_elementwise(op)) {
    const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
    const kiln_ir_type_t* out = kiln_ir_op_operand(op, 1)->type;
    uint32_t rank = (uint32_t)out->shaped.rank;
    int64_t v[KILN_LINALG_MAX_RANK], in_dims[KILN_LINALG_MAX_RANK];
    uint32_t num_in = (uint32_t)in->shaped.rank;
    if (kiln_ir_op_is(op, "linalg.transpose")) {
      // output dim i is input dim perm[i]: input dim perm[i] is loop i.
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "permutation"), v,
                            KILN_LINALG_MAX_RANK);
      for (uint32_t i = 0; i < rank; ++i) in_dims[v[i]] = i;
    } else if (kiln_ir_op_is(op, "linalg.broadcast")) {
      int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, "dimensions"),
                                        v, KILN_LINALG_MAX_RANK);
      bool added[KILN_LINALG_MAX_RANK] = {false};
      for (int64_t i = 0; i < n; ++i) added[v[i]] = true;
      for (uint32_t d = 0, j = 0; d < rank; ++d) {
        if (!added[d]) in_dims[j++] = d;
      }
    } else {
      for (uint32_t i = 0; i < rank; ++i) in_dims[i] = i;
    }
    const kiln_ir_attribute_t* maps[2] = {
        kiln_linalg_projection_map(context, rank, num_in, in_dims),
        kiln_linalg_identity_map(context, rank)};
    KILN_RETURN_IF_ERROR(
        kiln_linalg_generic_like(&b, op, maps, rank, NULL, &generic, &body));
    KILN_RETURN_IF_ERROR(kiln_linalg_build_copy(context, op, body));
  } else if (kiln_ir_op_is(op, "linalg.reduce") ||
             kiln_ir_op_is(op, "linalg.map")) {
    bool is_reduce = kiln_ir_op_is(op, "linalg.reduce");
    uint32_t n = kiln_ir_op_num_regular_operands(op);
    const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
    uint32_t rank =
        (uint32_t)(is_reduce ? in : kiln_ir_op_operand(op, ins)->type)
            ->shaped.rank;
    bool reduction[KILN_LINALG_MAX_RANK] = {false};
    int64_t kept[KILN_LINALG_MAX_RANK];
    uint32_t num_kept = 0;
    if (is_reduce) {
      int64_t v[KILN_LINALG_MAX_RANK];
      int64_t count = kiln_dialect_int_list(
          kiln_ir_op_get_attr(op, "dimensions"), v, KILN_LINALG_MAX_RANK);
      for (int64_t i = 0; i < count; ++i) reduction[v[i]] = true;
    }
    for (uint32_t d = 0; d < rank; ++d) {
      if (!reduction[d]) kept[num_kept++] = d;
    }
    const kiln_ir_attribute_t* maps[KILN_LINALG_MAX_RANK * 2];
    if (n > sizeof(maps) / sizeof(maps[0])) {
      return kiln_ir_op_emit_error(op, context, "too many operands");
    }
    for (uint32_t i = 0; i < n; ++i) {
      maps[i] = i < ins
                    ? kiln_linalg_identity_map(context, rank)
                    : kiln_linalg_projection_map(context, rank, num_kept, kept);
    }
    KILN_RETURN_IF_ERROR(kiln_linalg_generic_like(&b, op, maps, rank, reduction,
                                                  &generic, &body));
    kiln_linalg_move_body(op->regions[0].first_block, body);
  } else {
    return kiln_ir_op_emit_error(op, context, "cannot be generalized");
  }
  kiln_linalg_replace_op(op, generic);
  *out_generic = generic;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Named ops: custom forms
//===----------------------------------------------------------------------===//

// `name = [1, 0]` into the i64 array attribute |name|.
kiln_status_t kiln_linalg_parse_int_list_attr(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state,
                                              const char* name) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, name));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  int64_t v[KILN_LINALG_MAX_RANK];
  size_t n = 0;
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    do {
      if (n == KILN_LINALG_MAX_RANK) {
        return kiln_mlir_emit_error(p, "'%s' has more than %d entries", name,
                                    KILN_LINALG_MAX_RANK);
      }
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &v[n]));
      ++n;
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
  }
  return kiln_mlir_add_attribute(
      p, state, name,
      kiln_dialect_i64_array(kiln_mlir_parser_context(p), n, v));
}

// The body of the short form `{ arith.addf }`: block arguments for the
// |num_operands| operand elements, the payload op on them (reduce: the
// accumulator first, as MLIR builds it) and a yield of its result.
static kiln_status_t kiln_linalg_build_payload_region(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* payload, bool init_first,
    size_t num_args, const kiln_ir_type_t* const* arg_types,
    const kiln_ir_type_t* result_type, kiln_ir_region_t** out_region) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_ir_region_t* region = NULL;
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_new_region(context, &region, &block));
  for (size_t i = 0; i < num_args; ++i) {
    KILN_RETURN_IF_ERROR(kiln_ir_block_add_arg(
        context, block, kiln_ir_type_element(arg_types[i]), payload->location,
        NULL));
  }
  for (size_t i = 0; i < num_args; ++i) {
    size_t from = init_first ? (i == 0 ? num_args - 1 : i - 1) : i;
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_operand(context, payload, block->args[from]));
  }
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_result_type(context, payload, result_type));
  kiln_ir_builder_t b =
      kiln_linalg_body_builder(context, block, payload->location);
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(&b, payload, &op));
  KILN_RETURN_IF_ERROR(kiln_linalg_yield(&b, kiln_ir_op_result(op, 0)));
  *out_region = region;
  return kiln_ok_status();
}

// The custom forms of the named ops, as MLIR prints them:
//   [{ payload-op attr-dict }]     reduce, map (short form)
//   [attr-dict]                    the others (e.g. conv strides)
//   [dimension(N)]                 softmax
//   ins(...) outs(...)
//   [permutation = [..] | dimensions = [..]]  transpose | broadcast, reduce
//   [attr-dict]
//   [(%a: t, ...) { region }]      reduce, map (long form)
//   [-> types]                     (transpose/broadcast/reduce/map: inferred
//                                   from the tensor outputs when absent)
static kiln_status_t kiln_linalg_parse_named(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_string_view_t name = state->name;
  bool is_reduce = kiln_string_view_equal_cstr(name, "linalg.reduce");
  bool is_map = kiln_string_view_equal_cstr(name, "linalg.map");
  bool is_transpose = kiln_string_view_equal_cstr(name, "linalg.transpose");
  bool is_broadcast = kiln_string_view_equal_cstr(name, "linalg.broadcast");
  bool is_softmax = kiln_string_view_equal_cstr(name, "linalg.softmax");
  bool has_payload = false;
  kiln_ir_op_state_t payload;
  if (kiln_string_view_equal_cstr(name, "linalg.elementwise")) {
    // `kind=#linalg.elementwise_kind<add> [indexing_maps = [...]]`
    const kiln_ir_attribute_t* attr = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "kind"));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &attr));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "kind", attr));
    if (kiln_mlir_parse_optional_keyword(p, "indexing_maps")) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &attr));
      KILN_RETURN_IF_ERROR(
          kiln_mlir_add_attribute(p, state, "indexing_maps", attr));
    }
  }
  if ((is_reduce || is_map) &&
      kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LBRACE)) {
    kiln_ir_op_state_init(context, &payload, "linalg.yield",
                          kiln_mlir_current_location(p));
    if (!kiln_mlir_parse_optional_any_keyword(p, &payload.name)) {
      return kiln_mlir_emit_error(
          p, "expected the payload op name (e.g. `{ arith.addf }`)");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, &payload));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE));
    has_payload = true;
  } else {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  }
  if (is_softmax) {
    int64_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "dimension"));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "dimension",
        kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64), dim)));
  }
  int64_t ins = 0, outs = 0;
  kiln_mlir_type_list_t in_types = {0}, out_types = {0};
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "ins", &ins, &in_types));
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_operand_group(p, state, "outs", &outs, &out_types));
  if (is_transpose) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_parse_int_list_attr(p, state, "permutation"));
  } else if (is_broadcast || is_reduce) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_parse_int_list_attr(p, state, "dimensions"));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (is_reduce || is_map) {
    kiln_ir_region_t* region = NULL;
    if (has_payload) {
      if (outs < 1) {
        return kiln_mlir_emit_error(p, "the short form needs an output");
      }
      const kiln_ir_type_t* arg_types[KILN_LINALG_MAX_RANK * 2];
      size_t num_args = (size_t)ins + (is_reduce ? (size_t)outs : 0);
      if (num_args > sizeof(arg_types) / sizeof(arg_types[0])) {
        return kiln_mlir_emit_error(p, "too many operands");
      }
      for (size_t i = 0; i < num_args; ++i) {
        arg_types[i] =
            i < (size_t)ins ? in_types.items[i] : out_types.items[i - ins];
      }
      KILN_RETURN_IF_ERROR(kiln_linalg_build_payload_region(
          p, &payload, is_reduce, num_args, arg_types,
          kiln_ir_type_element(out_types.items[0]), &region));
    } else {
      kiln_mlir_block_arg_t args[KILN_LINALG_MAX_RANK * 2];
      size_t num_args = 0;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
      if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
        do {
          if (num_args == sizeof(args) / sizeof(args[0])) {
            return kiln_mlir_emit_error(p, "too many block arguments");
          }
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_block_arg(p, &args[num_args]));
          ++num_args;
        } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
      }
      KILN_RETURN_IF_ERROR(
          kiln_mlir_parse_region(p, num_args, args, false, &region));
    }
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, region));
  }
  bool inferred = is_reduce || is_map || is_transpose || is_broadcast;
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_results(p, state, inferred ? &out_types : NULL));
  return kiln_linalg_add_segments(context, state, ins, outs);
}

// The payload op of a reduce/map body in short form, or NULL: the body is
// one op on the block arguments in order (reduce: accumulator first) and
// a yield of its single result.
static kiln_ir_op_t* kiln_linalg_short_form_payload(kiln_ir_op_t* op,
                                                    bool init_first) {
  kiln_ir_block_t* body =
      op->num_regions == 1 ? op->regions[0].first_block : NULL;
  if (!body || !body->first_op || body->first_op->next != body->last_op) {
    return NULL;
  }
  kiln_ir_op_t* payload = body->first_op;
  kiln_ir_op_t* yield = body->last_op;
  uint32_t n = body->num_args;
  if (n == 0 || payload->num_results != 1 || payload->num_regions != 0 ||
      kiln_ir_op_num_regular_operands(payload) != n ||
      payload->num_operands != n || !kiln_ir_op_is(yield, "linalg.yield") ||
      kiln_ir_op_num_regular_operands(yield) != 1 ||
      kiln_ir_op_operand(yield, 0) != kiln_ir_op_result(payload, 0) ||
      kiln_linalg_num_outputs(op) != 1 ||
      (!init_first && n != kiln_linalg_num_inputs(op))) {
    return NULL;
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t from = init_first ? (i == 0 ? n - 1 : i - 1) : i;
    if (kiln_ir_op_operand(payload, i) != body->args[from]) return NULL;
  }
  return payload;
}

static void kiln_linalg_print_int_list_attr(kiln_ir_printer_t* p,
                                            kiln_ir_op_t* op,
                                            const char* name) {
  int64_t v[KILN_LINALG_MAX_RANK];
  int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, name), v,
                                    KILN_LINALG_MAX_RANK);
  kiln_ir_printer_printf(p, " %s = [", name);
  for (int64_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
  }
  kiln_ir_printer_printf(p, "]");
}

static void kiln_linalg_print_named(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  bool is_reduce = kiln_ir_op_is(op, "linalg.reduce");
  bool is_map = kiln_ir_op_is(op, "linalg.map");
  bool is_transpose = kiln_ir_op_is(op, "linalg.transpose");
  bool is_broadcast = kiln_ir_op_is(op, "linalg.broadcast");
  bool is_softmax = kiln_ir_op_is(op, "linalg.softmax");
  bool inferred = is_reduce || is_map || is_transpose || is_broadcast;
  static const char* const elided[] = {
      "operandSegmentSizes", "dimension", "dimensions",
      "permutation",         "kind",      "indexing_maps"};
  if (kiln_ir_op_is(op, "linalg.elementwise")) {
    const kiln_ir_attribute_t* kind = kiln_ir_op_get_attr(op, "kind");
    const kiln_ir_attribute_t* maps = kiln_ir_op_get_attr(op, "indexing_maps");
    if (kind) {
      kiln_ir_printer_printf(p, " kind=");
      kiln_ir_printer_print_attribute(p, kind);
    }
    if (maps) {
      kiln_ir_printer_printf(p, " indexing_maps = ");
      kiln_ir_printer_print_attribute(p, maps);
    }
  }
  kiln_ir_op_t* payload = NULL;
  if (is_reduce || is_map) {
    payload = kiln_linalg_short_form_payload(op, is_reduce);
    if (payload) {
      kiln_ir_printer_printf(p, " { %.*s", (int)payload->name.size,
                             payload->name.data);
      kiln_ir_printer_print_attr_dict(p, payload, NULL, 0);
      kiln_ir_printer_printf(p, " }");
    }
  } else if (!inferred) {
    kiln_ir_printer_print_attr_dict(p, op, elided, 6);
  }
  if (is_softmax) {
    const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dimension");
    kiln_ir_printer_printf(p, " dimension(%lld)",
                           dim ? (long long)dim->i : 0ll);
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t ins = kiln_linalg_num_inputs(op);
  kiln_linalg_print_group(p, op, "ins", 0, ins);
  kiln_linalg_print_group(p, op, "outs", ins, n);
  if (is_transpose) kiln_linalg_print_int_list_attr(p, op, "permutation");
  if (is_broadcast || is_reduce) {
    kiln_linalg_print_int_list_attr(p, op, "dimensions");
  }
  if (inferred) kiln_ir_printer_print_attr_dict(p, op, elided, 6);
  if ((is_reduce || is_map) && !payload && op->num_regions == 1 &&
      op->regions[0].first_block) {
    kiln_ir_block_t* body = op->regions[0].first_block;
    kiln_ir_printer_printf(p, " (");
    for (uint32_t i = 0; i < body->num_args; ++i) {
      if (i) kiln_ir_printer_printf(p, ", ");
      kiln_ir_printer_print_arg_decl(p, body->args[i]);
    }
    kiln_ir_printer_printf(p, ") ");
    kiln_ir_printer_print_region(p, &op->regions[0], false);
  }
  if (!inferred) kiln_linalg_print_results(p, op);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

// lower_to_structured hook: named ops become linalg.generic; generic,
// fill, yield... are the structured form already.
static kiln_status_t kiln_linalg_lower_named(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op) {
  if (!kiln_linalg_is_named_op(op)) return kiln_ok_status();
  kiln_ir_op_t* generic = NULL;
  return kiln_linalg_generalize(b->context, op, &generic);
}

static const kiln_ir_op_def_t kiln_linalg_defs[] = {
    {"linalg.generic", "structured op: maps, iterators and a scalar body",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK, KILN_IR_VARIADIC,
     KILN_IR_VARIADIC, 1, 0, kiln_linalg_verify_generic,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL,
     NULL},
    {"linalg.matmul", "C += A * B", KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC,
     KILN_IR_VARIADIC, 0, 0, kiln_linalg_verify_matmul,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL,
     NULL},
    {"linalg.batch_matmul", "C[b] += A[b] * B[b]", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0, kiln_linalg_verify_matmul,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL,
     NULL},
    {"linalg.fill", "fills the output with a scalar", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0, kiln_linalg_verify_fill,
     kiln_linalg_parse_structured, kiln_linalg_print_structured, NULL, NULL,
     NULL},
#define KILN_LINALG_NAMED_DEF(name, summary, regions, verify)                 \
  {                                                                           \
    name, summary, KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, KILN_IR_VARIADIC,    \
        regions, 0, verify, kiln_linalg_parse_named, kiln_linalg_print_named, \
        NULL, NULL, NULL                                                      \
  }
    KILN_LINALG_NAMED_DEF("linalg.matvec", "y[m] += A[m, k] * x[k]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.quantized_matmul",
                          "C[m, n] += (A[m, k] - a_zp) * (B[k, n] - b_zp)", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.vecmat", "y[n] += x[k] * A[k, n]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.dot", "c[] += a[k] * b[k]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.batch_matvec",
                          "y[b, m] += A[b, m, k] * x[b, k]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.batch_vecmat",
                          "y[b, n] += x[b, k] * A[b, k, n]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.matmul_transpose_a",
                          "C[m, n] += A[k, m] * B[k, n]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.matmul_transpose_b",
                          "C[m, n] += A[m, k] * B[n, k]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.batch_matmul_transpose_a",
                          "C[b, m, n] += A[b, k, m] * B[b, k, n]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.batch_matmul_transpose_b",
                          "C[b, m, n] += A[b, m, k] * B[b, n, k]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.batch_reduce_matmul",
                          "C[m, n] += A[b, m, k] * B[b, k, n]", 0,
                          kiln_linalg_verify_contraction),
    KILN_LINALG_NAMED_DEF("linalg.conv_2d_nhwc_fhwc",
                          "2-D convolution, NHWC input, FHWC filter", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.depthwise_conv_2d_nchw_chw",
                          "depthwise 2-D convolution, NCHW input, CHW filter",
                          0, kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.conv_1d_nwc_wcf",
                          "1-D convolution, NWC input, WCF filter", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.conv_1d_ncw_fcw",
                          "1-D convolution, NCW input, FCW filter", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.conv_1d",
                          "1-D convolution without batch or channels", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.conv_2d",
                          "2-D convolution without batch or channels", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.conv_3d_ndhwc_dhwcf",
                          "3-D convolution, NDHWC input, DHWCF filter", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nwc_sum",
                          "window sum, NWC (the 2nd input gives the window)", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nwc_max",
                          "window max, NWC (the 2nd input gives the window)", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nwc_min",
                          "window min, NWC (the 2nd input gives the window)", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_ncw_sum",
                          "window sum, NCW (the 2nd input gives the window)", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_ncw_max",
                          "window max, NCW (the 2nd input gives the window)", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nhwc_sum",
                          "window sum, NHWC (the 2nd input gives the window)",
                          0, kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nhwc_max",
                          "window max, NHWC (the 2nd input gives the window)",
                          0, kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nhwc_min",
                          "window min, NHWC (the 2nd input gives the window)",
                          0, kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nchw_sum",
                          "window sum, NCHW (the 2nd input gives the window)",
                          0, kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.pooling_nchw_max",
                          "window max, NCHW (the 2nd input gives the window)",
                          0, kiln_linalg_verify_conv),
#define KILN_LINALG_EW(name, summary) \
  KILN_LINALG_NAMED_DEF(name, summary, 0, kiln_linalg_verify_elementwise_named)
    KILN_LINALG_EW("linalg.add", "elementwise a + b"),
    KILN_LINALG_EW("linalg.sub", "elementwise a - b"),
    KILN_LINALG_EW("linalg.mul", "elementwise a * b"),
    KILN_LINALG_EW("linalg.div", "elementwise a / b (signed for integers)"),
    KILN_LINALG_EW("linalg.div_unsigned", "elementwise unsigned a / b"),
    KILN_LINALG_EW("linalg.max", "elementwise max(a, b)"),
    KILN_LINALG_EW("linalg.min", "elementwise min(a, b)"),
    KILN_LINALG_EW("linalg.powf", "elementwise a ** b"),
    KILN_LINALG_EW("linalg.exp", "elementwise exp(x)"),
    KILN_LINALG_EW("linalg.log", "elementwise log(x)"),
    KILN_LINALG_EW("linalg.abs", "elementwise |x|"),
    KILN_LINALG_EW("linalg.ceil", "elementwise ceil(x)"),
    KILN_LINALG_EW("linalg.floor", "elementwise floor(x)"),
    KILN_LINALG_EW("linalg.negf", "elementwise -x"),
    KILN_LINALG_EW("linalg.round", "elementwise round(x), halves away from 0"),
    KILN_LINALG_EW("linalg.sqrt", "elementwise sqrt(x)"),
    KILN_LINALG_EW("linalg.rsqrt", "elementwise 1 / sqrt(x)"),
    KILN_LINALG_EW("linalg.tanh", "elementwise tanh(x)"),
    KILN_LINALG_EW("linalg.erf", "elementwise erf(x)"),
    KILN_LINALG_EW("linalg.square", "elementwise x * x"),
    KILN_LINALG_EW("linalg.reciprocal", "elementwise 1 / x"),
    KILN_LINALG_EW("linalg.elementwise",
                   "elementwise op of `kind` (#linalg.elementwise_kind<...>)"),
#undef KILN_LINALG_EW
    KILN_LINALG_NAMED_DEF("linalg.conv_2d_nhwc_hwcf",
                          "2-D convolution, NHWC input, HWCF filter", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.conv_2d_nchw_fchw",
                          "2-D convolution, NCHW input, FCHW filter", 0,
                          kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.depthwise_conv_2d_nhwc_hwc",
                          "depthwise 2-D convolution, NHWC input, HWC filter",
                          0, kiln_linalg_verify_conv),
    KILN_LINALG_NAMED_DEF("linalg.copy", "copies (and converts) the input", 0,
                          kiln_linalg_verify_elementwise),
    KILN_LINALG_NAMED_DEF("linalg.transpose",
                          "output dim i = input dim permutation[i]", 0,
                          kiln_linalg_verify_elementwise),
    KILN_LINALG_NAMED_DEF("linalg.broadcast",
                          "adds the output `dimensions` to the input", 0,
                          kiln_linalg_verify_elementwise),
    KILN_LINALG_NAMED_DEF("linalg.reduce",
                          "reduces `dimensions` of the inputs with the body", 1,
                          kiln_linalg_verify_reduce),
    KILN_LINALG_NAMED_DEF("linalg.map", "applies the body elementwise", 1,
                          kiln_linalg_verify_map),
    KILN_LINALG_NAMED_DEF("linalg.softmax",
                          "exp(x - max) / sum(exp(x - max)) along `dimension`",
                          0, kiln_linalg_verify_softmax),
#undef KILN_LINALG_NAMED_DEF
    {"linalg.yield", "yields the body results of a linalg.generic",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE,
     KILN_IR_VARIADIC, 0, 0, 0, NULL, kiln_dialect_parse_return_like,
     kiln_dialect_print_return_like, NULL, NULL, NULL},
    {"linalg.index", "the current index of a loop of the enclosing generic",
     KILN_IR_TRAIT_PURE, 0, 1, 0, 0, kiln_linalg_verify_index,
     kiln_linalg_parse_index, kiln_linalg_print_index, NULL, NULL, NULL},
};

kiln_status_t kiln_dialect_register_linalg(kiln_ir_context_t* context) {
  return kiln_lowering_register_ops(
      context, kiln_linalg_defs,
      sizeof(kiln_linalg_defs) / sizeof(kiln_linalg_defs[0]),
      kiln_linalg_lower_named);
}
