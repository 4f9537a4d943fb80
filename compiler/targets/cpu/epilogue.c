#include "compiler/targets/cpu/epilogue.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/dialects/scalar_eval.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/ptr_map.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/types.h"

// The scalar ops an epilogue may hold, as C over operands a, b, c with the
// semantics of numerics.h (what the vmvx program and the generic C path
// compute for the same ops).
typedef struct kiln_cpu_epilogue_row_t {
  const char* name;
  int arity;
  const char* expr;
} kiln_cpu_epilogue_row_t;

static const kiln_cpu_epilogue_row_t kiln_cpu_epilogue_rows[] = {
    {"arith.addf", 2, "a + b"},
    {"arith.subf", 2, "a - b"},
    {"arith.mulf", 2, "a * b"},
    {"arith.divf", 2, "a / b"},
    {"arith.maximumf", 2, "KILN_VM_FMAX(a, b)"},
    {"arith.minimumf", 2, "KILN_VM_FMIN(a, b)"},
    {"arith.negf", 1, "-a"},
    {"math.absf", 1, "fabs(a)"},
    {"math.exp", 1, "KILN_VM_EXP(a)"},
    {"math.tanh", 1, "KILN_VM_TANH(a)"},
    {"math.erf", 1, "KILN_VM_ERF(a)"},
    {"math.sqrt", 1, "sqrt(a)"},
    {"arith.select", 3, "a ? b : c"},
};

// arith.cmpf predicates by name (numerics.h's KILN_VM_FLOAT_COMPARE_OPS).
static const char* const kiln_cpu_epilogue_cmpf[][2] = {
    {"oeq", "a == b"},
    {"one", "a < b || a > b"},
    {"olt", "a < b"},
    {"ole", "a <= b"},
    {"ogt", "a > b"},
    {"oge", "a >= b"},
    {"ueq", "isunordered(a, b) || a == b"},
    {"une", "!(a == b)"},
    {"ult", "!(a >= b)"},
    {"ule", "!(a > b)"},
    {"ugt", "!(a <= b)"},
    {"uge", "!(a < b)"},
    {"ord", "!isunordered(a, b)"},
    {"uno", "isunordered(a, b)"},
};

static bool kiln_cpu_is_f32_type(const kiln_ir_type_t* t) {
  return kiln_ir_type_is_float(t) && t->flt.kind == KILN_IR_F32;
}

static bool kiln_cpu_is_i1_type(const kiln_ir_type_t* t) {
  return t->kind == KILN_IR_TYPE_INTEGER && t->integer.width == 1;
}

bool kiln_cpu_is_static_f32_tensor(const kiln_ir_type_t* t, int rank) {
  return kiln_ir_type_is_ranked_tensor(t) && kiln_ir_type_has_static_shape(t) &&
         (rank < 0 || t->shaped.rank == (size_t)rank) &&
         kiln_cpu_is_f32_type(t->shaped.element);
}

// The C expression of scalar body op |op| over a, b, c, or NULL.
static const char* kiln_cpu_epilogue_expr(kiln_ir_op_t* op, int* out_arity) {
  if (kiln_ir_op_is(op, "arith.cmpf")) {
    const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(op, "predicate");
    const char* name = pred && pred->kind == KILN_IR_ATTR_INTEGER
                           ? kiln_cmpf_predicate_name(pred->i)
                           : NULL;
    for (size_t i = 0; name && i < sizeof(kiln_cpu_epilogue_cmpf) /
                                       sizeof(kiln_cpu_epilogue_cmpf[0]);
         ++i) {
      if (!strcmp(name, kiln_cpu_epilogue_cmpf[i][0])) {
        *out_arity = 2;
        return kiln_cpu_epilogue_cmpf[i][1];
      }
    }
    return NULL;
  }
  for (size_t i = 0;
       i < sizeof(kiln_cpu_epilogue_rows) / sizeof(kiln_cpu_epilogue_rows[0]);
       ++i) {
    if (kiln_ir_op_is(op, kiln_cpu_epilogue_rows[i].name)) {
      *out_arity = kiln_cpu_epilogue_rows[i].arity;
      return kiln_cpu_epilogue_rows[i].expr;
    }
  }
  return NULL;
}

// The f32 value of a scalar arith.constant (or a splat tensor constant).
bool kiln_cpu_constant_value(kiln_ir_op_t* op, float* out) {
  if (!op || !kiln_ir_op_is(op, "arith.constant") || op->num_results != 1) {
    return false;
  }
  const kiln_ir_type_t* t = op->results[0].type;
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (!value) return false;
  double d = 0;
  if (kiln_cpu_is_f32_type(t) && value->kind == KILN_IR_ATTR_FLOAT) {
    d = value->f.value;
  } else if (kiln_ir_type_is_shaped(t) &&
             kiln_cpu_is_f32_type(t->shaped.element) &&
             value->kind == KILN_IR_ATTR_DENSE_ELEMENTS && value->dense.splat) {
    if (!kiln_ir_dense_get_double(value, 0, &d)) return false;
  } else {
    return false;
  }
  *out = (float)d;
  return true;
}

// The value of |v| (a value of |s|'s body, |op| the generic) when it is a
// constant: an arith.constant in the body or a splat constant input.
static bool kiln_cpu_epilogue_constant_operand(kiln_ir_op_t* op,
                                               const kiln_structured_op_t* s,
                                               kiln_ir_value_t* v, float* out) {
  if (v->kind == KILN_IR_VALUE_RESULT) {
    return kiln_cpu_constant_value(v->defining_op, out);
  }
  if (v->kind != KILN_IR_VALUE_BLOCK_ARG || v->owner_block != s->body ||
      v->index >= s->num_ins) {
    return false;
  }
  kiln_ir_value_t* in = kiln_ir_op_operand(op, v->index);
  return in->kind == KILN_IR_VALUE_RESULT &&
         kiln_cpu_constant_value(in->defining_op, out);
}

// True when |b| is an f32 min (or max, |is_max|) of a constant bound and
// another value: fills the bound and the other operand's index. Only for
// bounds with which numerics.h's constant-bound forms give the general
// form's bits: not NaN, and not the zero the op would replace (-0 for max,
// +0 for min).
static bool kiln_cpu_epilogue_bound(kiln_ir_op_t* op,
                                    const kiln_structured_op_t* s,
                                    kiln_ir_op_t* b, bool is_max,
                                    float* out_bound, uint32_t* out_other) {
  if (!kiln_ir_op_is(b, is_max ? "arith.maximumf" : "arith.minimumf") ||
      b->num_operands != 2 || !kiln_cpu_is_f32_type(b->results[0].type)) {
    return false;
  }
  for (uint32_t i = 0; i < 2; ++i) {
    float c;
    if (!kiln_cpu_epilogue_constant_operand(op, s, kiln_ir_op_operand(b, i),
                                            &c)) {
      continue;
    }
    uint32_t bits;
    memcpy(&bits, &c, sizeof(bits));
    if (c != c || bits == (is_max ? 0x80000000u : 0x00000000u)) return false;
    *out_bound = c;
    *out_other = 1 - i;
    return true;
  }
  return false;
}

// What an epilogue value named N is when it is max(x, lo) with a bound valid
// for the constant-bound forms: a later min of it with a bound is a clamp.
typedef struct kiln_cpu_epilogue_max_t {
  uintptr_t x;  // the name of the max's other operand; 0 when not a max
  uint32_t lo_bits;
} kiln_cpu_epilogue_max_t;
#define KILN_CPU_EPILOGUE_MAX_NAMES 128

// The C of body op |b| (named |name|) when it is a min/max with a constant
// bound (ReLU, clip), written to |buf| over the names of |names|; NULL
// otherwise. The C compiler turns numerics.h's constant-bound forms into a
// minps/maxps and a NaN select; the general forms took 14 vector ops per
// clip. A min of a max (a clip, even across the generics of an epilogue
// chain) becomes one clamp over the max's input; the max's own value is
// then unused, and the C compiler drops it.
static const char* kiln_cpu_epilogue_bound_expr(kiln_ir_op_t* op,
                                                const kiln_structured_op_t* s,
                                                kiln_ir_op_t* b, uintptr_t name,
                                                kiln_ptr_map_t* names,
                                                kiln_cpu_epilogue_max_t* maxes,
                                                char* buf, size_t size) {
  float bound;
  uint32_t other;
  const bool is_max = kiln_ir_op_is(b, "arith.maximumf");
  if (!kiln_cpu_epilogue_bound(op, s, b, is_max, &bound, &other)) return NULL;
  uintptr_t xn =
      (uintptr_t)kiln_ptr_map_get(names, kiln_ir_op_operand(b, other));
  uint32_t bits;
  memcpy(&bits, &bound, sizeof(bits));
  if (is_max && name < KILN_CPU_EPILOGUE_MAX_NAMES) {
    maxes[name].x = xn;
    maxes[name].lo_bits = bits;
  }
  if (!is_max && xn < KILN_CPU_EPILOGUE_MAX_NAMES && maxes[xn].x) {
    snprintf(buf, size,
             "kiln_vm_clamp_f32_const(v%" PRIuPTR
             ", kiln_vm_bits_to_f32(0x%08" PRIx32
             "u), kiln_vm_bits_to_f32(0x%08" PRIx32 "u))",
             maxes[xn].x, maxes[xn].lo_bits, bits);
    return buf;
  }
  static const char* const kForms[2][2] = {
      {"kiln_vm_min_f32_const(a, b)", "kiln_vm_min_f32_const(b, a)"},
      {"kiln_vm_max_f32_const(a, b)", "kiln_vm_max_f32_const(b, a)"}};
  return kForms[is_max][other];
}

static bool kiln_cpu_epilogue_body_ok(const kiln_structured_op_t* s) {
  kiln_ir_block_t* body = s->body;
  if (!body || body->num_args != s->num_ins + 1 ||
      !kiln_ir_value_use_empty(body->args[s->num_ins])) {
    return false;
  }
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) {
    if (op->num_regions) return false;
    if (kiln_ir_op_is(op, "linalg.yield")) {
      if (op->num_operands != 1 || op != body->last_op) return false;
      continue;
    }
    if (op->num_results != 1) return false;
    const kiln_ir_type_t* rt = op->results[0].type;
    if (!kiln_cpu_is_f32_type(rt) && !kiln_cpu_is_i1_type(rt)) return false;
    if (kiln_ir_op_is(op, "arith.constant")) {
      float f;
      if (!kiln_cpu_constant_value(op, &f)) return false;
      continue;
    }
    int arity = 0;
    if (!kiln_cpu_epilogue_expr(op, &arity) ||
        op->num_operands != (uint32_t)arity) {
      return false;
    }
    for (uint32_t i = 0; i < op->num_operands; ++i) {
      const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
      if (!kiln_cpu_is_f32_type(t) && !kiln_cpu_is_i1_type(t)) return false;
    }
  }
  return body->last_op && kiln_ir_op_is(body->last_op, "linalg.yield");
}

// A static tensor of f32, or of i1 when |allow_i1|.
static bool kiln_cpu_epilogue_tensor_ok(const kiln_ir_type_t* t,
                                        bool allow_i1) {
  return kiln_cpu_is_static_f32_tensor(t, -1) ||
         (allow_i1 && kiln_ir_type_is_ranked_tensor(t) &&
          kiln_ir_type_has_static_shape(t) &&
          kiln_cpu_is_i1_type(t->shaped.element));
}

// kiln_cpu_epilogue_op_ok, also taking i1 tensors (compare results) when
// |allow_i1|: an elementwise dispatch keeps them in the element's scope,
// whereas a kernel's dispatch must not take in a compare that the region
// might return.
static bool kiln_cpu_epilogue_op_ok_typed(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op, bool allow_i1) {
  if (!kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
      !kiln_cpu_epilogue_tensor_ok(op->results[0].type, allow_i1)) {
    return false;
  }
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, op, &s)) return false;
  if (s.kind != KILN_STRUCTURED_GENERIC || s.num_outs != 1 ||
      !kiln_structured_op_all_parallel(&s)) {
    return false;
  }
  const kiln_ir_affine_map_t* out_map = s.maps[s.num_ins];
  if (out_map->num_results != s.num_dims ||
      !kiln_ir_affine_map_is_identity(out_map)) {
    return false;
  }
  for (uint32_t i = 0; i < s.num_ins; ++i) {
    if (!kiln_cpu_epilogue_tensor_ok(kiln_ir_op_operand(op, i)->type,
                                     allow_i1)) {
      return false;
    }
    // Each index a loop dim, or 0 along an extent-1 dim (ONNX's broadcast
    // of a [1, 1, 1, C] tensor reads it at (d0, 0, 0, d3)).
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    for (size_t r = 0; r < s.maps[i]->num_results; ++r) {
      const kiln_ir_affine_expr_t* e = s.maps[i]->results[r];
      if (!kiln_ir_affine_map_result_is_dim(s.maps[i], r, NULL) &&
          !(e->kind == KILN_IR_AFFINE_CONSTANT && e->value == 0 &&
            r < t->shaped.rank && t->shaped.dims[r] == 1)) {
        return false;
      }
    }
  }
  return kiln_cpu_epilogue_body_ok(&s);
}

bool kiln_cpu_epilogue_op_ok(kiln_ir_context_t* context, kiln_ir_op_t* op) {
  return kiln_cpu_epilogue_op_ok_typed(context, op, false);
}

kiln_ir_op_t* kiln_cpu_epilogue_root(kiln_ir_context_t* context,
                                     kiln_ir_op_t* region) {
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* ret = body ? body->last_op : NULL;
  if (!ret || !kiln_ir_op_is(ret, KILN_DISPATCH_RETURN_OP) ||
      ret->num_operands != 1 || region->num_results != 1) {
    return NULL;
  }
  kiln_ir_op_t* returned = kiln_ir_op_operand(ret, 0)->defining_op;
  if (!returned || !kiln_structured_op_is(returned)) return NULL;
  // The one structured op that is not elementwise (a matmul or a
  // convolution) is the kernel; the returned op is the kernel when the
  // region has no epilogue.
  kiln_ir_op_t* root = NULL;
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) {
    if (!kiln_structured_op_is(op)) continue;
    kiln_structured_op_t s;
    kiln_status_t status = kiln_structured_op_get(context, op, &s);
    if (status) {
      kiln_status_free(status);
      return NULL;
    }
    if (s.kind == KILN_STRUCTURED_FILL || kiln_structured_is_elementwise(&s)) {
      continue;
    }
    if (root) return NULL;
    root = op;
  }
  return root ? root : returned;
}

// True when a captured tensor of type |t| read through |map| has the
// element offsets of the result |rt|: same shape, identity map.
static bool kiln_cpu_same_layout_as_result(const kiln_ir_type_t* t,
                                           const kiln_ir_type_t* rt,
                                           const kiln_ir_affine_map_t* map) {
  if (t->shaped.rank != rt->shaped.rank ||
      map->num_results != rt->shaped.rank ||
      !kiln_ir_affine_map_is_identity(map)) {
    return false;
  }
  for (size_t r = 0; r < rt->shaped.rank; ++r) {
    if (t->shaped.dims[r] != rt->shaped.dims[r]) return false;
  }
  return true;
}

// Marks the ops of |body| that produce |v| (transitively): the kernel's
// operands, which the matchers read, not the epilogue.
static void kiln_cpu_mark_producers(kiln_ptr_map_t* marked,
                                    kiln_ir_block_t* body, kiln_ir_value_t* v) {
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (!def || def->parent_block != body || kiln_ptr_map_contains(marked, def)) {
    return;
  }
  kiln_ptr_map_put(marked, def, (void*)1);
  for (uint32_t i = 0; i < def->num_operands; ++i) {
    kiln_cpu_mark_producers(marked, body, kiln_ir_op_operand(def, i));
  }
}

// The ops of |body| that belong to kernel op |root| (|root| and the ops
// producing its operands): the epilogue is everything else.
static kiln_ptr_map_t kiln_cpu_epilogue_kernel_ops(kiln_ir_context_t* context,
                                                   kiln_ir_block_t* body,
                                                   kiln_ir_op_t* root) {
  kiln_ptr_map_t kernel_ops = kiln_ptr_map_make(context);
  if (root) {
    kiln_ptr_map_put(&kernel_ops, root, (void*)1);
    for (uint32_t i = 0; i < root->num_operands; ++i) {
      kiln_cpu_mark_producers(&kernel_ops, body, kiln_ir_op_operand(root, i));
    }
  }
  return kernel_ops;
}

// Meanings of values in kiln_cpu_epilogue_match_bias_clamp's walk.
#define KILN_CPU_BC_CHAIN ((void*)1)  // the kernel's value, transformed
#define KILN_CPU_BC_BIAS ((void*)2)   // bias[last dim]
// The steps of SiLU(t) = t * logistic(t) as the StableHLO lowering writes
// logistic (t the biased chain): |t|, -|t|, e = exp(-|t|), 1 + e,
// t >= 0, (t >= 0 ? 1 : e), that over 1 + e.
#define KILN_CPU_BC_ABS ((void*)3)
#define KILN_CPU_BC_NEG_ABS ((void*)4)
#define KILN_CPU_BC_EXP ((void*)5)
#define KILN_CPU_BC_DEN ((void*)6)
#define KILN_CPU_BC_NONNEG ((void*)7)
#define KILN_CPU_BC_NUM ((void*)8)
#define KILN_CPU_BC_LOGISTIC ((void*)9)
#define KILN_CPU_BC_SILU ((void*)10)  // t * logistic(t): the result

// The meaning of body op |b| of generic |op| as a step of SiLU over the
// chain, given its operands' meanings |a| (NULL: none), or NULL.
static void* kiln_cpu_silu_step(kiln_ir_op_t* op, const kiln_structured_op_t* s,
                                kiln_ir_op_t* b, void* const a[3]) {
  // f32 values throughout (the compare's operands, the select's result).
  if (b->num_results != 1 ||
      !kiln_cpu_is_f32_type(kiln_ir_op_is(b, "arith.cmpf")
                                ? kiln_ir_op_operand(b, 0)->type
                                : b->results[0].type)) {
    return NULL;
  }
  float c[3] = {0, 0, 0};
  bool is_const[3] = {false, false, false};
  for (uint32_t i = 0; i < b->num_operands && i < 3; ++i) {
    is_const[i] = kiln_cpu_epilogue_constant_operand(
        op, s, kiln_ir_op_operand(b, i), &c[i]);
  }
  const bool one0 = is_const[0] && c[0] == 1.0f;
  const bool one1 = is_const[1] && c[1] == 1.0f;
  if (b->num_operands == 1) {
    if (kiln_ir_op_is(b, "math.absf") && a[0] == KILN_CPU_BC_CHAIN) {
      return KILN_CPU_BC_ABS;
    }
    if (kiln_ir_op_is(b, "arith.negf") && a[0] == KILN_CPU_BC_ABS) {
      return KILN_CPU_BC_NEG_ABS;
    }
    if (kiln_ir_op_is(b, "math.exp") && a[0] == KILN_CPU_BC_NEG_ABS) {
      return KILN_CPU_BC_EXP;
    }
    return NULL;
  }
  if (b->num_operands == 2 && kiln_ir_op_is(b, "arith.addf") &&
      ((one0 && a[1] == KILN_CPU_BC_EXP) ||
       (one1 && a[0] == KILN_CPU_BC_EXP))) {
    return KILN_CPU_BC_DEN;
  }
  if (b->num_operands == 2 && kiln_ir_op_is(b, "arith.cmpf")) {
    const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(b, "predicate");
    return pred && pred->kind == KILN_IR_ATTR_INTEGER &&
                   pred->i == KILN_CMPF_OGE && a[0] == KILN_CPU_BC_CHAIN &&
                   is_const[1] && c[1] == 0.0f
               ? KILN_CPU_BC_NONNEG
               : NULL;
  }
  if (b->num_operands == 3 && kiln_ir_op_is(b, "arith.select") &&
      a[0] == KILN_CPU_BC_NONNEG && one1 && a[2] == KILN_CPU_BC_EXP) {
    return KILN_CPU_BC_NUM;
  }
  if (b->num_operands == 2 && kiln_ir_op_is(b, "arith.divf") &&
      a[0] == KILN_CPU_BC_NUM && a[1] == KILN_CPU_BC_DEN) {
    return KILN_CPU_BC_LOGISTIC;
  }
  if (b->num_operands == 2 && kiln_ir_op_is(b, "arith.mulf") &&
      ((a[0] == KILN_CPU_BC_CHAIN && a[1] == KILN_CPU_BC_LOGISTIC) ||
       (a[1] == KILN_CPU_BC_CHAIN && a[0] == KILN_CPU_BC_LOGISTIC))) {
    return KILN_CPU_BC_SILU;
  }
  return NULL;
}

bool kiln_cpu_epilogue_match_bias_clamp(kiln_ir_context_t* context,
                                        kiln_ir_op_t* region,
                                        kiln_ir_op_t* root,
                                        kiln_cpu_epilogue_bias_clamp_t* out) {
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* ret = body ? body->last_op : NULL;
  if (!root || !ret || ret->num_operands != 1 || root->num_results != 1 ||
      !kiln_cpu_is_static_f32_tensor(root->results[0].type, -1)) {
    return false;
  }
  const kiln_ir_type_t* rt = root->results[0].type;
  const size_t rank = rt->shaped.rank;
  if (rank == 0) return false;
  kiln_ptr_map_t kernel_ops = kiln_cpu_epilogue_kernel_ops(context, body, root);
  kiln_ptr_map_t meaning = kiln_ptr_map_make(context);
  kiln_ir_value_t* chain = &root->results[0];
  int state = 0;  // 0: before the bias add, 1: after, 2: after the max
  int64_t binding = -1;
  float lo = -(float)INFINITY, hi = (float)INFINITY;
  for (kiln_ir_op_t* op = body->first_op; op && op != ret; op = op->next) {
    if (kiln_ptr_map_contains(&kernel_ops, op) ||
        kiln_ir_op_is(op, "tensor.empty") ||
        kiln_ir_op_is(op, "arith.constant")) {
      continue;
    }
    kiln_structured_op_t s;
    if (!kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
        !kiln_structured_op_try_get(context, op, &s) || s.num_outs != 1 ||
        !kiln_structured_op_all_parallel(&s) || s.num_dims != rank || !s.body ||
        !kiln_ir_affine_map_is_identity(s.maps[s.num_ins]) ||
        !kiln_ir_value_use_empty(s.body->args[s.num_ins])) {
      return false;
    }
    for (size_t d = 0; d < rank; ++d) {
      if (s.ranges[d] != rt->shaped.dims[d]) return false;
    }
    for (uint32_t i = 0; i < s.num_ins; ++i) {
      kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
      const kiln_ir_affine_map_t* m = s.maps[i];
      const bool identity =
          kiln_ir_affine_map_is_identity(m) && m->num_results == rank;
      int64_t last;
      float f;
      void* known = kiln_ptr_map_get(&meaning, v);
      if (v == chain && identity) {
        kiln_ptr_map_put(&meaning, s.body->args[i], KILN_CPU_BC_CHAIN);
      } else if (known && known != KILN_CPU_BC_CHAIN && identity) {
        // The bias, or a step of SiLU from an earlier generic.
        kiln_ptr_map_put(&meaning, s.body->args[i], known);
      } else if (v->kind == KILN_IR_VALUE_BLOCK_ARG && v->owner_block == body &&
                 kiln_cpu_is_static_f32_tensor(v->type, 1) &&
                 v->type->shaped.dims[0] == rt->shaped.dims[rank - 1] &&
                 m->num_results == 1 &&
                 kiln_ir_affine_map_result_is_dim(m, 0, &last) &&
                 last == (int64_t)rank - 1 &&
                 (binding < 0 || binding == v->index)) {
        binding = v->index;
        kiln_ptr_map_put(&meaning, s.body->args[i], KILN_CPU_BC_BIAS);
      } else if (!kiln_cpu_constant_value(v->defining_op, &f)) {
        return false;
      }
    }
    for (kiln_ir_op_t* b = s.body->first_op; b; b = b->next) {
      if (kiln_ir_op_is(b, "arith.constant")) continue;
      if (kiln_ir_op_is(b, "linalg.yield")) {
        void* y = kiln_ptr_map_get(&meaning, kiln_ir_op_operand(b, 0));
        if (y == KILN_CPU_BC_CHAIN && state < 4) {
          chain = &op->results[0];
        } else if (y == KILN_CPU_BC_SILU) {
          // The SiLU result becomes the chain; nothing may follow it.
          chain = &op->results[0];
        } else if (y && y != KILN_CPU_BC_CHAIN) {
          kiln_ptr_map_put(&meaning, &op->results[0], y);
        } else {
          return false;
        }
        break;
      }
      if (b->num_operands < 1 || b->num_operands > 3 || b->num_results != 1) {
        return false;
      }
      void* a[3] = {NULL, NULL, NULL};
      for (uint32_t i = 0; i < b->num_operands; ++i) {
        a[i] = kiln_ptr_map_get(&meaning, kiln_ir_op_operand(b, i));
      }
      // SiLU right after the bias add (state 1 -> 4), and nothing after it.
      void* step =
          state == 1 || state == 4 ? kiln_cpu_silu_step(op, &s, b, a) : NULL;
      if (step) {
        state = step == KILN_CPU_BC_SILU ? 5 : 4;
        kiln_ptr_map_put(&meaning, &b->results[0], step);
        continue;
      }
      if (b->num_operands != 2 || state >= 4) return false;
      void* a0 = a[0];
      void* a1 = a[1];
      float bound;
      uint32_t other;
      if (kiln_ir_op_is(b, "arith.addf") && state == 0 &&
          a0 == KILN_CPU_BC_CHAIN && a1 == KILN_CPU_BC_BIAS) {
        state = 1;
      } else if (state == 1 &&
                 kiln_cpu_epilogue_bound(op, &s, b, true, &bound, &other) &&
                 kiln_ptr_map_get(&meaning, kiln_ir_op_operand(b, other)) ==
                     KILN_CPU_BC_CHAIN) {
        lo = bound;
        state = 2;
      } else if ((state == 1 || state == 2) &&
                 kiln_cpu_epilogue_bound(op, &s, b, false, &bound, &other) &&
                 kiln_ptr_map_get(&meaning, kiln_ir_op_operand(b, other)) ==
                     KILN_CPU_BC_CHAIN) {
        hi = bound;
        state = 3;
      } else {
        return false;
      }
      kiln_ptr_map_put(&meaning, &b->results[0], KILN_CPU_BC_CHAIN);
    }
  }
  if (state == 0 || state == 4 || binding < 0 ||
      kiln_ir_op_operand(ret, 0) != chain) {
    return false;
  }
  out->bias_binding = (uint32_t)binding;
  out->lo = lo;
  out->hi = hi;
  out->silu = state == 5;
  return true;
}

const char* kiln_cpu_epilogue_build(kiln_ir_context_t* context,
                                    kiln_ir_op_t* region, kiln_ir_op_t* root,
                                    bool* out_ok) {
  *out_ok = false;
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* ret = body ? body->last_op : NULL;
  if (!ret || ret->num_operands != 1) return NULL;
  kiln_ir_value_t* returned = kiln_ir_op_operand(ret, 0);
  if (!root && (returned->kind != KILN_IR_VALUE_RESULT ||
                !kiln_ir_op_is(returned->defining_op, "linalg.generic"))) {
    return NULL;
  }
  if (root && root->num_results != 1) return NULL;
  if (root && returned == &root->results[0]) {
    *out_ok = true;
    return NULL;  // no epilogue
  }
  const kiln_ir_type_t* rt = root ? root->results[0].type : returned->type;
  if (!kiln_cpu_is_static_f32_tensor(rt, -1) || returned->type != rt)
    return NULL;
  kiln_ptr_map_t kernel_ops = kiln_cpu_epilogue_kernel_ops(context, body, root);
  size_t rank = rt->shaped.rank;
  const int64_t* dims = rt->shaped.dims;
  kiln_ir_string_builder_t sb = {0};
  kiln_ir_sb_printf(&sb, "        {\n");
  // Value -> its C name (v<N> in the element scope); v1 is the kernel's.
  kiln_ptr_map_t names = kiln_ptr_map_make(context);
  uintptr_t next = 1;
  kiln_cpu_epilogue_max_t maxes[KILN_CPU_EPILOGUE_MAX_NAMES];
  memset(maxes, 0, sizeof(maxes));
  if (root) {
    kiln_ir_sb_printf(&sb, "        const float v1 = eo[o];\n");
    kiln_ptr_map_put(&names, &root->results[0], (void*)(uintptr_t)1);
  }
  bool ok = true;
  for (kiln_ir_op_t* op = body->first_op; op && op != ret && ok;
       op = op->next) {
    if (kiln_ptr_map_contains(&kernel_ops, op) ||
        kiln_ir_op_is(op, "tensor.empty") ||
        kiln_ir_op_is(op, "arith.constant")) {
      continue;
    }
    if (!kiln_cpu_epilogue_op_ok_typed(context, op, root == NULL)) {
      ok = false;
      break;
    }
    kiln_structured_op_t s;
    kiln_status_t status = kiln_structured_op_get(context, op, &s);
    if (status) {
      kiln_status_free(status);
      ok = false;
      break;
    }
    if (s.num_dims != rank) {
      ok = false;
      break;
    }
    for (size_t d = 0; d < rank; ++d) ok = ok && s.ranges[d] == dims[d];
    // Inputs: earlier epilogue values (identity maps), captured tensors
    // (loaded at the element's projected offset) and splat constants.
    for (uint32_t i = 0; i < s.num_ins && ok; ++i) {
      kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
      // Only results name earlier values: a captured tensor is loaded per
      // use, at that use's map.
      uintptr_t name = v->kind == KILN_IR_VALUE_RESULT
                           ? (uintptr_t)kiln_ptr_map_get(&names, v)
                           : 0;
      float f;
      if (name) {
        ok = kiln_ir_affine_map_is_identity(s.maps[i]) &&
             s.maps[i]->num_results == rank;
      } else if (kiln_cpu_constant_value(v->defining_op, &f)) {
        name = ++next;
        uint32_t bits;
        memcpy(&bits, &f, sizeof(bits));
        kiln_ir_sb_printf(&sb,
                          "        const float v%" PRIuPTR
                          " = kiln_vm_bits_to_f32(0x%08" PRIx32 "u);\n",
                          name, bits);
      } else if (v->kind == KILN_IR_VALUE_BLOCK_ARG && v->owner_block == body &&
                 kiln_cpu_is_static_f32_tensor(v->type, -1)) {
        name = ++next;
        const kiln_ir_type_t* t = v->type;
        kiln_ir_sb_printf(&sb,
                          "        const float v%" PRIuPTR
                          " = ((const float*)ds->binding_ptrs[%u])[",
                          name, v->index);
        if (kiln_cpu_same_layout_as_result(t, rt, s.maps[i])) {
          // The result's own offset: a sum over dims that the entry
          // splits with divisions would keep GCC from vectorizing the
          // loop (a residual add ran 2.5x slower than its matmul).
          kiln_ir_sb_printf(&sb, "o];\n");
          kiln_ptr_map_put(&names, s.body->args[i], (void*)name);
          continue;
        }
        kiln_ir_sb_printf(&sb, "0");
        int64_t stride = 1;
        for (size_t r = t->shaped.rank; r-- > 0;) {
          int64_t pos = 0;
          kiln_ir_affine_map_result_is_dim(s.maps[i], r, &pos);
          if (t->shaped.dims[r] != 1) {
            kiln_ir_sb_printf(&sb, " + d%" PRId64 " * %" PRId64, pos, stride);
          }
          stride *= t->shaped.dims[r];
        }
        kiln_ir_sb_printf(&sb, "];\n");
      } else {
        ok = false;
      }
      if (ok) kiln_ptr_map_put(&names, s.body->args[i], (void*)name);
    }
    // The body, one temporary per op.
    for (kiln_ir_op_t* b = s.body->first_op; b && ok; b = b->next) {
      if (kiln_ir_op_is(b, "linalg.yield")) {
        uintptr_t y =
            (uintptr_t)kiln_ptr_map_get(&names, kiln_ir_op_operand(b, 0));
        ok = y != 0;
        if (ok) kiln_ptr_map_put(&names, &op->results[0], (void*)y);
        continue;
      }
      uintptr_t name = ++next;
      const char* ctype =
          kiln_cpu_is_i1_type(b->results[0].type) ? "int" : "float";
      float f;
      if (kiln_cpu_constant_value(b, &f)) {
        uint32_t bits;
        memcpy(&bits, &f, sizeof(bits));
        kiln_ir_sb_printf(&sb,
                          "        const float v%" PRIuPTR
                          " = kiln_vm_bits_to_f32(0x%08" PRIx32 "u);\n",
                          name, bits);
        kiln_ptr_map_put(&names, &b->results[0], (void*)name);
        continue;
      }
      int arity = 0;
      const char* expr = kiln_cpu_epilogue_expr(b, &arity);
      char bound_buf[160];
      const char* bound = kiln_cpu_epilogue_bound_expr(
          op, &s, b, name, &names, maxes, bound_buf, sizeof(bound_buf));
      if (bound) expr = bound;
      kiln_ir_sb_printf(&sb, "        %s v%" PRIuPTR "; {", ctype, name);
      static const char kArg[3] = {'a', 'b', 'c'};
      for (int a = 0; a < arity && ok; ++a) {
        kiln_ir_value_t* operand = kiln_ir_op_operand(b, (uint32_t)a);
        uintptr_t on = (uintptr_t)kiln_ptr_map_get(&names, operand);
        ok = on != 0;
        kiln_ir_sb_printf(&sb, " const %s %c = v%" PRIuPTR ";",
                          kiln_cpu_is_i1_type(operand->type) ? "int" : "float",
                          kArg[a], on);
      }
      kiln_ir_sb_printf(&sb, " v%" PRIuPTR " = (%s)(%s); }\n", name, ctype,
                        expr ? expr : "0");
      kiln_ptr_map_put(&names, &b->results[0], (void*)name);
    }
  }
  uintptr_t result = (uintptr_t)kiln_ptr_map_get(&names, returned);
  if (!ok || !result || sb.failed) {
    kiln_ir_sb_free(&sb);
    return NULL;
  }
  kiln_ir_sb_printf(&sb, "        eo[o] = v%" PRIuPTR ";\n        }\n", result);
  char* text =
      sb.failed ? NULL : (char*)kiln_ir_arena_alloc(context, sb.size + 1);
  if (text) {
    memcpy(text, sb.data, sb.size);
    text[sb.size] = 0;
    *out_ok = true;
  }
  kiln_ir_sb_free(&sb);
  return text;
}

// Declares d0..dN for the element (b, r, c) of |result| at
// o = b * BS_ + r * RS_ + c, each from the fewest loop variables.
static void kiln_cpu_epilogue_emit_gemm_dims(const kiln_ir_type_t* result,
                                             int64_t batch_stride,
                                             int64_t row_stride,
                                             kiln_ir_string_builder_t* out) {
  // o = b * BS_ + r * RS_ + c with 0 <= c < RS_ and BS_ a multiple of RS_:
  // a dim whose element stride is a multiple of RS_ depends on (b, r) only
  // (the C compiler hoists it out of the c loop); one whose extent times
  // stride divides RS_ on c only.
  int64_t suffix = 1;
  for (size_t d = result->shaped.rank; d-- > 0;) {
    int64_t extent = result->shaped.dims[d];
    const char* of = "o";
    bool aligned = row_stride > 0 && batch_stride % row_stride == 0;
    if (aligned && suffix % row_stride == 0) {
      of = "(b * BS_ + r * RS_)";
    } else if (aligned && row_stride % (suffix * extent) == 0) {
      of = "c";
    }
    if (aligned && of[0] == 'c' && suffix * extent == row_stride) {
      // c < RS_: no modulo, whose non-affine index kept GCC from
      // vectorizing the loop (a bias read at c % N: GELU 4x slower).
      kiln_ir_sb_printf(
          out, "        const int64_t d%zu = c / %" PRId64 "; (void)d%zu;\n", d,
          suffix, d);
    } else {
      kiln_ir_sb_printf(out,
                        "        const int64_t d%zu = (%s / %" PRId64
                        ") %% %" PRId64 "; (void)d%zu;\n",
                        d, of, suffix, extent, d);
    }
    suffix *= extent;
  }
}

void kiln_cpu_epilogue_emit_rows(const kiln_ir_type_t* result, int64_t rows,
                                 int64_t row, const char* statements,
                                 kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(out, "    for (int64_t c = 0; c < RS_; ++c) {\n");
  kiln_cpu_epilogue_emit_element(result, rows * row, row, statements, out);
  kiln_ir_sb_printf(out,
                    "    }\n"
                    "  }\n"
                    "  return 0;\n"
                    "}\n\n");
}

void kiln_cpu_epilogue_emit_element(const kiln_ir_type_t* result,
                                    int64_t batch_stride, int64_t row_stride,
                                    const char* statements,
                                    kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(out, "      const int64_t o = b * BS_ + r * RS_ + c;\n");
  kiln_cpu_epilogue_emit_gemm_dims(result, batch_stride, row_stride, out);
  kiln_ir_sb_printf(out, "%s", statements);
}
