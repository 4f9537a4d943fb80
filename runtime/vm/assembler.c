// VM assembler: a line-oriented text format -> module image through the
// bytecode writer. Syntax: docs/website/docs/developers/design-docs/
// vm-bytecode.md. A recursive-descent parser over an on-demand lexer;
// symbols (functions, imports, rodata, executables, globals, labels) may be
// used before they are defined and are resolved at the end of their function or
// module.
#include "runtime/vm/assembler.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_writer.h"
#include "runtime/vm/value.h"

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

typedef enum kiln_asm_token_kind_e {
  KILN_ASM_EOF,
  KILN_ASM_NEWLINE,
  KILN_ASM_IDENT,
  KILN_ASM_SYMBOL,  // @name or @"name"
  KILN_ASM_REG,     // %i3
  KILN_ASM_LABEL,   // ^name
  KILN_ASM_NUMBER,
  KILN_ASM_STRING,
  KILN_ASM_PUNCT,  // , ( ) { } [ ] : = and "->" (as '>')
} kiln_asm_token_kind_t;

typedef struct kiln_asm_token_t {
  kiln_asm_token_kind_t kind;
  const char* start;  // the token text (without @ ^ % for those kinds)
  size_t length;
  int line;
  int col;
  char punct;
  bool quoted;  // symbol written as @"..."
} kiln_asm_token_t;

typedef struct kiln_asm_parser_t {
  const char* text;
  size_t length;
  size_t pos;
  int line;
  size_t line_start;
  const char* source_name;
  char* source_dir;
  kiln_allocator_t allocator;
  kiln_asm_token_t peeked;
  bool has_peeked;
  const kiln_vm_asm_blob_t* blobs;
  size_t blob_count;
} kiln_asm_parser_t;

static kiln_status_t kiln_asm_error(kiln_asm_parser_t* p,
                                    const kiln_asm_token_t* at,
                                    const char* format, ...)
    __attribute__((format(printf, 3, 4)));
static kiln_status_t kiln_asm_error(kiln_asm_parser_t* p,
                                    const kiln_asm_token_t* at,
                                    const char* format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "%s:%d:%d: %s",
                          p->source_name, at->line, at->col, message);
}

static bool kiln_asm_is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' || c == '-';
}

static kiln_status_t kiln_asm_lex(kiln_asm_parser_t* p, kiln_asm_token_t* out) {
  // Skip blanks and comments.
  for (;;) {
    while (p->pos < p->length &&
           (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
            p->text[p->pos] == '\r')) {
      ++p->pos;
    }
    if (p->pos < p->length &&
        (p->text[p->pos] == '#' ||
         (p->text[p->pos] == '/' && p->pos + 1 < p->length &&
          p->text[p->pos + 1] == '/'))) {
      while (p->pos < p->length && p->text[p->pos] != '\n') ++p->pos;
    }
    break;
  }
  memset(out, 0, sizeof(*out));
  out->line = p->line;
  out->col = (int)(p->pos - p->line_start) + 1;
  if (p->pos >= p->length) {
    out->kind = KILN_ASM_EOF;
    return kiln_ok_status();
  }
  const char* s = p->text;
  char c = s[p->pos];
  if (c == '\n') {
    out->kind = KILN_ASM_NEWLINE;
    ++p->pos;
    ++p->line;
    p->line_start = p->pos;
    return kiln_ok_status();
  }
  if (c == '"') {
    size_t start = ++p->pos;
    while (p->pos < p->length && s[p->pos] != '"' && s[p->pos] != '\n') {
      if (s[p->pos] == '\\' && p->pos + 1 < p->length) ++p->pos;
      ++p->pos;
    }
    if (p->pos >= p->length || s[p->pos] != '"') {
      return kiln_asm_error(p, out, "unterminated string");
    }
    out->kind = KILN_ASM_STRING;
    out->start = s + start;
    out->length = p->pos - start;
    ++p->pos;
    return kiln_ok_status();
  }
  if (c == '@' || c == '%' || c == '^') {
    ++p->pos;
    if (c == '@' && p->pos < p->length && s[p->pos] == '"') {
      kiln_asm_token_t str;
      KILN_RETURN_IF_ERROR(kiln_asm_lex(p, &str));
      out->kind = KILN_ASM_SYMBOL;
      out->start = str.start;
      out->length = str.length;
      out->quoted = true;
      return kiln_ok_status();
    }
    size_t start = p->pos;
    while (p->pos < p->length && kiln_asm_is_ident_char(s[p->pos])) ++p->pos;
    if (p->pos == start) {
      return kiln_asm_error(p, out, "expected a name after '%c'", c);
    }
    out->kind = c == '@'   ? KILN_ASM_SYMBOL
                : c == '%' ? KILN_ASM_REG
                           : KILN_ASM_LABEL;
    out->start = s + start;
    out->length = p->pos - start;
    return kiln_ok_status();
  }
  if (c == '-' && p->pos + 1 < p->length && s[p->pos + 1] == '>') {
    out->kind = KILN_ASM_PUNCT;
    out->punct = '>';
    out->start = s + p->pos;
    out->length = 2;
    p->pos += 2;
    return kiln_ok_status();
  }
  if ((c >= '0' && c <= '9') ||
      ((c == '-' || c == '+') && p->pos + 1 < p->length &&
       ((s[p->pos + 1] >= '0' && s[p->pos + 1] <= '9') ||
        s[p->pos + 1] == 'i' || s[p->pos + 1] == 'n'))) {
    size_t start = p->pos++;
    while (p->pos < p->length) {
      char d = s[p->pos];
      if ((d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') ||
          (d >= 'A' && d <= 'Z') || d == '.' || d == '_') {
        ++p->pos;
      } else if ((d == '-' || d == '+') &&
                 (s[p->pos - 1] == 'e' || s[p->pos - 1] == 'E') &&
                 !(s[start] == '0' && p->pos - start > 1 &&
                   (s[start + 1] == 'x' || s[start + 1] == 'X'))) {
        ++p->pos;
      } else {
        break;
      }
    }
    out->kind = KILN_ASM_NUMBER;
    out->start = s + start;
    out->length = p->pos - start;
    return kiln_ok_status();
  }
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
    size_t start = p->pos;
    while (p->pos < p->length && kiln_asm_is_ident_char(s[p->pos])) ++p->pos;
    out->kind = KILN_ASM_IDENT;
    out->start = s + start;
    out->length = p->pos - start;
    return kiln_ok_status();
  }
  if (strchr(",(){}[]:=", c)) {
    out->kind = KILN_ASM_PUNCT;
    out->punct = c;
    out->start = s + p->pos;
    out->length = 1;
    ++p->pos;
    return kiln_ok_status();
  }
  return kiln_asm_error(p, out, "unexpected character '%c'", c);
}

static kiln_status_t kiln_asm_next(kiln_asm_parser_t* p,
                                   kiln_asm_token_t* out) {
  if (p->has_peeked) {
    *out = p->peeked;
    p->has_peeked = false;
    return kiln_ok_status();
  }
  return kiln_asm_lex(p, out);
}

static kiln_status_t kiln_asm_peek(kiln_asm_parser_t* p,
                                   kiln_asm_token_t* out) {
  if (!p->has_peeked) {
    KILN_RETURN_IF_ERROR(kiln_asm_lex(p, &p->peeked));
    p->has_peeked = true;
  }
  *out = p->peeked;
  return kiln_ok_status();
}

static bool kiln_asm_is(const kiln_asm_token_t* t, const char* word) {
  return t->kind == KILN_ASM_IDENT && strlen(word) == t->length &&
         memcmp(t->start, word, t->length) == 0;
}
static bool kiln_asm_is_punct(const kiln_asm_token_t* t, char c) {
  return t->kind == KILN_ASM_PUNCT && t->punct == c;
}

static kiln_status_t kiln_asm_expect_punct(kiln_asm_parser_t* p, char c,
                                           const char* what) {
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  if (!kiln_asm_is_punct(&t, c)) {
    return kiln_asm_error(p, &t, "expected %s", what);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_expect_newline(kiln_asm_parser_t* p) {
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  if (t.kind != KILN_ASM_NEWLINE && t.kind != KILN_ASM_EOF) {
    return kiln_asm_error(p, &t, "unexpected '%.*s' at end of line",
                          (int)t.length, t.start);
  }
  return kiln_ok_status();
}

// Decodes a string literal body (escapes \" \\ \n \t \xx) into a new buffer.
static kiln_status_t kiln_asm_decode_string(kiln_asm_parser_t* p,
                                            const kiln_asm_token_t* t,
                                            char** out, size_t* out_length) {
  char* buffer = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(p->allocator, t->length + 1, (void**)&buffer));
  size_t n = 0;
  for (size_t i = 0; i < t->length; ++i) {
    char c = t->start[i];
    if (c != '\\') {
      buffer[n++] = c;
      continue;
    }
    if (++i >= t->length) break;
    c = t->start[i];
    if (c == 'n') {
      buffer[n++] = '\n';
    } else if (c == 't') {
      buffer[n++] = '\t';
    } else if (c == '"' || c == '\\') {
      buffer[n++] = c;
    } else if (i + 1 < t->length) {
      char hex[3] = {c, t->start[i + 1], 0};
      char* end = NULL;
      long v = strtol(hex, &end, 16);
      if (*end) {
        kiln_allocator_free(p->allocator, buffer);
        return kiln_asm_error(p, t, "bad escape '\\%c'", c);
      }
      buffer[n++] = (char)v;
      ++i;
    } else {
      kiln_allocator_free(p->allocator, buffer);
      return kiln_asm_error(p, t, "bad escape at end of string");
    }
  }
  buffer[n] = 0;
  *out = buffer;
  *out_length = n;
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_expect_string(kiln_asm_parser_t* p,
                                            const char* what, char** out,
                                            size_t* out_length,
                                            kiln_asm_token_t* out_token) {
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  if (t.kind != KILN_ASM_STRING) {
    return kiln_asm_error(p, &t, "expected %s (a quoted string)", what);
  }
  if (out_token) *out_token = t;
  return kiln_asm_decode_string(p, &t, out, out_length);
}

// A symbol's name (decoded if quoted) into a new buffer.
static kiln_status_t kiln_asm_symbol_name(kiln_asm_parser_t* p,
                                          const kiln_asm_token_t* t, char** out,
                                          size_t* out_length) {
  if (t->quoted) return kiln_asm_decode_string(p, t, out, out_length);
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(p->allocator, t->length + 1, (void**)out));
  memcpy(*out, t->start, t->length);
  (*out)[t->length] = 0;
  *out_length = t->length;
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_expect_symbol(kiln_asm_parser_t* p,
                                            const char* what, char** out,
                                            size_t* out_length,
                                            kiln_asm_token_t* out_token) {
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  if (t.kind != KILN_ASM_SYMBOL) {
    return kiln_asm_error(p, &t, "expected %s (@name)", what);
  }
  if (out_token) *out_token = t;
  return kiln_asm_symbol_name(p, &t, out, out_length);
}

static kiln_status_t kiln_asm_parse_int(kiln_asm_parser_t* p,
                                        const kiln_asm_token_t* t, int64_t min,
                                        uint64_t max, int64_t* out) {
  if (t->kind != KILN_ASM_NUMBER) {
    return kiln_asm_error(p, t, "expected an integer");
  }
  char buffer[72];
  if (t->length >= sizeof(buffer)) {
    return kiln_asm_error(p, t, "number too long");
  }
  memcpy(buffer, t->start, t->length);
  buffer[t->length] = 0;
  char* end = NULL;
  errno = 0;
  if (buffer[0] == '-') {
    long long v = strtoll(buffer, &end, 0);
    if (*end || errno || v < min) {
      return kiln_asm_error(p, t, "bad or out-of-range integer '%s'", buffer);
    }
    *out = v;
  } else {
    unsigned long long v = strtoull(buffer, &end, 0);
    if (*end || errno || v > max) {
      return kiln_asm_error(p, t, "bad or out-of-range integer '%s'", buffer);
    }
    *out = (int64_t)v;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_parse_float(kiln_asm_parser_t* p,
                                          const kiln_asm_token_t* t,
                                          double* out) {
  if (t->kind != KILN_ASM_NUMBER && t->kind != KILN_ASM_IDENT) {
    return kiln_asm_error(p, t, "expected a number");
  }
  char buffer[72];
  if (t->length >= sizeof(buffer)) {
    return kiln_asm_error(p, t, "number too long");
  }
  memcpy(buffer, t->start, t->length);
  buffer[t->length] = 0;
  char* end = NULL;
  *out = strtod(buffer, &end);
  if (*end || end == buffer) {
    return kiln_asm_error(p, t, "bad number '%s'", buffer);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Growable byte buffers and fixups
//===----------------------------------------------------------------------===//

typedef struct kiln_asm_bytes_t {
  uint8_t* data;
  size_t size;
  size_t capacity;
} kiln_asm_bytes_t;

static kiln_status_t kiln_asm_append(kiln_asm_parser_t* p, kiln_asm_bytes_t* b,
                                     const void* data, size_t size) {
  if (b->size + size > b->capacity) {
    size_t capacity = b->capacity ? b->capacity * 2 : 256;
    while (capacity < b->size + size) capacity *= 2;
    KILN_RETURN_IF_ERROR(
        kiln_allocator_realloc(p->allocator, capacity, (void**)&b->data));
    b->capacity = capacity;
  }
  if (size) memcpy(b->data + b->size, data, size);
  b->size += size;
  return kiln_ok_status();
}

typedef enum kiln_asm_fixup_kind_e {
  KILN_ASM_FIXUP_LABEL,
  KILN_ASM_FIXUP_FUNCTION,
  KILN_ASM_FIXUP_IMPORT,
  KILN_ASM_FIXUP_RODATA,
  KILN_ASM_FIXUP_EXECUTABLE,
  KILN_ASM_FIXUP_GLOBAL,
} kiln_asm_fixup_kind_t;

typedef struct kiln_asm_fixup_t {
  kiln_asm_fixup_kind_t kind;
  uint32_t function;  // assembler function index
  size_t offset;      // of the u32 to patch in the function's code
  char* name;
  size_t name_length;
  kiln_asm_token_t token;
  // For call/call.import: the argument/result lists to check against the
  // signature (offset of the args list in the code), else SIZE_MAX.
} kiln_asm_fixup_t;

typedef struct kiln_asm_named_t {
  char* name;
  size_t length;
  uint32_t value;
} kiln_asm_named_t;

// A growable array of T.
#define KILN_ASM_VEC(T) \
  struct {              \
    T* items;           \
    size_t count;       \
    size_t capacity;    \
  }

static kiln_status_t kiln_asm_vec_grow(kiln_asm_parser_t* p, void** items,
                                       size_t* capacity, size_t count,
                                       size_t item_size) {
  if (count < *capacity) return kiln_ok_status();
  size_t new_capacity = *capacity ? *capacity * 2 : 16;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_realloc(p->allocator, new_capacity * item_size, items));
  *capacity = new_capacity;
  return kiln_ok_status();
}
#define KILN_ASM_PUSH(p, vec, value)                                     \
  do {                                                                   \
    KILN_RETURN_IF_ERROR(kiln_asm_vec_grow((p), (void**)&(vec).items,    \
                                           &(vec).capacity, (vec).count, \
                                           sizeof(*(vec).items)));       \
    (vec).items[(vec).count++] = (value);                                \
  } while (0)

typedef struct kiln_asm_function_t {
  char* name;
  size_t name_length;
  uint32_t ordinal;  // in the writer
  uint16_t regs[5];
  kiln_asm_bytes_t code;
} kiln_asm_function_t;

typedef struct kiln_asm_export_t {
  char* name;
  size_t name_length;
  char* function;
  size_t function_length;
  kiln_asm_token_t token;
  KILN_ASM_VEC(char*) attrs;  // key, value, key, value ...
} kiln_asm_export_t;

typedef struct kiln_asm_module_t {
  kiln_vm_bytecode_writer_t* writer;
  KILN_ASM_VEC(kiln_asm_function_t) functions;
  KILN_ASM_VEC(kiln_asm_named_t) imports;
  KILN_ASM_VEC(kiln_asm_named_t) rodata;
  KILN_ASM_VEC(kiln_asm_named_t) executables;
  KILN_ASM_VEC(kiln_asm_named_t) globals;
  KILN_ASM_VEC(kiln_asm_fixup_t) fixups;
  KILN_ASM_VEC(kiln_asm_export_t) exports;  // "export @a = @f" lines
} kiln_asm_module_t;

static void kiln_asm_module_free(kiln_asm_parser_t* p, kiln_asm_module_t* m) {
  kiln_allocator_t a = p->allocator;
  for (size_t i = 0; i < m->functions.count; ++i) {
    kiln_allocator_free(a, m->functions.items[i].name);
    kiln_allocator_free(a, m->functions.items[i].code.data);
  }
  for (size_t i = 0; i < m->imports.count; ++i) {
    kiln_allocator_free(a, m->imports.items[i].name);
  }
  for (size_t i = 0; i < m->rodata.count; ++i) {
    kiln_allocator_free(a, m->rodata.items[i].name);
  }
  for (size_t i = 0; i < m->executables.count; ++i) {
    kiln_allocator_free(a, m->executables.items[i].name);
  }
  for (size_t i = 0; i < m->globals.count; ++i) {
    kiln_allocator_free(a, m->globals.items[i].name);
  }
  for (size_t i = 0; i < m->fixups.count; ++i) {
    kiln_allocator_free(a, m->fixups.items[i].name);
  }
  for (size_t i = 0; i < m->exports.count; ++i) {
    kiln_asm_export_t* x = &m->exports.items[i];
    kiln_allocator_free(a, x->name);
    kiln_allocator_free(a, x->function);
    for (size_t k = 0; k < x->attrs.count; ++k) {
      kiln_allocator_free(a, x->attrs.items[k]);
    }
    kiln_allocator_free(a, x->attrs.items);
  }
  kiln_allocator_free(a, m->functions.items);
  kiln_allocator_free(a, m->imports.items);
  kiln_allocator_free(a, m->rodata.items);
  kiln_allocator_free(a, m->executables.items);
  kiln_allocator_free(a, m->globals.items);
  kiln_allocator_free(a, m->fixups.items);
  kiln_allocator_free(a, m->exports.items);
  kiln_vm_bytecode_writer_destroy(m->writer);
}

static bool kiln_asm_find(const kiln_asm_named_t* items, size_t count,
                          const char* name, size_t length, uint32_t* out) {
  for (size_t i = 0; i < count; ++i) {
    if (items[i].length == length && memcmp(items[i].name, name, length) == 0) {
      *out = items[i].value;
      return true;
    }
  }
  return false;
}

static kiln_status_t kiln_asm_parse_module_body(kiln_asm_parser_t* p,
                                                kiln_asm_module_t* m,
                                                bool nested);

// Assembles a nested "module @name {" ... "}" block into a module image.
static kiln_status_t kiln_asm_parse_nested_module(kiln_asm_parser_t* p,
                                                  uint8_t** out_bytes,
                                                  size_t* out_length) {
  char* name = NULL;
  size_t name_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_asm_expect_symbol(p, "module name", &name, &name_length, NULL));
  kiln_asm_module_t m;
  memset(&m, 0, sizeof(m));
  kiln_status_t status =
      kiln_vm_bytecode_writer_create(p->allocator, &m.writer);
  if (!status) {
    status = kiln_vm_bytecode_writer_set_name(
        m.writer, kiln_make_string_view(name, name_length));
  }
  kiln_allocator_free(p->allocator, name);
  if (!status) status = kiln_asm_expect_punct(p, '{', "'{'");
  if (!status) status = kiln_asm_expect_newline(p);
  if (!status) status = kiln_asm_parse_module_body(p, &m, true);
  if (!status) {
    status = kiln_vm_bytecode_writer_finish(m.writer, out_bytes, out_length);
  }
  kiln_asm_module_free(p, &m);
  return status;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

typedef struct kiln_asm_fn_ctx_t {
  kiln_asm_module_t* module;
  uint32_t index;  // in module->functions
  kiln_asm_bytes_t* code;
  uint16_t* regs;
  KILN_ASM_VEC(kiln_asm_named_t) labels;
  KILN_ASM_VEC(kiln_asm_fixup_t) label_fixups;
} kiln_asm_fn_ctx_t;

static kiln_status_t kiln_asm_emit16(kiln_asm_parser_t* p, kiln_asm_fn_ctx_t* f,
                                     uint16_t v) {
  return kiln_asm_append(p, f->code, &v, 2);
}
static kiln_status_t kiln_asm_emit32(kiln_asm_parser_t* p, kiln_asm_fn_ctx_t* f,
                                     uint32_t v) {
  return kiln_asm_append(p, f->code, &v, 4);
}

// Parses a register token, checks its bank, records the count.
static kiln_status_t kiln_asm_register(kiln_asm_parser_t* p,
                                       kiln_asm_fn_ctx_t* f,
                                       const kiln_asm_token_t* t, int want_bank,
                                       int* out_bank, uint16_t* out_index) {
  if (t->kind != KILN_ASM_REG) {
    if (want_bank >= 0) {
      return kiln_asm_error(p, t, "expected a %%%c register",
                            kiln_vm_bank_prefix(want_bank));
    }
    return kiln_asm_error(p, t, "expected a register");
  }
  int bank = kiln_vm_bank_of_operand(t->start[0]);
  if (bank < 0 || t->length < 2) {
    return kiln_asm_error(p, t,
                          "bad register '%%%.*s' (use %%i %%l %%f %%d "
                          "%%r followed by a number)",
                          (int)t->length, t->start);
  }
  if (want_bank >= 0 && bank != want_bank) {
    return kiln_asm_error(p, t,
                          "register '%%%.*s' has the wrong bank: "
                          "expected a %%%c register",
                          (int)t->length, t->start,
                          kiln_vm_bank_prefix(want_bank));
  }
  uint32_t index = 0;
  for (size_t i = 1; i < t->length; ++i) {
    char c = t->start[i];
    if (c < '0' || c > '9' || index > 65534) {
      return kiln_asm_error(p, t, "bad register '%%%.*s'", (int)t->length,
                            t->start);
    }
    index = index * 10 + (uint32_t)(c - '0');
  }
  if (index > 65534) {
    return kiln_asm_error(p, t, "register index %u too large", index);
  }
  if (f->regs[bank] < index + 1) f->regs[bank] = (uint16_t)(index + 1);
  *out_bank = bank;
  *out_index = (uint16_t)index;
  return kiln_ok_status();
}

// Skips separators (',' and '->') before an operand.
static kiln_status_t kiln_asm_skip_separators(kiln_asm_parser_t* p) {
  kiln_asm_token_t t;
  for (;;) {
    KILN_RETURN_IF_ERROR(kiln_asm_peek(p, &t));
    if (kiln_asm_is_punct(&t, ',') || kiln_asm_is_punct(&t, '>')) {
      KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
      continue;
    }
    return kiln_ok_status();
  }
}

static kiln_status_t kiln_asm_reglist(kiln_asm_parser_t* p,
                                      kiln_asm_fn_ctx_t* f, bool parens) {
  kiln_asm_token_t t;
  if (parens) KILN_RETURN_IF_ERROR(kiln_asm_expect_punct(p, '(', "'('"));
  size_t count_at = f->code->size;
  uint8_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_asm_append(p, f->code, &count, 1));
  for (;;) {
    KILN_RETURN_IF_ERROR(kiln_asm_peek(p, &t));
    if (kiln_asm_is_punct(&t, ',')) {
      KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
      continue;
    }
    if (parens && kiln_asm_is_punct(&t, ')')) {
      KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
      break;
    }
    if (!parens && (t.kind == KILN_ASM_NEWLINE || t.kind == KILN_ASM_EOF)) {
      break;
    }
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
    int bank = 0;
    uint16_t index = 0;
    KILN_RETURN_IF_ERROR(kiln_asm_register(p, f, &t, -1, &bank, &index));
    if (count == 255) {
      return kiln_asm_error(p, &t, "too many registers in a list (max 255)");
    }
    uint8_t b = (uint8_t)bank;
    KILN_RETURN_IF_ERROR(kiln_asm_append(p, f->code, &b, 1));
    KILN_RETURN_IF_ERROR(kiln_asm_append(p, f->code, &index, 2));
    ++count;
  }
  f->code->data[count_at] = count;
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_label_ref(kiln_asm_parser_t* p,
                                        kiln_asm_fn_ctx_t* f,
                                        const kiln_asm_token_t* t) {
  if (t->kind != KILN_ASM_LABEL) {
    return kiln_asm_error(p, t, "expected a label (^name)");
  }
  kiln_asm_fixup_t fixup;
  memset(&fixup, 0, sizeof(fixup));
  fixup.kind = KILN_ASM_FIXUP_LABEL;
  fixup.offset = f->code->size;
  fixup.token = *t;
  KILN_ASM_PUSH(p, f->label_fixups, fixup);
  return kiln_asm_emit32(p, f, 0);
}

static kiln_status_t kiln_asm_symbol_ref(kiln_asm_parser_t* p,
                                         kiln_asm_fn_ctx_t* f,
                                         const kiln_asm_token_t* t,
                                         kiln_asm_fixup_kind_t kind) {
  if (t->kind != KILN_ASM_SYMBOL) {
    return kiln_asm_error(p, t, "expected a symbol (@name)");
  }
  kiln_asm_fixup_t fixup;
  memset(&fixup, 0, sizeof(fixup));
  fixup.kind = kind;
  fixup.function = f->index;
  fixup.offset = f->code->size;
  fixup.token = *t;
  KILN_RETURN_IF_ERROR(
      kiln_asm_symbol_name(p, t, &fixup.name, &fixup.name_length));
  kiln_status_t status = kiln_ok_status();
  do {
    status = kiln_asm_vec_grow(
        p, (void**)&f->module->fixups.items, &f->module->fixups.capacity,
        f->module->fixups.count, sizeof(kiln_asm_fixup_t));
  } while (0);
  if (status) {
    kiln_allocator_free(p->allocator, fixup.name);
    return status;
  }
  f->module->fixups.items[f->module->fixups.count++] = fixup;
  return kiln_asm_emit32(p, f, 0);
}

static kiln_status_t kiln_asm_instruction(kiln_asm_parser_t* p,
                                          kiln_asm_fn_ctx_t* f,
                                          const kiln_asm_token_t* mnemonic) {
  uint32_t opcode = kiln_vm_opcode_lookup(mnemonic->start, mnemonic->length);
  if (!opcode) {
    return kiln_asm_error(p, mnemonic, "unknown instruction '%.*s'",
                          (int)mnemonic->length, mnemonic->start);
  }
  const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(opcode);
  KILN_RETURN_IF_ERROR(kiln_asm_emit16(p, f, (uint16_t)opcode));
  kiln_asm_token_t t;
  for (const char* c = info->format; *c; ++c) {
    KILN_RETURN_IF_ERROR(kiln_asm_skip_separators(p));
    if (*c == 'A') {
      KILN_RETURN_IF_ERROR(kiln_asm_reglist(p, f, opcode != KILN_VM_OP_RET));
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
    if (t.kind == KILN_ASM_NEWLINE || t.kind == KILN_ASM_EOF) {
      return kiln_asm_error(p, &t, "'%s' expects %zu operands (%s)",
                            info->mnemonic, strlen(info->format), info->format);
    }
    switch (*c) {
      case 'i':
      case 'l':
      case 'f':
      case 'd':
      case 'r': {
        int bank = 0;
        uint16_t index = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_register(
            p, f, &t, kiln_vm_bank_of_operand(*c), &bank, &index));
        KILN_RETURN_IF_ERROR(kiln_asm_emit16(p, f, index));
        break;
      }
      case 'I': {
        int64_t v = 0;
        KILN_RETURN_IF_ERROR(
            kiln_asm_parse_int(p, &t, INT32_MIN, UINT32_MAX, &v));
        KILN_RETURN_IF_ERROR(kiln_asm_emit32(p, f, (uint32_t)v));
        break;
      }
      case 'L': {
        int64_t v = 0;
        KILN_RETURN_IF_ERROR(
            kiln_asm_parse_int(p, &t, INT64_MIN, UINT64_MAX, &v));
        KILN_RETURN_IF_ERROR(kiln_asm_append(p, f->code, &v, 8));
        break;
      }
      case 'F': {
        double v = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_parse_float(p, &t, &v));
        float x = (float)v;
        KILN_RETURN_IF_ERROR(kiln_asm_append(p, f->code, &x, 4));
        break;
      }
      case 'D': {
        double v = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_parse_float(p, &t, &v));
        KILN_RETURN_IF_ERROR(kiln_asm_append(p, f->code, &v, 8));
        break;
      }
      case 'B':
        KILN_RETURN_IF_ERROR(kiln_asm_label_ref(p, f, &t));
        break;
      case 'R':
        KILN_RETURN_IF_ERROR(
            kiln_asm_symbol_ref(p, f, &t, KILN_ASM_FIXUP_RODATA));
        break;
      case 'E':
        KILN_RETURN_IF_ERROR(
            kiln_asm_symbol_ref(p, f, &t, KILN_ASM_FIXUP_EXECUTABLE));
        break;
      case 'G':
        KILN_RETURN_IF_ERROR(
            kiln_asm_symbol_ref(p, f, &t, KILN_ASM_FIXUP_GLOBAL));
        break;
      case 'C':
        KILN_RETURN_IF_ERROR(
            kiln_asm_symbol_ref(p, f, &t, KILN_ASM_FIXUP_FUNCTION));
        break;
      case 'M':
        KILN_RETURN_IF_ERROR(
            kiln_asm_symbol_ref(p, f, &t, KILN_ASM_FIXUP_IMPORT));
        break;
      case 'S': {
        if (t.kind != KILN_ASM_STRING) {
          return kiln_asm_error(p, &t, "expected a quoted string");
        }
        char* s = NULL;
        size_t n = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_decode_string(p, &t, &s, &n));
        uint32_t index = 0;
        kiln_status_t status = kiln_vm_bytecode_writer_add_string(
            f->module->writer, kiln_make_string_view(s, n), &index);
        kiln_allocator_free(p->allocator, s);
        KILN_RETURN_IF_ERROR(status);
        KILN_RETURN_IF_ERROR(kiln_asm_emit32(p, f, index));
        break;
      }
      case 'W': {
        if (!kiln_asm_is_punct(&t, '[')) {
          return kiln_asm_error(p, &t, "expected '[' starting a branch table");
        }
        size_t count_at = f->code->size;
        KILN_RETURN_IF_ERROR(kiln_asm_emit16(p, f, 0));
        uint16_t count = 0;
        for (;;) {
          KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
          if (kiln_asm_is_punct(&t, ',')) continue;
          if (kiln_asm_is_punct(&t, ']')) break;
          KILN_RETURN_IF_ERROR(kiln_asm_label_ref(p, f, &t));
          ++count;
        }
        memcpy(f->code->data + count_at, &count, 2);
        break;
      }
    }
  }
  return kiln_asm_expect_newline(p);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_asm_parse_function_body(kiln_asm_parser_t* p,
                                                  kiln_asm_fn_ctx_t* f,
                                                  int32_t export_ordinal) {
  kiln_asm_token_t t;
  for (;;) {
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
    if (t.kind == KILN_ASM_NEWLINE) continue;
    if (t.kind == KILN_ASM_EOF) {
      return kiln_asm_error(p, &t, "missing '}' closing the function");
    }
    if (kiln_asm_is_punct(&t, '}')) return kiln_asm_expect_newline(p);
    if (t.kind == KILN_ASM_LABEL) {
      uint32_t existing;
      if (kiln_asm_find(f->labels.items, f->labels.count, t.start, t.length,
                        &existing)) {
        return kiln_asm_error(p, &t, "label '^%.*s' defined twice",
                              (int)t.length, t.start);
      }
      kiln_asm_named_t label = {(char*)t.start, t.length,
                                (uint32_t)f->code->size};
      KILN_ASM_PUSH(p, f->labels, label);
      KILN_RETURN_IF_ERROR(kiln_asm_expect_punct(p, ':', "':' after label"));
      continue;
    }
    if (kiln_asm_is(&t, "attr")) {
      if (export_ordinal < 0) {
        return kiln_asm_error(p, &t,
                              "'attr' needs an exported function "
                              "(add 'export' after the signature)");
      }
      char *key = NULL, *value = NULL;
      size_t key_length = 0, value_length = 0;
      KILN_RETURN_IF_ERROR(
          kiln_asm_expect_string(p, "attribute key", &key, &key_length, NULL));
      kiln_status_t status = kiln_asm_expect_string(
          p, "attribute value", &value, &value_length, NULL);
      if (!status) {
        status = kiln_vm_bytecode_writer_add_export_attr(
            f->module->writer, (uint32_t)export_ordinal,
            kiln_make_string_view(key, key_length),
            kiln_make_string_view(value, value_length));
      }
      kiln_allocator_free(p->allocator, key);
      kiln_allocator_free(p->allocator, value);
      KILN_RETURN_IF_ERROR(status);
      KILN_RETURN_IF_ERROR(kiln_asm_expect_newline(p));
      continue;
    }
    if (t.kind != KILN_ASM_IDENT) {
      return kiln_asm_error(p, &t, "expected an instruction, label or '}'");
    }
    KILN_RETURN_IF_ERROR(kiln_asm_instruction(p, f, &t));
  }
}

static kiln_status_t kiln_asm_parse_function(kiln_asm_parser_t* p,
                                             kiln_asm_module_t* m,
                                             const kiln_asm_token_t* start) {
  kiln_asm_function_t fn;
  memset(&fn, 0, sizeof(fn));
  kiln_asm_token_t name_token;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_symbol(p, "function name", &fn.name,
                                              &fn.name_length, &name_token));
  for (size_t i = 0; i < m->functions.count; ++i) {
    if (m->functions.items[i].name_length == fn.name_length &&
        memcmp(m->functions.items[i].name, fn.name, fn.name_length) == 0) {
      kiln_allocator_free(p->allocator, fn.name);
      return kiln_asm_error(p, &name_token, "function '@%.*s' defined twice",
                            (int)name_token.length, name_token.start);
    }
  }
  // Push first so that fn.name is owned by the module.
  kiln_status_t status =
      kiln_asm_vec_grow(p, (void**)&m->functions.items, &m->functions.capacity,
                        m->functions.count, sizeof(kiln_asm_function_t));
  if (status) {
    kiln_allocator_free(p->allocator, fn.name);
    return status;
  }
  uint32_t index = (uint32_t)m->functions.count++;
  m->functions.items[index] = fn;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_punct(p, ':', "':' and a signature"));
  // The signature is raw text up to whitespace or '{'.
  while (p->pos < p->length &&
         (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')) {
    ++p->pos;
  }
  kiln_asm_token_t sig_token;
  memset(&sig_token, 0, sizeof(sig_token));
  sig_token.line = p->line;
  sig_token.col = (int)(p->pos - p->line_start) + 1;
  size_t sig_start = p->pos;
  while (p->pos < p->length && p->text[p->pos] &&
         !strchr(" \t\r\n{#", p->text[p->pos])) {
    ++p->pos;
  }
  kiln_string_view_t sig =
      kiln_make_string_view(p->text + sig_start, p->pos - sig_start);
  kiln_vm_signature_t parsed;
  status = kiln_vm_signature_parse(sig, &parsed);
  if (status) {
    kiln_status_t error =
        kiln_asm_error(p, &sig_token, "%s", kiln_status_message(status));
    kiln_status_free(status);
    return error;
  }
  if (parsed.variadic) {
    return kiln_asm_error(p, &sig_token,
                          "bytecode functions cannot be variadic");
  }
  kiln_asm_function_t* fp = &m->functions.items[index];
  for (size_t i = 0; i < parsed.args.size; ++i) {
    ++fp->regs[kiln_vm_bank_of_type_char(parsed.args.data[i])];
  }
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_add_function(
      m->writer, kiln_make_string_view(fp->name, fp->name_length), sig, NULL,
      NULL, 0, &fp->ordinal));
  int32_t export_ordinal = -1;
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  if (kiln_asm_is(&t, "export")) {
    uint32_t ordinal = 0;
    status = kiln_vm_bytecode_writer_add_export(
        m->writer, kiln_make_string_view(fp->name, fp->name_length),
        fp->ordinal, &ordinal);
    if (status) {
      kiln_status_t error =
          kiln_asm_error(p, &t, "%s", kiln_status_message(status));
      kiln_status_free(status);
      return error;
    }
    export_ordinal = (int32_t)ordinal;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  }
  if (!kiln_asm_is_punct(&t, '{')) {
    return kiln_asm_error(p, &t, "expected '{' after the function signature");
  }
  KILN_RETURN_IF_ERROR(kiln_asm_expect_newline(p));

  kiln_asm_fn_ctx_t f;
  memset(&f, 0, sizeof(f));
  f.module = m;
  f.index = index;
  kiln_asm_bytes_t code = {0};
  uint16_t regs[5];
  memcpy(regs, fp->regs, sizeof(regs));
  f.code = &code;
  f.regs = regs;
  status = kiln_asm_parse_function_body(p, &f, export_ordinal);
  // Resolve labels.
  for (size_t i = 0; !status && i < f.label_fixups.count; ++i) {
    kiln_asm_fixup_t* fx = &f.label_fixups.items[i];
    uint32_t target = 0;
    if (!kiln_asm_find(f.labels.items, f.labels.count, fx->token.start,
                       fx->token.length, &target)) {
      status = kiln_asm_error(p, &fx->token, "undefined label '^%.*s'",
                              (int)fx->token.length, fx->token.start);
      break;
    }
    memcpy(code.data + fx->offset, &target, 4);
  }
  if (!status && code.size == 0) {
    status = kiln_asm_error(p, start, "function '@%.*s' has no instructions",
                            (int)name_token.length, name_token.start);
  }
  kiln_allocator_free(p->allocator, f.labels.items);
  kiln_allocator_free(p->allocator, f.label_fixups.items);
  fp = &m->functions.items[index];
  fp->code = code;
  memcpy(fp->regs, regs, sizeof(regs));
  return status;
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_asm_hex(kiln_asm_parser_t* p,
                                  const kiln_asm_token_t* t,
                                  kiln_asm_bytes_t* out) {
  // Decoded through a chunk, appended per 4 KB rather than per byte (a
  // model's weights are hundreds of MB of hex).
  uint8_t chunk[4096];
  size_t used = 0;
  int nibble = -1;
  for (size_t i = 0; i < t->length; ++i) {
    char c = t->start[i];
    if (c == ' ' || c == '\t' || c == '_') continue;
    int v = (c >= '0' && c <= '9')   ? c - '0'
            : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                     : -1;
    if (v < 0) return kiln_asm_error(p, t, "bad hex digit '%c'", c);
    if (nibble < 0) {
      nibble = v;
    } else {
      chunk[used++] = (uint8_t)(nibble * 16 + v);
      nibble = -1;
      if (used == sizeof(chunk)) {
        KILN_RETURN_IF_ERROR(kiln_asm_append(p, out, chunk, used));
        used = 0;
      }
    }
  }
  if (nibble >= 0) return kiln_asm_error(p, t, "odd number of hex digits");
  if (used) KILN_RETURN_IF_ERROR(kiln_asm_append(p, out, chunk, used));
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_read_file(kiln_asm_parser_t* p,
                                        const kiln_asm_token_t* t,
                                        kiln_asm_bytes_t* out) {
  char* name = NULL;
  size_t name_length = 0;
  KILN_RETURN_IF_ERROR(kiln_asm_decode_string(p, t, &name, &name_length));
  char path[4096];
  if (name[0] == '/' || !p->source_dir) {
    snprintf(path, sizeof(path), "%s", name);
  } else {
    snprintf(path, sizeof(path), "%s/%s", p->source_dir, name);
  }
  kiln_allocator_free(p->allocator, name);
  FILE* file = fopen(path, "rb");
  if (!file) {
    return kiln_asm_error(p, t, "cannot open data file '%s': %s", path,
                          strerror(errno));
  }
  uint8_t chunk[65536];
  size_t n;
  kiln_status_t status = kiln_ok_status();
  while (!status && (n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    status = kiln_asm_append(p, out, chunk, n);
  }
  fclose(file);
  return status;
}

// Parses the data of a rodata line after ':'.
static kiln_status_t kiln_asm_rodata_data(kiln_asm_parser_t* p,
                                          kiln_asm_bytes_t* out) {
  kiln_asm_token_t kind;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &kind));
  if (kiln_asm_is(&kind, "hex") || kiln_asm_is(&kind, "string") ||
      kiln_asm_is(&kind, "file")) {
    kiln_asm_token_t t;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
    if (t.kind != KILN_ASM_STRING) {
      return kiln_asm_error(p, &t, "expected a quoted string");
    }
    if (kiln_asm_is(&kind, "hex")) return kiln_asm_hex(p, &t, out);
    if (kiln_asm_is(&kind, "file")) return kiln_asm_read_file(p, &t, out);
    char* s = NULL;
    size_t n = 0;
    KILN_RETURN_IF_ERROR(kiln_asm_decode_string(p, &t, &s, &n));
    kiln_status_t status = kiln_asm_append(p, out, s, n);
    kiln_allocator_free(p->allocator, s);
    return status;
  }
  static const struct {
    const char* name;
    int size;
    bool is_float;
  } kTypes[] = {{"i8", 1, false},  {"i16", 2, false}, {"i32", 4, false},
                {"i64", 8, false}, {"f32", 4, true},  {"f64", 8, true}};
  for (size_t k = 0; k < sizeof(kTypes) / sizeof(kTypes[0]); ++k) {
    if (!kiln_asm_is(&kind, kTypes[k].name)) continue;
    for (;;) {
      kiln_asm_token_t t;
      KILN_RETURN_IF_ERROR(kiln_asm_peek(p, &t));
      if (t.kind == KILN_ASM_NEWLINE || t.kind == KILN_ASM_EOF) break;
      KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
      if (kiln_asm_is_punct(&t, ',')) continue;
      if (kTypes[k].is_float) {
        double v = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_parse_float(p, &t, &v));
        if (kTypes[k].size == 4) {
          float x = (float)v;
          KILN_RETURN_IF_ERROR(kiln_asm_append(p, out, &x, 4));
        } else {
          KILN_RETURN_IF_ERROR(kiln_asm_append(p, out, &v, 8));
        }
      } else {
        int bits = kTypes[k].size * 8;
        int64_t min = bits == 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
        uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
        int64_t v = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_parse_int(p, &t, min, max, &v));
        KILN_RETURN_IF_ERROR(
            kiln_asm_append(p, out, &v, (size_t)kTypes[k].size));
      }
    }
    return kiln_ok_status();
  }
  return kiln_asm_error(p, &kind,
                        "expected rodata contents: hex \"..\", "
                        "string \"..\", file \"..\" or a type (i8 i16 i32 "
                        "i64 f32 f64) and values");
}

static kiln_status_t kiln_asm_parse_rodata(kiln_asm_parser_t* p,
                                           kiln_asm_module_t* m) {
  char* name = NULL;
  size_t name_length = 0;
  kiln_asm_token_t name_token;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_symbol(p, "rodata name", &name,
                                              &name_length, &name_token));
  kiln_asm_named_t entry = {name, name_length, 0};
  kiln_status_t status =
      kiln_asm_vec_grow(p, (void**)&m->rodata.items, &m->rodata.capacity,
                        m->rodata.count, sizeof(entry));
  if (status) {
    kiln_allocator_free(p->allocator, name);
    return status;
  }
  kiln_asm_named_t* slot = &m->rodata.items[m->rodata.count++];
  *slot = entry;
  uint32_t alignment = 64;
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  if (kiln_asm_is(&t, "align")) {
    kiln_asm_token_t n;
    int64_t v = 0;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &n));
    KILN_RETURN_IF_ERROR(kiln_asm_parse_int(p, &n, 1, 65536, &v));
    if (v & (v - 1)) {
      return kiln_asm_error(p, &n,
                            "alignment %" PRId64 " is not a power of two", v);
    }
    alignment = (uint32_t)v;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  }
  if (!kiln_asm_is_punct(&t, ':')) {
    return kiln_asm_error(p, &t, "expected ':' before the rodata contents");
  }
  // `parameter "scope" "key" LENGTH`: LENGTH bytes in a parameter file.
  kiln_asm_token_t param;
  KILN_RETURN_IF_ERROR(kiln_asm_peek(p, &param));
  if (kiln_asm_is(&param, "parameter")) {
    char *scope = NULL, *key = NULL;
    size_t scope_length = 0, key_length = 0;
    int64_t length = 0;
    kiln_asm_token_t n;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &param));
    status = kiln_asm_expect_string(p, "parameter scope", &scope, &scope_length,
                                    NULL);
    if (!status) {
      status =
          kiln_asm_expect_string(p, "parameter key", &key, &key_length, NULL);
    }
    if (!status) status = kiln_asm_next(p, &n);
    if (!status) status = kiln_asm_parse_int(p, &n, 0, INT64_MAX / 2, &length);
    if (!status) {
      status = kiln_vm_bytecode_writer_add_rodata_parameter(
          m->writer, kiln_make_string_view(name, name_length),
          kiln_make_string_view(scope, scope_length),
          kiln_make_string_view(key, key_length), (uint64_t)length, alignment,
          &slot->value);
    }
    kiln_allocator_free(p->allocator, scope);
    kiln_allocator_free(p->allocator, key);
    KILN_RETURN_IF_ERROR(status);
    return kiln_asm_expect_newline(p);
  }
  // `splat COUNT x <contents>`: COUNT copies of the contents, stored once.
  int64_t splat_count = -1;
  kiln_asm_token_t splat;
  KILN_RETURN_IF_ERROR(kiln_asm_peek(p, &splat));
  if (kiln_asm_is(&splat, "splat")) {
    kiln_asm_token_t count, x;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &splat));
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &count));
    KILN_RETURN_IF_ERROR(
        kiln_asm_parse_int(p, &count, 0, INT64_MAX / 64, &splat_count));
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &x));
    if (!kiln_asm_is(&x, "x")) {
      return kiln_asm_error(p, &x, "expected 'x' after the splat count");
    }
  }
  kiln_asm_bytes_t data = {0};
  kiln_asm_token_t blob;
  KILN_RETURN_IF_ERROR(kiln_asm_peek(p, &blob));
  if (kiln_asm_is(&blob, "blob")) {
    // `blob N`: the caller's bytes, added without a copy into |data|.
    kiln_asm_token_t n;
    int64_t index = 0;
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &blob));
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &n));
    if (splat_count >= 0) {
      return kiln_asm_error(p, &blob, "a splat cannot take a blob");
    }
    if (p->blob_count == 0) {
      return kiln_asm_error(p, &blob,
                            "rodata 'blob' is only for in-process callers "
                            "that pass the bytes (write hex \"..\" instead)");
    }
    KILN_RETURN_IF_ERROR(
        kiln_asm_parse_int(p, &n, 0, (int64_t)p->blob_count - 1, &index));
    // Borrowed: the writer is finished before this call returns, and the
    // blobs are valid until then.
    status = kiln_vm_bytecode_writer_add_rodata_borrowed(
        m->writer, kiln_make_string_view(name, name_length),
        p->blobs[index].data, p->blobs[index].length, alignment, &slot->value);
    if (status) {
      kiln_status_t error =
          kiln_asm_error(p, &name_token, "%s", kiln_status_message(status));
      kiln_status_free(status);
      status = error;
    }
    return status;
  }
  status = kiln_asm_rodata_data(p, &data);
  if (!status && splat_count >= 0) {
    status = kiln_vm_bytecode_writer_add_rodata_splat(
        m->writer, kiln_make_string_view(name, name_length), data.data,
        data.size, (uint64_t)splat_count * data.size, alignment, &slot->value);
  } else if (!status) {
    status = kiln_vm_bytecode_writer_add_rodata(
        m->writer, kiln_make_string_view(name, name_length), data.data,
        data.size, alignment, &slot->value);
    if (status) {
      kiln_status_t error =
          kiln_asm_error(p, &name_token, "%s", kiln_status_message(status));
      kiln_status_free(status);
      status = error;
    }
  }
  kiln_allocator_free(p->allocator, data.data);
  KILN_RETURN_IF_ERROR(status);
  return kiln_asm_expect_newline(p);
}

static kiln_status_t kiln_asm_parse_executable(kiln_asm_parser_t* p,
                                               kiln_asm_module_t* m) {
  char *name = NULL, *format = NULL;
  size_t name_length = 0, format_length = 0;
  kiln_asm_token_t name_token;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_symbol(p, "executable name", &name,
                                              &name_length, &name_token));
  kiln_status_t status = kiln_asm_expect_punct(p, ':', "':' and a format");
  if (!status) {
    status = kiln_asm_expect_string(p, "executable format", &format,
                                    &format_length, NULL);
  }
  if (!status) status = kiln_asm_expect_punct(p, '{', "'{'");
  if (!status) status = kiln_asm_expect_newline(p);
  // Entry points are collected first: the data comes later in the block.
  typedef struct {
    char* name;
    size_t name_length;
    uint32_t wg[3];
    uint32_t local_memory;
    char* source;
    size_t source_length;
  } entry_t;
  KILN_ASM_VEC(entry_t) entries = {0};
  kiln_asm_bytes_t data = {0};
  bool has_data = false;
  while (!status) {
    kiln_asm_token_t t;
    status = kiln_asm_next(p, &t);
    if (status) break;
    if (t.kind == KILN_ASM_NEWLINE) continue;
    if (kiln_asm_is_punct(&t, '}')) {
      status = kiln_asm_expect_newline(p);
      break;
    }
    if (t.kind == KILN_ASM_EOF) {
      status = kiln_asm_error(p, &t, "missing '}' closing the executable");
      break;
    }
    if (kiln_asm_is(&t, "entry")) {
      entry_t e;
      memset(&e, 0, sizeof(e));
      e.wg[0] = e.wg[1] = e.wg[2] = 1;
      status = kiln_asm_expect_symbol(p, "entry point name", &e.name,
                                      &e.name_length, NULL);
      while (!status) {
        kiln_asm_token_t k;
        status = kiln_asm_next(p, &k);
        if (status || k.kind == KILN_ASM_NEWLINE || k.kind == KILN_ASM_EOF) {
          break;
        }
        if (kiln_asm_is(&k, "workgroup")) {
          for (int i = 0; i < 3 && !status; ++i) {
            kiln_asm_token_t n;
            int64_t v = 0;
            status = kiln_asm_next(p, &n);
            if (!status) status = kiln_asm_parse_int(p, &n, 1, UINT32_MAX, &v);
            e.wg[i] = (uint32_t)v;
          }
        } else if (kiln_asm_is(&k, "local_memory")) {
          kiln_asm_token_t n;
          int64_t v = 0;
          status = kiln_asm_next(p, &n);
          if (!status) status = kiln_asm_parse_int(p, &n, 0, UINT32_MAX, &v);
          e.local_memory = (uint32_t)v;
        } else if (kiln_asm_is(&k, "source")) {
          kiln_allocator_free(p->allocator, e.source);
          e.source = NULL;
          status = kiln_asm_expect_string(p, "source location", &e.source,
                                          &e.source_length, NULL);
        } else {
          status = kiln_asm_error(p, &k,
                                  "expected workgroup, local_memory "
                                  "or source");
        }
      }
      if (!status) {
        status = kiln_asm_vec_grow(p, (void**)&entries.items, &entries.capacity,
                                   entries.count, sizeof(entry_t));
      }
      if (status) {
        kiln_allocator_free(p->allocator, e.name);
        kiln_allocator_free(p->allocator, e.source);
        break;
      }
      entries.items[entries.count++] = e;
      continue;
    }
    if (has_data) {
      status = kiln_asm_error(p, &t, "the executable already has data");
      break;
    }
    if (kiln_asm_is(&t, "module")) {
      uint8_t* bytes = NULL;
      size_t length = 0;
      status = kiln_asm_parse_nested_module(p, &bytes, &length);
      if (!status) status = kiln_asm_append(p, &data, bytes, length);
      kiln_allocator_free(p->allocator, bytes);
      has_data = true;
      continue;
    }
    if (kiln_asm_is(&t, "data")) {
      kiln_asm_token_t kind, s;
      status = kiln_asm_next(p, &kind);
      if (!status) status = kiln_asm_next(p, &s);
      if (!status && s.kind != KILN_ASM_STRING) {
        status = kiln_asm_error(p, &s, "expected a quoted string");
      }
      if (!status) {
        if (kiln_asm_is(&kind, "hex")) {
          status = kiln_asm_hex(p, &s, &data);
        } else if (kiln_asm_is(&kind, "file")) {
          status = kiln_asm_read_file(p, &s, &data);
        } else {
          status = kiln_asm_error(p, &kind, "expected 'hex' or 'file'");
        }
      }
      if (!status) status = kiln_asm_expect_newline(p);
      has_data = true;
      continue;
    }
    status = kiln_asm_error(p, &t, "expected entry, module, data or '}'");
  }
  uint32_t ordinal = 0;
  if (!status) {
    bool native = format_length >= 7 && memcmp(format, "native-", 7) == 0;
    status = kiln_vm_bytecode_writer_add_executable(
        m->writer, kiln_make_string_view(name, name_length),
        kiln_make_string_view(format, format_length), data.data, data.size,
        native, &ordinal);
    if (status) {
      kiln_status_t error =
          kiln_asm_error(p, &name_token, "%s", kiln_status_message(status));
      kiln_status_free(status);
      status = error;
    }
  }
  if (!status) {
    // Remember the name so that executable.ref can refer to it.
    status = kiln_asm_vec_grow(p, (void**)&m->executables.items,
                               &m->executables.capacity, m->executables.count,
                               sizeof(kiln_asm_named_t));
  }
  if (!status) {
    kiln_asm_named_t* slot = &m->executables.items[m->executables.count++];
    slot->name = name;  // ownership moves to the module's table
    slot->length = name_length;
    slot->value = ordinal;
    name = NULL;
  }
  for (size_t i = 0; i < entries.count; ++i) {
    entry_t* e = &entries.items[i];
    if (!status) {
      status = kiln_vm_bytecode_writer_add_entry_point(
          m->writer, ordinal, kiln_make_string_view(e->name, e->name_length),
          e->wg, e->local_memory,
          kiln_make_string_view(e->source ? e->source : "", e->source_length));
    }
    kiln_allocator_free(p->allocator, e->name);
    kiln_allocator_free(p->allocator, e->source);
  }
  kiln_allocator_free(p->allocator, entries.items);
  kiln_allocator_free(p->allocator, data.data);
  kiln_allocator_free(p->allocator, name);
  kiln_allocator_free(p->allocator, format);
  return status;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_asm_parse_import(kiln_asm_parser_t* p,
                                           kiln_asm_module_t* m) {
  char* name = NULL;
  size_t name_length = 0;
  kiln_asm_token_t name_token;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_symbol(p, "import name", &name,
                                              &name_length, &name_token));
  kiln_asm_named_t entry = {name, name_length, 0};
  kiln_status_t status =
      kiln_asm_vec_grow(p, (void**)&m->imports.items, &m->imports.capacity,
                        m->imports.count, sizeof(entry));
  if (status) {
    kiln_allocator_free(p->allocator, name);
    return status;
  }
  kiln_asm_named_t* slot = &m->imports.items[m->imports.count++];
  *slot = entry;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_punct(p, ':', "':' and a signature"));
  while (p->pos < p->length &&
         (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')) {
    ++p->pos;
  }
  size_t sig_start = p->pos;
  while (p->pos < p->length && p->text[p->pos] &&
         !strchr(" \t\r\n{#", p->text[p->pos])) {
    ++p->pos;
  }
  status = kiln_vm_bytecode_writer_add_import(
      m->writer, kiln_make_string_view(name, name_length),
      kiln_make_string_view(p->text + sig_start, p->pos - sig_start),
      &slot->value);
  if (status) {
    kiln_status_t error =
        kiln_asm_error(p, &name_token, "%s", kiln_status_message(status));
    kiln_status_free(status);
    return error;
  }
  return kiln_asm_expect_newline(p);
}

// "global @name : i32|i64|f32|f64|ref" (module level).
static kiln_status_t kiln_asm_parse_global(kiln_asm_parser_t* p,
                                           kiln_asm_module_t* m) {
  char* name = NULL;
  size_t name_length = 0;
  kiln_asm_token_t name_token;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_symbol(p, "global name", &name,
                                              &name_length, &name_token));
  kiln_asm_named_t entry = {name, name_length, 0};
  kiln_status_t status =
      kiln_asm_vec_grow(p, (void**)&m->globals.items, &m->globals.capacity,
                        m->globals.count, sizeof(entry));
  if (status) {
    kiln_allocator_free(p->allocator, name);
    return status;
  }
  kiln_asm_named_t* slot = &m->globals.items[m->globals.count++];
  *slot = entry;
  KILN_RETURN_IF_ERROR(kiln_asm_expect_punct(p, ':', "':' and a type"));
  kiln_asm_token_t t;
  KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
  static const char* const kBanks[KILN_VM_BANK_COUNT] = {"i32", "i64", "f32",
                                                         "f64", "ref"};
  int bank = -1;
  for (int b = 0; b < KILN_VM_BANK_COUNT; ++b) {
    if (kiln_asm_is(&t, kBanks[b])) bank = b;
  }
  if (bank < 0) {
    return kiln_asm_error(p, &t,
                          "expected the global's type: i32, i64, f32, f64 or "
                          "ref");
  }
  status = kiln_vm_bytecode_writer_add_global(
      m->writer, kiln_make_string_view(name, name_length), (uint32_t)bank,
      &slot->value);
  if (status) {
    kiln_status_t error =
        kiln_asm_error(p, &name_token, "%s", kiln_status_message(status));
    kiln_status_free(status);
    return error;
  }
  return kiln_asm_expect_newline(p);
}

static kiln_status_t kiln_asm_finish_module(kiln_asm_parser_t* p,
                                            kiln_asm_module_t* m) {
  for (size_t i = 0; i < m->fixups.count; ++i) {
    kiln_asm_fixup_t* fx = &m->fixups.items[i];
    uint32_t value = 0;
    bool found = false;
    const char* what = "";
    if (fx->kind == KILN_ASM_FIXUP_FUNCTION) {
      what = "function";
      for (size_t k = 0; k < m->functions.count; ++k) {
        if (m->functions.items[k].name_length == fx->name_length &&
            memcmp(m->functions.items[k].name, fx->name, fx->name_length) ==
                0) {
          value = m->functions.items[k].ordinal;
          found = true;
        }
      }
    } else if (fx->kind == KILN_ASM_FIXUP_IMPORT) {
      what = "import";
      found = kiln_asm_find(m->imports.items, m->imports.count, fx->name,
                            fx->name_length, &value);
    } else if (fx->kind == KILN_ASM_FIXUP_GLOBAL) {
      what = "global";
      found = kiln_asm_find(m->globals.items, m->globals.count, fx->name,
                            fx->name_length, &value);
    } else if (fx->kind == KILN_ASM_FIXUP_EXECUTABLE) {
      what = "executable";
      found = kiln_asm_find(m->executables.items, m->executables.count,
                            fx->name, fx->name_length, &value);
    } else {
      what = "rodata";
      found = kiln_asm_find(m->rodata.items, m->rodata.count, fx->name,
                            fx->name_length, &value);
    }
    if (!found) {
      return kiln_asm_error(p, &fx->token, "undefined %s '@%s'", what,
                            fx->name);
    }
    memcpy(m->functions.items[fx->function].code.data + fx->offset, &value, 4);
  }
  for (size_t i = 0; i < m->functions.count; ++i) {
    kiln_asm_function_t* f = &m->functions.items[i];
    KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_set_function_code(
        m->writer, f->ordinal, f->regs, f->code.data, f->code.size));
  }
  for (size_t i = 0; i < m->exports.count; ++i) {
    kiln_asm_export_t* x = &m->exports.items[i];
    uint32_t function = 0;
    bool found = false;
    for (size_t k = 0; k < m->functions.count; ++k) {
      if (m->functions.items[k].name_length == x->function_length &&
          memcmp(m->functions.items[k].name, x->function, x->function_length) ==
              0) {
        function = m->functions.items[k].ordinal;
        found = true;
      }
    }
    if (!found) {
      return kiln_asm_error(p, &x->token, "export of undefined function '@%s'",
                            x->function);
    }
    uint32_t ordinal = 0;
    kiln_status_t status = kiln_vm_bytecode_writer_add_export(
        m->writer, kiln_make_string_view(x->name, x->name_length), function,
        &ordinal);
    for (size_t k = 0; !status && k + 1 < x->attrs.count; k += 2) {
      status = kiln_vm_bytecode_writer_add_export_attr(
          m->writer, ordinal, kiln_make_cstring_view(x->attrs.items[k]),
          kiln_make_cstring_view(x->attrs.items[k + 1]));
    }
    if (status) {
      kiln_status_t error =
          kiln_asm_error(p, &x->token, "%s", kiln_status_message(status));
      kiln_status_free(status);
      return error;
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_parse_export(kiln_asm_parser_t* p,
                                           kiln_asm_module_t* m,
                                           const kiln_asm_token_t* start) {
  kiln_asm_export_t x;
  memset(&x, 0, sizeof(x));
  x.token = *start;
  kiln_status_t status =
      kiln_asm_expect_symbol(p, "export name", &x.name, &x.name_length, NULL);
  if (!status) status = kiln_asm_expect_punct(p, '=', "'='");
  if (!status) {
    status = kiln_asm_expect_symbol(p, "exported function", &x.function,
                                    &x.function_length, NULL);
  }
  if (!status) status = kiln_asm_expect_newline(p);
  if (!status) {
    status =
        kiln_asm_vec_grow(p, (void**)&m->exports.items, &m->exports.capacity,
                          m->exports.count, sizeof(x));
  }
  if (status) {
    kiln_allocator_free(p->allocator, x.name);
    kiln_allocator_free(p->allocator, x.function);
    return status;
  }
  m->exports.items[m->exports.count++] = x;
  return kiln_ok_status();
}

static kiln_status_t kiln_asm_parse_module_body(kiln_asm_parser_t* p,
                                                kiln_asm_module_t* m,
                                                bool nested) {
  kiln_asm_token_t t;
  for (;;) {
    KILN_RETURN_IF_ERROR(kiln_asm_next(p, &t));
    if (t.kind == KILN_ASM_NEWLINE) continue;
    if (t.kind == KILN_ASM_EOF) {
      if (nested) return kiln_asm_error(p, &t, "missing '}' closing module");
      break;
    }
    if (kiln_asm_is_punct(&t, '}')) {
      if (!nested) return kiln_asm_error(p, &t, "unexpected '}'");
      KILN_RETURN_IF_ERROR(kiln_asm_expect_newline(p));
      break;
    }
    if (kiln_asm_is(&t, "import")) {
      KILN_RETURN_IF_ERROR(kiln_asm_parse_import(p, m));
    } else if (kiln_asm_is(&t, "rodata")) {
      KILN_RETURN_IF_ERROR(kiln_asm_parse_rodata(p, m));
    } else if (kiln_asm_is(&t, "executable")) {
      KILN_RETURN_IF_ERROR(kiln_asm_parse_executable(p, m));
    } else if (kiln_asm_is(&t, "global")) {
      KILN_RETURN_IF_ERROR(kiln_asm_parse_global(p, m));
    } else if (kiln_asm_is(&t, "func")) {
      KILN_RETURN_IF_ERROR(kiln_asm_parse_function(p, m, &t));
    } else if (kiln_asm_is(&t, "export")) {
      KILN_RETURN_IF_ERROR(kiln_asm_parse_export(p, m, &t));
    } else if (kiln_asm_is(&t, "attr")) {
      if (m->exports.count == 0) {
        return kiln_asm_error(p, &t,
                              "'attr' at module level must follow an "
                              "'export @name = @function' line");
      }
      kiln_asm_export_t* x = &m->exports.items[m->exports.count - 1];
      for (int k = 0; k < 2; ++k) {
        char* s = NULL;
        size_t n = 0;
        KILN_RETURN_IF_ERROR(kiln_asm_expect_string(
            p, k ? "attribute value" : "attribute key", &s, &n, NULL));
        kiln_status_t status =
            kiln_asm_vec_grow(p, (void**)&x->attrs.items, &x->attrs.capacity,
                              x->attrs.count, sizeof(char*));
        if (status) {
          kiln_allocator_free(p->allocator, s);
          return status;
        }
        x->attrs.items[x->attrs.count++] = s;
      }
      KILN_RETURN_IF_ERROR(kiln_asm_expect_newline(p));
    } else if (kiln_asm_is(&t, "module")) {
      return kiln_asm_error(p, &t, "'module' must be the first line");
    } else {
      return kiln_asm_error(p, &t,
                            "expected import, rodata, executable, global, "
                            "func, export or attr, got '%.*s'",
                            (int)t.length, t.start);
    }
  }
  return kiln_asm_finish_module(p, m);
}

kiln_status_t kiln_vm_assemble(const char* text, size_t length,
                               const char* source_name,
                               kiln_allocator_t allocator, uint8_t** out_bytes,
                               size_t* out_length) {
  return kiln_vm_assemble_with_blobs(text, length, source_name, NULL, 0,
                                     allocator, out_bytes, out_length);
}

// If |line| (without its newline) is "rodata ... : blob N", returns true
// with N and where the ':' is.
static bool kiln_asm_blob_line(const char* line, size_t line_length,
                               unsigned long long* out_index,
                               size_t* out_colon) {
  if (line_length <= 7 || memcmp(line, "rodata ", 7) != 0) return false;
  size_t colon = line_length;
  while (colon > 0 && line[colon - 1] != ':') --colon;
  if (colon == 0) return false;
  --colon;
  if (line_length - colon < 8 || memcmp(line + colon, ": blob ", 7) != 0) {
    return false;
  }
  unsigned long long index = 0;
  for (size_t k = colon + 7; k < line_length; ++k) {
    if (line[k] < '0' || line[k] > '9' || index > UINT32_MAX) return false;
    index = index * 10 + (unsigned)(line[k] - '0');
  }
  *out_index = index;
  *out_colon = colon;
  return true;
}

kiln_status_t kiln_vm_asm_inline_blobs(const char* text, size_t length,
                                       const kiln_vm_asm_blob_t* blobs,
                                       size_t blob_count,
                                       kiln_allocator_t allocator,
                                       char** out_text, size_t* out_length) {
  *out_text = NULL;
  *out_length = 0;
  // Strings never span lines (the syntax escapes control bytes), so a blob
  // reference is a whole line. Pass 0 sizes the output, pass 1 writes it.
  static const char kDigits[] = "0123456789abcdef";
  char* out = NULL;
  size_t used = 0;
  for (int pass = 0; pass < 2; ++pass) {
    used = 0;
    for (size_t pos = 0; pos < length;) {
      const char* nl = memchr(text + pos, '\n', length - pos);
      size_t end = nl ? (size_t)(nl - text) : length;
      const char* line = text + pos;
      size_t line_length = end - pos, n = line_length + (nl ? 1 : 0);
      unsigned long long index = 0;
      size_t colon = 0;
      if (!kiln_asm_blob_line(line, line_length, &index, &colon)) {
        if (out) memcpy(out + used, line, n);
        used += n;
      } else if (index >= blob_count) {
        kiln_allocator_free(allocator, out);
        return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "rodata blob %llu of %zu", index, blob_count);
      } else {
        const kiln_vm_asm_blob_t* b = &blobs[index];
        if (out) {
          memcpy(out + used, line, colon);
          memcpy(out + used + colon, ": hex \"", 7);
          char* hex = out + used + colon + 7;
          for (size_t i = 0; i < b->length; ++i) {
            hex[2 * i] = kDigits[b->data[i] >> 4];
            hex[2 * i + 1] = kDigits[b->data[i] & 15];
          }
          hex[2 * b->length] = '"';
          if (nl) hex[2 * b->length + 1] = '\n';
        }
        used += colon + 7 + 2 * b->length + 1 + (nl ? 1 : 0);
      }
      pos = end + (nl ? 1 : 0);
    }
    if (pass == 0) {
      KILN_RETURN_IF_ERROR(
          kiln_allocator_malloc(allocator, used + 1, (void**)&out));
    }
  }
  out[used] = 0;
  *out_text = out;
  *out_length = used;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_assemble_with_blobs(
    const char* text, size_t length, const char* source_name,
    const kiln_vm_asm_blob_t* blobs, size_t blob_count,
    kiln_allocator_t allocator, uint8_t** out_bytes, size_t* out_length) {
  *out_bytes = NULL;
  *out_length = 0;
  kiln_asm_parser_t p;
  memset(&p, 0, sizeof(p));
  p.blobs = blobs;
  p.blob_count = blob_count;
  p.text = text;
  p.length = length;
  p.line = 1;
  p.source_name = source_name ? source_name : "<input>";
  p.allocator = allocator;
  if (source_name) {
    const char* slash = strrchr(source_name, '/');
    if (slash) {
      size_t n = (size_t)(slash - source_name);
      KILN_RETURN_IF_ERROR(
          kiln_allocator_malloc(allocator, n + 1, (void**)&p.source_dir));
      memcpy(p.source_dir, source_name, n);
      p.source_dir[n] = 0;
    }
  }
  kiln_asm_module_t m;
  memset(&m, 0, sizeof(m));
  kiln_status_t status = kiln_vm_bytecode_writer_create(allocator, &m.writer);
  kiln_asm_token_t t;
  while (!status) {
    status = kiln_asm_next(&p, &t);
    if (status || t.kind != KILN_ASM_NEWLINE) break;
  }
  if (!status && !kiln_asm_is(&t, "module")) {
    status = kiln_asm_error(&p, &t, "expected 'module @name' first");
  }
  char* name = NULL;
  size_t name_length = 0;
  if (!status) {
    status =
        kiln_asm_expect_symbol(&p, "module name", &name, &name_length, NULL);
  }
  if (!status) {
    status = kiln_vm_bytecode_writer_set_name(
        m.writer, kiln_make_string_view(name, name_length));
  }
  kiln_allocator_free(allocator, name);
  if (!status) status = kiln_asm_expect_newline(&p);
  if (!status) status = kiln_asm_parse_module_body(&p, &m, false);
  if (!status) {
    status = kiln_vm_bytecode_writer_finish(m.writer, out_bytes, out_length);
  }
  kiln_asm_module_free(&p, &m);
  kiln_allocator_free(allocator, p.source_dir);
  return status;
}
