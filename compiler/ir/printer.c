#include "compiler/ir/printer.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/context_internal.h"

//===----------------------------------------------------------------------===//
// String builder
//===----------------------------------------------------------------------===//

void kiln_ir_sb_append(kiln_ir_string_builder_t* sb, const char* data,
                       size_t size) {
  if (sb->failed) return;
  if (sb->size + size + 1 > sb->capacity) {
    size_t cap = sb->capacity ? sb->capacity * 2 : 256;
    while (cap < sb->size + size + 1) cap *= 2;
    char* grown = (char*)realloc(sb->data, cap);
    if (!grown) {
      sb->failed = true;
      return;
    }
    sb->data = grown;
    sb->capacity = cap;
  }
  if (size) memcpy(sb->data + sb->size, data, size);
  sb->size += size;
  sb->data[sb->size] = 0;
}

void kiln_ir_sb_printf(kiln_ir_string_builder_t* sb, const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (n < 0) return;
  if ((size_t)n < sizeof(buffer)) {
    kiln_ir_sb_append(sb, buffer, (size_t)n);
    return;
  }
  char* big = (char*)malloc((size_t)n + 1);
  if (!big) {
    sb->failed = true;
    return;
  }
  va_start(args, format);
  vsnprintf(big, (size_t)n + 1, format, args);
  va_end(args);
  kiln_ir_sb_append(sb, big, (size_t)n);
  free(big);
}

static void kiln_ir_sb_puts(kiln_ir_string_builder_t* sb, const char* s) {
  kiln_ir_sb_append(sb, s, strlen(s));
}

void kiln_ir_sb_free(kiln_ir_string_builder_t* sb) {
  free(sb->data);
  memset(sb, 0, sizeof(*sb));
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static void kiln_ir_sb_print_dims(kiln_ir_string_builder_t* sb,
                                  const kiln_ir_type_t* t) {
  for (size_t i = 0; i < t->shaped.rank; ++i) {
    if (t->shaped.dims[i] == KILN_IR_DYNAMIC_DIM) {
      kiln_ir_sb_puts(sb, "?x");
    } else {
      kiln_ir_sb_printf(sb, "%" PRId64 "x", t->shaped.dims[i]);
    }
  }
}

void kiln_ir_sb_print_type(kiln_ir_string_builder_t* sb,
                           const kiln_ir_type_t* t) {
  if (!t) {
    kiln_ir_sb_puts(sb, "<<NULL TYPE>>");
    return;
  }
  switch (t->kind) {
    case KILN_IR_TYPE_INTEGER:
      kiln_ir_sb_printf(sb, "%s%u",
                        t->integer.signedness == KILN_IR_SIGNED     ? "si"
                        : t->integer.signedness == KILN_IR_UNSIGNED ? "ui"
                                                                    : "i",
                        t->integer.width);
      return;
    case KILN_IR_TYPE_INDEX:
      kiln_ir_sb_puts(sb, "index");
      return;
    case KILN_IR_TYPE_FLOAT: {
      kiln_ir_sb_puts(sb, kiln_ir_float_kind_names[t->flt.kind]);
      return;
    }
    case KILN_IR_TYPE_COMPLEX:
      kiln_ir_sb_puts(sb, "complex<");
      kiln_ir_sb_print_type(sb, t->complex.element);
      kiln_ir_sb_puts(sb, ">");
      return;
    case KILN_IR_TYPE_RANKED_TENSOR:
    case KILN_IR_TYPE_VECTOR:
    case KILN_IR_TYPE_MEMREF:
      kiln_ir_sb_puts(sb, t->kind == KILN_IR_TYPE_RANKED_TENSOR ? "tensor<"
                          : t->kind == KILN_IR_TYPE_VECTOR      ? "vector<"
                                                                : "memref<");
      kiln_ir_sb_print_dims(sb, t);
      kiln_ir_sb_print_type(sb, t->shaped.element);
      if (t->shaped.encoding) {
        kiln_ir_sb_puts(sb, ", ");
        kiln_ir_sb_print_attribute(sb, t->shaped.encoding, true);
      }
      kiln_ir_sb_puts(sb, ">");
      return;
    case KILN_IR_TYPE_UNRANKED_TENSOR:
      kiln_ir_sb_puts(sb, "tensor<*x");
      kiln_ir_sb_print_type(sb, t->shaped.element);
      kiln_ir_sb_puts(sb, ">");
      return;
    case KILN_IR_TYPE_FUNCTION: {
      kiln_ir_sb_puts(sb, "(");
      for (size_t i = 0; i < t->function.num_inputs; ++i) {
        if (i) kiln_ir_sb_puts(sb, ", ");
        kiln_ir_sb_print_type(sb, t->function.inputs[i]);
      }
      kiln_ir_sb_puts(sb, ") -> ");
      bool parens = t->function.num_results != 1 ||
                    t->function.results[0]->kind == KILN_IR_TYPE_FUNCTION;
      if (parens) kiln_ir_sb_puts(sb, "(");
      for (size_t i = 0; i < t->function.num_results; ++i) {
        if (i) kiln_ir_sb_puts(sb, ", ");
        kiln_ir_sb_print_type(sb, t->function.results[i]);
      }
      if (parens) kiln_ir_sb_puts(sb, ")");
      return;
    }
    case KILN_IR_TYPE_TUPLE:
      kiln_ir_sb_puts(sb, "tuple<");
      for (size_t i = 0; i < t->tuple.count; ++i) {
        if (i) kiln_ir_sb_puts(sb, ", ");
        kiln_ir_sb_print_type(sb, t->tuple.types[i]);
      }
      kiln_ir_sb_puts(sb, ">");
      return;
    case KILN_IR_TYPE_NONE:
      kiln_ir_sb_puts(sb, "none");
      return;
    case KILN_IR_TYPE_OPAQUE:
      kiln_ir_sb_append(sb, t->opaque.text.data, t->opaque.text.size);
      return;
  }
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

void kiln_ir_sb_print_float(kiln_ir_string_builder_t* sb,
                            kiln_ir_float_kind_t kind, uint64_t bits) {
  double value = kiln_ir_float_from_bits(kind, bits);
  if (isfinite(value)) {
    char buffer[64];
    int precisions[] = {6, 9, 17};
    for (int k = 0; k < 3; ++k) {
      snprintf(buffer, sizeof(buffer), "%.*g", precisions[k], value);
      // MLIR's float literals need a '.' before any exponent: "1.0e-12",
      // never "1e-12" (which reads as the integer 1 and a stray 'e').
      if (!strchr(buffer, '.')) {
        char* e = strchr(buffer, 'e');
        char tail[64] = "";
        if (e) {
          snprintf(tail, sizeof(tail), "%s", e);
          *e = 0;
        }
        strcat(buffer, ".0");
        strcat(buffer, tail);
      }
      double back = strtod(buffer, NULL);
      if (kiln_ir_float_to_bits(kind, back) == bits) {
        kiln_ir_sb_puts(sb, buffer);
        return;
      }
    }
  }
  int digits = kind == KILN_IR_F64                 ? 16
               : kind == KILN_IR_F32               ? 8
               : kiln_ir_float_kind_is_small(kind) ? 2
                                                   : 4;
  kiln_ir_sb_printf(sb, "0x%0*" PRIX64, digits, bits);
}

static void kiln_ir_sb_print_string_literal(kiln_ir_string_builder_t* sb,
                                            kiln_string_view_t s) {
  kiln_ir_sb_puts(sb, "\"");
  for (size_t i = 0; i < s.size; ++i) {
    unsigned char ch = (unsigned char)s.data[i];
    if (ch == '"' || ch == '\\') {
      kiln_ir_sb_printf(sb, "\\%c", ch);
    } else if (ch == '\n') {
      kiln_ir_sb_puts(sb, "\\n");
    } else if (ch == '\t') {
      kiln_ir_sb_puts(sb, "\\t");
    } else if (ch < 0x20 || ch >= 0x7F) {
      kiln_ir_sb_printf(sb, "\\%02X", ch);
    } else {
      kiln_ir_sb_append(sb, (const char*)&ch, 1);
    }
  }
  kiln_ir_sb_puts(sb, "\"");
}

static bool kiln_ir_is_bare_symbol(kiln_string_view_t s) {
  if (!s.size || !(isalpha((unsigned char)s.data[0]) || s.data[0] == '_')) {
    return false;
  }
  for (size_t i = 0; i < s.size; ++i) {
    char ch = s.data[i];
    if (!isalnum((unsigned char)ch) && ch != '_' && ch != '$' && ch != '.') {
      return false;
    }
  }
  return true;
}

static void kiln_ir_sb_print_symbol(kiln_ir_string_builder_t* sb,
                                    kiln_string_view_t s) {
  kiln_ir_sb_puts(sb, "@");
  if (kiln_ir_is_bare_symbol(s)) {
    kiln_ir_sb_append(sb, s.data, s.size);
  } else {
    kiln_ir_sb_print_string_literal(sb, s);
  }
}

static void kiln_ir_sb_print_int_value(kiln_ir_string_builder_t* sb,
                                       const kiln_ir_type_t* type, int64_t v) {
  if (type && type->kind == KILN_IR_TYPE_INTEGER && type->integer.width == 1) {
    kiln_ir_sb_puts(sb, v ? "true" : "false");
  } else if (type && type->kind == KILN_IR_TYPE_INTEGER &&
             type->integer.signedness == KILN_IR_UNSIGNED) {
    kiln_ir_sb_printf(sb, "%" PRIu64, (uint64_t)v);
  } else {
    kiln_ir_sb_printf(sb, "%" PRId64, v);
  }
}

static void kiln_ir_sb_print_affine_expr(kiln_ir_string_builder_t* sb,
                                         const kiln_ir_affine_expr_t* e,
                                         bool parens) {
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
      kiln_ir_sb_printf(sb, "d%" PRId64, e->value);
      return;
    case KILN_IR_AFFINE_SYMBOL:
      kiln_ir_sb_printf(sb, "s%" PRId64, e->value);
      return;
    case KILN_IR_AFFINE_CONSTANT:
      kiln_ir_sb_printf(sb, "%" PRId64, e->value);
      return;
    default:
      break;
  }
  if (parens) kiln_ir_sb_puts(sb, "(");
  kiln_ir_sb_print_affine_expr(sb, e->lhs, true);
  // a + b * -1 prints as a - b; a + -c as a - c.
  if (e->kind == KILN_IR_AFFINE_ADD && e->rhs->kind == KILN_IR_AFFINE_MUL &&
      e->rhs->rhs->kind == KILN_IR_AFFINE_CONSTANT &&
      e->rhs->rhs->value == -1) {
    kiln_ir_sb_puts(sb, " - ");
    kiln_ir_sb_print_affine_expr(sb, e->rhs->lhs, true);
  } else if (e->kind == KILN_IR_AFFINE_ADD &&
             e->rhs->kind == KILN_IR_AFFINE_CONSTANT && e->rhs->value < 0 &&
             e->rhs->value != INT64_MIN) {
    kiln_ir_sb_printf(sb, " - %" PRId64, -e->rhs->value);
  } else {
    static const char* ops[] = {"",    "",      "",           " + ",
                                " * ", " mod ", " floordiv ", " ceildiv "};
    kiln_ir_sb_puts(sb, ops[e->kind]);
    kiln_ir_sb_print_affine_expr(sb, e->rhs, true);
  }
  if (parens) kiln_ir_sb_puts(sb, ")");
}

static void kiln_ir_sb_print_dense_element(kiln_ir_string_builder_t* sb,
                                           const kiln_ir_attribute_t* a,
                                           int64_t index) {
  const kiln_ir_type_t* e = a->type->shaped.element;
  if (e->kind == KILN_IR_TYPE_COMPLEX) {
    const kiln_ir_type_t* ce = e->complex.element;
    size_t bytes = kiln_ir_type_storage_bytes(ce);
    const uint8_t* p =
        a->dense.data + (a->dense.splat ? 0 : (size_t)index * 2 * bytes);
    kiln_ir_sb_puts(sb, "(");
    for (int part = 0; part < 2; ++part) {
      if (part) kiln_ir_sb_puts(sb, ", ");
      uint64_t raw = 0;
      for (size_t i = 0; i < bytes; ++i) {
        raw |= (uint64_t)p[part * bytes + i] << (8 * i);
      }
      if (ce->kind == KILN_IR_TYPE_FLOAT) {
        kiln_ir_sb_print_float(sb, ce->flt.kind, raw);
      } else {
        int64_t v = (int64_t)raw;
        uint32_t w = ce->integer.width;
        if (w < 64 && (raw & (1ull << (w - 1))))
          v = (int64_t)(raw | ~((1ull << w) - 1));
        kiln_ir_sb_printf(sb, "%" PRId64, v);
      }
    }
    kiln_ir_sb_puts(sb, ")");
    return;
  }
  if (e->kind == KILN_IR_TYPE_FLOAT) {
    size_t bytes = kiln_ir_type_storage_bytes(e);
    const uint8_t* p =
        a->dense.data + (a->dense.splat ? 0 : (size_t)index * bytes);
    uint64_t raw = 0;
    for (size_t i = 0; i < bytes; ++i) raw |= (uint64_t)p[i] << (8 * i);
    kiln_ir_sb_print_float(sb, e->flt.kind, raw);
    return;
  }
  int64_t v = 0;
  kiln_ir_dense_get_int(a, index, &v);
  kiln_ir_sb_print_int_value(sb, e, v);
}

static void kiln_ir_sb_print_dense_nested(kiln_ir_string_builder_t* sb,
                                          const kiln_ir_attribute_t* a,
                                          size_t dim, int64_t* index) {
  const kiln_ir_type_t* t = a->type;
  if (dim == t->shaped.rank) {
    kiln_ir_sb_print_dense_element(sb, a, (*index)++);
    return;
  }
  kiln_ir_sb_puts(sb, "[");
  for (int64_t i = 0; i < t->shaped.dims[dim]; ++i) {
    if (i) kiln_ir_sb_puts(sb, ", ");
    kiln_ir_sb_print_dense_nested(sb, a, dim + 1, index);
  }
  kiln_ir_sb_puts(sb, "]");
}

void kiln_ir_sb_print_attribute(kiln_ir_string_builder_t* sb,
                                const kiln_ir_attribute_t* a, bool with_type) {
  if (!a) {
    kiln_ir_sb_puts(sb, "<<NULL ATTRIBUTE>>");
    return;
  }
  switch (a->kind) {
    case KILN_IR_ATTR_INTEGER:
      kiln_ir_sb_print_int_value(sb, a->type, a->i);
      if (with_type && a->type &&
          !(a->type->kind == KILN_IR_TYPE_INTEGER &&
            a->type->integer.width == 1)) {
        kiln_ir_sb_puts(sb, " : ");
        kiln_ir_sb_print_type(sb, a->type);
      }
      return;
    case KILN_IR_ATTR_FLOAT:
      kiln_ir_sb_print_float(sb,
                             a->type && a->type->kind == KILN_IR_TYPE_FLOAT
                                 ? a->type->flt.kind
                                 : KILN_IR_F64,
                             a->f.bits);
      if (with_type && a->type) {
        kiln_ir_sb_puts(sb, " : ");
        kiln_ir_sb_print_type(sb, a->type);
      }
      return;
    case KILN_IR_ATTR_BOOL:
      kiln_ir_sb_puts(sb, a->i ? "true" : "false");
      return;
    case KILN_IR_ATTR_STRING:
      kiln_ir_sb_print_string_literal(sb, a->str);
      return;
    case KILN_IR_ATTR_KEYWORD:
      kiln_ir_sb_append(sb, a->str.data, a->str.size);
      return;
    case KILN_IR_ATTR_UNIT:
      kiln_ir_sb_puts(sb, "unit");
      return;
    case KILN_IR_ATTR_TYPE:
      kiln_ir_sb_print_type(sb, a->type);
      return;
    case KILN_IR_ATTR_ARRAY:
      kiln_ir_sb_puts(sb, "[");
      for (size_t i = 0; i < a->array.count; ++i) {
        if (i) kiln_ir_sb_puts(sb, ", ");
        kiln_ir_sb_print_attribute(sb, a->array.elements[i], true);
      }
      kiln_ir_sb_puts(sb, "]");
      return;
    case KILN_IR_ATTR_DENSE_ARRAY:
      kiln_ir_sb_puts(sb, "array<");
      kiln_ir_sb_print_type(sb, a->type);
      for (size_t i = 0; i < a->dense_array.count; ++i) {
        kiln_ir_sb_puts(sb, i ? ", " : ": ");
        if (a->dense_array.i64) {
          kiln_ir_sb_print_int_value(sb, a->type, a->dense_array.i64[i]);
        } else {
          kiln_ir_float_kind_t k = a->type->flt.kind;
          kiln_ir_sb_print_float(
              sb, k, kiln_ir_float_to_bits(k, a->dense_array.f64[i]));
        }
      }
      kiln_ir_sb_puts(sb, ">");
      return;
    case KILN_IR_ATTR_DICTIONARY:
      kiln_ir_sb_puts(sb, "{");
      for (size_t i = 0; i < a->dict.count; ++i) {
        if (i) kiln_ir_sb_puts(sb, ", ");
        const kiln_ir_named_attribute_t* e = &a->dict.entries[i];
        kiln_ir_sb_append(sb, e->name.data, e->name.size);
        if (e->value->kind != KILN_IR_ATTR_UNIT) {
          kiln_ir_sb_puts(sb, " = ");
          kiln_ir_sb_print_attribute(sb, e->value, true);
        }
      }
      kiln_ir_sb_puts(sb, "}");
      return;
    case KILN_IR_ATTR_SYMBOL_REF:
      kiln_ir_sb_print_symbol(sb, a->symbol.root);
      for (size_t i = 0; i < a->symbol.num_nested; ++i) {
        kiln_ir_sb_puts(sb, "::");
        kiln_ir_sb_print_symbol(sb, a->symbol.nested[i]);
      }
      return;
    case KILN_IR_ATTR_DENSE_ELEMENTS: {
      int64_t n = kiln_ir_type_num_elements(a->type);
      if (sb->elide_elements_larger_than > 0 && !a->dense.splat &&
          n > sb->elide_elements_larger_than) {
        // MLIR's spelling, which its parser and ours refuse to compile.
        kiln_ir_sb_puts(sb, "dense_resource<__elided__>");
        if (with_type) {
          kiln_ir_sb_puts(sb, " : ");
          kiln_ir_sb_print_type(sb, a->type);
        }
        return;
      }
      kiln_ir_sb_puts(sb, "dense<");
      if (a->dense.splat || a->type->shaped.rank == 0) {
        kiln_ir_sb_print_dense_element(sb, a, 0);
      } else if (n > 4096) {
        kiln_ir_sb_puts(sb, "\"0x");
        for (size_t i = 0; i < a->dense.size; ++i) {
          kiln_ir_sb_printf(sb, "%02X", a->dense.data[i]);
        }
        kiln_ir_sb_puts(sb, "\"");
      } else {
        int64_t index = 0;
        kiln_ir_sb_print_dense_nested(sb, a, 0, &index);
      }
      kiln_ir_sb_puts(sb, ">");
      if (with_type) {
        kiln_ir_sb_puts(sb, " : ");
        kiln_ir_sb_print_type(sb, a->type);
      }
      return;
    }
    case KILN_IR_ATTR_AFFINE_MAP: {
      const kiln_ir_affine_map_t* m = a->affine_map;
      kiln_ir_sb_puts(sb, "affine_map<(");
      for (uint32_t i = 0; i < m->num_dims; ++i) {
        kiln_ir_sb_printf(sb, i ? ", d%u" : "d%u", i);
      }
      kiln_ir_sb_puts(sb, ")");
      if (m->num_symbols) {
        kiln_ir_sb_puts(sb, "[");
        for (uint32_t i = 0; i < m->num_symbols; ++i) {
          kiln_ir_sb_printf(sb, i ? ", s%u" : "s%u", i);
        }
        kiln_ir_sb_puts(sb, "]");
      }
      kiln_ir_sb_puts(sb, " -> (");
      for (size_t i = 0; i < m->num_results; ++i) {
        if (i) kiln_ir_sb_puts(sb, ", ");
        kiln_ir_sb_print_affine_expr(sb, m->results[i], false);
      }
      kiln_ir_sb_puts(sb, ")>");
      return;
    }
    case KILN_IR_ATTR_DIALECT:
      kiln_ir_sb_append(sb, a->dialect.text.data, a->dialect.text.size);
      return;
  }
}

//===----------------------------------------------------------------------===//
// Op printer
//===----------------------------------------------------------------------===//

struct kiln_ir_printer_t {
  kiln_ir_context_t* context;
  kiln_ir_print_options_t options;
  kiln_ir_string_builder_t sb;
  int indent;
  // Pointer -> number map for values' defining ops, block args and blocks.
  size_t capacity;
  size_t count;
  const void** keys;
  uint32_t* ids;
  uint32_t next_value;
  uint32_t next_arg;
  uint32_t next_block;
};

static void kiln_ir_printer_map_put(kiln_ir_printer_t* p, const void* key,
                                    uint32_t id) {
  if ((p->count + 1) * 2 > p->capacity) {
    size_t cap = p->capacity ? p->capacity * 2 : 256;
    const void** keys = (const void**)calloc(cap, sizeof(void*));
    uint32_t* ids = (uint32_t*)calloc(cap, sizeof(uint32_t));
    if (!keys || !ids) {
      free(keys);
      free(ids);
      p->sb.failed = true;
      return;
    }
    for (size_t i = 0; i < p->capacity; ++i) {
      if (!p->keys[i]) continue;
      size_t j = ((uintptr_t)p->keys[i] >> 4) & (cap - 1);
      while (keys[j]) j = (j + 1) & (cap - 1);
      keys[j] = p->keys[i];
      ids[j] = p->ids[i];
    }
    free(p->keys);
    free(p->ids);
    p->keys = keys;
    p->ids = ids;
    p->capacity = cap;
  }
  size_t j = ((uintptr_t)key >> 4) & (p->capacity - 1);
  while (p->keys[j] && p->keys[j] != key) j = (j + 1) & (p->capacity - 1);
  if (!p->keys[j]) ++p->count;
  p->keys[j] = key;
  p->ids[j] = id;
}

static bool kiln_ir_printer_map_get(const kiln_ir_printer_t* p, const void* key,
                                    uint32_t* out) {
  if (!p->capacity) return false;
  size_t j = ((uintptr_t)key >> 4) & (p->capacity - 1);
  while (p->keys[j]) {
    if (p->keys[j] == key) {
      *out = p->ids[j];
      return true;
    }
    j = (j + 1) & (p->capacity - 1);
  }
  return false;
}

static bool kiln_ir_op_is_isolated(const kiln_ir_op_t* op) {
  return op->def && (op->def->traits & KILN_IR_TRAIT_ISOLATED_FROM_ABOVE);
}

// Numbers the values and blocks in |op|'s regions, not entering nested
// isolated ops (they are numbered when printed).
static void kiln_ir_printer_number_regions(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op) {
  for (uint32_t r = 0; r < op->num_regions; ++r) {
    for (kiln_ir_block_t* b = op->regions[r].first_block; b; b = b->next) {
      kiln_ir_printer_map_put(p, b, p->next_block++);
      for (uint32_t i = 0; i < b->num_args; ++i) {
        kiln_ir_printer_map_put(p, b->args[i], p->next_arg++);
      }
      for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
        if (o->num_results) kiln_ir_printer_map_put(p, o, p->next_value++);
        if (!kiln_ir_op_is_isolated(o)) kiln_ir_printer_number_regions(p, o);
      }
    }
  }
}

kiln_ir_context_t* kiln_ir_printer_context(kiln_ir_printer_t* p) {
  return p->context;
}
const kiln_ir_print_options_t* kiln_ir_printer_options(kiln_ir_printer_t* p) {
  return &p->options;
}

void kiln_ir_printer_printf(kiln_ir_printer_t* p, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (n < 0) return;
  if ((size_t)n < sizeof(buffer)) {
    kiln_ir_sb_append(&p->sb, buffer, (size_t)n);
    return;
  }
  char* big = (char*)malloc((size_t)n + 1);
  if (!big) {
    p->sb.failed = true;
    return;
  }
  va_start(args, format);
  vsnprintf(big, (size_t)n + 1, format, args);
  va_end(args);
  kiln_ir_sb_append(&p->sb, big, (size_t)n);
  free(big);
}

void kiln_ir_printer_print_str(kiln_ir_printer_t* p, kiln_string_view_t s) {
  kiln_ir_sb_append(&p->sb, s.data, s.size);
}

void kiln_ir_printer_newline(kiln_ir_printer_t* p) {
  kiln_ir_sb_append(&p->sb, "\n", 1);
  for (int i = 0; i < p->indent; ++i) kiln_ir_sb_append(&p->sb, "  ", 2);
}

void kiln_ir_printer_print_value(kiln_ir_printer_t* p,
                                 const kiln_ir_value_t* v) {
  uint32_t id = 0;
  if (!v) {
    kiln_ir_printer_printf(p, "<<NULL VALUE>>");
    return;
  }
  if (v->kind == KILN_IR_VALUE_BLOCK_ARG) {
    if (kiln_ir_printer_map_get(p, v, &id)) {
      kiln_ir_printer_printf(p, "%%arg%u", id);
    } else {
      kiln_ir_printer_printf(p, "<<UNKNOWN VALUE>>");
    }
    return;
  }
  if (!kiln_ir_printer_map_get(p, v->defining_op, &id)) {
    kiln_ir_printer_printf(p, "<<UNKNOWN VALUE>>");
    return;
  }
  if (v->defining_op->num_results > 1) {
    kiln_ir_printer_printf(p, "%%%u#%u", id, v->index);
  } else {
    kiln_ir_printer_printf(p, "%%%u", id);
  }
}

void kiln_ir_printer_print_operands(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_value(p, op->operands[i].value);
  }
}

void kiln_ir_printer_print_type(kiln_ir_printer_t* p,
                                const kiln_ir_type_t* type) {
  kiln_ir_sb_print_type(&p->sb, type);
}

void kiln_ir_printer_print_type_list(kiln_ir_printer_t* p, size_t count,
                                     const kiln_ir_type_t* const* types,
                                     bool parens) {
  if (parens) kiln_ir_printer_printf(p, "(");
  for (size_t i = 0; i < count; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_sb_print_type(&p->sb, types[i]);
  }
  if (parens) kiln_ir_printer_printf(p, ")");
}

void kiln_ir_printer_print_result_types(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  bool parens = op->num_results != 1 ||
                op->results[0].type->kind == KILN_IR_TYPE_FUNCTION;
  if (parens) kiln_ir_printer_printf(p, "(");
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_sb_print_type(&p->sb, op->results[i].type);
  }
  if (parens) kiln_ir_printer_printf(p, ")");
}

void kiln_ir_printer_print_functional_type(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, "(");
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_sb_print_type(
        &p->sb, op->operands[i].value ? op->operands[i].value->type : NULL);
  }
  kiln_ir_printer_printf(p, ") -> ");
  kiln_ir_printer_print_result_types(p, op);
}

void kiln_ir_printer_print_attribute(kiln_ir_printer_t* p,
                                     const kiln_ir_attribute_t* attr) {
  kiln_ir_sb_print_attribute(&p->sb, attr, true);
}

void kiln_ir_printer_print_attribute_no_type(kiln_ir_printer_t* p,
                                             const kiln_ir_attribute_t* attr) {
  kiln_ir_sb_print_attribute(&p->sb, attr, false);
}

static bool kiln_ir_is_elided(kiln_string_view_t name,
                              const char* const* elided, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (kiln_string_view_equal_cstr(name, elided[i])) return true;
  }
  return false;
}

// Prints entries of |op| selected by |which| (0: all, 1: non-properties,
// 2: properties only) as `{...}` contents; returns the count printed.
static size_t kiln_ir_printer_print_entries(kiln_ir_printer_t* p,
                                            kiln_ir_op_t* op, int which,
                                            const char* const* elided,
                                            size_t num_elided,
                                            const char* open) {
  size_t printed = 0;
  for (uint32_t i = 0; i < op->num_attributes; ++i) {
    const kiln_ir_named_attribute_t* a = &op->attributes[i];
    if (which == 1 && a->is_property) continue;
    if (which == 2 && !a->is_property) continue;
    if (kiln_ir_is_elided(a->name, elided, num_elided)) continue;
    kiln_ir_printer_printf(p, "%s", printed ? ", " : open);
    kiln_ir_printer_print_str(p, a->name);
    if (a->value->kind != KILN_IR_ATTR_UNIT) {
      kiln_ir_printer_printf(p, " = ");
      kiln_ir_printer_print_attribute(p, a->value);
    }
    ++printed;
  }
  return printed;
}

void kiln_ir_printer_print_attr_dict(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                     const char* const* elided,
                                     size_t num_elided) {
  if (kiln_ir_printer_print_entries(p, op, 0, elided, num_elided, " {")) {
    kiln_ir_printer_printf(p, "}");
  }
}

void kiln_ir_printer_print_attr_dict_with_keyword(kiln_ir_printer_t* p,
                                                  kiln_ir_op_t* op,
                                                  const char* const* elided,
                                                  size_t num_elided) {
  if (kiln_ir_printer_print_entries(p, op, 0, elided, num_elided,
                                    " attributes {")) {
    kiln_ir_printer_printf(p, "}");
  }
}

void kiln_ir_printer_print_arg_decl(kiln_ir_printer_t* p,
                                    const kiln_ir_value_t* arg) {
  kiln_ir_printer_print_value(p, arg);
  kiln_ir_printer_printf(p, ": ");
  kiln_ir_printer_print_type(p, arg->type);
}

static void kiln_ir_printer_print_block_name(kiln_ir_printer_t* p,
                                             const kiln_ir_block_t* b) {
  uint32_t id = 0;
  if (kiln_ir_printer_map_get(p, b, &id)) {
    kiln_ir_printer_printf(p, "^bb%u", id);
  } else {
    kiln_ir_printer_printf(p, "^<<UNKNOWN BLOCK>>");
  }
}

void kiln_ir_printer_print_successor(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                     uint32_t index) {
  const kiln_ir_successor_t* s = &op->successors[index];
  kiln_ir_printer_print_block_name(p, s->block);
  if (!s->num_operands) return;
  kiln_ir_printer_printf(p, "(");
  for (uint32_t i = 0; i < s->num_operands; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_value(p, op->operands[s->operand_start + i].value);
  }
  kiln_ir_printer_printf(p, " : ");
  for (uint32_t i = 0; i < s->num_operands; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_value_t* v = op->operands[s->operand_start + i].value;
    kiln_ir_printer_print_type(p, v ? v->type : NULL);
  }
  kiln_ir_printer_printf(p, ")");
}

static void kiln_ir_printer_print_location(kiln_ir_printer_t* p,
                                           const kiln_ir_location_t* l) {
  switch (l->kind) {
    case KILN_IR_LOC_UNKNOWN:
      kiln_ir_printer_printf(p, "unknown");
      return;
    case KILN_IR_LOC_FILE:
      kiln_ir_sb_print_string_literal(&p->sb, l->file);
      kiln_ir_printer_printf(p, ":%u:%u", l->line, l->column);
      return;
    case KILN_IR_LOC_NAME:
      kiln_ir_sb_print_string_literal(&p->sb, l->name);
      if (l->num_children) {
        kiln_ir_printer_printf(p, "(");
        kiln_ir_printer_print_location(p, l->children[0]);
        kiln_ir_printer_printf(p, ")");
      }
      return;
    case KILN_IR_LOC_FUSED:
      kiln_ir_printer_printf(p, "fused[");
      for (size_t i = 0; i < l->num_children; ++i) {
        if (i) kiln_ir_printer_printf(p, ", ");
        kiln_ir_printer_print_location(p, l->children[i]);
      }
      kiln_ir_printer_printf(p, "]");
      return;
    case KILN_IR_LOC_CALLSITE:
      kiln_ir_printer_printf(p, "callsite(");
      kiln_ir_printer_print_location(p, l->children[0]);
      kiln_ir_printer_printf(p, " at ");
      kiln_ir_printer_print_location(p, l->children[1]);
      kiln_ir_printer_printf(p, ")");
      return;
  }
}

static void kiln_ir_printer_print_op_inner(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op);

static void kiln_ir_printer_print_block(kiln_ir_printer_t* p,
                                        kiln_ir_block_t* b, bool header) {
  if (header) {
    kiln_ir_printer_newline(p);
    // Block labels sit one level out from the ops.
    if (p->indent > 0 && p->sb.size >= 2) p->sb.size -= 2;
    kiln_ir_printer_print_block_name(p, b);
    if (b->num_args) {
      kiln_ir_printer_printf(p, "(");
      for (uint32_t i = 0; i < b->num_args; ++i) {
        if (i) kiln_ir_printer_printf(p, ", ");
        kiln_ir_printer_print_arg_decl(p, b->args[i]);
        if (p->options.print_locations) {
          kiln_ir_printer_printf(p, " loc(");
          kiln_ir_printer_print_location(p, b->args[i]->location);
          kiln_ir_printer_printf(p, ")");
        }
      }
      kiln_ir_printer_printf(p, ")");
    }
    kiln_ir_printer_printf(p, ":");
  }
  for (kiln_ir_op_t* o = b->first_op; o; o = o->next) {
    kiln_ir_printer_newline(p);
    kiln_ir_printer_print_op_inner(p, o);
  }
}

void kiln_ir_printer_print_region(kiln_ir_printer_t* p,
                                  kiln_ir_region_t* region,
                                  bool print_entry_args) {
  kiln_ir_printer_printf(p, "{");
  ++p->indent;
  for (kiln_ir_block_t* b = region->first_block; b; b = b->next) {
    bool header =
        b != region->first_block || (print_entry_args && b->num_args > 0) ||
        (b == region->first_block && b->next && print_entry_args) ||
        (b == region->first_block && !b->first_op && p->options.generic);
    kiln_ir_printer_print_block(p, b, header);
  }
  --p->indent;
  kiln_ir_printer_newline(p);
  kiln_ir_printer_printf(p, "}");
}

static void kiln_ir_printer_print_generic(kiln_ir_printer_t* p,
                                          kiln_ir_op_t* op) {
  kiln_ir_sb_print_string_literal(&p->sb, op->name);
  kiln_ir_printer_printf(p, "(");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ")");
  if (op->num_successors) {
    kiln_ir_printer_printf(p, "[");
    for (uint32_t i = 0; i < op->num_successors; ++i) {
      if (i) kiln_ir_printer_printf(p, ", ");
      kiln_ir_printer_print_successor(p, op, i);
    }
    kiln_ir_printer_printf(p, "]");
  }
  if (kiln_ir_printer_print_entries(p, op, 2, NULL, 0, " <{")) {
    kiln_ir_printer_printf(p, "}>");
  }
  if (op->num_regions) {
    kiln_ir_printer_printf(p, " (");
    for (uint32_t i = 0; i < op->num_regions; ++i) {
      if (i) kiln_ir_printer_printf(p, ", ");
      kiln_ir_printer_print_region(p, &op->regions[i], true);
    }
    kiln_ir_printer_printf(p, ")");
  }
  if (kiln_ir_printer_print_entries(p, op, 1, NULL, 0, " {")) {
    kiln_ir_printer_printf(p, "}");
  }
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_functional_type(p, op);
}

static void kiln_ir_printer_print_op_inner(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op) {
  uint32_t save_value = p->next_value, save_arg = p->next_arg,
           save_block = p->next_block;
  bool isolated = kiln_ir_op_is_isolated(op);
  if (isolated) {
    p->next_value = p->next_arg = p->next_block = 0;
    kiln_ir_printer_number_regions(p, op);
  }
  if (op->num_results) {
    uint32_t id = 0;
    kiln_ir_printer_map_get(p, op, &id);
    if (op->num_results > 1) {
      kiln_ir_printer_printf(p, "%%%u:%u = ", id, op->num_results);
    } else {
      kiln_ir_printer_printf(p, "%%%u = ", id);
    }
  }
  if (!p->options.generic && op->def && op->def->print) {
    kiln_ir_printer_print_str(p, op->name);
    op->def->print(p, op);
  } else {
    kiln_ir_printer_print_generic(p, op);
  }
  if (p->options.print_locations) {
    kiln_ir_printer_printf(p, " loc(");
    kiln_ir_printer_print_location(p, op->location);
    kiln_ir_printer_printf(p, ")");
  }
  if (isolated) {
    p->next_value = save_value;
    p->next_arg = save_arg;
    p->next_block = save_block;
  }
}

kiln_status_t kiln_ir_print_op_to_string(kiln_ir_context_t* context,
                                         kiln_ir_op_t* op,
                                         const kiln_ir_print_options_t* options,
                                         char** out_text) {
  *out_text = NULL;
  kiln_ir_printer_t p;
  memset(&p, 0, sizeof(p));
  p.context = context;
  if (options) p.options = *options;
  p.sb.elide_elements_larger_than = p.options.elide_elements_larger_than;
  if (op->num_results) kiln_ir_printer_map_put(&p, op, p.next_value++);
  if (!kiln_ir_op_is_isolated(op)) kiln_ir_printer_number_regions(&p, op);
  kiln_ir_printer_print_op_inner(&p, op);
  kiln_ir_sb_append(&p.sb, "\n", 1);
  free(p.keys);
  free(p.ids);
  if (p.sb.failed) {
    kiln_ir_sb_free(&p.sb);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory printing IR");
  }
  *out_text = p.sb.data;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_print_op(kiln_ir_context_t* context, kiln_ir_op_t* op,
                               const kiln_ir_print_options_t* options,
                               FILE* stream) {
  char* text = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_print_op_to_string(context, op, options, &text));
  fputs(text, stream);
  free(text);
  return kiln_ok_status();
}
