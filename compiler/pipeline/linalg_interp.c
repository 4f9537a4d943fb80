// Reference interpreter of linalg.generic (see linalg_interp.h).
//
// The body is first compiled into a flat list of instructions over value
// slots (block arguments, then op results, then captured constants); the
// iteration space is then walked in row-major order, loading operands
// through their indexing maps, running the instructions and storing the
// yielded values. Reductions accumulate naturally because the output's
// block argument reads the current output element.
#include "compiler/pipeline/linalg_interp.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/linalg.h"
#include "compiler/pipeline/passes.h"

#define KILN_INTERP_MAX_LOOPS 16
#define KILN_INTERP_MAX_OPERANDS 16

typedef enum kiln_instr_kind_e {
  KILN_INSTR_SCALAR = 0,   // kiln_scalar_eval
  KILN_INSTR_INDEX = 1,    // linalg.index
  KILN_INSTR_EXTRACT = 2,  // tensor.extract from a captured constant
} kiln_instr_kind_t;

typedef struct kiln_instr_t {
  kiln_instr_kind_t kind;
  kiln_scalar_op_t op;
  int64_t predicate;
  const kiln_ir_type_t* operand_type;
  const kiln_ir_type_t* result_type;
  uint32_t num_args;
  uint32_t args[KILN_INTERP_MAX_LOOPS + 1];
  uint32_t result;
  // EXTRACT: the captured tensor.
  const kiln_ir_attribute_t* tensor;
} kiln_instr_t;

typedef struct kiln_interp_t {
  kiln_ir_context_t* ctx;
  kiln_ir_value_t** slot_values;  // value of each slot (for lookup)
  uint32_t num_slots;
  uint32_t slot_capacity;
  kiln_scalar_t* slots;
  kiln_instr_t* instrs;
  uint32_t num_instrs;
  bool ok;
} kiln_interp_t;

static int64_t kiln_interp_slot_of(kiln_interp_t* in, kiln_ir_value_t* v) {
  for (uint32_t i = 0; i < in->num_slots; ++i) {
    if (in->slot_values[i] == v) return i;
  }
  return -1;
}

static int64_t kiln_interp_add_slot(kiln_interp_t* in, kiln_ir_value_t* v) {
  if (in->num_slots == in->slot_capacity) {
    uint32_t cap = in->slot_capacity ? in->slot_capacity * 2 : 32;
    kiln_ir_value_t** values =
        kiln_ir_arena_alloc(in->ctx, sizeof(*values) * cap);
    kiln_scalar_t* slots = kiln_ir_arena_alloc(in->ctx, sizeof(*slots) * cap);
    if (!values || !slots) return -1;
    if (in->num_slots) {
      memcpy(values, in->slot_values, sizeof(*values) * in->num_slots);
      memcpy(slots, in->slots, sizeof(*slots) * in->num_slots);
    }
    in->slot_values = values;
    in->slots = slots;
    in->slot_capacity = cap;
  }
  in->slot_values[in->num_slots] = v;
  return in->num_slots++;
}

// The slot of |v|, adding a captured scalar constant when needed.
static int64_t kiln_interp_operand_slot(kiln_interp_t* in, kiln_ir_value_t* v) {
  int64_t s = kiln_interp_slot_of(in, v);
  if (s >= 0) return s;
  const kiln_ir_attribute_t* c = kiln_pipeline_constant_of(v);
  if (!c || kiln_ir_type_is_shaped(v->type)) return -1;
  s = kiln_interp_add_slot(in, v);
  if (s < 0) return -1;
  if (!kiln_scalar_from_attr(c, 0, v->type, &in->slots[s])) return -1;
  return s;
}

static bool kiln_interp_compile(kiln_interp_t* in, kiln_ir_block_t* body) {
  uint32_t count = 0;
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) ++count;
  in->instrs = kiln_ir_arena_alloc(in->ctx, sizeof(kiln_instr_t) * (count + 1));
  if (!in->instrs) return false;
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) {
    if (kiln_ir_op_is(op, "linalg.yield")) break;
    if (op->num_results != 1 || op->num_regions) return false;
    kiln_instr_t* instr = &in->instrs[in->num_instrs];
    memset(instr, 0, sizeof(*instr));
    const kiln_ir_type_t* rt = op->results[0].type;
    if (kiln_ir_type_is_shaped(rt)) return false;
    uint32_t n = kiln_ir_op_num_regular_operands(op);
    if (kiln_ir_op_has_trait(op, KILN_IR_TRAIT_CONSTANT_LIKE)) {
      int64_t s = kiln_interp_add_slot(in, &op->results[0]);
      if (s < 0 || !kiln_scalar_from_attr(kiln_ir_op_get_attr(op, "value"), 0,
                                          rt, &in->slots[s])) {
        return false;
      }
      continue;
    }
    if (kiln_ir_op_is(op, "linalg.index")) {
      instr->kind = KILN_INSTR_INDEX;
      instr->predicate = kiln_ir_op_get_attr(op, "dim")->i;
    } else if (kiln_ir_op_is(op, "tensor.extract")) {
      instr->kind = KILN_INSTR_EXTRACT;
      instr->tensor = kiln_pipeline_constant_of(kiln_ir_op_operand(op, 0));
      if (!instr->tensor ||
          instr->tensor->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
        return false;
      }
      instr->operand_type = kiln_ir_op_operand(op, 0)->type;
      instr->num_args = n - 1;
      for (uint32_t i = 1; i < n; ++i) {
        int64_t s = kiln_interp_operand_slot(in, kiln_ir_op_operand(op, i));
        if (s < 0) return false;
        instr->args[i - 1] = (uint32_t)s;
      }
    } else {
      kiln_scalar_op_t kind = kiln_dialect_scalar_op(op);
      if (kind == KILN_SCALAR_OP_NONE || n > 3) return false;
      instr->kind = KILN_INSTR_SCALAR;
      instr->op = kind;
      const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(op, "predicate");
      if (pred && pred->kind == KILN_IR_ATTR_INTEGER)
        instr->predicate = pred->i;
      instr->operand_type =
          kiln_ir_op_operand(op, kind == KILN_SCALAR_SELECT ? 1 : 0)->type;
      instr->num_args = n;
      for (uint32_t i = 0; i < n; ++i) {
        int64_t s = kiln_interp_operand_slot(in, kiln_ir_op_operand(op, i));
        if (s < 0) return false;
        instr->args[i] = (uint32_t)s;
      }
    }
    instr->result_type = rt;
    int64_t r = kiln_interp_add_slot(in, &op->results[0]);
    if (r < 0) return false;
    instr->result = (uint32_t)r;
    ++in->num_instrs;
  }
  return true;
}

static bool kiln_interp_run_body(kiln_interp_t* in, const int64_t* iv) {
  for (uint32_t i = 0; i < in->num_instrs; ++i) {
    kiln_instr_t* instr = &in->instrs[i];
    kiln_scalar_t* out = &in->slots[instr->result];
    switch (instr->kind) {
      case KILN_INSTR_INDEX:
        out->i = iv[instr->predicate];
        break;
      case KILN_INSTR_EXTRACT: {
        const kiln_ir_type_t* t = instr->operand_type;
        int64_t linear = 0;
        for (uint32_t d = 0; d < instr->num_args; ++d) {
          int64_t idx = in->slots[instr->args[d]].i;
          if (idx < 0 || idx >= t->shaped.dims[d]) return false;
          linear = linear * t->shaped.dims[d] + idx;
        }
        if (!kiln_scalar_from_attr(instr->tensor, linear, t->shaped.element,
                                   out)) {
          return false;
        }
        break;
      }
      case KILN_INSTR_SCALAR: {
        kiln_scalar_t args[3];
        for (uint32_t a = 0; a < instr->num_args; ++a) {
          args[a] = in->slots[instr->args[a]];
        }
        if (!kiln_scalar_eval(instr->op, instr->predicate, instr->operand_type,
                              instr->result_type, args, out)) {
          return false;
        }
        break;
      }
    }
  }
  return true;
}

kiln_status_t kiln_linalg_interpret(
    kiln_ir_context_t* context, kiln_ir_op_t* generic,
    const kiln_ir_attribute_t* const* operand_values,
    const kiln_ir_attribute_t** out_results, bool* out_ok) {
  *out_ok = false;
  if (!kiln_ir_op_is(generic, "linalg.generic")) return kiln_ok_status();
  kiln_ir_block_t* body = kiln_linalg_body(generic);
  uint32_t n = kiln_ir_op_num_regular_operands(generic);
  uint32_t num_outs = kiln_linalg_num_outputs(generic);
  uint32_t loops = kiln_linalg_num_loops(generic);
  if (!body || n > KILN_INTERP_MAX_OPERANDS || loops > KILN_INTERP_MAX_LOOPS ||
      body->num_args != n) {
    return kiln_ok_status();
  }
  // Loop bounds from the operands' dims through dim-only map results.
  int64_t bounds[KILN_INTERP_MAX_LOOPS];
  for (uint32_t i = 0; i < loops; ++i) bounds[i] = -1;
  const kiln_ir_affine_map_t* maps[KILN_INTERP_MAX_OPERANDS];
  kiln_scalar_t* data[KILN_INTERP_MAX_OPERANDS];
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(generic, i)->type;
    maps[i] = kiln_linalg_indexing_map(generic, i);
    if (!maps[i] || !kiln_ir_type_is_ranked_tensor(t) ||
        !kiln_ir_type_has_static_shape(t)) {
      return kiln_ok_status();
    }
    for (size_t r = 0; r < maps[i]->num_results; ++r) {
      int64_t pos;
      if (kiln_ir_affine_map_result_is_dim(maps[i], r, &pos) &&
          pos < (int64_t)loops) {
        bounds[pos] = t->shaped.dims[r];
      }
    }
  }
  int64_t total = 1;
  for (uint32_t i = 0; i < loops; ++i) {
    if (bounds[i] < 0) return kiln_ok_status();
    total *= bounds[i];
    if (total > KILN_INTERP_MAX_ITERATIONS) return kiln_ok_status();
  }
  // Decode operands.
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(generic, i)->type;
    int64_t count = kiln_ir_type_num_elements(t);
    if (count > KILN_INTERP_MAX_RESULT_ELEMENTS) return kiln_ok_status();
    data[i] = kiln_ir_arena_alloc(
        context, sizeof(kiln_scalar_t) * (size_t)(count ? count : 1));
    if (!data[i]) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "const-eval");
    }
    const kiln_ir_attribute_t* v = operand_values[i];
    if (!v) {
      if (i < n - num_outs) return kiln_ok_status();  // inputs need values
      continue;                                       // zeros
    }
    for (int64_t e = 0; e < count; ++e) {
      if (!kiln_scalar_from_attr(v, e, t->shaped.element, &data[i][e])) {
        return kiln_ok_status();
      }
    }
  }
  kiln_interp_t in;
  memset(&in, 0, sizeof(in));
  in.ctx = context;
  for (uint32_t i = 0; i < n; ++i) {
    if (kiln_interp_add_slot(&in, body->args[i]) < 0) return kiln_ok_status();
  }
  if (!kiln_interp_compile(&in, body)) return kiln_ok_status();
  kiln_ir_op_t* yield = body->last_op;
  if (!yield || !kiln_ir_op_is(yield, "linalg.yield") ||
      kiln_ir_op_num_regular_operands(yield) != num_outs) {
    return kiln_ok_status();
  }
  uint32_t yield_slots[KILN_INTERP_MAX_OPERANDS];
  for (uint32_t i = 0; i < num_outs; ++i) {
    int64_t s = kiln_interp_operand_slot(&in, kiln_ir_op_operand(yield, i));
    if (s < 0) return kiln_ok_status();
    yield_slots[i] = (uint32_t)s;
  }
  // Walk the iteration space.
  int64_t iv[KILN_INTERP_MAX_LOOPS] = {0};
  int64_t linear[KILN_INTERP_MAX_OPERANDS];
  for (int64_t point = 0; point < total; ++point) {
    for (uint32_t i = 0; i < n; ++i) {
      const kiln_ir_type_t* t = kiln_ir_op_operand(generic, i)->type;
      int64_t lin = 0;
      for (size_t r = 0; r < maps[i]->num_results; ++r) {
        int64_t idx;
        if (!kiln_ir_affine_expr_eval(maps[i]->results[r], iv, loops, NULL, 0,
                                      &idx) ||
            idx < 0 || idx >= t->shaped.dims[r]) {
          return kiln_ok_status();
        }
        lin = lin * t->shaped.dims[r] + idx;
      }
      linear[i] = lin;
      in.slots[i] = data[i][lin];
    }
    if (!kiln_interp_run_body(&in, iv)) return kiln_ok_status();
    for (uint32_t o = 0; o < num_outs; ++o) {
      uint32_t i = n - num_outs + o;
      data[i][linear[i]] = in.slots[yield_slots[o]];
    }
    for (int64_t d = (int64_t)loops - 1; d >= 0; --d) {
      if (++iv[d] < bounds[d]) break;
      iv[d] = 0;
    }
  }
  for (uint32_t o = 0; o < num_outs; ++o) {
    uint32_t i = n - num_outs + o;
    const kiln_ir_type_t* t = kiln_ir_op_operand(generic, i)->type;
    out_results[o] = kiln_scalar_dense_attr(
        context, t, kiln_ir_type_num_elements(t), data[i]);
    if (!out_results[o]) return kiln_ok_status();
  }
  *out_ok = true;
  return kiln_ok_status();
}
