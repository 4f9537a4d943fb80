#include "compiler/ir/types.h"

#include <string.h>

#include "compiler/ir/context_internal.h"
#include "compiler/ir/printer.h"

const kiln_ir_type_t* kiln_ir_integer_type_get(kiln_ir_context_t* c,
                                               uint32_t width,
                                               kiln_ir_signedness_t sign) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_INTEGER;
  t.integer.width = width;
  t.integer.signedness = sign;
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_int_type(kiln_ir_context_t* c, uint32_t width) {
  return kiln_ir_integer_type_get(c, width, KILN_IR_SIGNLESS);
}

const kiln_ir_type_t* kiln_ir_index_type_get(kiln_ir_context_t* c) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_INDEX;
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_float_type_get(kiln_ir_context_t* c,
                                             kiln_ir_float_kind_t kind) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_FLOAT;
  t.flt.kind = kind;
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_complex_type_get(kiln_ir_context_t* c,
                                               const kiln_ir_type_t* element) {
  if (!element) return NULL;
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_COMPLEX;
  t.complex.element = element;
  return kiln_ir_unique_type(c, &t);
}

static const kiln_ir_type_t* kiln_ir_shaped_get(
    kiln_ir_context_t* c, kiln_ir_type_kind_t kind, size_t rank,
    const int64_t* dims, const kiln_ir_type_t* element,
    const kiln_ir_attribute_t* encoding) {
  if (!element) return NULL;
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = kind;
  t.shaped.rank = rank;
  t.shaped.element = element;
  t.shaped.encoding = encoding;
  t.shaped.dims = dims;  // for the lookup key only
  // Look up first without copying: unique_type copies |t| shallowly, so
  // make the dims arena-owned before.
  if (rank) {
    t.shaped.dims =
        (const int64_t*)kiln_ir_arena_dup(c, dims, rank * sizeof(int64_t));
    if (!t.shaped.dims) return NULL;
  }
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_tensor_type_get(
    kiln_ir_context_t* c, size_t rank, const int64_t* dims,
    const kiln_ir_type_t* element, const kiln_ir_attribute_t* encoding) {
  return kiln_ir_shaped_get(c, KILN_IR_TYPE_RANKED_TENSOR, rank, dims, element,
                            encoding);
}
const kiln_ir_type_t* kiln_ir_unranked_tensor_type_get(
    kiln_ir_context_t* c, const kiln_ir_type_t* element) {
  return kiln_ir_shaped_get(c, KILN_IR_TYPE_UNRANKED_TENSOR, 0, NULL, element,
                            NULL);
}
const kiln_ir_type_t* kiln_ir_vector_type_get(kiln_ir_context_t* c, size_t rank,
                                              const int64_t* dims,
                                              const kiln_ir_type_t* element) {
  return kiln_ir_shaped_get(c, KILN_IR_TYPE_VECTOR, rank, dims, element, NULL);
}
const kiln_ir_type_t* kiln_ir_memref_type_get(kiln_ir_context_t* c, size_t rank,
                                              const int64_t* dims,
                                              const kiln_ir_type_t* element) {
  return kiln_ir_shaped_get(c, KILN_IR_TYPE_MEMREF, rank, dims, element, NULL);
}

const kiln_ir_type_t* kiln_ir_function_type_get(
    kiln_ir_context_t* c, size_t num_inputs,
    const kiln_ir_type_t* const* inputs, size_t num_results,
    const kiln_ir_type_t* const* results) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_FUNCTION;
  t.function.num_inputs = num_inputs;
  t.function.num_results = num_results;
  t.function.inputs = (const kiln_ir_type_t* const*)kiln_ir_arena_dup(
      c, inputs, num_inputs * sizeof(*inputs));
  t.function.results = (const kiln_ir_type_t* const*)kiln_ir_arena_dup(
      c, results, num_results * sizeof(*results));
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_tuple_type_get(
    kiln_ir_context_t* c, size_t count, const kiln_ir_type_t* const* types) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_TUPLE;
  t.tuple.count = count;
  t.tuple.types = (const kiln_ir_type_t* const*)kiln_ir_arena_dup(
      c, types, count * sizeof(*types));
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_none_type_get(kiln_ir_context_t* c) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_NONE;
  return kiln_ir_unique_type(c, &t);
}

const kiln_ir_type_t* kiln_ir_opaque_type_get(kiln_ir_context_t* c,
                                              kiln_string_view_t text) {
  kiln_ir_type_t t;
  memset(&t, 0, sizeof(t));
  t.kind = KILN_IR_TYPE_OPAQUE;
  t.opaque.text = kiln_ir_intern(c, text);
  size_t start = (text.size && text.data[0] == '!') ? 1 : 0;
  size_t end = start;
  while (end < text.size && text.data[end] != '.' && text.data[end] != '<') {
    ++end;
  }
  t.opaque.dialect =
      kiln_ir_intern(c, kiln_string_view_substr(text, start, end - start));
  return kiln_ir_unique_type(c, &t);
}

bool kiln_ir_type_is_integer(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_INTEGER;
}
bool kiln_ir_type_is_signless_int(const kiln_ir_type_t* t, uint32_t width) {
  return t && t->kind == KILN_IR_TYPE_INTEGER &&
         t->integer.signedness == KILN_IR_SIGNLESS && t->integer.width == width;
}
bool kiln_ir_type_is_float(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_FLOAT;
}
bool kiln_ir_type_is_index(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_INDEX;
}
bool kiln_ir_type_is_scalar(const kiln_ir_type_t* t) {
  return t &&
         (t->kind == KILN_IR_TYPE_INTEGER || t->kind == KILN_IR_TYPE_INDEX ||
          t->kind == KILN_IR_TYPE_FLOAT || t->kind == KILN_IR_TYPE_COMPLEX);
}
bool kiln_ir_type_is_shaped(const kiln_ir_type_t* t) {
  return t &&
         (t->kind == KILN_IR_TYPE_RANKED_TENSOR ||
          t->kind == KILN_IR_TYPE_UNRANKED_TENSOR ||
          t->kind == KILN_IR_TYPE_VECTOR || t->kind == KILN_IR_TYPE_MEMREF);
}
bool kiln_ir_type_is_ranked_tensor(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_RANKED_TENSOR;
}
const kiln_ir_type_t* kiln_ir_type_element(const kiln_ir_type_t* t) {
  return kiln_ir_type_is_shaped(t) ? t->shaped.element : t;
}
bool kiln_ir_type_has_static_shape(const kiln_ir_type_t* t) {
  if (!kiln_ir_type_is_shaped(t) || t->kind == KILN_IR_TYPE_UNRANKED_TENSOR) {
    return false;
  }
  for (size_t i = 0; i < t->shaped.rank; ++i) {
    if (t->shaped.dims[i] == KILN_IR_DYNAMIC_DIM) return false;
  }
  return true;
}
int64_t kiln_ir_type_num_elements(const kiln_ir_type_t* t) {
  if (!kiln_ir_type_has_static_shape(t)) return -1;
  int64_t n = 1;
  for (size_t i = 0; i < t->shaped.rank; ++i) n *= t->shaped.dims[i];
  return n;
}
uint32_t kiln_ir_type_bit_width(const kiln_ir_type_t* t) {
  if (!t) return 0;
  switch (t->kind) {
    case KILN_IR_TYPE_INTEGER:
      return t->integer.width;
    case KILN_IR_TYPE_INDEX:
      return 64;
    case KILN_IR_TYPE_FLOAT:
      switch (t->flt.kind) {
        case KILN_IR_F16:
        case KILN_IR_BF16:
          return 16;
        case KILN_IR_F32:
          return 32;
        case KILN_IR_F64:
          return 64;
        case KILN_IR_F4E2M1FN:
          return 4;
        default:
          return 8;
      }
    case KILN_IR_TYPE_COMPLEX:
      return 2 * kiln_ir_type_bit_width(t->complex.element);
    default:
      return 0;
  }
}
size_t kiln_ir_type_storage_bytes(const kiln_ir_type_t* t) {
  if (!t) return 0;
  if (t->kind == KILN_IR_TYPE_COMPLEX) {
    return 2 * kiln_ir_type_storage_bytes(t->complex.element);
  }
  uint32_t bits = kiln_ir_type_bit_width(t);
  return (bits + 7) / 8;
}

const char* kiln_ir_type_to_string(kiln_ir_context_t* c,
                                   const kiln_ir_type_t* type) {
  kiln_ir_string_builder_t sb = {0};
  kiln_ir_sb_print_type(&sb, type);
  const char* result = NULL;
  if (!sb.failed) {
    result =
        (const char*)kiln_ir_arena_dup(c, sb.data ? sb.data : "", sb.size + 1);
  }
  kiln_ir_sb_free(&sb);
  return result;
}

const char* const kiln_ir_float_kind_names[KILN_IR_FLOAT_KIND_COUNT] = {
    "f16",    "bf16",       "f32",        "f64",       "f8E4M3FN",
    "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E8M0FNU", "f4E2M1FN"};
