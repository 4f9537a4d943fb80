#include "compiler/dispatch/form_dispatch_regions.h"

#include <string.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/ptr_map.h"
#include "compiler/dispatch/structured.h"
#include "compiler/dispatch/window_pad.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"

//===----------------------------------------------------------------------===//
// Group state
//===----------------------------------------------------------------------===//

#define KILN_MAX_GROUP_OPS 256

typedef struct kiln_group_t {
  kiln_ir_block_t* block;
  size_t count;
  kiln_ir_op_t* ops[KILN_MAX_GROUP_OPS];  // ops[0] is the sink
  kiln_ir_op_t* root;                     // reduction/matmul, or NULL
  bool kernel_root;  // root is a micro-kernel matmul/conv (matmuls_alone)
  uint32_t loop_rank;
  int64_t loop_ranges[KILN_STRUCTURED_MAX_DIMS];
  kiln_ptr_map_t at_loop_point;  // op -> (void*)1 when evaluated at loop pt
  const kiln_form_dispatch_regions_options_t* options;
} kiln_group_t;

// True for a linalg.matmul / batch_matmul of static f32 tensors: what a
// backend with matmul micro-kernels dispatches alone.
static bool kiln_is_kernel_matmul(kiln_ir_op_t* op) {
  if (!kiln_ir_op_is(op, "linalg.matmul") &&
      !kiln_ir_op_is(op, "linalg.batch_matmul")) {
    return false;
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (!kiln_ir_type_is_ranked_tensor(t) ||
        !kiln_ir_type_has_static_shape(t) ||
        !kiln_ir_type_is_float(t->shaped.element) ||
        t->shaped.element->flt.kind != KILN_IR_F32) {
      return false;
    }
  }
  return true;
}

static bool kiln_group_contains(const kiln_group_t* g, const kiln_ir_op_t* op) {
  for (size_t i = 0; i < g->count; ++i) {
    if (g->ops[i] == op) return true;
  }
  return false;
}

// The ancestor of |op| that sits directly in |block| (or NULL).
static kiln_ir_op_t* kiln_ancestor_in_block(kiln_ir_op_t* op,
                                            kiln_ir_block_t* block) {
  while (op && op->parent_block != block) op = kiln_ir_op_parent_op(op);
  return op;
}

static bool kiln_map_is_identity_on(const kiln_ir_affine_map_t* m) {
  return m->num_results == m->num_dims && kiln_ir_affine_map_is_identity(m);
}

// True when |map| reads each element at most once over the loops (every
// loop dim appears as a plain result).
static bool kiln_map_uses_all_dims(const kiln_ir_affine_map_t* m) {
  bool seen[KILN_STRUCTURED_MAX_DIMS] = {0};
  for (size_t r = 0; r < m->num_results; ++r) {
    int64_t pos;
    if (kiln_ir_affine_map_result_is_dim(m, r, &pos)) seen[pos] = true;
  }
  for (uint32_t d = 0; d < m->num_dims; ++d) {
    if (!seen[d]) return false;
  }
  return true;
}

// Number of iterations of |s| (its loop ranges' product; 0 when dynamic).
static int64_t kiln_structured_iterations(const kiln_structured_op_t* s) {
  int64_t n = 1;
  for (uint32_t d = 0; d < s->num_dims; ++d) {
    if (s->ranges[d] == KILN_IR_DYNAMIC_DIM) return 0;
    n *= s->ranges[d];
  }
  return n;
}

// True when the body of |s| holds a transcendental (math.* but absf) or a
// divide:
// work worth doing once per element, not once per broadcast copy.
static bool kiln_structured_body_is_costly(const kiln_structured_op_t* s) {
  for (kiln_ir_op_t* op = s->body ? s->body->first_op : NULL; op;
       op = op->next) {
    if (kiln_ir_op_is(op, "arith.divf") ||
        (op->name.size > 5 && !memcmp(op->name.data, "math.", 5) &&
         !kiln_ir_op_is(op, "math.absf"))) {
      return true;
    }
  }
  return false;
}

// Whether elementwise op |op| heads a chain of single-use epilogue ops up
// to a micro-kernel op (a matmul or convolution the target runs alone):
// the chain then belongs to the kernel's epilogue, not to a reduction's
// prologue (MobileNetV2's last 1x1 convolution's bias + ReLU6 went into the
// global average pool, which then took the generic path instead of its
// direct entry).
static bool kiln_chain_reaches_kernel(
    kiln_ir_context_t* context,
    const kiln_form_dispatch_regions_options_t* options, kiln_ir_op_t* op) {
  for (int depth = 0; depth < 16; ++depth) {
    if (!options->epilogue_op_ok(context, op)) return false;
    kiln_ir_op_t* next = NULL;
    for (uint32_t i = 0; i < kiln_ir_op_num_regular_operands(op); ++i) {
      kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
      kiln_ir_op_t* def =
          v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
      if (!def || !kiln_structured_op_is(def)) continue;  // captured
      bool single_use = v->first_use && !v->first_use->next_use;
      if (kiln_is_kernel_matmul(def) || kiln_conv2d_match(context, def, NULL)) {
        if (single_use) return true;
        continue;
      }
      // An intermediate value may feed several ops of the chain (SiLU's x
      // feeds both the sigmoid and the multiply), all epilogue ops.
      bool uses_ok = v->first_use != NULL;
      for (kiln_ir_use_t* u = v->first_use; u && uses_ok; u = u->next_use) {
        uses_ok = options->epilogue_op_ok(context, u->owner);
      }
      if (uses_ok && !next) next = def;
    }
    if (!next) return false;
    op = next;
  }
  return false;
}

// Tries to add the producer of operand |index| of group member |consumer|.
static kiln_status_t kiln_try_absorb(kiln_ir_context_t* context,
                                     kiln_group_t* g, kiln_ir_op_t* consumer,
                                     uint32_t index, kiln_ptr_map_t* assigned,
                                     bool* out_added) {
  *out_added = false;
  kiln_ir_value_t* v = kiln_ir_op_operand(consumer, index);
  kiln_ir_op_t* producer = v->defining_op;
  if (v->kind != KILN_IR_VALUE_RESULT || !producer ||
      producer->parent_block != g->block ||
      kiln_ptr_map_contains(assigned, producer) ||
      !kiln_structured_op_is(producer) || g->count >= KILN_MAX_GROUP_OPS) {
    return kiln_ok_status();
  }
  // Every use of every result must be a direct operand of a group member.
  for (uint32_t r = 0; r < producer->num_results; ++r) {
    for (kiln_ir_use_t* u = producer->results[r].first_use; u;
         u = u->next_use) {
      if (!kiln_group_contains(g, u->owner) ||
          u->index >= kiln_ir_op_num_regular_operands(u->owner)) {
        return kiln_ok_status();
      }
    }
  }
  kiln_structured_op_t c, p;
  KILN_RETURN_IF_ERROR(kiln_structured_op_get(context, consumer, &c));
  KILN_RETURN_IF_ERROR(kiln_structured_op_get(context, producer, &p));
  bool consumer_at_loop = kiln_ptr_map_contains(&g->at_loop_point, consumer);
  const kiln_ir_affine_map_t* use_map = c.maps[index];

  if (consumer == g->root && index == 0 && g->options &&
      g->options->window_pad_ok &&
      kiln_window_pad_match(context, producer, NULL) &&
      g->options->window_pad_ok(context, g->options->window_pad_user_data,
                                consumer, producer)) {
    // Folded into the root's window bounds (never at the loop point).
  } else if (p.kind == KILN_STRUCTURED_FILL) {
    // A fill joins as the (constant) init of an output.
    if (index < c.num_ins) return kiln_ok_status();
  } else if (kiln_structured_is_elementwise(&p)) {
    bool consumer_is_reduction = kiln_structured_num_reductions(&c) > 0 ||
                                 !kiln_structured_is_elementwise(&c);
    // The init of a reduction's output (e.g. a fill written as a generic)
    // is read once per output element, before the reduction loops.
    bool is_init = index >= c.num_ins &&
                   kiln_structured_map_is_parallel_projection(&c, use_map);
    if (consumer_is_reduction && !is_init && !kiln_map_uses_all_dims(use_map)) {
      return kiln_ok_status();  // would recompute the producer per reuse
    }
    if (consumer_is_reduction && !g->kernel_root && g->options &&
        g->options->matmuls_alone && g->options->epilogue_op_ok &&
        kiln_chain_reaches_kernel(context, g->options, producer)) {
      return kiln_ok_status();
    }
    // A costly producer broadcast into a much larger consumer (a
    // squeeze-excitation's sigmoid of C values read at every pixel) runs
    // once per element in a dispatch of its own (or as its producer's
    // epilogue) instead of once per consumer element.
    int64_t produced = kiln_structured_iterations(&p);
    int64_t consumed = kiln_structured_iterations(&c);
    if (!kiln_map_uses_all_dims(use_map) && produced > 0 &&
        consumed >= 16 * produced && kiln_structured_body_is_costly(&p)) {
      return kiln_ok_status();
    }
    bool at_loop = consumer_at_loop && kiln_map_is_identity_on(use_map);
    for (uint32_t i = 0; i < p.num_outs && at_loop; ++i) {
      at_loop = kiln_map_is_identity_on(p.maps[p.num_ins + i]);
    }
    // Besides the kernel's init, a micro-kernel region takes only ops its
    // epilogue can evaluate per output element.
    bool kernel_init = consumer == g->root && index >= c.num_ins;
    if (g->kernel_root && !kernel_init &&
        (!at_loop || !g->options->epilogue_op_ok(context, producer))) {
      return kiln_ok_status();
    }
    if (at_loop) kiln_ptr_map_put(&g->at_loop_point, producer, (void*)1);
  } else {
    // A reduction/matmul joins as the root of an elementwise region.
    if (g->root) return kiln_ok_status();
    bool kernel = g->options && g->options->matmuls_alone &&
                  (kiln_is_kernel_matmul(producer) ||
                   kiln_conv2d_match(context, producer, NULL));
    if (kernel) {
      // It joins only consumers that all run as its epilogue.
      if (!g->options->epilogue_op_ok) return kiln_ok_status();
      for (size_t i = 0; i < g->count; ++i) {
        if (!kiln_ptr_map_contains(&g->at_loop_point, g->ops[i]) ||
            !g->options->epilogue_op_ok(context, g->ops[i])) {
          return kiln_ok_status();
        }
      }
    }
    for (uint32_t i = 0; i < p.num_outs; ++i) {
      if (!kiln_structured_map_is_parallel_projection(&p,
                                                      p.maps[p.num_ins + i])) {
        return kiln_ok_status();
      }
    }
    uint32_t rank = 0;
    for (uint32_t d = 0; d < p.num_dims; ++d) {
      if (p.is_reduction[d]) continue;
      if (rank >= g->loop_rank || p.ranges[d] != g->loop_ranges[rank]) {
        return kiln_ok_status();
      }
      ++rank;
    }
    if (rank != g->loop_rank) return kiln_ok_status();
    for (uint32_t r = 0; r < producer->num_results; ++r) {
      for (kiln_ir_use_t* u = producer->results[r].first_use; u;
           u = u->next_use) {
        if (!kiln_ptr_map_contains(&g->at_loop_point, u->owner)) {
          return kiln_ok_status();
        }
        kiln_structured_op_t uo;
        KILN_RETURN_IF_ERROR(kiln_structured_op_get(context, u->owner, &uo));
        if (!kiln_map_is_identity_on(uo.maps[u->index])) {
          return kiln_ok_status();
        }
      }
    }
    g->root = producer;
    g->kernel_root = kernel;
  }
  g->ops[g->count++] = producer;
  kiln_ptr_map_put(assigned, producer, (void*)1);
  *out_added = true;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Region construction
//===----------------------------------------------------------------------===//

// True when |v| is defined by an op of the group (or inside one).
static bool kiln_defined_in_group(const kiln_group_t* g, kiln_ir_value_t* v) {
  kiln_ir_op_t* def = NULL;
  if (v->kind == KILN_IR_VALUE_RESULT) {
    def = v->defining_op;
  } else {
    def = kiln_ir_block_parent_op(v->owner_block);
  }
  def = kiln_ancestor_in_block(def, g->block);
  return def && kiln_group_contains(g, def);
}

// Ops cloned into regions instead of captured.
static bool kiln_is_clonable_producer(kiln_ir_op_t* op) {
  if (!op) return false;
  if (kiln_ir_op_is(op, "tensor.empty")) return true;
  if (kiln_ir_op_has_trait(op, KILN_IR_TRAIT_CONSTANT_LIKE) ||
      kiln_ir_op_is(op, "arith.constant")) {
    if (op->num_results != 1) return false;
    const kiln_ir_type_t* t = op->results[0].type;
    if (!kiln_ir_type_is_shaped(t)) return true;  // scalar constant
    const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
    return value && value->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
           value->dense.splat;
  }
  return false;
}

typedef struct kiln_value_list_t {
  size_t count, capacity;
  kiln_ir_value_t** values;
} kiln_value_list_t;

typedef struct kiln_capture_state_t {
  kiln_ir_context_t* context;
  kiln_group_t* group;
  kiln_ir_block_t* body;
  kiln_ir_mapping_t* mapping;
  kiln_ptr_map_t* mapped;      // value -> mapped value (or (void*)1: pending)
  kiln_value_list_t captures;  // tensors, then scalars: the region operands
  kiln_value_list_t scalars;   // scalar captures (block args added last)
  kiln_value_list_t clones;    // clonable producers' results, in use order
  kiln_status_t status;
} kiln_capture_state_t;

static kiln_status_t kiln_value_list_push(kiln_ir_context_t* context,
                                          kiln_value_list_t* l,
                                          kiln_ir_value_t* v) {
  if (l->count == l->capacity) {
    size_t cap = l->capacity ? l->capacity * 2 : 16;
    kiln_ir_value_t** grown =
        (kiln_ir_value_t**)kiln_ir_arena_alloc(context, cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(context);
    if (l->count) memcpy(grown, l->values, l->count * sizeof(*grown));
    l->values = grown;
    l->capacity = cap;
  }
  l->values[l->count++] = v;
  return kiln_ok_status();
}

// Binds |v| (defined outside the group) to a block argument of the body.
static kiln_status_t kiln_capture_arg(kiln_capture_state_t* s,
                                      kiln_ir_value_t* v) {
  kiln_ir_value_t* arg = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_block_add_arg(s->context, s->body, v->type,
                            kiln_ir_location_unknown(s->context), &arg));
  kiln_ir_mapping_map_value(s->mapping, v, arg);
  kiln_ptr_map_put(s->mapped, v, arg);
  return kiln_value_list_push(s->context, &s->captures, v);
}

// A value the group reads from outside: clonable producers (constants,
// tensor.empty, whose size operands are captured in turn) are cloned into
// the body; tensors become block arguments now, scalars (run-time sizes and
// values read by bodies: push constants) after every tensor.
static kiln_status_t kiln_capture_value(kiln_capture_state_t* s,
                                        kiln_ir_value_t* v) {
  if (kiln_ptr_map_contains(s->mapped, v)) return kiln_ok_status();
  kiln_ptr_map_put(s->mapped, v, (void*)1);
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (kiln_is_clonable_producer(def)) {
    for (uint32_t i = 0; i < def->num_operands; ++i) {
      KILN_RETURN_IF_ERROR(kiln_capture_value(s, kiln_ir_op_operand(def, i)));
    }
    return kiln_value_list_push(s->context, &s->clones, v);
  }
  if (!kiln_ir_type_is_shaped(v->type)) {
    return kiln_value_list_push(s->context, &s->scalars, v);
  }
  return kiln_capture_arg(s, v);
}

static kiln_ir_walk_result_t kiln_collect_captures(kiln_ir_op_t* op,
                                                   void* user_data) {
  kiln_capture_state_t* s = (kiln_capture_state_t*)user_data;
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    if (!v || kiln_defined_in_group(s->group, v)) continue;
    // Values defined inside nested regions of this very op are internal
    // (block args of its body and results of body ops).
    kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT
                            ? v->defining_op
                            : kiln_ir_block_parent_op(v->owner_block);
    if (def && def != op && kiln_ir_op_is_ancestor(op, def)) continue;
    if (v->kind == KILN_IR_VALUE_BLOCK_ARG && def == op) continue;
    s->status = kiln_capture_value(s, v);
    if (s->status) return KILN_IR_WALK_INTERRUPT;
  }
  return KILN_IR_WALK_ADVANCE;
}

// After the walk: scalar block arguments, then the clones (which may use
// them), in the order they were first used.
static kiln_status_t kiln_finish_captures(kiln_capture_state_t* s) {
  for (size_t i = 0; i < s->scalars.count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_capture_arg(s, s->scalars.values[i]));
  }
  for (size_t i = 0; i < s->clones.count; ++i) {
    kiln_ir_value_t* v = s->clones.values[i];
    kiln_ir_op_t* clone = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_clone(s->context, v->defining_op, s->mapping, &clone));
    kiln_ir_block_append_op(s->body, clone);
    kiln_ptr_map_put(s->mapped, v, clone->results);
  }
  return kiln_ok_status();
}

static const char* kiln_group_kind(kiln_ir_context_t* context,
                                   kiln_group_t* g) {
  if (!g->root) {
    kiln_structured_op_t s;
    kiln_status_t status = kiln_structured_op_get(context, g->ops[0], &s);
    if (status) {
      kiln_status_free(status);
      return "generic";
    }
    return s.kind == KILN_STRUCTURED_FILL ? "fill" : "elementwise";
  }
  if (kiln_ir_op_is(g->root, "linalg.matmul") ||
      kiln_ir_op_is(g->root, "linalg.batch_matmul")) {
    return "matmul";
  }
  kiln_structured_op_t s;
  kiln_status_t status = kiln_structured_op_get(context, g->root, &s);
  if (status) {
    kiln_status_free(status);
    return "generic";
  }
  if (!kiln_structured_num_reductions(&s)) return "generic";
  // Named for people reading profiles, after what the root computes: a
  // window over an input (an input map result that is not a plain loop
  // dim) is a convolution when its body multiplies, else a pooling; two
  // plain inputs multiplied and summed are a matmul.
  bool window = false;
  for (uint32_t i = 0; i < s.num_ins; ++i) {
    const kiln_ir_affine_map_t* map = s.maps[i];
    for (size_t r = 0; map && r < map->num_results; ++r) {
      int64_t position = 0;
      if (!kiln_ir_affine_map_result_is_dim(map, r, &position)) window = true;
    }
  }
  bool multiplies = false;
  for (kiln_ir_op_t* op = s.body ? s.body->first_op : NULL; op; op = op->next) {
    if (kiln_ir_op_is(op, "arith.mulf") || kiln_ir_op_is(op, "arith.muli")) {
      multiplies = true;
    }
  }
  if (window) return multiplies ? "conv" : "pooling";
  if (multiplies && s.num_ins == 2) return "matmul";
  return "reduction";
}

static kiln_status_t kiln_build_region(kiln_ir_context_t* context,
                                       kiln_group_t* g) {
  // Order the group by position in the block.
  kiln_ir_op_t* ordered[KILN_MAX_GROUP_OPS];
  size_t n = 0;
  for (kiln_ir_op_t* op = g->block->first_op; op && n < g->count;
       op = op->next) {
    if (kiln_group_contains(g, op)) ordered[n++] = op;
  }
  kiln_ir_op_t* sink = g->ops[0];

  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(context, &body));
  kiln_ir_mapping_t* mapping = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(context, &mapping));
  kiln_ptr_map_t mapped = kiln_ptr_map_make(context);
  kiln_capture_state_t cs;
  memset(&cs, 0, sizeof(cs));
  cs.context = context;
  cs.group = g;
  cs.body = body;
  cs.mapping = mapping;
  cs.mapped = &mapped;
  for (size_t i = 0; i < n; ++i) {
    kiln_ir_op_walk(ordered[i], KILN_IR_WALK_PRE_ORDER, kiln_collect_captures,
                    &cs);
    if (cs.status) return cs.status;
  }
  KILN_RETURN_IF_ERROR(kiln_finish_captures(&cs));
  for (size_t i = 0; i < n; ++i) {
    kiln_ir_op_t* clone = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_clone(context, ordered[i], mapping, &clone));
    kiln_ir_block_append_op(body, clone);
  }
  // Terminator yielding the sink's results.
  kiln_ir_op_state_t ret;
  kiln_ir_op_state_init(context, &ret, KILN_DISPATCH_RETURN_OP, sink->location);
  for (uint32_t r = 0; r < sink->num_results; ++r) {
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(
        context, &ret,
        kiln_ir_mapping_lookup_value(mapping, &sink->results[r])));
  }
  kiln_ir_op_t* ret_op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(context, &ret, &ret_op));
  kiln_ir_block_append_op(body, ret_op);

  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(context, &region));
  kiln_ir_region_append_block(region, body);

  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(context, &state, KILN_DISPATCH_REGION_OP,
                        sink->location);
  for (size_t i = 0; i < cs.captures.count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_operand(context, &state, cs.captures.values[i]));
  }
  for (uint32_t r = 0; r < sink->num_results; ++r) {
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(
        context, &state, sink->results[r].type));
  }
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      context, &state, "kind",
      kiln_ir_string_attr_get(
          context, kiln_make_cstring_view(kiln_group_kind(context, g)))));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, &state, region));
  kiln_ir_op_t* region_op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(context, &state, &region_op));
  kiln_ir_op_insert_before(region_op, sink);
  for (uint32_t r = 0; r < sink->num_results; ++r) {
    kiln_ir_value_replace_all_uses_with(&sink->results[r],
                                        &region_op->results[r]);
  }
  // Erase the originals, last first (their remaining uses are in the group).
  for (size_t i = n; i-- > 0;) kiln_ir_op_erase(ordered[i]);
  // Drop clonable producers that became dead.
  for (size_t i = 0; i < mapped.capacity; ++i) {
    kiln_ir_value_t* v = (kiln_ir_value_t*)mapped.keys[i];
    if (!v || v->kind != KILN_IR_VALUE_RESULT) continue;
    kiln_ir_op_t* def = v->defining_op;
    if (def && def->parent_block && kiln_is_clonable_producer(def) &&
        kiln_ir_value_use_empty(v)) {
      kiln_ir_op_erase(def);
    }
  }
  return kiln_ir_context_take_error(context);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

// tensor.dim of a structured op's result reads its init's dim instead (and
// of a tensor.empty, its size operand): a size the host computes must not
// keep the producer out of its consumer's region.
static void kiln_resolve_result_dims(kiln_ir_context_t* context,
                                     kiln_ir_block_t* block) {
  kiln_ir_op_t* next = NULL;
  for (kiln_ir_op_t* op = block->first_op; op; op = next) {
    next = op->next;
    if (!kiln_ir_op_is(op, "tensor.dim") || op->num_operands != 2) continue;
    const kiln_ir_attribute_t* c =
        kiln_ir_constant_value(kiln_ir_op_operand(op, 1));
    if (!c || c->kind != KILN_IR_ATTR_INTEGER || c->i < 0) continue;
    kiln_ir_value_t* t = NULL;
    kiln_ir_value_t* size = kiln_structured_dim_size(
        context, kiln_ir_op_operand(op, 0), (size_t)c->i, &t);
    if (size) {
      kiln_ir_value_replace_all_uses_with(&op->results[0], size);
      kiln_ir_op_erase(op);
    } else if (t != kiln_ir_op_operand(op, 0)) {
      kiln_ir_op_set_operand(op, 0, t);
    }
  }
}

static kiln_status_t kiln_form_regions_in_block(
    kiln_ir_context_t* context, kiln_ir_block_t* block,
    const kiln_form_dispatch_regions_options_t* options) {
  kiln_resolve_result_dims(context, block);
  kiln_ptr_map_t assigned = kiln_ptr_map_make(context);
  kiln_ir_op_t* op = block->last_op;
  while (op) {
    kiln_ir_op_t* prev = op->prev;
    if (!kiln_structured_op_is(op) || kiln_ptr_map_contains(&assigned, op)) {
      op = prev;
      continue;
    }
    kiln_group_t* g = (kiln_group_t*)kiln_ir_arena_alloc(context, sizeof(*g));
    if (!g) return kiln_ir_context_take_error(context);
    g->block = block;
    g->options = options;
    g->at_loop_point = kiln_ptr_map_make(context);
    g->ops[g->count++] = op;
    kiln_ptr_map_put(&assigned, op, (void*)1);
    kiln_structured_op_t s;
    KILN_RETURN_IF_ERROR(kiln_structured_op_get(context, op, &s));
    if (kiln_structured_is_elementwise(&s)) {
      bool identity = true;
      for (uint32_t i = 0; i < s.num_outs; ++i) {
        identity = identity && kiln_map_is_identity_on(s.maps[s.num_ins + i]);
      }
      if (identity) kiln_ptr_map_put(&g->at_loop_point, op, (void*)1);
      g->loop_rank = s.num_dims;
      memcpy(g->loop_ranges, s.ranges, sizeof(s.ranges));
    } else {
      g->root = op;
      for (uint32_t d = 0; d < s.num_dims; ++d) {
        if (!s.is_reduction[d]) g->loop_ranges[g->loop_rank++] = s.ranges[d];
      }
    }
    // Worklist: members whose operands have not been examined yet.
    for (size_t next = 0; next < g->count; ++next) {
      kiln_ir_op_t* member = g->ops[next];
      uint32_t num = kiln_ir_op_num_regular_operands(member);
      for (uint32_t i = 0; i < num; ++i) {
        bool added = false;
        KILN_RETURN_IF_ERROR(
            kiln_try_absorb(context, g, member, i, &assigned, &added));
      }
    }
    // The group's ops were erased; the remaining structured ops are all
    // unvisited, so continue from the last one.
    KILN_RETURN_IF_ERROR(kiln_build_region(context, g));
    op = block->last_op;
    while (op && !kiln_structured_op_is(op)) op = op->prev;
  }
  return kiln_ok_status();
}

kiln_status_t kiln_form_dispatch_regions(kiln_ir_context_t* context,
                                         kiln_ir_op_t* module) {
  return kiln_form_dispatch_regions_with_options(context, module, NULL);
}

kiln_status_t kiln_form_dispatch_regions_with_options(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_form_dispatch_regions_options_t* options) {
  KILN_RETURN_IF_ERROR(kiln_dispatch_register_ops(context));
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "func.func") || kiln_ir_func_is_declaration(op)) {
      continue;
    }
    for (kiln_ir_block_t* b = op->regions[0].first_block; b; b = b->next) {
      KILN_RETURN_IF_ERROR(kiln_form_regions_in_block(context, b, options));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_form_dispatch_regions_run(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* module,
                                                    void* user_data) {
  return kiln_form_dispatch_regions_with_options(
      context, module, (const kiln_form_dispatch_regions_options_t*)user_data);
}

const kiln_ir_pass_t kiln_form_dispatch_regions_pass = {
    .name = "form-dispatch-regions",
    .description =
        "group structured ops into kiln.dispatch.region ops (fusion)",
    .run = kiln_form_dispatch_regions_run,
    .user_data = NULL,
};
