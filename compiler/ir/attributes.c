#include "compiler/ir/attributes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/context_internal.h"
#include "compiler/ir/printer.h"
// The 8/4-bit float codecs (one definition for compiler and runtime);
// numerics.h pulls in <tgmath.h>, whose `complex` and `I` macros would
// clash with field names here.
#include "runtime/vm/numerics.h"
#undef complex
#undef I

//===----------------------------------------------------------------------===//
// Float bits
//===----------------------------------------------------------------------===//

static uint32_t kiln_ir_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float kiln_ir_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

uint16_t kiln_ir_f32_to_f16_bits(float value) {
  uint32_t x = kiln_ir_f32_bits(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xFF);
  uint32_t mant = x & 0x7FFFFFu;
  if (exp == 0xFF) {  // inf / nan
    return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u | (mant >> 13) : 0));
  }
  int32_t e = exp - 127 + 15;
  if (e >= 0x1F) return (uint16_t)(sign | 0x7C00u);  // overflow -> inf
  if (e <= 0) {
    if (e < -10) return (uint16_t)sign;  // underflow -> 0
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return (uint16_t)(sign | half);
  }
  uint32_t half = sign | ((uint32_t)e << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return (uint16_t)half;
}

float kiln_ir_f16_bits_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FFu;
  if (exp == 0) {
    if (!mant) return kiln_ir_bits_f32(sign);
    float f = ldexpf((float)mant, -24);
    return sign ? -f : f;
  }
  if (exp == 0x1F) {
    return kiln_ir_bits_f32(sign | 0x7F800000u | (mant << 13));
  }
  return kiln_ir_bits_f32(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t kiln_ir_f32_to_bf16_bits(float value) {
  uint32_t x = kiln_ir_f32_bits(value);
  if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu)) {
    return (uint16_t)((x >> 16) | 0x40u);  // quiet nan
  }
  uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
  return (uint16_t)((x + rounding) >> 16);
}

float kiln_ir_bf16_bits_to_f32(uint16_t bits) {
  return kiln_ir_bits_f32((uint32_t)bits << 16);
}

uint64_t kiln_ir_float_to_bits(kiln_ir_float_kind_t kind, double value) {
  switch (kind) {
    case KILN_IR_F16:
      return kiln_ir_f32_to_f16_bits((float)value);
    case KILN_IR_BF16:
      return kiln_ir_f32_to_bf16_bits((float)value);
    case KILN_IR_F32:
      return kiln_ir_f32_bits((float)value);
    case KILN_IR_F64:
      break;
    default:  // 8/4-bit kinds
      return kiln_vm_f32_to_small_float((float)value, (int)kind - 4);
  }
  uint64_t u;
  memcpy(&u, &value, 8);
  return u;
}

double kiln_ir_float_from_bits(kiln_ir_float_kind_t kind, uint64_t bits) {
  switch (kind) {
    case KILN_IR_F16:
      return kiln_ir_f16_bits_to_f32((uint16_t)bits);
    case KILN_IR_BF16:
      return kiln_ir_bf16_bits_to_f32((uint16_t)bits);
    case KILN_IR_F32:
      return kiln_ir_bits_f32((uint32_t)bits);
    case KILN_IR_F64:
      break;
    default:  // 8/4-bit kinds
      return kiln_vm_small_float_to_f32((uint32_t)bits, (int)kind - 4);
  }
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

//===----------------------------------------------------------------------===//
// Affine
//===----------------------------------------------------------------------===//

static kiln_ir_affine_expr_t* kiln_ir_new_affine(kiln_ir_context_t* c,
                                                 kiln_ir_affine_kind_t kind,
                                                 int64_t value) {
  kiln_ir_affine_expr_t* e =
      (kiln_ir_affine_expr_t*)kiln_ir_arena_alloc(c, sizeof(*e));
  if (e) {
    e->kind = kind;
    e->value = value;
  }
  return e;
}
const kiln_ir_affine_expr_t* kiln_ir_affine_dim(kiln_ir_context_t* c,
                                                int64_t position) {
  return kiln_ir_new_affine(c, KILN_IR_AFFINE_DIM, position);
}
const kiln_ir_affine_expr_t* kiln_ir_affine_symbol(kiln_ir_context_t* c,
                                                   int64_t position) {
  return kiln_ir_new_affine(c, KILN_IR_AFFINE_SYMBOL, position);
}
const kiln_ir_affine_expr_t* kiln_ir_affine_constant(kiln_ir_context_t* c,
                                                     int64_t value) {
  return kiln_ir_new_affine(c, KILN_IR_AFFINE_CONSTANT, value);
}
const kiln_ir_affine_expr_t* kiln_ir_affine_binary(
    kiln_ir_context_t* c, kiln_ir_affine_kind_t kind,
    const kiln_ir_affine_expr_t* lhs, const kiln_ir_affine_expr_t* rhs) {
  kiln_ir_affine_expr_t* e = kiln_ir_new_affine(c, kind, 0);
  if (e) {
    e->lhs = lhs;
    e->rhs = rhs;
  }
  return e;
}

static int64_t kiln_ir_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool kiln_ir_affine_expr_eval(const kiln_ir_affine_expr_t* e,
                              const int64_t* dims, size_t num_dims,
                              const int64_t* symbols, size_t num_symbols,
                              int64_t* out) {
  int64_t l = 0, r = 0;
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
      if (e->value < 0 || (size_t)e->value >= num_dims) return false;
      *out = dims[e->value];
      return true;
    case KILN_IR_AFFINE_SYMBOL:
      if (e->value < 0 || (size_t)e->value >= num_symbols) return false;
      *out = symbols[e->value];
      return true;
    case KILN_IR_AFFINE_CONSTANT:
      *out = e->value;
      return true;
    default:
      break;
  }
  if (!kiln_ir_affine_expr_eval(e->lhs, dims, num_dims, symbols, num_symbols,
                                &l) ||
      !kiln_ir_affine_expr_eval(e->rhs, dims, num_dims, symbols, num_symbols,
                                &r)) {
    return false;
  }
  switch (e->kind) {
    case KILN_IR_AFFINE_ADD:
      *out = l + r;
      return true;
    case KILN_IR_AFFINE_MUL:
      *out = l * r;
      return true;
    case KILN_IR_AFFINE_MOD:
      if (!r) return false;
      *out = ((l % r) + r) % r;
      return true;
    case KILN_IR_AFFINE_FLOORDIV:
      if (!r) return false;
      *out = kiln_ir_floordiv(l, r);
      return true;
    case KILN_IR_AFFINE_CEILDIV:
      if (!r) return false;
      *out = -kiln_ir_floordiv(-l, r);
      return true;
    default:
      return false;
  }
}

bool kiln_ir_affine_map_result_is_dim(const kiln_ir_affine_map_t* map, size_t i,
                                      int64_t* out_position) {
  if (i >= map->num_results || map->results[i]->kind != KILN_IR_AFFINE_DIM) {
    return false;
  }
  if (out_position) *out_position = map->results[i]->value;
  return true;
}

bool kiln_ir_affine_map_is_identity(const kiln_ir_affine_map_t* map) {
  if (map->num_results != map->num_dims) return false;
  for (size_t i = 0; i < map->num_results; ++i) {
    int64_t p;
    if (!kiln_ir_affine_map_result_is_dim(map, i, &p) || p != (int64_t)i) {
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

static kiln_ir_attribute_t* kiln_ir_new_attr(kiln_ir_context_t* c,
                                             kiln_ir_attribute_kind_t kind,
                                             const kiln_ir_type_t* type) {
  kiln_ir_attribute_t* a =
      (kiln_ir_attribute_t*)kiln_ir_arena_alloc(c, sizeof(*a));
  if (a) {
    a->kind = kind;
    a->type = type;
  }
  return a;
}

static int64_t kiln_ir_normalize_int(const kiln_ir_type_t* type,
                                     int64_t value) {
  if (!type || type->kind != KILN_IR_TYPE_INTEGER) return value;
  uint32_t w = type->integer.width;
  if (w >= 64) return value;
  uint64_t mask = (1ull << w) - 1;
  uint64_t u = (uint64_t)value & mask;
  if (w == 1 || type->integer.signedness == KILN_IR_UNSIGNED) {
    return (int64_t)u;
  }
  if (u & (1ull << (w - 1))) u |= ~mask;
  return (int64_t)u;
}

const kiln_ir_attribute_t* kiln_ir_integer_attr_get(kiln_ir_context_t* c,
                                                    const kiln_ir_type_t* type,
                                                    int64_t value) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_INTEGER, type);
  if (a) a->i = kiln_ir_normalize_int(type, value);
  return a;
}

const kiln_ir_attribute_t* kiln_ir_float_attr_get_bits(
    kiln_ir_context_t* c, const kiln_ir_type_t* type, uint64_t bits) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_FLOAT, type);
  if (!a) return NULL;
  kiln_ir_float_kind_t kind =
      type && type->kind == KILN_IR_TYPE_FLOAT ? type->flt.kind : KILN_IR_F64;
  a->f.bits = bits;
  a->f.value = kiln_ir_float_from_bits(kind, bits);
  return a;
}

const kiln_ir_attribute_t* kiln_ir_float_attr_get(kiln_ir_context_t* c,
                                                  const kiln_ir_type_t* type,
                                                  double value) {
  kiln_ir_float_kind_t kind =
      type && type->kind == KILN_IR_TYPE_FLOAT ? type->flt.kind : KILN_IR_F64;
  return kiln_ir_float_attr_get_bits(c, type,
                                     kiln_ir_float_to_bits(kind, value));
}

const kiln_ir_attribute_t* kiln_ir_bool_attr_get(kiln_ir_context_t* c,
                                                 bool value) {
  kiln_ir_attribute_t* a =
      kiln_ir_new_attr(c, KILN_IR_ATTR_BOOL, kiln_ir_int_type(c, 1));
  if (a) a->i = value ? 1 : 0;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_string_attr_get(kiln_ir_context_t* c,
                                                   kiln_string_view_t value) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_STRING, NULL);
  if (!a) return NULL;
  char* copy = (char*)kiln_ir_arena_alloc(c, value.size + 1);
  if (!copy) return NULL;
  if (value.size) memcpy(copy, value.data, value.size);
  a->str = kiln_make_string_view(copy, value.size);
  return a;
}

const kiln_ir_attribute_t* kiln_ir_keyword_attr_get(kiln_ir_context_t* c,
                                                    kiln_string_view_t word) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_KEYWORD, NULL);
  if (a) a->str = kiln_ir_intern(c, word);
  return a;
}

const kiln_ir_attribute_t* kiln_ir_unit_attr_get(kiln_ir_context_t* c) {
  return kiln_ir_new_attr(c, KILN_IR_ATTR_UNIT, NULL);
}

const kiln_ir_attribute_t* kiln_ir_type_attr_get(kiln_ir_context_t* c,
                                                 const kiln_ir_type_t* type) {
  return kiln_ir_new_attr(c, KILN_IR_ATTR_TYPE, type);
}

const kiln_ir_attribute_t* kiln_ir_array_attr_get(
    kiln_ir_context_t* c, size_t count,
    const kiln_ir_attribute_t* const* elements) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_ARRAY, NULL);
  if (!a) return NULL;
  a->array.count = count;
  a->array.elements = (const kiln_ir_attribute_t* const*)kiln_ir_arena_dup(
      c, elements, count * sizeof(*elements));
  return a;
}

static int kiln_ir_named_attr_cmp(const void* a, const void* b) {
  return kiln_string_view_compare(((const kiln_ir_named_attribute_t*)a)->name,
                                  ((const kiln_ir_named_attribute_t*)b)->name);
}

const kiln_ir_attribute_t* kiln_ir_dictionary_attr_get(
    kiln_ir_context_t* c, size_t count,
    const kiln_ir_named_attribute_t* entries) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_DICTIONARY, NULL);
  if (!a) return NULL;
  kiln_ir_named_attribute_t* copy =
      (kiln_ir_named_attribute_t*)kiln_ir_arena_dup(c, entries,
                                                    count * sizeof(*entries));
  if (count && !copy) return NULL;
  for (size_t i = 0; i < count; ++i) {
    copy[i].name = kiln_ir_intern(c, copy[i].name);
    copy[i].is_property = false;
  }
  if (count > 1) qsort(copy, count, sizeof(*copy), kiln_ir_named_attr_cmp);
  a->dict.count = count;
  a->dict.entries = copy;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_dense_i64_array_attr_get(
    kiln_ir_context_t* c, const kiln_ir_type_t* element_type, size_t count,
    const int64_t* values) {
  kiln_ir_attribute_t* a =
      kiln_ir_new_attr(c, KILN_IR_ATTR_DENSE_ARRAY, element_type);
  if (!a) return NULL;
  a->dense_array.count = count;
  int64_t* copy = (int64_t*)kiln_ir_arena_alloc(c, (count + 1) * 8);
  if (!copy) return NULL;
  for (size_t i = 0; i < count; ++i) {
    copy[i] = kiln_ir_normalize_int(element_type, values[i]);
  }
  a->dense_array.i64 = copy;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_dense_f64_array_attr_get(
    kiln_ir_context_t* c, const kiln_ir_type_t* element_type, size_t count,
    const double* values) {
  kiln_ir_attribute_t* a =
      kiln_ir_new_attr(c, KILN_IR_ATTR_DENSE_ARRAY, element_type);
  if (!a) return NULL;
  a->dense_array.count = count;
  double* copy = (double*)kiln_ir_arena_alloc(c, (count + 1) * 8);
  if (!copy) return NULL;
  kiln_ir_float_kind_t kind = element_type->kind == KILN_IR_TYPE_FLOAT
                                  ? element_type->flt.kind
                                  : KILN_IR_F64;
  for (size_t i = 0; i < count; ++i) {
    copy[i] =
        kiln_ir_float_from_bits(kind, kiln_ir_float_to_bits(kind, values[i]));
  }
  a->dense_array.f64 = copy;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_symbol_ref_attr_get(
    kiln_ir_context_t* c, kiln_string_view_t root, size_t num_nested,
    const kiln_string_view_t* nested) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_SYMBOL_REF, NULL);
  if (!a) return NULL;
  a->symbol.root = kiln_ir_intern(c, root);
  a->symbol.num_nested = num_nested;
  kiln_string_view_t* copy = (kiln_string_view_t*)kiln_ir_arena_alloc(
      c, (num_nested + 1) * sizeof(*copy));
  if (!copy) return NULL;
  for (size_t i = 0; i < num_nested; ++i)
    copy[i] = kiln_ir_intern(c, nested[i]);
  a->symbol.nested = copy;
  return a;
}

// A dense elements attribute of |shaped_type| with |size| bytes (checked
// against the type) and no data yet.
static kiln_ir_attribute_t* kiln_ir_dense_new(kiln_ir_context_t* c,
                                              const kiln_ir_type_t* shaped_type,
                                              bool splat, size_t size) {
  if (!kiln_ir_type_is_shaped(shaped_type)) return NULL;
  size_t elem = kiln_ir_type_storage_bytes(shaped_type->shaped.element);
  int64_t n = kiln_ir_type_num_elements(shaped_type);
  if (!elem || n < 0) return NULL;
  if (size != (splat ? elem : elem * (size_t)n)) return NULL;
  kiln_ir_attribute_t* a =
      kiln_ir_new_attr(c, KILN_IR_ATTR_DENSE_ELEMENTS, shaped_type);
  if (!a) return NULL;
  a->dense.splat = splat;
  a->dense.size = size;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_get(
    kiln_ir_context_t* c, const kiln_ir_type_t* shaped_type, bool splat,
    const void* data, size_t size) {
  kiln_ir_attribute_t* a = kiln_ir_dense_new(c, shaped_type, splat, size);
  if (!a) return NULL;
  a->dense.data = (const uint8_t*)kiln_ir_arena_dup(c, data, size);
  return a->dense.data ? a : NULL;
}

const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_get_uninitialized(
    kiln_ir_context_t* c, const kiln_ir_type_t* shaped_type, bool splat,
    size_t size, uint8_t** out_data) {
  *out_data = NULL;
  kiln_ir_attribute_t* a = kiln_ir_dense_new(c, shaped_type, splat, size);
  uint8_t* data =
      a ? (uint8_t*)kiln_ir_arena_alloc_uninitialized(c, size) : NULL;
  if (!data) return NULL;
  a->dense.data = data;
  *out_data = data;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_get_borrowed(
    kiln_ir_context_t* c, const kiln_ir_type_t* shaped_type, bool splat,
    const void* data, size_t size) {
  kiln_ir_attribute_t* a = kiln_ir_dense_new(c, shaped_type, splat, size);
  if (a) a->dense.data = (const uint8_t*)data;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_reshape(
    kiln_ir_context_t* c, const kiln_ir_attribute_t* source,
    const kiln_ir_type_t* shaped_type) {
  if (!source || source->kind != KILN_IR_ATTR_DENSE_ELEMENTS ||
      !kiln_ir_type_is_shaped(shaped_type) ||
      !kiln_ir_type_is_shaped(source->type) ||
      source->type->shaped.element != shaped_type->shaped.element ||
      kiln_ir_type_num_elements(shaped_type) < 0 ||
      kiln_ir_type_num_elements(shaped_type) !=
          kiln_ir_type_num_elements(source->type)) {
    return NULL;
  }
  kiln_ir_attribute_t* a =
      kiln_ir_new_attr(c, KILN_IR_ATTR_DENSE_ELEMENTS, shaped_type);
  if (!a) return NULL;
  a->dense = source->dense;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_affine_map_attr_get(
    kiln_ir_context_t* c, uint32_t num_dims, uint32_t num_symbols,
    size_t num_results, const kiln_ir_affine_expr_t* const* results) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_AFFINE_MAP, NULL);
  kiln_ir_affine_map_t* m =
      (kiln_ir_affine_map_t*)kiln_ir_arena_alloc(c, sizeof(*m));
  if (!a || !m) return NULL;
  m->num_dims = num_dims;
  m->num_symbols = num_symbols;
  m->num_results = num_results;
  m->results = (const kiln_ir_affine_expr_t* const*)kiln_ir_arena_dup(
      c, results, num_results * sizeof(*results));
  a->affine_map = m;
  return a;
}

const kiln_ir_attribute_t* kiln_ir_dialect_attr_get(
    kiln_ir_context_t* c, kiln_string_view_t dialect, kiln_string_view_t name,
    kiln_string_view_t text, bool structured, size_t num_params,
    const kiln_ir_named_attribute_t* params) {
  kiln_ir_attribute_t* a = kiln_ir_new_attr(c, KILN_IR_ATTR_DIALECT, NULL);
  if (!a) return NULL;
  a->dialect.dialect = kiln_ir_intern(c, dialect);
  a->dialect.name = kiln_ir_intern(c, name);
  char* copy = (char*)kiln_ir_arena_alloc(c, text.size + 1);
  if (!copy) return NULL;
  memcpy(copy, text.data, text.size);
  a->dialect.text = kiln_make_string_view(copy, text.size);
  a->dialect.structured = structured;
  kiln_ir_named_attribute_t* p =
      (kiln_ir_named_attribute_t*)kiln_ir_arena_alloc(
          c, (num_params + 1) * sizeof(*p));
  if (!p) return NULL;
  for (size_t i = 0; i < num_params; ++i) {
    p[i] = params[i];
    p[i].name = kiln_ir_intern(c, params[i].name);
  }
  a->dialect.num_params = num_params;
  a->dialect.params = p;
  return a;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

static bool kiln_ir_affine_equal(const kiln_ir_affine_expr_t* a,
                                 const kiln_ir_affine_expr_t* b) {
  if (a->kind != b->kind || a->value != b->value) return false;
  if (a->kind <= KILN_IR_AFFINE_CONSTANT) return true;
  return kiln_ir_affine_equal(a->lhs, b->lhs) &&
         kiln_ir_affine_equal(a->rhs, b->rhs);
}

bool kiln_ir_attribute_equal(const kiln_ir_attribute_t* a,
                             const kiln_ir_attribute_t* b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind || a->type != b->type) return false;
  switch (a->kind) {
    case KILN_IR_ATTR_INTEGER:
    case KILN_IR_ATTR_BOOL:
      return a->i == b->i;
    case KILN_IR_ATTR_FLOAT:
      return a->f.bits == b->f.bits;
    case KILN_IR_ATTR_STRING:
    case KILN_IR_ATTR_KEYWORD:
      return kiln_string_view_equal(a->str, b->str);
    case KILN_IR_ATTR_UNIT:
    case KILN_IR_ATTR_TYPE:
      return true;
    case KILN_IR_ATTR_ARRAY:
      if (a->array.count != b->array.count) return false;
      for (size_t i = 0; i < a->array.count; ++i) {
        if (!kiln_ir_attribute_equal(a->array.elements[i],
                                     b->array.elements[i])) {
          return false;
        }
      }
      return true;
    case KILN_IR_ATTR_DENSE_ARRAY:
      if (a->dense_array.count != b->dense_array.count) return false;
      if (a->dense_array.i64) {
        return !b->dense_array.i64
                   ? false
                   : memcmp(a->dense_array.i64, b->dense_array.i64,
                            a->dense_array.count * 8) == 0;
      }
      return b->dense_array.f64 &&
             memcmp(a->dense_array.f64, b->dense_array.f64,
                    a->dense_array.count * 8) == 0;
    case KILN_IR_ATTR_DICTIONARY:
      if (a->dict.count != b->dict.count) return false;
      for (size_t i = 0; i < a->dict.count; ++i) {
        if (!kiln_string_view_equal(a->dict.entries[i].name,
                                    b->dict.entries[i].name) ||
            !kiln_ir_attribute_equal(a->dict.entries[i].value,
                                     b->dict.entries[i].value)) {
          return false;
        }
      }
      return true;
    case KILN_IR_ATTR_SYMBOL_REF:
      if (!kiln_string_view_equal(a->symbol.root, b->symbol.root) ||
          a->symbol.num_nested != b->symbol.num_nested) {
        return false;
      }
      for (size_t i = 0; i < a->symbol.num_nested; ++i) {
        if (!kiln_string_view_equal(a->symbol.nested[i], b->symbol.nested[i])) {
          return false;
        }
      }
      return true;
    case KILN_IR_ATTR_DENSE_ELEMENTS: {
      if (a->dense.splat == b->dense.splat) {
        return a->dense.size == b->dense.size &&
               memcmp(a->dense.data, b->dense.data, a->dense.size) == 0;
      }
      // A splat equals a full array of the same element everywhere.
      const kiln_ir_attribute_t* s = a->dense.splat ? a : b;
      const kiln_ir_attribute_t* f = a->dense.splat ? b : a;
      size_t e = s->dense.size;
      for (size_t off = 0; off < f->dense.size; off += e) {
        if (memcmp(f->dense.data + off, s->dense.data, e) != 0) return false;
      }
      return true;
    }
    case KILN_IR_ATTR_AFFINE_MAP: {
      const kiln_ir_affine_map_t *x = a->affine_map, *y = b->affine_map;
      if (x->num_dims != y->num_dims || x->num_symbols != y->num_symbols ||
          x->num_results != y->num_results) {
        return false;
      }
      for (size_t i = 0; i < x->num_results; ++i) {
        if (!kiln_ir_affine_equal(x->results[i], y->results[i])) return false;
      }
      return true;
    }
    case KILN_IR_ATTR_DIALECT:
      return kiln_string_view_equal(a->dialect.text, b->dialect.text);
  }
  return false;
}

const kiln_ir_attribute_t* kiln_ir_dictionary_get(
    const kiln_ir_attribute_t* dict, const char* name) {
  if (!dict || dict->kind != KILN_IR_ATTR_DICTIONARY) return NULL;
  for (size_t i = 0; i < dict->dict.count; ++i) {
    if (kiln_string_view_equal_cstr(dict->dict.entries[i].name, name)) {
      return dict->dict.entries[i].value;
    }
  }
  return NULL;
}

const kiln_ir_attribute_t* kiln_ir_dialect_attr_param(
    const kiln_ir_attribute_t* attr, const char* key) {
  if (!attr || attr->kind != KILN_IR_ATTR_DIALECT) return NULL;
  for (size_t i = 0; i < attr->dialect.num_params; ++i) {
    if (kiln_string_view_equal_cstr(attr->dialect.params[i].name, key)) {
      return attr->dialect.params[i].value;
    }
  }
  return NULL;
}

kiln_string_view_t kiln_ir_dialect_attr_keyword(
    const kiln_ir_attribute_t* attr) {
  if (attr && attr->kind == KILN_IR_ATTR_DIALECT) {
    for (size_t i = 0; i < attr->dialect.num_params; ++i) {
      const kiln_ir_named_attribute_t* p = &attr->dialect.params[i];
      if (p->name.size == 0 && p->value->kind == KILN_IR_ATTR_KEYWORD) {
        return p->value->str;
      }
    }
  }
  return kiln_string_view_empty();
}

bool kiln_ir_dialect_attr_is(const kiln_ir_attribute_t* attr,
                             const char* dialect, const char* name) {
  return attr && attr->kind == KILN_IR_ATTR_DIALECT &&
         kiln_string_view_equal_cstr(attr->dialect.dialect, dialect) &&
         kiln_string_view_equal_cstr(attr->dialect.name, name);
}

int64_t kiln_ir_attr_int_list(const kiln_ir_attribute_t* attr, int64_t* out,
                              size_t capacity) {
  if (!attr) return -1;
  if (attr->kind == KILN_IR_ATTR_DENSE_ARRAY && attr->dense_array.i64) {
    for (size_t i = 0; i < attr->dense_array.count && i < capacity; ++i) {
      out[i] = attr->dense_array.i64[i];
    }
    return (int64_t)attr->dense_array.count;
  }
  if (attr->kind == KILN_IR_ATTR_ARRAY) {
    for (size_t i = 0; i < attr->array.count; ++i) {
      const kiln_ir_attribute_t* e = attr->array.elements[i];
      if (e->kind != KILN_IR_ATTR_INTEGER) return -1;
      if (i < capacity) out[i] = e->i;
    }
    return (int64_t)attr->array.count;
  }
  if (attr->kind == KILN_IR_ATTR_DENSE_ELEMENTS) {
    int64_t n = kiln_ir_dense_num_elements(attr);
    for (int64_t i = 0; i < n; ++i) {
      int64_t v;
      if (!kiln_ir_dense_get_int(attr, i, &v)) return -1;
      if ((size_t)i < capacity) out[i] = v;
    }
    return n;
  }
  return -1;
}

int64_t kiln_ir_dense_num_elements(const kiln_ir_attribute_t* attr) {
  if (!attr || attr->kind != KILN_IR_ATTR_DENSE_ELEMENTS) return -1;
  return kiln_ir_type_num_elements(attr->type);
}

static const uint8_t* kiln_ir_dense_element_ptr(const kiln_ir_attribute_t* a,
                                                int64_t index,
                                                size_t* out_bytes) {
  if (!a || a->kind != KILN_IR_ATTR_DENSE_ELEMENTS) return NULL;
  size_t bytes = kiln_ir_type_storage_bytes(a->type->shaped.element);
  *out_bytes = bytes;
  if (a->dense.splat) return a->dense.data;
  if (index < 0 || (size_t)index * bytes >= a->dense.size) return NULL;
  return a->dense.data + (size_t)index * bytes;
}

static uint64_t kiln_ir_load_le(const uint8_t* p, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes && i < 8; ++i) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

bool kiln_ir_dense_get_int(const kiln_ir_attribute_t* a, int64_t index,
                           int64_t* out) {
  size_t bytes = 0;
  const uint8_t* p = kiln_ir_dense_element_ptr(a, index, &bytes);
  if (!p) return false;
  const kiln_ir_type_t* e = a->type->shaped.element;
  if (e->kind != KILN_IR_TYPE_INTEGER && e->kind != KILN_IR_TYPE_INDEX) {
    return false;
  }
  uint64_t raw = kiln_ir_load_le(p, bytes);
  *out = kiln_ir_normalize_int(e, (int64_t)raw);
  return true;
}

bool kiln_ir_dense_get_double(const kiln_ir_attribute_t* a, int64_t index,
                              double* out) {
  size_t bytes = 0;
  const uint8_t* p = kiln_ir_dense_element_ptr(a, index, &bytes);
  if (!p) return false;
  const kiln_ir_type_t* e = a->type->shaped.element;
  if (e->kind == KILN_IR_TYPE_COMPLEX) {
    e = e->complex.element;
    bytes /= 2;
  }
  if (e->kind != KILN_IR_TYPE_FLOAT) return false;
  *out = kiln_ir_float_from_bits(e->flt.kind, kiln_ir_load_le(p, bytes));
  return true;
}

bool kiln_ir_dense_get_complex(const kiln_ir_attribute_t* a, int64_t index,
                               double* out_real, double* out_imag) {
  size_t bytes = 0;
  const uint8_t* p = kiln_ir_dense_element_ptr(a, index, &bytes);
  if (!p) return false;
  const kiln_ir_type_t* e = a->type->shaped.element;
  if (e->kind != KILN_IR_TYPE_COMPLEX) return false;
  e = e->complex.element;
  bytes /= 2;
  if (e->kind == KILN_IR_TYPE_FLOAT) {
    *out_real = kiln_ir_float_from_bits(e->flt.kind, kiln_ir_load_le(p, bytes));
    *out_imag =
        kiln_ir_float_from_bits(e->flt.kind, kiln_ir_load_le(p + bytes, bytes));
  } else {
    *out_real =
        (double)kiln_ir_normalize_int(e, (int64_t)kiln_ir_load_le(p, bytes));
    *out_imag = (double)kiln_ir_normalize_int(
        e, (int64_t)kiln_ir_load_le(p + bytes, bytes));
  }
  return true;
}

const char* kiln_ir_attribute_to_string(kiln_ir_context_t* c,
                                        const kiln_ir_attribute_t* attr) {
  kiln_ir_string_builder_t sb = {0};
  kiln_ir_sb_print_attribute(&sb, attr, true);
  const char* result = NULL;
  if (!sb.failed) {
    result =
        (const char*)kiln_ir_arena_dup(c, sb.data ? sb.data : "", sb.size + 1);
  }
  kiln_ir_sb_free(&sb);
  return result;
}

//===----------------------------------------------------------------------===//
// Parameter references
//===----------------------------------------------------------------------===//

// True for `#flow.parameter.named<"scope"::"key">` or
// `#flow.parameter.named<"key">` (IREE's parameter references).
bool kiln_ir_attr_is_parameter(const kiln_ir_attribute_t* init) {
  return init && init->kind == KILN_IR_ATTR_DIALECT &&
         kiln_string_view_equal_cstr(init->dialect.dialect, "flow") &&
         kiln_string_view_equal_cstr(init->dialect.name, "parameter.named");
}

// Reads one `"..."` at |*p| (no escapes: keys are plain names).
static bool kiln_ir_parameter_quoted(const char** p, const char* end,
                                     kiln_string_view_t* out) {
  while (*p < end && **p == ' ') ++*p;
  if (*p >= end || **p != '"') return false;
  const char* start = ++*p;
  while (*p < end && **p != '"') {
    if (**p == '\\') return false;
    ++*p;
  }
  if (*p >= end) return false;
  *out = kiln_make_string_view(start, (size_t)(*p - start));
  ++*p;
  return true;
}

bool kiln_ir_parameter_attr_ref(const kiln_ir_attribute_t* attr,
                                kiln_string_view_t* out_scope,
                                kiln_string_view_t* out_key) {
  if (!kiln_ir_attr_is_parameter(attr)) return false;
  kiln_string_view_t text = attr->dialect.text;
  const char* p = memchr(text.data, '<', text.size);
  const char* end = text.data + text.size;
  if (!p) return false;
  ++p;
  kiln_string_view_t first, second;
  if (!kiln_ir_parameter_quoted(&p, end, &first)) return false;
  while (p < end && *p == ' ') ++p;
  if (p + 1 < end && p[0] == ':' && p[1] == ':') {
    p += 2;
    if (!kiln_ir_parameter_quoted(&p, end, &second)) return false;
    *out_scope = first;
    *out_key = second;
  } else {
    *out_scope = kiln_string_view_empty();
    *out_key = first;
  }
  while (p < end && *p == ' ') ++p;
  return p < end && *p == '>';
}
