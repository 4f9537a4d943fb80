// const-eval: a structured op (linalg.generic; matmul/batch_matmul/fill
// are generalized first) whose inputs are all constants, whose outputs are
// constants or tensor.empty, and whose body captures only constants is
// evaluated by the reference interpreter and replaced by arith.constant.
// Results above KILN_INTERP_MAX_RESULT_ELEMENTS are skipped, so are results
// larger than their dense constant inputs together (broadcasts), and
// nothing fed by util.unfoldable_constant is folded (it is not
// constant-like).
#include <string.h>

#include "compiler/dialects/linalg.h"
#include "compiler/pipeline/linalg_interp.h"
#include "compiler/pipeline/passes.h"

typedef struct kiln_const_eval_t {
  kiln_ir_context_t* ctx;
  kiln_ir_op_t** ops;
  size_t count;
  size_t capacity;
  bool oom;
} kiln_const_eval_t;

// True when every value used inside |op|'s body but defined outside is a
// constant.
static bool kiln_captures_constant(kiln_ir_op_t* op, kiln_ir_block_t* body) {
  for (kiln_ir_op_t* inner = body->first_op; inner; inner = inner->next) {
    for (uint32_t i = 0; i < inner->num_operands; ++i) {
      kiln_ir_value_t* v = inner->operands[i].value;
      kiln_ir_block_t* owner = kiln_ir_value_parent_block(v);
      if (owner == body) continue;
      if (!kiln_pipeline_constant_of(v)) return false;
    }
  }
  return true;
}

static bool kiln_const_eval_candidate(kiln_ir_op_t* op) {
  if (!kiln_linalg_is_structured(op)) return false;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t ins = kiln_linalg_num_inputs(op);
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    if (kiln_pipeline_constant_of(v)) continue;
    if (i >= ins && v->kind == KILN_IR_VALUE_RESULT &&
        kiln_ir_op_is(v->defining_op, "tensor.empty")) {
      continue;
    }
    return false;
  }
  // Elements of the dense constant inputs; a splat or a single element
  // (whose broadcast is a splat, stored compactly) counts 1.
  int64_t in_elements = 0;
  bool dense_input = false;
  for (uint32_t i = 0; i < ins; ++i) {
    const kiln_ir_attribute_t* c =
        kiln_pipeline_constant_of(kiln_ir_op_operand(op, i));
    int64_t count = c && c->kind == KILN_IR_ATTR_DENSE_ELEMENTS
                        ? kiln_ir_dense_num_elements(c)
                        : 1;
    if (c && c->kind == KILN_IR_ATTR_DENSE_ELEMENTS && !c->dense.splat &&
        count > 1) {
      in_elements += count;
      dense_input = true;
    } else {
      in_elements += 1;
    }
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    int64_t count = kiln_ir_type_num_elements(op->results[i].type);
    if (count < 0 || count > KILN_INTERP_MAX_RESULT_ELEMENTS) return false;
    // A broadcast of a dense constant (a per-channel BatchNormalization
    // parameter to the activation's shape) stays an op: folded, it would
    // store the expanded tensor in the module (MobileNetV2: 14 MB of
    // weights made a 100 MB module) and cost its compile time.
    if (dense_input && count > in_elements) return false;
  }
  kiln_ir_block_t* body = kiln_linalg_body(op);
  return !body || kiln_captures_constant(op, body);
}

// A generic that only moves elements: one input, one output with the
// identity map, the input's map a projected permutation of the loops, and a
// body that yields the input element (broadcasts, transposes, reshapes by
// unit dims: how MatMul's weights reach batch_matmul). These are copied as
// bytes rather than through the scalar interpreter, and a copy that keeps
// the byte order (dims only gained or lost unit extents) shares the
// constant's data: BERT's 340 MB of weights went through the interpreter
// element by element. Sets *out_result (NULL: not such a copy).
static kiln_status_t kiln_const_eval_copy(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* input, const kiln_ir_attribute_t** out_result) {
  *out_result = NULL;
  if (!kiln_ir_op_is(op, "linalg.generic") || kiln_linalg_num_inputs(op) != 1 ||
      kiln_linalg_num_outputs(op) != 1 || op->num_results != 1 || !input ||
      input->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_ok_status();
  }
  kiln_ir_block_t* body = kiln_linalg_body(op);
  kiln_ir_op_t* yield = body ? body->first_op : NULL;
  if (!yield || yield->next || !kiln_ir_op_is(yield, "linalg.yield") ||
      yield->num_operands != 1 || body->num_args < 1 ||
      yield->operands[0].value != body->args[0]) {
    return kiln_ok_status();
  }
  const kiln_ir_type_t* in_type = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out_type = op->results[0].type;
  const kiln_ir_affine_map_t* in_map = kiln_linalg_indexing_map(op, 0);
  const kiln_ir_affine_map_t* out_map = kiln_linalg_indexing_map(op, 1);
  uint32_t loops = kiln_linalg_num_loops(op);
  if (!in_map || !out_map || !kiln_ir_affine_map_is_identity(out_map) ||
      !kiln_ir_type_has_static_shape(in_type) ||
      !kiln_ir_type_has_static_shape(out_type) ||
      kiln_ir_type_element(in_type) != kiln_ir_type_element(out_type) ||
      out_type->shaped.rank != loops ||
      in_map->num_results != in_type->shaped.rank || loops > 16) {
    return kiln_ok_status();
  }
  size_t elem = kiln_ir_type_storage_bytes(kiln_ir_type_element(out_type));
  if (!elem) return kiln_ok_status();
  // One value broadcast (a splat, or a one-element tensor) stays a splat.
  if (input->dense.splat || kiln_ir_type_num_elements(in_type) == 1) {
    *out_result = kiln_ir_dense_elements_attr_get(context, out_type, true,
                                                  input->dense.data, elem);
    return *out_result ? kiln_ok_status() : kiln_ir_context_take_error(context);
  }
  // Element stride of the input along each loop (0: broadcast).
  int64_t in_stride[16] = {0};
  int64_t stride = 1;
  int64_t last_pos = -1;
  bool in_order = true;  // the input's non-unit dims in loop order
  for (size_t r = in_map->num_results; r-- > 0;) {
    int64_t pos;
    if (!kiln_ir_affine_map_result_is_dim(in_map, r, &pos) || pos >= loops ||
        in_stride[pos] != 0 ||
        in_type->shaped.dims[r] != out_type->shaped.dims[pos]) {
      return kiln_ok_status();
    }
    if (in_type->shaped.dims[r] != 1) {
      in_stride[pos] = stride;
      if (last_pos >= 0 && pos > last_pos) in_order = false;
      last_pos = pos;
    }
    stride *= in_type->shaped.dims[r];
  }
  int64_t count = kiln_ir_type_num_elements(out_type);
  if (in_order && count == kiln_ir_type_num_elements(in_type)) {
    *out_result = kiln_ir_dense_elements_attr_reshape(context, input, out_type);
    return *out_result ? kiln_ok_status() : kiln_ir_context_take_error(context);
  }
  uint8_t* out = NULL;
  const kiln_ir_attribute_t* result =
      kiln_ir_dense_elements_attr_get_uninitialized(context, out_type, false,
                                                    (size_t)count * elem, &out);
  if (!result) return kiln_ir_context_take_error(context);
  const int64_t* dims = out_type->shaped.dims;
  int64_t index[16] = {0};
  int64_t offset = 0;  // input element of |index|
  for (int64_t i = 0; i < count; ++i) {
    memcpy(out + (size_t)i * elem, input->dense.data + (size_t)offset * elem,
           elem);
    for (int64_t d = (int64_t)loops - 1; d >= 0; --d) {
      offset += in_stride[d];
      if (++index[d] < dims[d]) break;
      offset -= in_stride[d] * dims[d];
      index[d] = 0;
    }
  }
  *out_result = result;
  return kiln_ok_status();
}

static kiln_ir_walk_result_t kiln_const_eval_collect(kiln_ir_op_t* op,
                                                     void* user_data) {
  kiln_const_eval_t* ce = user_data;
  if (!kiln_linalg_is_structured(op)) return KILN_IR_WALK_ADVANCE;
  if (ce->count == ce->capacity) {
    size_t cap = ce->capacity ? ce->capacity * 2 : 32;
    kiln_ir_op_t** ops = kiln_ir_arena_alloc(ce->ctx, sizeof(*ops) * cap);
    if (!ops) {
      ce->oom = true;
      return KILN_IR_WALK_INTERRUPT;
    }
    for (size_t i = 0; i < ce->count; ++i) ops[i] = ce->ops[i];
    ce->ops = ops;
    ce->capacity = cap;
  }
  ce->ops[ce->count++] = op;
  return KILN_IR_WALK_SKIP;
}

kiln_status_t kiln_pass_const_eval(kiln_ir_context_t* context,
                                   kiln_ir_op_t* module, void* user_data) {
  kiln_const_eval_t ce = {context, NULL, 0, 0, false};
  kiln_ir_op_walk(module, KILN_IR_WALK_PRE_ORDER, kiln_const_eval_collect, &ce);
  if (ce.oom)
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "const-eval");
  // Ops are in program order, so producers fold before their users.
  for (size_t k = 0; k < ce.count; ++k) {
    kiln_ir_op_t* op = ce.ops[k];
    if (!kiln_const_eval_candidate(op)) continue;
    KILN_RETURN_IF_ERROR(kiln_linalg_generalize(context, op, &op));
    uint32_t n = kiln_ir_op_num_regular_operands(op);
    const kiln_ir_attribute_t* values[16];
    const kiln_ir_attribute_t* results[16];
    if (n > 16 || op->num_results > 16) continue;
    for (uint32_t i = 0; i < n; ++i) {
      values[i] = kiln_pipeline_constant_of(kiln_ir_op_operand(op, i));
    }
    bool ok = false;
    KILN_RETURN_IF_ERROR(
        kiln_const_eval_copy(context, op, values[0], &results[0]));
    if (results[0]) {
      ok = true;
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_linalg_interpret(context, op, values, results, &ok));
    }
    if (!ok) continue;
    kiln_ir_builder_t b = kiln_ir_builder_make(context);
    kiln_ir_builder_set_before(&b, op);
    b.location = op->location;
    for (uint32_t i = 0; i < op->num_results; ++i) {
      kiln_ir_named_attribute_t attr =
          kiln_ir_named_attr(context, "value", results[i]);
      const kiln_ir_type_t* type = op->results[i].type;
      kiln_ir_op_t* cst = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
          &b, "arith.constant", 0, NULL, 1, &type, 1, &attr, &cst));
      kiln_ir_value_replace_all_uses_with(&op->results[i],
                                          kiln_ir_op_result(cst, 0));
    }
    kiln_ir_op_erase(op);
  }
  return kiln_ok_status();
}
