// convert-conv-to-channels-last: NCHW 2-D convolutions (linalg.generic from
// stablehlo.convolution / ONNX Conv) become channels-last (NHWC image and
// output; FHWC filter, HWCF for depthwise), and the layout propagates
// through the generics between them, so that the transposes at layer
// boundaries cancel.
//
// The rewrite is a per-value layout choice, made in one forward walk over
// each block: a value is "flipped" when its type is the NHWC permutation
// of its logical NCHW type. Any linalg.generic can read a flipped operand
// by permuting the results of its indexing map; a generic that reads one
// (or is a convolution) is flipped itself when its results are 4-D: its
// output maps and result types are permuted, and its loops reordered so
// that the output map is the identity again (what the backends match).
// Operands of a flipped generic that are not flipped get an NHWC copy: a
// new tensor.empty or splat, a clone of a broadcast generic, else a
// transpose generic (constant filters: folded by const-eval). Other users
// of a flipped value (reshapes, returns, non-generic ops) read a transpose
// back to NCHW, made once per value; a transpose meeting its inverse
// cancels. Elementwise results are bit-identical (only the traversal order
// changes); reductions keep their loop order.
#include <stdlib.h>
#include <string.h>

#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/pipeline/passes.h"

// Activations: NCHW -> NHWC (new dim i is old dim kPerm[i]).
static const int64_t kKilnClNhwc[4] = {0, 2, 3, 1};
// Filters: OIHW -> OHWI (FHWC) and, for depthwise, -> HWIO (HWCF: the
// channels innermost).
static const int64_t kKilnClFhwc[4] = {0, 2, 3, 1};
static const int64_t kKilnClHwcf[4] = {2, 3, 1, 0};

typedef struct kiln_cl_pair_t {
  kiln_ir_value_t* key;
  kiln_ir_value_t* value;
} kiln_cl_pair_t;

typedef struct kiln_cl_table_t {
  kiln_cl_pair_t* items;
  size_t count, capacity;
} kiln_cl_table_t;

typedef struct kiln_cl_state_t {
  kiln_ir_context_t* ctx;
  kiln_ir_block_t* block;
  bool depthwise;            // convert depthwise convolutions too
  kiln_cl_table_t flipped;   // flipped values (value unused)
  kiln_cl_table_t nhwc_of;   // unflipped value -> its NHWC copy
  kiln_cl_table_t nchw_of;   // flipped value -> its NCHW transpose
  kiln_cl_table_t back_src;  // NCHW transpose -> the flipped source
  kiln_cl_table_t touched;   // generics whose body reads a flipped value
  kiln_cl_table_t filters;   // filter -> its permuted copy
} kiln_cl_state_t;

static kiln_ir_value_t* kiln_cl_find(const kiln_cl_table_t* t, const void* key,
                                     bool* found) {
  for (size_t i = t->count; i-- > 0;) {
    if (t->items[i].key == key) {
      if (found) *found = true;
      return t->items[i].value;
    }
  }
  if (found) *found = false;
  return NULL;
}

static bool kiln_cl_has(const kiln_cl_table_t* t, const void* key) {
  bool found = false;
  kiln_cl_find(t, key, &found);
  return found;
}

static kiln_status_t kiln_cl_put(kiln_cl_table_t* t, kiln_ir_value_t* key,
                                 kiln_ir_value_t* value) {
  if (t->count == t->capacity) {
    size_t cap = t->capacity ? 2 * t->capacity : 64;
    kiln_cl_pair_t* items =
        (kiln_cl_pair_t*)realloc(t->items, cap * sizeof(*items));
    if (!items) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "convert-conv-to-channels-last");
    }
    t->items = items;
    t->capacity = cap;
  }
  t->items[t->count].key = key;
  t->items[t->count++].value = value;
  return kiln_ok_status();
}

static void kiln_cl_state_free(kiln_cl_state_t* s) {
  kiln_cl_table_t* tables[] = {&s->flipped,  &s->nhwc_of, &s->nchw_of,
                               &s->back_src, &s->touched, &s->filters};
  for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); ++i) {
    free(tables[i]->items);
  }
}

//===----------------------------------------------------------------------===//
// Types, maps, transposes
//===----------------------------------------------------------------------===//

static bool kiln_cl_is_4d(const kiln_ir_type_t* t) {
  return t && kiln_ir_type_is_ranked_tensor(t) &&
         kiln_ir_type_has_static_shape(t) && t->shaped.rank == 4;
}

static const kiln_ir_type_t* kiln_cl_perm_type(kiln_ir_context_t* ctx,
                                               const kiln_ir_type_t* t,
                                               const int64_t perm[4]) {
  int64_t dims[4];
  for (int i = 0; i < 4; ++i) dims[i] = t->shaped.dims[perm[i]];
  return kiln_ir_tensor_type_get(ctx, 4, dims, t->shaped.element,
                                 t->shaped.encoding);
}

// |map| reading a tensor permuted by |perm|: result i is old result perm[i].
static const kiln_ir_attribute_t* kiln_cl_compose(kiln_ir_context_t* ctx,
                                                  const kiln_ir_affine_map_t* m,
                                                  const int64_t perm[4]) {
  const kiln_ir_affine_expr_t* r[4];
  for (int i = 0; i < 4; ++i) r[i] = m->results[perm[i]];
  return kiln_ir_affine_map_attr_get(ctx, m->num_dims, m->num_symbols, 4, r);
}

static const kiln_ir_affine_expr_t* kiln_cl_rename(
    kiln_ir_context_t* ctx, const kiln_ir_affine_expr_t* e,
    const int64_t* new_of_old) {
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
      return kiln_ir_affine_dim(ctx, new_of_old[e->value]);
    case KILN_IR_AFFINE_SYMBOL:
    case KILN_IR_AFFINE_CONSTANT:
      return e;
    default:
      return kiln_ir_affine_binary(ctx, e->kind,
                                   kiln_cl_rename(ctx, e->lhs, new_of_old),
                                   kiln_cl_rename(ctx, e->rhs, new_of_old));
  }
}

// Builder placing ops right after |v|'s definition (block start for
// arguments).
static kiln_ir_builder_t kiln_cl_builder_after(kiln_cl_state_t* s,
                                               kiln_ir_value_t* v) {
  kiln_ir_builder_t b = kiln_ir_builder_make(s->ctx);
  if (v->kind == KILN_IR_VALUE_RESULT) {
    kiln_ir_builder_set_after(&b, v->defining_op);
    b.location = v->defining_op->location;
  } else {
    kiln_ir_builder_set_to_start(&b, v->owner_block);
  }
  return b;
}

// out = transpose(v) with out.dims[i] = v.dims[perm[i]] (or the inverse).
static kiln_status_t kiln_cl_transpose(kiln_cl_state_t* s, kiln_ir_value_t* v,
                                       const int64_t perm[4], bool inverse,
                                       const kiln_ir_type_t* result_type,
                                       kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = s->ctx;
  const kiln_ir_affine_expr_t* r[4];
  for (int i = 0; i < 4; ++i) {
    if (inverse) {
      r[i] = kiln_ir_affine_dim(ctx, perm[i]);
    } else {
      r[perm[i]] = kiln_ir_affine_dim(ctx, i);
    }
  }
  kiln_ir_builder_t b = kiln_cl_builder_after(s, v);
  return kiln_lowering_copy_through_map(
      &b, v, kiln_ir_affine_map_attr_get(ctx, 4, 0, 4, r), result_type, out);
}

// Replaces attribute |name| of |op|, keeping how it was written.
static kiln_status_t kiln_cl_set_attr(kiln_ir_context_t* ctx, kiln_ir_op_t* op,
                                      const char* name,
                                      const kiln_ir_attribute_t* value) {
  bool prop = false;
  size_t n = strlen(name);
  for (uint32_t i = 0; i < op->num_attributes; ++i) {
    kiln_string_view_t k = op->attributes[i].name;
    if (k.size == n && memcmp(k.data, name, n) == 0) {
      prop = op->attributes[i].is_property;
    }
  }
  return kiln_ir_op_set_attr(ctx, op, name, value, prop);
}

// Reorders |op|'s loops: old loop d becomes new_of_old[d].
static kiln_status_t kiln_cl_permute_loops(kiln_ir_context_t* ctx,
                                           kiln_ir_op_t* op,
                                           const int64_t* new_of_old) {
  uint32_t n = kiln_linalg_num_loops(op);
  uint32_t num_maps = kiln_linalg_num_inputs(op) + kiln_linalg_num_outputs(op);
  const kiln_ir_attribute_t** maps =
      (const kiln_ir_attribute_t**)calloc(num_maps + n + 1, sizeof(*maps));
  if (!maps) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "convert-conv-to-channels-last");
  }
  const kiln_ir_attribute_t** its = maps + num_maps;
  for (uint32_t i = 0; i < num_maps; ++i) {
    const kiln_ir_affine_map_t* m = kiln_linalg_indexing_map(op, i);
    const kiln_ir_affine_expr_t* r[16];
    for (size_t j = 0; j < m->num_results && j < 16; ++j) {
      r[j] = kiln_cl_rename(ctx, m->results[j], new_of_old);
    }
    maps[i] = kiln_ir_affine_map_attr_get(ctx, m->num_dims, m->num_symbols,
                                          m->num_results, r);
  }
  const kiln_ir_attribute_t* old_its =
      kiln_ir_op_get_attr(op, "iterator_types");
  for (uint32_t d = 0; d < n; ++d) {
    its[new_of_old[d]] = old_its->array.elements[d];
  }
  kiln_status_t status = kiln_cl_set_attr(
      ctx, op, "indexing_maps", kiln_ir_array_attr_get(ctx, num_maps, maps));
  if (!status) {
    status = kiln_cl_set_attr(ctx, op, "iterator_types",
                              kiln_ir_array_attr_get(ctx, n, its));
  }
  free(maps);
  KILN_RETURN_IF_ERROR(status);
  kiln_ir_block_t* body = kiln_linalg_body(op);
  for (kiln_ir_op_t* o = body ? body->first_op : NULL; o; o = o->next) {
    if (!kiln_ir_op_is(o, "linalg.index")) continue;
    const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(o, "dim");
    if (!dim || dim->kind != KILN_IR_ATTR_INTEGER || dim->i < 0 ||
        dim->i >= (int64_t)n) {
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_cl_set_attr(
        ctx, o, "dim",
        kiln_ir_integer_attr_get(ctx, dim->type, new_of_old[dim->i])));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_cl_set_map(kiln_ir_context_t* ctx, kiln_ir_op_t* op,
                                     uint32_t i,
                                     const kiln_ir_attribute_t* map) {
  const kiln_ir_attribute_t* old = kiln_ir_op_get_attr(op, "indexing_maps");
  size_t n = old->array.count;
  const kiln_ir_attribute_t** maps =
      (const kiln_ir_attribute_t**)malloc(n * sizeof(*maps));
  if (!maps) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "convert-conv-to-channels-last");
  }
  for (size_t j = 0; j < n; ++j) maps[j] = old->array.elements[j];
  maps[i] = map;
  kiln_status_t status = kiln_cl_set_attr(ctx, op, "indexing_maps",
                                          kiln_ir_array_attr_get(ctx, n, maps));
  free(maps);
  return status;
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

static bool kiln_cl_is_f32(const kiln_ir_type_t* t) {
  return kiln_cl_is_4d(t) && kiln_ir_type_is_float(t->shaped.element) &&
         t->shaped.element->flt.kind == KILN_IR_F32;
}

static bool kiln_cl_expr_has_dim(const kiln_ir_affine_expr_t* e, int64_t d) {
  if (!e) return false;
  if (e->kind == KILN_IR_AFFINE_DIM) return e->value == d;
  return kiln_cl_expr_has_dim(e->lhs, d) || kiln_cl_expr_has_dim(e->rhs, d);
}

// An NCHW 2-D f32 convolution as lower-to-structured emits it: loops
// (n, f, oh, ow | ci, kh, kw), OIHW filter map (f, ci, kh, kw), identity
// output, image (n, channel, oh * s + kh * d, ow * s + kw * d), body
// acc + x * w. |*depthwise|: one input channel per group.
static bool kiln_cl_match_nchw_conv(kiln_ir_op_t* op, bool* depthwise) {
  if (!kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
      kiln_linalg_num_inputs(op) != 2 || kiln_linalg_num_outputs(op) != 1 ||
      kiln_linalg_num_loops(op) != 7) {
    return false;
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (!kiln_cl_is_f32(kiln_ir_op_operand(op, i)->type)) return false;
  }
  for (uint32_t d = 0; d < 7; ++d) {
    if (kiln_linalg_is_reduction(op, d) != (d >= 4)) return false;
  }
  const kiln_ir_affine_map_t* img = kiln_linalg_indexing_map(op, 0);
  const kiln_ir_affine_map_t* flt = kiln_linalg_indexing_map(op, 1);
  const kiln_ir_affine_map_t* res = kiln_linalg_indexing_map(op, 2);
  if (!img || !flt || !res || img->num_results != 4 || flt->num_results != 4 ||
      res->num_results != 4) {
    return false;
  }
  static const int64_t kOihw[4] = {1, 4, 5, 6};
  for (size_t r = 0; r < 4; ++r) {
    int64_t d, o;
    if (!kiln_ir_affine_map_result_is_dim(flt, r, &d) || d != kOihw[r] ||
        !kiln_ir_affine_map_result_is_dim(res, r, &o) || o != (int64_t)r) {
      return false;
    }
  }
  int64_t d0;
  if (!kiln_ir_affine_map_result_is_dim(img, 0, &d0) || d0 != 0 ||
      !kiln_cl_expr_has_dim(img->results[1], 4) ||
      !kiln_cl_expr_has_dim(img->results[2], 2) ||
      !kiln_cl_expr_has_dim(img->results[2], 5) ||
      !kiln_cl_expr_has_dim(img->results[3], 3) ||
      !kiln_cl_expr_has_dim(img->results[3], 6)) {
    return false;
  }
  kiln_ir_block_t* body = kiln_linalg_body(op);
  kiln_ir_op_t* mul = body ? body->first_op : NULL;
  kiln_ir_op_t* add = mul ? mul->next : NULL;
  if (!add || !kiln_ir_op_is(mul, "arith.mulf") ||
      !kiln_ir_op_is(add, "arith.addf")) {
    return false;
  }
  const int64_t* fd = kiln_ir_op_operand(op, 1)->type->shaped.dims;
  const int64_t* id = kiln_ir_op_operand(op, 0)->type->shaped.dims;
  *depthwise = fd[1] == 1 && id[1] > 1;
  return true;
}

//===----------------------------------------------------------------------===//
// Layout changes
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_cl_flip_generic(kiln_cl_state_t* s, kiln_ir_op_t* op,
                                          bool is_conv, bool depthwise);

// The NCHW form of flipped |v| (a transpose, made once).
static kiln_status_t kiln_cl_nchw(kiln_cl_state_t* s, kiln_ir_value_t* v,
                                  const kiln_ir_type_t* nchw_type,
                                  kiln_ir_value_t** out) {
  bool found = false;
  *out = kiln_cl_find(&s->nchw_of, v, &found);
  if (found) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(
      kiln_cl_transpose(s, v, kKilnClNhwc, true, nchw_type, out));
  KILN_RETURN_IF_ERROR(kiln_cl_put(&s->nchw_of, v, *out));
  return kiln_cl_put(&s->back_src, *out, v);
}

// A broadcast-like generic: every input below rank 4 or a constant, so an
// NHWC clone costs no more than the original.
static bool kiln_cl_is_cheap_generic(kiln_ir_op_t* def) {
  if (!def || !kiln_ir_op_is(def, "linalg.generic") || def->num_results != 1 ||
      kiln_linalg_num_outputs(def) != 1) {
    return false;
  }
  for (uint32_t i = 0; i < kiln_linalg_num_inputs(def); ++i) {
    kiln_ir_value_t* in = kiln_ir_op_operand(def, i);
    if (!kiln_ir_type_is_ranked_tensor(in->type)) continue;
    if (in->type->shaped.rank < 4) continue;
    if (in->kind == KILN_IR_VALUE_RESULT &&
        kiln_ir_op_is(in->defining_op, "arith.constant")) {
      continue;
    }
    return false;
  }
  const kiln_ir_affine_map_t* m =
      kiln_linalg_indexing_map(def, kiln_linalg_num_inputs(def));
  for (size_t r = 0; m && r < m->num_results; ++r) {
    if (m->results[r]->kind != KILN_IR_AFFINE_DIM) return false;
  }
  return m != NULL;
}

// The NHWC form of unflipped 4-D |v| (cached).
static kiln_status_t kiln_cl_nhwc(kiln_cl_state_t* s, kiln_ir_value_t* v,
                                  kiln_ir_value_t** out) {
  bool found = false;
  *out = kiln_cl_find(&s->nhwc_of, v, &found);
  if (found) return kiln_ok_status();
  *out = kiln_cl_find(&s->back_src, v, &found);
  if (found) return kiln_ok_status();  // a transpose meets its inverse
  kiln_ir_context_t* ctx = s->ctx;
  const kiln_ir_type_t* t = kiln_cl_perm_type(ctx, v->type, kKilnClNhwc);
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  const kiln_ir_attribute_t* value = def && kiln_ir_op_is(def, "arith.constant")
                                         ? kiln_ir_op_get_attr(def, "value")
                                         : NULL;
  kiln_ir_builder_t b = kiln_cl_builder_after(s, v);
  if (def && kiln_ir_op_is(def, "tensor.empty") && def->num_operands == 0) {
    KILN_RETURN_IF_ERROR(kiln_lowering_empty(&b, t, out));
  } else if (value && value->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
             value->dense.splat) {
    const kiln_ir_attribute_t* a = kiln_ir_dense_elements_attr_get(
        ctx, t, true, value->dense.data, value->dense.size);
    if (!a) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "convert-conv-to-channels-last");
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(&b, a, t, out));
  } else if (kiln_cl_is_cheap_generic(def)) {
    kiln_ir_op_t* clone = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_op_clone(ctx, def, NULL, &clone));
    kiln_ir_op_insert_after(clone, def);
    KILN_RETURN_IF_ERROR(kiln_cl_flip_generic(s, clone, false, false));
    *out = kiln_ir_op_result(clone, 0);
  } else {
    KILN_RETURN_IF_ERROR(kiln_cl_transpose(s, v, kKilnClNhwc, false, t, out));
  }
  KILN_RETURN_IF_ERROR(kiln_cl_put(&s->nhwc_of, v, *out));
  return kiln_cl_put(&s->flipped, *out, NULL);
}

// The top-level op of |s->block| holding |op|, or NULL.
static kiln_ir_op_t* kiln_cl_top(kiln_cl_state_t* s, kiln_ir_op_t* op) {
  while (op && op->parent_block != s->block) op = kiln_ir_op_parent_op(op);
  return op;
}

// After |v| became flipped: tensor.extract users permute their indices
// (their generic is then "touched"); users other than top-level generics
// (handled when the walk reaches them) read the NCHW transpose.
static kiln_status_t kiln_cl_fix_uses(kiln_cl_state_t* s, kiln_ir_value_t* v,
                                      const kiln_ir_type_t* nchw_type) {
  kiln_ir_use_t* use = v->first_use;
  while (use) {
    kiln_ir_use_t* next = use->next_use;
    kiln_ir_op_t* owner = use->owner;
    if (kiln_ir_op_is(owner, "linalg.generic") &&
        owner->parent_block == s->block &&
        !kiln_cl_has(&s->back_src, &owner->results[0])) {
      use = next;
      continue;
    }
    if (kiln_ir_op_is(owner, "tensor.extract") && use->index == 0 &&
        kiln_ir_op_num_regular_operands(owner) == 5) {
      kiln_ir_value_t* idx[4];
      for (int i = 0; i < 4; ++i) idx[i] = kiln_ir_op_operand(owner, 1 + i);
      for (int i = 0; i < 4; ++i) {
        kiln_ir_op_set_operand(owner, 1 + (uint32_t)i, idx[kKilnClNhwc[i]]);
      }
      kiln_ir_op_t* top = kiln_cl_top(s, owner);
      if (top && top != owner) {
        KILN_RETURN_IF_ERROR(
            kiln_cl_put(&s->touched, (kiln_ir_value_t*)top, NULL));
      }
      use = next;
      continue;
    }
    if (kiln_cl_has(&s->back_src,
                    owner->num_results ? &owner->results[0] : NULL)) {
      use = next;  // our own transpose back
      continue;
    }
    kiln_ir_value_t* back = NULL;
    KILN_RETURN_IF_ERROR(kiln_cl_nchw(s, v, nchw_type, &back));
    kiln_ir_op_set_operand(owner, use->index, back);
    use = next;
  }
  return kiln_ok_status();
}

// Flips |op| (a generic with 4-D results): every 4-D operand is read in
// NHWC (filters of a convolution in FHWC/HWCF), results become NHWC, loops
// are reordered so that the output map is the identity.
static kiln_status_t kiln_cl_flip_generic(kiln_cl_state_t* s, kiln_ir_op_t* op,
                                          bool is_conv, bool depthwise) {
  kiln_ir_context_t* ctx = s->ctx;
  uint32_t num_ins = kiln_linalg_num_inputs(op);
  uint32_t num_outs = kiln_linalg_num_outputs(op);
  for (uint32_t i = 0; i < num_ins + num_outs; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    if (!kiln_cl_is_4d(v->type)) continue;
    const int64_t* perm = kKilnClNhwc;
    kiln_ir_value_t* nv = v;
    if (is_conv && i == 1) {
      perm = depthwise ? kKilnClHwcf : kKilnClFhwc;
      bool found = false;
      nv = kiln_cl_find(&s->filters, v, &found);
      if (!found) {
        KILN_RETURN_IF_ERROR(kiln_cl_transpose(
            s, v, perm, false, kiln_cl_perm_type(ctx, v->type, perm), &nv));
        KILN_RETURN_IF_ERROR(kiln_cl_put(&s->filters, v, nv));
      }
    } else if (!kiln_cl_has(&s->flipped, v)) {
      KILN_RETURN_IF_ERROR(kiln_cl_nhwc(s, v, &nv));
    }
    kiln_ir_op_set_operand(op, i, nv);
    KILN_RETURN_IF_ERROR(kiln_cl_set_map(
        ctx, op, i,
        kiln_cl_compose(ctx, kiln_linalg_indexing_map(op, i), perm)));
  }
  const kiln_ir_type_t* nchw_types[8];
  for (uint32_t r = 0; r < op->num_results && r < 8; ++r) {
    nchw_types[r] = op->results[r].type;
    kiln_ir_value_set_type(&op->results[r],
                           kiln_cl_perm_type(ctx, nchw_types[r], kKilnClNhwc));
  }
  // Loops: the output's dims first (in its order), the others after in
  // their order (reductions keep their nesting, hence their sum order).
  const kiln_ir_affine_map_t* om = kiln_linalg_indexing_map(op, num_ins);
  uint32_t n = kiln_linalg_num_loops(op);
  int64_t new_of_old[32];
  bool ok = n <= 32 && om->num_results == 4;
  for (uint32_t d = 0; d < n && d < 32; ++d) new_of_old[d] = -1;
  for (size_t r = 0; ok && r < 4; ++r) {
    int64_t d;
    ok = kiln_ir_affine_map_result_is_dim(om, r, &d) && d >= 0 &&
         d < (int64_t)n && new_of_old[d] < 0;
    if (ok) new_of_old[d] = (int64_t)r;
  }
  if (ok) {
    int64_t next = 4;
    bool moved = false;
    for (uint32_t d = 0; d < n; ++d) {
      if (new_of_old[d] < 0) new_of_old[d] = next++;
      moved |= new_of_old[d] != (int64_t)d;
    }
    if (moved) KILN_RETURN_IF_ERROR(kiln_cl_permute_loops(ctx, op, new_of_old));
  }
  for (uint32_t r = 0; r < op->num_results && r < 8; ++r) {
    KILN_RETURN_IF_ERROR(kiln_cl_put(&s->flipped, &op->results[r], NULL));
    KILN_RETURN_IF_ERROR(kiln_cl_fix_uses(s, &op->results[r], nchw_types[r]));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_cl_visit(kiln_cl_state_t* s, kiln_ir_op_t* op) {
  if (!kiln_ir_op_is(op, "linalg.generic")) return kiln_ok_status();
  bool depthwise = false;
  bool is_conv = kiln_cl_match_nchw_conv(op, &depthwise);
  if (is_conv && depthwise && !s->depthwise) is_conv = false;
  uint32_t num_ins = kiln_linalg_num_inputs(op);
  uint32_t num_outs = kiln_linalg_num_outputs(op);
  bool any = kiln_cl_has(&s->touched, (kiln_ir_value_t*)op);
  for (uint32_t i = 0; i < num_ins + num_outs; ++i) {
    any |= kiln_cl_has(&s->flipped, kiln_ir_op_operand(op, i));
  }
  bool flip = is_conv || any;
  for (uint32_t r = 0; r < op->num_results; ++r) {
    flip &= kiln_cl_is_4d(op->results[r].type);
  }
  flip &= op->num_results >= 1 && op->num_results <= 8;
  // A convolution kept in NCHW (depthwise when off) reads NCHW operands,
  // so that its backend entry still matches.
  bool kept_conv = !is_conv && kiln_linalg_num_loops(op) == 7 &&
                   kiln_cl_match_nchw_conv(op, &depthwise);
  if (flip && !kept_conv)
    return kiln_cl_flip_generic(s, op, is_conv, depthwise);
  if (!any) return kiln_ok_status();
  for (uint32_t i = 0; i < num_ins + num_outs; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    if (!kiln_cl_has(&s->flipped, v)) continue;
    if (i < num_ins && !kept_conv) {
      KILN_RETURN_IF_ERROR(kiln_cl_set_map(
          s->ctx, op, i,
          kiln_cl_compose(s->ctx, kiln_linalg_indexing_map(op, i),
                          kKilnClNhwc)));
    } else {
      kiln_ir_value_t* back = NULL;
      KILN_RETURN_IF_ERROR(kiln_cl_nchw(
          s, v,
          kiln_cl_perm_type(s->ctx, v->type, (const int64_t[4]){0, 3, 1, 2}),
          &back));
      kiln_ir_op_set_operand(op, i, back);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_cl_block(kiln_ir_context_t* ctx,
                                   kiln_ir_block_t* block, bool depthwise) {
  size_t count = 0, convs = 0;
  for (kiln_ir_op_t* op = block->first_op; op; op = op->next) {
    bool dw = false;
    ++count;
    convs += kiln_cl_match_nchw_conv(op, &dw) && (!dw || depthwise);
  }
  // One convolution alone gains nothing to pay for its two edge transposes
  // (and the one after it would split its epilogue from the kernel).
  if (convs < 2) return kiln_ok_status();
  kiln_ir_op_t** ops = (kiln_ir_op_t**)malloc(count * sizeof(*ops));
  if (!ops) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "convert-conv-to-channels-last");
  }
  size_t n = 0;
  for (kiln_ir_op_t* op = block->first_op; op; op = op->next) ops[n++] = op;
  kiln_cl_state_t s;
  memset(&s, 0, sizeof(s));
  s.ctx = ctx;
  s.block = block;
  s.depthwise = depthwise;
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < n && !status; ++i) status = kiln_cl_visit(&s, ops[i]);
  kiln_cl_state_free(&s);
  free(ops);
  return status;
}

static kiln_status_t kiln_cl_walk(kiln_ir_context_t* ctx, kiln_ir_op_t* op,
                                  bool depthwise) {
  for (uint32_t r = 0; r < op->num_regions; ++r) {
    for (kiln_ir_block_t* b = op->regions[r].first_block; b; b = b->next) {
      for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
        if (kiln_ir_op_is(o, "func.func") || kiln_ir_op_is(o, "util.func") ||
            kiln_ir_op_is(o, "builtin.module")) {
          KILN_RETURN_IF_ERROR(kiln_cl_walk(ctx, o, depthwise));
        }
      }
      if (kiln_ir_op_is(op, "func.func") || kiln_ir_op_is(op, "util.func")) {
        KILN_RETURN_IF_ERROR(kiln_cl_block(ctx, b, depthwise));
      }
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_pass_conv_channels_last(kiln_ir_context_t* context,
                                           kiln_ir_op_t* module,
                                           void* user_data) {
  const kiln_conv_channels_last_options_t* o =
      (const kiln_conv_channels_last_options_t*)user_data;
  if (o && o->disabled) return kiln_ok_status();
  return kiln_cl_walk(context, module, !o || !o->no_depthwise);
}
