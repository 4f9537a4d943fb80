// ONNX op lowerings: each node becomes stablehlo (and a few math) ops with
// static shapes computed here; shape-like operands (Reshape's shape,
// Slice's starts, ...) must be known at import, and small integer
// computations on known values (Shape -> Gather -> Concat -> Reshape) are
// folded on the host so that they are. The table at the end maps (op type,
// since version) to a lowering; attributes that moved to inputs at some
// opset are read by one helper (kiln_onnx_ints_operand) for both forms.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/input/onnx/onnx_internal.h"

#define MAXR KILN_ONNX_MAX_RANK
// Known values above this many elements are not folded on the host.
#define KILN_ONNX_FOLD_MAX_ELEMENTS 4096

typedef kiln_onnx_node_t node_t;
typedef kiln_ir_value_t value_t;
typedef kiln_ir_type_t type_t;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

static const Onnx__AttributeProto* kiln_onnx_proto_attr(
    const Onnx__NodeProto* proto, const char* name) {
  for (size_t i = 0; i < proto->n_attribute; ++i) {
    const Onnx__AttributeProto* a = proto->attribute[i];
    if (a->name && !strcmp(a->name, name)) return a;
  }
  return NULL;
}

static const Onnx__AttributeProto* kiln_onnx_attr(node_t* n, const char* name) {
  return kiln_onnx_proto_attr(n->proto, name);
}

static int64_t kiln_onnx_attr_int(node_t* n, const char* name, int64_t def) {
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, name);
  return a && a->has_i ? a->i : def;
}

static double kiln_onnx_attr_float(node_t* n, const char* name, double def) {
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, name);
  return a && a->has_f ? (double)a->f : def;
}

// Copies attribute |name|'s ints; returns the count or -1 when absent.
static int64_t kiln_onnx_attr_ints(node_t* n, const char* name, int64_t* out,
                                   size_t capacity) {
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, name);
  if (!a) return -1;
  size_t count = a->n_ints < capacity ? a->n_ints : capacity;
  // An empty list has no array (protobuf-c leaves it NULL).
  if (count) memcpy(out, a->ints, count * sizeof(int64_t));
  return (int64_t)a->n_ints;
}

static bool kiln_onnx_attr_string_is(node_t* n, const char* name,
                                     const char* def, const char* value) {
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, name);
  if (!a || !a->has_s) return !strcmp(def, value);
  return a->s.len == strlen(value) && !memcmp(a->s.data, value, a->s.len);
}

//===----------------------------------------------------------------------===//
// Inputs, outputs and known values
//===----------------------------------------------------------------------===//

static kiln_onnx_value_t* kiln_onnx_input(node_t* n, size_t i) {
  return i < n->num_inputs ? n->inputs[i] : NULL;
}

static kiln_status_t kiln_onnx_need_inputs(node_t* n, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!kiln_onnx_input(n, i)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "required input %zu is missing", i);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_in(node_t* n, size_t i, value_t** out) {
  kiln_onnx_value_t* v = kiln_onnx_input(n, i);
  if (!v) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "required input %zu is missing", i);
  }
  return kiln_onnx_materialize(n, v, out);
}

static void kiln_onnx_set(node_t* n, size_t i, value_t* v) {
  if (i >= n->num_outputs) return;
  n->outputs[i].type = v->type;
  n->outputs[i].ir = v;
}

static void kiln_onnx_set_known(node_t* n, size_t i,
                                const kiln_onnx_const_t* c) {
  if (i >= n->num_outputs) return;
  n->outputs[i].type = c->type;
  n->outputs[i].known = c;
}

static const type_t* kiln_onnx_elem(const type_t* t) {
  return t->shaped.element;
}
static size_t kiln_onnx_rank(const type_t* t) {
  return t->shaped.rank;
}

static const type_t* kiln_onnx_tensor(node_t* n, size_t rank,
                                      const int64_t* dims,
                                      const type_t* element) {
  return kiln_ir_tensor_type_get(n->context, rank, dims, element, NULL);
}

static bool kiln_onnx_is_float(const type_t* element) {
  return element->kind == KILN_IR_TYPE_FLOAT;
}
static bool kiln_onnx_is_unsigned(const type_t* element) {
  return element->kind == KILN_IR_TYPE_INTEGER &&
         element->integer.signedness == KILN_IR_UNSIGNED;
}
static bool kiln_onnx_is_bool(const type_t* element) {
  return element->kind == KILN_IR_TYPE_INTEGER && element->integer.width == 1;
}

// Element |i| of a known value as int64 / double.
static int64_t kiln_onnx_known_int(const kiln_onnx_const_t* c, int64_t i) {
  const type_t* e = c->type->shaped.element;
  size_t w = kiln_ir_type_storage_bytes(e);
  const uint8_t* p = c->data + (size_t)i * w;
  if (e->kind == KILN_IR_TYPE_FLOAT) {
    uint64_t bits = 0;
    memcpy(&bits, p, w);
    double v = kiln_ir_float_from_bits(e->flt.kind, bits);
    // Saturating, NaN to 0: arith.fptosi's rule (scalar_eval), and no
    // undefined conversion of an out-of-range float (the fuzzer's 3.4e33).
    if (v != v) return 0;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    if (v >= 9223372036854775808.0) return INT64_MAX;
    return (int64_t)v;
  }
  if (e->kind != KILN_IR_TYPE_INTEGER) return 0;
  bool is_unsigned =
      e->integer.signedness == KILN_IR_UNSIGNED || e->integer.width == 1;
  switch (w) {
    case 1:
      return is_unsigned ? (int64_t)p[0] : (int64_t)(int8_t)p[0];
    case 2: {
      uint16_t v;
      memcpy(&v, p, 2);
      return is_unsigned ? (int64_t)v : (int64_t)(int16_t)v;
    }
    case 4: {
      uint32_t v;
      memcpy(&v, p, 4);
      return is_unsigned ? (int64_t)v : (int64_t)(int32_t)v;
    }
    default: {
      int64_t v;
      memcpy(&v, p, 8);
      return v;
    }
  }
}

static double kiln_onnx_known_double(const kiln_onnx_const_t* c, int64_t i) {
  const type_t* e = c->type->shaped.element;
  if (e->kind == KILN_IR_TYPE_FLOAT) {
    size_t w = kiln_ir_type_storage_bytes(e);
    uint64_t bits = 0;
    memcpy(&bits, c->data + (size_t)i * w, w);
    return kiln_ir_float_from_bits(e->flt.kind, bits);
  }
  if (kiln_onnx_is_unsigned(e) && e->integer.width == 64) {
    uint64_t v;
    memcpy(&v, c->data + (size_t)i * 8, 8);
    return (double)v;
  }
  return (double)kiln_onnx_known_int(c, i);
}

// Stores |v| (as an int or double) as element |i| of |element| type.
static void kiln_onnx_store(uint8_t* data, const type_t* e, int64_t i,
                            double dv, int64_t iv, bool from_float) {
  size_t w = kiln_ir_type_storage_bytes(e);
  uint8_t* p = data + (size_t)i * w;
  if (e->kind == KILN_IR_TYPE_COMPLEX) {
    // A real value: the real part; the imaginary part is zero.
    const type_t* part = e->complex.element;
    size_t half = w / 2;
    uint64_t re =
        kiln_ir_float_to_bits(part->flt.kind, from_float ? dv : (double)iv);
    memset(p, 0, w);
    memcpy(p, &re, half);
    return;
  }
  if (e->kind == KILN_IR_TYPE_FLOAT) {
    uint64_t bits =
        kiln_ir_float_to_bits(e->flt.kind, from_float ? dv : (double)iv);
    memcpy(p, &bits, w);
    return;
  }
  int64_t v = iv;
  if (from_float) {
    if (e->integer.width == 1) {
      v = dv != 0;
    } else if (isnan(dv)) {
      v = 0;
    } else if (kiln_onnx_is_unsigned(e) && e->integer.width == 64) {
      uint64_t u = dv <= 0                        ? 0
                   : dv >= 18446744073709551615.0 ? UINT64_MAX
                                                  : (uint64_t)dv;
      memcpy(p, &u, 8);
      return;
    } else {
      v = dv >= 9.2e18 ? INT64_MAX : dv <= -9.2e18 ? INT64_MIN : (int64_t)dv;
    }
  } else if (e->integer.width == 1) {
    v = iv != 0;
  }
  memcpy(p, &v, w);  // little endian: the low bytes
}

static int64_t kiln_onnx_num_elements(const type_t* t) {
  return kiln_ir_type_num_elements(t);
}

static kiln_onnx_const_t* kiln_onnx_alloc_const(node_t* n, const type_t* type) {
  int64_t count = kiln_onnx_num_elements(type);
  size_t size =
      (size_t)count * kiln_ir_type_storage_bytes(type->shaped.element);
  kiln_onnx_const_t* c =
      (kiln_onnx_const_t*)kiln_ir_arena_alloc(n->context, sizeof(*c));
  uint8_t* data = (uint8_t*)kiln_ir_arena_alloc(n->context, size ? size : 1);
  if (!c || !data) return NULL;
  memset(data, 0, size ? size : 1);
  c->type = type;
  c->data = data;
  c->size = size;
  return c;
}

#define KILN_ONNX_OOM() \
  kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory")

// Reads a known 1-D (or scalar) integer input as a list; absent inputs give
// -1. A runtime value is an error naming |what|.
static kiln_status_t kiln_onnx_known_ints(node_t* n, size_t i, const char* what,
                                          int64_t* out, size_t capacity,
                                          int64_t* out_count) {
  *out_count = -1;
  kiln_onnx_value_t* v = kiln_onnx_input(n, i);
  if (!v) return kiln_ok_status();
  if (!v->known) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED,
        "input '%s' (%s) is computed at run time; it must be known at import",
        v->name, what);
  }
  int64_t count = kiln_onnx_num_elements(v->known->type);
  if (count < 0 || (size_t)count > capacity) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "%s has %lld entries (at most %zu supported)",
                                what, (long long)count, capacity);
  }
  for (int64_t k = 0; k < count; ++k) out[k] = kiln_onnx_known_int(v->known, k);
  *out_count = count;
  return kiln_ok_status();
}

// True when input |i| is given but only known at run time while the graph
// declares a static type for output |out|: the op is compiled for that
// declared type (the shape-like operand then only has to agree with it).
static bool kiln_onnx_use_declared(node_t* n, size_t i, size_t out) {
  kiln_onnx_value_t* v = kiln_onnx_input(n, i);
  return v && !v->known && out < n->num_outputs && n->declared[out];
}

// Attribute |name| before opset |since| and input |index| from it on
// (Squeeze's axes, Slice's starts, ...): one place for both forms.
static kiln_status_t kiln_onnx_ints_operand(node_t* n, int since,
                                            const char* name, size_t index,
                                            int64_t* out, size_t capacity,
                                            int64_t* out_count) {
  if (n->opset < since) {
    *out_count = kiln_onnx_attr_ints(n, name, out, capacity);
    if (*out_count > (int64_t)capacity) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "too many '%s' entries", name);
    }
    return kiln_ok_status();
  }
  return kiln_onnx_known_ints(n, index, name, out, capacity, out_count);
}

static kiln_status_t kiln_onnx_norm_axis(node_t* n, int64_t axis, size_t rank,
                                         int64_t* out) {
  int64_t r = (int64_t)rank;
  if (axis < -r || axis >= r) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "axis %lld is out of range for rank %zu",
                                (long long)axis, rank);
  }
  *out = axis < 0 ? axis + r : axis;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Emitting ops
//===----------------------------------------------------------------------===//

static kiln_ir_named_attribute_t kiln_onnx_named(node_t* n, const char* name,
                                                 const kiln_ir_attribute_t* a) {
  return kiln_ir_named_attr(n->context, name, a);
}

static const kiln_ir_attribute_t* kiln_onnx_i64_array(node_t* n, size_t count,
                                                      const int64_t* values) {
  return kiln_ir_dense_i64_array_attr_get(
      n->context, kiln_ir_int_type(n->context, 64), count, values);
}

static const kiln_ir_attribute_t* kiln_onnx_i64(node_t* n, int64_t v) {
  return kiln_ir_integer_attr_get(n->context, kiln_ir_int_type(n->context, 64),
                                  v);
}

static kiln_status_t kiln_onnx_emit(node_t* n, const char* name, size_t nops,
                                    value_t* const* ops, const type_t* type,
                                    size_t nattrs,
                                    const kiln_ir_named_attribute_t* attrs,
                                    value_t** out) {
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      n->b, name, nops, ops, 1, &type, nattrs, attrs, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_unary(node_t* n, const char* name, value_t* x,
                                     value_t** out) {
  return kiln_onnx_emit(n, name, 1, &x, x->type, 0, NULL, out);
}

// |a| op |b| of the same shape; |type| NULL: |a|'s type.
static kiln_status_t kiln_onnx_binary_same(node_t* n, const char* name,
                                           value_t* a, value_t* b,
                                           value_t** out) {
  value_t* ops[2] = {a, b};
  return kiln_onnx_emit(n, name, 2, ops, a->type, 0, NULL, out);
}

// A splat constant of |type| (any shape) holding |value|.
static kiln_status_t kiln_onnx_splat(node_t* n, const type_t* type,
                                     double value, value_t** out) {
  const type_t* e = type->shaped.element;
  uint8_t data[16] = {0};
  kiln_onnx_store(data, e, 0, value, 0, true);
  const kiln_ir_attribute_t* a = kiln_ir_dense_elements_attr_get(
      n->context, type, true, data, kiln_ir_type_storage_bytes(e));
  if (!a) return KILN_ONNX_OOM();
  kiln_ir_named_attribute_t attr = kiln_onnx_named(n, "value", a);
  return kiln_onnx_emit(n, "stablehlo.constant", 0, NULL, type, 1, &attr, out);
}

static kiln_status_t kiln_onnx_splat_int(node_t* n, const type_t* type,
                                         int64_t value, value_t** out) {
  const type_t* e = type->shaped.element;
  uint8_t data[16] = {0};
  kiln_onnx_store(data, e, 0, 0, value, false);
  const kiln_ir_attribute_t* a = kiln_ir_dense_elements_attr_get(
      n->context, type, true, data, kiln_ir_type_storage_bytes(e));
  if (!a) return KILN_ONNX_OOM();
  kiln_ir_named_attribute_t attr = kiln_onnx_named(n, "value", a);
  return kiln_onnx_emit(n, "stablehlo.constant", 0, NULL, type, 1, &attr, out);
}

// A splat of |value| shaped like |like|.
static kiln_status_t kiln_onnx_like(node_t* n, value_t* like, double value,
                                    value_t** out) {
  return kiln_onnx_splat(n, like->type, value, out);
}

static kiln_status_t kiln_onnx_convert(node_t* n, value_t* x,
                                       const type_t* element, value_t** out) {
  if (kiln_onnx_elem(x->type) == element) {
    *out = x;
    return kiln_ok_status();
  }
  const type_t* t = kiln_onnx_tensor(n, kiln_onnx_rank(x->type),
                                     x->type->shaped.dims, element);
  return kiln_onnx_emit(n, "stablehlo.convert", 1, &x, t, 0, NULL, out);
}

static kiln_status_t kiln_onnx_reshape_to(node_t* n, value_t* x, size_t rank,
                                          const int64_t* dims, value_t** out) {
  const type_t* t = kiln_onnx_tensor(n, rank, dims, kiln_onnx_elem(x->type));
  if (t == x->type) {
    *out = x;
    return kiln_ok_status();
  }
  if (kiln_onnx_num_elements(t) == 0) {
    // An empty result holds no data: a constant (the structured lowering
    // cannot collapse 0x3x4 into 3x4x0).
    const kiln_ir_attribute_t* a =
        kiln_ir_dense_elements_attr_get(n->context, t, false, NULL, 0);
    if (!a) return KILN_ONNX_OOM();
    kiln_ir_named_attribute_t attr = kiln_onnx_named(n, "value", a);
    return kiln_onnx_emit(n, "stablehlo.constant", 0, NULL, t, 1, &attr, out);
  }
  return kiln_onnx_emit(n, "stablehlo.reshape", 1, &x, t, 0, NULL, out);
}

// Broadcasts |x| to |rank|/|dims| numpy-style (trailing dims aligned).
static kiln_status_t kiln_onnx_broadcast_to(node_t* n, value_t* x, size_t rank,
                                            const int64_t* dims,
                                            value_t** out) {
  const type_t* t = kiln_onnx_tensor(n, rank, dims, kiln_onnx_elem(x->type));
  if (t == x->type) {
    *out = x;
    return kiln_ok_status();
  }
  size_t xr = kiln_onnx_rank(x->type);
  if (xr > rank) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "cannot broadcast rank %zu to rank %zu", xr,
                                rank);
  }
  int64_t bdims[MAXR];
  for (size_t i = 0; i < xr; ++i) {
    bdims[i] = (int64_t)(rank - xr + i);
    int64_t d = x->type->shaped.dims[i];
    if (d != 1 && d != dims[bdims[i]]) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_INVALID_ARGUMENT,
          "dim %zu of size %lld does not broadcast to %lld", i, (long long)d,
          (long long)dims[bdims[i]]);
    }
  }
  kiln_ir_named_attribute_t attr = kiln_onnx_named(
      n, "broadcast_dimensions", kiln_onnx_i64_array(n, xr, bdims));
  return kiln_onnx_emit(n, "stablehlo.broadcast_in_dim", 1, &x, t, 1, &attr,
                        out);
}

// broadcast_in_dim with explicit |bdims| (x dim i -> result dim bdims[i]).
static kiln_status_t kiln_onnx_broadcast_dims(node_t* n, value_t* x,
                                              size_t rank, const int64_t* dims,
                                              const int64_t* bdims,
                                              value_t** out) {
  const type_t* t = kiln_onnx_tensor(n, rank, dims, kiln_onnx_elem(x->type));
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "broadcast_dimensions",
                      kiln_onnx_i64_array(n, kiln_onnx_rank(x->type), bdims));
  return kiln_onnx_emit(n, "stablehlo.broadcast_in_dim", 1, &x, t, 1, &attr,
                        out);
}

// The numpy broadcast shape of |count| types.
static kiln_status_t kiln_onnx_broadcast_shape(node_t* n, size_t count,
                                               const type_t* const* types,
                                               size_t* out_rank,
                                               int64_t* out_dims) {
  size_t rank = 0;
  for (size_t i = 0; i < count; ++i) {
    if (kiln_onnx_rank(types[i]) > rank) rank = kiln_onnx_rank(types[i]);
  }
  for (size_t d = 0; d < rank; ++d) out_dims[d] = 1;
  for (size_t i = 0; i < count; ++i) {
    size_t r = kiln_onnx_rank(types[i]);
    for (size_t k = 0; k < r; ++k) {
      int64_t dim = types[i]->shaped.dims[k];
      int64_t* o = &out_dims[rank - r + k];
      if (dim == *o || dim == 1) continue;
      if (*o == 1) {
        *o = dim;
        continue;
      }
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "input shapes %s and %s do not broadcast",
                                  kiln_ir_type_to_string(n->context, types[0]),
                                  kiln_ir_type_to_string(n->context, types[i]));
    }
  }
  *out_rank = rank;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_compare(node_t* n, const char* direction,
                                       value_t* a, value_t* b, value_t** out) {
  const type_t* t =
      kiln_onnx_tensor(n, kiln_onnx_rank(a->type), a->type->shaped.dims,
                       kiln_ir_int_type(n->context, 1));
  value_t* ops[2] = {a, b};
  kiln_ir_named_attribute_t attr = kiln_onnx_named(
      n, "comparison_direction",
      kiln_ir_string_attr_get(n->context, kiln_make_cstring_view(direction)));
  return kiln_onnx_emit(n, "stablehlo.compare", 2, ops, t, 1, &attr, out);
}

static kiln_status_t kiln_onnx_select(node_t* n, value_t* pred, value_t* a,
                                      value_t* b, value_t** out) {
  value_t* ops[3] = {pred, a, b};
  return kiln_onnx_emit(n, "stablehlo.select", 3, ops, a->type, 0, NULL, out);
}

// stablehlo.reduce of |x| over |axes| with |combiner| and |init|; the
// result drops the axes (kiln_onnx_keepdims puts them back).
static kiln_status_t kiln_onnx_reduce(node_t* n, value_t* x, size_t num_axes,
                                      const int64_t* axes, const char* combiner,
                                      double init, value_t** out) {
  kiln_ir_context_t* ctx = n->context;
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, e);
  value_t* init_value = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, init, &init_value));
  bool reduced[MAXR] = {false};
  for (size_t i = 0; i < num_axes; ++i) reduced[axes[i]] = true;
  int64_t dims[MAXR];
  size_t rank = 0;
  for (size_t d = 0; d < kiln_onnx_rank(x->type); ++d) {
    if (!reduced[d]) dims[rank++] = x->type->shaped.dims[d];
  }
  const type_t* rt = kiln_onnx_tensor(n, rank, dims, e);
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &region));
  kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
  rb.location = n->b->location;
  const type_t* arg_types[2] = {scalar, scalar};
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, region, 2, arg_types, &block));
  kiln_ir_op_t* combine = NULL;
  kiln_ir_value_t* args[2] = {block->args[0], block->args[1]};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, combiner, 2, args, 1, &scalar, 0, NULL, &combine));
  kiln_ir_value_t* combined = kiln_ir_op_result(combine, 0);
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &combined, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.reduce", n->b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, x));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, init_value));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, rt));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "dimensions", kiln_onnx_i64_array(n, num_axes, axes)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

// Reshapes a reduction result back to |x|'s rank with 1s at |axes|.
static kiln_status_t kiln_onnx_keepdims(node_t* n, value_t* reduced,
                                        const type_t* x, size_t num_axes,
                                        const int64_t* axes, value_t** out) {
  int64_t dims[MAXR];
  size_t rank = kiln_onnx_rank(x);
  for (size_t d = 0; d < rank; ++d) dims[d] = x->shaped.dims[d];
  for (size_t i = 0; i < num_axes; ++i) dims[axes[i]] = 1;
  return kiln_onnx_reshape_to(n, reduced, rank, dims, out);
}

//===----------------------------------------------------------------------===//
// Run-time checks of operands against declared result types
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_onnx_i64_vector(node_t* n, size_t count,
                                          const int64_t* values, value_t** out);

// Fails the invocation at run time when |ok| (i1, any shape) is not all
// true, with "node 'name' (Op): <what> does not match the declared result
// type T": a node compiled for its declared type because a shape-like
// operand is only known at run time checks that operand here.
static kiln_status_t kiln_onnx_check_declared_type(node_t* n, value_t* ok,
                                                   const char* what,
                                                   const type_t* declared) {
  size_t r = kiln_onnx_rank(ok->type);
  if (r) {
    int64_t axes[MAXR];
    for (size_t i = 0; i < r; ++i) axes[i] = (int64_t)i;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reduce(n, ok, r, axes, "stablehlo.and", 1, &ok));
  }
  const type_t* i1 = kiln_ir_int_type(n->context, 1);
  kiln_ir_op_t* read = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      n->b, "tensor.extract", 1, &ok, 1, &i1, 0, NULL, &read));
  char label[256], message[512];
  kiln_onnx_node_label(n, label, sizeof(label));
  snprintf(message, sizeof(message),
           "%s: %s does not match the declared result type %s", label, what,
           kiln_ir_type_to_string(n->context, declared));
  value_t* cond = kiln_ir_op_result(read, 0);
  kiln_ir_named_attribute_t msg = kiln_onnx_named(
      n, "msg",
      kiln_ir_string_attr_get(n->context, kiln_make_cstring_view(message)));
  kiln_ir_op_t* check = NULL;
  return kiln_ir_builder_create_simple(n->b, "cf.assert", 1, &cond, 0, NULL, 1,
                                       &msg, &check);
}

// As above for the declared type of output 0.
static kiln_status_t kiln_onnx_check_declared(node_t* n, value_t* ok,
                                              const char* what) {
  return kiln_onnx_check_declared_type(n, ok, what, n->declared[0]);
}

// |v| (a run-time integer tensor of |count| elements) == |dims|
// elementwise, as i1 of |v|'s shape.
static kiln_status_t kiln_onnx_equals_dims(node_t* n, value_t* v, size_t count,
                                           const int64_t* dims, value_t** out) {
  value_t* want = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, v, kiln_ir_int_type(n->context, 64), &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_vector(n, count, dims, &want));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, want, kiln_onnx_rank(v->type),
                                            v->type->shaped.dims, &want));
  return kiln_onnx_compare(n, "EQ", v, want, out);
}

// Input |i| (run-time) equals |values| (|count| entries); a length other
// than |count| is an import error (it is static).
static kiln_status_t kiln_onnx_check_input_values(node_t* n, size_t i,
                                                  size_t count,
                                                  const int64_t* values,
                                                  const char* what) {
  int64_t len = kiln_onnx_num_elements(n->inputs[i]->type);
  if (len != (int64_t)count) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "%s has %lld entries but the declared result type %s needs %zu", what,
        (long long)len, kiln_ir_type_to_string(n->context, n->declared[0]),
        count);
  }
  if (!count) return kiln_ok_status();
  value_t *v = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, count, values, &ok));
  char text[96];
  snprintf(text, sizeof(text), "run-time %s", what);
  return kiln_onnx_check_declared(n, ok, text);
}

// Input |i| (run-time) equals the declared result dims: ConstantOfShape's
// input, Resize's sizes, MaxUnpool's output_shape.
static kiln_status_t kiln_onnx_check_dims_input(node_t* n, size_t i,
                                                const char* what) {
  const type_t* rt = n->declared[0];
  return kiln_onnx_check_input_values(n, i, kiln_onnx_rank(rt), rt->shaped.dims,
                                      what);
}

// The lowest / highest value of an element type (for max / min inits).
static double kiln_onnx_lowest(const type_t* e) {
  if (kiln_onnx_is_float(e)) return -INFINITY;
  if (kiln_onnx_is_bool(e) || kiln_onnx_is_unsigned(e)) return 0;
  return -ldexp(1.0, (int)e->integer.width - 1);
}
static double kiln_onnx_highest(const type_t* e) {
  if (kiln_onnx_is_float(e)) return INFINITY;
  if (kiln_onnx_is_bool(e)) return 1;
  if (kiln_onnx_is_unsigned(e)) return ldexp(1.0, (int)e->integer.width) - 1;
  return ldexp(1.0, (int)e->integer.width - 1) - 1;
}

static kiln_status_t kiln_onnx_iota(node_t* n, const type_t* t, int64_t dim,
                                    value_t** out);

//===----------------------------------------------------------------------===//
// Host folding of small known values
//===----------------------------------------------------------------------===//

static bool kiln_onnx_all_known(node_t* n, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    kiln_onnx_value_t* v = kiln_onnx_input(n, i);
    if (!v || !v->known) return false;
    if (kiln_onnx_num_elements(v->type) > KILN_ONNX_FOLD_MAX_ELEMENTS) {
      return false;
    }
  }
  return true;
}

// Index of element |flat| of |out_dims| in a broadcast operand |t|.
static int64_t kiln_onnx_broadcast_index(const type_t* t, size_t out_rank,
                                         const int64_t* out_dims,
                                         int64_t flat) {
  size_t r = kiln_onnx_rank(t);
  int64_t index = 0, stride = 1;
  for (size_t k = out_rank; k-- > 0;) {
    int64_t coord = flat % out_dims[k];
    flat /= out_dims[k];
    if (k + r < out_rank) continue;
    size_t d = k - (out_rank - r);
    int64_t dim = t->shaped.dims[d];
    index += (dim == 1 ? 0 : coord) * stride;
    stride *= dim;
  }
  return index;
}

typedef enum kiln_onnx_fold_op_e {
  KILN_ONNX_FOLD_ADD,
  KILN_ONNX_FOLD_SUB,
  KILN_ONNX_FOLD_MUL,
  KILN_ONNX_FOLD_DIV,
  KILN_ONNX_FOLD_EQ,
  KILN_ONNX_FOLD_LT,
  KILN_ONNX_FOLD_GT,
  KILN_ONNX_FOLD_MAX,
  KILN_ONNX_FOLD_MIN,
  KILN_ONNX_FOLD_NONE,
} kiln_onnx_fold_op_t;

// Folds a binary op on known inputs; sets |*out_done|.
static kiln_status_t kiln_onnx_fold_binary(node_t* n, kiln_onnx_fold_op_t op,
                                           bool* out_done) {
  *out_done = false;
  if (op == KILN_ONNX_FOLD_NONE || !kiln_onnx_all_known(n, 2)) {
    return kiln_ok_status();
  }
  const kiln_onnx_const_t* a = n->inputs[0]->known;
  const kiln_onnx_const_t* b = n->inputs[1]->known;
  const type_t* e = kiln_onnx_elem(a->type);
  if (e != kiln_onnx_elem(b->type)) return kiln_ok_status();
  const type_t* types[2] = {a->type, b->type};
  size_t rank = 0;
  int64_t dims[MAXR];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_shape(n, 2, types, &rank, dims));
  bool is_cmp = op == KILN_ONNX_FOLD_EQ || op == KILN_ONNX_FOLD_LT ||
                op == KILN_ONNX_FOLD_GT;
  const type_t* re = is_cmp ? kiln_ir_int_type(n->context, 1) : e;
  const type_t* rt = kiln_onnx_tensor(n, rank, dims, re);
  kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, rt);
  if (!c) return KILN_ONNX_OOM();
  bool fl = kiln_onnx_is_float(e);
  int64_t count = kiln_onnx_num_elements(rt);
  for (int64_t i = 0; i < count; ++i) {
    int64_t ia = kiln_onnx_broadcast_index(a->type, rank, dims, i);
    int64_t ib = kiln_onnx_broadcast_index(b->type, rank, dims, i);
    if (fl) {
      double x = kiln_onnx_known_double(a, ia),
             y = kiln_onnx_known_double(b, ib);
      double r = 0;
      switch (op) {
        case KILN_ONNX_FOLD_ADD:
          r = x + y;
          break;
        case KILN_ONNX_FOLD_SUB:
          r = x - y;
          break;
        case KILN_ONNX_FOLD_MUL:
          r = x * y;
          break;
        case KILN_ONNX_FOLD_DIV:
          r = x / y;
          break;
        case KILN_ONNX_FOLD_EQ:
          r = x == y;
          break;
        case KILN_ONNX_FOLD_LT:
          r = x < y;
          break;
        case KILN_ONNX_FOLD_GT:
          r = x > y;
          break;
        case KILN_ONNX_FOLD_MAX:
          r = x > y ? x : y;
          break;
        case KILN_ONNX_FOLD_MIN:
          r = x < y ? x : y;
          break;
        default:
          break;
      }
      kiln_onnx_store((uint8_t*)c->data, re, i, r, 0, true);
    } else {
      int64_t x = kiln_onnx_known_int(a, ia), y = kiln_onnx_known_int(b, ib);
      int64_t r = 0;
      switch (op) {
        case KILN_ONNX_FOLD_ADD:
          r = (int64_t)((uint64_t)x + (uint64_t)y);
          break;
        case KILN_ONNX_FOLD_SUB:
          r = (int64_t)((uint64_t)x - (uint64_t)y);
          break;
        case KILN_ONNX_FOLD_MUL:
          r = (int64_t)((uint64_t)x * (uint64_t)y);
          break;
        case KILN_ONNX_FOLD_DIV:
          if (y == 0 || (x == INT64_MIN && y == -1)) return kiln_ok_status();
          r = x / y;
          break;
        case KILN_ONNX_FOLD_EQ:
          r = x == y;
          break;
        case KILN_ONNX_FOLD_LT:
          r = x < y;
          break;
        case KILN_ONNX_FOLD_GT:
          r = x > y;
          break;
        case KILN_ONNX_FOLD_MAX:
          r = x > y ? x : y;
          break;
        case KILN_ONNX_FOLD_MIN:
          r = x < y ? x : y;
          break;
        default:
          break;
      }
      kiln_onnx_store((uint8_t*)c->data, re, i, 0, r, false);
    }
  }
  kiln_onnx_set_known(n, 0, c);
  *out_done = true;
  return kiln_ok_status();
}

// A known value with the data of |c| and a new shape.
static kiln_onnx_const_t* kiln_onnx_retype(node_t* n,
                                           const kiln_onnx_const_t* c,
                                           size_t rank, const int64_t* dims) {
  kiln_onnx_const_t* r =
      (kiln_onnx_const_t*)kiln_ir_arena_alloc(n->context, sizeof(*r));
  if (!r) return NULL;
  *r = *c;
  r->type = kiln_onnx_tensor(n, rank, dims, kiln_onnx_elem(c->type));
  return r;
}

// Output 0 is input 0 reshaped to |rank|/|dims| (known or not).
static kiln_status_t kiln_onnx_finish_reshape(node_t* n, size_t rank,
                                              const int64_t* dims) {
  kiln_onnx_value_t* in = n->inputs[0];
  if (in->known) {
    kiln_onnx_const_t* c = kiln_onnx_retype(n, in->known, rank, dims);
    if (!c) return KILN_ONNX_OOM();
    kiln_onnx_set_known(n, 0, c);
    return kiln_ok_status();
  }
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, rank, dims, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

typedef struct kiln_onnx_unary_map_t {
  const char* onnx;
  const char* op;
} kiln_onnx_unary_map_t;

static const kiln_onnx_unary_map_t kiln_onnx_unary_ops[] = {
    {"Abs", "stablehlo.abs"},
    {"Neg", "stablehlo.negate"},
    {"Exp", "stablehlo.exponential"},
    {"Log", "stablehlo.log"},
    {"Sqrt", "stablehlo.sqrt"},
    {"Ceil", "stablehlo.ceil"},
    {"Floor", "stablehlo.floor"},
    {"Sigmoid", "stablehlo.logistic"},
    {"Tanh", "stablehlo.tanh"},
    {"Sin", "stablehlo.sine"},
    {"Cos", "stablehlo.cosine"},
    {"Tan", "stablehlo.tan"},
    {"Not", "stablehlo.not"},
    {"BitwiseNot", "stablehlo.not"},
    {"Sign", "stablehlo.sign"},
    {"Round", "stablehlo.round_nearest_even"},
    {"Erf", "math.erf"},
    {"Acos", "math.acos"},
    {"Asin", "math.asin"},
    {"Atan", "math.atan"},
    {"Sinh", "math.sinh"},
    {"Cosh", "math.cosh"},
    {NULL, NULL},
};

static kiln_status_t kiln_onnx_lower_unary(node_t* n) {
  const char* name = NULL;
  for (const kiln_onnx_unary_map_t* m = kiln_onnx_unary_ops; m->onnx; ++m) {
    if (!strcmp(m->onnx, n->proto->op_type)) name = m->op;
  }
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  if (!strcmp(n->proto->op_type, "Neg") && n->inputs[0]->known &&
      kiln_onnx_all_known(n, 1)) {
    // Shape math sometimes negates known values.
    const kiln_onnx_const_t* a = n->inputs[0]->known;
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, a->type);
    if (!c) return KILN_ONNX_OOM();
    const type_t* e = kiln_onnx_elem(a->type);
    for (int64_t i = 0; i < kiln_onnx_num_elements(a->type); ++i) {
      if (kiln_onnx_is_float(e)) {
        kiln_onnx_store((uint8_t*)c->data, e, i, -kiln_onnx_known_double(a, i),
                        0, true);
      } else {
        kiln_onnx_store((uint8_t*)c->data, e, i, 0, -kiln_onnx_known_int(a, i),
                        false);
      }
    }
    kiln_onnx_set_known(n, 0, c);
    return kiln_ok_status();
  }
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, name, x, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Output |i| becomes |v| (any kind), under the output's own name.
static void kiln_onnx_set_value(node_t* n, size_t i,
                                const kiln_onnx_value_t* v) {
  if (i >= n->num_outputs) return;
  const char* name = n->outputs[i].name;
  n->outputs[i] = *v;
  n->outputs[i].name = name;
  n->outputs[i].absorbed = NULL;
}

static kiln_status_t kiln_onnx_lower_identity(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  kiln_onnx_set_value(n, 0, n->inputs[0]);
  return kiln_ok_status();
}

// Float-only ops built from several stablehlo ops.
static kiln_status_t kiln_onnx_require_float(node_t* n, value_t* x) {
  if (!kiln_onnx_is_float(kiln_onnx_elem(x->type))) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "element type %s is not supported",
                                kiln_ir_type_to_string(n->context, x->type));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_activation(node_t* n) {
  const char* op = n->proto->op_type;
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  value_t *y = NULL, *zero = NULL, *t = NULL, *u = NULL, *c = NULL, *p = NULL;
  if (!strcmp(op, "Relu")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &zero));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", x, zero, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  if (!strcmp(op, "Reciprocal")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", c, x, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &zero));
  if (!strcmp(op, "LeakyRelu")) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_like(n, x, kiln_onnx_attr_float(n, "alpha", 0.01), &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", x, c, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", x, zero, &p));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, p, t, x, &y));
  } else if (!strcmp(op, "Elu") || !strcmp(op, "Selu")) {
    bool selu = !strcmp(op, "Selu");
    double alpha = kiln_onnx_attr_float(n, "alpha",
                                        selu ? 1.67326319217681884765625 : 1.0);
    KILN_RETURN_IF_ERROR(
        kiln_onnx_unary(n, "stablehlo.exponential_minus_one", x, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, alpha, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", t, c, &u));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, selu ? "LE" : "LT", x, zero, &p));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, p, u, x, &y));
    if (selu) {
      value_t* g = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_like(
          n, x, kiln_onnx_attr_float(n, "gamma", 1.05070102214813232421875),
          &g));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", y, g, &y));
    }
  } else if (!strcmp(op, "Celu")) {
    double alpha = kiln_onnx_attr_float(n, "alpha", 1.0);
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, alpha, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", x, c, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_unary(n, "stablehlo.exponential_minus_one", t, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", t, c, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", t, zero, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", x, zero, &u));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", u, t, &y));
  } else if (!strcmp(op, "HardSigmoid") || !strcmp(op, "HardSwish")) {
    bool swish = !strcmp(op, "HardSwish");
    double alpha = swish ? 1.0 / 6 : kiln_onnx_attr_float(n, "alpha", 0.2);
    double beta = swish ? 0.5 : kiln_onnx_attr_float(n, "beta", 0.5);
    value_t *a = NULL, *bv = NULL, *one = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, alpha, &a));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, beta, &bv));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &one));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", x, a, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", t, bv, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", t, one, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", t, zero, &y));
    if (swish) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", x, y, &y));
    }
  } else if (!strcmp(op, "ThresholdedRelu")) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_like(n, x, kiln_onnx_attr_float(n, "alpha", 1.0), &c));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", x, c, &p));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, p, x, zero, &y));
  } else if (!strcmp(op, "Softplus")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.exponential", x, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.log_plus_one", t, &y));
  } else if (!strcmp(op, "Softsign")) {
    value_t* one = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &one));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.abs", x, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", t, one, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", x, t, &y));
  } else if (!strcmp(op, "Asinh") || !strcmp(op, "Acosh")) {
    value_t* one = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &one));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", x, x, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(
        n, op[1] == 's' ? "stablehlo.add" : "stablehlo.subtract", t, one, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.sqrt", t, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", x, t, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.log", t, &y));
  } else if (!strcmp(op, "Atanh")) {
    value_t *one = NULL, *half = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &one));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0.5, &half));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", one, x, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", one, x, &u));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", t, u, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.log", t, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", t, half, &y));
  } else if (!strcmp(op, "Shrink")) {
    double bias = kiln_onnx_attr_float(n, "bias", 0.0);
    double lambd = kiln_onnx_attr_float(n, "lambd", 0.5);
    value_t *lo = NULL, *hi = NULL, *bv = NULL, *plo = NULL, *phi = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, -lambd, &lo));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, lambd, &hi));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, bias, &bv));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", x, lo, &plo));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", x, hi, &phi));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", x, bv, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", x, bv, &u));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, phi, u, zero, &y));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, plo, t, y, &y));
  } else if (!strcmp(op, "IsNaN")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", x, x, &y));
  } else if (!strcmp(op, "IsInf")) {
    bool neg = kiln_onnx_attr_int(n, "detect_negative", 1) != 0;
    bool pos = kiln_onnx_attr_int(n, "detect_positive", 1) != 0;
    value_t *pinf = NULL, *ninf = NULL, *a = NULL, *b2 = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, INFINITY, &pinf));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, -INFINITY, &ninf));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", x, pinf, &a));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", x, ninf, &b2));
    if (pos && neg) {
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.or", a, b2, &y));
    } else if (pos) {
      y = a;
    } else if (neg) {
      y = b2;
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", a, b2, &y));
    }
  } else {
    return kiln_onnx_node_error(n, KILN_STATUS_INTERNAL,
                                "no activation lowering");
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Materializes inputs [0, count) and broadcasts them to their common shape.
static kiln_status_t kiln_onnx_broadcast_inputs(node_t* n, size_t first,
                                                size_t count, value_t** vals) {
  const type_t* types[8] = {NULL};
  if (count > 8) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "more than 8 inputs");
  }
  for (size_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, first + i, &vals[i]));
    types[i] = vals[i]->type;
  }
  size_t rank = 0;
  int64_t dims[MAXR];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_shape(n, count, types, &rank, dims));
  for (size_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, vals[i], rank, dims, &vals[i]));
  }
  return kiln_ok_status();
}

typedef struct kiln_onnx_binary_map_t {
  const char* onnx;
  const char* op;
  const char* direction;  // compare ops
  kiln_onnx_fold_op_t fold;
} kiln_onnx_binary_map_t;

static const kiln_onnx_binary_map_t kiln_onnx_binary_ops[] = {
    {"Add", "stablehlo.add", NULL, KILN_ONNX_FOLD_ADD},
    {"Sub", "stablehlo.subtract", NULL, KILN_ONNX_FOLD_SUB},
    {"Mul", "stablehlo.multiply", NULL, KILN_ONNX_FOLD_MUL},
    {"Div", "stablehlo.divide", NULL, KILN_ONNX_FOLD_DIV},
    {"Pow", "stablehlo.power", NULL, KILN_ONNX_FOLD_NONE},
    {"And", "stablehlo.and", NULL, KILN_ONNX_FOLD_NONE},
    {"Or", "stablehlo.or", NULL, KILN_ONNX_FOLD_NONE},
    {"Xor", "stablehlo.xor", NULL, KILN_ONNX_FOLD_NONE},
    {"BitwiseAnd", "stablehlo.and", NULL, KILN_ONNX_FOLD_NONE},
    {"BitwiseOr", "stablehlo.or", NULL, KILN_ONNX_FOLD_NONE},
    {"BitwiseXor", "stablehlo.xor", NULL, KILN_ONNX_FOLD_NONE},
    {"Equal", "stablehlo.compare", "EQ", KILN_ONNX_FOLD_EQ},
    {"Less", "stablehlo.compare", "LT", KILN_ONNX_FOLD_LT},
    {"Greater", "stablehlo.compare", "GT", KILN_ONNX_FOLD_GT},
    {"LessOrEqual", "stablehlo.compare", "LE", KILN_ONNX_FOLD_NONE},
    {"GreaterOrEqual", "stablehlo.compare", "GE", KILN_ONNX_FOLD_NONE},
    {NULL, NULL, NULL, KILN_ONNX_FOLD_NONE},
};

// Before opset 7 binary ops broadcast B onto A only with broadcast=1, B's
// dims starting at |axis| of A (default: trailing, as numpy aligns): B is
// reshaped so that numpy broadcasting gives that alignment.
static kiln_status_t kiln_onnx_legacy_broadcast(node_t* n) {
  if (n->opset >= 7 || !kiln_onnx_attr_int(n, "broadcast", 0) ||
      !kiln_onnx_attr(n, "axis")) {
    return kiln_ok_status();
  }
  kiln_onnx_value_t* a = n->inputs[0];
  kiln_onnx_value_t* b = n->inputs[1];
  size_t ra = kiln_onnx_rank(a->type), rb = kiln_onnx_rank(b->type);
  int64_t axis = kiln_onnx_attr_int(n, "axis", 0);
  if (axis < 0) axis += (int64_t)ra;
  if (axis < 0 || (size_t)axis + rb > ra) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "broadcast axis out of range");
  }
  size_t rank = ra - (size_t)axis;
  int64_t dims[MAXR];
  for (size_t i = 0; i < rank; ++i)
    dims[i] = i < rb ? b->type->shaped.dims[i] : 1;
  value_t *x = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, b, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, rank, dims, &y));
  kiln_onnx_value_t* v =
      (kiln_onnx_value_t*)kiln_ir_arena_alloc(n->context, sizeof(*v));
  if (!v) return KILN_ONNX_OOM();
  v->name = b->name;
  v->type = y->type;
  v->ir = y;
  v->known = NULL;
  n->inputs[1] = v;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_binary(node_t* n) {
  const kiln_onnx_binary_map_t* m = kiln_onnx_binary_ops;
  while (m->onnx && strcmp(m->onnx, n->proto->op_type)) ++m;
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 2));
  KILN_RETURN_IF_ERROR(kiln_onnx_legacy_broadcast(n));
  bool done = false;
  KILN_RETURN_IF_ERROR(kiln_onnx_fold_binary(n, m->fold, &done));
  if (done) return kiln_ok_status();
  value_t* v[2];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_inputs(n, 0, 2, v));
  value_t* y = NULL;
  if (m->direction) {
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, m->direction, v[0], v[1], &y));
  } else {
    if (!strcmp(m->onnx, "Pow")) {
      // Pow's exponent may have another type: compute in the base's type.
      KILN_RETURN_IF_ERROR(
          kiln_onnx_convert(n, v[1], kiln_onnx_elem(v[0]->type), &v[1]));
    }
    if (kiln_onnx_elem(v[0]->type) != kiln_onnx_elem(v[1]->type)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "input element types differ");
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, m->op, v[0], v[1], &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Max, Min, Sum, Mean: variadic with broadcasting.
static kiln_status_t kiln_onnx_lower_variadic(node_t* n) {
  const char* op = n->proto->op_type;
  if (n->num_inputs == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "no inputs");
  }
  value_t* v[8];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_inputs(n, 0, n->num_inputs, v));
  const char* combine = !strcmp(op, "Max")   ? "stablehlo.maximum"
                        : !strcmp(op, "Min") ? "stablehlo.minimum"
                                             : "stablehlo.add";
  value_t* y = v[0];
  for (size_t i = 1; i < n->num_inputs; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, combine, y, v[i], &y));
  }
  if (!strcmp(op, "Mean")) {
    value_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, (double)n->num_inputs, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", y, c, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_mod(node_t* n) {
  value_t* v[2];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_inputs(n, 0, 2, v));
  value_t* r = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.remainder", v[0], v[1], &r));
  const type_t* e = kiln_onnx_elem(r->type);
  if (kiln_onnx_attr_int(n, "fmod", 0) == 0 && !kiln_onnx_is_unsigned(e)) {
    // Python-style: the result takes the divisor's sign.
    value_t *zero = NULL, *rneg = NULL, *bneg = NULL, *nz = NULL, *diff = NULL,
            *fix = NULL, *sum = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, r, 0, &zero));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", r, zero, &rneg));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", v[1], zero, &bneg));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", r, zero, &nz));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.xor", rneg, bneg, &diff));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.and", diff, nz, &fix));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", r, v[1], &sum));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, fix, sum, r, &r));
  }
  kiln_onnx_set(n, 0, r);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_bitshift(node_t* n) {
  value_t* v[2];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_inputs(n, 0, 2, v));
  bool left = kiln_onnx_attr_string_is(n, "direction", "", "LEFT");
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(
      n, left ? "stablehlo.shift_left" : "stablehlo.shift_right_logical", v[0],
      v[1], &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_per_channel(node_t* n, value_t* v,
                                           const type_t* like, value_t** out);

static kiln_status_t kiln_onnx_lower_prelu(node_t* n) {
  value_t* v[2];
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 2));
  const type_t* xt = n->inputs[0]->type;
  const type_t* st = n->inputs[1]->type;
  if (kiln_onnx_rank(st) == 1 && kiln_onnx_rank(xt) >= 2 &&
      st->shaped.dims[0] == xt->shaped.dims[1] &&
      st->shaped.dims[0] != xt->shaped.dims[kiln_onnx_rank(xt) - 1]) {
    // A per-channel slope (as older exporters write it).
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &v[0]));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &v[1]));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, v[1], xt, &v[1]));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_inputs(n, 0, 2, v));
  }
  value_t *zero = NULL, *p = NULL, *t = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, v[0], 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", v[0], zero, &p));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", v[0], v[1], &t));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, p, t, v[0], &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_where(node_t* n) {
  value_t* v[3];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_inputs(n, 0, 3, v));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, v[0], v[1], v[2], &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_cast(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  const type_t* e = NULL;
  if (!strcmp(n->proto->op_type, "CastLike")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 2));
    e = kiln_onnx_elem(n->inputs[1]->type);
  } else {
    int64_t to = kiln_onnx_attr_int(n, "to", 0);
    e = kiln_onnx_element_type(n->context, (int32_t)to);
    if (!e) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "casts to %s are not supported",
                                  kiln_onnx_dtype_name((int32_t)to));
    }
  }
  kiln_onnx_value_t* in = n->inputs[0];
  if (kiln_onnx_all_known(n, 1)) {
    const kiln_onnx_const_t* a = in->known;
    const type_t* t =
        kiln_onnx_tensor(n, kiln_onnx_rank(a->type), a->type->shaped.dims, e);
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, t);
    if (!c) return KILN_ONNX_OOM();
    bool from_float = kiln_onnx_is_float(kiln_onnx_elem(a->type));
    if (kiln_onnx_elem(a->type)->kind == KILN_IR_TYPE_FLOAT ||
        kiln_onnx_elem(a->type)->kind == KILN_IR_TYPE_INTEGER) {
      for (int64_t i = 0; i < kiln_onnx_num_elements(t); ++i) {
        kiln_onnx_store((uint8_t*)c->data, e, i, kiln_onnx_known_double(a, i),
                        kiln_onnx_known_int(a, i), from_float);
      }
      kiln_onnx_set_known(n, 0, c);
      return kiln_ok_status();
    }
  }
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, x, e, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_clip(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  value_t *lo = NULL, *hi = NULL, *y = x;
  if (n->opset < 11) {
    const Onnx__AttributeProto* a = kiln_onnx_attr(n, "min");
    const Onnx__AttributeProto* b = kiln_onnx_attr(n, "max");
    if (a) KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, a->f, &lo));
    if (b) KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, b->f, &hi));
  } else {
    value_t* s = NULL;
    if (kiln_onnx_input(n, 1)) {
      KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &s));
      KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, s, kiln_onnx_rank(x->type),
                                                  x->type->shaped.dims, &lo));
    }
    if (kiln_onnx_input(n, 2)) {
      KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &s));
      KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, s, kiln_onnx_rank(x->type),
                                                  x->type->shaped.dims, &hi));
    }
  }
  if (lo)
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", y, lo, &y));
  if (hi)
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", y, hi, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Constants and shapes
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_onnx_lower_constant(node_t* n) {
  kiln_ir_context_t* ctx = n->context;
  if (n->proto->n_attribute != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "Constant needs exactly one value attribute");
  }
  const Onnx__AttributeProto* a = n->proto->attribute[0];
  const char* name = a->name ? a->name : "";
  kiln_onnx_const_t* c = NULL;
  if (!strcmp(name, "value") && a->t) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_read_tensor(n->importer, a->t, "attribute 'value'", &c));
    // The data may live in the protobuf message (freed after the import):
    // known values must outlive nothing but the import, so that is fine.
  } else if (!strcmp(name, "value_float") && a->has_f) {
    float f = a->f;
    c = kiln_onnx_make_const(
        ctx,
        kiln_onnx_tensor(n, 0, NULL, kiln_ir_float_type_get(ctx, KILN_IR_F32)),
        &f, 4);
  } else if (!strcmp(name, "value_int") && a->has_i) {
    c = kiln_onnx_make_const(
        ctx, kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(ctx, 64)), &a->i, 8);
  } else if (!strcmp(name, "value_floats")) {
    int64_t dim = (int64_t)a->n_floats;
    c = kiln_onnx_make_const(
        ctx,
        kiln_onnx_tensor(n, 1, &dim, kiln_ir_float_type_get(ctx, KILN_IR_F32)),
        a->floats, a->n_floats * 4);
  } else if (!strcmp(name, "value_ints")) {
    int64_t dim = (int64_t)a->n_ints;
    c = kiln_onnx_make_const(
        ctx, kiln_onnx_tensor(n, 1, &dim, kiln_ir_int_type(ctx, 64)), a->ints,
        a->n_ints * 8);
  } else {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "constant attribute '%s' is not supported",
                                name);
  }
  if (!c) return KILN_ONNX_OOM();
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_int64_list_const(node_t* n, size_t count,
                                                const int64_t* values,
                                                bool scalar,
                                                kiln_onnx_const_t** out) {
  int64_t dim = (int64_t)count;
  const type_t* t = kiln_onnx_tensor(n, scalar ? 0 : 1, &dim,
                                     kiln_ir_int_type(n->context, 64));
  *out = kiln_onnx_make_const(n->context, t, values, count * 8);
  return *out ? kiln_ok_status() : KILN_ONNX_OOM();
}

static kiln_status_t kiln_onnx_lower_shape(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  const type_t* t = n->inputs[0]->type;
  int64_t r = (int64_t)kiln_onnx_rank(t);
  int64_t start = kiln_onnx_attr_int(n, "start", 0);
  int64_t end = kiln_onnx_attr_int(n, "end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  if (end < start) end = start;
  kiln_onnx_const_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_int64_list_const(
      n, (size_t)(end - start), t->shaped.dims + start, false, &c));
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_size(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  int64_t count = kiln_onnx_num_elements(n->inputs[0]->type);
  kiln_onnx_const_t* c = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_int64_list_const(n, 1, &count, true, &c));
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_constant_of_shape(node_t* n) {
  int64_t dims[MAXR], rank = 0;
  if (kiln_onnx_use_declared(n, 0, 0)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_check_dims_input(n, 0, "shape"));
    rank = (int64_t)kiln_onnx_rank(n->declared[0]);
    memcpy(dims, n->declared[0]->shaped.dims, (size_t)rank * 8);
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 0, "shape", dims, MAXR, &rank));
  }
  if (rank < 0) rank = 0;
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, "value");
  const kiln_onnx_const_t* v = NULL;
  if (a && a->t) {
    kiln_onnx_const_t* c = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_read_tensor(n->importer, a->t, "attribute 'value'", &c));
    if (kiln_onnx_num_elements(c->type) != 1) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "'value' must hold one element");
    }
    v = c;
  }
  const type_t* e = v ? kiln_onnx_elem(v->type)
                      : kiln_ir_float_type_get(n->context, KILN_IR_F32);
  for (int64_t i = 0; i < rank; ++i) {
    if (dims[i] < 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "negative dimension %lld",
                                  (long long)dims[i]);
    }
  }
  const type_t* t = kiln_onnx_tensor(n, (size_t)rank, dims, e);
  if (kiln_onnx_num_elements(t) <= KILN_ONNX_FOLD_MAX_ELEMENTS) {
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, t);
    if (!c) return KILN_ONNX_OOM();
    size_t w = kiln_ir_type_storage_bytes(e);
    for (int64_t i = 0; v && i < kiln_onnx_num_elements(t); ++i) {
      memcpy((uint8_t*)c->data + (size_t)i * w, v->data, w);
    }
    kiln_onnx_set_known(n, 0, c);
    return kiln_ok_status();
  }
  value_t* y = NULL;
  if (v && kiln_onnx_is_float(e)) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_splat(n, t, kiln_onnx_known_double(v, 0), &y));
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_splat_int(n, t, v ? kiln_onnx_known_int(v, 0) : 0, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Range compiled for its declared length L: max(ceil((limit - start) /
// delta), 0) == L at run time (integer inputs: an exact ceiling division;
// a zero delta, invalid in ONNX, is taken as 1).
static kiln_status_t kiln_onnx_check_range(node_t* n, value_t* start,
                                           value_t* limit, value_t* delta) {
  int64_t length = n->declared[0]->shaped.dims[0];
  bool is_float = kiln_onnx_is_float(kiln_onnx_elem(start->type));
  value_t *num = NULL, *q = NULL, *zero = NULL, *want = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", limit, start, &num));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, num, 0, &zero));
  if (is_float) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", num, delta, &q));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.ceil", q, &q));
  } else {
    value_t *dz = NULL, *one = NULL, *rem = NULL, *up = NULL, *t = NULL;
    value_t *rpos = NULL, *dpos = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, num, 1, &one));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", delta, zero, &dz));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, dz, one, delta, &delta));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", num, delta, &q));
    // Truncated; one more when the remainder is non-zero with delta's sign.
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.remainder", num, delta, &rem));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", rem, zero, &rpos));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", delta, zero, &dpos));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", rpos, dpos, &up));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", rem, zero, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.and", up, t, &up));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", q, one, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, up, t, q, &q));
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.maximum", q, zero, &q));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, q, (double)length, &want));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", q, want, &ok));
  return kiln_onnx_check_declared(n, ok, "the run-time length");
}

static kiln_status_t kiln_onnx_lower_range(node_t* n) {
  if (!kiln_onnx_all_known(n, 3)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 3));
    if (!n->declared[0] || kiln_onnx_rank(n->declared[0]) != 1) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "start, limit and delta are computed at run time and the graph "
          "declares no static result shape");
    }
    // start + iota * delta, for the declared length.
    value_t *start = NULL, *limit = NULL, *delta = NULL, *iota = NULL,
            *y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &start));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &limit));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &delta));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, start, 0, NULL, &start));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, limit, 0, NULL, &limit));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, delta, 0, NULL, &delta));
    KILN_RETURN_IF_ERROR(kiln_onnx_check_range(n, start, limit, delta));
    const type_t* t = n->declared[0];
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, t, 0, &iota));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, start, 1, t->shaped.dims, &start));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, delta, 1, t->shaped.dims, &delta));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", iota, delta, &y));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", y, start, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  const kiln_onnx_const_t* s = n->inputs[0]->known;
  const type_t* e = kiln_onnx_elem(s->type);
  double start = kiln_onnx_known_double(s, 0);
  double limit = kiln_onnx_known_double(n->inputs[1]->known, 0);
  double delta = kiln_onnx_known_double(n->inputs[2]->known, 0);
  if (delta == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "delta is 0");
  }
  double steps = ceil((limit - start) / delta);
  int64_t count = steps > 0 ? (int64_t)steps : 0;
  if (count > (1 << 24)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "range of %lld elements", (long long)count);
  }
  const type_t* t = kiln_onnx_tensor(n, 1, &count, e);
  kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, t);
  if (!c) return KILN_ONNX_OOM();
  bool fl = kiln_onnx_is_float(e);
  int64_t is = kiln_onnx_known_int(s, 0),
          id = kiln_onnx_known_int(n->inputs[2]->known, 0);
  for (int64_t i = 0; i < count; ++i) {
    kiln_onnx_store((uint8_t*)c->data, e, i, start + (double)i * delta,
                    is + i * id, fl);
  }
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// Reshape compiled for its declared type: each run-time shape entry is
// the declared dim, -1 (inferred: the element counts already agree), or 0
// copying an input dim equal to the declared one (unless allowzero).
static kiln_status_t kiln_onnx_check_reshape(node_t* n) {
  const type_t* rt = n->declared[0];
  const type_t* t = n->inputs[0]->type;
  size_t r = kiln_onnx_rank(rt);
  if (kiln_onnx_num_elements(n->inputs[1]->type) != (int64_t)r || !r) {
    return kiln_onnx_check_dims_input(n, 1, "shape");
  }
  bool allowzero = kiln_onnx_attr_int(n, "allowzero", 0) != 0;
  int64_t minus_one[MAXR], copy[MAXR];
  for (size_t i = 0; i < r; ++i) {
    minus_one[i] = -1;
    bool copies = !allowzero && i < kiln_onnx_rank(t) &&
                  t->shaped.dims[i] == rt->shaped.dims[i];
    copy[i] = copies ? 0 : rt->shaped.dims[i];
  }
  value_t *v = NULL, *ok = NULL, *inferred = NULL, *copied = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, r, rt->shaped.dims, &ok));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, r, minus_one, &inferred));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, r, copy, &copied));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.or", ok, inferred, &ok));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.or", ok, copied, &ok));
  return kiln_onnx_check_declared(n, ok, "run-time shape");
}

static kiln_status_t kiln_onnx_lower_reshape(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  const type_t* t = n->inputs[0]->type;
  int64_t shape[MAXR], rank = 0;
  if (n->opset < 5) {
    rank = kiln_onnx_attr_ints(n, "shape", shape, MAXR);
  } else {
    kiln_onnx_value_t* s = kiln_onnx_input(n, 1);
    if (s && !s->known && n->declared[0]) {
      // A runtime shape with a declared static result: compile for that,
      // checked at run time.
      KILN_RETURN_IF_ERROR(kiln_onnx_check_reshape(n));
      return kiln_onnx_finish_reshape(n, kiln_onnx_rank(n->declared[0]),
                                      n->declared[0]->shaped.dims);
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 1, "shape", shape, MAXR, &rank));
  }
  if (rank < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "no shape");
  }
  bool allowzero = kiln_onnx_attr_int(n, "allowzero", 0) != 0;
  int64_t total = kiln_onnx_num_elements(t), known = 1, infer = -1;
  for (int64_t i = 0; i < rank; ++i) {
    if (shape[i] == 0 && !allowzero) {
      if ((size_t)i >= kiln_onnx_rank(t)) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "shape entry %lld copies a missing dim",
                                    (long long)i);
      }
      shape[i] = t->shaped.dims[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "more than one -1 in the shape");
      }
      infer = i;
    } else if (shape[i] < 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "invalid shape entry %lld",
                                  (long long)shape[i]);
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "the shape's element count overflows 64 "
                                  "bits (entry %lld is %lld)",
                                  (long long)i, (long long)shape[i]);
    }
  }
  if (infer >= 0) {
    if (known == 0 || total % known) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "cannot infer the -1 dim");
    }
    shape[infer] = total / known;
    known *= shape[infer];
  }
  if (known != total) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "cannot reshape %lld elements to %lld",
                                (long long)total, (long long)known);
  }
  return kiln_onnx_finish_reshape(n, (size_t)rank, shape);
}

static kiln_status_t kiln_onnx_lower_flatten(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  const type_t* t = n->inputs[0]->type;
  size_t r = kiln_onnx_rank(t);
  int64_t axis = kiln_onnx_attr_int(n, "axis", 1);
  if (axis < 0) axis += (int64_t)r;
  if (axis < 0 || axis > (int64_t)r) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "axis out of range");
  }
  int64_t dims[2] = {1, 1};
  for (size_t i = 0; i < r; ++i)
    dims[(int64_t)i < axis ? 0 : 1] *= t->shaped.dims[i];
  return kiln_onnx_finish_reshape(n, 2, dims);
}

// hits[p] = how many entries of run-time axes input |i| (any integer type,
// negative ones counted from the end) are dim p of a rank-|rank| tensor,
// as i64 [rank].
static kiln_status_t kiln_onnx_axis_hits(node_t* n, size_t i, size_t rank,
                                         value_t** out) {
  int64_t m = kiln_onnx_num_elements(n->inputs[i]->type);
  const type_t* e64 = kiln_ir_int_type(n->context, 64);
  value_t *axes = NULL, *zero = NULL, *neg = NULL, *wrapped = NULL, *rv = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &axes));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, axes, e64, &axes));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, axes, 1, &m, &axes));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, axes, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, axes, (double)rank, &rv));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", axes, zero, &neg));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", axes, rv, &wrapped));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, neg, wrapped, axes, &axes));
  int64_t pm[2] = {(int64_t)rank, m}, one = 1;
  value_t *ab = NULL, *io = NULL, *eq = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, axes, 2, pm, &one, &ab));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_iota(n, kiln_onnx_tensor(n, 2, pm, e64), 0, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", io, ab, &eq));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, eq, e64, &eq));
  return kiln_onnx_reduce(n, eq, 1, &one, "stablehlo.add", 0, out);
}

// Squeeze / Unsqueeze compiled for the declared type with run-time axes
// (input 1): the axes, normalized for |lr| = the longer rank, must be one
// of the sets of size-1 positions of |longer| whose removal leaves
// |shorter| (enumerated here; each axis once).
static kiln_status_t kiln_onnx_check_unit_axes(node_t* n, const type_t* longer,
                                               const type_t* shorter) {
  size_t lr = kiln_onnx_rank(longer), sr = kiln_onnx_rank(shorter);
  int64_t m = kiln_onnx_num_elements(n->inputs[1]->type);
  if (m != (int64_t)(lr - sr)) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "axes has %lld entries but the declared result type %s needs %zu",
        (long long)m, kiln_ir_type_to_string(n->context, n->declared[0]),
        lr - sr);
  }
  // Ranks above 8 (2^rank candidate sets) are left unchecked.
  if (!m || lr > 8) return kiln_ok_status();
  // Valid position masks, one row of |lr| 0/1 entries each.
  int64_t masks[(1 << 8) * 8];
  int64_t rows = 0;
  for (uint32_t bits = 0; bits < (1u << lr); ++bits) {
    if (__builtin_popcount(bits) != m) continue;
    bool fits = true;
    for (size_t p = 0, k = 0; p < lr && fits; ++p) {
      int64_t d = longer->shaped.dims[p];
      fits =
          (bits >> p) & 1 ? d == 1 : k < sr && d == shorter->shaped.dims[k++];
    }
    for (size_t p = 0; fits && p < lr; ++p) {
      masks[rows * (int64_t)lr + (int64_t)p] = (bits >> p) & 1;
    }
    rows += fits;
  }
  int64_t one = 1;
  value_t *hits = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_axis_hits(n, 1, lr, &hits));
  if (!rows) {
    // No axes give the declared type: the check always fails.
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(
        n, kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(n->context, 1)), 0,
        &ok));
    return kiln_onnx_check_declared(n, ok, "run-time axes");
  }
  // Some row of |masks| equals |hits| entirely.
  int64_t km[2] = {rows, (int64_t)lr}, zero_dim = 0;
  value_t *table = NULL, *hb = NULL, *same = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_i64_vector(n, (size_t)(rows * (int64_t)lr), masks, &table));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, table, 2, km, &table));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, hits, 2, km, &one, &hb));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", table, hb, &same));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, same, 1, &one, "stablehlo.and", 1, &same));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, same, 1, &zero_dim, "stablehlo.or", 0, &ok));
  return kiln_onnx_check_declared(n, ok, "run-time axes");
}

static kiln_status_t kiln_onnx_lower_squeeze(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  if (n->opset >= 13 && kiln_onnx_use_declared(n, 1, 0)) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_check_unit_axes(n, n->inputs[0]->type, n->declared[0]));
    return kiln_onnx_finish_reshape(n, kiln_onnx_rank(n->declared[0]),
                                    n->declared[0]->shaped.dims);
  }
  const type_t* t = n->inputs[0]->type;
  size_t r = kiln_onnx_rank(t);
  int64_t axes[MAXR], count = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_ints_operand(n, 13, "axes", 1, axes, MAXR, &count));
  bool drop[MAXR] = {false};
  if (count <= 0) {
    for (size_t i = 0; i < r; ++i) drop[i] = t->shaped.dims[i] == 1;
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t a = 0;
    KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, axes[i], r, &a));
    if (t->shaped.dims[a] != 1) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "dim %lld is not 1", (long long)a);
    }
    drop[a] = true;
  }
  int64_t dims[MAXR];
  size_t rank = 0;
  for (size_t i = 0; i < r; ++i) {
    if (!drop[i]) dims[rank++] = t->shaped.dims[i];
  }
  return kiln_onnx_finish_reshape(n, rank, dims);
}

static kiln_status_t kiln_onnx_lower_unsqueeze(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  if (n->opset >= 13 && kiln_onnx_use_declared(n, 1, 0)) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_check_unit_axes(n, n->declared[0], n->inputs[0]->type));
    return kiln_onnx_finish_reshape(n, kiln_onnx_rank(n->declared[0]),
                                    n->declared[0]->shaped.dims);
  }
  const type_t* t = n->inputs[0]->type;
  size_t r = kiln_onnx_rank(t);
  int64_t axes[MAXR], count = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_ints_operand(n, 13, "axes", 1, axes, MAXR, &count));
  if (count < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "no axes");
  }
  size_t rank = r + (size_t)count;
  if (rank > MAXR) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED, "rank too high");
  }
  bool added[MAXR] = {false};
  for (int64_t i = 0; i < count; ++i) {
    int64_t a = 0;
    KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, axes[i], rank, &a));
    if (added[a]) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "axis %lld repeats", (long long)a);
    }
    added[a] = true;
  }
  int64_t dims[MAXR];
  for (size_t i = 0, k = 0; i < rank; ++i) {
    dims[i] = added[i] ? 1 : t->shaped.dims[k++];
  }
  return kiln_onnx_finish_reshape(n, rank, dims);
}

static kiln_status_t kiln_onnx_transpose(node_t* n, value_t* x,
                                         const int64_t* perm, value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  int64_t dims[MAXR];
  bool identity = true;
  for (size_t i = 0; i < r; ++i) {
    dims[i] = x->type->shaped.dims[perm[i]];
    if (perm[i] != (int64_t)i) identity = false;
  }
  if (identity) {
    *out = x;
    return kiln_ok_status();
  }
  const type_t* t = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type));
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "permutation", kiln_onnx_i64_array(n, r, perm));
  return kiln_onnx_emit(n, "stablehlo.transpose", 1, &x, t, 1, &attr, out);
}

static kiln_status_t kiln_onnx_lower_transpose(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t perm[MAXR];
  int64_t count = kiln_onnx_attr_ints(n, "perm", perm, MAXR);
  if (count < 0) {
    for (size_t i = 0; i < r; ++i) perm[i] = (int64_t)(r - 1 - i);
  } else {
    bool seen[MAXR] = {false};
    if ((size_t)count != r) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "perm has %lld entries for rank %zu",
                                  (long long)count, r);
    }
    for (size_t i = 0; i < r; ++i) {
      if (perm[i] < 0 || perm[i] >= (int64_t)r || seen[perm[i]]) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "perm is not a permutation");
      }
      seen[perm[i]] = true;
    }
  }
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, x, perm, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_concat(node_t* n) {
  if (n->num_inputs == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "no inputs");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, n->num_inputs));
  const type_t* t0 = n->inputs[0]->type;
  size_t r = kiln_onnx_rank(t0);
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  int64_t dims[MAXR];
  memcpy(dims, t0->shaped.dims, r * sizeof(int64_t));
  dims[axis] = 0;
  for (size_t i = 0; i < n->num_inputs; ++i) {
    const type_t* t = n->inputs[i]->type;
    if (kiln_onnx_rank(t) != r || kiln_onnx_elem(t) != kiln_onnx_elem(t0)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "inputs differ in rank or element type");
    }
    for (size_t d = 0; d < r; ++d) {
      if ((int64_t)d != axis && t->shaped.dims[d] != t0->shaped.dims[d]) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "inputs differ in dim %zu", d);
      }
    }
    dims[axis] += t->shaped.dims[axis];
  }
  const type_t* rt = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(t0));
  if (kiln_onnx_all_known(n, n->num_inputs)) {
    // Row-major concat of known values: chunks of the inner size.
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, rt);
    if (!c) return KILN_ONNX_OOM();
    size_t w = kiln_ir_type_storage_bytes(kiln_onnx_elem(t0));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
    for (size_t d = (size_t)axis + 1; d < r; ++d) inner *= dims[d];
    uint8_t* dst = (uint8_t*)c->data;
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t i = 0; i < n->num_inputs; ++i) {
        const kiln_onnx_const_t* k = n->inputs[i]->known;
        size_t chunk = (size_t)(k->type->shaped.dims[axis] * inner) * w;
        memcpy(dst, k->data + (size_t)o * chunk, chunk);
        dst += chunk;
      }
    }
    kiln_onnx_set_known(n, 0, c);
    return kiln_ok_status();
  }
  value_t* ops[64];
  size_t count = 0;
  for (size_t i = 0; i < n->num_inputs && count < 64; ++i) {
    if (kiln_onnx_num_elements(n->inputs[i]->type) == 0) continue;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &ops[count++]));
  }
  if (count == 0 || n->num_inputs > 64) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED,
        "concatenation of empty or more than 64 inputs");
  }
  value_t* y = NULL;
  if (count == 1) {
    y = ops[0];
  } else {
    kiln_ir_named_attribute_t attr =
        kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, axis));
    KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.concatenate", count, ops,
                                        rt, 1, &attr, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// stablehlo.slice of |x| with positive |strides|.
static kiln_status_t kiln_onnx_slice(node_t* n, value_t* x,
                                     const int64_t* start, const int64_t* limit,
                                     const int64_t* strides, value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  int64_t dims[MAXR];
  bool identity = true;
  for (size_t d = 0; d < r; ++d) {
    dims[d] = limit[d] <= start[d]
                  ? 0
                  : (limit[d] - start[d] + strides[d] - 1) / strides[d];
    if (start[d] != 0 || dims[d] != x->type->shaped.dims[d] ||
        strides[d] != 1) {
      identity = false;
    }
  }
  if (identity) {
    *out = x;
    return kiln_ok_status();
  }
  const type_t* t = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type));
  kiln_ir_named_attribute_t attrs[3] = {
      kiln_onnx_named(n, "start_indices", kiln_onnx_i64_array(n, r, start)),
      kiln_onnx_named(n, "limit_indices", kiln_onnx_i64_array(n, r, limit)),
      kiln_onnx_named(n, "strides", kiln_onnx_i64_array(n, r, strides)),
  };
  return kiln_onnx_emit(n, "stablehlo.slice", 1, &x, t, 3, attrs, out);
}

static kiln_status_t kiln_onnx_lower_slice_runtime(node_t* n);

static kiln_status_t kiln_onnx_lower_slice(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  if (n->opset >= 10) {
    for (size_t i = 1; i <= 4; ++i) {
      if (kiln_onnx_use_declared(n, i, 0)) {
        return kiln_onnx_lower_slice_runtime(n);
      }
    }
  }
  const type_t* t = n->inputs[0]->type;
  size_t r = kiln_onnx_rank(t);
  int64_t starts[MAXR], ends[MAXR], axes[MAXR], steps[MAXR];
  int64_t ns = 0, ne = 0, na = -1, nst = -1;
  if (n->opset < 10) {
    ns = kiln_onnx_attr_ints(n, "starts", starts, MAXR);
    ne = kiln_onnx_attr_ints(n, "ends", ends, MAXR);
    na = kiln_onnx_attr_ints(n, "axes", axes, MAXR);
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 1, "starts", starts, MAXR, &ns));
    KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 2, "ends", ends, MAXR, &ne));
    KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 3, "axes", axes, MAXR, &na));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 4, "steps", steps, MAXR, &nst));
  }
  if (ns < 0 || ns != ne || (na >= 0 && na != ns) || (nst >= 0 && nst != ns) ||
      ns > (int64_t)r) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "starts, ends, axes and steps differ in length");
  }
  int64_t lo[MAXR], hi[MAXR], st[MAXR];
  bool reverse[MAXR] = {false};
  for (size_t d = 0; d < r; ++d) {
    lo[d] = 0;
    hi[d] = t->shaped.dims[d];
    st[d] = 1;
  }
  for (int64_t i = 0; i < ns; ++i) {
    int64_t a = na >= 0 ? axes[i] : i;
    KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, a, r, &a));
    int64_t dim = t->shaped.dims[a];
    int64_t step = nst >= 0 ? steps[i] : 1;
    if (step == 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "step is 0");
    }
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (step > 0) {
      s = s < 0 ? 0 : s > dim ? dim : s;
      e = e < 0 ? 0 : e > dim ? dim : e;
      lo[a] = s;
      hi[a] = e < s ? s : e;
      st[a] = step;
    } else {
      // Slice the reversed dim: index i becomes dim - 1 - i.
      s = s < 0 ? -1 : s > dim - 1 ? dim - 1 : s;
      e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
      reverse[a] = true;
      lo[a] = dim - 1 - s;
      hi[a] = dim - 1 - e;
      if (hi[a] < lo[a]) hi[a] = lo[a];
      st[a] = -step;
    }
  }
  bool any_reverse = false;
  int64_t rdims[MAXR];
  size_t nr = 0;
  for (size_t d = 0; d < r; ++d) {
    if (reverse[d]) {
      rdims[nr++] = (int64_t)d;
      any_reverse = true;
    }
  }
  if (kiln_onnx_all_known(n, 1) && !any_reverse) {
    // Host slice (shape computations): gather element by element.
    const kiln_onnx_const_t* k = n->inputs[0]->known;
    int64_t dims[MAXR];
    for (size_t d = 0; d < r; ++d) {
      dims[d] = hi[d] <= lo[d] ? 0 : (hi[d] - lo[d] + st[d] - 1) / st[d];
    }
    const type_t* rt = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(t));
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, rt);
    if (!c) return KILN_ONNX_OOM();
    size_t w = kiln_ir_type_storage_bytes(kiln_onnx_elem(t));
    int64_t count = kiln_onnx_num_elements(rt);
    for (int64_t i = 0; i < count; ++i) {
      int64_t rem = i, src = 0, stride = 1;
      for (size_t d = r; d-- > 0;) {
        int64_t coord = rem % dims[d];
        rem /= dims[d];
        src += (lo[d] + coord * st[d]) * stride;
        stride *= t->shaped.dims[d];
      }
      memcpy((uint8_t*)c->data + (size_t)i * w, k->data + (size_t)src * w, w);
    }
    kiln_onnx_set_known(n, 0, c);
    return kiln_ok_status();
  }
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  if (any_reverse) {
    kiln_ir_named_attribute_t attr =
        kiln_onnx_named(n, "dimensions", kiln_onnx_i64_array(n, nr, rdims));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.reverse", 1, &x, x->type, 1, &attr, &x));
  }
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_gather(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 2));
  const type_t* dt = n->inputs[0]->type;
  const type_t* it = n->inputs[1]->type;
  size_t r = kiln_onnx_rank(dt), ir = kiln_onnx_rank(it);
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  if (r + ir - 1 > MAXR) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED, "rank too high");
  }
  int64_t dims[MAXR];
  size_t rank = 0;
  for (int64_t d = 0; d < axis; ++d) dims[rank++] = dt->shaped.dims[d];
  for (size_t d = 0; d < ir; ++d) dims[rank++] = it->shaped.dims[d];
  for (size_t d = (size_t)axis + 1; d < r; ++d)
    dims[rank++] = dt->shaped.dims[d];
  int64_t dim = dt->shaped.dims[axis];
  const type_t* rt = kiln_onnx_tensor(n, rank, dims, kiln_onnx_elem(dt));
  if (kiln_onnx_all_known(n, 2)) {
    const kiln_onnx_const_t* data = n->inputs[0]->known;
    const kiln_onnx_const_t* idx = n->inputs[1]->known;
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, rt);
    if (!c) return KILN_ONNX_OOM();
    size_t w = kiln_ir_type_storage_bytes(kiln_onnx_elem(dt));
    int64_t outer = 1, inner = 1, ni = kiln_onnx_num_elements(it);
    for (int64_t d = 0; d < axis; ++d) outer *= dt->shaped.dims[d];
    for (size_t d = (size_t)axis + 1; d < r; ++d) inner *= dt->shaped.dims[d];
    uint8_t* dst = (uint8_t*)c->data;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < ni; ++j) {
        int64_t k = kiln_onnx_known_int(idx, j);
        if (k < 0) k += dim;
        if (k < 0 || k >= dim) {
          return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                      "index %lld is out of range",
                                      (long long)kiln_onnx_known_int(idx, j));
        }
        memcpy(dst, data->data + (size_t)((o * dim + k) * inner) * w,
               (size_t)inner * w);
        dst += (size_t)inner * w;
      }
    }
    kiln_onnx_set_known(n, 0, c);
    return kiln_ok_status();
  }
  value_t *x = NULL, *idx = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  if (n->inputs[1]->known) {
    // Normalize negative known indices at import.
    const kiln_onnx_const_t* k = n->inputs[1]->known;
    const type_t* i64t = kiln_onnx_tensor(n, ir, it->shaped.dims,
                                          kiln_ir_int_type(n->context, 64));
    kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, i64t);
    if (!c) return KILN_ONNX_OOM();
    for (int64_t j = 0; j < kiln_onnx_num_elements(it); ++j) {
      int64_t v = kiln_onnx_known_int(k, j);
      if (v < 0) v += dim;
      if (v < 0 || v >= dim) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "index %lld is out of range",
                                    (long long)kiln_onnx_known_int(k, j));
      }
      memcpy((uint8_t*)c->data + j * 8, &v, 8);
    }
    kiln_onnx_value_t tmp = {
        "indices", i64t, NULL, c, NULL, KILN_ONNX_KIND_TENSOR, 0, NULL, NULL};
    KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &tmp, &idx));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &idx));
    value_t *zero = NULL, *neg = NULL, *dv = NULL, *wrapped = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, idx, 0, &zero));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, idx, (double)dim, &dv));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", idx, zero, &neg));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", idx, dv, &wrapped));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, neg, wrapped, idx, &idx));
  }
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_onnx_named(n, "dim", kiln_onnx_i64(n, axis)),
      kiln_onnx_named(n, "batch_dims", kiln_onnx_i64(n, 0)),
  };
  value_t* ops[2] = {x, idx};
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.torch_index_select", 2, ops,
                                      rt, 2, attrs, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Expand compiled for its declared type: each run-time shape entry (the
// trailing dims) is the declared dim, or 1 where |x|'s dim is already it.
static kiln_status_t kiln_onnx_check_expand(node_t* n, value_t* x) {
  const type_t* rt = n->declared[0];
  size_t r = kiln_onnx_rank(rt), xr = kiln_onnx_rank(x->type);
  int64_t len = kiln_onnx_num_elements(n->inputs[1]->type);
  if (len > (int64_t)r || len <= 0) {
    return kiln_onnx_check_dims_input(n, 1, "shape");
  }
  const int64_t* want = rt->shaped.dims + (r - (size_t)len);
  int64_t ones[MAXR];
  for (int64_t i = 0; i < len; ++i) {
    size_t d = r - (size_t)len + (size_t)i;  // result dim
    bool from_x = d + xr >= r && x->type->shaped.dims[d + xr - r] == want[i];
    ones[i] = from_x ? 1 : want[i];
  }
  value_t *v = NULL, *ok = NULL, *one = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, (size_t)len, want, &ok));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, (size_t)len, ones, &one));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.or", ok, one, &ok));
  return kiln_onnx_check_declared(n, ok, "run-time shape");
}

static kiln_status_t kiln_onnx_lower_expand(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  int64_t shape[MAXR], count = 0;
  if (kiln_onnx_use_declared(n, 1, 0)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_check_expand(n, x));
    count = (int64_t)kiln_onnx_rank(n->declared[0]);
    memcpy(shape, n->declared[0]->shaped.dims, (size_t)count * 8);
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 1, "shape", shape, MAXR, &count));
  }
  if (count < 0) count = 0;
  int64_t dim = count;
  const type_t* st = kiln_onnx_tensor(n, 1, &dim, kiln_onnx_elem(x->type));
  const type_t* types[2] = {x->type, st};
  // Shape entries act like the dims of a second broadcast operand.
  const type_t* shape_type =
      kiln_onnx_tensor(n, (size_t)count, shape, kiln_onnx_elem(x->type));
  types[1] = shape_type;
  size_t rank = 0;
  int64_t dims[MAXR];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_shape(n, 2, types, &rank, dims));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, x, rank, dims, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Tile compiled for its declared type: repeats[i] * dim i of |x| is the
// declared dim i.
static kiln_status_t kiln_onnx_check_tile(node_t* n, value_t* x) {
  const type_t* rt = n->declared[0];
  size_t r = kiln_onnx_rank(rt);
  if (kiln_onnx_num_elements(n->inputs[1]->type) != (int64_t)r || !r) {
    return kiln_onnx_check_dims_input(n, 1, "repeats");
  }
  value_t *v = NULL, *xd = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &v));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, v, kiln_ir_int_type(n->context, 64), &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_vector(n, r, x->type->shaped.dims, &xd));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, xd, kiln_onnx_rank(v->type),
                                            v->type->shaped.dims, &xd));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", v, xd, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, v, r, rt->shaped.dims, &ok));
  return kiln_onnx_check_declared(n, ok, "run-time repeats");
}

static kiln_status_t kiln_onnx_lower_tile(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t reps[MAXR], count = 0;
  if (kiln_onnx_use_declared(n, 1, 0) && kiln_onnx_rank(n->declared[0]) == r) {
    KILN_RETURN_IF_ERROR(kiln_onnx_check_tile(n, x));
    for (size_t i = 0; i < r; ++i) {
      int64_t d = x->type->shaped.dims[i];
      reps[i] = d ? n->declared[0]->shaped.dims[i] / d : 1;
    }
    count = (int64_t)r;
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 1, "repeats", reps, MAXR, &count));
  }
  if (count != (int64_t)r || 2 * r > MAXR) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "repeats must have one entry per dim");
  }
  // Broadcast to [rep0, d0, rep1, d1, ...] then merge the pairs.
  int64_t bdims[MAXR], wide[MAXR], dims[MAXR];
  for (size_t i = 0; i < r; ++i) {
    wide[2 * i] = reps[i];
    wide[2 * i + 1] = x->type->shaped.dims[i];
    bdims[i] = (int64_t)(2 * i + 1);
    dims[i] = reps[i] * x->type->shaped.dims[i];
  }
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, x, 2 * r, wide, bdims, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, r, dims, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_pad_runtime(node_t* n);

static kiln_status_t kiln_onnx_lower_pad(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int mode = kiln_onnx_attr_string_is(n, "mode", "constant", "constant")  ? 0
             : kiln_onnx_attr_string_is(n, "mode", "constant", "edge")    ? 1
             : kiln_onnx_attr_string_is(n, "mode", "constant", "reflect") ? 2
                                                                          : -1;
  if (mode < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "only modes constant, edge and reflect are "
                                "supported");
  }
  int64_t pads[2 * MAXR], np = 0, axes[MAXR], na = -1;
  double value = 0;
  value_t* pv = NULL;
  if (n->opset < 11) {
    np = kiln_onnx_attr_ints(n, n->opset < 2 ? "paddings" : "pads", pads,
                             2 * MAXR);
    value = kiln_onnx_attr_float(n, "value", 0.0);
  } else {
    if (kiln_onnx_use_declared(n, 1, 0)) return kiln_onnx_lower_pad_runtime(n);
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 1, "pads", pads, 2 * MAXR, &np));
    KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 3, "axes", axes, MAXR, &na));
    if (kiln_onnx_input(n, 2)) {
      value_t* s = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &s));
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, s, 0, NULL, &pv));
    }
  }
  int64_t lo[MAXR] = {0}, hi[MAXR] = {0}, interior[MAXR] = {0};
  size_t naxes = na >= 0 ? (size_t)na : r;
  if (np != (int64_t)(2 * naxes)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "pads must have 2 entries per padded axis");
  }
  for (size_t i = 0; i < naxes; ++i) {
    int64_t a = (int64_t)i;
    if (na >= 0) KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, axes[i], r, &a));
    lo[a] = pads[i];
    hi[a] = pads[naxes + i];
  }
  if (mode != 0) {
    // edge: repeat the border slice; reflect: mirror without the border.
    value_t* y = x;
    for (size_t d = 0; d < r; ++d) {
      if (!lo[d] && !hi[d]) continue;
      int64_t D = y->type->shaped.dims[d];
      if (lo[d] < 0 || hi[d] < 0 || (mode == 2 && (lo[d] >= D || hi[d] >= D)) ||
          D == 0) {
        return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                    "pads out of range for this mode");
      }
      value_t* parts[3];
      size_t np2 = 0;
      for (int side = 0; side < 2; ++side) {
        int64_t count = side == 0 ? lo[d] : hi[d];
        if (!count) continue;
        int64_t s0[MAXR], s1[MAXR], st[MAXR], dims[MAXR], bd[MAXR];
        for (size_t k = 0; k < r; ++k) {
          s0[k] = 0;
          s1[k] = y->type->shaped.dims[k];
          st[k] = 1;
          dims[k] = y->type->shaped.dims[k];
          bd[k] = (int64_t)k;
        }
        value_t* part = NULL;
        if (mode == 1) {
          s0[d] = side == 0 ? 0 : D - 1;
          s1[d] = s0[d] + 1;
          KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, y, s0, s1, st, &part));
          dims[d] = count;
          KILN_RETURN_IF_ERROR(
              kiln_onnx_broadcast_dims(n, part, r, dims, bd, &part));
        } else {
          s0[d] = side == 0 ? 1 : D - 1 - count;
          s1[d] = s0[d] + count;
          KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, y, s0, s1, st, &part));
          int64_t rd = (int64_t)d;
          kiln_ir_named_attribute_t attr =
              kiln_onnx_named(n, "dimensions", kiln_onnx_i64_array(n, 1, &rd));
          KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.reverse", 1, &part,
                                              part->type, 1, &attr, &part));
        }
        if (side == 0) {
          parts[np2++] = part;
          parts[np2++] = y;
        } else {
          if (np2 == 0) parts[np2++] = y;
          parts[np2++] = part;
        }
      }
      int64_t dims[MAXR];
      memcpy(dims, y->type->shaped.dims, r * 8);
      dims[d] = D + lo[d] + hi[d];
      kiln_ir_named_attribute_t attr =
          kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, (int64_t)d));
      KILN_RETURN_IF_ERROR(kiln_onnx_emit(
          n, "stablehlo.concatenate", np2, parts,
          kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type)), 1, &attr, &y));
    }
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  if (!pv) {
    KILN_RETURN_IF_ERROR(kiln_onnx_splat(
        n, kiln_onnx_tensor(n, 0, NULL, kiln_onnx_elem(x->type)), value, &pv));
  }
  int64_t dims[MAXR];
  for (size_t d = 0; d < r; ++d)
    dims[d] = x->type->shaped.dims[d] + lo[d] + hi[d];
  const type_t* t = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type));
  kiln_ir_named_attribute_t attrs[3] = {
      kiln_onnx_named(n, "edge_padding_low", kiln_onnx_i64_array(n, r, lo)),
      kiln_onnx_named(n, "edge_padding_high", kiln_onnx_i64_array(n, r, hi)),
      kiln_onnx_named(n, "interior_padding",
                      kiln_onnx_i64_array(n, r, interior)),
  };
  value_t* ops[2] = {x, pv};
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_emit(n, "stablehlo.pad", 2, ops, t, 3, attrs, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_split(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  int64_t sizes[64], count = -1;
  if (n->num_outputs > 64) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "too many outputs");
  }
  bool declared_all = n->opset >= 13 && kiln_onnx_use_declared(n, 1, 0);
  for (size_t i = 0; declared_all && i < n->num_outputs; ++i) {
    if (!n->declared[i] || kiln_onnx_rank(n->declared[i]) != r) {
      declared_all = false;
    } else {
      sizes[i] = n->declared[i]->shaped.dims[axis];
    }
  }
  if (declared_all) {
    // Compiled for the declared sizes along |axis|; the run-time split
    // must be those sizes.
    count = (int64_t)n->num_outputs;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_check_input_values(n, 1, (size_t)count, sizes, "split"));
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_ints_operand(n, 13, "split", 1, sizes, 64, &count));
  }
  int64_t dim = x->type->shaped.dims[axis];
  if (count < 0) {
    int64_t parts = (int64_t)n->num_outputs;
    int64_t each = (dim + parts - 1) / parts;
    for (int64_t i = 0; i < parts; ++i) {
      int64_t left = dim - i * each;
      sizes[i] = left < each ? (left < 0 ? 0 : left) : each;
    }
    count = parts;
  }
  if (count != (int64_t)n->num_outputs) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "split has %lld sizes for %zu outputs",
                                (long long)count, n->num_outputs);
  }
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t lo[MAXR], hi[MAXR], st[MAXR];
    for (size_t d = 0; d < r; ++d) {
      lo[d] = 0;
      hi[d] = x->type->shaped.dims[d];
      st[d] = 1;
    }
    lo[axis] = offset;
    hi[axis] = offset + sizes[i];
    offset += sizes[i];
    if (hi[axis] > dim) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "split sizes exceed the dim");
    }
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &y));
    kiln_onnx_set(n, (size_t)i, y);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

// The reduced axes of a Reduce* node (attribute before |since|, input 1
// from then on); |*out_noop| when the op should pass its input through.
static kiln_status_t kiln_onnx_reduce_axes(node_t* n, int since,
                                           const type_t* xt, int64_t* axes,
                                           size_t* out_count, bool* out_noop) {
  size_t rank = kiln_onnx_rank(xt);
  int64_t raw[MAXR], count = -1;
  *out_noop = false;
  if (n->opset >= since && kiln_onnx_use_declared(n, 1, 0) &&
      kiln_onnx_attr_int(n, "keepdims", 1) &&
      kiln_onnx_rank(n->declared[0]) == rank) {
    // Runtime axes, declared result: the reduced dims are those that became
    // 1 (reducing a dim of size 1 or not gives the same values), and the
    // run-time axes must reduce exactly those among the dims not of size 1.
    size_t k = 0;
    int64_t want[MAXR], care[MAXR];
    for (size_t d = 0; d < rank; ++d) {
      care[d] = xt->shaped.dims[d] != 1;
      want[d] = care[d] && n->declared[0]->shaped.dims[d] == 1;
      if (want[d]) axes[k++] = (int64_t)d;
    }
    *out_count = k;
    *out_noop = k == 0;
    // An empty axes operand (its length is static) reduces every dim or
    // none: known at import, nothing to check at run time.
    if (!kiln_onnx_num_elements(n->inputs[1]->type)) return kiln_ok_status();
    value_t *hits = NULL, *one = NULL, *mask = NULL, *expect = NULL, *ok = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_axis_hits(n, 1, rank, &hits));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, hits, 1, &one));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", hits, one, &hits));
    KILN_RETURN_IF_ERROR(kiln_onnx_i64_vector(n, rank, care, &mask));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", hits, mask, &hits));
    KILN_RETURN_IF_ERROR(kiln_onnx_i64_vector(n, rank, want, &expect));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", hits, expect, &ok));
    return kiln_onnx_check_declared(n, ok, "run-time axes");
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_ints_operand(n, since, "axes", 1, raw, MAXR, &count));
  if (count <= 0) {
    if (n->opset >= since && kiln_onnx_attr_int(n, "noop_with_empty_axes", 0)) {
      *out_noop = true;
      *out_count = 0;
      return kiln_ok_status();
    }
    for (size_t i = 0; i < rank; ++i) axes[i] = (int64_t)i;
    *out_count = rank;
    return kiln_ok_status();
  }
  bool seen[MAXR] = {false};
  size_t k = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t a = 0;
    KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, raw[i], rank, &a));
    if (!seen[a]) axes[k++] = a;
    seen[a] = true;
  }
  // Sorted (stablehlo.reduce wants increasing dimensions).
  for (size_t i = 1; i < k; ++i) {
    for (size_t j = i; j > 0 && axes[j - 1] > axes[j]; --j) {
      int64_t tmp = axes[j];
      axes[j] = axes[j - 1];
      axes[j - 1] = tmp;
    }
  }
  *out_count = k;
  return kiln_ok_status();
}

// The Reduce* node's value over |axes| (sorted), as the result type wants
// it (kept dims when keepdims).
static kiln_status_t kiln_onnx_reduce_over(node_t* n, value_t* x, size_t count,
                                           const int64_t* axes, bool noop,
                                           value_t** out) {
  const char* op = n->proto->op_type;
  const type_t* e = kiln_onnx_elem(x->type);
  value_t* y = x;
  int64_t reduced = 1;
  for (size_t i = 0; i < count; ++i) reduced *= x->type->shaped.dims[axes[i]];
  if (!strcmp(op, "ReduceL1")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.abs", y, &y));
  } else if (!strcmp(op, "ReduceL2") || !strcmp(op, "ReduceSumSquare")) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", y, y, &y));
  } else if (!strcmp(op, "ReduceLogSumExp")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.exponential", y, &y));
  }
  if (noop) {
    *out = y;
    return kiln_ok_status();
  }
  const char* combiner = "stablehlo.add";
  double init = 0;
  if (!strcmp(op, "ReduceMax")) {
    combiner = "stablehlo.maximum";
    init = kiln_onnx_lowest(e);
  } else if (!strcmp(op, "ReduceMin")) {
    combiner = "stablehlo.minimum";
    init = kiln_onnx_highest(e);
  } else if (!strcmp(op, "ReduceProd")) {
    combiner = "stablehlo.multiply";
    init = 1;
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce(n, y, count, axes, combiner, init, &y));
  if (!strcmp(op, "ReduceMean")) {
    value_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, (double)reduced, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", y, c, &y));
  } else if (!strcmp(op, "ReduceL2")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.sqrt", y, &y));
  } else if (!strcmp(op, "ReduceLogSum") || !strcmp(op, "ReduceLogSumExp")) {
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.log", y, &y));
  }
  if (kiln_onnx_attr_int(n, "keepdims", 1)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, y, x->type, count, axes, &y));
  }
  *out = y;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_take(node_t* n, value_t* x, size_t axis,
                                    int64_t k, value_t** out);

// Run-time axes without keepdims and a declared result: every set of axes
// whose removal gives the declared shape is reduced, and the run-time axes
// select among them (axes may be negative, in any order).
static kiln_status_t kiln_onnx_reduce_runtime_axes(node_t* n, value_t* x,
                                                   value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  const type_t* dt = n->declared[0];
  size_t dr = kiln_onnx_rank(dt);
  value_t* a = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &a));
  if (kiln_onnx_rank(a->type) != 1 || dr > r ||
      a->type->shaped.dims[0] != (int64_t)(r - dr) || r > 16) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED,
        "input 'axes' is computed at run time and its length does not "
        "match the declared result's rank");
  }
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, a, i64, &a));
  size_t k = r - dr;
  value_t* given[MAXR];
  for (size_t i = 0; i < k; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_take(n, a, 0, (int64_t)i, &given[i]));
  }
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, i64);
  value_t* result = NULL;
  for (uint32_t mask = 0; mask < (1u << r); ++mask) {
    int64_t axes[MAXR];
    size_t count = 0, kept = 0;
    bool fits = (size_t)__builtin_popcount(mask) == k;
    for (size_t d = 0; d < r && fits; ++d) {
      if (mask & (1u << d)) {
        axes[count++] = (int64_t)d;
      } else {
        fits = dt->shaped.dims[kept++] == x->type->shaped.dims[d];
      }
    }
    if (!fits) continue;
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_reduce_over(n, x, count, axes, false, &y));
    if (!result) {
      result = y;
      continue;
    }
    // match: every given axis is one of |axes| (d or d - rank).
    value_t* match = NULL;
    for (size_t i = 0; i < k; ++i) {
      value_t* any = NULL;
      for (size_t j = 0; j < count; ++j) {
        for (int neg = 0; neg < 2; ++neg) {
          value_t *c = NULL, *eq = NULL;
          KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(
              n, scalar, axes[j] - (neg ? (int64_t)r : 0), &c));
          KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", given[i], c, &eq));
          if (any) {
            KILN_RETURN_IF_ERROR(
                kiln_onnx_binary_same(n, "stablehlo.or", any, eq, &eq));
          }
          any = eq;
        }
      }
      if (match) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.and", match, any, &any));
      }
      match = any;
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, match, dr, dt->shaped.dims, &match));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, match, y, result, &result));
  }
  if (!result) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "no axes give the declared result shape");
  }
  *out = result;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_reduce(node_t* n) {
  const char* op = n->proto->op_type;
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  int since = !strcmp(op, "ReduceSum") ? 13 : 18;
  value_t* y = NULL;
  if (n->opset >= since && kiln_onnx_use_declared(n, 1, 0) &&
      !kiln_onnx_attr_int(n, "keepdims", 1)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_reduce_runtime_axes(n, x, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  int64_t axes[MAXR];
  size_t count = 0;
  bool noop = false;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce_axes(n, since, x->type, axes, &count, &noop));
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce_over(n, x, count, axes, noop, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// stablehlo.iota of |t| along |dim|.
static kiln_status_t kiln_onnx_iota(node_t* n, const type_t* t, int64_t dim,
                                    value_t** out) {
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "iota_dimension", kiln_onnx_i64(n, dim));
  return kiln_onnx_emit(n, "stablehlo.iota", 0, NULL, t, 1, &attr, out);
}

// The index of the max/min along |axis| (first or last occurrence), keeping
// the axis as size 1 when |keepdims|.
static kiln_status_t kiln_onnx_arg_reduce(node_t* n, value_t* x, int64_t axis,
                                          bool is_max, bool last, bool keepdims,
                                          value_t** out) {
  const type_t* e = kiln_onnx_elem(x->type);
  value_t* m = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce(
      n, x, 1, &axis, is_max ? "stablehlo.maximum" : "stablehlo.minimum",
      is_max ? kiln_onnx_lowest(e) : kiln_onnx_highest(e), &m));
  value_t* mk = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, m, x->type, 1, &axis, &mk));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, mk, kiln_onnx_rank(x->type),
                                              x->type->shaped.dims, &mk));
  value_t* eq = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", x, mk, &eq));
  const type_t* it =
      kiln_onnx_tensor(n, kiln_onnx_rank(x->type), x->type->shaped.dims,
                       kiln_ir_int_type(n->context, 64));
  value_t *iota = NULL, *fill = NULL, *idx = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, axis, &iota));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_splat_int(n, it, last ? -1 : INT64_MAX, &fill));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, eq, iota, fill, &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce(
      n, idx, 1, &axis, last ? "stablehlo.maximum" : "stablehlo.minimum",
      last ? -9.2e18 : 9.2e18, &idx));
  if (keepdims) {
    KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, idx, x->type, 1, &axis, &idx));
  }
  *out = idx;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_argmax(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0),
                                           kiln_onnx_rank(x->type), &axis));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_arg_reduce(n, x, axis, !strcmp(n->proto->op_type, "ArgMax"),
                           kiln_onnx_attr_int(n, "select_last_index", 0) != 0,
                           kiln_onnx_attr_int(n, "keepdims", 1) != 0, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Softmax, LogSoftmax, Hardmax: over |axis| only from opset 13, over the
// dims from |axis| on (the input coerced to 2-D) before.
static kiln_status_t kiln_onnx_lower_softmax(node_t* n) {
  const char* op = n->proto->op_type;
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(
      n, kiln_onnx_attr_int(n, "axis", n->opset >= 13 ? -1 : 1), r, &axis));
  const type_t* original = x->type;
  value_t* v = x;
  int64_t red_axis = axis;
  if (n->opset < 13) {
    int64_t dims[2] = {1, 1};
    for (size_t d = 0; d < r; ++d)
      dims[(int64_t)d < axis ? 0 : 1] *= original->shaped.dims[d];
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 2, dims, &v));
    red_axis = 1;
  }
  value_t* y = NULL;
  if (!strcmp(op, "Hardmax")) {
    value_t* idx = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_arg_reduce(n, v, red_axis, true, false, true, &idx));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, idx, kiln_onnx_rank(v->type),
                                                v->type->shaped.dims, &idx));
    const type_t* it = idx->type;
    value_t *iota = NULL, *eq = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, red_axis, &iota));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", iota, idx, &eq));
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, eq, kiln_onnx_elem(v->type), &y));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
    value_t *m = NULL, *shifted = NULL, *ex = NULL, *s = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_reduce(n, v, 1, &red_axis,
                                          "stablehlo.maximum", -INFINITY, &m));
    KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, m, v->type, 1, &red_axis, &m));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, m, kiln_onnx_rank(v->type),
                                                v->type->shaped.dims, &m));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", v, m, &shifted));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_unary(n, "stablehlo.exponential", shifted, &ex));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reduce(n, ex, 1, &red_axis, "stablehlo.add", 0, &s));
    KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, s, v->type, 1, &red_axis, &s));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, s, kiln_onnx_rank(v->type),
                                                v->type->shaped.dims, &s));
    if (!strcmp(op, "LogSoftmax")) {
      KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.log", s, &s));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", shifted, s, &y));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.divide", ex, s, &y));
    }
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reshape_to(n, y, r, original->shaped.dims, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Broadcasts a per-channel 1-D |v| along dim 1 of |like|.
static kiln_status_t kiln_onnx_per_channel(node_t* n, value_t* v,
                                           const type_t* like, value_t** out) {
  int64_t one = 1;
  if (kiln_onnx_rank(v->type) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "per-channel operand must be 1-D");
  }
  const type_t* t = kiln_onnx_tensor(n, kiln_onnx_rank(like), like->shaped.dims,
                                     kiln_onnx_elem(v->type));
  kiln_ir_named_attribute_t attr = kiln_onnx_named(
      n, "broadcast_dimensions", kiln_onnx_i64_array(n, 1, &one));
  return kiln_onnx_emit(n, "stablehlo.broadcast_in_dim", 1, &v, t, 1, &attr,
                        out);
}

static kiln_status_t kiln_onnx_lower_batch_norm_training(node_t* n);

// Inference BatchNormalization |bn| as the per-channel affine y = x * a + b
// (a = scale / sqrt(var + eps), b = bias - mean * a), computed on the host
// in double when its parameters |params| (scale, bias, mean, var) are known
// f32 vectors of |channels|: no per-element rsqrt, and a Conv before it can
// fold it into its weights. Fills arena arrays |out_a|, |out_b|; false when
// the node does not qualify (it is then lowered as written).
static bool kiln_onnx_bn_affine(node_t* n, const Onnx__NodeProto* bn,
                                kiln_onnx_value_t* const params[4],
                                int64_t channels, double** out_a,
                                double** out_b) {
  if (n->opset < 9 || bn->n_output != 1 || channels <= 0) return false;
  const Onnx__AttributeProto* mode = kiln_onnx_proto_attr(bn, "training_mode");
  if (mode && mode->has_i && mode->i) return false;
  for (int i = 0; i < 4; ++i) {
    const kiln_onnx_value_t* v = params[i];
    if (!v || !v->known || kiln_onnx_rank(v->type) != 1 ||
        v->type->shaped.dims[0] != channels ||
        !kiln_onnx_is_float(kiln_onnx_elem(v->type)) ||
        kiln_onnx_elem(v->type)->flt.kind != KILN_IR_F32) {
      return false;
    }
  }
  const Onnx__AttributeProto* e = kiln_onnx_proto_attr(bn, "epsilon");
  double eps = e && e->has_f ? (double)e->f : 1e-5;
  double* a = (double*)kiln_ir_arena_alloc(n->context,
                                           (size_t)channels * sizeof(double));
  double* b = (double*)kiln_ir_arena_alloc(n->context,
                                           (size_t)channels * sizeof(double));
  if (!a || !b) return false;
  for (int64_t c = 0; c < channels; ++c) {
    double scale = kiln_onnx_known_double(params[0]->known, c);
    double bias = kiln_onnx_known_double(params[1]->known, c);
    double mean = kiln_onnx_known_double(params[2]->known, c);
    double var = kiln_onnx_known_double(params[3]->known, c);
    a[c] = scale / sqrt(var + eps);
    b[c] = bias - mean * a[c];
  }
  *out_a = a;
  *out_b = b;
  return true;
}

// An f32 constant of |type| from |count| doubles, as an IR value.
static kiln_status_t kiln_onnx_f32_constant(node_t* n, const type_t* type,
                                            const double* values,
                                            value_t** out) {
  kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, type);
  if (!c) return KILN_ONNX_OOM();
  const type_t* e = kiln_onnx_elem(type);
  for (int64_t i = 0; i < kiln_onnx_num_elements(type); ++i) {
    kiln_onnx_store((uint8_t*)c->data, e, i, values[i], 0, true);
  }
  kiln_onnx_value_t tmp = {"folded constant",     type, NULL, c,   NULL,
                           KILN_ONNX_KIND_TENSOR, 0,    NULL, NULL};
  return kiln_onnx_materialize(n, &tmp, out);
}

static kiln_status_t kiln_onnx_lower_batch_norm(node_t* n) {
  if (kiln_onnx_input(n, 0) && kiln_onnx_input(n, 0)->absorbed == n->proto) {
    value_t* x = NULL;  // the Conv before it applied it
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
    kiln_onnx_set(n, 0, x);
    return kiln_ok_status();
  }
  if (n->opset < 9 && !kiln_onnx_attr_int(n, "spatial", 1)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "spatial=0 is not supported");
  }
  if (n->opset < 7 && !kiln_onnx_attr_int(n, "is_test", 0)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "training (is_test=0) is not supported");
  }
  if (kiln_onnx_attr_int(n, "training_mode", 0)) {
    return kiln_onnx_lower_batch_norm_training(n);
  }
  value_t *x, *scale, *bias, *mean, *var;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  if (kiln_onnx_rank(x->type) < 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank < 2");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &scale));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bias));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 3, &mean));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 4, &var));
  kiln_onnx_value_t* params[4] = {kiln_onnx_input(n, 1), kiln_onnx_input(n, 2),
                                  kiln_onnx_input(n, 3), kiln_onnx_input(n, 4)};
  double *fa = NULL, *fb = NULL;
  if (kiln_onnx_is_float(kiln_onnx_elem(x->type)) &&
      kiln_onnx_elem(x->type)->flt.kind == KILN_IR_F32 &&
      kiln_onnx_bn_affine(n, n->proto, params, x->type->shaped.dims[1], &fa,
                          &fb)) {
    value_t *a = NULL, *b = NULL, *y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_f32_constant(n, scale->type, fa, &a));
    KILN_RETURN_IF_ERROR(kiln_onnx_f32_constant(n, scale->type, fb, &b));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, a, x->type, &a));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, b, x->type, &b));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", x, a, &y));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", y, b, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  value_t* per[4] = {scale, bias, mean, var};
  for (int i = 0; i < 4; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, per[i], x->type, &per[i]));
  }
  value_t *eps = NULL, *t = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_like(n, x, kiln_onnx_attr_float(n, "epsilon", 1e-5), &eps));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", per[3], eps, &t));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.rsqrt", t, &t));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, per[2], &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, t, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, per[0], &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", y, per[1], &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Mean and variance of |x| over |axes| (kept as size-1 dims, broadcast
// back to |x|'s shape when |broadcast|).
static kiln_status_t kiln_onnx_moments(node_t* n, value_t* x, size_t count,
                                       const int64_t* axes, value_t** out_mean,
                                       value_t** out_var) {
  int64_t reduced = 1;
  for (size_t i = 0; i < count; ++i) reduced *= x->type->shaped.dims[axes[i]];
  size_t r = kiln_onnx_rank(x->type);
  value_t *s = NULL, *c = NULL, *mean = NULL, *d = NULL, *v = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, x, count, axes, "stablehlo.add", 0, &s));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, s, (double)reduced, &c));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", s, c, &mean));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_keepdims(n, mean, x->type, count, axes, &mean));
  value_t* mb = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, mean, r, x->type->shaped.dims, &mb));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, mb, &d));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", d, d, &v));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, v, count, axes, "stablehlo.add", 0, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.divide", v, c, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, v, x->type, count, axes, &v));
  *out_mean = mean;
  *out_var = v;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_layer_norm(node_t* n) {
  value_t *x = NULL, *scale = NULL, *bias = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", -1), r, &axis));
  int64_t axes[MAXR];
  size_t count = 0;
  for (size_t d = (size_t)axis; d < r; ++d) axes[count++] = (int64_t)d;
  value_t *mean = NULL, *var = NULL, *eps = NULL, *inv = NULL, *y = NULL,
          *t = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_moments(n, x, count, axes, &mean, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_like(n, var, kiln_onnx_attr_float(n, "epsilon", 1e-5), &eps));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", var, eps, &inv));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.rsqrt", inv, &inv));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, mean, r, x->type->shaped.dims, &t));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, t, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, inv, r, x->type->shaped.dims, &t));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, t, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &scale));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, scale, r, x->type->shaped.dims, &scale));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, scale, &y));
  if (kiln_onnx_input(n, 2)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bias));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, bias, r, x->type->shaped.dims, &bias));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", y, bias, &y));
  }
  kiln_onnx_set(n, 0, y);
  kiln_onnx_set(n, 1, mean);
  kiln_onnx_set(n, 2, inv);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_instance_norm(node_t* n) {
  value_t *x = NULL, *scale = NULL, *bias = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axes[MAXR];
  size_t count = 0;
  for (size_t d = 2; d < r; ++d) axes[count++] = (int64_t)d;
  value_t *mean = NULL, *var = NULL, *eps = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_moments(n, x, count, axes, &mean, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_like(n, var, kiln_onnx_attr_float(n, "epsilon", 1e-5), &eps));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", var, eps, &var));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.rsqrt", var, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, mean, r, x->type->shaped.dims, &mean));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, var, r, x->type->shaped.dims, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, mean, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, var, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &scale));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bias));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, scale, x->type, &scale));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, bias, x->type, &bias));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, scale, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", y, bias, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

static const kiln_ir_attribute_t* kiln_onnx_int_list_attr(node_t* n,
                                                          size_t count,
                                                          const int64_t* v) {
  const kiln_ir_attribute_t* elems[MAXR];
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  for (size_t i = 0; i < count && i < MAXR; ++i) {
    elems[i] = kiln_ir_integer_attr_get(n->context, i64, v[i]);
  }
  return kiln_ir_array_attr_get(n->context, count, elems);
}

// stablehlo.dot_general: batch dims [0, nb) on both sides, contracting
// lhs dim |lc| with rhs dim |rc|.
static kiln_status_t kiln_onnx_dot(node_t* n, value_t* a, value_t* b, size_t nb,
                                   int64_t lc, int64_t rc, const type_t* rt,
                                   value_t** out) {
  kiln_ir_context_t* ctx = n->context;
  int64_t batch[MAXR];
  for (size_t i = 0; i < nb; ++i) batch[i] = (int64_t)i;
  char text[512];
  int len = snprintf(text, sizeof(text), "#stablehlo.dot<");
  kiln_ir_named_attribute_t params[4];
  size_t np = 0;
  if (nb) {
    len += snprintf(text + len, sizeof(text) - (size_t)len,
                    "lhs_batching_dimensions = [");
    for (size_t i = 0; i < nb; ++i) {
      len += snprintf(text + len, sizeof(text) - (size_t)len, "%s%zu",
                      i ? ", " : "", i);
    }
    len += snprintf(text + len, sizeof(text) - (size_t)len,
                    "], rhs_batching_dimensions = [");
    for (size_t i = 0; i < nb; ++i) {
      len += snprintf(text + len, sizeof(text) - (size_t)len, "%s%zu",
                      i ? ", " : "", i);
    }
    len += snprintf(text + len, sizeof(text) - (size_t)len, "], ");
    params[np++] = kiln_onnx_named(n, "lhs_batching_dimensions",
                                   kiln_onnx_int_list_attr(n, nb, batch));
    params[np++] = kiln_onnx_named(n, "rhs_batching_dimensions",
                                   kiln_onnx_int_list_attr(n, nb, batch));
  }
  snprintf(text + len, sizeof(text) - (size_t)len,
           "lhs_contracting_dimensions = [%lld], rhs_contracting_dimensions = "
           "[%lld]>",
           (long long)lc, (long long)rc);
  params[np++] = kiln_onnx_named(n, "lhs_contracting_dimensions",
                                 kiln_onnx_int_list_attr(n, 1, &lc));
  params[np++] = kiln_onnx_named(n, "rhs_contracting_dimensions",
                                 kiln_onnx_int_list_attr(n, 1, &rc));
  const kiln_ir_attribute_t* dims = kiln_ir_dialect_attr_get(
      ctx, kiln_ir_intern_cstr(ctx, "stablehlo"),
      kiln_ir_intern_cstr(ctx, "dot"),
      kiln_make_cstring_view(kiln_ir_arena_printf(ctx, "%s", text)), true, np,
      params);
  if (!dims) return KILN_ONNX_OOM();
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "dot_dimension_numbers", dims);
  value_t* ops[2] = {a, b};
  return kiln_onnx_emit(n, "stablehlo.dot_general", 2, ops, rt, 1, &attr, out);
}

// numpy matmul of |a| and |b|.
static kiln_status_t kiln_onnx_matmul(node_t* n, value_t* a, value_t* b,
                                      value_t** out) {
  size_t ra = kiln_onnx_rank(a->type), rb = kiln_onnx_rank(b->type);
  if (ra == 0 || rb == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "matmul operands must have rank >= 1");
  }
  if (kiln_onnx_elem(a->type) != kiln_onnx_elem(b->type)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "matmul operand element types differ");
  }
  const type_t* e = kiln_onnx_elem(a->type);
  int64_t ad[MAXR], bd[MAXR];
  memcpy(ad, a->type->shaped.dims, ra * 8);
  memcpy(bd, b->type->shaped.dims, rb * 8);
  bool squeeze_a = ra == 1, squeeze_b = rb == 1;
  if (squeeze_a) {
    ad[1] = ad[0];
    ad[0] = 1;
    ra = 2;
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, a, 2, ad, &a));
  }
  if (squeeze_b) {
    bd[1] = 1;
    rb = 2;
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, b, 2, bd, &b));
  }
  if (ad[ra - 1] != bd[rb - 2]) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "matmul contracting dims differ (%lld vs %lld)",
                                (long long)ad[ra - 1], (long long)bd[rb - 2]);
  }
  // Broadcast batch dims.
  const type_t* ta = kiln_onnx_tensor(n, ra - 2, ad, e);
  const type_t* tb = kiln_onnx_tensor(n, rb - 2, bd, e);
  const type_t* bt[2] = {ta, tb};
  size_t nb = 0;
  int64_t batch[MAXR];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_shape(n, 2, bt, &nb, batch));
  if (nb + 2 > MAXR) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED, "rank too high");
  }
  int64_t fa[MAXR], fb[MAXR];
  memcpy(fa, batch, nb * 8);
  memcpy(fb, batch, nb * 8);
  fa[nb] = ad[ra - 2];
  fa[nb + 1] = ad[ra - 1];
  fb[nb] = bd[rb - 2];
  fb[nb + 1] = bd[rb - 1];
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, a, nb + 2, fa, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, b, nb + 2, fb, &b));
  int64_t rd[MAXR];
  memcpy(rd, batch, nb * 8);
  rd[nb] = fa[nb];
  rd[nb + 1] = fb[nb + 1];
  const type_t* rt = kiln_onnx_tensor(n, nb + 2, rd, e);
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_dot(n, a, b, nb, (int64_t)nb + 1, (int64_t)nb, rt, &y));
  if (squeeze_a || squeeze_b) {
    int64_t sd[MAXR];
    size_t sr = 0;
    for (size_t i = 0; i < nb; ++i) sd[sr++] = rd[i];
    if (!squeeze_a) sd[sr++] = rd[nb];
    if (!squeeze_b) sd[sr++] = rd[nb + 1];
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, sr, sd, &y));
  }
  *out = y;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_matmul(node_t* n) {
  value_t *a = NULL, *b = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &b));
  KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, a, b, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_gemm(node_t* n) {
  value_t *a = NULL, *b = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &b));
  if (kiln_onnx_rank(a->type) != 2 || kiln_onnx_rank(b->type) != 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "Gemm operands must be 2-D");
  }
  int64_t swap[2] = {1, 0};
  if (kiln_onnx_attr_int(n, "transA", 0)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, a, swap, &a));
  }
  if (kiln_onnx_attr_int(n, "transB", 0)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, b, swap, &b));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, a, b, &y));
  double alpha = kiln_onnx_attr_float(n, "alpha", 1.0);
  double beta = kiln_onnx_attr_float(n, "beta", 1.0);
  if (alpha != 1.0) {
    value_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, alpha, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", y, c, &y));
  }
  if (kiln_onnx_input(n, 2)) {
    value_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, c, 2, y->type->shaped.dims, &c));
    if (beta != 1.0) {
      value_t* bv = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, beta, &bv));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", c, bv, &c));
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", y, c, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Other data movement
//===----------------------------------------------------------------------===//

// Dropout in training mode: keep = uniform[0, 1) >= ratio, y = keep ? x /
// (1 - ratio) : 0, from stablehlo.rng (the seed attribute is not used: the
// spec leaves the random sequence to the implementation). A run-time
// training_mode selects between that and the identity.
static kiln_status_t kiln_onnx_opt_scalar(node_t* n, size_t i, const type_t* e,
                                          double def, value_t** out);

static kiln_status_t kiln_onnx_dropout_train(node_t* n, value_t* x,
                                             value_t* training) {
  const type_t* e = kiln_onnx_elem(x->type);
  size_t r = kiln_onnx_rank(x->type);
  const int64_t* dims = x->type->shaped.dims;
  if (!kiln_onnx_is_float(e)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "training mode needs a float input");
  }
  value_t* ratio = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_opt_scalar(n, 1, e, 0.5, &ratio));
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, e);
  value_t *lo = NULL, *hi = NULL, *shape = NULL, *u = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, 0, &lo));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, 1, &hi));
  const type_t* shape_t = kiln_onnx_tensor(n, 1, (int64_t[]){(int64_t)r},
                                           kiln_ir_int_type(n->context, 64));
  const kiln_ir_attribute_t* dims_attr = kiln_ir_dense_elements_attr_get(
      n->context, shape_t, false, dims, r * sizeof(int64_t));
  if (!dims_attr) return KILN_ONNX_OOM();
  kiln_ir_named_attribute_t attr = kiln_onnx_named(n, "value", dims_attr);
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.constant", 0, NULL, shape_t,
                                      1, &attr, &shape));
  value_t* rng_ops[3] = {lo, hi, shape};
  kiln_ir_named_attribute_t dist = kiln_onnx_named(
      n, "rng_distribution",
      kiln_ir_string_attr_get(n->context, kiln_make_cstring_view("UNIFORM")));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_emit(n, "stablehlo.rng", 3, rng_ops, x->type, 1, &dist, &u));
  value_t *ratio_b = NULL, *keep = NULL, *scale = NULL, *zero = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, ratio, r, dims, &ratio_b));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", u, ratio_b, &keep));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &scale));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", scale, ratio_b, &scale));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", x, scale, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, keep, y, zero, &y));
  if (training) {
    value_t* t = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, training, 0, NULL, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, t, r, dims, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, t, y, x, &y));
    value_t* all = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, keep->type, 1, &all));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, t, keep, all, &keep));
  }
  kiln_onnx_set(n, 0, y);
  kiln_onnx_set(n, 1, keep);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_dropout(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  kiln_onnx_value_t* training = kiln_onnx_input(n, 2);
  kiln_onnx_value_t* ratio = kiln_onnx_input(n, 1);
  // Training with a known ratio of 0 drops nothing.
  bool zero_ratio = ratio && ratio->known &&
                    kiln_onnx_num_elements(ratio->type) == 1 &&
                    kiln_onnx_known_double(ratio->known, 0) == 0.0;
  if (training && !zero_ratio &&
      (!training->known || kiln_onnx_known_int(training->known, 0))) {
    value_t* t = NULL;
    if (!training->known) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &t));
    return kiln_onnx_dropout_train(n, x, t);
  }
  kiln_onnx_set(n, 0, x);
  if (n->num_outputs > 1 && n->outputs[1].name[0]) {
    const type_t* mt =
        kiln_onnx_tensor(n, kiln_onnx_rank(x->type), x->type->shaped.dims,
                         kiln_ir_int_type(n->context, 1));
    value_t* mask = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, mt, 1, &mask));
    kiln_onnx_set(n, 1, mask);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_trilu(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  if (r < 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank < 2");
  }
  int64_t k = 0, count = -1;
  kiln_onnx_value_t* kin = kiln_onnx_input(n, 1);
  value_t* runtime_k = NULL;
  if (kin && !kin->known) {
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &runtime_k));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reshape_to(n, runtime_k, 0, NULL, &runtime_k));
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(
        n, runtime_k, kiln_ir_int_type(n->context, 64), &runtime_k));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 1, "k", &k, 1, &count));
  }
  if (count <= 0) k = 0;
  bool upper = kiln_onnx_attr_int(n, "upper", 1) != 0;
  const type_t* it = kiln_onnx_tensor(n, r, x->type->shaped.dims,
                                      kiln_ir_int_type(n->context, 64));
  value_t *row = NULL, *col = NULL, *diff = NULL, *kv = NULL, *p = NULL,
          *zero = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)r - 2, &row));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)r - 1, &col));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", col, row, &diff));
  if (runtime_k) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_to(n, runtime_k, r, x->type->shaped.dims, &kv));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, it, k, &kv));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, upper ? "GE" : "LE", diff, kv, &p));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, x->type, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, p, x, zero, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_depth_space(node_t* n) {
  bool to_space = !strcmp(n->proto->op_type, "DepthToSpace");
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  if (kiln_onnx_rank(x->type) != 4) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank != 4");
  }
  int64_t bs = kiln_onnx_attr_int(n, "blocksize", 0);
  const int64_t* d = x->type->shaped.dims;
  int64_t N = d[0], C = d[1], H = d[2], W = d[3];
  if (bs <= 0 || (to_space && C % (bs * bs)) ||
      (!to_space && (H % bs || W % bs))) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "bad blocksize");
  }
  value_t* y = NULL;
  if (to_space) {
    bool crd = kiln_onnx_attr_string_is(n, "mode", "DCR", "CRD");
    int64_t c = C / (bs * bs);
    int64_t s1[6] = {N, bs, bs, c, H, W}, p1[6] = {0, 3, 4, 1, 5, 2};
    int64_t s2[6] = {N, c, bs, bs, H, W}, p2[6] = {0, 1, 4, 2, 5, 3};
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 6, crd ? s2 : s1, &y));
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, y, crd ? p2 : p1, &y));
    int64_t out[4] = {N, c, H * bs, W * bs};
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, 4, out, &y));
  } else {
    int64_t s[6] = {N, C, H / bs, bs, W / bs, bs}, p[6] = {0, 3, 5, 1, 2, 4};
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 6, s, &y));
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, y, p, &y));
    int64_t out[4] = {N, C * bs * bs, H / bs, W / bs};
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, 4, out, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_eye_like(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  const type_t* t = n->inputs[0]->type;
  if (kiln_onnx_rank(t) != 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank != 2");
  }
  const type_t* e = kiln_onnx_elem(t);
  const Onnx__AttributeProto* dt = kiln_onnx_attr(n, "dtype");
  if (dt && dt->has_i) {
    e = kiln_onnx_element_type(n->context, (int32_t)dt->i);
    if (!e) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED, "bad dtype");
    }
  }
  const type_t* rt = kiln_onnx_tensor(n, 2, t->shaped.dims, e);
  kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, rt);
  if (!c) return KILN_ONNX_OOM();
  int64_t k = kiln_onnx_attr_int(n, "k", 0);
  for (int64_t i = 0; i < t->shaped.dims[0]; ++i) {
    int64_t j = i + k;
    if (j >= 0 && j < t->shaped.dims[1]) {
      kiln_onnx_store((uint8_t*)c->data, e, i * t->shaped.dims[1] + j, 1, 1,
                      false);
    }
  }
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Gathers by element, losses
//===----------------------------------------------------------------------===//

// |idx| as i64 with negative entries wrapped by |dim|.
static kiln_status_t kiln_onnx_wrap_indices(node_t* n, value_t* idx,
                                            int64_t dim, value_t** out) {
  value_t *zero = NULL, *neg = NULL, *dv = NULL, *wrapped = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, idx, kiln_ir_int_type(n->context, 64), &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, idx, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, idx, (double)dim, &dv));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", idx, zero, &neg));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", idx, dv, &wrapped));
  return kiln_onnx_select(n, neg, wrapped, idx, out);
}

// GatherElements as a one-hot contraction: out[..] = sum over a of
// (a == idx[..]) ? data[.., a, ..] : 0, with a new trailing dim for a.
static kiln_status_t kiln_onnx_lower_gather_elements(node_t* n) {
  value_t *x = NULL, *idx = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &idx));
  size_t r = kiln_onnx_rank(x->type);
  if (kiln_onnx_rank(idx->type) != r || r + 1 > MAXR || r == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "data and indices must have the same rank");
  }
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  int64_t A = x->type->shaped.dims[axis];
  int64_t lo[MAXR], hi[MAXR], st[MAXR], wide[MAXR], bx[MAXR], bi[MAXR];
  for (size_t d = 0; d < r; ++d) {
    int64_t id = idx->type->shaped.dims[d];
    if ((int64_t)d != axis && id > x->type->shaped.dims[d]) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "indices dim %zu exceeds the data's", d);
    }
    lo[d] = 0;
    hi[d] = (int64_t)d == axis ? A : id;
    st[d] = 1;
    wide[d] = id;
    bx[d] = (int64_t)d == axis ? (int64_t)r : (int64_t)d;
    bi[d] = (int64_t)d;
  }
  wide[r] = A;
  value_t *xs = NULL, *xb = NULL, *ib = NULL, *io = NULL, *mask = NULL,
          *zero = NULL, *sel = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &xs));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, xs, r + 1, wide, bx, &xb));
  KILN_RETURN_IF_ERROR(kiln_onnx_wrap_indices(n, idx, A, &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, idx, r + 1, wide, bi, &ib));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, ib->type, (int64_t)r, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", io, ib, &mask));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, xb->type, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, mask, xb, zero, &sel));
  int64_t last = (int64_t)r;
  bool is_bool = kiln_onnx_is_bool(kiln_onnx_elem(x->type));
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce(
      n, sel, 1, &last, is_bool ? "stablehlo.or" : "stablehlo.add", 0, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// log(softmax(x)) along |axis|.
static kiln_status_t kiln_onnx_log_softmax(node_t* n, value_t* x, int64_t axis,
                                           value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  value_t *m = NULL, *shifted = NULL, *ex = NULL, *s = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, x, 1, &axis, "stablehlo.maximum", -INFINITY, &m));
  KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, m, x->type, 1, &axis, &m));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, m, r, x->type->shaped.dims, &m));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, m, &shifted));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_unary(n, "stablehlo.exponential", shifted, &ex));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, ex, 1, &axis, "stablehlo.add", 0, &s));
  KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, s, x->type, 1, &axis, &s));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, s, r, x->type->shaped.dims, &s));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.log", s, &s));
  return kiln_onnx_binary_same(n, "stablehlo.subtract", shifted, s, out);
}

// NegativeLogLikelihoodLoss on log-probabilities |x| [N, C, d...] and
// |target| [N, d...] (one-hot selection of the target class).
static kiln_status_t kiln_onnx_nll(node_t* n, value_t* x, value_t* target,
                                   value_t* weight, value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  if (r < 2 || kiln_onnx_rank(target->type) != r - 1) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "input must be [N, C, ...] and target [N, ...]");
  }
  const int64_t* T = x->type->shaped.dims;
  int64_t bt[MAXR], one = 1, cls = 1;
  for (size_t d = 0; d + 1 < r; ++d) bt[d] = d == 0 ? 0 : (int64_t)d + 1;
  value_t *tgt = NULL, *tb = NULL, *io = NULL, *mask = NULL, *zero = NULL,
          *picked = NULL, *w = NULL, *wpick = NULL, *loss = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, target, kiln_ir_int_type(n->context, 64), &tgt));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, tgt, r, T, bt, &tb));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, tb->type, 1, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", io, tb, &mask));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, mask, x, zero, &picked));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, picked, 1, &cls, "stablehlo.add", 0, &picked));
  if (weight) {
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, weight, r, T, &one, &w));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &w));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, mask, w, zero, &wpick));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, wpick, 1, &cls, "stablehlo.add", 0, &wpick));
  const Onnx__AttributeProto* ignore = kiln_onnx_attr(n, "ignore_index");
  if (ignore && ignore->has_i) {
    value_t *iv = NULL, *keep = NULL, *wz = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, tgt->type, ignore->i, &iv));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", tgt, iv, &keep));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, wpick, 0, &wz));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, keep, wpick, wz, &wpick));
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", picked, wpick, &loss));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.negate", loss, &loss));
  if (kiln_onnx_attr_string_is(n, "reduction", "mean", "none")) {
    *out = loss;
    return kiln_ok_status();
  }
  int64_t all[MAXR];
  size_t lr = kiln_onnx_rank(loss->type);
  for (size_t d = 0; d < lr; ++d) all[d] = (int64_t)d;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, loss, lr, all, "stablehlo.add", 0, &loss));
  if (kiln_onnx_attr_string_is(n, "reduction", "mean", "mean")) {
    value_t* total = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reduce(n, wpick, lr, all, "stablehlo.add", 0, &total));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", loss, total, &loss));
  } else if (!kiln_onnx_attr_string_is(n, "reduction", "mean", "sum")) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "unknown reduction");
  }
  *out = loss;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_nll(node_t* n) {
  value_t *x = NULL, *target = NULL, *w = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &target));
  if (kiln_onnx_input(n, 2)) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &w));
  KILN_RETURN_IF_ERROR(kiln_onnx_nll(n, x, target, w, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sce(node_t* n) {
  value_t *x = NULL, *target = NULL, *w = NULL, *lp = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &target));
  if (kiln_onnx_input(n, 2)) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &w));
  if (kiln_onnx_rank(x->type) < 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank < 2");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_log_softmax(n, x, 1, &lp));
  KILN_RETURN_IF_ERROR(kiln_onnx_nll(n, lp, target, w, &y));
  kiln_onnx_set(n, 0, y);
  kiln_onnx_set(n, 1, lp);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Pooling and convolution
//===----------------------------------------------------------------------===//

// A [r, 2] dense i64 padding attribute.
static const kiln_ir_attribute_t* kiln_onnx_padding_attr(node_t* n, size_t r,
                                                         const int64_t* lo,
                                                         const int64_t* hi) {
  int64_t v[2 * MAXR];
  for (size_t d = 0; d < r; ++d) {
    v[2 * d] = lo[d];
    v[2 * d + 1] = hi[d];
  }
  int64_t shape[2] = {(int64_t)r, 2};
  const type_t* t =
      kiln_onnx_tensor(n, 2, shape, kiln_ir_int_type(n->context, 64));
  return kiln_ir_dense_elements_attr_get(n->context, t, false, v, r * 16);
}

typedef struct kiln_onnx_window_t {
  size_t spatial;
  int64_t kernel[MAXR], strides[MAXR], dilations[MAXR];
  int64_t pad_lo[MAXR], pad_hi[MAXR];  // explicit (or auto) pads
  int64_t extra_hi[MAXR];              // ceil_mode's extra end padding
  int64_t out[MAXR];
} kiln_onnx_window_t;

// Reads kernel_shape/strides/dilations/pads/auto_pad/ceil_mode for the
// spatial dims of |xt| ([N, C, D...]); |kernel| given for Conv (from W).
static kiln_status_t kiln_onnx_window(node_t* n, const type_t* xt,
                                      const int64_t* kernel,
                                      kiln_onnx_window_t* w) {
  size_t r = kiln_onnx_rank(xt);
  if (r < 3) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "input must be [N, C, D1, ...]");
  }
  size_t ns = r - 2;
  memset(w, 0, sizeof(*w));
  w->spatial = ns;
  int64_t v[2 * MAXR];
  if (kernel) {
    memcpy(w->kernel, kernel, ns * 8);
  } else if (kiln_onnx_attr_ints(n, "kernel_shape", w->kernel, MAXR) !=
             (int64_t)ns) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "kernel_shape must have %zu entries", ns);
  }
  for (size_t i = 0; i < ns; ++i) w->strides[i] = w->dilations[i] = 1;
  int64_t c = kiln_onnx_attr_ints(n, "strides", v, MAXR);
  if (c >= 0 && c != (int64_t)ns) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "bad strides");
  }
  if (c > 0) memcpy(w->strides, v, ns * 8);
  c = kiln_onnx_attr_ints(n, "dilations", v, MAXR);
  if (c >= 0 && c != (int64_t)ns) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "bad dilations");
  }
  if (c > 0) memcpy(w->dilations, v, ns * 8);
  c = kiln_onnx_attr_ints(n, "pads", v, 2 * MAXR);
  if (c >= 0 && c != (int64_t)(2 * ns)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "bad pads");
  }
  bool ceil_mode = kiln_onnx_attr_int(n, "ceil_mode", 0) != 0;
  bool same_upper =
      kiln_onnx_attr_string_is(n, "auto_pad", "NOTSET", "SAME_UPPER");
  bool same_lower =
      kiln_onnx_attr_string_is(n, "auto_pad", "NOTSET", "SAME_LOWER");
  bool valid = kiln_onnx_attr_string_is(n, "auto_pad", "NOTSET", "VALID");
  for (size_t i = 0; i < ns; ++i) {
    int64_t D = xt->shaped.dims[i + 2];
    int64_t k = w->kernel[i], s = w->strides[i];
    if (k <= 0 || s <= 0 || w->dilations[i] <= 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "kernel, strides and dilations must be > 0");
    }
    int64_t eff = (k - 1) * w->dilations[i] + 1;
    if (same_upper || same_lower) {
      int64_t out = (D + s - 1) / s;
      int64_t total = (out - 1) * s + eff - D;
      if (total < 0) total = 0;
      w->pad_lo[i] = same_upper ? total / 2 : total - total / 2;
      w->pad_hi[i] = total - w->pad_lo[i];
      w->out[i] = out;
      continue;
    }
    if (!valid && c > 0) {
      w->pad_lo[i] = v[i];
      w->pad_hi[i] = v[ns + i];
    }
    int64_t span = D + w->pad_lo[i] + w->pad_hi[i] - eff;
    if (span < 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "the window is larger than the input");
    }
    int64_t out = ceil_mode ? (span + s - 1) / s + 1 : span / s + 1;
    // A last window that would start in the end padding is dropped.
    if (ceil_mode && (out - 1) * s >= D + w->pad_lo[i]) --out;
    w->out[i] = out;
    int64_t need = (out - 1) * s + eff - (D + w->pad_lo[i] + w->pad_hi[i]);
    w->extra_hi[i] = need > 0 ? need : 0;
  }
  return kiln_ok_status();
}

// stablehlo.reduce_window of |x| with |w| (window over the spatial dims).
static kiln_status_t kiln_onnx_reduce_window(
    node_t* n, value_t* x, const kiln_onnx_window_t* w, const int64_t* pad_lo,
    const int64_t* pad_hi, const char* combiner, double init, value_t** out) {
  kiln_ir_context_t* ctx = n->context;
  size_t r = kiln_onnx_rank(x->type);
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, e);
  value_t* init_value = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, init, &init_value));
  int64_t wd[MAXR], ws[MAXR], wdl[MAXR], bd[MAXR], lo[MAXR], hi[MAXR],
      dims[MAXR];
  for (size_t d = 0; d < r; ++d) {
    bool sp = d >= 2;
    wd[d] = sp ? w->kernel[d - 2] : 1;
    ws[d] = sp ? w->strides[d - 2] : 1;
    wdl[d] = sp ? w->dilations[d - 2] : 1;
    bd[d] = 1;
    lo[d] = sp ? pad_lo[d - 2] : 0;
    hi[d] = sp ? pad_hi[d - 2] : 0;
    dims[d] = sp ? w->out[d - 2] : x->type->shaped.dims[d];
  }
  const type_t* rt = kiln_onnx_tensor(n, r, dims, e);
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &region));
  kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
  rb.location = n->b->location;
  const type_t* arg_types[2] = {scalar, scalar};
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, region, 2, arg_types, &block));
  kiln_ir_op_t* combine = NULL;
  kiln_ir_value_t* args[2] = {block->args[0], block->args[1]};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, combiner, 2, args, 1, &scalar, 0, NULL, &combine));
  kiln_ir_value_t* combined = kiln_ir_op_result(combine, 0);
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &combined, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.reduce_window", n->b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, x));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, init_value));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, rt));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_dimensions", kiln_onnx_i64_array(n, r, wd)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_strides", kiln_onnx_i64_array(n, r, ws)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_dilations", kiln_onnx_i64_array(n, r, wdl)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "base_dilations", kiln_onnx_i64_array(n, r, bd)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "padding", kiln_onnx_padding_attr(n, r, lo, hi)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_max_pool_indices(node_t* n);

static kiln_status_t kiln_onnx_lower_pool(node_t* n) {
  bool is_max = !strcmp(n->proto->op_type, "MaxPool");
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  if (!is_max) KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  if (n->num_outputs > 1 && n->outputs[1].name[0]) {
    return kiln_onnx_lower_max_pool_indices(n);
  }
  kiln_onnx_window_t w;
  KILN_RETURN_IF_ERROR(kiln_onnx_window(n, x->type, NULL, &w));
  int64_t hi[MAXR];
  for (size_t i = 0; i < w.spatial; ++i) hi[i] = w.pad_hi[i] + w.extra_hi[i];
  value_t* y = NULL;
  if (is_max) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reduce_window(n, x, &w, w.pad_lo, hi, "stablehlo.maximum",
                                kiln_onnx_lowest(kiln_onnx_elem(x->type)), &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce_window(n, x, &w, w.pad_lo, hi, "stablehlo.add", 0, &y));
  // The divisor counts the elements each window covers: real ones only,
  // or also the explicit pads with count_include_pad.
  value_t *ones = NULL, *count = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1, &ones));
  if (kiln_onnx_attr_int(n, "count_include_pad", 0)) {
    size_t r = kiln_onnx_rank(x->type);
    int64_t lo[MAXR] = {0}, ph[MAXR] = {0}, in[MAXR] = {0}, dims[MAXR],
            zero[MAXR] = {0};
    for (size_t d = 0; d < r; ++d) {
      lo[d] = d >= 2 ? w.pad_lo[d - 2] : 0;
      ph[d] = d >= 2 ? w.pad_hi[d - 2] : 0;
      dims[d] = x->type->shaped.dims[d] + lo[d] + ph[d];
    }
    value_t* one = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat(
        n, kiln_onnx_tensor(n, 0, NULL, kiln_onnx_elem(x->type)), 1, &one));
    kiln_ir_named_attribute_t attrs[3] = {
        kiln_onnx_named(n, "edge_padding_low", kiln_onnx_i64_array(n, r, lo)),
        kiln_onnx_named(n, "edge_padding_high", kiln_onnx_i64_array(n, r, ph)),
        kiln_onnx_named(n, "interior_padding", kiln_onnx_i64_array(n, r, in)),
    };
    value_t* ops[2] = {ones, one};
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.pad", 2, ops,
                       kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type)), 3,
                       attrs, &ones));
    KILN_RETURN_IF_ERROR(kiln_onnx_reduce_window(n, ones, &w, zero, w.extra_hi,
                                                 "stablehlo.add", 0, &count));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_reduce_window(n, ones, &w, w.pad_lo, hi,
                                                 "stablehlo.add", 0, &count));
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", y, count, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_global_pool(node_t* n) {
  bool is_max = !strcmp(n->proto->op_type, "GlobalMaxPool");
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axes[MAXR], count = 1;
  size_t na = 0;
  for (size_t d = 2; d < r; ++d) {
    axes[na++] = (int64_t)d;
    count *= x->type->shaped.dims[d];
  }
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce(
      n, x, na, axes, is_max ? "stablehlo.maximum" : "stablehlo.add",
      is_max ? -INFINITY : 0, &y));
  if (!is_max) {
    value_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, (double)count, &c));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", y, c, &y));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_keepdims(n, y, x->type, na, axes, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// The stablehlo.convolution of a Conv-like node's |x| and |wt| (its group,
// kernel, strides, pads, dilations attributes), in their element type.
static kiln_status_t kiln_onnx_conv(node_t* n, value_t* x, value_t* wt,
                                    value_t** out) {
  kiln_ir_context_t* ctx = n->context;
  size_t r = kiln_onnx_rank(x->type);
  if (kiln_onnx_rank(wt->type) != r || r < 3) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "input and weights must be [N, C, D...]");
  }
  int64_t group = kiln_onnx_attr_int(n, "group", 1);
  int64_t C = x->type->shaped.dims[1], M = wt->type->shaped.dims[0];
  if (group <= 0 || C % group || M % group ||
      wt->type->shaped.dims[1] * group != C) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "channels do not match the group count");
  }
  kiln_onnx_window_t w;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_window(n, x->type, wt->type->shaped.dims + 2, &w));
  int64_t dims[MAXR], ones[MAXR];
  dims[0] = x->type->shaped.dims[0];
  dims[1] = M;
  for (size_t i = 0; i < w.spatial; ++i) {
    dims[i + 2] = w.out[i];
    ones[i] = 1;
  }
  const type_t* rt = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type));
  char text[512], list[96];
  int len = 0;
  for (size_t i = 0; i < w.spatial; ++i) {
    len += snprintf(list + len, sizeof(list) - (size_t)len, ", %zu", i);
  }
  snprintf(text, sizeof(text), "#stablehlo.conv<[b, f%s]x[o, i%s]->[b, f%s]>",
           list, list, list);
  const kiln_ir_attribute_t* dn = kiln_ir_dialect_attr_get(
      ctx, kiln_ir_intern_cstr(ctx, "stablehlo"),
      kiln_ir_intern_cstr(ctx, "conv"),
      kiln_make_cstring_view(kiln_ir_arena_printf(ctx, "%s", text)), false, 0,
      NULL);
  kiln_ir_named_attribute_t attrs[7] = {
      kiln_onnx_named(n, "dimension_numbers", dn),
      kiln_onnx_named(n, "window_strides",
                      kiln_onnx_i64_array(n, w.spatial, w.strides)),
      kiln_onnx_named(n, "padding",
                      kiln_onnx_padding_attr(n, w.spatial, w.pad_lo, w.pad_hi)),
      kiln_onnx_named(n, "lhs_dilation",
                      kiln_onnx_i64_array(n, w.spatial, ones)),
      kiln_onnx_named(n, "rhs_dilation",
                      kiln_onnx_i64_array(n, w.spatial, w.dilations)),
      kiln_onnx_named(n, "feature_group_count", kiln_onnx_i64(n, group)),
      kiln_onnx_named(n, "batch_group_count", kiln_onnx_i64(n, 1)),
  };
  value_t* ops[2] = {x, wt};
  return kiln_onnx_emit(n, "stablehlo.convolution", 2, ops, rt, 7, attrs, out);
}

// When the only consumer of f32 Conv |n|'s output is an inference
// BatchNormalization with known parameters and the weights (and bias) are
// known, the normalization folds into them: W' = W * a per output channel,
// B' = B * a + b (what ONNX Runtime's graph optimizer does too). Fills the
// folded weights and bias and marks the normalization absorbed.
static kiln_status_t kiln_onnx_conv_fold_bn(node_t* n, value_t** out_wt,
                                            value_t** out_bias) {
  *out_wt = *out_bias = NULL;
  kiln_onnx_value_t* w = kiln_onnx_input(n, 1);
  kiln_onnx_value_t* bv = kiln_onnx_input(n, 2);
  if (n->num_outputs != 1 || !w || !w->known || kiln_onnx_rank(w->type) < 3 ||
      !kiln_onnx_is_float(kiln_onnx_elem(w->type)) ||
      kiln_onnx_elem(w->type)->flt.kind != KILN_IR_F32 ||
      (bv &&
       (!bv->known || bv->type->shaped.element != w->type->shaped.element ||
        kiln_onnx_rank(bv->type) != 1))) {
    return kiln_ok_status();
  }
  const Onnx__NodeProto* bn =
      kiln_onnx_sole_consumer(n->importer, n->proto->output[0]);
  if (!bn || !bn->op_type || strcmp(bn->op_type, "BatchNormalization") ||
      (bn->domain && bn->domain[0] && strcmp(bn->domain, "ai.onnx")) ||
      bn->n_input < 5 || strcmp(bn->input[0], n->proto->output[0])) {
    return kiln_ok_status();
  }
  int64_t channels = w->type->shaped.dims[0];
  if (bv && bv->type->shaped.dims[0] != channels) return kiln_ok_status();
  kiln_onnx_value_t* params[4];
  for (int i = 0; i < 4; ++i) {
    params[i] = kiln_onnx_find_value(n->importer, bn->input[i + 1]);
  }
  double *a = NULL, *b = NULL;
  if (!kiln_onnx_bn_affine(n, bn, params, channels, &a, &b)) {
    return kiln_ok_status();
  }
  int64_t count = kiln_onnx_num_elements(w->type);
  int64_t per = count / channels;
  double* wd =
      (double*)kiln_ir_arena_alloc(n->context, (size_t)count * sizeof(double));
  if (!wd) return KILN_ONNX_OOM();
  for (int64_t i = 0; i < count; ++i) {
    wd[i] = kiln_onnx_known_double(w->known, i) * a[i / per];
  }
  for (int64_t c = 0; c < channels; ++c) {
    b[c] += bv ? kiln_onnx_known_double(bv->known, c) * a[c] : 0.0;
  }
  int64_t dims[1] = {channels};
  const type_t* bt = kiln_onnx_tensor(n, 1, dims, kiln_onnx_elem(w->type));
  KILN_RETURN_IF_ERROR(kiln_onnx_f32_constant(n, w->type, wd, out_wt));
  KILN_RETURN_IF_ERROR(kiln_onnx_f32_constant(n, bt, b, out_bias));
  n->outputs[0].absorbed = bn;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_conv(node_t* n) {
  value_t *x = NULL, *wt = NULL, *y = NULL, *folded_bias = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  if (kiln_onnx_elem(x->type)->flt.kind == KILN_IR_F32) {
    KILN_RETURN_IF_ERROR(kiln_onnx_conv_fold_bn(n, &wt, &folded_bias));
  }
  if (!wt) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &wt));
  KILN_RETURN_IF_ERROR(kiln_onnx_conv(n, x, wt, &y));
  if (folded_bias) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_per_channel(n, folded_bias, y->type, &folded_bias));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", y, folded_bias, &y));
  } else if (kiln_onnx_input(n, 2)) {
    value_t* bias = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bias));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, bias, y->type, &bias));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", y, bias, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// ConvTranspose as a convolution of the input dilated by the strides with
// the spatially reversed kernel, read as [i, o, k...] (group 1 only).
static kiln_status_t kiln_onnx_lower_conv_transpose(node_t* n) {
  kiln_ir_context_t* ctx = n->context;
  value_t *x = NULL, *wt = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &wt));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  if (kiln_onnx_rank(wt->type) != r || r < 3) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "input and weights must be [N, C, D...]");
  }
  if (kiln_onnx_attr_int(n, "group", 1) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "group > 1 is not supported");
  }
  if (wt->type->shaped.dims[0] != x->type->shaped.dims[1]) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "weights do not match the input channels");
  }
  size_t ns = r - 2;
  int64_t k[MAXR], s[MAXR], d[MAXR], pb[MAXR] = {0}, pe[MAXR] = {0},
                                     op[MAXR] = {0}, os[MAXR], v[2 * MAXR];
  for (size_t i = 0; i < ns; ++i) {
    k[i] = wt->type->shaped.dims[i + 2];
    s[i] = d[i] = 1;
  }
  if (kiln_onnx_attr_ints(n, "strides", v, MAXR) == (int64_t)ns)
    memcpy(s, v, ns * 8);
  if (kiln_onnx_attr_ints(n, "dilations", v, MAXR) == (int64_t)ns)
    memcpy(d, v, ns * 8);
  if (kiln_onnx_attr_ints(n, "output_padding", v, MAXR) == (int64_t)ns)
    memcpy(op, v, ns * 8);
  if (kiln_onnx_attr_ints(n, "pads", v, 2 * MAXR) == (int64_t)(2 * ns)) {
    memcpy(pb, v, ns * 8);
    memcpy(pe, v + ns, ns * 8);
  }
  int64_t no = kiln_onnx_attr_ints(n, "output_shape", os, MAXR);
  // The spatial sizes, optionally after N and C: its last |ns| entries.
  if (no >= 0 && (no < (int64_t)ns || no > (int64_t)ns + 2)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "output_shape has %lld entries for %zu "
                                "spatial dims",
                                (long long)no, ns);
  }
  bool same_upper =
      kiln_onnx_attr_string_is(n, "auto_pad", "NOTSET", "SAME_UPPER");
  bool same_lower =
      kiln_onnx_attr_string_is(n, "auto_pad", "NOTSET", "SAME_LOWER");
  int64_t dims[MAXR], lo[MAXR], hi[MAXR], ones[MAXR];
  dims[0] = x->type->shaped.dims[0];
  dims[1] = wt->type->shaped.dims[1];
  for (size_t i = 0; i < ns; ++i) {
    int64_t in = x->type->shaped.dims[i + 2];
    int64_t full = (in - 1) * s[i] + (k[i] - 1) * d[i] + 1 + op[i];
    if (no > 0 || same_upper || same_lower) {
      int64_t target = no > 0 ? os[no - (int64_t)ns + (int64_t)i] : in * s[i];
      int64_t total = full - target;
      if (total < 0) {
        // A larger output_shape: the extra rows go at the end.
        pb[i] = 0;
        pe[i] = total;
      } else if (same_upper) {
        pb[i] = total / 2;
        pe[i] = total - pb[i];
      } else {
        pe[i] = total / 2;
        pb[i] = total - pe[i];
      }
    }
    dims[i + 2] = full - pb[i] - pe[i];
    lo[i] = (k[i] - 1) * d[i] - pb[i];
    hi[i] = (k[i] - 1) * d[i] - pe[i] + op[i];
    ones[i] = 1;
  }
  int64_t rev[MAXR];
  for (size_t i = 0; i < ns; ++i) rev[i] = (int64_t)i + 2;
  kiln_ir_named_attribute_t rattr =
      kiln_onnx_named(n, "dimensions", kiln_onnx_i64_array(n, ns, rev));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_emit(n, "stablehlo.reverse", 1, &wt, wt->type, 1, &rattr, &wt));
  const type_t* rt = kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type));
  char text[512], list[96];
  int len = 0;
  for (size_t i = 0; i < ns; ++i) {
    len += snprintf(list + len, sizeof(list) - (size_t)len, ", %zu", i);
  }
  snprintf(text, sizeof(text), "#stablehlo.conv<[b, f%s]x[i, o%s]->[b, f%s]>",
           list, list, list);
  const kiln_ir_attribute_t* dn = kiln_ir_dialect_attr_get(
      ctx, kiln_ir_intern_cstr(ctx, "stablehlo"),
      kiln_ir_intern_cstr(ctx, "conv"),
      kiln_make_cstring_view(kiln_ir_arena_printf(ctx, "%s", text)), false, 0,
      NULL);
  kiln_ir_named_attribute_t attrs[7] = {
      kiln_onnx_named(n, "dimension_numbers", dn),
      kiln_onnx_named(n, "window_strides", kiln_onnx_i64_array(n, ns, ones)),
      kiln_onnx_named(n, "padding", kiln_onnx_padding_attr(n, ns, lo, hi)),
      kiln_onnx_named(n, "lhs_dilation", kiln_onnx_i64_array(n, ns, s)),
      kiln_onnx_named(n, "rhs_dilation", kiln_onnx_i64_array(n, ns, d)),
      kiln_onnx_named(n, "feature_group_count", kiln_onnx_i64(n, 1)),
      kiln_onnx_named(n, "batch_group_count", kiln_onnx_i64(n, 1)),
  };
  value_t* ops[2] = {x, wt};
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_emit(n, "stablehlo.convolution", 2, ops, rt, 7, attrs, &y));
  if (kiln_onnx_input(n, 2)) {
    value_t* bias = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bias));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, bias, rt, &bias));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", y, bias, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Resize / Upsample
//===----------------------------------------------------------------------===//

// Resize is separable: along each resized axis the output is a weighted sum
// of up to 4 gathered input slices, with indices and weights computed here
// from the (known) scales or sizes.
typedef struct kiln_onnx_resize_t {
  int mode;     // 0 nearest, 1 linear, 2 cubic
  int coord;    // 0 half_pixel, 1 asymmetric, 2 align_corners,
                // 3 pytorch_half_pixel, 4 tf_half_pixel_for_nn
  int nearest;  // 0 round_prefer_floor, 1 round_prefer_ceil, 2 floor, 3 ceil
  double cubic_a;
  bool exclude_outside;
} kiln_onnx_resize_t;

// Resizes |x| along |axis| to |out| elements; |scale| is a rank-0 value of
// |x|'s element type (known or computed at run time). Source coordinates,
// indices and weights are computed in the program, so run-time scales work.
static kiln_status_t kiln_onnx_resize_axis(node_t* n, value_t* x, int64_t axis,
                                           int64_t out, value_t* scale,
                                           const kiln_onnx_resize_t* r,
                                           value_t** result) {
  kiln_ir_context_t* ctx = n->context;
  int64_t in = x->type->shaped.dims[axis];
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* ft = kiln_onnx_tensor(n, 1, &out, e);
  const type_t* it = kiln_onnx_tensor(n, 1, &out, kiln_ir_int_type(ctx, 64));
  value_t *o = NULL, *sc = NULL, *half = NULL, *xo = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, ft, 0, &o));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, scale, 1, &out, &sc));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 0.5, &half));
  switch (r->coord) {
    case 1:  // asymmetric
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.divide", o, sc, &xo));
      break;
    case 2: {  // align_corners: x * (in - 1) / (in * scale - 1)
      value_t *num = NULL, *den = NULL, *inv = NULL, *one = NULL, *k = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, (double)(in - 1), &num));
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, (double)in, &inv));
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 1, &one));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", inv, sc, &den));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", den, one, &den));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.divide", num, den, &k));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", o, k, &xo));
      if (out == 1) KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 0, &xo));
      break;
    }
    case 4:  // tf_half_pixel_for_nn
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", o, half, &xo));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.divide", xo, sc, &xo));
      break;
    default:  // half_pixel, pytorch_half_pixel
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", o, half, &xo));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.divide", xo, sc, &xo));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", xo, half, &xo));
      if (r->coord == 3 && out == 1)
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 0, &xo));
      break;
  }
  value_t *lo = NULL, *hi = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, it, 0, &lo));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, it, in - 1, &hi));
  int taps = r->mode == 0 ? 1 : r->mode == 1 ? 2 : 4;
  value_t* idx[4] = {NULL};
  value_t* w[4] = {NULL};
  if (r->mode == 0) {
    value_t* k = NULL;
    switch (r->nearest) {
      case 1:  // round_prefer_ceil
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", xo, half, &k));
        KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.floor", k, &k));
        break;
      case 2:
        KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.floor", xo, &k));
        break;
      case 3:
        KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.ceil", xo, &k));
        break;
      default:  // round_prefer_floor
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.subtract", xo, half, &k));
        KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.ceil", k, &k));
        break;
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, k, kiln_ir_int_type(ctx, 64), &idx[0]));
  } else {
    value_t *f = NULL, *t = NULL, *base = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.floor", xo, &f));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", xo, f, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, f, kiln_ir_int_type(ctx, 64), &base));
    value_t* one = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 1, &one));
    if (r->mode == 1) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", one, t, &w[0]));
      w[1] = t;
    } else {
      // Keys' cubic kernel at distances t + 1, t, 1 - t, 2 - t.
      double A = r->cubic_a;
      value_t *d[4], *two = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 2, &two));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", t, one, &d[0]));
      d[1] = t;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", one, t, &d[2]));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", two, t, &d[3]));
      for (int k = 0; k < 4; ++k) {
        bool near = k == 1 || k == 2;
        // near: ((A + 2) d - (A + 3)) d^2 + 1; far: ((A d - 5A) d + 8A) d - 4A
        double c1 = near ? A + 2 : A, c2 = near ? -(A + 3) : -5 * A,
               c3 = near ? 0 : 8 * A, c4 = near ? 1 : -4 * A;
        value_t *a = NULL, *b = NULL, *c = NULL, *dd = d[k], *acc = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, c1, &a));
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, c2, &b));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", a, dd, &acc));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", acc, b, &acc));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", acc, dd, &acc));
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, c3, &c));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", acc, c, &acc));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", acc, dd, &acc));
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, c4, &c));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", acc, c, &w[k]));
      }
    }
    value_t* total = NULL;
    for (int k = 0; k < taps; ++k) {
      value_t* off = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_splat_int(n, it, r->mode == 2 ? k - 1 : k, &off));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", base, off, &idx[k]));
      if (r->exclude_outside) {
        value_t *p1 = NULL, *p2 = NULL, *inside = NULL, *zero = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", idx[k], lo, &p1));
        KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LE", idx[k], hi, &p2));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.and", p1, p2, &inside));
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, ft, 0, &zero));
        KILN_RETURN_IF_ERROR(kiln_onnx_select(n, inside, w[k], zero, &w[k]));
        if (!total) {
          total = w[k];
        } else {
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.add", total, w[k], &total));
        }
      }
    }
    for (int k = 0; total && k < taps; ++k) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.divide", w[k], total, &w[k]));
    }
  }
  size_t rank = kiln_onnx_rank(x->type);
  int64_t dims[MAXR];
  memcpy(dims, x->type->shaped.dims, rank * 8);
  dims[axis] = out;
  const type_t* rt = kiln_onnx_tensor(n, rank, dims, e);
  value_t* acc = NULL;
  for (int k = 0; k < taps; ++k) {
    value_t* g = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", idx[k], lo, &idx[k]));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", idx[k], hi, &idx[k]));
    kiln_ir_named_attribute_t attrs[2] = {
        kiln_onnx_named(n, "dim", kiln_onnx_i64(n, axis)),
        kiln_onnx_named(n, "batch_dims", kiln_onnx_i64(n, 0)),
    };
    value_t* ops[2] = {x, idx[k]};
    KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.torch_index_select", 2,
                                        ops, rt, 2, attrs, &g));
    if (w[k]) {
      value_t* wb = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_broadcast_dims(n, w[k], rank, dims, &axis, &wb));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", g, wb, &g));
    }
    if (!acc) {
      acc = g;
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", acc, g, &acc));
    }
  }
  *result = acc;
  return kiln_ok_status();
}

// Resize with run-time scales compiled for its declared type: floor(dim i
// of |x| * scales[i]) is the declared dim i (|scales|: in |x|'s element
// type, one per dim).
static kiln_status_t kiln_onnx_check_resize_scales(node_t* n, value_t* x,
                                                   value_t* scales) {
  const type_t* rt = n->declared[0];
  size_t r = kiln_onnx_rank(rt);
  const type_t* e = kiln_onnx_elem(scales->type);
  value_t *xd = NULL, *want = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_vector(n, r, x->type->shaped.dims, &xd));
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_vector(n, r, rt->shaped.dims, &want));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, xd, e, &xd));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, want, e, &want));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", xd, scales, &xd));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.floor", xd, &xd));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", xd, want, &ok));
  return kiln_onnx_check_declared(n, ok, "run-time scales");
}

static kiln_status_t kiln_onnx_lower_resize(node_t* n) {
  bool upsample = !strcmp(n->proto->op_type, "Upsample");
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t rank = kiln_onnx_rank(x->type);
  kiln_onnx_resize_t r;
  memset(&r, 0, sizeof(r));
  if (kiln_onnx_attr_string_is(n, "mode", "nearest", "nearest")) {
    r.mode = 0;
  } else if (kiln_onnx_attr_string_is(n, "mode", "nearest", "linear") ||
             kiln_onnx_attr_string_is(n, "mode", "nearest", "bilinear")) {
    r.mode = 1;
  } else if (kiln_onnx_attr_string_is(n, "mode", "nearest", "cubic")) {
    r.mode = 2;
  } else {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED, "unknown mode");
  }
  // Before opset 11 (and Upsample): asymmetric coordinates, floor rounding.
  bool old = upsample || n->opset < 11;
  const char* coords[] = {"half_pixel", "asymmetric", "align_corners",
                          "pytorch_half_pixel", "tf_half_pixel_for_nn"};
  r.coord = -1;
  for (int i = 0; i < 5; ++i) {
    if (kiln_onnx_attr_string_is(n, "coordinate_transformation_mode",
                                 old ? "asymmetric" : "half_pixel",
                                 coords[i])) {
      r.coord = i;
    }
  }
  if (r.coord < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "coordinate_transformation_mode "
                                "'tf_crop_and_resize' is not supported");
  }
  const char* modes[] = {"round_prefer_floor", "round_prefer_ceil", "floor",
                         "ceil"};
  for (int i = 0; i < 4; ++i) {
    if (kiln_onnx_attr_string_is(n, "nearest_mode",
                                 old ? "floor" : "round_prefer_floor",
                                 modes[i])) {
      r.nearest = i;
    }
  }
  r.cubic_a = kiln_onnx_attr_float(n, "cubic_coeff_a", -0.75);
  r.exclude_outside = kiln_onnx_attr_int(n, "exclude_outside", 0) != 0;
  if (kiln_onnx_attr(n, "antialias") && kiln_onnx_attr_int(n, "antialias", 0)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "antialias is not supported");
  }
  if (kiln_onnx_attr(n, "axes")) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "the axes attribute is not supported");
  }
  // Scales (attribute before opset 9, then an input; known or run time)
  // or sizes (known, or the declared result type).
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, e);
  value_t* scale_values = NULL;  // rank-1 run-time scales
  double scales[MAXR];
  bool known_scales = false;
  int64_t sizes[MAXR], nz = -1;
  if (upsample && n->opset < 9) {
    const Onnx__AttributeProto* a = kiln_onnx_attr(n, "scales");
    if (!a || a->n_floats != rank) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "bad scales");
    }
    for (size_t i = 0; i < rank; ++i) scales[i] = a->floats[i];
    known_scales = true;
  } else {
    size_t si = old ? 1 : 2;
    kiln_onnx_value_t* sv = kiln_onnx_input(n, si);
    if (sv && kiln_onnx_num_elements(sv->type) > 0) {
      if (kiln_onnx_num_elements(sv->type) != (int64_t)rank) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "scales must have one entry per dim");
      }
      if (sv->known) {
        for (size_t i = 0; i < rank; ++i) {
          scales[i] = kiln_onnx_known_double(sv->known, (int64_t)i);
        }
        known_scales = true;
      } else {
        KILN_RETURN_IF_ERROR(kiln_onnx_in(n, si, &scale_values));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_convert(n, scale_values, e, &scale_values));
      }
    }
    if (!old && !known_scales && !scale_values) {
      if (kiln_onnx_use_declared(n, 3, 0)) {
        // Other aspect-ratio policies give a result other than the sizes.
        if (kiln_onnx_attr_string_is(n, "keep_aspect_ratio_policy", "stretch",
                                     "stretch")) {
          KILN_RETURN_IF_ERROR(kiln_onnx_check_dims_input(n, 3, "sizes"));
        }
        nz = (int64_t)kiln_onnx_rank(n->declared[0]);
        memcpy(sizes, n->declared[0]->shaped.dims, (size_t)nz * 8);
      } else {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_known_ints(n, 3, "sizes", sizes, MAXR, &nz));
      }
    }
  }
  int64_t out[MAXR];
  if (nz > 0) {
    if (nz != (int64_t)rank) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "bad sizes");
    }
    for (size_t i = 0; i < rank; ++i) {
      out[i] = sizes[i];
      scales[i] = (double)sizes[i] / (double)x->type->shaped.dims[i];
    }
    known_scales = true;
  } else if (known_scales) {
    for (size_t i = 0; i < rank; ++i) {
      out[i] = (int64_t)floor((double)x->type->shaped.dims[i] * scales[i]);
    }
  } else if (scale_values && n->declared[0] &&
             kiln_onnx_rank(n->declared[0]) == rank) {
    memcpy(out, n->declared[0]->shaped.dims, rank * 8);
    KILN_RETURN_IF_ERROR(kiln_onnx_check_resize_scales(n, x, scale_values));
  } else {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED,
        "needs known scales or sizes, or a declared static result type");
  }
  value_t* y = x;
  for (size_t d = 0; d < rank; ++d) {
    value_t* scale = NULL;
    if (known_scales) {
      if (out[d] == x->type->shaped.dims[d] && scales[d] == 1.0) continue;
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, scales[d], &scale));
    } else {
      int64_t lo = (int64_t)d, hi = (int64_t)d + 1, st = 1;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_slice(n, scale_values, &lo, &hi, &st, &scale));
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, scale, 0, NULL, &scale));
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_resize_axis(n, y, (int64_t)d, out[d], scale, &r, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Scans, one-hot, windows, local normalizations, quantization, scatters
//===----------------------------------------------------------------------===//

// The inclusive prefix sum of |x| along |axis| (a reduce_window whose
// window covers everything before each element).
static kiln_status_t kiln_onnx_prefix_sum(node_t* n, value_t* x, int64_t axis,
                                          bool reverse, bool exclusive,
                                          value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  kiln_onnx_window_t w;
  memset(&w, 0, sizeof(w));
  // reduce_window's window covers all dims; the spatial fields describe
  // dims 2.. only, so build the full attribute lists here.
  kiln_ir_context_t* ctx = n->context;
  int64_t D = x->type->shaped.dims[axis];
  value_t* v = x;
  int64_t rd = axis;
  kiln_ir_named_attribute_t rattr =
      kiln_onnx_named(n, "dimensions", kiln_onnx_i64_array(n, 1, &rd));
  if (reverse) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.reverse", 1, &v, v->type, 1, &rattr, &v));
  }
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, e);
  value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, 0, &init));
  int64_t wd[MAXR], ws[MAXR], lo[MAXR], hi[MAXR];
  for (size_t d = 0; d < r; ++d) {
    wd[d] = (int64_t)d == axis ? D : 1;
    ws[d] = 1;
    lo[d] = (int64_t)d == axis ? D - 1 : 0;
    hi[d] = 0;
  }
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &region));
  kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
  rb.location = n->b->location;
  const type_t* arg_types[2] = {scalar, scalar};
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, region, 2, arg_types, &block));
  kiln_ir_op_t* combine = NULL;
  kiln_ir_value_t* args[2] = {block->args[0], block->args[1]};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.add", 2, args, 1, &scalar, 0, NULL, &combine));
  kiln_ir_value_t* combined = kiln_ir_op_result(combine, 0);
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &combined, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.reduce_window", n->b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, v));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, init));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, v->type));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_dimensions", kiln_onnx_i64_array(n, r, wd)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_strides", kiln_onnx_i64_array(n, r, ws)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "padding", kiln_onnx_padding_attr(n, r, lo, hi)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  value_t* y = kiln_ir_op_result(op, 0);
  if (exclusive) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", y, v, &y));
  }
  if (reverse) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.reverse", 1, &y, y->type, 1, &rattr, &y));
  }
  *out = y;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_cumsum(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 2));
  size_t r = kiln_onnx_rank(x->type);
  if (r == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank 0");
  }
  bool reverse = kiln_onnx_attr_int(n, "reverse", 0) != 0;
  bool exclusive = kiln_onnx_attr_int(n, "exclusive", 0) != 0;
  kiln_onnx_value_t* av = n->inputs[1];
  if (av->known || r == 1) {
    int64_t axis = r == 1 && !av->known ? 0 : kiln_onnx_known_int(av->known, 0);
    KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, axis, r, &axis));
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_prefix_sum(n, x, axis, reverse, exclusive, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  // A run-time axis: every candidate, selected by the axis value.
  value_t *a = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, a, 0, NULL, &a));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, a, kiln_ir_int_type(n->context, 64), &a));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, a, r, x->type->shaped.dims, &a));
  for (size_t d = 0; d < r; ++d) {
    value_t *c = NULL, *pos = NULL, *neg = NULL, *p1 = NULL, *p2 = NULL,
            *p = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_prefix_sum(n, x, (int64_t)d, reverse, exclusive, &c));
    if (!y) {
      y = c;
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, a->type, (int64_t)d, &pos));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_splat_int(n, a->type, (int64_t)d - (int64_t)r, &neg));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", a, pos, &p1));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", a, neg, &p2));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.or", p1, p2, &p));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, p, c, y, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_onehot(node_t* n) {
  value_t *idx = NULL, *values = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 3));
  size_t r = kiln_onnx_rank(idx->type);
  if (r + 1 > MAXR) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED, "rank too high");
  }
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", -1), r + 1, &axis));
  int64_t depth = 0;
  kiln_onnx_value_t* dv = n->inputs[1];
  if (dv->known) {
    depth = (int64_t)kiln_onnx_known_double(dv->known, 0);
  } else if (n->declared[0] && kiln_onnx_rank(n->declared[0]) == r + 1) {
    depth = n->declared[0]->shaped.dims[axis];
  } else {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "depth must be known at import");
  }
  int64_t dims[MAXR], bd[MAXR];
  for (size_t d = 0, k = 0; d <= r; ++d) {
    if ((int64_t)d == axis) {
      dims[d] = depth;
    } else {
      bd[k] = (int64_t)d;
      dims[d] = idx->type->shaped.dims[k++];
    }
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_wrap_indices(n, idx, depth, &idx));
  value_t *ib = NULL, *io = NULL, *mask = NULL, *off = NULL, *on = NULL,
          *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, idx, r + 1, dims, bd, &ib));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, ib->type, axis, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", io, ib, &mask));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &values));
  int64_t z = 0, one = 1, st = 1, two = 2;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, values, &z, &one, &st, &off));
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, values, &one, &two, &st, &on));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, off, 0, NULL, &off));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, on, 0, NULL, &on));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, off, r + 1, dims, &off));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, on, r + 1, dims, &on));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, mask, on, off, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// HannWindow, HammingWindow, BlackmanWindow: a0 - a1 cos(2 pi n / N) +
// a2 cos(4 pi n / N) with N = size (periodic) or size - 1.
static kiln_status_t kiln_onnx_lower_window_fn(node_t* n) {
  const char* op = n->proto->op_type;
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  int64_t size = 0;
  kiln_onnx_value_t* sv = n->inputs[0];
  if (sv->known) {
    size = kiln_onnx_known_int(sv->known, 0);
  } else if (n->declared[0] && kiln_onnx_rank(n->declared[0]) == 1) {
    size = n->declared[0]->shaped.dims[0];
  } else {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "size must be known at import");
  }
  int32_t dtype = (int32_t)kiln_onnx_attr_int(n, "output_datatype", 1);
  const type_t* e = kiln_onnx_element_type(n->context, dtype);
  if (!e || size < 0 || size > (1 << 24)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "bad size or output_datatype");
  }
  double a0 = 0.5, a1 = 0.5, a2 = 0;
  if (!strcmp(op, "HammingWindow")) {
    a0 = 25.0 / 46;
    a1 = 21.0 / 46;
  } else if (!strcmp(op, "BlackmanWindow")) {
    a0 = 0.42;
    a1 = 0.5;
    a2 = 0.08;
  }
  bool periodic = kiln_onnx_attr_int(n, "periodic", 1) != 0;
  double N = (double)(periodic ? size : size - 1);
  const type_t* t = kiln_onnx_tensor(n, 1, &size, e);
  kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, t);
  if (!c) return KILN_ONNX_OOM();
  const double pi = 3.14159265358979323846;
  for (int64_t i = 0; i < size; ++i) {
    double x = N > 0 ? (double)i / N : 0;
    double v = a0 - a1 * cos(2 * pi * x) + a2 * cos(4 * pi * x);
    kiln_onnx_store((uint8_t*)c->data, e, i, v, 0, true);
  }
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_lrn(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t size = kiln_onnx_attr_int(n, "size", 0);
  if (r < 2 || size <= 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "needs rank >= 2 and size > 0");
  }
  double alpha = kiln_onnx_attr_float(n, "alpha", 1e-4);
  double beta = kiln_onnx_attr_float(n, "beta", 0.75);
  double bias = kiln_onnx_attr_float(n, "bias", 1.0);
  // Sum of squares over channels [c - floor((size-1)/2), c + ceil((size-1)/2)]
  // as a 2-D window over (N, C) with the spatial dims folded in: use
  // reduce_window on the original rank with a window on dim 1 only.
  value_t *sq = NULL, *sum = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", x, x, &sq));
  kiln_ir_context_t* ctx = n->context;
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, e);
  value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, scalar, 0, &init));
  int64_t wd[MAXR], ws[MAXR], lo[MAXR], hi[MAXR];
  for (size_t d = 0; d < r; ++d) {
    wd[d] = d == 1 ? size : 1;
    ws[d] = 1;
    lo[d] = d == 1 ? (size - 1) / 2 : 0;
    hi[d] = d == 1 ? size - 1 - (size - 1) / 2 : 0;
  }
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &region));
  kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
  rb.location = n->b->location;
  const type_t* arg_types[2] = {scalar, scalar};
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, region, 2, arg_types, &block));
  kiln_ir_op_t* combine = NULL;
  kiln_ir_value_t* args[2] = {block->args[0], block->args[1]};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.add", 2, args, 1, &scalar, 0, NULL, &combine));
  kiln_ir_value_t* combined = kiln_ir_op_result(combine, 0);
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &combined, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.reduce_window", n->b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, sq));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, init));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, x->type));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_dimensions", kiln_onnx_i64_array(n, r, wd)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "window_strides", kiln_onnx_i64_array(n, r, ws)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "padding", kiln_onnx_padding_attr(n, r, lo, hi)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  sum = kiln_ir_op_result(op, 0);
  value_t *k = NULL, *a = NULL, *bv = NULL, *d = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, alpha / (double)size, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, bias, &k));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, beta, &bv));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", sum, a, &d));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", d, k, &d));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.power", d, bv, &d));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.divide", x, d, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_mvn(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t raw[MAXR], axes[MAXR];
  int64_t count = kiln_onnx_attr_ints(n, "axes", raw, MAXR);
  if (count < 0) {
    count = 0;
    int64_t def[3] = {0, 2, 3};
    for (int i = 0; i < 3; ++i) {
      if (def[i] < (int64_t)r) raw[count++] = def[i];
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, raw[i], r, &axes[i]));
  }
  value_t *mean = NULL, *var = NULL, *y = NULL, *eps = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_moments(n, x, (size_t)count, axes, &mean, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, mean, r, x->type->shaped.dims, &mean));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, var, r, x->type->shaped.dims, &var));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 1e-9, &eps));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.sqrt", var, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", var, eps, &var));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, mean, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", y, var, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Broadcasts a quantization parameter (scalar, or 1-D along |axis|).
static kiln_status_t kiln_onnx_quant_param(node_t* n, value_t* p,
                                           const type_t* like, int64_t axis,
                                           value_t** out) {
  size_t r = kiln_onnx_rank(like);
  if (kiln_onnx_rank(p->type) == 0 || kiln_onnx_num_elements(p->type) == 1) {
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, p, 0, NULL, &p));
    return kiln_onnx_broadcast_to(n, p, r, like->shaped.dims, out);
  }
  // Per-axis: one value per slice along |axis| (the only other form).
  if (axis < 0) axis += (int64_t)r;
  if (kiln_onnx_rank(p->type) != 1 || axis < 0 || axis >= (int64_t)r ||
      p->type->shaped.dims[0] != like->shaped.dims[axis]) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "a quantization scale or zero point must be "
                                "a scalar or 1-D with one value per slice "
                                "along axis %lld",
                                (long long)axis);
  }
  return kiln_onnx_broadcast_dims(n, p, r, like->shaped.dims, &axis, out);
}

// round-half-even(x / scale) + zero point, saturated to |qe|.
static kiln_status_t kiln_onnx_quantize(node_t* n, value_t* x, value_t* scale,
                                        value_t* zp, const type_t* qe,
                                        value_t** out) {
  value_t *y = NULL, *lo = NULL, *hi = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", x, scale, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_unary(n, "stablehlo.round_nearest_even", y, &y));
  if (zp) {
    value_t* zf = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, zp, kiln_onnx_elem(y->type), &zf));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", y, zf, &y));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, kiln_onnx_lowest(qe), &lo));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, kiln_onnx_highest(qe), &hi));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.maximum", y, lo, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.minimum", y, hi, &y));
  return kiln_onnx_convert(n, y, qe, out);
}

static kiln_status_t kiln_onnx_lower_quantize(node_t* n) {
  bool dequant = !strcmp(n->proto->op_type, "DequantizeLinear");
  value_t *x = NULL, *scale = NULL, *zp = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &scale));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axis = 1;
  // The axis matters (and must be in range) only for 1-D parameters.
  if (kiln_onnx_num_elements(scale->type) != 1) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 1), r, &axis));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, scale, x->type, axis, &scale));
  if (kiln_onnx_input(n, 2)) {
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &zp));
    KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, zp, x->type, axis, &zp));
  }
  if (dequant) {
    const type_t* fe = kiln_onnx_elem(scale->type);
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, x, fe, &y));
    if (zp) {
      value_t* zf = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, zp, fe, &zf));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", y, zf, &y));
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", y, scale, &y));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
    const type_t* qe =
        zp ? kiln_onnx_elem(zp->type)
           : kiln_ir_integer_type_get(n->context, 8, KILN_IR_UNSIGNED);
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, scale, kiln_onnx_elem(x->type), &scale));
    KILN_RETURN_IF_ERROR(kiln_onnx_quantize(n, x, scale, zp, qe, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_dynamic_quantize(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t all[MAXR];
  for (size_t d = 0; d < r; ++d) all[d] = (int64_t)d;
  const type_t* u8 = kiln_ir_integer_type_get(n->context, 8, KILN_IR_UNSIGNED);
  value_t *mn = NULL, *mx = NULL, *zero = NULL, *scale = NULL, *q = NULL,
          *zp = NULL, *zpf = NULL, *c = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, x, r, all, "stablehlo.minimum", INFINITY, &mn));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, x, r, all, "stablehlo.maximum", -INFINITY, &mx));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, mn, 0, &zero));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.minimum", mn, zero, &mn));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.maximum", mx, zero, &mx));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", mx, mn, &scale));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, scale, 255, &c));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", scale, c, &scale));
  // zero point = saturate(round(0 - min / scale)).
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", mn, scale, &q));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", zero, q, &q));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, q, 1, &c));
  KILN_RETURN_IF_ERROR(kiln_onnx_quantize(n, q, c, NULL, u8, &zp));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, zp, kiln_onnx_elem(x->type), &zpf));
  value_t *sb = NULL, *zb = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, scale, r, x->type->shaped.dims, &sb));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, zp, r, x->type->shaped.dims, &zb));
  KILN_RETURN_IF_ERROR(kiln_onnx_quantize(n, x, sb, zb, u8, &y));
  kiln_onnx_set(n, 0, y);
  kiln_onnx_set(n, 1, scale);
  kiln_onnx_set(n, 2, zp);
  return kiln_ok_status();
}

// ScatterElements as one-hot sums: along a new trailing dim a' of size
// D_axis, hit[.., a'] = (indices == a'); the contributions are summed over
// the indices' axis, moved to |axis| and padded to the data's shape.
static kiln_status_t kiln_onnx_lower_scatter_elements(node_t* n) {
  value_t *x = NULL, *idx = NULL, *upd = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &upd));
  size_t r = kiln_onnx_rank(x->type);
  if (r == 0 || r + 1 > MAXR || kiln_onnx_rank(idx->type) != r ||
      idx->type->shaped.dims != upd->type->shaped.dims) {
    if (r == 0 || kiln_onnx_rank(idx->type) != r ||
        kiln_onnx_rank(upd->type) != r) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_INVALID_ARGUMENT,
          "data, indices and updates must have one rank");
    }
  }
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  int reduction = kiln_onnx_attr_string_is(n, "reduction", "none", "add")   ? 1
                  : kiln_onnx_attr_string_is(n, "reduction", "none", "mul") ? 2
                  : kiln_onnx_attr_string_is(n, "reduction", "none", "none")
                      ? 0
                      : -1;
  if (reduction < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "reduction must be none, add or mul");
  }
  int64_t A = x->type->shaped.dims[axis];
  int64_t wide[MAXR], bd[MAXR];
  for (size_t d = 0; d < r; ++d) {
    wide[d] = idx->type->shaped.dims[d];
    bd[d] = (int64_t)d;
    if ((int64_t)d != axis && wide[d] > x->type->shaped.dims[d]) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "indices dim %zu exceeds the data's", d);
    }
  }
  wide[r] = A;
  value_t *ib = NULL, *io = NULL, *mask = NULL, *ub = NULL, *neutral = NULL,
          *sel = NULL, *contrib = NULL, *hit = NULL, *f = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_wrap_indices(n, idx, A, &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, idx, r + 1, wide, bd, &ib));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, ib->type, (int64_t)r, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", io, ib, &mask));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, upd, r + 1, wide, bd, &ub));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, ub, reduction == 2 ? 1 : 0, &neutral));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, mask, ub, neutral, &sel));
  KILN_RETURN_IF_ERROR(kiln_onnx_reduce(
      n, sel, 1, &axis, reduction == 2 ? "stablehlo.multiply" : "stablehlo.add",
      reduction == 2 ? 1 : 0, &contrib));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, mask, 1, &axis, "stablehlo.or", 0, &hit));
  // [.. without axis .., A] -> put A back at |axis|.
  int64_t perm[MAXR];
  for (size_t p = 0; p < r; ++p) {
    perm[p] = (int64_t)p < axis    ? (int64_t)p
              : (int64_t)p == axis ? (int64_t)r - 1
                                   : (int64_t)p - 1;
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, contrib, perm, &contrib));
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, hit, perm, &hit));
  // Pad the other dims up to the data's shape (not hit there).
  int64_t lo[MAXR] = {0}, hi[MAXR] = {0}, in[MAXR] = {0};
  bool pad = false;
  for (size_t d = 0; d < r; ++d) {
    hi[d] = x->type->shaped.dims[d] - contrib->type->shaped.dims[d];
    if (hi[d]) pad = true;
  }
  if (pad) {
    value_t* ops[2];
    kiln_ir_named_attribute_t attrs[3] = {
        kiln_onnx_named(n, "edge_padding_low", kiln_onnx_i64_array(n, r, lo)),
        kiln_onnx_named(n, "edge_padding_high", kiln_onnx_i64_array(n, r, hi)),
        kiln_onnx_named(n, "interior_padding", kiln_onnx_i64_array(n, r, in)),
    };
    value_t *pz = NULL, *pf = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat(
        n, kiln_onnx_tensor(n, 0, NULL, kiln_onnx_elem(contrib->type)),
        reduction == 2 ? 1 : 0, &pz));
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(
        n, kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(n->context, 1)), 0,
        &pf));
    ops[0] = contrib;
    ops[1] = pz;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.pad", 2, ops,
                       kiln_onnx_tensor(n, r, x->type->shaped.dims,
                                        kiln_onnx_elem(contrib->type)),
                       3, attrs, &contrib));
    ops[0] = hit;
    ops[1] = pf;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.pad", 2, ops,
                       kiln_onnx_tensor(n, r, x->type->shaped.dims,
                                        kiln_ir_int_type(n->context, 1)),
                       3, attrs, &hit));
  }
  if (reduction == 0) {
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, hit, contrib, x, &f));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(
        n, reduction == 1 ? "stablehlo.add" : "stablehlo.multiply", x, contrib,
        &f));
  }
  kiln_onnx_set(n, 0, f);
  return kiln_ok_status();
}

// TopK: a stable key/index sort along |axis| (ties keep the lower index
// first, as ONNX specifies), then the first K of both.
static kiln_status_t kiln_onnx_lower_topk(node_t* n) {
  kiln_ir_context_t* ctx = n->context;
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  if (r == 0)
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank 0");
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", -1), r, &axis));
  int64_t k = 0, count = -1;
  if (n->opset < 10) {
    k = kiln_onnx_attr_int(n, "k", -1);
  } else if (kiln_onnx_use_declared(n, 1, 0)) {
    k = n->declared[0]->shaped.dims[axis];
    KILN_RETURN_IF_ERROR(kiln_onnx_check_input_values(n, 1, 1, &k, "K"));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 1, "K", &k, 1, &count));
  }
  if (k < 0 || k > x->type->shaped.dims[axis]) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "K out of range");
  }
  bool largest = kiln_onnx_attr_int(n, "largest", 1) != 0;
  const type_t* e = kiln_onnx_elem(x->type);
  const type_t* i64 = kiln_ir_int_type(ctx, 64);
  const type_t* it = kiln_onnx_tensor(n, r, x->type->shaped.dims, i64);
  value_t* iota = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, axis, &iota));
  const type_t* sv = kiln_onnx_tensor(n, 0, NULL, e);
  const type_t* si = kiln_onnx_tensor(n, 0, NULL, i64);
  const type_t* sb = kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(ctx, 1));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &region));
  kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
  rb.location = n->b->location;
  const type_t* arg_types[4] = {sv, sv, si, si};
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, region, 4, arg_types, &block));
  kiln_ir_op_t *gt = NULL, *eq = NULL, *lt = NULL, *both = NULL, *any = NULL,
               *ret = NULL;
  kiln_ir_named_attribute_t dir =
      kiln_onnx_named(n, "comparison_direction",
                      kiln_ir_string_attr_get(
                          ctx, kiln_make_cstring_view(largest ? "GT" : "LT")));
  kiln_ir_named_attribute_t dir_eq = kiln_onnx_named(
      n, "comparison_direction",
      kiln_ir_string_attr_get(ctx, kiln_make_cstring_view("EQ")));
  kiln_ir_named_attribute_t dir_lt = kiln_onnx_named(
      n, "comparison_direction",
      kiln_ir_string_attr_get(ctx, kiln_make_cstring_view("LT")));
  kiln_ir_value_t* vals[2] = {block->args[0], block->args[1]};
  kiln_ir_value_t* idxs[2] = {block->args[2], block->args[3]};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.compare", 2, vals, 1, &sb, 1, &dir, &gt));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.compare", 2, vals, 1, &sb, 1, &dir_eq, &eq));
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.compare", 2, idxs, 1, &sb, 1, &dir_lt, &lt));
  kiln_ir_value_t* and_args[2] = {kiln_ir_op_result(eq, 0),
                                  kiln_ir_op_result(lt, 0)};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.and", 2, and_args, 1, &sb, 0, NULL, &both));
  kiln_ir_value_t* or_args[2] = {kiln_ir_op_result(gt, 0),
                                 kiln_ir_op_result(both, 0)};
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.or", 2, or_args, 1, &sb, 0, NULL, &any));
  kiln_ir_value_t* pred = kiln_ir_op_result(any, 0);
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &pred, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.sort", n->b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, x));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, iota));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, x->type));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, it));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(ctx, &state, "dimension",
                                                      kiln_onnx_i64(n, axis)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "is_stable", kiln_ir_bool_attr_get(ctx, true)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  int64_t lo[MAXR], hi[MAXR], st[MAXR];
  for (size_t d = 0; d < r; ++d) {
    lo[d] = 0;
    hi[d] = (int64_t)d == axis ? k : x->type->shaped.dims[d];
    st[d] = 1;
  }
  value_t *values = NULL, *indices = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_slice(n, kiln_ir_op_result(op, 0), lo, hi, st, &values));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_slice(n, kiln_ir_op_result(op, 1), lo, hi, st, &indices));
  kiln_onnx_set(n, 0, values);
  kiln_onnx_set(n, 1, indices);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Recurrent layers (RNN, GRU, LSTM), unrolled over the static sequence
//===----------------------------------------------------------------------===//

typedef struct kiln_onnx_rnn_t {
  int kind;  // 0 RNN, 1 GRU, 2 LSTM
  int64_t hidden, batch, seq, dirs;
  const char* act[3];  // f, g, h (stablehlo op names; "relu" special)
  double clip;         // 0: none
  bool linear_before_reset;
} kiln_onnx_rnn_t;

static kiln_status_t kiln_onnx_rnn_act(node_t* n, const char* act, value_t* x,
                                       value_t** out) {
  if (!strcmp(act, "relu")) {
    value_t* zero = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &zero));
    return kiln_onnx_binary_same(n, "stablehlo.maximum", x, zero, out);
  }
  return kiln_onnx_unary(n, act, x, out);
}

// x [batch, k] times w [m, k] transposed -> [batch, m].
static kiln_status_t kiln_onnx_dot_t(node_t* n, value_t* x, value_t* w,
                                     value_t** out) {
  int64_t dims[2] = {x->type->shaped.dims[0], w->type->shaped.dims[0]};
  return kiln_onnx_dot(n, x, w, 0, 1, 1,
                       kiln_onnx_tensor(n, 2, dims, kiln_onnx_elem(x->type)),
                       out);
}

// Rows [g * hidden, (g + 1) * hidden) of a 2-D |w| (or elements of a 1-D).
static kiln_status_t kiln_onnx_gate(node_t* n, value_t* w, int64_t g,
                                    int64_t hidden, int64_t dim,
                                    value_t** out) {
  size_t r = kiln_onnx_rank(w->type);
  int64_t lo[2] = {0, 0}, hi[2], st[2] = {1, 1};
  for (size_t d = 0; d < r; ++d) hi[d] = w->type->shaped.dims[d];
  lo[dim] = g * hidden;
  hi[dim] = (g + 1) * hidden;
  return kiln_onnx_slice(n, w, lo, hi, st, out);
}

// Slice [d] of a [dirs, ...] operand, without the leading dim.
static kiln_status_t kiln_onnx_direction(node_t* n, value_t* v, int64_t d,
                                         value_t** out) {
  size_t r = kiln_onnx_rank(v->type);
  int64_t lo[MAXR], hi[MAXR], st[MAXR];
  for (size_t i = 0; i < r; ++i) {
    lo[i] = 0;
    hi[i] = v->type->shaped.dims[i];
    st[i] = 1;
  }
  lo[0] = d;
  hi[0] = d + 1;
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, v, lo, hi, st, &y));
  return kiln_onnx_reshape_to(n, y, r - 1, v->type->shaped.dims + 1, out);
}

static kiln_status_t kiln_onnx_lower_rnn(node_t* n) {
  const char* op = n->proto->op_type;
  kiln_onnx_rnn_t c;
  memset(&c, 0, sizeof(c));
  c.kind = !strcmp(op, "RNN") ? 0 : !strcmp(op, "GRU") ? 1 : 2;
  int gates = c.kind == 0 ? 1 : c.kind == 1 ? 3 : 4;
  value_t *x = NULL, *w = NULL, *rw = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &w));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &rw));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  if (kiln_onnx_rank(x->type) != 3 || kiln_onnx_rank(w->type) != 3 ||
      kiln_onnx_rank(rw->type) != 3) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "X, W and R must be 3-D");
  }
  bool batch_first = kiln_onnx_attr_int(n, "layout", 0) != 0;
  if (batch_first) {
    int64_t perm[3] = {1, 0, 2};
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, x, perm, &x));
  }
  c.seq = x->type->shaped.dims[0];
  c.batch = x->type->shaped.dims[1];
  c.hidden = kiln_onnx_attr_int(n, "hidden_size", rw->type->shaped.dims[2]);
  c.dirs = w->type->shaped.dims[0];
  bool reverse = kiln_onnx_attr_string_is(n, "direction", "forward", "reverse");
  bool bidi =
      kiln_onnx_attr_string_is(n, "direction", "forward", "bidirectional");
  if (c.dirs != (bidi ? 2 : 1) || w->type->shaped.dims[1] != gates * c.hidden ||
      rw->type->shaped.dims[1] != gates * c.hidden || c.seq > 512) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "weights do not match hidden_size/direction "
                                "(or the sequence is longer than 512)");
  }
  if (c.kind == 2 && kiln_onnx_attr_int(n, "input_forget", 0)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "input_forget is not supported");
  }
  const char* defaults[3][3] = {
      {"stablehlo.tanh", "", ""},
      {"stablehlo.logistic", "stablehlo.tanh", ""},
      {"stablehlo.logistic", "stablehlo.tanh", "stablehlo.tanh"}};
  int nact = c.kind == 0 ? 1 : c.kind == 1 ? 2 : 3;
  for (int i = 0; i < 3; ++i) c.act[i] = defaults[c.kind][i];
  const Onnx__AttributeProto* acts = kiln_onnx_attr(n, "activations");
  if (acts) {
    if (acts->n_strings != (size_t)(nact * c.dirs)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "activations has the wrong length");
    }
    for (size_t i = 0; i < acts->n_strings; ++i) {
      const ProtobufCBinaryData* a = &acts->strings[i];
      const char* name =
          a->len == 7 && !memcmp(a->data, "Sigmoid", 7) ? "stablehlo.logistic"
          : a->len == 4 && !memcmp(a->data, "Tanh", 4)  ? "stablehlo.tanh"
          : a->len == 4 && !memcmp(a->data, "Relu", 4)  ? "relu"
                                                        : NULL;
      if (!name || (i >= (size_t)nact && strcmp(name, c.act[i % nact]))) {
        return kiln_onnx_node_error(
            n, KILN_STATUS_UNIMPLEMENTED,
            "activation '%.*s' is not supported (Sigmoid, Tanh, Relu; the "
            "same for both directions)",
            (int)a->len, (const char*)a->data);
      }
      if (i < (size_t)nact) c.act[i] = name;
    }
  }
  c.clip = kiln_onnx_attr_float(n, "clip", 0.0);
  c.linear_before_reset = kiln_onnx_attr_int(n, "linear_before_reset", 0) != 0;
  value_t *bias = NULL, *lens = NULL, *h0 = NULL, *c0 = NULL, *peep = NULL;
  if (kiln_onnx_input(n, 3)) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 3, &bias));
  if (kiln_onnx_input(n, 4)) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 4, &lens));
  if (kiln_onnx_input(n, 5)) KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 5, &h0));
  if (c.kind == 2 && kiln_onnx_input(n, 6))
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 6, &c0));
  if (c.kind == 2 && kiln_onnx_input(n, 7))
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 7, &peep));
  if (batch_first) {
    int64_t perm[3] = {1, 0, 2};
    if (h0) KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, h0, perm, &h0));
    if (c0) KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, c0, perm, &c0));
  }
  const type_t* e = kiln_onnx_elem(x->type);
  int64_t bh[2] = {c.batch, c.hidden};
  const type_t* bht = kiln_onnx_tensor(n, 2, bh, e);
  value_t* lens_b = NULL;  // [batch, hidden] i64 sequence lengths
  if (lens) {
    int64_t zero = 0;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, lens, kiln_ir_int_type(n->context, 64), &lens));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_dims(n, lens, 2, bh, &zero, &lens_b));
  }
  value_t* y_steps[2][512];
  value_t* y_h[2] = {NULL, NULL};
  value_t* y_c[2] = {NULL, NULL};
  for (int64_t d = 0; d < c.dirs; ++d) {
    bool backward = reverse || (bidi && d == 1);
    value_t *wd = NULL, *rd = NULL, *h = NULL, *cc = NULL, *wb = NULL,
            *rb = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_direction(n, w, d, &wd));
    KILN_RETURN_IF_ERROR(kiln_onnx_direction(n, rw, d, &rd));
    value_t *wg[4] = {NULL}, *rg[4] = {NULL}, *wbg[4] = {NULL},
            *rbg[4] = {NULL}, *pg[3] = {NULL};
    for (int g = 0; g < gates; ++g) {
      KILN_RETURN_IF_ERROR(kiln_onnx_gate(n, wd, g, c.hidden, 0, &wg[g]));
      KILN_RETURN_IF_ERROR(kiln_onnx_gate(n, rd, g, c.hidden, 0, &rg[g]));
    }
    if (bias) {
      KILN_RETURN_IF_ERROR(kiln_onnx_direction(n, bias, d, &wb));
      for (int g = 0; g < gates; ++g) {
        KILN_RETURN_IF_ERROR(kiln_onnx_gate(n, wb, g, c.hidden, 0, &wbg[g]));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_gate(n, wb, g + gates, c.hidden, 0, &rbg[g]));
        int64_t one = 1;
        KILN_RETURN_IF_ERROR(
            kiln_onnx_broadcast_dims(n, wbg[g], 2, bh, &one, &wbg[g]));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_broadcast_dims(n, rbg[g], 2, bh, &one, &rbg[g]));
      }
      (void)rb;
    }
    if (peep) {
      value_t* pd = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_direction(n, peep, d, &pd));
      for (int g = 0; g < 3; ++g) {
        int64_t one = 1;
        KILN_RETURN_IF_ERROR(kiln_onnx_gate(n, pd, g, c.hidden, 0, &pg[g]));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_broadcast_dims(n, pg[g], 2, bh, &one, &pg[g]));
      }
    }
    if (h0) {
      KILN_RETURN_IF_ERROR(kiln_onnx_direction(n, h0, d, &h));
    } else {
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, bht, 0, &h));
    }
    if (c.kind == 2) {
      if (c0) {
        KILN_RETURN_IF_ERROR(kiln_onnx_direction(n, c0, d, &cc));
      } else {
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, bht, 0, &cc));
      }
    }
    for (int64_t step = 0; step < c.seq; ++step) {
      int64_t t = backward ? c.seq - 1 - step : step;
      int64_t lo[3] = {t, 0, 0},
              hi[3] = {t + 1, c.batch, x->type->shaped.dims[2]},
              st[3] = {1, 1, 1};
      value_t* xt = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &xt));
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, xt, 2, hi + 1, &xt));
      // pre[g] = Xt Wg^T + Wbg (+ Ht-1 Rg^T + Rbg unless GRU's h gate).
      value_t* pre[4];
      for (int g = 0; g < gates; ++g) {
        KILN_RETURN_IF_ERROR(kiln_onnx_dot_t(n, xt, wg[g], &pre[g]));
        if (wbg[g])
          KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", pre[g],
                                                     wbg[g], &pre[g]));
        if (c.kind == 1 && g == 2) continue;
        value_t* hr = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_dot_t(n, h, rg[g], &hr));
        if (rbg[g])
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.add", hr, rbg[g], &hr));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", pre[g], hr, &pre[g]));
      }
      value_t *hn = NULL, *cn = NULL;
      if (c.kind == 0) {
        if (c.clip > 0) {
          value_t *lo_c = NULL, *hi_c = NULL;
          KILN_RETURN_IF_ERROR(kiln_onnx_like(n, pre[0], -c.clip, &lo_c));
          KILN_RETURN_IF_ERROR(kiln_onnx_like(n, pre[0], c.clip, &hi_c));
          KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.maximum",
                                                     pre[0], lo_c, &pre[0]));
          KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.minimum",
                                                     pre[0], hi_c, &pre[0]));
        }
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[0], pre[0], &hn));
      } else if (c.kind == 1) {
        value_t *z = NULL, *rr = NULL, *hh = NULL, *one = NULL, *t1 = NULL,
                *t2 = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[0], pre[0], &z));
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[0], pre[1], &rr));
        if (c.linear_before_reset) {
          KILN_RETURN_IF_ERROR(kiln_onnx_dot_t(n, h, rg[2], &hh));
          if (rbg[2])
            KILN_RETURN_IF_ERROR(
                kiln_onnx_binary_same(n, "stablehlo.add", hh, rbg[2], &hh));
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.multiply", rr, hh, &hh));
        } else {
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.multiply", rr, h, &hh));
          KILN_RETURN_IF_ERROR(kiln_onnx_dot_t(n, hh, rg[2], &hh));
          if (rbg[2])
            KILN_RETURN_IF_ERROR(
                kiln_onnx_binary_same(n, "stablehlo.add", hh, rbg[2], &hh));
        }
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", pre[2], hh, &hh));
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[1], hh, &hh));
        KILN_RETURN_IF_ERROR(kiln_onnx_like(n, z, 1, &one));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.subtract", one, z, &t1));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", t1, hh, &t1));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", z, h, &t2));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", t1, t2, &hn));
      } else {
        // Gates i, o, f, c; peepholes i, o, f.
        value_t *ig = pre[0], *og = pre[1], *fg = pre[2], *cg = pre[3],
                *t1 = NULL;
        if (pg[0]) {
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.multiply", pg[0], cc, &t1));
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.add", ig, t1, &ig));
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.multiply", pg[2], cc, &t1));
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.add", fg, t1, &fg));
        }
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[0], ig, &ig));
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[0], fg, &fg));
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[1], cg, &cg));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", fg, cc, &cn));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", ig, cg, &t1));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", cn, t1, &cn));
        if (pg[1]) {
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.multiply", pg[1], cn, &t1));
          KILN_RETURN_IF_ERROR(
              kiln_onnx_binary_same(n, "stablehlo.add", og, t1, &og));
        }
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[0], og, &og));
        KILN_RETURN_IF_ERROR(kiln_onnx_rnn_act(n, c.act[2], cn, &t1));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.multiply", og, t1, &hn));
      }
      value_t* yt = hn;
      if (lens_b) {
        // Steps past a sequence's length keep its state and output zeros.
        value_t *tv = NULL, *live = NULL, *zero = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, lens_b->type, t, &tv));
        KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", tv, lens_b, &live));
        KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, bht, 0, &zero));
        KILN_RETURN_IF_ERROR(kiln_onnx_select(n, live, hn, zero, &yt));
        KILN_RETURN_IF_ERROR(kiln_onnx_select(n, live, hn, h, &hn));
        if (cn) KILN_RETURN_IF_ERROR(kiln_onnx_select(n, live, cn, cc, &cn));
      }
      h = hn;
      if (cn) cc = cn;
      y_steps[d][t] = yt;
    }
    y_h[d] = h;
    y_c[d] = cc;
  }
  // Y [seq, dirs, batch, hidden]; Y_h, Y_c [dirs, batch, hidden] (batch
  // first with layout 1).
  int64_t one_bh[3] = {1, c.batch, c.hidden};
  if (n->num_outputs > 0 && n->outputs[0].name[0]) {
    value_t* parts[1024];
    size_t np = 0;
    for (int64_t t = 0; t < c.seq; ++t) {
      for (int64_t d = 0; d < c.dirs; ++d) {
        int64_t dims4[4] = {1, 1, c.batch, c.hidden};
        KILN_RETURN_IF_ERROR(
            kiln_onnx_reshape_to(n, y_steps[d][t], 4, dims4, &parts[np++]));
      }
    }
    int64_t yd[4] = {c.seq, c.dirs, c.batch, c.hidden};
    value_t* y = parts[0];
    if (np > 1) {
      // Concatenate along dims 1 (directions) then 0 (time).
      value_t* rows[512];
      for (int64_t t = 0; t < c.seq; ++t) {
        rows[t] = parts[t * c.dirs];
        if (c.dirs > 1) {
          int64_t rd[4] = {1, c.dirs, c.batch, c.hidden};
          kiln_ir_named_attribute_t attr =
              kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 1));
          KILN_RETURN_IF_ERROR(kiln_onnx_emit(
              n, "stablehlo.concatenate", (size_t)c.dirs, &parts[t * c.dirs],
              kiln_onnx_tensor(n, 4, rd, e), 1, &attr, &rows[t]));
        }
      }
      y = rows[0];
      if (c.seq > 1) {
        kiln_ir_named_attribute_t attr =
            kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 0));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_emit(n, "stablehlo.concatenate", (size_t)c.seq, rows,
                           kiln_onnx_tensor(n, 4, yd, e), 1, &attr, &y));
      }
    }
    if (batch_first) {
      int64_t perm[4] = {2, 0, 1, 3};
      KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, y, perm, &y));
    }
    kiln_onnx_set(n, 0, y);
  }
  for (int which = 0; which < 2; ++which) {
    size_t out = (size_t)which + 1;
    value_t** src = which == 0 ? y_h : y_c;
    if (out >= n->num_outputs || !n->outputs[out].name[0] || !src[0]) continue;
    value_t* parts[2];
    for (int64_t d = 0; d < c.dirs; ++d) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_reshape_to(n, src[d], 3, one_bh, &parts[d]));
    }
    value_t* v = parts[0];
    if (c.dirs > 1) {
      int64_t dd[3] = {c.dirs, c.batch, c.hidden};
      kiln_ir_named_attribute_t attr =
          kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 0));
      KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.concatenate", 2, parts,
                                          kiln_onnx_tensor(n, 3, dd, e), 1,
                                          &attr, &v));
    }
    if (batch_first) {
      int64_t perm[3] = {1, 0, 2};
      KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, v, perm, &v));
    }
    kiln_onnx_set(n, out, v);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Index-tuple gathers and scatters, runtime-shaped slices and pads, Einsum,
// integer contractions
//===----------------------------------------------------------------------===//

// A structured #stablehlo.<name><...> attribute of integer-list params
// (|lists[i]| of |counts[i]|) and one integer param, index_vector_dim.
static const kiln_ir_attribute_t* kiln_onnx_index_dims_attr(
    node_t* n, const char* name, size_t num_lists, const char* const* keys,
    const int64_t* const* lists, const size_t* counts, int64_t ivd) {
  kiln_ir_context_t* ctx = n->context;
  kiln_ir_named_attribute_t params[8];
  char text[1024];
  int len = snprintf(text, sizeof(text), "#stablehlo.%s<", name);
  size_t np = 0;
  for (size_t i = 0; i < num_lists && np < 7; ++i) {
    if (!counts[i]) continue;
    len += snprintf(text + len, sizeof(text) - (size_t)len, "%s = [", keys[i]);
    for (size_t k = 0; k < counts[i]; ++k) {
      len += snprintf(text + len, sizeof(text) - (size_t)len, "%s%lld",
                      k ? ", " : "", (long long)lists[i][k]);
    }
    len += snprintf(text + len, sizeof(text) - (size_t)len, "], ");
    params[np++] = kiln_onnx_named(
        n, keys[i], kiln_onnx_int_list_attr(n, counts[i], lists[i]));
  }
  snprintf(text + len, sizeof(text) - (size_t)len, "index_vector_dim = %lld>",
           (long long)ivd);
  params[np++] = kiln_onnx_named(n, "index_vector_dim", kiln_onnx_i64(n, ivd));
  return kiln_ir_dialect_attr_get(
      ctx, kiln_ir_intern_cstr(ctx, "stablehlo"),
      kiln_ir_intern_cstr(ctx, name),
      kiln_make_cstring_view(kiln_ir_arena_printf(ctx, "%s", text)), true, np,
      params);
}

// A known i64 vector materialized as a constant.
static kiln_status_t kiln_onnx_i64_vector(node_t* n, size_t count,
                                          const int64_t* values,
                                          value_t** out) {
  int64_t c64 = (int64_t)count;
  const type_t* t =
      kiln_onnx_tensor(n, 1, &c64, kiln_ir_int_type(n->context, 64));
  kiln_onnx_const_t* c =
      kiln_onnx_make_const(n->context, t, values, count * sizeof(int64_t));
  if (!c) return KILN_ONNX_OOM();
  kiln_onnx_value_t tmp = {
      "constant", t, NULL, c, NULL, KILN_ONNX_KIND_TENSOR, 0, NULL, NULL};
  return kiln_onnx_materialize(n, &tmp, out);
}

// Index tuples [..., q] (any integer type) as i64 with negative components
// wrapped by the sizes of the data dims [first, first + q) they address.
static kiln_status_t kiln_onnx_wrap_tuples(node_t* n, value_t* idx,
                                           const type_t* data, size_t first,
                                           value_t** out) {
  size_t ir = kiln_onnx_rank(idx->type);
  size_t q = (size_t)idx->type->shaped.dims[ir - 1];
  value_t *sizes = NULL, *zero = NULL, *neg = NULL, *wrapped = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, idx, kiln_ir_int_type(n->context, 64), &idx));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_i64_vector(n, q, data->shaped.dims + first, &sizes));
  int64_t last = (int64_t)ir - 1;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(
      n, sizes, ir, idx->type->shaped.dims, &last, &sizes));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, idx, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", idx, zero, &neg));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", idx, sizes, &wrapped));
  return kiln_onnx_select(n, neg, wrapped, idx, out);
}

static void kiln_onnx_seq(int64_t* out, int64_t from, int64_t count) {
  for (int64_t i = 0; i < count; ++i) out[i] = from + i;
}

// GatherND: stablehlo.gather with the index tuples' last dim as the index
// vector, the leading batch_dims paired as batching dims.
static kiln_status_t kiln_onnx_lower_gather_nd(node_t* n) {
  value_t *x = NULL, *idx = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &idx));
  size_t r = kiln_onnx_rank(x->type), ir = kiln_onnx_rank(idx->type);
  int64_t b = kiln_onnx_attr_int(n, "batch_dims", 0);
  int64_t q = ir ? idx->type->shaped.dims[ir - 1] : -1;
  if (ir < 1 || b < 0 || (size_t)b >= ir || q < 1 || b + q > (int64_t)r) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "indices [..., q] must address at most rank - batch_dims dims");
  }
  for (int64_t d = 0; d < b; ++d) {
    if (x->type->shaped.dims[d] != idx->type->shaped.dims[d]) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "batch dim %lld differs between data and "
                                  "indices",
                                  (long long)d);
    }
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_wrap_tuples(n, idx, x->type, (size_t)b, &idx));
  int64_t dims[MAXR], sizes[MAXR], offset[MAXR], collapsed[MAXR],
      batching[MAXR], map[MAXR];
  size_t rank = 0, no = 0;
  for (size_t d = 0; d + 1 < ir; ++d) dims[rank++] = idx->type->shaped.dims[d];
  for (size_t d = 0; d < r; ++d) {
    bool sliced = (int64_t)d < b + q;
    sizes[d] = sliced ? 1 : x->type->shaped.dims[d];
    if (!sliced) {
      offset[no++] = (int64_t)rank;
      dims[rank++] = x->type->shaped.dims[d];
    }
  }
  kiln_onnx_seq(batching, 0, b);
  kiln_onnx_seq(collapsed, b, q);
  kiln_onnx_seq(map, b, q);
  const char* keys[5] = {"offset_dims", "collapsed_slice_dims",
                         "operand_batching_dims", "start_indices_batching_dims",
                         "start_index_map"};
  const int64_t* lists[5] = {offset, collapsed, batching, batching, map};
  size_t counts[5] = {no, (size_t)q, (size_t)b, (size_t)b, (size_t)q};
  const kiln_ir_attribute_t* dn = kiln_onnx_index_dims_attr(
      n, "gather", 5, keys, lists, counts, (int64_t)ir - 1);
  if (!dn) return KILN_ONNX_OOM();
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_onnx_named(n, "dimension_numbers", dn),
      kiln_onnx_named(n, "slice_sizes", kiln_onnx_i64_array(n, r, sizes)),
  };
  value_t* ops[2] = {x, idx};
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(
      n, "stablehlo.gather", 2, ops,
      kiln_onnx_tensor(n, rank, dims, kiln_onnx_elem(x->type)), 2, attrs, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// stablehlo.scatter of |upd| into |x| at the index tuples |idx| ([..., q],
// i64, in range) addressing |x|'s first q dims; |combiner| NULL: the update
// replaces the element (the last duplicate wins).
static kiln_status_t kiln_onnx_scatter(node_t* n, value_t* x, value_t* idx,
                                       value_t* upd, const char* combiner,
                                       value_t** out) {
  kiln_ir_context_t* ctx = n->context;
  size_t r = kiln_onnx_rank(x->type), ir = kiln_onnx_rank(idx->type);
  int64_t q = idx->type->shaped.dims[ir - 1];
  int64_t window[MAXR], inserted[MAXR];
  size_t nw = r - (size_t)q;
  kiln_onnx_seq(window, (int64_t)ir - 1, (int64_t)nw);
  kiln_onnx_seq(inserted, 0, q);
  const char* keys[3] = {"update_window_dims", "inserted_window_dims",
                         "scatter_dims_to_operand_dims"};
  const int64_t* lists[3] = {window, inserted, inserted};
  size_t counts[3] = {nw, (size_t)q, (size_t)q};
  const kiln_ir_attribute_t* dn = kiln_onnx_index_dims_attr(
      n, "scatter", 3, keys, lists, counts, (int64_t)ir - 1);
  if (!dn) return KILN_ONNX_OOM();
  // The update computation (old, new) -> combined.
  const type_t* scalar = kiln_onnx_tensor(n, 0, NULL, kiln_onnx_elem(x->type));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &region));
  kiln_ir_builder_t rb = kiln_ir_builder_make(ctx);
  rb.location = n->b->location;
  const type_t* arg_types[2] = {scalar, scalar};
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_block(&rb, region, 2, arg_types, &block));
  kiln_ir_value_t* result = block->args[1];
  if (combiner) {
    kiln_ir_op_t* combine = NULL;
    kiln_ir_value_t* args[2] = {block->args[0], block->args[1]};
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &rb, combiner, 2, args, 1, &scalar, 0, NULL, &combine));
    result = kiln_ir_op_result(combine, 0);
  }
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &rb, "stablehlo.return", 1, &result, 0, NULL, 0, NULL, &ret));
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.scatter", n->b->location);
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, x));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, idx));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_operand(ctx, &state, upd));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_result_type(ctx, &state, x->type));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      ctx, &state, "scatter_dimension_numbers", dn));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

// ScatterND: stablehlo.scatter whose update computation is the reduction
// (none: the update replaces the element; the last duplicate wins).
static kiln_status_t kiln_onnx_lower_scatter_nd(node_t* n) {
  value_t *x = NULL, *idx = NULL, *upd = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &idx));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &upd));
  size_t r = kiln_onnx_rank(x->type), ir = kiln_onnx_rank(idx->type);
  int64_t q = ir ? idx->type->shaped.dims[ir - 1] : -1;
  if (ir < 1 || q < 1 || q > (int64_t)r ||
      kiln_onnx_rank(upd->type) != ir - 1 + r - (size_t)q) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "updates must be indices.shape[:-1] + data.shape[q:]");
  }
  const char* combiner = NULL;
  if (kiln_onnx_attr_string_is(n, "reduction", "none", "add")) {
    combiner = "stablehlo.add";
  } else if (kiln_onnx_attr_string_is(n, "reduction", "none", "mul")) {
    combiner = "stablehlo.multiply";
  } else if (kiln_onnx_attr_string_is(n, "reduction", "none", "max")) {
    combiner = "stablehlo.maximum";
  } else if (kiln_onnx_attr_string_is(n, "reduction", "none", "min")) {
    combiner = "stablehlo.minimum";
  } else if (!kiln_onnx_attr_string_is(n, "reduction", "none", "none")) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "reduction must be none, add, mul, max or min");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_wrap_tuples(n, idx, x->type, 0, &idx));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_scatter(n, x, idx, upd, combiner, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Element [coords[0][o], ..., coords[r-1][o]] of |x| for every o of the
// coordinates' (common, i64) shape: one point gather.
static kiln_status_t kiln_onnx_gather_points(node_t* n, value_t* x,
                                             value_t* const* coords,
                                             value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  const type_t* ct = coords[0]->type;
  size_t cr = kiln_onnx_rank(ct);
  int64_t dims[MAXR];
  memcpy(dims, ct->shaped.dims, cr * sizeof(int64_t));
  dims[cr] = 1;
  value_t* parts[MAXR] = {NULL};
  for (size_t d = 0; d < r; ++d) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reshape_to(n, coords[d], cr + 1, dims, &parts[d]));
  }
  value_t* idx = parts[0];
  if (r > 1) {
    dims[cr] = (int64_t)r;
    kiln_ir_named_attribute_t attr =
        kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, (int64_t)cr));
    KILN_RETURN_IF_ERROR(kiln_onnx_emit(
        n, "stablehlo.concatenate", r, parts,
        kiln_onnx_tensor(n, cr + 1, dims, kiln_ir_int_type(n->context, 64)), 1,
        &attr, &idx));
  }
  int64_t ones[MAXR], all[MAXR];
  for (size_t d = 0; d < r; ++d) ones[d] = 1;
  kiln_onnx_seq(all, 0, (int64_t)r);
  const char* keys[2] = {"collapsed_slice_dims", "start_index_map"};
  const int64_t* lists[2] = {all, all};
  size_t counts[2] = {r, r};
  const kiln_ir_attribute_t* dn = kiln_onnx_index_dims_attr(
      n, "gather", 2, keys, lists, counts, (int64_t)cr);
  if (!dn) return KILN_ONNX_OOM();
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_onnx_named(n, "dimension_numbers", dn),
      kiln_onnx_named(n, "slice_sizes", kiln_onnx_i64_array(n, r, ones)),
  };
  value_t* ops[2] = {x, idx};
  return kiln_onnx_emit(
      n, "stablehlo.gather", 2, ops,
      kiln_onnx_tensor(n, cr, ct->shaped.dims, kiln_onnx_elem(x->type)), 2,
      attrs, out);
}

// Element |d| of a 1-D value, as a rank-0 value.
static kiln_status_t kiln_onnx_element(node_t* n, value_t* v, int64_t d,
                                       value_t** out) {
  int64_t lo = d, hi = d + 1, st = 1;
  value_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, v, &lo, &hi, &st, &s));
  return kiln_onnx_reshape_to(n, s, 0, NULL, out);
}

// |a| (rank 0) broadcast to |like|'s shape, then |a| op |b|.
static kiln_status_t kiln_onnx_scalar_op(node_t* n, const char* name,
                                         value_t* b, value_t* a,
                                         value_t** out) {
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, a, kiln_onnx_rank(b->type),
                                              b->type->shaped.dims, &a));
  return kiln_onnx_binary_same(n, name, b, a, out);
}

// Per data dim d: the entry of |values| (runtime 1-D, i64) whose axis is d,
// or |fill| where no axis is d. |axes| is the normalized axes (i64 [m]).
static kiln_status_t kiln_onnx_per_dim(node_t* n, value_t* values,
                                       value_t* axes, size_t r, int64_t fill,
                                       value_t** out) {
  int64_t m = axes->type->shaped.dims[0];
  int64_t rm[2] = {(int64_t)r, m};
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  value_t *ab = NULL, *vb = NULL, *io = NULL, *eq = NULL, *zero = NULL,
          *sel = NULL, *sum = NULL, *hit = NULL, *fv = NULL;
  int64_t one = 1;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, axes, 2, rm, &one, &ab));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, values, 2, rm, &one, &vb));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_iota(n, kiln_onnx_tensor(n, 2, rm, i64), 0, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", io, ab, &eq));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, vb, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, eq, vb, zero, &sel));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, sel, 1, &one, "stablehlo.add", 0, &sum));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, eq, 1, &one, "stablehlo.or", 0, &hit));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, sum->type, fill, &fv));
  return kiln_onnx_select(n, hit, sum, fv, out);
}

// A runtime 1-D integer input as i64, or |def| (count entries) when absent.
static kiln_status_t kiln_onnx_i64_input(node_t* n, size_t i, int64_t count,
                                         int64_t def_from, int64_t def_step,
                                         value_t** out) {
  if (kiln_onnx_input(n, i)) {
    value_t* v = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &v));
    return kiln_onnx_convert(n, v, kiln_ir_int_type(n->context, 64), out);
  }
  int64_t values[MAXR];
  for (int64_t k = 0; k < count && k < MAXR; ++k) {
    values[k] = def_from + k * def_step;
  }
  return kiln_onnx_i64_vector(n, (size_t)count, values, out);
}

// Whether the slice of dim |d| (size |dim|) from the clamped start |s|
// with step |k| (|pos|: k > 0) to end_d[d] has |want| elements, as a
// rank-0 i1: ends are wrapped and clamped as ONNX does ([0, dim] for
// positive steps, [-1, dim - 1] for negative ones), then the length is
// ceil(max(end - start, 0) / |step|), signs taken along the step.
static kiln_status_t kiln_onnx_slice_length_is(node_t* n, value_t* s,
                                               value_t* k, value_t* pos,
                                               value_t* end_d, size_t d,
                                               int64_t dim, int64_t want,
                                               value_t** out) {
  value_t *e = NULL, *z = NULL, *lt = NULL, *dv = NULL, *w = NULL, *lo = NULL,
          *hi = NULL, *num = NULL, *back = NULL, *kk = NULL, *one = NULL,
          *len = NULL, *target = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_element(n, end_d, (int64_t)d, &e));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, e, 0, &z));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, e, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, e, (double)dim, &dv));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", e, z, &lt));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", e, dv, &w));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, lt, w, e, &e));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, e, -1, &lo));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, z, lo, &lo));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, e, (double)(dim - 1), &hi));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, dv, hi, &hi));
  value_t* ops[3] = {lo, e, hi};
  KILN_RETURN_IF_ERROR(
      kiln_onnx_emit(n, "stablehlo.clamp", 3, ops, e->type, 0, NULL, &e));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", e, s, &num));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", s, e, &back));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, num, back, &num));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.maximum", num, z, &num));
  // |step|, at least 1 (a zero step is invalid ONNX).
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.abs", k, &kk));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.maximum", kk, one, &kk));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", num, kk, &len));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", len, one, &len));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", len, kk, &len));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, len, (double)want, &target));
  return kiln_onnx_compare(n, "EQ", len, target, out);
}

// Slice (opset 10+) whose starts/ends/axes/steps are runtime values: the
// graph's declared output type gives the result shape and each result
// element reads x[start + i * step] per dim (ends only decide the length,
// which the declared type already fixes).
static kiln_status_t kiln_onnx_lower_slice_runtime(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 3));
  const type_t* rt = n->declared[0];
  size_t r = kiln_onnx_rank(x->type);
  const type_t* st = n->inputs[1]->type;
  if (kiln_onnx_rank(rt) != r || kiln_onnx_rank(st) != 1 ||
      kiln_onnx_elem(rt) != kiln_onnx_elem(x->type)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "the declared result does not fit the input");
  }
  int64_t m = st->shaped.dims[0];
  value_t *starts = NULL, *axes = NULL, *steps = NULL, *zero = NULL,
          *neg = NULL, *wrapped = NULL, *dv = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_input(n, 1, m, 0, 0, &starts));
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_input(n, 3, m, 0, 1, &axes));
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_input(n, 4, m, 1, 0, &steps));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, axes, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, axes, (double)r, &dv));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", axes, zero, &neg));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", axes, dv, &wrapped));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, neg, wrapped, axes, &axes));
  value_t *start_d = NULL, *step_d = NULL, *ends = NULL, *end_d = NULL;
  value_t* ok = NULL;  // every dim's length is the declared one
  KILN_RETURN_IF_ERROR(kiln_onnx_per_dim(n, starts, axes, r, 0, &start_d));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_dim(n, steps, axes, r, 1, &step_d));
  // Dims without an axis run to their end.
  KILN_RETURN_IF_ERROR(kiln_onnx_i64_input(n, 2, m, 0, 0, &ends));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_dim(n, ends, axes, r, INT64_MAX, &end_d));
  value_t* coords[MAXR];
  const type_t* it =
      kiln_onnx_tensor(n, r, rt->shaped.dims, kiln_ir_int_type(n->context, 64));
  for (size_t d = 0; d < r; ++d) {
    int64_t dim = x->type->shaped.dims[d];
    value_t *s = NULL, *k = NULL, *z = NULL, *lt = NULL, *sw = NULL,
            *pos = NULL, *hi = NULL, *lo = NULL, *io = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_element(n, start_d, (int64_t)d, &s));
    KILN_RETURN_IF_ERROR(kiln_onnx_element(n, step_d, (int64_t)d, &k));
    // Negative starts count from the end; then clamp to [0, dim] for
    // positive steps and [0, dim - 1] for negative ones.
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, s, 0, &z));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", s, z, &lt));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, s, (double)dim, &hi));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", s, hi, &sw));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, lt, sw, s, &s));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", k, z, &pos));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, s, (double)(dim - 1), &lo));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, hi, lo, &hi));
    value_t* ops[3] = {z, s, hi};
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.clamp", 3, ops, s->type, 0, NULL, &s));
    value_t* same = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_slice_length_is(n, s, k, pos, end_d, d, dim,
                                                   rt->shaped.dims[d], &same));
    if (ok) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", ok, same, &ok));
    } else {
      ok = same;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)d, &io));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_scalar_op(n, "stablehlo.multiply", io, k, &io));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_scalar_op(n, "stablehlo.add", io, s, &coords[d]));
  }
  if (ok)
    KILN_RETURN_IF_ERROR(kiln_onnx_check_declared(n, ok, "the run-time slice"));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, x, coords, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Pad compiled for its declared type: pads[d] + pads[r + d] is declared
// dim d minus input dim d (|pads|: the run-time pads as i64 [2r]).
static kiln_status_t kiln_onnx_check_pad(node_t* n, value_t* x, value_t* pads) {
  const type_t* rt = n->declared[0];
  size_t r = kiln_onnx_rank(x->type);
  if (!r) return kiln_ok_status();
  int64_t lo0 = 0, hi0 = (int64_t)r, lo1 = (int64_t)r, hi1 = 2 * (int64_t)r;
  int64_t st = 1, grow[MAXR];
  for (size_t d = 0; d < r; ++d) {
    grow[d] = rt->shaped.dims[d] - x->type->shaped.dims[d];
  }
  value_t *begin = NULL, *end = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, pads, &lo0, &hi0, &st, &begin));
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, pads, &lo1, &hi1, &st, &end));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", begin, end, &begin));
  KILN_RETURN_IF_ERROR(kiln_onnx_equals_dims(n, begin, r, grow, &ok));
  return kiln_onnx_check_declared(n, ok, "run-time pads");
}

// Pad (opset 11+) whose pads are a runtime value: the declared output type
// gives the result shape; result index o reads x[o - pad_begin] (constant:
// the value outside, edge: clamped, reflect: mirrored about the ends).
static kiln_status_t kiln_onnx_lower_pad_runtime(node_t* n) {
  value_t *x = NULL, *pads = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  const type_t* rt = n->declared[0];
  size_t r = kiln_onnx_rank(x->type);
  if (kiln_onnx_input(n, 3)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "runtime pads with axes are not supported");
  }
  if (kiln_onnx_rank(rt) != r ||
      kiln_onnx_elem(rt) != kiln_onnx_elem(x->type) ||
      kiln_onnx_num_elements(n->inputs[1]->type) != 2 * (int64_t)r) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "the declared result does not fit the input");
  }
  int mode = kiln_onnx_attr_string_is(n, "mode", "constant", "constant")  ? 0
             : kiln_onnx_attr_string_is(n, "mode", "constant", "edge")    ? 1
             : kiln_onnx_attr_string_is(n, "mode", "constant", "reflect") ? 2
                                                                          : -1;
  if (mode < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "mode must be constant, edge or reflect");
  }
  int64_t two_r = 2 * (int64_t)r;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &pads));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, pads, kiln_ir_int_type(n->context, 64), &pads));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, pads, 1, &two_r, &pads));
  KILN_RETURN_IF_ERROR(kiln_onnx_check_pad(n, x, pads));
  const type_t* it =
      kiln_onnx_tensor(n, r, rt->shaped.dims, kiln_ir_int_type(n->context, 64));
  value_t* coords[MAXR];
  value_t* inside = NULL;
  for (size_t d = 0; d < r; ++d) {
    int64_t dim = x->type->shaped.dims[d];
    value_t *lo = NULL, *i = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_element(n, pads, (int64_t)d, &lo));
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)d, &i));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_scalar_op(n, "stablehlo.subtract", i, lo, &i));
    if (mode == 0) {
      value_t *z = NULL, *hi = NULL, *ge = NULL, *lt = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, i, 0, &z));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, i, (double)dim, &hi));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", i, z, &ge));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", i, hi, &lt));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", ge, lt, &ge));
      if (inside) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.and", inside, ge, &inside));
      } else {
        inside = ge;
      }
    } else if (mode == 2 && dim > 1) {
      // |i| folded into the period 2 (dim - 1), then mirrored.
      value_t *p = NULL, *top = NULL, *gt = NULL, *m = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.abs", i, &i));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, i, (double)(2 * (dim - 1)), &p));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.remainder", i, p, &i));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, i, (double)(dim - 1), &top));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", i, top, &gt));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", p, i, &m));
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, gt, m, i, &i));
    }
    // The gather clamps out-of-range indices: that is edge padding.
    coords[d] = i;
  }
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, x, coords, &y));
  if (mode == 0) {
    value_t* v = NULL;
    if (kiln_onnx_input(n, 2)) {
      KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &v));
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, v, 0, NULL, &v));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_broadcast_to(n, v, r, rt->shaped.dims, &v));
    } else {
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, y, 0, &v));
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, inside, y, v, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// One Einsum operand: its value and one label per dim.
typedef struct kiln_onnx_einsum_term_t {
  value_t* v;
  size_t rank;
  char labels[MAXR];
} kiln_onnx_einsum_term_t;

static bool kiln_onnx_has_label(const char* labels, size_t count, char c) {
  return memchr(labels, c, count) != NULL;
}

// Parses one comma-separated term of |eq| at |*p| into |labels|; '...'
// becomes |ell| labels from '0' up (ellipsis dims, counted from |rank|).
static kiln_status_t kiln_onnx_einsum_parse(node_t* n, const char** p,
                                            const char* end, size_t rank,
                                            bool rank_known, char* labels,
                                            size_t* out_count, size_t* io_ell) {
  size_t count = 0, letters = 0;
  const char* s = *p;
  for (const char* q = s; q < end && *q != ',' && *q != '-'; ++q) {
    if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) ++letters;
  }
  while (s < end && *s != ',' && *s != '-') {
    char c = *s;
    if (c == ' ') {
      ++s;
      continue;
    }
    if (c == '.') {
      if (end - s < 3 || s[1] != '.' || s[2] != '.') break;
      size_t ell = rank_known ? rank - letters : *io_ell;
      if (rank_known && rank < letters) break;
      if (rank_known && *io_ell != SIZE_MAX && ell > *io_ell) {
        // Broadcast ellipses align to the right: keep the longest.
        *io_ell = ell;
      } else if (*io_ell == SIZE_MAX) {
        *io_ell = ell;
      }
      for (size_t k = 0; k < ell && count < MAXR; ++k) {
        labels[count++] = (char)('0' + (*io_ell - ell) + k);
      }
      s += 3;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) || count >= MAXR) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "bad einsum equation");
    }
    labels[count++] = c;
    ++s;
  }
  if (rank_known && count != rank) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "einsum term does not match an input's rank");
  }
  *p = s;
  *out_count = count;
  return kiln_ok_status();
}

// Takes the diagonal of repeated labels and sums labels not in |keep|.
static kiln_status_t kiln_onnx_einsum_reduce(node_t* n,
                                             kiln_onnx_einsum_term_t* t,
                                             const char* keep,
                                             size_t keep_count) {
  for (size_t i = 0; i < t->rank; ++i) {
    for (size_t j = i + 1; j < t->rank; ++j) {
      if (t->labels[i] != t->labels[j]) continue;
      // x * (i == j), summed over j.
      value_t *a = NULL, *b = NULL, *eq = NULL, *z = NULL;
      const type_t* it = kiln_onnx_tensor(n, t->rank, t->v->type->shaped.dims,
                                          kiln_ir_int_type(n->context, 64));
      KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)i, &a));
      KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)j, &b));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", a, b, &eq));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t->v, 0, &z));
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, eq, t->v, z, &t->v));
      int64_t axis = (int64_t)j;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_reduce(n, t->v, 1, &axis, "stablehlo.add", 0, &t->v));
      memmove(t->labels + j, t->labels + j + 1, t->rank - j - 1);
      --t->rank;
      --j;
    }
  }
  int64_t axes[MAXR];
  size_t na = 0, kept = 0;
  for (size_t i = 0; i < t->rank; ++i) {
    if (kiln_onnx_has_label(keep, keep_count, t->labels[i])) {
      t->labels[kept++] = t->labels[i];
    } else {
      axes[na++] = (int64_t)i;
    }
  }
  if (na) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reduce(n, t->v, na, axes, "stablehlo.add", 0, &t->v));
  }
  t->rank = kept;
  return kiln_ok_status();
}

// Transposes |t| to the label order |order| (a permutation of its labels).
static kiln_status_t kiln_onnx_einsum_order(node_t* n,
                                            kiln_onnx_einsum_term_t* t,
                                            const char* order) {
  int64_t perm[MAXR];
  for (size_t i = 0; i < t->rank; ++i) {
    perm[i] = (const char*)memchr(t->labels, order[i], t->rank) - t->labels;
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, t->v, perm, &t->v));
  memcpy(t->labels, order, t->rank);
  return kiln_ok_status();
}

static int64_t kiln_onnx_einsum_dim(const kiln_onnx_einsum_term_t* t, char c) {
  const char* p = (const char*)memchr(t->labels, c, t->rank);
  return p ? t->v->type->shaped.dims[p - t->labels] : 1;
}

// a x b contracted over their common labels not in |keep|, as one batched
// dot_general of [B, M, K] x [B, K, N]; the result's labels are batch,
// a's free, b's free.
static kiln_status_t kiln_onnx_einsum_pair(node_t* n,
                                           kiln_onnx_einsum_term_t* a,
                                           kiln_onnx_einsum_term_t* b,
                                           const char* keep,
                                           size_t keep_count) {
  char batch[MAXR], ka[MAXR], fa[MAXR], fb[MAXR];
  size_t nb = 0, nk = 0, nfa = 0, nfb = 0;
  for (size_t i = 0; i < a->rank; ++i) {
    char c = a->labels[i];
    bool in_b = kiln_onnx_has_label(b->labels, b->rank, c);
    if (in_b && kiln_onnx_has_label(keep, keep_count, c)) {
      batch[nb++] = c;
    } else if (in_b) {
      ka[nk++] = c;
    } else {
      fa[nfa++] = c;
    }
  }
  for (size_t i = 0; i < b->rank; ++i) {
    if (!kiln_onnx_has_label(a->labels, a->rank, b->labels[i])) {
      fb[nfb++] = b->labels[i];
    }
  }
  int64_t B = 1, M = 1, K = 1, N = 1;
  for (size_t i = 0; i < nb; ++i) {
    if (kiln_onnx_einsum_dim(a, batch[i]) != kiln_onnx_einsum_dim(b, batch[i]))
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "einsum broadcasting of label '%c' is not "
                                  "supported",
                                  batch[i]);
    B *= kiln_onnx_einsum_dim(a, batch[i]);
  }
  for (size_t i = 0; i < nk; ++i) {
    if (kiln_onnx_einsum_dim(a, ka[i]) != kiln_onnx_einsum_dim(b, ka[i]))
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "einsum label '%c' has two sizes", ka[i]);
    K *= kiln_onnx_einsum_dim(a, ka[i]);
  }
  for (size_t i = 0; i < nfa; ++i) M *= kiln_onnx_einsum_dim(a, fa[i]);
  for (size_t i = 0; i < nfb; ++i) N *= kiln_onnx_einsum_dim(b, fb[i]);
  char oa[MAXR], ob[MAXR], out[MAXR];
  memcpy(oa, batch, nb);
  memcpy(oa + nb, fa, nfa);
  memcpy(oa + nb + nfa, ka, nk);
  memcpy(ob, batch, nb);
  memcpy(ob + nb, ka, nk);
  memcpy(ob + nb + nk, fb, nfb);
  KILN_RETURN_IF_ERROR(kiln_onnx_einsum_order(n, a, oa));
  KILN_RETURN_IF_ERROR(kiln_onnx_einsum_order(n, b, ob));
  int64_t da[3] = {B, M, K}, db[3] = {B, K, N}, dr[3] = {B, M, N};
  value_t *x = NULL, *y = NULL, *z = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, a->v, 3, da, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, b->v, 3, db, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_dot(n, x, y, 1, 2, 1,
                    kiln_onnx_tensor(n, 3, dr, kiln_onnx_elem(x->type)), &z));
  int64_t dims[MAXR];
  size_t rank = 0;
  for (size_t i = 0; i < nb; ++i) {
    out[rank] = batch[i];
    dims[rank++] = kiln_onnx_einsum_dim(a, batch[i]);
  }
  for (size_t i = 0; i < nfa; ++i) {
    out[rank] = fa[i];
    dims[rank++] = kiln_onnx_einsum_dim(a, fa[i]);
  }
  for (size_t i = 0; i < nfb; ++i) {
    out[rank] = fb[i];
    dims[rank++] = kiln_onnx_einsum_dim(b, fb[i]);
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, z, rank, dims, &a->v));
  a->rank = rank;
  memcpy(a->labels, out, rank);
  return kiln_ok_status();
}

// Einsum: diagonals and sums per operand, then pairwise batched matmuls
// left to right, then the output's label order.
static kiln_status_t kiln_onnx_lower_einsum(node_t* n) {
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, "equation");
  if (!a || !a->has_s || n->num_inputs < 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "equation and one input are required");
  }
  if (n->num_inputs > 8) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "at most 8 operands are supported");
  }
  const char* p = (const char*)a->s.data;
  const char* end = p + a->s.len;
  kiln_onnx_einsum_term_t terms[8];
  size_t ell = SIZE_MAX;
  // Two passes over the inputs: the first finds the widest ellipsis.
  for (int pass = 0; pass < 2; ++pass) {
    p = (const char*)a->s.data;
    for (size_t i = 0; i < n->num_inputs; ++i) {
      kiln_onnx_einsum_term_t* t = &terms[i];
      KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &t->v));
      size_t rank = kiln_onnx_rank(t->v->type);
      if (pass == 0) {
        char scratch[MAXR];
        size_t count = 0, e = SIZE_MAX;
        KILN_RETURN_IF_ERROR(kiln_onnx_einsum_parse(n, &p, end, rank, true,
                                                    scratch, &count, &e));
        if (e != SIZE_MAX && (ell == SIZE_MAX || e > ell)) ell = e;
      } else {
        size_t e = ell;
        KILN_RETURN_IF_ERROR(kiln_onnx_einsum_parse(n, &p, end, rank, true,
                                                    t->labels, &t->rank, &e));
      }
      while (p < end && *p == ' ') ++p;
      if (i + 1 < n->num_inputs) {
        if (p >= end || *p != ',') {
          return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                      "equation has fewer terms than inputs");
        }
        ++p;
      }
    }
  }
  // Output labels: explicit after '->', else the labels seen once, sorted,
  // after the ellipsis dims.
  char out[MAXR];
  size_t nout = 0;
  if (p + 1 < end && p[0] == '-' && p[1] == '>') {
    p += 2;
    size_t e = ell == SIZE_MAX ? 0 : ell;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_einsum_parse(n, &p, end, 0, false, out, &nout, &e));
  } else {
    if (ell != SIZE_MAX) {
      for (size_t k = 0; k < ell; ++k) out[nout++] = (char)('0' + k);
    }
    for (int c = 'A'; c <= 'z'; ++c) {
      size_t seen = 0;
      for (size_t i = 0; i < n->num_inputs; ++i) {
        for (size_t k = 0; k < terms[i].rank; ++k) {
          seen += terms[i].labels[k] == c;
        }
      }
      if (seen == 1 && nout < MAXR) out[nout++] = (char)c;
    }
  }
  // Per operand: keep the labels the output or another operand needs.
  for (size_t i = 0; i < n->num_inputs; ++i) {
    char keep[MAXR * 9];
    size_t nk = 0;
    memcpy(keep, out, nout);
    nk = nout;
    for (size_t j = 0; j < n->num_inputs; ++j) {
      if (j == i) continue;
      memcpy(keep + nk, terms[j].labels, terms[j].rank);
      nk += terms[j].rank;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_einsum_reduce(n, &terms[i], keep, nk));
  }
  kiln_onnx_einsum_term_t* acc = &terms[0];
  for (size_t i = 1; i < n->num_inputs; ++i) {
    char keep[MAXR * 9];
    memcpy(keep, out, nout);
    size_t nk = nout;
    for (size_t j = i + 1; j < n->num_inputs; ++j) {
      memcpy(keep + nk, terms[j].labels, terms[j].rank);
      nk += terms[j].rank;
    }
    if (kiln_onnx_elem(acc->v->type) != kiln_onnx_elem(terms[i].v->type)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "operand element types differ");
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_einsum_pair(n, acc, &terms[i], keep, nk));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_einsum_reduce(n, acc, out, nout));
  if (acc->rank != nout) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "an output label is not in any input");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_einsum_order(n, acc, out));
  kiln_onnx_set(n, 0, acc->v);
  return kiln_ok_status();
}

// |v| as i32 minus its zero point (input |zp_index| when given: a scalar,
// or 1-D along |axis| of |v|).
static kiln_status_t kiln_onnx_zero_shift(node_t* n, value_t* v,
                                          size_t zp_index, int64_t axis,
                                          value_t** out) {
  const type_t* i32 = kiln_ir_int_type(n->context, 32);
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, v, i32, &v));
  if (kiln_onnx_input(n, zp_index)) {
    value_t* zp = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, zp_index, &zp));
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, zp, i32, &zp));
    KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, zp, v->type, axis, &zp));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", v, zp, &v));
  }
  *out = v;
  return kiln_ok_status();
}

// |acc| (i32) as f32 times scale input |index| (scalar or 1-D along |axis|).
static kiln_status_t kiln_onnx_rescale(node_t* n, value_t* acc, size_t index,
                                       int64_t axis, value_t** out) {
  value_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, index, &s));
  if (!kiln_onnx_is_float(kiln_onnx_elem(s->type))) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "scales must be floating point");
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, acc, kiln_onnx_elem(s->type), &acc));
  KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, s, acc->type, axis, &s));
  return kiln_onnx_binary_same(n, "stablehlo.multiply", acc, s, out);
}

// The quantized result of a QLinear* op: |f| (the real-valued result)
// quantized with y_scale (input |index|) and y_zero_point (|index| + 1),
// whose type is the result's.
static kiln_status_t kiln_onnx_requantize(node_t* n, value_t* f, size_t index,
                                          value_t** out) {
  value_t *ys = NULL, *yz = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, index, &ys));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, index + 1, &yz));
  const type_t* qe = kiln_onnx_elem(yz->type);
  size_t r = kiln_onnx_rank(f->type);
  int64_t axis = r >= 2 ? (int64_t)r - 1 : 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, ys, f->type, axis, &ys));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, yz, kiln_onnx_elem(f->type), &yz));
  KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, yz, f->type, axis, &yz));
  return kiln_onnx_quantize(n, f, ys, yz, qe, out);
}

static kiln_status_t kiln_onnx_require_8bit(node_t* n, value_t* v) {
  const type_t* e = kiln_onnx_elem(v->type);
  if (e->kind != KILN_IR_TYPE_INTEGER || e->integer.width != 8) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "operands must be 8-bit integers");
  }
  return kiln_ok_status();
}

// MatMulInteger and QLinearMatMul: (a - a_zp) x (b - b_zp) in i32 (a's zero
// point per row, b's per column); QLinearMatMul rescales and requantizes.
static kiln_status_t kiln_onnx_lower_matmul_integer(node_t* n) {
  bool qlinear = !strcmp(n->proto->op_type, "QLinearMatMul");
  size_t ia = 0, ib = qlinear ? 3 : 1;
  value_t *a = NULL, *b = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, ia, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, ib, &b));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_8bit(n, a));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_8bit(n, b));
  size_t ra = kiln_onnx_rank(a->type), rb = kiln_onnx_rank(b->type);
  int64_t row = ra >= 2 ? (int64_t)ra - 2 : 0;
  int64_t col = (int64_t)rb - 1;
  KILN_RETURN_IF_ERROR(kiln_onnx_zero_shift(n, a, 2, row, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_zero_shift(n, b, qlinear ? 5 : 3, col, &b));
  KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, a, b, &y));
  if (qlinear) {
    size_t r = kiln_onnx_rank(y->type);
    int64_t yrow = r >= 2 ? (int64_t)r - 2 : 0, ycol = (int64_t)r - 1;
    if (ra < 2) yrow = 0;
    KILN_RETURN_IF_ERROR(kiln_onnx_rescale(n, y, 1, yrow, &y));
    value_t* bs = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 4, &bs));
    KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, bs, y->type, ycol, &bs));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", y, bs, &y));
    KILN_RETURN_IF_ERROR(kiln_onnx_requantize(n, y, 6, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// ConvInteger and QLinearConv: the convolution of (x - x_zp) and
// (w - w_zp, per output channel) in i32; QLinearConv adds the i32 bias,
// rescales by x_scale * w_scale (per output channel) and requantizes.
static kiln_status_t kiln_onnx_lower_conv_integer(node_t* n) {
  bool qlinear = !strcmp(n->proto->op_type, "QLinearConv");
  size_t ix = 0, iw = qlinear ? 3 : 1;
  value_t *x = NULL, *wt = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, ix, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, iw, &wt));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_8bit(n, x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_8bit(n, wt));
  KILN_RETURN_IF_ERROR(kiln_onnx_zero_shift(n, x, 2, 1, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_zero_shift(n, wt, qlinear ? 5 : 3, 0, &wt));
  KILN_RETURN_IF_ERROR(kiln_onnx_conv(n, x, wt, &y));
  if (qlinear) {
    if (kiln_onnx_input(n, 8)) {
      value_t* bias = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 8, &bias));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_convert(n, bias, kiln_ir_int_type(n->context, 32), &bias));
      KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, bias, y->type, &bias));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", y, bias, &y));
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_rescale(n, y, 1, 1, &y));
    value_t* ws = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 4, &ws));
    KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, ws, y->type, 1, &ws));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", y, ws, &y));
    // y_scale and y_zero_point are per tensor here.
    value_t *ys = NULL, *yz = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 6, &ys));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 7, &yz));
    const type_t* qe = kiln_onnx_elem(yz->type);
    KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, ys, y->type, 1, &ys));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, yz, kiln_onnx_elem(y->type), &yz));
    KILN_RETURN_IF_ERROR(kiln_onnx_quant_param(n, yz, y->type, 1, &yz));
    KILN_RETURN_IF_ERROR(kiln_onnx_quantize(n, y, ys, yz, qe, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// For each j < |count|: the position of the (j+1)-th true element of the
// 1-D i1 |cond| (the number of positions whose inclusive running count of
// trues is <= j), as i64 [count]. Past the last true it is cond's length.
static kiln_status_t kiln_onnx_true_positions(node_t* n, value_t* cond,
                                              int64_t count, value_t** out) {
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  int64_t c = cond->type->shaped.dims[0];
  int64_t lc[2] = {count, c};
  int64_t one = 1;
  value_t *cs = NULL, *io = NULL, *le = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, cond, i64, &cs));
  KILN_RETURN_IF_ERROR(kiln_onnx_prefix_sum(n, cs, 0, false, false, &cs));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, cs, 2, lc, &one, &cs));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_iota(n, kiln_onnx_tensor(n, 2, lc, i64), 0, &io));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LE", cs, io, &le));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, le, i64, &le));
  return kiln_onnx_reduce(n, le, 1, &one, "stablehlo.add", 0, out);
}

// The number of results of a data-dependent op: the declared size of
// output 0's dim |dim|, or a count from a known |cond| (nonzero entries).
static kiln_status_t kiln_onnx_result_count(node_t* n, size_t dim,
                                            const kiln_onnx_const_t* cond,
                                            int64_t* out) {
  if (n->declared[0] && dim < kiln_onnx_rank(n->declared[0])) {
    *out = n->declared[0]->shaped.dims[dim];
    return kiln_ok_status();
  }
  if (cond) {
    int64_t count = 0;
    for (int64_t i = 0; i < kiln_onnx_num_elements(cond->type); ++i) {
      count += kiln_onnx_known_double(cond, i) != 0;
    }
    *out = count;
    return kiln_ok_status();
  }
  return kiln_onnx_node_error(
      n, KILN_STATUS_UNIMPLEMENTED,
      "the result size depends on run-time values and the graph declares no "
      "static result shape");
}

// Compress: the selected slices gathered at the positions of the trues
// (the declared result fixes how many there are).
static kiln_status_t kiln_onnx_lower_compress(node_t* n) {
  value_t *x = NULL, *cond = NULL, *src = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &cond));
  if (kiln_onnx_rank(cond->type) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "condition must be 1-D");
  }
  int64_t axis = 0;
  size_t r = kiln_onnx_rank(x->type);
  bool has_axis = kiln_onnx_attr(n, "axis") != NULL;
  if (has_axis) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  } else {
    int64_t total = kiln_onnx_num_elements(x->type);
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 1, &total, &x));
    r = 1;
  }
  if (cond->type->shaped.dims[0] > x->type->shaped.dims[axis]) {
    int64_t lo = 0, hi = x->type->shaped.dims[axis], st = 1;
    KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, cond, &lo, &hi, &st, &cond));
  }
  int64_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_result_count(n, has_axis ? (size_t)axis : 0,
                                              n->inputs[1]->known, &count));
  KILN_RETURN_IF_ERROR(kiln_onnx_true_positions(n, cond, count, &src));
  int64_t dims[MAXR];
  memcpy(dims, x->type->shaped.dims, r * sizeof(int64_t));
  dims[axis] = count;
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_onnx_named(n, "dim", kiln_onnx_i64(n, axis)),
      kiln_onnx_named(n, "batch_dims", kiln_onnx_i64(n, 0)),
  };
  value_t* ops[2] = {x, src};
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(
      n, "stablehlo.torch_index_select", 2, ops,
      kiln_onnx_tensor(n, r, dims, kiln_onnx_elem(x->type)), 2, attrs, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// NonZero: the row-major positions of the nonzero elements, unravelled
// into [rank, count] coordinates (count from the declared result).
static kiln_status_t kiln_onnx_lower_nonzero(node_t* n) {
  value_t *x = NULL, *z = NULL, *nz = NULL, *src = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t count = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_result_count(n, 1, n->inputs[0]->known, &count));
  int64_t total = kiln_onnx_num_elements(x->type);
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 1, &total, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &z));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", x, z, &nz));
  KILN_RETURN_IF_ERROR(kiln_onnx_true_positions(n, nz, count, &src));
  value_t* rows[MAXR];
  int64_t row_dims[2] = {1, count}, stride = total;
  const type_t* shape_t = n->inputs[0]->type;
  for (size_t d = 0; d < r; ++d) {
    int64_t dim = shape_t->shaped.dims[d];
    stride = dim ? stride / dim : 0;
    value_t *s = NULL, *m = NULL, *q = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, src, (double)stride, &s));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, src, (double)dim, &m));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", src, s, &q));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.remainder", q, m, &q));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, q, 2, row_dims, &rows[d]));
  }
  int64_t dims[2] = {(int64_t)r, count};
  value_t* y = rows[0];
  if (r > 1) {
    kiln_ir_named_attribute_t attr =
        kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 0));
    KILN_RETURN_IF_ERROR(kiln_onnx_emit(
        n, "stablehlo.concatenate", r, rows,
        kiln_onnx_tensor(n, 2, dims, kiln_ir_int_type(n->context, 64)), 1,
        &attr, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// ReverseSequence: along time_axis, index t < len[b] reads len[b] - 1 - t.
static kiln_status_t kiln_onnx_lower_reverse_sequence(node_t* n) {
  value_t *x = NULL, *lens = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &lens));
  size_t r = kiln_onnx_rank(x->type);
  int64_t ba = kiln_onnx_attr_int(n, "batch_axis", 1);
  int64_t ta = kiln_onnx_attr_int(n, "time_axis", 0);
  if (r < 2 || ba == ta || ba < 0 || ba > 1 || ta < 0 || ta > 1 ||
      kiln_onnx_rank(lens->type) != 1 ||
      lens->type->shaped.dims[0] != x->type->shaped.dims[ba]) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "batch_axis and time_axis must be 0 and 1 "
                                "and sequence_lens [batch]");
  }
  const type_t* it = kiln_onnx_tensor(n, r, x->type->shaped.dims,
                                      kiln_ir_int_type(n->context, 64));
  value_t* coords[MAXR];
  for (size_t d = 0; d < r; ++d) {
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)d, &coords[d]));
  }
  value_t *l = NULL, *one = NULL, *rev = NULL, *lt = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, lens, kiln_ir_int_type(n->context, 64), &l));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_dims(n, l, r, x->type->shaped.dims, &ba, &l));
  value_t* t = coords[ta];
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, 1, &one));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", l, one, &rev));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", rev, t, &rev));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", t, l, &lt));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, lt, rev, t, &coords[ta]));
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, x, coords, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// Det of [..., k, k] for k <= 3 in closed form (cofactor expansion).
static kiln_status_t kiln_onnx_lower_det(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t k = r >= 2 ? x->type->shaped.dims[r - 1] : 0;
  if (r < 2 || x->type->shaped.dims[r - 2] != k || k < 1 || k > 3) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "only [..., k, k] with k <= 3 is supported");
  }
  value_t* a[3][3];
  for (int64_t i = 0; i < k; ++i) {
    for (int64_t j = 0; j < k; ++j) {
      int64_t lo[MAXR] = {0}, hi[MAXR], st[MAXR];
      for (size_t d = 0; d < r; ++d) {
        hi[d] = x->type->shaped.dims[d];
        st[d] = 1;
      }
      lo[r - 2] = i;
      hi[r - 2] = i + 1;
      lo[r - 1] = j;
      hi[r - 1] = j + 1;
      KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &a[i][j]));
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(
          n, a[i][j], r - 2, x->type->shaped.dims, &a[i][j]));
    }
  }
  const char* mul = "stablehlo.multiply";
  value_t* y = a[0][0];
  if (k == 2) {
    value_t *p = NULL, *q = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, a[0][0], a[1][1], &p));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, a[0][1], a[1][0], &q));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", p, q, &y));
  } else if (k == 3) {
    y = NULL;
    for (int j = 0; j < 3; ++j) {
      int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      // a0j * (a1j1 a2j2 - a1j2 a2j1): cyclic cofactors carry the sign.
      value_t *p = NULL, *q = NULL, *m = NULL, *t = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, mul, a[1][j1], a[2][j2], &p));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, mul, a[1][j2], a[2][j1], &q));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", p, q, &m));
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, a[0][j], m, &t));
      if (y) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", y, t, &y));
      } else {
        y = t;
      }
    }
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// A [rows, cols] constant of element |e| with entry (j, k) = f(2 pi j k / L)
// (cos, or sin when |sine|).
static kiln_status_t kiln_onnx_dft_matrix(node_t* n, const type_t* e,
                                          int64_t rows, int64_t cols,
                                          int64_t length, bool sine,
                                          value_t** out) {
  int64_t dims[2] = {rows, cols};
  const type_t* t = kiln_onnx_tensor(n, 2, dims, e);
  kiln_onnx_const_t* c = kiln_onnx_alloc_const(n, t);
  if (!c) return KILN_ONNX_OOM();
  for (int64_t j = 0; j < rows; ++j) {
    for (int64_t k = 0; k < cols; ++k) {
      // (j * k) mod L keeps the angle small, so it is accurate.
      double angle = 2.0 * M_PI * (double)((j * k) % length) / (double)length;
      kiln_onnx_store((uint8_t*)c->data, e, j * cols + k,
                      sine ? sin(angle) : cos(angle), 0, true);
    }
  }
  kiln_onnx_value_t tmp = {"dft_matrix",          t, NULL, c,   NULL,
                           KILN_ONNX_KIND_TENSOR, 0, NULL, NULL};
  return kiln_onnx_materialize(n, &tmp, out);
}

// The DFT along the last dim of |xr| (+ i |xi|, NULL: real) of length
// |length| (the input is cut or zero-extended to it), bins [0, |bins|):
// Y = X (C -/+ i S), scaled by 1 / length when |inverse|.
static kiln_status_t kiln_onnx_dft_last(node_t* n, value_t* xr, value_t* xi,
                                        int64_t length, int64_t bins,
                                        bool inverse, value_t** out_r,
                                        value_t** out_i) {
  size_t r = kiln_onnx_rank(xr->type);
  int64_t len = xr->type->shaped.dims[r - 1];
  if (len > length) {
    int64_t lo[MAXR] = {0}, hi[MAXR], st[MAXR];
    for (size_t d = 0; d < r; ++d) {
      hi[d] = xr->type->shaped.dims[d];
      st[d] = 1;
    }
    hi[r - 1] = length;
    KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, xr, lo, hi, st, &xr));
    if (xi) KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, xi, lo, hi, st, &xi));
    len = length;
  }
  const type_t* e = kiln_onnx_elem(xr->type);
  value_t *c = NULL, *s = NULL, *yr = NULL, *yi = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_dft_matrix(n, e, len, bins, length, false, &c));
  KILN_RETURN_IF_ERROR(kiln_onnx_dft_matrix(n, e, len, bins, length, true, &s));
  // Forward: yr = xr C + xi S, yi = xi C - xr S; inverse flips S's sign.
  KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, xr, c, &yr));
  KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, xr, s, &yi));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.negate", yi, &yi));
  if (inverse)
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.negate", yi, &yi));
  if (xi) {
    value_t *ic = NULL, *is = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, xi, c, &ic));
    KILN_RETURN_IF_ERROR(kiln_onnx_matmul(n, xi, s, &is));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(
        n, inverse ? "stablehlo.subtract" : "stablehlo.add", yr, is, &yr));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", yi, ic, &yi));
  }
  if (inverse) {
    value_t* scale = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, yr, 1.0 / (double)length, &scale));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", yr, scale, &yr));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", yi, scale, &yi));
  }
  *out_r = yr;
  *out_i = yi;
  return kiln_ok_status();
}

// Component |k| of a [..., 1|2] complex-or-real tensor (without the dim).
static kiln_status_t kiln_onnx_component(node_t* n, value_t* x, int64_t k,
                                         value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  int64_t lo[MAXR] = {0}, hi[MAXR], st[MAXR];
  for (size_t d = 0; d < r; ++d) {
    hi[d] = x->type->shaped.dims[d];
    st[d] = 1;
  }
  lo[r - 1] = k;
  hi[r - 1] = k + 1;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &x));
  return kiln_onnx_reshape_to(n, x, r - 1, x->type->shaped.dims, out);
}

// [..., 2] from the real and imaginary parts.
static kiln_status_t kiln_onnx_complex(node_t* n, value_t* re, value_t* im,
                                       value_t** out) {
  size_t r = kiln_onnx_rank(re->type);
  int64_t dims[MAXR];
  memcpy(dims, re->type->shaped.dims, r * sizeof(int64_t));
  dims[r] = 1;
  value_t* parts[2];
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, re, r + 1, dims, &parts[0]));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, im, r + 1, dims, &parts[1]));
  dims[r] = 2;
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, (int64_t)r));
  return kiln_onnx_emit(
      n, "stablehlo.concatenate", 2, parts,
      kiln_onnx_tensor(n, r + 1, dims, kiln_onnx_elem(re->type)), 1, &attr,
      out);
}

// DFT (opset 17: axis attribute; 20: axis input) as matmuls with constant
// cos/sin matrices along the (moved-last) axis.
static kiln_status_t kiln_onnx_lower_dft(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t parts = r ? x->type->shaped.dims[r - 1] : 0;
  if (r < 2 || (parts != 1 && parts != 2)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "input must be [..., 1] or [..., 2]");
  }
  int64_t axis = kiln_onnx_attr_int(n, "axis", 1);
  if (n->opset >= 20) {
    int64_t v[1], count = -1;
    axis = -2;
    KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 2, "axis", v, 1, &count));
    if (count == 1) axis = v[0];
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_norm_axis(n, axis, r, &axis));
  if (axis == (int64_t)r - 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "axis must not be the complex dim");
  }
  int64_t length = x->type->shaped.dims[axis], v[1], count = -1;
  KILN_RETURN_IF_ERROR(kiln_onnx_known_ints(n, 1, "dft_length", v, 1, &count));
  if (count == 1) length = v[0];
  if (length < 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "dft_length must be positive");
  }
  bool inverse = kiln_onnx_attr_int(n, "inverse", 0) != 0;
  bool onesided = kiln_onnx_attr_int(n, "onesided", 0) != 0;
  if (onesided && (inverse || parts == 2)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "onesided is supported for forward real "
                                "transforms only");
  }
  int64_t bins = onesided ? length / 2 + 1 : length;
  value_t *xr = NULL, *xi = NULL, *yr = NULL, *yi = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_component(n, x, 0, &xr));
  if (parts == 2) KILN_RETURN_IF_ERROR(kiln_onnx_component(n, x, 1, &xi));
  // Move the axis last (swap with the last of the r - 1 dims).
  int64_t perm[MAXR];
  kiln_onnx_seq(perm, 0, (int64_t)r - 1);
  perm[axis] = (int64_t)r - 2;
  perm[r - 2] = axis;
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, xr, perm, &xr));
  if (xi) KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, xi, perm, &xi));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_dft_last(n, xr, xi, length, bins, inverse, &yr, &yi));
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, yr, perm, &yr));
  KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, yi, perm, &yi));
  KILN_RETURN_IF_ERROR(kiln_onnx_complex(n, yr, yi, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// STFT (opset 17) of a real signal [batch, length, 1]: frames read at
// f * frame_step (a runtime value is fine: the declared result fixes the
// frame count), times the window, then the onesided DFT of each frame.
static kiln_status_t kiln_onnx_lower_stft(node_t* n) {
  value_t *x = NULL, *step = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &step));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  if (r != 3 || x->type->shaped.dims[2] != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "only real signals [batch, length, 1] are "
                                "supported");
  }
  kiln_onnx_value_t* win = kiln_onnx_input(n, 2);
  int64_t flen = -1, v[1], count = -1;
  if (kiln_onnx_input(n, 3) && kiln_onnx_input(n, 3)->known) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_known_ints(n, 3, "frame_length", v, 1, &count));
    flen = v[0];
  } else if (win && kiln_onnx_rank(win->type) == 1) {
    flen = win->type->shaped.dims[0];
  }
  const type_t* rt = n->declared[0];
  if (flen < 1 || !rt || kiln_onnx_rank(rt) != 4) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED,
        "the frame length must be known at import (a known frame_length or "
        "a window) and the graph must declare the result shape");
  }
  bool onesided = kiln_onnx_attr_int(n, "onesided", 1) != 0;
  int64_t batch = x->type->shaped.dims[0], frames = rt->shaped.dims[1];
  int64_t bins = onesided ? flen / 2 + 1 : flen;
  // Frame samples: signal[b, f * step + j].
  int64_t fd[3] = {batch, frames, flen};
  const type_t* it =
      kiln_onnx_tensor(n, 3, fd, kiln_ir_int_type(n->context, 64));
  value_t *b = NULL, *f = NULL, *j = NULL, *s = NULL, *zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 0, &b));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 1, &f));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 2, &j));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, step, kiln_ir_int_type(n->context, 64), &s));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, s, 0, NULL, &s));
  KILN_RETURN_IF_ERROR(kiln_onnx_scalar_op(n, "stablehlo.multiply", f, s, &f));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", f, j, &f));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, b, 0, &zero));
  value_t* coords[3] = {b, f, zero};
  value_t *frames_v = NULL, *yr = NULL, *yi = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, x, coords, &frames_v));
  if (win) {
    value_t* w = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &w));
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, w, kiln_onnx_elem(x->type), &w));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, w, 3, fd, &w));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", frames_v, w, &frames_v));
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_dft_last(n, frames_v, NULL, flen, bins, false, &yr, &yi));
  KILN_RETURN_IF_ERROR(kiln_onnx_complex(n, yr, yi, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// |x| op constant |c|.
static kiln_status_t kiln_onnx_op_const(node_t* n, const char* name, value_t* x,
                                        double c, value_t** out) {
  value_t* k = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, c, &k));
  return kiln_onnx_binary_same(n, name, x, k, out);
}

// GridSample's coordinate padding (PyTorch's grid_sample semantics, which
// ONNX follows): border clamps to [0, size - 1]; reflection mirrors about
// the edges (align_corners: the extreme pixel centres, else the image
// borders) and then clamps.
static kiln_status_t kiln_onnx_grid_pad(node_t* n, value_t* x, int64_t size,
                                        int padding, bool align,
                                        value_t** out) {
  if (padding == 0) {
    *out = x;
    return kiln_ok_status();
  }
  if (padding == 2) {
    double lo = align ? 0.0 : -0.5;
    double span = align ? (double)(size - 1) : (double)size;
    if (span <= 0) {
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &x));
    } else {
      value_t *extra = NULL, *flips = NULL, *odd = NULL, *z = NULL,
              *back = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.subtract", x, lo, &x));
      KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.abs", x, &x));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.remainder", x, span, &extra));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.divide", x, span, &flips));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_unary(n, "stablehlo.floor", flips, &flips));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.remainder", flips, 2, &odd));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, odd, 0, &z));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", odd, z, &odd));
      // Even flips: lo + extra; odd: lo + span - extra.
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, extra, span, &back));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", back, extra, &back));
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, odd, back, extra, &x));
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", x, lo, &x));
    }
  }
  value_t *lo = NULL, *hi = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, 0, &lo));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, x, (double)(size - 1), &hi));
  value_t* ops[3] = {lo, x, hi};
  return kiln_onnx_emit(n, "stablehlo.clamp", 3, ops, x->type, 0, NULL, out);
}

// X[n, c, y, x] at integer-valued float coordinates, 0 outside the image.
static kiln_status_t kiln_onnx_grid_tap(node_t* n, value_t* image,
                                        value_t* const* nc, value_t* fy,
                                        value_t* fx, value_t** out) {
  int64_t h = image->type->shaped.dims[2], w = image->type->shaped.dims[3];
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  value_t *inside = NULL, *t = NULL, *v = NULL, *z = NULL, *coords[4];
  value_t* f[2] = {fy, fx};
  int64_t sizes[2] = {h, w};
  for (int k = 0; k < 2; ++k) {
    value_t *lo = NULL, *hi = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, f[k], 0, &lo));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, f[k], (double)(sizes[k] - 1), &hi));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", f[k], lo, &lo));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LE", f[k], hi, &hi));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.and", lo, hi, &t));
    if (inside) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", inside, t, &inside));
    } else {
      inside = t;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, f[k], i64, &coords[2 + k]));
  }
  coords[0] = nc[0];
  coords[1] = nc[1];
  KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, image, coords, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, v, 0, &z));
  return kiln_onnx_select(n, inside, v, z, out);
}

// The 4 cubic convolution weights (A = -0.75) of fraction |t|.
static kiln_status_t kiln_onnx_cubic_weights(node_t* n, value_t* t,
                                             value_t** w) {
  const double A = -0.75;
  const char* mul = "stablehlo.multiply";
  for (int k = 0; k < 4; ++k) {
    // Distance of tap k (at -1, 0, 1, 2) from the sample point.
    value_t* d = NULL;
    if (k == 0) {
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", t, 1, &d));
    } else if (k == 1) {
      d = t;
    } else {
      value_t* c = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, (double)(k - 1), &c));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", c, t, &d));
    }
    value_t* y = NULL;
    if (k == 0 || k == 3) {
      // ((A d - 5A) d + 8A) d - 4A for 1 <= d < 2.
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, mul, d, A, &y));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.subtract", y, 5 * A, &y));
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, y, d, &y));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.add", y, 8 * A, &y));
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, y, d, &y));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.subtract", y, 4 * A, &y));
    } else {
      // ((A + 2) d - (A + 3)) d d + 1 for d < 1.
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, mul, d, A + 2, &y));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.subtract", y, A + 3, &y));
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, y, d, &y));
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, mul, y, d, &y));
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", y, 1, &y));
    }
    w[k] = y;
  }
  return kiln_ok_status();
}

// GridSample (opset 16, 4-D): grid coordinates in [-1, 1] unnormalized to
// pixels, padded as padding_mode says, then sampled (nearest: round half
// to even; bilinear: 4 taps; bicubic: 16 taps, each tap padded) by point
// gathers, out-of-image taps reading 0.
static kiln_status_t kiln_onnx_lower_grid_sample(node_t* n) {
  value_t *x = NULL, *grid = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &grid));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  const type_t* xt = x->type;
  const type_t* gt = grid->type;
  if (kiln_onnx_rank(xt) != 4 || kiln_onnx_rank(gt) != 4 ||
      gt->shaped.dims[3] != 2 || gt->shaped.dims[0] != xt->shaped.dims[0]) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "only X [N, C, H, W] and grid [N, H', W', 2] "
                                "are supported");
  }
  int mode = kiln_onnx_attr_string_is(n, "mode", "bilinear", "nearest") ? 0
             : kiln_onnx_attr_string_is(n, "mode", "bilinear", "bilinear") ||
                     kiln_onnx_attr_string_is(n, "mode", "bilinear", "linear")
                 ? 1
             : kiln_onnx_attr_string_is(n, "mode", "bilinear", "bicubic") ||
                     kiln_onnx_attr_string_is(n, "mode", "bilinear", "cubic")
                 ? 2
                 : -1;
  int padding =
      kiln_onnx_attr_string_is(n, "padding_mode", "zeros", "zeros")        ? 0
      : kiln_onnx_attr_string_is(n, "padding_mode", "zeros", "border")     ? 1
      : kiln_onnx_attr_string_is(n, "padding_mode", "zeros", "reflection") ? 2
                                                                           : -1;
  if (mode < 0 || padding < 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "unknown mode or padding_mode");
  }
  bool align = kiln_onnx_attr_int(n, "align_corners", 0) != 0;
  const type_t* e = kiln_onnx_elem(xt);
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, grid, e, &grid));
  int64_t od[4] = {xt->shaped.dims[0], xt->shaped.dims[1], gt->shaped.dims[1],
                   gt->shaped.dims[2]};
  int64_t bd[3] = {0, 2, 3};
  value_t* nc[2];
  const type_t* it =
      kiln_onnx_tensor(n, 4, od, kiln_ir_int_type(n->context, 64));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 0, &nc[0]));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 1, &nc[1]));
  // f[0] = y (from grid[..., 1]), f[1] = x (grid[..., 0]), unnormalized.
  value_t* f[2];
  int64_t sizes[2] = {xt->shaped.dims[2], xt->shaped.dims[3]};
  for (int k = 0; k < 2; ++k) {
    value_t* g = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_component(n, grid, 1 - k, &g));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, g, 4, od, bd, &g));
    KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", g, 1, &g));
    if (align) {
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(
          n, "stablehlo.multiply", g, (double)(sizes[k] - 1) / 2.0, &g));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.multiply", g, (double)sizes[k], &g));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.subtract", g, 1, &g));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.multiply", g, 0.5, &g));
    }
    if (mode != 2) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_grid_pad(n, g, sizes[k], padding, align, &g));
    }
    f[k] = g;
  }
  value_t* y = NULL;
  if (mode == 0) {
    value_t *ry = NULL, *rx = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_unary(n, "stablehlo.round_nearest_even", f[0], &ry));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_unary(n, "stablehlo.round_nearest_even", f[1], &rx));
    KILN_RETURN_IF_ERROR(kiln_onnx_grid_tap(n, x, nc, ry, rx, &y));
    kiln_onnx_set(n, 0, y);
    return kiln_ok_status();
  }
  // Per axis: the first tap (floor, minus 1 for bicubic) and the weights.
  int taps = mode == 1 ? 2 : 4;
  value_t *base[2], *w[2][4];
  for (int k = 0; k < 2; ++k) {
    value_t *fl = NULL, *t = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.floor", f[k], &fl));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", f[k], fl, &t));
    if (mode == 1) {
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, 1, &w[k][0]));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", w[k][0], t, &w[k][0]));
      w[k][1] = t;
      base[k] = fl;
    } else {
      KILN_RETURN_IF_ERROR(kiln_onnx_cubic_weights(n, t, w[k]));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.subtract", fl, 1, &base[k]));
    }
  }
  for (int a = 0; a < taps; ++a) {
    value_t* ty = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.add", base[0], (double)a, &ty));
    if (mode == 2) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_grid_pad(n, ty, sizes[0], padding, align, &ty));
    }
    for (int b = 0; b < taps; ++b) {
      value_t *tx = NULL, *v = NULL, *wt = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.add", base[1], (double)b, &tx));
      if (mode == 2) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_grid_pad(n, tx, sizes[1], padding, align, &tx));
      }
      KILN_RETURN_IF_ERROR(kiln_onnx_grid_tap(n, x, nc, ty, tx, &v));
      KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.multiply",
                                                 w[0][a], w[1][b], &wt));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", v, wt, &v));
      if (y) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", y, v, &y));
      } else {
        y = v;
      }
    }
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// BatchNormalization with training_mode=1 (opset 14+): normalized with the
// batch's mean and (biased) variance over all dims but 1; the running
// statistics outputs blend the inputs' with them by momentum.
static kiln_status_t kiln_onnx_lower_batch_norm_training(node_t* n) {
  value_t *x = NULL, *scale = NULL, *bias = NULL, *mean = NULL, *var = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  size_t r = kiln_onnx_rank(x->type);
  if (r < 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT, "rank < 2");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &scale));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bias));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 3, &mean));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 4, &var));
  int64_t axes[MAXR], count = 1;
  size_t na = 0;
  for (size_t d = 0; d < r; ++d) {
    if (d == 1) continue;
    axes[na++] = (int64_t)d;
    count *= x->type->shaped.dims[d];
  }
  value_t *bm = NULL, *bv = NULL, *c = NULL, *sq = NULL, *t = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, x, na, axes, "stablehlo.add", 0, &bm));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_op_const(n, "stablehlo.divide", bm, (double)count, &bm));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, bm, x->type, &t));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", x, t, &c));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", c, c, &sq));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, sq, na, axes, "stablehlo.add", 0, &bv));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_op_const(n, "stablehlo.divide", bv, (double)count, &bv));
  value_t *inv = NULL, *y = NULL, *s = NULL, *b = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_op_const(
      n, "stablehlo.add", bv, kiln_onnx_attr_float(n, "epsilon", 1e-5), &inv));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.rsqrt", inv, &inv));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, inv, x->type, &inv));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, scale, x->type, &s));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_channel(n, bias, x->type, &b));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", c, inv, &y));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", y, s, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", y, b, &y));
  kiln_onnx_set(n, 0, y);
  double momentum = kiln_onnx_attr_float(n, "momentum", 0.9);
  value_t* stats[2] = {mean, var};
  value_t* batch[2] = {bm, bv};
  for (int k = 0; k < 2; ++k) {
    if (n->num_outputs <= (size_t)k + 1 || !n->outputs[k + 1].name[0]) continue;
    value_t *old = NULL, *cur = NULL, *out = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, batch[k], kiln_onnx_elem(stats[k]->type), &cur));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", stats[k], momentum, &old));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", cur, 1.0 - momentum, &cur));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", old, cur, &out));
    kiln_onnx_set(n, (size_t)k + 1, out);
  }
  return kiln_ok_status();
}

// Slice [.., k, ..] of |x| along |axis|, without that dim.
static kiln_status_t kiln_onnx_take(node_t* n, value_t* x, size_t axis,
                                    int64_t k, value_t** out) {
  size_t r = kiln_onnx_rank(x->type);
  int64_t lo[MAXR] = {0}, hi[MAXR], st[MAXR], dims[MAXR];
  size_t nd = 0;
  for (size_t d = 0; d < r; ++d) {
    hi[d] = x->type->shaped.dims[d];
    st[d] = 1;
    if (d != axis) dims[nd++] = x->type->shaped.dims[d];
  }
  lo[axis] = k;
  hi[axis] = k + 1;
  KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &x));
  return kiln_onnx_reshape_to(n, x, nd, dims, out);
}

// sum over the last dim of select(mask, v, 0): the one selected entry.
static kiln_status_t kiln_onnx_pick(node_t* n, value_t* mask, value_t* v,
                                    value_t** out) {
  value_t* z = NULL;
  int64_t last = (int64_t)kiln_onnx_rank(v->type) - 1;
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, v, 0, &z));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, mask, v, z, &v));
  return kiln_onnx_reduce(n, v, 1, &last, "stablehlo.add", 0, out);
}

// An optional rank-0/[1] input as a rank-0 value of |e| (|def| if absent).
static kiln_status_t kiln_onnx_opt_scalar(node_t* n, size_t i, const type_t* e,
                                          double def, value_t** out) {
  if (!kiln_onnx_input(n, i)) {
    return kiln_onnx_splat(n, kiln_onnx_tensor(n, 0, NULL, e), def, out);
  }
  value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &v));
  if (kiln_onnx_num_elements(v->type) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "input %zu must hold one value", i);
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, v, 0, NULL, &v));
  return kiln_onnx_convert(n, v, e, out);
}

#define KILN_ONNX_NMS_MAX_BOXES 64

// NonMaxSuppression with the selected count from the declared result
// [K, 3]. Per (batch, class): boxes ordered by score (descending, ties by
// index) through ranks, pairwise IoU of the ordered boxes, then the greedy
// pass unrolled over the (static, small) box count: a box is kept when its
// score passes score_threshold, fewer than max_output_boxes_per_class are
// kept, and no kept higher-ranked box overlaps it by more than
// iou_threshold. The kept (batch, class, rank) triples, in that order, are
// the result's rows.
static kiln_status_t kiln_onnx_lower_nms(node_t* n) {
  value_t *boxes = NULL, *scores = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &boxes));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &scores));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, scores));
  const type_t* bt = boxes->type;
  const type_t* st = scores->type;
  if (kiln_onnx_rank(bt) != 3 || bt->shaped.dims[2] != 4 ||
      kiln_onnx_rank(st) != 3 || st->shaped.dims[0] != bt->shaped.dims[0] ||
      st->shaped.dims[2] != bt->shaped.dims[1]) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "boxes must be [B, N, 4] and scores [B, C, N]");
  }
  int64_t B = bt->shaped.dims[0], N = bt->shaped.dims[1],
          C = st->shaped.dims[1];
  if (N > KILN_ONNX_NMS_MAX_BOXES) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "%lld boxes (at most %d supported)",
                                (long long)N, KILN_ONNX_NMS_MAX_BOXES);
  }
  int64_t K = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_result_count(n, 0, NULL, &K));
  const type_t* e = kiln_onnx_elem(st);
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, boxes, e, &boxes));
  value_t *max_out = NULL, *iou_thr = NULL, *score_thr = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_opt_scalar(n, 2, i64, 0, &max_out));
  KILN_RETURN_IF_ERROR(kiln_onnx_opt_scalar(n, 3, e, 0, &iou_thr));
  KILN_RETURN_IF_ERROR(kiln_onnx_opt_scalar(n, 4, e, -INFINITY, &score_thr));
  // Ranks: rank[b, c, i] = #{j : s_j > s_i or (s_j == s_i and j < i)}.
  int64_t d4[4] = {B, C, N, N};
  int64_t si[3] = {0, 1, 2}, sj[3] = {0, 1, 3};
  const type_t* t4 = kiln_onnx_tensor(n, 4, d4, i64);
  value_t *s_i = NULL, *s_j = NULL, *ii = NULL, *jj = NULL, *gt = NULL,
          *eq = NULL, *lt = NULL, *before = NULL, *rank = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, scores, 4, d4, si, &s_i));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, scores, 4, d4, sj, &s_j));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, t4, 2, &ii));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, t4, 3, &jj));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", s_j, s_i, &gt));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", s_j, s_i, &eq));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", jj, ii, &lt));
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.and", eq, lt, &eq));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.or", gt, eq, &before));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, before, i64, &before));
  int64_t three = 3;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, before, 1, &three, "stablehlo.add", 0, &rank));
  // at[b, c, t, i] = (rank[b, c, i] == t): ordered position t holds box i.
  value_t *rb = NULL, *at = NULL, *perm = NULL, *sorted = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, rank, 4, d4, sj, &rb));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", rb, ii, &at));
  KILN_RETURN_IF_ERROR(kiln_onnx_pick(n, at, jj, &perm));
  KILN_RETURN_IF_ERROR(kiln_onnx_pick(n, at, s_j, &sorted));
  // The ordered boxes' corners (ymin, xmin, ymax, xmax), [B, C, N] each.
  value_t* cb[4];
  int64_t bj[2] = {0, 3};
  for (int k = 0; k < 4; ++k) {
    value_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_take(n, boxes, 2, k, &c));
    KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, c, 4, d4, bj, &c));
    KILN_RETURN_IF_ERROR(kiln_onnx_pick(n, at, c, &cb[k]));
  }
  value_t *y0 = NULL, *x0 = NULL, *y1 = NULL, *x1 = NULL;
  if (kiln_onnx_attr_int(n, "center_point_box", 0)) {
    // [x_center, y_center, width, height].
    value_t *hw = NULL, *hh = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", cb[2], 0.5, &hw));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", cb[3], 0.5, &hh));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", cb[0], hw, &x0));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", cb[0], hw, &x1));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", cb[1], hh, &y0));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", cb[1], hh, &y1));
  } else {
    // [y1, x1, y2, x2], either diagonal.
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", cb[0], cb[2], &y0));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", cb[0], cb[2], &y1));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.minimum", cb[1], cb[3], &x0));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", cb[1], cb[3], &x1));
  }
  // IoU of ordered boxes u (dim 2) and t (dim 3); 0 when the union is 0.
  value_t* corner[4] = {y0, x0, y1, x1};
  value_t *cu[4], *ct[4];
  for (int k = 0; k < 4; ++k) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_dims(n, corner[k], 4, d4, si, &cu[k]));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_broadcast_dims(n, corner[k], 4, d4, sj, &ct[k]));
  }
  value_t *area_u = NULL, *area_t = NULL, *inter = NULL, *iou = NULL;
  value_t *ext[2], *tmp = NULL, *lo = NULL, *hi = NULL, *z = NULL;
  for (int k = 0; k < 2; ++k) {
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.minimum",
                                               cu[k + 2], ct[k + 2], &hi));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", cu[k], ct[k], &lo));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", hi, lo, &tmp));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, tmp, 0, &z));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.maximum", tmp, z, &ext[k]));
  }
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", ext[0], ext[1], &inter));
  value_t* sides[2];
  for (int k = 0; k < 2; ++k) {
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.subtract",
                                               cu[k + 2], cu[k], &sides[k]));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.multiply", sides[0],
                                             sides[1], &area_u));
  for (int k = 0; k < 2; ++k) {
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.subtract",
                                               ct[k + 2], ct[k], &sides[k]));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.multiply", sides[0],
                                             sides[1], &area_t));
  value_t *uni = NULL, *pos = NULL, *over = NULL, *thr = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", area_u, area_t, &uni));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.subtract", uni, inter, &uni));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, uni, 0, &z));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", uni, z, &pos));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, uni, 1, &tmp));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, uni, tmp, &uni));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.divide", inter, uni, &iou));
  KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, iou, z, &iou));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, iou_thr, 4, d4, &thr));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", iou, thr, &over));
  // The greedy pass over ordered positions.
  int64_t bc[2] = {B, C};
  value_t *valid = NULL, *cnt = NULL, *cap = NULL, *one = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_broadcast_to(n, score_thr, 3, sorted->type->shaped.dims, &thr));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", sorted, thr, &valid));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_splat_int(n, kiln_onnx_tensor(n, 2, bc, i64), 0, &cnt));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(n, max_out, 2, bc, &cap));
  KILN_RETURN_IF_ERROR(kiln_onnx_like(n, cnt, 1, &one));
  value_t* keep[KILN_ONNX_NMS_MAX_BOXES];
  int64_t bc1[3] = {B, C, 1};
  for (int64_t t = 0; t < N; ++t) {
    value_t *k = NULL, *room = NULL, *col = NULL, *inc = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_take(n, valid, 2, t, &k));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", cnt, cap, &room));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.and", k, room, &k));
    if (t > 0) KILN_RETURN_IF_ERROR(kiln_onnx_take(n, over, 3, t, &col));
    for (int64_t u = 0; u < t; ++u) {
      value_t *hit = NULL, *no = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_take(n, col, 2, u, &hit));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", hit, keep[u], &hit));
      KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.not", hit, &no));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", k, no, &k));
    }
    keep[t] = k;
    KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, k, i64, &inc));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", cnt, inc, &cnt));
  }
  value_t* cols[KILN_ONNX_NMS_MAX_BOXES];
  for (int64_t t = 0; t < N; ++t) {
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, keep[t], 3, bc1, &cols[t]));
  }
  value_t *kept = cols[0], *p = NULL, *flat_perm = NULL;
  int64_t bcn[3] = {B, C, N}, total = B * C * N;
  if (N > 1) {
    kiln_ir_named_attribute_t attr =
        kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 2));
    KILN_RETURN_IF_ERROR(kiln_onnx_emit(
        n, "stablehlo.concatenate", (size_t)N, cols,
        kiln_onnx_tensor(n, 3, bcn, kiln_ir_int_type(n->context, 1)), 1, &attr,
        &kept));
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, kept, 1, &total, &kept));
  KILN_RETURN_IF_ERROR(kiln_onnx_true_positions(n, kept, K, &p));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, perm, 1, &total, &flat_perm));
  // Rows: (p / (C N), p / N % C, perm[p]).
  value_t *bi = NULL, *ci = NULL, *box = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_op_const(n, "stablehlo.divide", p, (double)(C * N), &bi));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_op_const(n, "stablehlo.divide", p, (double)N, &ci));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_op_const(n, "stablehlo.remainder", ci, (double)C, &ci));
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_onnx_named(n, "dim", kiln_onnx_i64(n, 0)),
      kiln_onnx_named(n, "batch_dims", kiln_onnx_i64(n, 0)),
  };
  value_t* ops[2] = {flat_perm, p};
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.torch_index_select", 2, ops,
                                      p->type, 2, attrs, &box));
  int64_t k1[2] = {K, 1}, k3[2] = {K, 3};
  value_t* parts[3] = {bi, ci, box};
  for (int k = 0; k < 3; ++k) {
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, parts[k], 2, k1, &parts[k]));
  }
  value_t* y = NULL;
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 1));
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.concatenate", 3, parts,
                                      kiln_onnx_tensor(n, 2, k3, i64), 1, &attr,
                                      &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// TfIdfVectorizer over integer tokens: each pool n-gram (lengths in
// [min_gram_length, max_gram_length]) is counted at every start position
// and every skip 0..max_skip_count (unigrams once) by comparing shifted
// slices; the counts (TF), weights of the present n-grams (IDF) or both
// (TFIDF) go to the n-gram's ngram_indexes column.
static kiln_status_t kiln_onnx_lower_tfidf(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  const type_t* xe = kiln_onnx_elem(x->type);
  size_t r = kiln_onnx_rank(x->type);
  if (xe->kind != KILN_IR_TYPE_INTEGER || r < 1 || r > 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "only integer tokens [L] or [N, L] are "
                                "supported");
  }
  const Onnx__AttributeProto* pool = kiln_onnx_attr(n, "pool_int64s");
  const Onnx__AttributeProto* counts = kiln_onnx_attr(n, "ngram_counts");
  const Onnx__AttributeProto* indexes = kiln_onnx_attr(n, "ngram_indexes");
  const Onnx__AttributeProto* weights = kiln_onnx_attr(n, "weights");
  if (!pool || !counts || !indexes) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "pool_int64s, ngram_counts and ngram_indexes "
                                "are required (pool_strings is not "
                                "supported)");
  }
  int mode = kiln_onnx_attr_string_is(n, "mode", "TF", "TF")      ? 0
             : kiln_onnx_attr_string_is(n, "mode", "TF", "IDF")   ? 1
             : kiln_onnx_attr_string_is(n, "mode", "TF", "TFIDF") ? 2
                                                                  : -1;
  int64_t min_g = kiln_onnx_attr_int(n, "min_gram_length", 1);
  int64_t max_g = kiln_onnx_attr_int(n, "max_gram_length", 1);
  int64_t max_skip = kiln_onnx_attr_int(n, "max_skip_count", 0);
  if (mode < 0 || min_g < 1 || max_g < min_g || max_skip < 0 ||
      (int64_t)counts->n_ints < max_g ||
      (weights && weights->n_floats != indexes->n_ints)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "bad mode, gram lengths or n-gram tables");
  }
  int64_t features = 0;
  for (size_t k = 0; k < indexes->n_ints; ++k) {
    if (indexes->ints[k] < 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "negative ngram_indexes entry");
    }
    if (indexes->ints[k] + 1 > features) features = indexes->ints[k] + 1;
  }
  if (features > 4096) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "%lld features (at most 4096 supported)",
                                (long long)features);
  }
  const type_t* f32 = kiln_ir_float_type_get(n->context, KILN_IR_F32);
  int64_t L = x->type->shaped.dims[r - 1];
  int64_t nl[2] = {r == 2 ? x->type->shaped.dims[0] : 1, L};
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 2, nl, &x));
  int64_t one = 1;
  const type_t* col_t = kiln_onnx_tensor(n, 1, nl, f32);
  value_t** cols = (value_t**)kiln_ir_arena_alloc(
      n->context, (size_t)features * sizeof(value_t*));
  if (!cols) return KILN_ONNX_OOM();
  memset(cols, 0, (size_t)features * sizeof(value_t*));
  // N-grams of length g are pool[counts[g-1] .. counts[g]) in groups of g.
  size_t k = 0;
  for (int64_t g = 1; g <= (int64_t)counts->n_ints; ++g) {
    int64_t from = counts->ints[g - 1];
    int64_t to =
        g < (int64_t)counts->n_ints ? counts->ints[g] : (int64_t)pool->n_ints;
    if (from < 0 || to > (int64_t)pool->n_ints || to < from ||
        (to - from) % g) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "ngram_counts does not split the pool");
    }
    for (int64_t at = from; at < to; at += g, ++k) {
      if (k >= indexes->n_ints) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "fewer ngram_indexes than n-grams");
      }
      if (g < min_g || g > max_g) continue;
      value_t* total = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, col_t, 0, &total));
      int64_t skips = g == 1 ? 0 : max_skip;
      for (int64_t s = 0; s <= skips; ++s) {
        int64_t span = (g - 1) * (s + 1);
        if (span >= L) break;
        value_t* match = NULL;
        for (int64_t j = 0; j < g; ++j) {
          int64_t lo[2] = {0, j * (s + 1)},
                  hi[2] = {nl[0], j * (s + 1) + L - span}, st[2] = {1, 1};
          value_t *part = NULL, *v = NULL, *eq = NULL;
          KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &part));
          KILN_RETURN_IF_ERROR(
              kiln_onnx_splat_int(n, part->type, pool->ints[at + j], &v));
          KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", part, v, &eq));
          if (match) {
            KILN_RETURN_IF_ERROR(
                kiln_onnx_binary_same(n, "stablehlo.and", match, eq, &match));
          } else {
            match = eq;
          }
        }
        value_t* c = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, match, f32, &c));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_reduce(n, c, 1, &one, "stablehlo.add", 0, &c));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", total, c, &total));
      }
      double w = weights ? (double)weights->floats[k] : 1.0;
      if (mode == 1) {
        value_t *z = NULL, *present = NULL, *wv = NULL;
        KILN_RETURN_IF_ERROR(kiln_onnx_like(n, total, 0, &z));
        KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", total, z, &present));
        KILN_RETURN_IF_ERROR(kiln_onnx_like(n, total, w, &wv));
        KILN_RETURN_IF_ERROR(kiln_onnx_select(n, present, wv, z, &total));
      } else if (mode == 2 && w != 1.0) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_op_const(n, "stablehlo.multiply", total, w, &total));
      }
      value_t** slot = &cols[indexes->ints[k]];
      if (*slot) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", *slot, total, slot));
      } else {
        *slot = total;
      }
    }
  }
  int64_t n1[2] = {nl[0], 1};
  for (int64_t f = 0; f < features; ++f) {
    if (!cols[f]) KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, col_t, 0, &cols[f]));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, cols[f], 2, n1, &cols[f]));
  }
  int64_t yd[2] = {nl[0], features};
  value_t* y = cols[0];
  if (features > 1) {
    kiln_ir_named_attribute_t attr =
        kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, 1));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_emit(n, "stablehlo.concatenate", (size_t)features, cols,
                       kiln_onnx_tensor(n, 2, yd, f32), 1, &attr, &y));
  }
  if (r == 1)
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, 1, &features, &y));
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

#define KILN_ONNX_UNIQUE_MAX_ROW 64

// Unique, its result count from the declared Y. The items (elements, or
// slices along axis) become the rows of [M, R]; pairwise row equality and
// (sorted) lexicographic order are [M, M] matrices. An item is a first
// occurrence when no earlier row equals it; its unique position is the
// number of first occurrences before it (in index or value order). The
// outputs gather from that: Y and indices at each position's first
// occurrence, inverse_indices and counts from the equality with them.
static kiln_status_t kiln_onnx_lower_unique(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  bool sorted = kiln_onnx_attr_int(n, "sorted", 1) != 0;
  bool has_axis = kiln_onnx_attr(n, "axis") != NULL;
  int64_t axis = 0;
  if (has_axis) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  }
  int64_t K = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_result_count(n, has_axis ? (size_t)axis : 0, NULL, &K));
  // Rows: the axis moved first, the rest flattened.
  int64_t perm[MAXR], M = 1, R = 1;
  value_t* rows = x;
  if (has_axis) {
    perm[0] = axis;
    for (size_t d = 0, k = 1; d < r; ++d) {
      if ((int64_t)d != axis) perm[k++] = (int64_t)d;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, x, perm, &rows));
    M = x->type->shaped.dims[axis];
    R = kiln_onnx_num_elements(x->type) / (M ? M : 1);
  } else {
    M = kiln_onnx_num_elements(x->type);
  }
  if (R > KILN_ONNX_UNIQUE_MAX_ROW || M > 4096 || K > M) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "too many items or too long slices");
  }
  int64_t mr[2] = {M, R}, mm[3] = {M, M, R};
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, rows, 2, mr, &rows));
  const type_t* i64 = kiln_ir_int_type(n->context, 64);
  int64_t bi[2] = {0, 2}, bj[2] = {1, 2}, two = 2;
  value_t *a = NULL, *b = NULL, *eq = NULL, *ne = NULL, *less = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, rows, 3, mm, bi, &a));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, rows, 3, mm, bj, &b));
  // eq[i, j]: rows i and j are equal (no column differs).
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "NE", a, b, &ne));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, ne, 1, &two, "stablehlo.or", 0, &eq));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.not", eq, &eq));
  const type_t* mt = kiln_onnx_tensor(n, 2, mm, i64);
  value_t *ii = NULL, *jj = NULL, *earlier = NULL, *dup = NULL, *first = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, mt, 0, &ii));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, mt, 1, &jj));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", jj, ii, &earlier));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.and", eq, earlier, &dup));
  int64_t one = 1;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, dup, 1, &one, "stablehlo.or", 0, &first));
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.not", first, &first));
  // before[i, j]: row j comes before row i in the output order.
  value_t* before = earlier;
  if (sorted) {
    // Lexicographic row j < row i, from the last column to the first.
    for (int64_t c = R - 1; c >= 0; --c) {
      value_t *ac = NULL, *bc = NULL, *lt = NULL, *ceq = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_take(n, a, 2, c, &ac));
      KILN_RETURN_IF_ERROR(kiln_onnx_take(n, b, 2, c, &bc));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", bc, ac, &lt));
      if (less) {
        KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", bc, ac, &ceq));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.and", ceq, less, &ceq));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.or", lt, ceq, &less));
      } else {
        less = lt;
      }
    }
    before = less;
  }
  int64_t mm2[2] = {M, M};
  value_t *fj = NULL, *cnt = NULL, *pos = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, first, 2, mm2, &one, &fj));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.and", before, fj, &cnt));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, cnt, i64, &cnt));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, cnt, 1, &one, "stablehlo.add", 0, &pos));
  // src[u]: the first occurrence at position u ([K, M] masks).
  int64_t km[2] = {K, M};
  const type_t* kt = kiln_onnx_tensor(n, 2, km, i64);
  value_t *pb = NULL, *fb = NULL, *uu = NULL, *mi = NULL, *hit = NULL,
          *src = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, pos, 2, km, &one, &pb));
  KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_dims(n, first, 2, km, &one, &fb));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, kt, 0, &uu));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, kt, 1, &mi));
  KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "EQ", pb, uu, &hit));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.and", hit, fb, &hit));
  KILN_RETURN_IF_ERROR(kiln_onnx_pick(n, hit, mi, &src));
  // Y: rows at src, back in the input's layout.
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_onnx_named(n, "dim", kiln_onnx_i64(n, 0)),
      kiln_onnx_named(n, "batch_dims", kiln_onnx_i64(n, 0)),
  };
  value_t* ops[2] = {rows, src};
  int64_t kr[2] = {K, R};
  value_t* y = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(
      n, "stablehlo.torch_index_select", 2, ops,
      kiln_onnx_tensor(n, 2, kr, kiln_onnx_elem(x->type)), 2, attrs, &y));
  if (has_axis) {
    int64_t td[MAXR], inv_perm[MAXR];
    td[0] = K;
    for (size_t d = 1; d < r; ++d) td[d] = x->type->shaped.dims[perm[d]];
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, r, td, &y));
    for (size_t d = 0; d < r; ++d) inv_perm[perm[d]] = (int64_t)d;
    KILN_RETURN_IF_ERROR(kiln_onnx_transpose(n, y, inv_perm, &y));
  } else {
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, 1, &K, &y));
  }
  kiln_onnx_set(n, 0, y);
  kiln_onnx_set(n, 1, src);
  // match[i, u] = eq[i, src[u]].
  value_t *eqi = NULL, *match = NULL, *uvals = NULL, *inv = NULL,
          *counts = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, eq, i64, &eqi));
  value_t* mops[2] = {eqi, src};
  int64_t mk[2] = {M, K};
  kiln_ir_named_attribute_t mattrs[2] = {
      kiln_onnx_named(n, "dim", kiln_onnx_i64(n, 1)),
      kiln_onnx_named(n, "batch_dims", kiln_onnx_i64(n, 0)),
  };
  KILN_RETURN_IF_ERROR(kiln_onnx_emit(n, "stablehlo.torch_index_select", 2,
                                      mops, kiln_onnx_tensor(n, 2, mk, i64), 2,
                                      mattrs, &match));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, match->type, 1, &uvals));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.multiply", match, uvals, &uvals));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, uvals, 1, &one, "stablehlo.add", 0, &inv));
  int64_t zero_axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_reduce(n, match, 1, &zero_axis, "stablehlo.add", 0, &counts));
  kiln_onnx_set(n, 2, inv);
  kiln_onnx_set(n, 3, counts);
  return kiln_ok_status();
}

// MaxUnpool: the values scattered into zeros at their flat indices into
// the default result shape, (in - 1) * stride - pads + kernel (MaxPool's
// Indices address that shape); a larger output_shape (the declared type
// when output_shape is a runtime value) pads it at the end of each dim.
static kiln_status_t kiln_onnx_lower_max_unpool(node_t* n) {
  value_t *x = NULL, *idx = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &idx));
  size_t r = kiln_onnx_rank(x->type), s = r - 2;
  if (r < 3 || idx->type->shaped.rank != r) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "X and I must be [N, C, D...]");
  }
  int64_t kernel[MAXR], strides[MAXR], pads[2 * MAXR], dims[MAXR], out[MAXR];
  if (kiln_onnx_attr_ints(n, "kernel_shape", kernel, MAXR) != (int64_t)s) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "kernel_shape must have one entry per "
                                "spatial dim");
  }
  int64_t ns = kiln_onnx_attr_ints(n, "strides", strides, MAXR);
  int64_t np = kiln_onnx_attr_ints(n, "pads", pads, 2 * MAXR);
  dims[0] = x->type->shaped.dims[0];
  dims[1] = x->type->shaped.dims[1];
  for (size_t d = 0; d < s; ++d) {
    int64_t stride = ns == (int64_t)s ? strides[d] : 1;
    int64_t pad = np == (int64_t)(2 * s) ? pads[d] + pads[s + d] : 0;
    dims[d + 2] = (x->type->shaped.dims[d + 2] - 1) * stride - pad + kernel[d];
  }
  memcpy(out, dims, r * sizeof(int64_t));
  if (kiln_onnx_input(n, 2)) {
    int64_t count = (int64_t)r;
    if (kiln_onnx_use_declared(n, 2, 0)) {
      if (kiln_onnx_rank(n->declared[0]) != r) count = -1;
      memcpy(out, n->declared[0]->shaped.dims, r * sizeof(int64_t));
      if (count == (int64_t)r) {
        KILN_RETURN_IF_ERROR(kiln_onnx_check_dims_input(n, 2, "output_shape"));
      }
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_known_ints(n, 2, "output_shape", out, MAXR, &count));
    }
    if (count != (int64_t)r) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "output_shape must have rank entries");
    }
  }
  int64_t total = 1, numel = kiln_onnx_num_elements(x->type);
  int64_t lo[MAXR] = {0}, hi[MAXR] = {0}, in[MAXR] = {0};
  bool pad = false;
  for (size_t d = 0; d < r; ++d) {
    total *= dims[d];
    hi[d] = out[d] - dims[d];
    if (hi[d] < 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "output_shape is smaller than the "
                                  "unpooled shape");
    }
    pad = pad || hi[d];
  }
  int64_t idx_dims[2] = {numel, 1};
  value_t *flat = NULL, *vals = NULL, *zeros = NULL, *y = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, idx, kiln_ir_int_type(n->context, 64), &flat));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, flat, 2, idx_dims, &flat));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 1, &numel, &vals));
  KILN_RETURN_IF_ERROR(kiln_onnx_splat(
      n, kiln_onnx_tensor(n, 1, &total, kiln_onnx_elem(x->type)), 0, &zeros));
  KILN_RETURN_IF_ERROR(kiln_onnx_scatter(n, zeros, flat, vals, NULL, &y));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, r, dims, &y));
  if (pad) {
    value_t* z = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat(
        n, kiln_onnx_tensor(n, 0, NULL, kiln_onnx_elem(x->type)), 0, &z));
    value_t* ops[2] = {y, z};
    kiln_ir_named_attribute_t attrs[3] = {
        kiln_onnx_named(n, "edge_padding_low", kiln_onnx_i64_array(n, r, lo)),
        kiln_onnx_named(n, "edge_padding_high", kiln_onnx_i64_array(n, r, hi)),
        kiln_onnx_named(n, "interior_padding", kiln_onnx_i64_array(n, r, in)),
    };
    KILN_RETURN_IF_ERROR(kiln_onnx_emit(
        n, "stablehlo.pad", 2, ops,
        kiln_onnx_tensor(n, r, out, kiln_onnx_elem(x->type)), 3, attrs, &y));
  }
  kiln_onnx_set(n, 0, y);
  return kiln_ok_status();
}

// MaxPool with its Indices output: the window's taps unrolled, each a point
// gather (padding reads the lowest value), keeping the first maximum and
// its flat index into X (storage_order 1: spatial dims column-major).
static kiln_status_t kiln_onnx_lower_max_pool_indices(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  kiln_onnx_window_t w;
  KILN_RETURN_IF_ERROR(kiln_onnx_window(n, x->type, NULL, &w));
  size_t r = kiln_onnx_rank(x->type), s = w.spatial;
  int64_t taps = 1;
  for (size_t d = 0; d < s; ++d) taps *= w.kernel[d];
  if (taps > 1024) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "windows of more than 1024 elements with "
                                "Indices are not supported");
  }
  bool column_major = kiln_onnx_attr_int(n, "storage_order", 0) != 0;
  int64_t od[MAXR];
  od[0] = x->type->shaped.dims[0];
  od[1] = x->type->shaped.dims[1];
  for (size_t d = 0; d < s; ++d) od[d + 2] = w.out[d];
  const type_t* it =
      kiln_onnx_tensor(n, r, od, kiln_ir_int_type(n->context, 64));
  value_t *coords[MAXR], *base[MAXR], *ch = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 0, &coords[0]));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 1, &coords[1]));
  // (n C + c) * prod(D): the batch and channel part of the flat index.
  int64_t plane = 1;
  for (size_t d = 0; d < s; ++d) plane *= x->type->shaped.dims[d + 2];
  KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.multiply", coords[0],
                                          (double)od[1], &ch));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.add", ch, coords[1], &ch));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_op_const(n, "stablehlo.multiply", ch, (double)plane, &ch));
  for (size_t d = 0; d < s; ++d) {
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, (int64_t)d + 2, &base[d]));
    KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.multiply", base[d],
                                            (double)w.strides[d], &base[d]));
    KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.subtract", base[d],
                                            (double)w.pad_lo[d], &base[d]));
  }
  value_t *best = NULL, *best_idx = NULL;
  for (int64_t t = 0; t < taps; ++t) {
    value_t *inside = NULL, *flat = ch, *v = NULL, *low = NULL;
    int64_t rem = t;
    for (size_t d = s; d-- > 0;) {
      int64_t k = rem % w.kernel[d];
      rem /= w.kernel[d];
      int64_t dim = x->type->shaped.dims[d + 2];
      value_t *c = NULL, *lo = NULL, *hi = NULL, *ok = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(
          n, "stablehlo.add", base[d], (double)(k * w.dilations[d]), &c));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, 0, &lo));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, (double)dim, &hi));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", c, lo, &lo));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", c, hi, &hi));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", lo, hi, &ok));
      if (inside) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.and", inside, ok, &inside));
      } else {
        inside = ok;
      }
      coords[d + 2] = c;
    }
    // Spatial flat offset, row- or column-major.
    int64_t stride = 1;
    for (size_t e = 0; e < s; ++e) {
      size_t d = column_major ? e : s - 1 - e;
      value_t* term = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(
          n, "stablehlo.multiply", coords[d + 2], (double)stride, &term));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", flat, term, &flat));
      stride *= x->type->shaped.dims[d + 2];
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, x, coords, &v));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_like(n, v, kiln_onnx_lowest(kiln_onnx_elem(v->type)), &low));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, inside, v, low, &v));
    if (!best) {
      best = v;
      best_idx = flat;
      continue;
    }
    value_t* better = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", v, best, &better));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, better, v, best, &best));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_select(n, better, flat, best_idx, &best_idx));
  }
  kiln_onnx_set(n, 0, best);
  kiln_onnx_set(n, 1, best_idx);
  return kiln_ok_status();
}

// |v| (1-D [R]) broadcast along dim 0 of |shape| (rank 4).
static kiln_status_t kiln_onnx_per_roi(node_t* n, value_t* v,
                                       const int64_t* shape, value_t** out) {
  int64_t zero = 0;
  return kiln_onnx_broadcast_dims(n, v, 4, shape, &zero, out);
}

// RoiAlign (avg mode, static sampling_ratio): per output bin, the mean of
// sampling_ratio^2 bilinear samples; a sample more than one pixel outside
// the image counts 0, one within it is clamped to the edge.
static kiln_status_t kiln_onnx_lower_roi_align(node_t* n) {
  value_t *x = NULL, *rois = NULL, *bidx = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 1, &rois));
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2, &bidx));
  KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
  const type_t* xt = x->type;
  if (kiln_onnx_rank(xt) != 4 || kiln_onnx_rank(rois->type) != 2 ||
      rois->type->shaped.dims[1] != 4 || kiln_onnx_rank(bidx->type) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "X must be [N, C, H, W], rois [R, 4] and "
                                "batch_indices [R]");
  }
  if (!kiln_onnx_attr_string_is(n, "mode", "avg", "avg")) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "only mode 'avg' is supported");
  }
  int64_t grid = kiln_onnx_attr_int(n, "sampling_ratio", 0);
  if (grid <= 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "sampling_ratio 0 (sample counts from the "
                                "roi sizes at run time) is not supported");
  }
  bool half_pixel = n->opset < 16 ? false
                                  : kiln_onnx_attr_string_is(
                                        n, "coordinate_transformation_mode",
                                        "half_pixel", "half_pixel");
  double scale = kiln_onnx_attr_float(n, "spatial_scale", 1.0);
  int64_t oh = kiln_onnx_attr_int(n, "output_height", 1);
  int64_t ow = kiln_onnx_attr_int(n, "output_width", 1);
  int64_t R = rois->type->shaped.dims[0], H = xt->shaped.dims[2],
          W = xt->shaped.dims[3];
  int64_t od[4] = {R, xt->shaped.dims[1], oh, ow};
  const type_t* e = kiln_onnx_elem(xt);
  const type_t* ft = kiln_onnx_tensor(n, 4, od, e);
  const type_t* it =
      kiln_onnx_tensor(n, 4, od, kiln_ir_int_type(n->context, 64));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, rois, e, &rois));
  // Per axis (0: y from rois[:, 1], 1: x from rois[:, 0]): start and bin.
  value_t *start[2], *bin[2], *pos[2];
  int64_t size[2] = {H, W}, outs[2] = {oh, ow};
  for (int k = 0; k < 2; ++k) {
    value_t *lo = NULL, *hi = NULL, *len = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_take(n, rois, 1, 1 - k, &lo));
    KILN_RETURN_IF_ERROR(kiln_onnx_take(n, rois, 1, 3 - k, &hi));
    double off = half_pixel ? 0.5 : 0.0;
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", lo, scale, &lo));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.subtract", lo, off, &lo));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", hi, scale, &hi));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.subtract", hi, off, &hi));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", hi, lo, &len));
    if (!half_pixel) {
      // The legacy mode keeps rois at least one pixel wide.
      value_t* one = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, len, 1, &one));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.maximum", len, one, &len));
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.divide", len, (double)outs[k], &len));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_roi(n, lo, od, &start[k]));
    KILN_RETURN_IF_ERROR(kiln_onnx_per_roi(n, len, od, &bin[k]));
    value_t* p = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, ft, 2 + k, &p));
    pos[k] = p;
  }
  value_t *nc[2], *b = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_convert(n, bidx, kiln_ir_int_type(n->context, 64), &b));
  KILN_RETURN_IF_ERROR(kiln_onnx_per_roi(n, b, od, &nc[0]));
  KILN_RETURN_IF_ERROR(kiln_onnx_iota(n, it, 1, &nc[1]));
  value_t* sum = NULL;
  for (int64_t s = 0; s < grid * grid; ++s) {
    int64_t g[2] = {s / grid, s % grid};
    value_t *lo_c[2], *hi_c[2], *frac[2], *valid = NULL;
    for (int k = 0; k < 2; ++k) {
      // start + (p + (g + 0.5) / grid) * bin.
      value_t *c = NULL, *a = NULL, *b2 = NULL, *ok = NULL, *z = NULL,
              *fl = NULL, *top = NULL, *at_top = NULL, *up = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(
          n, "stablehlo.add", pos[k], ((double)g[k] + 0.5) / (double)grid, &c));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", c, bin[k], &c));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", c, start[k], &c));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, -1, &a));
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, (double)size[k], &b2));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", c, a, &a));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LE", c, b2, &b2));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", a, b2, &ok));
      if (valid) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.and", valid, ok, &valid));
      } else {
        valid = ok;
      }
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, 0, &z));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.maximum", c, z, &c));
      KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.floor", c, &fl));
      // At or past the last pixel: both taps on it, no fraction.
      KILN_RETURN_IF_ERROR(kiln_onnx_like(n, c, (double)(size[k] - 1), &top));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GE", fl, top, &at_top));
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, at_top, top, fl, &fl));
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, at_top, top, c, &c));
      KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", fl, 1, &up));
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, at_top, top, up, &up));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.subtract", c, fl, &frac[k]));
      lo_c[k] = fl;
      hi_c[k] = up;
    }
    value_t* sample = NULL;
    for (int t = 0; t < 4; ++t) {
      value_t *cy = (t & 2) ? hi_c[0] : lo_c[0],
              *cx = (t & 1) ? hi_c[1] : lo_c[1];
      value_t *wy = NULL, *wx = NULL, *v = NULL, *coords[4];
      if (t & 2) {
        wy = frac[0];
      } else {
        KILN_RETURN_IF_ERROR(kiln_onnx_like(n, frac[0], 1, &wy));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.subtract", wy, frac[0], &wy));
      }
      if (t & 1) {
        wx = frac[1];
      } else {
        KILN_RETURN_IF_ERROR(kiln_onnx_like(n, frac[1], 1, &wx));
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.subtract", wx, frac[1], &wx));
      }
      coords[0] = nc[0];
      coords[1] = nc[1];
      KILN_RETURN_IF_ERROR(kiln_onnx_convert(
          n, cy, kiln_ir_int_type(n->context, 64), &coords[2]));
      KILN_RETURN_IF_ERROR(kiln_onnx_convert(
          n, cx, kiln_ir_int_type(n->context, 64), &coords[3]));
      KILN_RETURN_IF_ERROR(kiln_onnx_gather_points(n, x, coords, &v));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", wy, wx, &wy));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.multiply", v, wy, &v));
      if (sample) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_binary_same(n, "stablehlo.add", sample, v, &sample));
      } else {
        sample = v;
      }
    }
    value_t* z = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, sample, 0, &z));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, valid, sample, z, &sample));
    if (sum) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", sum, sample, &sum));
    } else {
      sum = sample;
    }
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.divide", sum,
                                          (double)(grid * grid), &sum));
  kiln_onnx_set(n, 0, sum);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// ai.onnx.preview.training optimizers (Adagrad, Momentum, Adam)
//===----------------------------------------------------------------------===//

// A rank-0 input (R or T) as |e|, broadcast to |like|'s shape.
static kiln_status_t kiln_onnx_scalar_input(node_t* n, size_t i,
                                            const type_t* e, value_t* like,
                                            value_t** out) {
  value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, i, &v));
  if (kiln_onnx_num_elements(v->type) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "R and T must be scalars");
  }
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, v, 0, NULL, &v));
  KILN_RETURN_IF_ERROR(kiln_onnx_convert(n, v, e, &v));
  return kiln_onnx_broadcast_to(n, v, kiln_onnx_rank(like->type),
                                like->type->shaped.dims, out);
}

// The number of optimized tensors: inputs are R, T, then |groups| lists of
// that many (X, G, and the optimizer's states).
static kiln_status_t kiln_onnx_optimizer_count(node_t* n, size_t groups,
                                               size_t* out) {
  if (n->num_inputs < 2 + groups || (n->num_inputs - 2) % groups ||
      n->num_outputs != (n->num_inputs - 2) / groups * (groups - 1)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "expected R, T and %zu lists of inputs",
                                groups);
  }
  *out = (n->num_inputs - 2) / groups;
  return kiln_ok_status();
}

// G + norm_coefficient * X.
static kiln_status_t kiln_onnx_regularized(node_t* n, value_t* x, value_t* g,
                                           value_t** out) {
  double c = kiln_onnx_attr_float(n, "norm_coefficient", 0.0);
  value_t* t = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.multiply", x, c, &t));
  return kiln_onnx_binary_same(n, "stablehlo.add", t, g, out);
}

static kiln_status_t kiln_onnx_lower_adagrad(node_t* n) {
  size_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_optimizer_count(n, 3, &count));
  double decay = kiln_onnx_attr_float(n, "decay_factor", 0.0);
  double eps = kiln_onnx_attr_float(n, "epsilon", 0.0);
  for (size_t i = 0; i < count; ++i) {
    value_t *x = NULL, *g = NULL, *h = NULL, *r = NULL, *t = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + i, &x));
    KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + count + i, &g));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + 2 * count + i, &h));
    const type_t* e = kiln_onnx_elem(x->type);
    KILN_RETURN_IF_ERROR(kiln_onnx_scalar_input(n, 0, e, x, &r));
    KILN_RETURN_IF_ERROR(kiln_onnx_scalar_input(n, 1, e, x, &t));
    // r / (1 + T * decay) * G_reg / (sqrt(H_new) + epsilon).
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", t, decay, &t));
    KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", t, 1, &t));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", r, t, &r));
    value_t *gr = NULL, *h2 = NULL, *sq = NULL, *step = NULL, *xn = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_regularized(n, x, g, &gr));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", gr, gr, &h2));
    KILN_RETURN_IF_ERROR(kiln_onnx_binary_same(n, "stablehlo.add", h, h2, &h2));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.sqrt", h2, &sq));
    KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", sq, eps, &sq));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", r, gr, &step));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", step, sq, &step));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", x, step, &xn));
    kiln_onnx_set(n, i, xn);
    kiln_onnx_set(n, count + i, h2);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_momentum(node_t* n) {
  size_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_optimizer_count(n, 3, &count));
  bool nesterov = kiln_onnx_attr_string_is(n, "mode", "standard", "nesterov");
  if (!nesterov &&
      !kiln_onnx_attr_string_is(n, "mode", "standard", "standard")) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "mode must be standard or nesterov");
  }
  double alpha = kiln_onnx_attr_float(n, "alpha", 0.0);
  double beta = kiln_onnx_attr_float(n, "beta", 0.0);
  for (size_t i = 0; i < count; ++i) {
    value_t *x = NULL, *g = NULL, *v = NULL, *r = NULL, *t = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + i, &x));
    KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + count + i, &g));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + 2 * count + i, &v));
    const type_t* e = kiln_onnx_elem(x->type);
    KILN_RETURN_IF_ERROR(kiln_onnx_scalar_input(n, 0, e, x, &r));
    KILN_RETURN_IF_ERROR(kiln_onnx_scalar_input(n, 1, e, x, &t));
    // The gradient's coefficient is 1 on the first step (T == 0).
    value_t *z = NULL, *pos = NULL, *bb = NULL, *one = NULL, *gr = NULL,
            *vn = NULL, *dg = NULL, *xn = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, 0, &z));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", t, z, &pos));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, beta, &bb));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, 1, &one));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, bb, one, &bb));
    KILN_RETURN_IF_ERROR(kiln_onnx_regularized(n, x, g, &gr));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", v, alpha, &vn));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", bb, gr, &dg));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", vn, dg, &vn));
    if (nesterov) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.multiply", vn, alpha, &dg));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.add", gr, dg, &dg));
    } else {
      dg = vn;
    }
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", r, dg, &dg));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", x, dg, &xn));
    kiln_onnx_set(n, i, xn);
    kiln_onnx_set(n, count + i, vn);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_adam(node_t* n) {
  size_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_optimizer_count(n, 4, &count));
  double alpha = kiln_onnx_attr_float(n, "alpha", 0.9);
  double beta = kiln_onnx_attr_float(n, "beta", 0.999);
  double eps = kiln_onnx_attr_float(n, "epsilon", 1e-6);
  double post = kiln_onnx_attr_float(n, "norm_coefficient_post", 0.0);
  for (size_t i = 0; i < count; ++i) {
    value_t *x = NULL, *g = NULL, *v = NULL, *h = NULL, *r = NULL, *t = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + i, &x));
    KILN_RETURN_IF_ERROR(kiln_onnx_require_float(n, x));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + count + i, &g));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + 2 * count + i, &v));
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 2 + 3 * count + i, &h));
    const type_t* e = kiln_onnx_elem(x->type);
    KILN_RETURN_IF_ERROR(kiln_onnx_scalar_input(n, 0, e, x, &r));
    KILN_RETURN_IF_ERROR(kiln_onnx_scalar_input(n, 1, e, x, &t));
    value_t *gr = NULL, *vn = NULL, *hn = NULL, *tmp = NULL, *sq = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_regularized(n, x, g, &gr));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", v, alpha, &vn));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", gr, 1 - alpha, &tmp));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", vn, tmp, &vn));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", h, beta, &hn));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", gr, gr, &tmp));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_op_const(n, "stablehlo.multiply", tmp, 1 - beta, &tmp));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.add", hn, tmp, &hn));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.sqrt", hn, &sq));
    KILN_RETURN_IF_ERROR(kiln_onnx_op_const(n, "stablehlo.add", sq, eps, &sq));
    // After the first step (T > 0) the rate is bias-corrected:
    // R sqrt(1 - beta^T) / (1 - alpha^T).
    value_t *z = NULL, *pos = NULL, *ba = NULL, *aa = NULL, *ra = NULL,
            *one = NULL, *step = NULL, *xn = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, 0, &z));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "GT", t, z, &pos));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, beta, &ba));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.power", ba, t, &ba));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, alpha, &aa));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.power", aa, t, &aa));
    KILN_RETURN_IF_ERROR(kiln_onnx_like(n, t, 1, &one));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", one, ba, &ba));
    KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.sqrt", ba, &ba));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", one, aa, &aa));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", r, ba, &ra));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", ra, aa, &ra));
    KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pos, ra, r, &ra));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.divide", vn, sq, &step));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.multiply", ra, step, &step));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.subtract", x, step, &xn));
    if (post != 0) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_op_const(n, "stablehlo.multiply", xn, 1 - post, &xn));
    }
    kiln_onnx_set(n, i, xn);
    kiln_onnx_set(n, count + i, vn);
    kiln_onnx_set(n, 2 * count + i, hn);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

#define KILN_ONNX_MAX_SCAN 32

static const Onnx__GraphProto* kiln_onnx_attr_graph(node_t* n,
                                                    const char* name) {
  const Onnx__AttributeProto* a = kiln_onnx_attr(n, name);
  return a ? a->g : NULL;
}

// Stacks |count| values of one type along a new dim |axis|, in reverse
// order when |reverse| (Scan's stacked outputs).
static kiln_status_t kiln_onnx_stack(node_t* n, size_t count, value_t** parts,
                                     size_t axis, bool reverse, value_t** out) {
  const type_t* t = parts[0]->type;
  size_t r = kiln_onnx_rank(t);
  int64_t dims[MAXR];
  for (size_t d = 0, s = 0; d <= r; ++d) {
    dims[d] = d == axis ? 1 : t->shaped.dims[s++];
  }
  value_t** ops =
      (value_t**)kiln_ir_arena_alloc(n->context, count * sizeof(*ops));
  if (!ops) return KILN_ONNX_OOM();
  for (size_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(
        n, parts[reverse ? count - 1 - i : i], r + 1, dims, &ops[i]));
  }
  if (count == 1) {
    *out = ops[0];
    return kiln_ok_status();
  }
  dims[axis] = (int64_t)count;
  kiln_ir_named_attribute_t attr =
      kiln_onnx_named(n, "dimension", kiln_onnx_i64(n, (int64_t)axis));
  return kiln_onnx_emit(n, "stablehlo.concatenate", count, ops,
                        kiln_onnx_tensor(n, r + 1, dims, kiln_onnx_elem(t)), 1,
                        &attr, out);
}

// One Scan without a batch dim, unrolled: the trip count is the scan
// inputs' static length, so the body is imported once per iteration.
// |axes|/|dirs| hold the scan inputs' then the scan outputs' axes and
// directions; |outs| receives the final states then the stacked outputs.
typedef struct kiln_onnx_scan_t {
  const Onnx__GraphProto* body;
  size_t num_states, num_scans, num_outputs;  // num_outputs: body outputs
  int64_t axes[2 * KILN_ONNX_MAX_SCAN], dirs[2 * KILN_ONNX_MAX_SCAN];
} kiln_onnx_scan_t;

static kiln_status_t kiln_onnx_scan_unrolled(node_t* n,
                                             const kiln_onnx_scan_t* sc,
                                             value_t** ins, value_t** outs) {
  size_t ns = sc->num_states, nx = sc->num_scans;
  size_t nk = sc->num_outputs - ns;
  int64_t trip = -1;
  for (size_t j = 0; j < nx; ++j) {
    const type_t* t = ins[ns + j]->type;
    int64_t axis = sc->axes[j];
    size_t r = kiln_onnx_rank(t);
    if (axis < 0) axis += (int64_t)r;
    if (axis < 0 || axis >= (int64_t)r) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "scan input %zu has no axis %lld", j,
                                  (long long)sc->axes[j]);
    }
    if (trip >= 0 && t->shaped.dims[axis] != trip) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "the scan inputs differ in length");
    }
    trip = t->shaped.dims[axis];
  }
  if (trip < 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "a Scan needs at least one scan input and one "
                                "iteration");
  }
  size_t nb = ns + nx;
  kiln_onnx_value_t* body_in = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, nb * sizeof(*body_in));
  kiln_onnx_value_t* body_out = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (sc->num_outputs + 1) * sizeof(*body_out));
  value_t** parts = (value_t**)kiln_ir_arena_alloc(
      n->context, (nk * (size_t)trip + 1) * sizeof(*parts));
  if (!body_in || !body_out || !parts) return KILN_ONNX_OOM();
  memset(body_in, 0, nb * sizeof(*body_in));
  for (size_t i = 0; i < ns; ++i) outs[i] = ins[i];
  for (int64_t t = 0; t < trip; ++t) {
    for (size_t i = 0; i < ns; ++i) {
      body_in[i].type = outs[i]->type;
      body_in[i].ir = outs[i];
    }
    for (size_t j = 0; j < nx; ++j) {
      value_t* x = ins[ns + j];
      int64_t axis = sc->axes[j];
      if (axis < 0) axis += (int64_t)kiln_onnx_rank(x->type);
      value_t* slice = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_take(
          n, x, (size_t)axis, sc->dirs[j] ? trip - 1 - t : t, &slice));
      body_in[ns + j].type = slice->type;
      body_in[ns + j].ir = slice;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_import_subgraph(n, sc->body, nb, body_in,
                                                   sc->num_outputs, body_out));
    for (size_t i = 0; i < sc->num_outputs; ++i) {
      value_t* v = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &body_out[i], &v));
      if (i < ns) {
        if (v->type != ins[i]->type) {
          return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                      "the body changes state %zu's type", i);
        }
        outs[i] = v;
      } else {
        if (t > 0 && v->type != parts[(i - ns) * (size_t)trip]->type) {
          return kiln_onnx_node_error(
              n, KILN_STATUS_UNIMPLEMENTED,
              "scan output %zu changes shape between iterations", i - ns);
        }
        parts[(i - ns) * (size_t)trip + (size_t)t] = v;
      }
    }
  }
  for (size_t k = 0; k < nk; ++k) {
    value_t** p = &parts[k * (size_t)trip];
    int64_t axis = sc->axes[nx + k];
    if (axis < 0) axis += (int64_t)kiln_onnx_rank(p[0]->type) + 1;
    if (axis < 0 || axis > (int64_t)kiln_onnx_rank(p[0]->type)) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "scan output %zu has no axis %lld", k,
                                  (long long)sc->axes[nx + k]);
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_stack(n, (size_t)trip, p, (size_t)axis,
                                         sc->dirs[nx + k] != 0, &outs[ns + k]));
  }
  return kiln_ok_status();
}

// Imports one If branch into a new detached region ending in
// stablehlo.return of the tensors its outputs flatten to; |outs| receives
// the outputs (their structure), |types|/|*count| the returned types.
static kiln_status_t kiln_onnx_if_branch(node_t* n,
                                         const Onnx__GraphProto* graph,
                                         kiln_ir_region_t** out_region,
                                         kiln_onnx_value_t* outs,
                                         const type_t** types, size_t capacity,
                                         size_t* count) {
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(n->context, out_region));
  kiln_ir_builder_t saved = *n->b;
  kiln_ir_block_t* block = NULL;
  kiln_status_t status =
      kiln_ir_builder_create_block(n->b, *out_region, 0, NULL, &block);
  if (!status) {
    status = kiln_onnx_import_subgraph(n, graph, 0, NULL, n->num_outputs, outs);
  }
  *count = 0;
  for (size_t i = 0; i < n->num_outputs && !status; ++i) {
    kiln_onnx_flatten(&outs[i], NULL, count);
  }
  kiln_onnx_value_t** flat = NULL;
  value_t** vals = NULL;
  if (!status && *count > capacity) {
    status = kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "more than %zu results", capacity);
  }
  if (!status) {
    flat = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
        n->context, (*count + 1) * sizeof(*flat));
    vals = (value_t**)kiln_ir_arena_alloc(n->context,
                                          (*count + 1) * sizeof(*vals));
    if (!flat || !vals) status = KILN_ONNX_OOM();
  }
  size_t k = 0;
  for (size_t i = 0; i < n->num_outputs && !status; ++i) {
    kiln_onnx_flatten(&outs[i], flat, &k);
  }
  for (size_t i = 0; i < k && !status; ++i) {
    status = kiln_onnx_materialize(n, flat[i], &vals[i]);
    if (!status) types[i] = vals[i]->type;
  }
  kiln_ir_op_t* ret = NULL;
  if (!status) {
    status = kiln_ir_builder_create_simple(n->b, "stablehlo.return", k, vals, 0,
                                           NULL, 0, NULL, &ret);
  }
  *n->b = saved;
  return status;
}

// If: a condition known at import imports the taken branch in place;
// otherwise stablehlo.if (the device reads the condition back) with both
// branches, which must give the same types (sequences and optionals: the
// same lengths and presence, passed as their tensors).
static kiln_status_t kiln_onnx_lower_if(node_t* n) {
  const Onnx__GraphProto* then_g = kiln_onnx_attr_graph(n, "then_branch");
  const Onnx__GraphProto* else_g = kiln_onnx_attr_graph(n, "else_branch");
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  if (!then_g || !else_g || n->num_outputs > 64) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "needs then_branch and else_branch graphs");
  }
  kiln_onnx_value_t* cond = n->inputs[0];
  if (cond->kind != KILN_ONNX_KIND_TENSOR ||
      kiln_onnx_num_elements(cond->type) != 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "the condition must hold one value");
  }
  if (cond->known) {
    const Onnx__GraphProto* taken =
        kiln_onnx_known_double(cond->known, 0) != 0 ? then_g : else_g;
    KILN_RETURN_IF_ERROR(kiln_onnx_import_subgraph(n, taken, 0, NULL,
                                                   n->num_outputs, n->outputs));
    for (size_t i = 0; i < n->num_outputs; ++i) {
      n->outputs[i].name = n->proto->output[i] ? n->proto->output[i] : "";
    }
    return kiln_ok_status();
  }
  value_t* pred = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &pred));
  KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, pred, 0, NULL, &pred));
  enum { kMaxResults = 256 };
  const type_t* then_types[kMaxResults];
  const type_t* else_types[kMaxResults];
  kiln_onnx_value_t then_outs[65], else_outs[65];
  size_t then_count = 0, else_count = 0;
  kiln_ir_region_t* regions[2] = {NULL, NULL};
  KILN_RETURN_IF_ERROR(kiln_onnx_if_branch(
      n, then_g, &regions[0], then_outs, then_types, kMaxResults, &then_count));
  KILN_RETURN_IF_ERROR(kiln_onnx_if_branch(
      n, else_g, &regions[1], else_outs, else_types, kMaxResults, &else_count));
  for (size_t i = 0; i < n->num_outputs; ++i) {
    if (then_outs[i].kind != KILN_ONNX_KIND_TENSOR ||
        else_outs[i].kind != KILN_ONNX_KIND_TENSOR) {
      if (!kiln_onnx_same_structure(&then_outs[i], &else_outs[i])) {
        return kiln_onnx_node_error(
            n, KILN_STATUS_UNIMPLEMENTED,
            "output %zu differs between the branches (then_branch: %s, "
            "else_branch: %s) in kind, length, presence or types (a "
            "condition computed at run time needs them to agree)",
            i, kiln_onnx_kind_name(then_outs[i].kind),
            kiln_onnx_kind_name(else_outs[i].kind));
      }
    } else if (then_outs[i].type != else_outs[i].type) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "output %zu is %s in then_branch but %s in else_branch", i,
          kiln_ir_type_to_string(n->context, then_outs[i].type),
          kiln_ir_type_to_string(n->context, else_outs[i].type));
    }
  }
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(n->context, &state, "stablehlo.if", NULL);
  state.num_operands = 1;
  state.operands = &pred;
  state.num_result_types = then_count;
  state.result_types = then_types;
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_region(n->context, &state, regions[0]));
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_state_add_region(n->context, &state, regions[1]));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  kiln_onnx_value_t* results = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (then_count + 1) * sizeof(*results));
  kiln_onnx_value_t** ptrs = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      n->context, (then_count + 1) * sizeof(*ptrs));
  if (!results || !ptrs) return KILN_ONNX_OOM();
  memset(results, 0, (then_count + 1) * sizeof(*results));
  for (size_t i = 0; i < then_count; ++i) {
    results[i].name = n->outputs[0].name;
    results[i].ir = kiln_ir_op_result(op, i);
    results[i].type = then_types[i];
    ptrs[i] = &results[i];
  }
  size_t next = 0;
  for (size_t i = 0; i < n->num_outputs; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_unflatten(n->context, &then_outs[i], ptrs,
                                             &next, &n->outputs[i]));
  }
  return kiln_ok_status();
}

// Scan (opset 8: a leading batch dim on every operand, scanned along dim 1;
// opset 9: no batch dim, per-input axes and directions).
static kiln_status_t kiln_onnx_lower_scan(node_t* n) {
  kiln_onnx_scan_t sc;
  memset(&sc, 0, sizeof(sc));
  sc.body = kiln_onnx_attr_graph(n, "body");
  int64_t m = kiln_onnx_attr_int(n, "num_scan_inputs", -1);
  bool batched = n->opset < 9;
  size_t first = batched ? 1 : 0;  // opset 8's sequence_lens
  if (!sc.body || m < 1 || (size_t)m + first > n->num_inputs) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "needs a body graph and num_scan_inputs");
  }
  if (batched && kiln_onnx_input(n, 0)) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "sequence_lens is not supported");
  }
  sc.num_scans = (size_t)m;
  sc.num_states = n->num_inputs - first - sc.num_scans;
  sc.num_outputs = sc.body->n_output;
  size_t nk =
      sc.num_outputs >= sc.num_states ? sc.num_outputs - sc.num_states : 0;
  size_t nin = sc.num_states + sc.num_scans;
  if (sc.num_scans > KILN_ONNX_MAX_SCAN || nk > KILN_ONNX_MAX_SCAN ||
      sc.num_outputs < sc.num_states || n->num_outputs != sc.num_outputs) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "unsupported numbers of states, scan inputs "
                                "or scan outputs");
  }
  int64_t tmp[KILN_ONNX_MAX_SCAN];
  int64_t c =
      kiln_onnx_attr_ints(n, batched ? "directions" : "scan_input_directions",
                          tmp, KILN_ONNX_MAX_SCAN);
  for (size_t j = 0; j < sc.num_scans; ++j) {
    sc.dirs[j] = (int64_t)j < c ? tmp[j] : 0;
  }
  if (!batched) {
    c = kiln_onnx_attr_ints(n, "scan_input_axes", tmp, KILN_ONNX_MAX_SCAN);
    for (size_t j = 0; j < sc.num_scans; ++j) {
      sc.axes[j] = (int64_t)j < c ? tmp[j] : 0;
    }
    c = kiln_onnx_attr_ints(n, "scan_output_axes", tmp, KILN_ONNX_MAX_SCAN);
    for (size_t k = 0; k < nk; ++k) {
      sc.axes[sc.num_scans + k] = (int64_t)k < c ? tmp[k] : 0;
    }
    c = kiln_onnx_attr_ints(n, "scan_output_directions", tmp,
                            KILN_ONNX_MAX_SCAN);
    for (size_t k = 0; k < nk; ++k) {
      sc.dirs[sc.num_scans + k] = (int64_t)k < c ? tmp[k] : 0;
    }
  }
  value_t* ins[2 * KILN_ONNX_MAX_SCAN + 1];
  value_t* outs[2 * KILN_ONNX_MAX_SCAN + 1];
  if (nin > 2 * KILN_ONNX_MAX_SCAN) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "more than %d states", KILN_ONNX_MAX_SCAN);
  }
  for (size_t i = 0; i < nin; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_in(n, first + i, &ins[i]));
  }
  if (!batched) {
    KILN_RETURN_IF_ERROR(kiln_onnx_scan_unrolled(n, &sc, ins, outs));
    for (size_t i = 0; i < sc.num_outputs; ++i) kiln_onnx_set(n, i, outs[i]);
    return kiln_ok_status();
  }
  // Opset 8: one unrolled scan per batch entry, stacked back along dim 0.
  int64_t batch =
      kiln_onnx_rank(ins[0]->type) ? ins[0]->type->shaped.dims[0] : 0;
  for (size_t i = 0; i < nin; ++i) {
    if (kiln_onnx_rank(ins[i]->type) < (i < sc.num_states ? 1u : 2u) ||
        ins[i]->type->shaped.dims[0] != batch) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "the operands differ in batch size");
    }
  }
  if (batch < 1) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "an empty batch is not supported");
  }
  value_t** per = (value_t**)kiln_ir_arena_alloc(
      n->context, (sc.num_outputs * (size_t)batch + 1) * sizeof(*per));
  if (!per) return KILN_ONNX_OOM();
  for (int64_t b = 0; b < batch; ++b) {
    value_t* bins[2 * KILN_ONNX_MAX_SCAN + 1];
    for (size_t i = 0; i < nin; ++i) {
      KILN_RETURN_IF_ERROR(kiln_onnx_take(n, ins[i], 0, b, &bins[i]));
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_scan_unrolled(n, &sc, bins, outs));
    for (size_t i = 0; i < sc.num_outputs; ++i) {
      per[i * (size_t)batch + (size_t)b] = outs[i];
    }
  }
  for (size_t i = 0; i < sc.num_outputs; ++i) {
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_stack(
        n, (size_t)batch, &per[i * (size_t)batch], 0, false, &y));
    kiln_onnx_set(n, i, y);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Sequences and optionals (import-time lists)
//===----------------------------------------------------------------------===//

// Input |i| as a value of |kind| (an error names the kind found).
static kiln_status_t kiln_onnx_kind_in(node_t* n, size_t i,
                                       kiln_onnx_kind_t kind,
                                       kiln_onnx_value_t** out) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, i + 1));
  kiln_onnx_value_t* v = n->inputs[i];
  if (v->kind != kind) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "input '%s' is a %s; the op needs a %s here",
                                v->name, kiln_onnx_kind_name(v->kind),
                                kiln_onnx_kind_name(kind));
  }
  *out = v;
  return kiln_ok_status();
}

// A new sequence value with room for |count| items.
static kiln_status_t kiln_onnx_new_sequence(node_t* n, size_t count,
                                            const type_t* element,
                                            kiln_onnx_value_t* out) {
  memset(out, 0, sizeof(*out));
  out->kind = KILN_ONNX_KIND_SEQUENCE;
  out->num_items = count;
  out->item_element = element;
  out->items = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (count + 1) * sizeof(*out->items));
  if (!out->items) return KILN_ONNX_OOM();
  memset(out->items, 0, (count + 1) * sizeof(*out->items));
  return kiln_ok_status();
}

// The element type a sequence holds (its items', else its declared one).
static const type_t* kiln_onnx_sequence_element(const kiln_onnx_value_t* seq) {
  if (seq->item_element || !seq->num_items || !seq->items[0].type) {
    return seq->item_element;
  }
  return kiln_onnx_elem(seq->items[0].type);
}

// A position input (SequenceAt, SequenceInsert, SequenceErase): known at
// import, in [-length, length) (or up to length inclusive when |at_end|);
// absent: |absent|. Negative positions count from the back.
static kiln_status_t kiln_onnx_sequence_position(node_t* n, size_t i,
                                                 size_t length, bool at_end,
                                                 int64_t absent, int64_t* out) {
  kiln_onnx_value_t* v = kiln_onnx_input(n, i);
  if (!v) {
    *out = absent;
    return kiln_ok_status();
  }
  if (v->kind != KILN_ONNX_KIND_TENSOR || !v->known ||
      kiln_onnx_num_elements(v->type) != 1 ||
      kiln_onnx_is_float(kiln_onnx_elem(v->type))) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED,
        "the position '%s' must be an integer known at import (sequences "
        "are lists of the importer)",
        v->name);
  }
  int64_t p = kiln_onnx_known_int(v->known, 0);
  int64_t len = (int64_t)length;
  if (p < -len || p > (at_end ? len : len - 1)) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_OUT_OF_RANGE,
        "position %lld is out of range for a sequence of length %lld",
        (long long)p, (long long)len);
  }
  *out = p < 0 ? p + len : p;
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_check_element(node_t* n,
                                             const kiln_onnx_value_t* seq,
                                             const kiln_onnx_value_t* t) {
  const type_t* e = kiln_onnx_sequence_element(seq);
  if (t->kind != KILN_ONNX_KIND_TENSOR) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "'%s' is a %s; sequences hold tensors", t->name,
                                kiln_onnx_kind_name(t->kind));
  }
  if (e && e != kiln_onnx_elem(t->type)) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "'%s' is %s but the sequence holds %s", t->name,
                                kiln_ir_type_to_string(n->context, t->type),
                                kiln_ir_type_to_string(n->context, e));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sequence_empty(node_t* n) {
  int64_t dtype = kiln_onnx_attr_int(n, "dtype", 1);
  const type_t* e = kiln_onnx_element_type(n->context, (int32_t)dtype);
  if (!e) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_UNIMPLEMENTED, "dtype %lld (%s) is not supported",
        (long long)dtype, kiln_onnx_dtype_name((int32_t)dtype));
  }
  kiln_onnx_value_t seq;
  KILN_RETURN_IF_ERROR(kiln_onnx_new_sequence(n, 0, e, &seq));
  kiln_onnx_set_value(n, 0, &seq);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sequence_construct(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, n->num_inputs));
  if (n->num_inputs == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "needs at least one input");
  }
  kiln_onnx_value_t seq;
  KILN_RETURN_IF_ERROR(kiln_onnx_new_sequence(n, n->num_inputs, NULL, &seq));
  KILN_RETURN_IF_ERROR(kiln_onnx_check_element(n, &seq, n->inputs[0]));
  seq.item_element = kiln_onnx_elem(n->inputs[0]->type);
  for (size_t i = 0; i < n->num_inputs; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_check_element(n, &seq, n->inputs[i]));
    seq.items[i] = *n->inputs[i];
  }
  kiln_onnx_set_value(n, 0, &seq);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sequence_insert(node_t* n) {
  kiln_onnx_value_t *in = NULL, *t = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_kind_in(n, 0, KILN_ONNX_KIND_SEQUENCE, &in));
  KILN_RETURN_IF_ERROR(kiln_onnx_kind_in(n, 1, KILN_ONNX_KIND_TENSOR, &t));
  KILN_RETURN_IF_ERROR(kiln_onnx_check_element(n, in, t));
  int64_t p = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_sequence_position(n, 2, in->num_items, true,
                                                   (int64_t)in->num_items, &p));
  kiln_onnx_value_t seq;
  KILN_RETURN_IF_ERROR(kiln_onnx_new_sequence(n, in->num_items + 1,
                                              kiln_onnx_elem(t->type), &seq));
  for (size_t i = 0, j = 0; i <= in->num_items; ++i) {
    seq.items[i] = (int64_t)i == p ? *t : in->items[j++];
  }
  kiln_onnx_set_value(n, 0, &seq);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sequence_erase(node_t* n) {
  kiln_onnx_value_t* in = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_kind_in(n, 0, KILN_ONNX_KIND_SEQUENCE, &in));
  if (in->num_items == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_OUT_OF_RANGE,
                                "the sequence is empty");
  }
  int64_t p = 0;
  KILN_RETURN_IF_ERROR(kiln_onnx_sequence_position(
      n, 1, in->num_items, false, (int64_t)in->num_items - 1, &p));
  kiln_onnx_value_t seq;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_new_sequence(n, in->num_items - 1, in->item_element, &seq));
  if (!seq.item_element) seq.item_element = kiln_onnx_sequence_element(in);
  for (size_t i = 0, j = 0; i < in->num_items; ++i) {
    if ((int64_t)i != p) seq.items[j++] = in->items[i];
  }
  kiln_onnx_set_value(n, 0, &seq);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sequence_at(node_t* n) {
  kiln_onnx_value_t* in = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_kind_in(n, 0, KILN_ONNX_KIND_SEQUENCE, &in));
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 2));
  int64_t p = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_sequence_position(n, 1, in->num_items, false, 0, &p));
  kiln_onnx_set_value(n, 0, &in->items[p]);
  return kiln_ok_status();
}

// Output 0 of |n| is the scalar of |element_type| whose bytes are |data|,
// known at import (a sequence length, whether an optional holds a value).
static kiln_status_t kiln_onnx_set_known_scalar(
    node_t* n, const kiln_ir_type_t* element_type, const void* data,
    size_t size) {
  const type_t* t = kiln_onnx_tensor(n, 0, NULL, element_type);
  kiln_onnx_const_t* c = kiln_onnx_make_const(n->context, t, data, size);
  if (!c) return KILN_ONNX_OOM();
  kiln_onnx_set_known(n, 0, c);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_sequence_length(node_t* n) {
  kiln_onnx_value_t* in = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_kind_in(n, 0, KILN_ONNX_KIND_SEQUENCE, &in));
  int64_t length = (int64_t)in->num_items;
  return kiln_onnx_set_known_scalar(n, kiln_ir_int_type(n->context, 64),
                                    &length, sizeof(length));
}

// ConcatFromSequence: Concat of the elements (new_axis: each first gains a
// dim of 1 at |axis|, so that they stack).
static kiln_status_t kiln_onnx_lower_concat_from_sequence(node_t* n) {
  kiln_onnx_value_t* in = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_kind_in(n, 0, KILN_ONNX_KIND_SEQUENCE, &in));
  if (in->num_items == 0) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "the sequence is empty");
  }
  bool new_axis = kiln_onnx_attr_int(n, "new_axis", 0) != 0;
  kiln_onnx_value_t* parts = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, in->num_items * sizeof(*parts));
  kiln_onnx_value_t** ptrs = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      n->context, in->num_items * sizeof(*ptrs));
  if (!parts || !ptrs) return KILN_ONNX_OOM();
  for (size_t i = 0; i < in->num_items; ++i) {
    parts[i] = in->items[i];
    ptrs[i] = &parts[i];
    if (!new_axis) continue;
    const type_t* t = parts[i].type;
    size_t r = kiln_onnx_rank(t);
    int64_t axis = kiln_onnx_attr_int(n, "axis", 0);
    if (axis < -(int64_t)r - 1 || axis > (int64_t)r) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "axis %lld is out of range for rank %zu "
                                  "with new_axis",
                                  (long long)axis, r);
    }
    if (axis < 0) axis += (int64_t)r + 1;
    int64_t dims[MAXR];
    for (size_t d = 0, k = 0; d <= r; ++d) {
      dims[d] = (int64_t)d == axis ? 1 : t->shaped.dims[k++];
    }
    value_t* x = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &parts[i], &x));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, r + 1, dims, &x));
    parts[i].ir = x;
    parts[i].type = x->type;
    parts[i].known = NULL;
  }
  node_t concat = *n;
  concat.inputs = ptrs;
  concat.num_inputs = in->num_items;
  return kiln_onnx_lower_concat(&concat);
}

// SplitToSequence: chunks of a known split (a scalar: equal chunks, the
// last smaller; a list: the sizes), or slices of one without split
// (squeezed unless keepdims).
static kiln_status_t kiln_onnx_lower_split_to_sequence(node_t* n) {
  value_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_in(n, 0, &x));
  size_t r = kiln_onnx_rank(x->type);
  int64_t axis = 0;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_norm_axis(n, kiln_onnx_attr_int(n, "axis", 0), r, &axis));
  int64_t dim = x->type->shaped.dims[axis];
  enum { kMaxParts = 4096 };
  int64_t* sizes =
      (int64_t*)kiln_ir_arena_alloc(n->context, kMaxParts * sizeof(int64_t));
  if (!sizes) return KILN_ONNX_OOM();
  int64_t count = -1;
  kiln_onnx_value_t* split = kiln_onnx_input(n, 1);
  KILN_RETURN_IF_ERROR(
      kiln_onnx_known_ints(n, 1, "split", sizes, kMaxParts, &count));
  bool squeeze = false;
  if (count < 0) {
    if (dim > kMaxParts) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "more than %d parts", kMaxParts);
    }
    count = dim;
    for (int64_t i = 0; i < dim; ++i) sizes[i] = 1;
    squeeze = kiln_onnx_attr_int(n, "keepdims", 1) == 0;
  } else if (kiln_onnx_rank(split->type) == 0) {
    int64_t each = sizes[0];
    if (each <= 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "split %lld is not positive",
                                  (long long)each);
    }
    count = (dim + each - 1) / each;
    if (count > kMaxParts) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "more than %d parts", kMaxParts);
    }
    for (int64_t i = 0; i < count; ++i) {
      sizes[i] = dim - i * each < each ? dim - i * each : each;
    }
  }
  int64_t total = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (sizes[i] < 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "split sizes must not be negative");
    }
    total += sizes[i];
  }
  if (total != dim) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "split sizes add up to %lld, not the dim %lld",
                                (long long)total, (long long)dim);
  }
  kiln_onnx_value_t seq;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_new_sequence(n, (size_t)count, kiln_onnx_elem(x->type), &seq));
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t lo[MAXR], hi[MAXR], st[MAXR];
    for (size_t d = 0; d < r; ++d) {
      lo[d] = 0;
      hi[d] = x->type->shaped.dims[d];
      st[d] = 1;
    }
    lo[axis] = offset;
    hi[axis] = offset + sizes[i];
    offset += sizes[i];
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_slice(n, x, lo, hi, st, &y));
    if (squeeze) {
      int64_t dims[MAXR];
      for (size_t d = 0, k = 0; d < r; ++d) {
        if ((int64_t)d != axis) dims[k++] = x->type->shaped.dims[d];
      }
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, y, r - 1, dims, &y));
    }
    seq.items[i].name = n->outputs[0].name;
    seq.items[i].type = y->type;
    seq.items[i].ir = y;
  }
  kiln_onnx_set_value(n, 0, &seq);
  return kiln_ok_status();
}

// SequenceMap: the body imported once per element (the first input's
// length); sequence inputs give their i-th element, others pass whole.
static kiln_status_t kiln_onnx_lower_sequence_map(node_t* n) {
  const Onnx__GraphProto* body = kiln_onnx_attr_graph(n, "body");
  kiln_onnx_value_t* first = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_onnx_kind_in(n, 0, KILN_ONNX_KIND_SEQUENCE, &first));
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, n->num_inputs));
  if (!body) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "needs a body graph");
  }
  size_t length = first->num_items;
  for (size_t j = 1; j < n->num_inputs; ++j) {
    const kiln_onnx_value_t* v = n->inputs[j];
    if (v->kind == KILN_ONNX_KIND_SEQUENCE && v->num_items != length) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_INVALID_ARGUMENT,
          "sequence '%s' has %zu elements; '%s' has %zu", v->name, v->num_items,
          first->name, length);
    }
    if (v->kind == KILN_ONNX_KIND_OPTIONAL) {
      return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "input '%s' is an optional", v->name);
    }
  }
  kiln_onnx_value_t* body_in = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (n->num_inputs + 1) * sizeof(*body_in));
  kiln_onnx_value_t* body_out = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (n->num_outputs + 1) * sizeof(*body_out));
  kiln_onnx_value_t* seqs = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (n->num_outputs + 1) * sizeof(*seqs));
  if (!body_in || !body_out || !seqs) return KILN_ONNX_OOM();
  for (size_t k = 0; k < n->num_outputs; ++k) {
    KILN_RETURN_IF_ERROR(kiln_onnx_new_sequence(n, length, NULL, &seqs[k]));
  }
  for (size_t i = 0; i < length; ++i) {
    for (size_t j = 0; j < n->num_inputs; ++j) {
      const kiln_onnx_value_t* v = n->inputs[j];
      body_in[j] = v->kind == KILN_ONNX_KIND_SEQUENCE ? v->items[i] : *v;
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_import_subgraph(
        n, body, n->num_inputs, body_in, n->num_outputs, body_out));
    for (size_t k = 0; k < n->num_outputs; ++k) {
      if (body_out[k].kind != KILN_ONNX_KIND_TENSOR) {
        return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                    "body output %zu is a %s, not a tensor", k,
                                    kiln_onnx_kind_name(body_out[k].kind));
      }
      seqs[k].items[i] = body_out[k];
    }
  }
  for (size_t k = 0; k < n->num_outputs; ++k) {
    if (length) seqs[k].item_element = kiln_onnx_sequence_element(&seqs[k]);
    kiln_onnx_set_value(n, k, &seqs[k]);
  }
  return kiln_ok_status();
}

// Optional: present with the input, else absent (of the type attribute).
static kiln_status_t kiln_onnx_lower_optional(node_t* n) {
  kiln_onnx_value_t opt;
  memset(&opt, 0, sizeof(opt));
  opt.kind = KILN_ONNX_KIND_OPTIONAL;
  kiln_onnx_value_t* in = kiln_onnx_input(n, 0);
  if (in) {
    if (in->kind == KILN_ONNX_KIND_OPTIONAL) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "optionals of optionals are not supported");
    }
    opt.num_items = 1;
    opt.items =
        (kiln_onnx_value_t*)kiln_ir_arena_alloc(n->context, sizeof(*opt.items));
    if (!opt.items) return KILN_ONNX_OOM();
    opt.items[0] = *in;
  } else if (!kiln_onnx_attr(n, "type")) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "an empty Optional needs the type attribute");
  }
  kiln_onnx_set_value(n, 0, &opt);
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_lower_optional_has_element(node_t* n) {
  kiln_onnx_value_t* in = kiln_onnx_input(n, 0);
  uint8_t has = in && (in->kind != KILN_ONNX_KIND_OPTIONAL || in->num_items);
  return kiln_onnx_set_known_scalar(n, kiln_ir_int_type(n->context, 1), &has,
                                    sizeof(has));
}

static kiln_status_t kiln_onnx_lower_optional_get_element(node_t* n) {
  KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, 1));
  kiln_onnx_value_t* in = n->inputs[0];
  if (in->kind != KILN_ONNX_KIND_OPTIONAL) {
    kiln_onnx_set_value(n, 0, in);  // opset 18: a tensor or sequence passes
    return kiln_ok_status();
  }
  if (!in->num_items) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "optional '%s' is empty", in->name);
  }
  kiln_onnx_set_value(n, 0, &in->items[0]);
  return kiln_ok_status();
}

// Loop as stablehlo.while, for a trip count or condition computed at run
// time. The while carries (iteration, condition, trip count, the
// loop-carried tensors, one buffer per scan output); the condition region
// tests iteration < trip count and the condition; the body imports the
// ONNX body once and writes each scan output into row <iteration> of its
// buffer (stablehlo.dynamic_update_slice). Scan outputs need the graph to
// declare their static type: the buffer is that type, as for Range with
// run-time operands (rows past the iterations run stay zero; iterations
// past the declared rows overwrite the last one, the clamped index).
static kiln_status_t kiln_onnx_loop_while(node_t* n,
                                          const Onnx__GraphProto* body,
                                          size_t nc, size_t nk) {
  kiln_ir_context_t* ctx = n->context;
  const type_t* e64 = kiln_ir_int_type(ctx, 64);
  const type_t* i64 = kiln_onnx_tensor(n, 0, NULL, e64);
  const type_t* i1 = kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(ctx, 1));
  size_t na = 3 + nc + nk;
  if (na > 3 + 2 * KILN_ONNX_MAX_SCAN) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "more than %d loop-carried values or scan "
                                "outputs",
                                KILN_ONNX_MAX_SCAN);
  }
  value_t* init[3 + 2 * KILN_ONNX_MAX_SCAN];
  const type_t* types[3 + 2 * KILN_ONNX_MAX_SCAN];
  // Iteration 0, the condition (true when absent), the trip count (the
  // largest int64 when absent).
  int64_t zero = 0, forever = INT64_MAX;
  uint8_t yes = 1;
  kiln_onnx_value_t tmp[3];
  memset(tmp, 0, sizeof(tmp));
  tmp[0].name = "iteration";
  tmp[0].type = i64;
  tmp[0].known = kiln_onnx_make_const(ctx, i64, &zero, 8);
  tmp[1].name = "condition";
  tmp[1].type = i1;
  tmp[1].known = kiln_onnx_make_const(ctx, i1, &yes, 1);
  tmp[2].name = "trip count";
  tmp[2].type = i64;
  tmp[2].known = kiln_onnx_make_const(ctx, i64, &forever, 8);
  if (!tmp[0].known || !tmp[1].known || !tmp[2].known) return KILN_ONNX_OOM();
  KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &tmp[0], &init[0]));
  for (size_t j = 0; j < 2; ++j) {
    kiln_onnx_value_t* v = kiln_onnx_input(n, j);
    value_t* x = NULL;
    if (v) {
      if (v->kind != KILN_ONNX_KIND_TENSOR ||
          kiln_onnx_num_elements(v->type) != 1) {
        return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                    "%s must hold one value", j ? "cond" : "M");
      }
      KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, v, &x));
      KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 0, NULL, &x));
      if (kiln_onnx_elem(x->type) != kiln_onnx_elem(j ? i1 : i64)) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_convert(n, x, kiln_onnx_elem(j ? i1 : i64), &x));
      }
    } else {
      KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &tmp[2 - j], &x));
    }
    init[j ? 1 : 2] = x;
  }
  for (size_t i = 0; i < nc; ++i) {
    kiln_onnx_value_t* v = kiln_onnx_input(n, 2 + i);
    if (!v || v->kind != KILN_ONNX_KIND_TENSOR) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "loop-carried value %zu is %s; a Loop whose trip count or "
          "condition is computed at run time carries tensors only",
          i, v ? kiln_onnx_kind_name(v->kind) : "missing");
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, v, &init[3 + i]));
  }
  for (size_t k = 0; k < nk; ++k) {
    const type_t* d = n->declared[nc + k];
    if (!d || kiln_onnx_rank(d) < 1) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "scan output %zu: the trip count or condition is computed at run "
          "time and the graph declares no static type for '%s'",
          k, n->outputs[nc + k].name);
    }
    KILN_RETURN_IF_ERROR(kiln_onnx_splat(n, d, 0, &init[3 + nc + k]));
  }
  for (size_t i = 0; i < na; ++i) types[i] = init[i]->type;
  // Condition region.
  kiln_ir_region_t *cond_region = NULL, *body_region = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &cond_region));
  KILN_RETURN_IF_ERROR(kiln_ir_region_create(ctx, &body_region));
  kiln_ir_builder_t saved = *n->b;
  kiln_ir_block_t* block = NULL;
  kiln_status_t status =
      kiln_ir_builder_create_block(n->b, cond_region, na, types, &block);
  value_t* c = NULL;
  if (!status) {
    status = kiln_onnx_compare(n, "LT", block->args[0], block->args[2], &c);
  }
  if (!status) {
    status = kiln_onnx_binary_same(n, "stablehlo.and", c, block->args[1], &c);
  }
  kiln_ir_op_t* ret = NULL;
  if (!status) {
    status = kiln_ir_builder_create_simple(n->b, "stablehlo.return", 1, &c, 0,
                                           NULL, 0, NULL, &ret);
  }
  // Body region.
  kiln_onnx_value_t* body_in =
      (kiln_onnx_value_t*)kiln_ir_arena_alloc(ctx, (nc + 2) * sizeof(*body_in));
  kiln_onnx_value_t* body_out = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      ctx, (body->n_output + 1) * sizeof(*body_out));
  if (!status && (!body_in || !body_out)) status = KILN_ONNX_OOM();
  if (!status) {
    status = kiln_ir_builder_create_block(n->b, body_region, na, types, &block);
  }
  if (!status) {
    memset(body_in, 0, (nc + 2) * sizeof(*body_in));
    body_in[0].type = i64;
    body_in[0].ir = block->args[0];
    body_in[1].type = i1;
    body_in[1].ir = block->args[1];
    for (size_t i = 0; i < nc; ++i) {
      body_in[2 + i].type = types[3 + i];
      body_in[2 + i].ir = block->args[3 + i];
    }
    status = kiln_onnx_import_subgraph(n, body, nc + 2, body_in, body->n_output,
                                       body_out);
  }
  value_t* next[3 + 2 * KILN_ONNX_MAX_SCAN];
  value_t* one = NULL;
  if (!status) {
    status = kiln_onnx_splat_int(n, i64, 1, &one);
  }
  if (!status) {
    status = kiln_onnx_binary_same(n, "stablehlo.add", block->args[0], one,
                                   &next[0]);
  }
  if (!status) status = kiln_onnx_materialize(n, &body_out[0], &next[1]);
  if (!status) status = kiln_onnx_reshape_to(n, next[1], 0, NULL, &next[1]);
  if (!status && next[1]->type != i1) {
    status = kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                  "the body's condition is not a bool");
  }
  next[2] = block ? block->args[2] : NULL;
  for (size_t i = 0; i < nc && !status; ++i) {
    status = kiln_onnx_materialize(n, &body_out[1 + i], &next[3 + i]);
    if (!status && next[3 + i]->type != types[3 + i]) {
      status = kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "the body changes loop-carried value %zu from %s to %s", i,
          kiln_ir_type_to_string(ctx, types[3 + i]),
          kiln_ir_type_to_string(ctx, next[3 + i]->type));
    }
  }
  for (size_t k = 0; k < nk && !status; ++k) {
    const type_t* d = types[3 + nc + k];
    size_t r = kiln_onnx_rank(d);
    value_t* y = NULL;
    status = kiln_onnx_materialize(n, &body_out[1 + nc + k], &y);
    bool fits = !status && kiln_onnx_rank(y->type) + 1 == r &&
                kiln_onnx_elem(y->type) == kiln_onnx_elem(d);
    for (size_t j = 1; fits && j < r; ++j) {
      fits = y->type->shaped.dims[j - 1] == d->shaped.dims[j];
    }
    if (!status && !fits) {
      status = kiln_onnx_node_error(
          n, KILN_STATUS_INVALID_ARGUMENT,
          "scan output %zu is %s per iteration but the graph declares %s", k,
          kiln_ir_type_to_string(ctx, y->type), kiln_ir_type_to_string(ctx, d));
    }
    int64_t dims[MAXR];
    for (size_t j = 0; j < r; ++j) dims[j] = j ? d->shaped.dims[j] : 1;
    if (!status) status = kiln_onnx_reshape_to(n, y, r, dims, &y);
    value_t* zero_index = NULL;
    if (!status) status = kiln_onnx_splat_int(n, i64, 0, &zero_index);
    value_t* ops[2 + MAXR];
    ops[0] = block->args[3 + nc + k];
    ops[1] = y;
    ops[2] = block->args[0];
    for (size_t j = 1; j < r; ++j) ops[2 + j] = zero_index;
    if (!status) {
      status = kiln_onnx_emit(n, "stablehlo.dynamic_update_slice", 2 + r, ops,
                              d, 0, NULL, &next[3 + nc + k]);
    }
  }
  if (!status) {
    status = kiln_ir_builder_create_simple(n->b, "stablehlo.return", na, next,
                                           0, NULL, 0, NULL, &ret);
  }
  *n->b = saved;
  KILN_RETURN_IF_ERROR(status);
  kiln_ir_op_state_t state;
  kiln_ir_op_state_init(ctx, &state, "stablehlo.while", NULL);
  state.num_operands = na;
  state.operands = init;
  state.num_result_types = na;
  state.result_types = types;
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, cond_region));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, &state, body_region));
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create(n->b, &state, &op));
  for (size_t i = 0; i < nc + nk; ++i) {
    kiln_onnx_set(n, i, kiln_ir_op_result(op, 3 + i));
  }
  if (nk == 0) return kiln_ok_status();
  // The scan buffers have the declared rows: the iterations run must be
  // that many (fewer leave zero rows, more overwrite the last one).
  const type_t* d = types[3 + nc];
  value_t *want = NULL, *ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, i64, d->shaped.dims[0], &want));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_compare(n, "EQ", kiln_ir_op_result(op, 0), want, &ok));
  return kiln_onnx_check_declared_type(
      n, ok, "the number of iterations run (scan output 0)", d);
}

// Loop with a run-time trip count or condition whose scan outputs declare
// their length T, as T predicated iterations: the body is imported per
// iteration with its iteration number known (so that shape operands built
// from it fold), and a run-time flag (iteration < M, and every condition
// so far) selects between the body's loop-carried values and the previous
// ones, and between its scan values and zero rows. Used when the
// stablehlo.while form cannot import the body. At most T iterations run.
static kiln_status_t kiln_onnx_loop_predicated(node_t* n,
                                               const Onnx__GraphProto* body,
                                               size_t nc, size_t nk) {
  kiln_ir_context_t* ctx = n->context;
  int64_t rows = -1;
  for (size_t k = 0; k < nk; ++k) {
    const type_t* d = n->declared[nc + k];
    if (!d || kiln_onnx_rank(d) < 1 ||
        (rows >= 0 && d->shaped.dims[0] != rows)) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "the scan outputs declare no common length");
    }
    rows = d->shaped.dims[0];
  }
  if (nk == 0 || rows < 1 || rows > 256) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "no declared scan length to unroll for");
  }
  const type_t* i64 = kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(ctx, 64));
  const type_t* i1 = kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(ctx, 1));
  value_t *trip = NULL, *cond = NULL, *active = NULL;
  for (size_t j = 0; j < 2; ++j) {
    kiln_onnx_value_t* v = kiln_onnx_input(n, j);
    if (!v) continue;
    value_t* x = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, v, &x));
    KILN_RETURN_IF_ERROR(kiln_onnx_reshape_to(n, x, 0, NULL, &x));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, x, kiln_onnx_elem(j ? i1 : i64), &x));
    *(j ? &cond : &trip) = x;
  }
  if (!cond) KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, i1, 1, &cond));
  kiln_onnx_value_t* carried =
      (kiln_onnx_value_t*)kiln_ir_arena_alloc(ctx, (nc + 2) * sizeof(*carried));
  kiln_onnx_value_t* body_out = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      ctx, (body->n_output + 1) * sizeof(*body_out));
  value_t** parts = (value_t**)kiln_ir_arena_alloc(
      ctx, ((size_t)rows * nk + 1) * sizeof(*parts));
  if (!carried || !body_out || !parts) return KILN_ONNX_OOM();
  for (size_t i = 0; i < nc; ++i) {
    kiln_onnx_value_t* v = kiln_onnx_input(n, 2 + i);
    if (!v || v->kind != KILN_ONNX_KIND_TENSOR) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "loop-carried value %zu is not a tensor", i);
    }
    carried[2 + i] = *v;
  }
  for (int64_t t = 0; t < rows; ++t) {
    // active = every condition so far, and t < M.
    value_t* flag = cond;
    if (active) {
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", active, cond, &flag));
    }
    if (trip) {
      value_t *tv = NULL, *below = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, i64, t, &tv));
      KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", tv, trip, &below));
      KILN_RETURN_IF_ERROR(
          kiln_onnx_binary_same(n, "stablehlo.and", flag, below, &flag));
    }
    active = flag;
    memset(&carried[0], 0, 2 * sizeof(*carried));
    carried[0].type = i64;
    carried[0].known = kiln_onnx_make_const(ctx, i64, &t, 8);
    if (!carried[0].known) return KILN_ONNX_OOM();
    carried[1].type = i1;
    carried[1].ir = cond;
    KILN_RETURN_IF_ERROR(kiln_onnx_import_subgraph(n, body, nc + 2, carried,
                                                   body->n_output, body_out));
    value_t* next_cond = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &body_out[0], &next_cond));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_reshape_to(n, next_cond, 0, NULL, &next_cond));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_convert(n, next_cond, kiln_onnx_elem(i1), &next_cond));
    for (size_t i = 0; i < nc + nk; ++i) {
      value_t *now = NULL, *before = NULL, *pred = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &body_out[1 + i], &now));
      if (i < nc) {
        KILN_RETURN_IF_ERROR(
            kiln_onnx_materialize(n, &carried[2 + i], &before));
        if (now->type != before->type) {
          return kiln_onnx_node_error(
              n, KILN_STATUS_UNIMPLEMENTED,
              "the body changes loop-carried value %zu's type", i);
        }
      } else {
        KILN_RETURN_IF_ERROR(kiln_onnx_like(n, now, 0, &before));
      }
      KILN_RETURN_IF_ERROR(kiln_onnx_broadcast_to(
          n, active, kiln_onnx_rank(now->type), now->type->shaped.dims, &pred));
      value_t* picked = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_select(n, pred, now, before, &picked));
      if (i < nc) {
        memset(&carried[2 + i], 0, sizeof(carried[2 + i]));
        carried[2 + i].name = body_out[1 + i].name;
        carried[2 + i].type = picked->type;
        carried[2 + i].ir = picked;
      } else {
        if (t > 0 && picked->type != parts[i - nc]->type) {
          return kiln_onnx_node_error(
              n, KILN_STATUS_UNIMPLEMENTED,
              "scan output %zu changes shape between iterations", i - nc);
        }
        parts[(size_t)t * nk + (i - nc)] = picked;
      }
    }
    cond = next_cond;
  }
  // Exactly |rows| iterations: the last one ran and no next one would
  // (its condition false, or M reached).
  value_t* more = cond;
  if (trip) {
    value_t *tv = NULL, *below = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_splat_int(n, i64, rows, &tv));
    KILN_RETURN_IF_ERROR(kiln_onnx_compare(n, "LT", tv, trip, &below));
    KILN_RETURN_IF_ERROR(
        kiln_onnx_binary_same(n, "stablehlo.and", more, below, &more));
  }
  value_t* ok = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_unary(n, "stablehlo.not", more, &more));
  KILN_RETURN_IF_ERROR(
      kiln_onnx_binary_same(n, "stablehlo.and", active, more, &ok));
  KILN_RETURN_IF_ERROR(kiln_onnx_check_declared_type(
      n, ok, "the number of iterations run (scan output 0)", n->declared[nc]));
  for (size_t i = 0; i < nc; ++i) kiln_onnx_set_value(n, i, &carried[2 + i]);
  for (size_t k = 0; k < nk; ++k) {
    value_t** p =
        (value_t**)kiln_ir_arena_alloc(ctx, (size_t)rows * sizeof(*p));
    if (!p) return KILN_ONNX_OOM();
    for (int64_t j = 0; j < rows; ++j) p[j] = parts[(size_t)j * nk + k];
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_stack(n, (size_t)rows, p, 0, false, &y));
    if (y->type != n->declared[nc + k]) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_INVALID_ARGUMENT,
          "scan output %zu is %s but the graph declares %s", k,
          kiln_ir_type_to_string(ctx, y->type),
          kiln_ir_type_to_string(ctx, n->declared[nc + k]));
    }
    kiln_onnx_set(n, nc + k, y);
  }
  return kiln_ok_status();
}

// Loop, unrolled: the trip count and the condition must be known at import
// (each iteration's condition too), so that the body is imported once per
// iteration; loop-carried values may be tensors, sequences or optionals,
// and scan outputs are stacked along a new first dim.
#define KILN_ONNX_MAX_UNROLL 4096
static kiln_status_t kiln_onnx_lower_loop(node_t* n) {
  const Onnx__GraphProto* body = kiln_onnx_attr_graph(n, "body");
  if (!body || n->num_inputs < 2) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "needs a body graph, M and cond");
  }
  kiln_onnx_value_t* trip_in = kiln_onnx_input(n, 0);
  kiln_onnx_value_t* cond_in = kiln_onnx_input(n, 1);
  size_t nc = n->num_inputs - 2;  // loop-carried values
  if (body->n_input != nc + 2 || body->n_output < nc + 1 ||
      n->num_outputs != body->n_output - 1) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "the body has %zu inputs and %zu outputs for %zu loop-carried values",
        body->n_input, body->n_output, nc);
  }
  size_t nk = body->n_output - 1 - nc;  // scan outputs
  bool runtime_trip =
      trip_in && (trip_in->kind != KILN_ONNX_KIND_TENSOR || !trip_in->known);
  bool runtime_cond =
      cond_in && (cond_in->kind != KILN_ONNX_KIND_TENSOR || !cond_in->known);
  if (runtime_trip || runtime_cond) {
    kiln_status_t status = kiln_onnx_loop_while(n, body, nc, nk);
    if (status && nk) {
      // A body that needs its iteration number at import (a Slice at the
      // iteration) may still unroll over the declared scan length.
      kiln_status_t unrolled = kiln_onnx_loop_predicated(n, body, nc, nk);
      if (!unrolled) {
        kiln_status_free(status);
        return kiln_ok_status();
      }
      kiln_status_free(unrolled);
    }
    return status;
  }
  int64_t trip = INT64_MAX;
  if (trip_in) {
    if (trip_in->kind != KILN_ONNX_KIND_TENSOR || !trip_in->known ||
        kiln_onnx_num_elements(trip_in->type) != 1) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "the trip count '%s' is computed at run time; Loop is unrolled and "
          "needs it known at import",
          trip_in->name);
    }
    trip = kiln_onnx_known_int(trip_in->known, 0);
  }
  bool cond = true;
  if (cond_in) {
    if (cond_in->kind != KILN_ONNX_KIND_TENSOR || !cond_in->known ||
        kiln_onnx_num_elements(cond_in->type) != 1) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "the condition '%s' is computed at run time; Loop is unrolled and "
          "needs it known at import",
          cond_in->name);
    }
    cond = kiln_onnx_known_double(cond_in->known, 0) != 0;
  }
  if (!trip_in && !cond_in) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "a Loop with neither M nor cond never ends");
  }
  kiln_onnx_value_t* carried = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (nc + 2) * sizeof(*carried));
  kiln_onnx_value_t* body_out = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      n->context, (body->n_output + 1) * sizeof(*body_out));
  if (!carried || !body_out) return KILN_ONNX_OOM();
  for (size_t i = 0; i < nc; ++i) {
    KILN_RETURN_IF_ERROR(kiln_onnx_need_inputs(n, i + 3));
    carried[i + 2] = *n->inputs[i + 2];
  }
  value_t** parts = NULL;
  size_t capacity = 0;
  int64_t t = 0;
  const type_t* i64 =
      kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(n->context, 64));
  const type_t* i1 =
      kiln_onnx_tensor(n, 0, NULL, kiln_ir_int_type(n->context, 1));
  for (; t < trip && cond; ++t) {
    if (t >= KILN_ONNX_MAX_UNROLL) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "more than %d iterations to unroll",
                                  KILN_ONNX_MAX_UNROLL);
    }
    uint8_t one = 1;
    memset(&carried[0], 0, 2 * sizeof(*carried));
    carried[0].type = i64;
    carried[0].known = kiln_onnx_make_const(n->context, i64, &t, 8);
    carried[1].type = i1;
    carried[1].known = kiln_onnx_make_const(n->context, i1, &one, 1);
    if (!carried[0].known || !carried[1].known) return KILN_ONNX_OOM();
    KILN_RETURN_IF_ERROR(kiln_onnx_import_subgraph(n, body, nc + 2, carried,
                                                   body->n_output, body_out));
    kiln_onnx_value_t* c = &body_out[0];
    if (c->kind != KILN_ONNX_KIND_TENSOR || !c->known ||
        kiln_onnx_num_elements(c->type) != 1) {
      return kiln_onnx_node_error(
          n, KILN_STATUS_UNIMPLEMENTED,
          "the body's condition is computed at run time; Loop is unrolled "
          "and needs it known at import");
    }
    cond = kiln_onnx_known_double(c->known, 0) != 0;
    for (size_t i = 0; i < nc; ++i) carried[i + 2] = body_out[1 + i];
    if ((size_t)(t + 1) * nk > capacity) {
      size_t grown = capacity ? capacity * 2 : 16 * (nk ? nk : 1);
      value_t** p =
          (value_t**)kiln_ir_arena_alloc(n->context, grown * sizeof(*p));
      if (!p) return KILN_ONNX_OOM();
      if (capacity) memcpy(p, parts, capacity * sizeof(*p));
      parts = p;
      capacity = grown;
    }
    for (size_t k = 0; k < nk; ++k) {
      value_t* v = NULL;
      KILN_RETURN_IF_ERROR(kiln_onnx_materialize(n, &body_out[1 + nc + k], &v));
      if (t > 0 && v->type != parts[k]->type) {
        return kiln_onnx_node_error(
            n, KILN_STATUS_UNIMPLEMENTED,
            "scan output %zu changes shape between iterations", k);
      }
      parts[(size_t)t * nk + k] = v;
    }
  }
  for (size_t i = 0; i < nc; ++i) kiln_onnx_set_value(n, i, &carried[i + 2]);
  for (size_t k = 0; k < nk; ++k) {
    if (t == 0) {
      return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                  "a Loop with scan outputs that runs no "
                                  "iteration");
    }
    value_t** p =
        (value_t**)kiln_ir_arena_alloc(n->context, (size_t)t * sizeof(*p));
    if (!p) return KILN_ONNX_OOM();
    for (int64_t j = 0; j < t; ++j) p[j] = parts[(size_t)j * nk + k];
    value_t* y = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_stack(n, (size_t)t, p, 0, false, &y));
    kiln_onnx_set(n, nc + k, y);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

// An op listed with several since versions has one lowering that reads the
// opset where the op changed (attributes that became inputs, Softmax's axis
// semantics, broadcasting before opset 7, ...); the entries document the
// versions each lowering was written against.
const kiln_onnx_op_entry_t kiln_onnx_op_table[] = {
    // Elementwise unary.
    {"Abs", 1, kiln_onnx_lower_unary},
    {"Neg", 1, kiln_onnx_lower_unary},
    {"Exp", 1, kiln_onnx_lower_unary},
    {"Log", 1, kiln_onnx_lower_unary},
    {"Sqrt", 1, kiln_onnx_lower_unary},
    {"Ceil", 1, kiln_onnx_lower_unary},
    {"Floor", 1, kiln_onnx_lower_unary},
    {"Sigmoid", 1, kiln_onnx_lower_unary},
    {"Tanh", 1, kiln_onnx_lower_unary},
    {"Sin", 7, kiln_onnx_lower_unary},
    {"Cos", 7, kiln_onnx_lower_unary},
    {"Tan", 7, kiln_onnx_lower_unary},
    {"Not", 1, kiln_onnx_lower_unary},
    {"BitwiseNot", 18, kiln_onnx_lower_unary},
    {"Sign", 9, kiln_onnx_lower_unary},
    {"Round", 11, kiln_onnx_lower_unary},
    {"Erf", 9, kiln_onnx_lower_unary},
    {"Acos", 7, kiln_onnx_lower_unary},
    {"Asin", 7, kiln_onnx_lower_unary},
    {"Atan", 7, kiln_onnx_lower_unary},
    {"Sinh", 9, kiln_onnx_lower_unary},
    {"Cosh", 9, kiln_onnx_lower_unary},
    {"Identity", 1, kiln_onnx_lower_identity},
    {"Relu", 1, kiln_onnx_lower_activation},
    {"Reciprocal", 1, kiln_onnx_lower_activation},
    {"LeakyRelu", 1, kiln_onnx_lower_activation},
    {"Elu", 1, kiln_onnx_lower_activation},
    {"Selu", 1, kiln_onnx_lower_activation},
    {"Celu", 12, kiln_onnx_lower_activation},
    {"HardSigmoid", 1, kiln_onnx_lower_activation},
    {"HardSwish", 14, kiln_onnx_lower_activation},
    {"ThresholdedRelu", 10, kiln_onnx_lower_activation},
    {"Softplus", 1, kiln_onnx_lower_activation},
    {"Softsign", 1, kiln_onnx_lower_activation},
    {"Asinh", 9, kiln_onnx_lower_activation},
    {"Acosh", 9, kiln_onnx_lower_activation},
    {"Atanh", 9, kiln_onnx_lower_activation},
    {"Shrink", 9, kiln_onnx_lower_activation},
    {"IsNaN", 9, kiln_onnx_lower_activation},
    {"IsInf", 10, kiln_onnx_lower_activation},
    // Elementwise binary (multidirectional broadcasting from opset 7).
    {"Add", 1, kiln_onnx_lower_binary},
    {"Add", 7, kiln_onnx_lower_binary},
    {"Sub", 1, kiln_onnx_lower_binary},
    {"Sub", 7, kiln_onnx_lower_binary},
    {"Mul", 1, kiln_onnx_lower_binary},
    {"Mul", 7, kiln_onnx_lower_binary},
    {"Div", 1, kiln_onnx_lower_binary},
    {"Div", 7, kiln_onnx_lower_binary},
    {"Pow", 1, kiln_onnx_lower_binary},
    {"Pow", 7, kiln_onnx_lower_binary},
    {"And", 1, kiln_onnx_lower_binary},
    {"And", 7, kiln_onnx_lower_binary},
    {"Or", 1, kiln_onnx_lower_binary},
    {"Or", 7, kiln_onnx_lower_binary},
    {"Xor", 1, kiln_onnx_lower_binary},
    {"Xor", 7, kiln_onnx_lower_binary},
    {"BitwiseAnd", 18, kiln_onnx_lower_binary},
    {"BitwiseOr", 18, kiln_onnx_lower_binary},
    {"BitwiseXor", 18, kiln_onnx_lower_binary},
    {"Equal", 1, kiln_onnx_lower_binary},
    {"Equal", 7, kiln_onnx_lower_binary},
    {"Less", 1, kiln_onnx_lower_binary},
    {"Less", 7, kiln_onnx_lower_binary},
    {"Greater", 1, kiln_onnx_lower_binary},
    {"Greater", 7, kiln_onnx_lower_binary},
    {"LessOrEqual", 12, kiln_onnx_lower_binary},
    {"GreaterOrEqual", 12, kiln_onnx_lower_binary},
    {"Max", 1, kiln_onnx_lower_variadic},
    {"Max", 8, kiln_onnx_lower_variadic},
    {"Min", 1, kiln_onnx_lower_variadic},
    {"Min", 8, kiln_onnx_lower_variadic},
    {"Sum", 1, kiln_onnx_lower_variadic},
    {"Sum", 8, kiln_onnx_lower_variadic},
    {"Mean", 1, kiln_onnx_lower_variadic},
    {"Mean", 8, kiln_onnx_lower_variadic},
    {"Mod", 10, kiln_onnx_lower_mod},
    {"BitShift", 11, kiln_onnx_lower_bitshift},
    {"PRelu", 1, kiln_onnx_lower_prelu},
    {"Where", 9, kiln_onnx_lower_where},
    {"Cast", 6, kiln_onnx_lower_cast},
    {"CastLike", 15, kiln_onnx_lower_cast},
    {"Clip", 6, kiln_onnx_lower_clip},
    {"Clip", 11, kiln_onnx_lower_clip},
    // Constants and shapes.
    {"Constant", 1, kiln_onnx_lower_constant},
    {"Shape", 1, kiln_onnx_lower_shape},
    {"Size", 1, kiln_onnx_lower_size},
    {"ConstantOfShape", 9, kiln_onnx_lower_constant_of_shape},
    {"Range", 11, kiln_onnx_lower_range},
    {"EyeLike", 9, kiln_onnx_lower_eye_like},
    // Shape manipulation.
    // Control flow (bodies imported as subgraphs).
    {"If", 1, kiln_onnx_lower_if},
    {"If", 11, kiln_onnx_lower_if},
    {"If", 13, kiln_onnx_lower_if},
    {"If", 16, kiln_onnx_lower_if},
    {"Loop", 1, kiln_onnx_lower_loop},
    {"Loop", 11, kiln_onnx_lower_loop},
    {"Loop", 13, kiln_onnx_lower_loop},
    {"Loop", 16, kiln_onnx_lower_loop},
    {"SequenceEmpty", 11, kiln_onnx_lower_sequence_empty},
    {"SequenceConstruct", 11, kiln_onnx_lower_sequence_construct},
    {"SequenceInsert", 11, kiln_onnx_lower_sequence_insert},
    {"SequenceErase", 11, kiln_onnx_lower_sequence_erase},
    {"SequenceAt", 11, kiln_onnx_lower_sequence_at},
    {"SequenceLength", 11, kiln_onnx_lower_sequence_length},
    {"ConcatFromSequence", 11, kiln_onnx_lower_concat_from_sequence},
    {"SplitToSequence", 11, kiln_onnx_lower_split_to_sequence},
    {"SequenceMap", 17, kiln_onnx_lower_sequence_map},
    {"Optional", 15, kiln_onnx_lower_optional},
    {"OptionalHasElement", 15, kiln_onnx_lower_optional_has_element},
    {"OptionalHasElement", 18, kiln_onnx_lower_optional_has_element},
    {"OptionalGetElement", 15, kiln_onnx_lower_optional_get_element},
    {"OptionalGetElement", 18, kiln_onnx_lower_optional_get_element},
    {"Scan", 8, kiln_onnx_lower_scan},
    {"Scan", 9, kiln_onnx_lower_scan},
    {"Scan", 11, kiln_onnx_lower_scan},
    {"Scan", 16, kiln_onnx_lower_scan},
    {"Reshape", 1, kiln_onnx_lower_reshape},
    {"Reshape", 5, kiln_onnx_lower_reshape},
    {"Flatten", 1, kiln_onnx_lower_flatten},
    {"Squeeze", 1, kiln_onnx_lower_squeeze},
    {"Squeeze", 13, kiln_onnx_lower_squeeze},
    {"Unsqueeze", 1, kiln_onnx_lower_unsqueeze},
    {"Unsqueeze", 13, kiln_onnx_lower_unsqueeze},
    {"Transpose", 1, kiln_onnx_lower_transpose},
    {"Concat", 4, kiln_onnx_lower_concat},
    {"Slice", 1, kiln_onnx_lower_slice},
    {"Slice", 10, kiln_onnx_lower_slice},
    {"Gather", 1, kiln_onnx_lower_gather},
    {"Expand", 8, kiln_onnx_lower_expand},
    {"Tile", 6, kiln_onnx_lower_tile},
    {"Pad", 2, kiln_onnx_lower_pad},
    {"Pad", 11, kiln_onnx_lower_pad},
    {"Split", 2, kiln_onnx_lower_split},
    {"Split", 13, kiln_onnx_lower_split},
    {"Dropout", 7, kiln_onnx_lower_dropout},
    {"Dropout", 12, kiln_onnx_lower_dropout},
    {"Trilu", 14, kiln_onnx_lower_trilu},
    {"DepthToSpace", 1, kiln_onnx_lower_depth_space},
    {"SpaceToDepth", 1, kiln_onnx_lower_depth_space},
    // Reductions and normalizations.
    {"ReduceSum", 1, kiln_onnx_lower_reduce},
    {"ReduceSum", 13, kiln_onnx_lower_reduce},
    {"ReduceMean", 1, kiln_onnx_lower_reduce},
    {"ReduceMean", 18, kiln_onnx_lower_reduce},
    {"ReduceMax", 1, kiln_onnx_lower_reduce},
    {"ReduceMax", 18, kiln_onnx_lower_reduce},
    {"ReduceMin", 1, kiln_onnx_lower_reduce},
    {"ReduceMin", 18, kiln_onnx_lower_reduce},
    {"ReduceProd", 1, kiln_onnx_lower_reduce},
    {"ReduceProd", 18, kiln_onnx_lower_reduce},
    {"ReduceL1", 1, kiln_onnx_lower_reduce},
    {"ReduceL1", 18, kiln_onnx_lower_reduce},
    {"ReduceL2", 1, kiln_onnx_lower_reduce},
    {"ReduceL2", 18, kiln_onnx_lower_reduce},
    {"ReduceLogSum", 1, kiln_onnx_lower_reduce},
    {"ReduceLogSum", 18, kiln_onnx_lower_reduce},
    {"ReduceLogSumExp", 1, kiln_onnx_lower_reduce},
    {"ReduceLogSumExp", 18, kiln_onnx_lower_reduce},
    {"ReduceSumSquare", 1, kiln_onnx_lower_reduce},
    {"ReduceSumSquare", 18, kiln_onnx_lower_reduce},
    {"ArgMax", 1, kiln_onnx_lower_argmax},
    {"ArgMin", 1, kiln_onnx_lower_argmax},
    {"Softmax", 1, kiln_onnx_lower_softmax},
    {"Softmax", 13, kiln_onnx_lower_softmax},
    {"LogSoftmax", 1, kiln_onnx_lower_softmax},
    {"LogSoftmax", 13, kiln_onnx_lower_softmax},
    {"Hardmax", 1, kiln_onnx_lower_softmax},
    {"Hardmax", 13, kiln_onnx_lower_softmax},
    {"BatchNormalization", 6, kiln_onnx_lower_batch_norm},
    {"BatchNormalization", 7, kiln_onnx_lower_batch_norm},
    {"BatchNormalization", 9, kiln_onnx_lower_batch_norm},
    {"LayerNormalization", 17, kiln_onnx_lower_layer_norm},
    {"InstanceNormalization", 6, kiln_onnx_lower_instance_norm},
    // Contractions.
    {"MatMul", 1, kiln_onnx_lower_matmul},
    {"Gemm", 1, kiln_onnx_lower_gemm},
    {"RNN", 7, kiln_onnx_lower_rnn},
    {"GRU", 7, kiln_onnx_lower_rnn},
    {"LSTM", 7, kiln_onnx_lower_rnn},
    {"Conv", 1, kiln_onnx_lower_conv},
    {"ConvTranspose", 1, kiln_onnx_lower_conv_transpose},
    // Pooling.
    {"MaxPool", 1, kiln_onnx_lower_pool},
    {"AveragePool", 1, kiln_onnx_lower_pool},
    {"GlobalMaxPool", 1, kiln_onnx_lower_global_pool},
    {"GlobalAveragePool", 1, kiln_onnx_lower_global_pool},
    {"Resize", 10, kiln_onnx_lower_resize},
    {"Resize", 11, kiln_onnx_lower_resize},
    {"Upsample", 7, kiln_onnx_lower_resize},
    {"Upsample", 9, kiln_onnx_lower_resize},
    {"CumSum", 11, kiln_onnx_lower_cumsum},
    {"TopK", 1, kiln_onnx_lower_topk},
    {"TopK", 10, kiln_onnx_lower_topk},
    {"OneHot", 9, kiln_onnx_lower_onehot},
    {"HannWindow", 17, kiln_onnx_lower_window_fn},
    {"HammingWindow", 17, kiln_onnx_lower_window_fn},
    {"BlackmanWindow", 17, kiln_onnx_lower_window_fn},
    {"LRN", 1, kiln_onnx_lower_lrn},
    {"MeanVarianceNormalization", 9, kiln_onnx_lower_mvn},
    {"QuantizeLinear", 10, kiln_onnx_lower_quantize},
    {"DequantizeLinear", 10, kiln_onnx_lower_quantize},
    {"DynamicQuantizeLinear", 11, kiln_onnx_lower_dynamic_quantize},
    {"ScatterElements", 11, kiln_onnx_lower_scatter_elements},
    {"Scatter", 9, kiln_onnx_lower_scatter_elements},
    // Gathers and losses.
    {"GatherElements", 11, kiln_onnx_lower_gather_elements},
    {"NegativeLogLikelihoodLoss", 12, kiln_onnx_lower_nll},
    {"SoftmaxCrossEntropyLoss", 12, kiln_onnx_lower_sce},
    // Index-tuple gathers and scatters, Einsum, integer contractions.
    {"GatherND", 11, kiln_onnx_lower_gather_nd},
    {"GatherND", 12, kiln_onnx_lower_gather_nd},
    {"ScatterND", 11, kiln_onnx_lower_scatter_nd},
    {"ScatterND", 16, kiln_onnx_lower_scatter_nd},
    {"ScatterND", 18, kiln_onnx_lower_scatter_nd},
    {"Einsum", 12, kiln_onnx_lower_einsum},
    {"MatMulInteger", 10, kiln_onnx_lower_matmul_integer},
    {"QLinearMatMul", 10, kiln_onnx_lower_matmul_integer},
    {"ConvInteger", 10, kiln_onnx_lower_conv_integer},
    {"QLinearConv", 10, kiln_onnx_lower_conv_integer},
    // Data-dependent selections (sized by the declared result), Det.
    {"Compress", 9, kiln_onnx_lower_compress},
    {"Compress", 11, kiln_onnx_lower_compress},
    {"NonZero", 9, kiln_onnx_lower_nonzero},
    {"NonZero", 13, kiln_onnx_lower_nonzero},
    {"ReverseSequence", 10, kiln_onnx_lower_reverse_sequence},
    {"Det", 11, kiln_onnx_lower_det},
    {"DFT", 17, kiln_onnx_lower_dft},
    {"DFT", 20, kiln_onnx_lower_dft},
    {"STFT", 17, kiln_onnx_lower_stft},
    {"GridSample", 16, kiln_onnx_lower_grid_sample},
    {"NonMaxSuppression", 10, kiln_onnx_lower_nms},
    {"NonMaxSuppression", 11, kiln_onnx_lower_nms},
    {"TfIdfVectorizer", 9, kiln_onnx_lower_tfidf},
    {"Unique", 11, kiln_onnx_lower_unique},
    {"MaxUnpool", 9, kiln_onnx_lower_max_unpool},
    {"MaxUnpool", 11, kiln_onnx_lower_max_unpool},
    {"RoiAlign", 10, kiln_onnx_lower_roi_align},
    {"RoiAlign", 16, kiln_onnx_lower_roi_align},
    // Domain ai.onnx.preview.training, by "<domain>.<op>" and its version.
    {"ai.onnx.preview.training.Adagrad", 1, kiln_onnx_lower_adagrad},
    {"ai.onnx.preview.training.Momentum", 1, kiln_onnx_lower_momentum},
    {"ai.onnx.preview.training.Adam", 1, kiln_onnx_lower_adam},
    {NULL, 0, NULL},
};
