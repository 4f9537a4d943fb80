// MLIR text parser (generic form, custom-form hooks, aliases, locations).
#include "compiler/ir/text/parser.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builtin.h"
#include "compiler/ir/context_internal.h"
#include "compiler/ir/text/op_parser.h"

//===----------------------------------------------------------------------===//
// Parser state
//===----------------------------------------------------------------------===//

typedef struct kiln_mlir_value_entry_t {
  kiln_string_view_t name;
  uint32_t count;
  kiln_ir_value_t** values;
  bool forward;  // placeholders for uses before the definition
  uint32_t line, column;
} kiln_mlir_value_entry_t;

typedef struct kiln_mlir_block_entry_t {
  kiln_ir_block_t* block;
  bool defined;
  uint32_t line, column;
} kiln_mlir_block_entry_t;

typedef struct kiln_mlir_scope_t {
  kiln_ir_hash_map_t values;  // name -> kiln_mlir_value_entry_t*
  kiln_ir_hash_map_t blocks;  // name -> kiln_mlir_block_entry_t*
  bool isolated;
} kiln_mlir_scope_t;

struct kiln_mlir_op_parser_t {
  kiln_ir_context_t* context;
  kiln_allocator_t allocator;
  kiln_string_view_t filename;
  kiln_mlir_lexer_t lexer;
  kiln_mlir_token_t tok;
  size_t prev_end;  // end offset of the last consumed token
  kiln_ir_hash_map_t attr_aliases;
  kiln_ir_hash_map_t type_aliases;
  kiln_ir_hash_map_t loc_aliases;
  kiln_mlir_scope_t* scopes;
  size_t num_scopes;
  size_t scope_capacity;
  int suppress;         // >0: speculative, do not record diagnostics
  int in_dialect_attr;  // >0: bare words parse as KEYWORD attributes
  size_t nesting;       // regions, types, attributes and affine terms open
};

// Deeper input is refused with an error at the token that opens the level
// past it: the parser (and every pass after it) recurses once per level, so
// the limit keeps the stack bounded (well under 1 MB even in ASan builds).
#define KILN_MLIR_MAX_NESTING 256

typedef kiln_mlir_op_parser_t P;

static void kiln_mlir_consume(P* p) {
  p->prev_end = p->tok.offset + p->tok.spelling.size;
  p->tok = kiln_mlir_lexer_next(&p->lexer);
}

// Moves the lexer to |offset| (>= current token offset) and re-lexes.
static void kiln_mlir_reset_to(P* p, size_t offset) {
  kiln_mlir_lexer_t* l = &p->lexer;
  l->pos = p->tok.offset;
  l->line = p->tok.line;
  l->column = p->tok.column;
  while (l->pos < offset && l->pos < l->size) {
    if (l->text[l->pos] == '\n') {
      ++l->line;
      l->column = 1;
    } else {
      ++l->column;
    }
    ++l->pos;
  }
  p->tok = kiln_mlir_lexer_next(l);
}

kiln_ir_context_t* kiln_mlir_parser_context(P* p) {
  return p->context;
}
const kiln_mlir_token_t* kiln_mlir_peek(P* p) {
  return &p->tok;
}

static const kiln_ir_location_t* kiln_mlir_loc_at(P* p, uint32_t line,
                                                  uint32_t column) {
  return kiln_ir_location_file(p->context, p->filename, line, column);
}

const kiln_ir_location_t* kiln_mlir_current_location(P* p) {
  return kiln_mlir_loc_at(p, p->tok.line, p->tok.column);
}

static kiln_status_t kiln_mlir_error_v(P* p, uint32_t line, uint32_t column,
                                       const char* format, va_list args) {
  if (p->suppress) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "speculative");
  }
  return kiln_ir_emit_diagnostic_v(p->context, KILN_IR_SEVERITY_ERROR,
                                   kiln_mlir_loc_at(p, line, column), format,
                                   args);
}

kiln_status_t kiln_mlir_emit_error(P* p, const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t st =
      kiln_mlir_error_v(p, p->tok.line, p->tok.column, format, args);
  va_end(args);
  return st;
}

kiln_status_t kiln_mlir_emit_error_at(P* p, uint32_t line, uint32_t column,
                                      const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t st = kiln_mlir_error_v(p, line, column, format, args);
  va_end(args);
  return st;
}

// A missing token is reported where it belongs, as MLIR does: when the
// current token starts a later line than the one that ends the previous
// token, at the end of that previous token (e.g. a missing `: type` at the
// end of a line is not the next line's fault).
static kiln_status_t kiln_mlir_expected(P* p, const char* what) {
  uint32_t line = p->tok.line, column = p->tok.column;
  const char* text = p->lexer.text;
  size_t end = p->prev_end;
  if (end > 0 && end <= p->tok.offset) {
    uint32_t newlines = 0;
    for (size_t i = end; i < p->tok.offset; ++i) newlines += text[i] == '\n';
    if (newlines > 0 && newlines < line) {
      size_t start = end;
      while (start > 0 && text[start - 1] != '\n') --start;
      line -= newlines;
      column = (uint32_t)(end - start) + 1;
    }
  }
  if (p->tok.kind == KILN_MLIR_TOK_EOF) {
    return kiln_mlir_emit_error_at(p, line, column,
                                   "expected %s, found end of file", what);
  }
  return kiln_mlir_emit_error_at(p, line, column, "expected %s, found '%.*s'",
                                 what, KILN_SV_ARG(p->tok.spelling));
}

//===----------------------------------------------------------------------===//
// Punctuation, keywords, literals
//===----------------------------------------------------------------------===//

// Opens one nesting level; every successful call is paired with
// kiln_mlir_leave_nesting.
static kiln_status_t kiln_mlir_enter_nesting(P* p) {
  if (p->nesting >= KILN_MLIR_MAX_NESTING) {
    return kiln_mlir_emit_error(p, "nesting deeper than %d levels",
                                KILN_MLIR_MAX_NESTING);
  }
  ++p->nesting;
  return kiln_ok_status();
}

static void kiln_mlir_leave_nesting(P* p) {
  --p->nesting;
}

kiln_status_t kiln_mlir_parse_punct(P* p, kiln_mlir_token_kind_t kind) {
  if (p->tok.kind != kind) {
    return kiln_mlir_expected(p, kiln_mlir_token_kind_name(kind));
  }
  kiln_mlir_consume(p);
  return kiln_ok_status();
}

bool kiln_mlir_parse_optional_punct(P* p, kiln_mlir_token_kind_t kind) {
  if (p->tok.kind != kind) return false;
  kiln_mlir_consume(p);
  return true;
}

static bool kiln_mlir_tok_is_keyword(P* p, const char* keyword) {
  return p->tok.kind == KILN_MLIR_TOK_BARE_ID &&
         kiln_string_view_equal_cstr(p->tok.spelling, keyword);
}

kiln_status_t kiln_mlir_parse_keyword(P* p, const char* keyword) {
  if (!kiln_mlir_tok_is_keyword(p, keyword)) {
    char what[128];
    snprintf(what, sizeof(what), "'%s'", keyword);
    return kiln_mlir_expected(p, what);
  }
  kiln_mlir_consume(p);
  return kiln_ok_status();
}

bool kiln_mlir_parse_optional_keyword(P* p, const char* keyword) {
  if (!kiln_mlir_tok_is_keyword(p, keyword)) return false;
  kiln_mlir_consume(p);
  return true;
}

bool kiln_mlir_parse_optional_any_keyword(P* p, kiln_string_view_t* out) {
  if (p->tok.kind != KILN_MLIR_TOK_BARE_ID) return false;
  *out = kiln_ir_intern(p->context, p->tok.spelling);
  kiln_mlir_consume(p);
  return true;
}

// The strtoull base of an MLIR integer literal: 16 for `0x...`, else 10
// (`08` is eight, not a bad octal literal).
static int kiln_mlir_int_base(const char* s) {
  return (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
}

static kiln_status_t kiln_mlir_parse_uint(P* p, uint64_t* out) {
  if (p->tok.kind != KILN_MLIR_TOK_INTEGER)
    return kiln_mlir_expected(p, "integer");
  kiln_string_view_t s = p->tok.spelling;
  char buffer[80];
  if (s.size >= sizeof(buffer)) {
    return kiln_mlir_emit_error(p, "integer literal too large");
  }
  memcpy(buffer, s.data, s.size);
  buffer[s.size] = 0;
  errno = 0;
  char* end = NULL;
  // MLIR integers are decimal or 0x-hex; a leading zero is not octal.
  unsigned long long v = strtoull(buffer, &end, kiln_mlir_int_base(buffer));
  if (errno || *end) {
    return kiln_mlir_emit_error(p, "integer literal '%s' out of range", buffer);
  }
  *out = v;
  kiln_mlir_consume(p);
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_integer(P* p, int64_t* out) {
  bool neg = kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_MINUS);
  uint64_t v = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_uint(p, &v));
  *out = neg ? -(int64_t)v : (int64_t)v;
  return kiln_ok_status();
}

static kiln_string_view_t kiln_mlir_decode(P* p, kiln_string_view_t spelling,
                                           bool intern) {
  char* buffer = (char*)kiln_ir_arena_alloc(p->context, spelling.size + 1);
  if (!buffer) return kiln_string_view_empty();
  size_t n = kiln_mlir_decode_string(spelling, buffer);
  kiln_string_view_t sv = kiln_make_string_view(buffer, n);
  return intern ? kiln_ir_intern(p->context, sv) : sv;
}

kiln_status_t kiln_mlir_parse_string(P* p, kiln_string_view_t* out) {
  if (p->tok.kind != KILN_MLIR_TOK_STRING)
    return kiln_mlir_expected(p, "string");
  *out = kiln_mlir_decode(p, p->tok.spelling, false);
  kiln_mlir_consume(p);
  return kiln_ok_status();
}

bool kiln_mlir_parse_optional_symbol_name(P* p, kiln_string_view_t* out) {
  if (p->tok.kind != KILN_MLIR_TOK_AT_ID) return false;
  kiln_string_view_t s = p->tok.spelling;
  if (s.size > 1 && s.data[1] == '"') {
    *out = kiln_mlir_decode(p, s, true);
  } else {
    *out = kiln_ir_intern(p->context, kiln_string_view_substr(s, 1, s.size));
  }
  kiln_mlir_consume(p);
  return true;
}

kiln_status_t kiln_mlir_parse_symbol_name(P* p, kiln_string_view_t* out) {
  if (!kiln_mlir_parse_optional_symbol_name(p, out)) {
    return kiln_mlir_expected(p, "symbol name");
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Scopes and values
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_mlir_push_scope(P* p, bool isolated) {
  if (p->num_scopes == p->scope_capacity) {
    size_t cap = p->scope_capacity ? p->scope_capacity * 2 : 8;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        p->allocator, cap * sizeof(*p->scopes), (void**)&p->scopes));
    p->scope_capacity = cap;
  }
  kiln_mlir_scope_t* s = &p->scopes[p->num_scopes++];
  memset(s, 0, sizeof(*s));
  s->isolated = isolated;
  return kiln_ok_status();
}

// Pops the top scope, reporting unresolved forward references and blocks.
static kiln_status_t kiln_mlir_pop_scope(P* p) {
  kiln_mlir_scope_t* s = &p->scopes[--p->num_scopes];
  kiln_status_t st = kiln_ok_status();
  for (size_t i = 0; i < s->values.capacity && !st; ++i) {
    kiln_mlir_value_entry_t* e = (kiln_mlir_value_entry_t*)s->values.values[i];
    if (s->values.keys[i].data && e && e->forward) {
      st = kiln_mlir_emit_error_at(p, e->line, e->column,
                                   "use of undeclared SSA value name '%.*s'",
                                   KILN_SV_ARG(e->name));
    }
  }
  for (size_t i = 0; i < s->blocks.capacity && !st; ++i) {
    kiln_mlir_block_entry_t* e = (kiln_mlir_block_entry_t*)s->blocks.values[i];
    if (s->blocks.keys[i].data && e && !e->defined) {
      st = kiln_mlir_emit_error_at(p, e->line, e->column,
                                   "reference to an undefined block '%.*s'",
                                   KILN_SV_ARG(s->blocks.keys[i]));
    }
  }
  kiln_ir_hash_map_free(p->allocator, &s->values);
  kiln_ir_hash_map_free(p->allocator, &s->blocks);
  return st;
}

static kiln_mlir_value_entry_t* kiln_mlir_lookup_entry(P* p,
                                                       kiln_string_view_t name,
                                                       bool* out_top) {
  for (size_t i = p->num_scopes; i-- > 0;) {
    kiln_mlir_value_entry_t* e =
        (kiln_mlir_value_entry_t*)kiln_ir_hash_map_find(&p->scopes[i].values,
                                                        name);
    if (e) {
      if (out_top) *out_top = i + 1 == p->num_scopes;
      return e;
    }
    if (p->scopes[i].isolated) break;
  }
  return NULL;
}

// Defines |name| as |count| values (results of an op or one block arg).
static kiln_status_t kiln_mlir_define(P* p, kiln_string_view_t name,
                                      uint32_t line, uint32_t column,
                                      uint32_t count,
                                      kiln_ir_value_t** values) {
  kiln_ir_context_t* c = p->context;
  bool top = false;
  kiln_mlir_value_entry_t* e = kiln_mlir_lookup_entry(p, name, &top);
  if (e && (!e->forward || !top)) {
    return kiln_mlir_emit_error_at(
        p, line, column, "redefinition of SSA value '%.*s'", KILN_SV_ARG(name));
  }
  if (e) {
    // Resolve the forward references.
    for (uint32_t i = 0; i < e->count; ++i) {
      if (!e->values[i]) continue;
      if (i >= count) {
        return kiln_mlir_emit_error_at(
            p, e->line, e->column, "use of '%.*s#%u' but it has only %u values",
            KILN_SV_ARG(name), i, count);
      }
      if (e->values[i]->type != values[i]->type) {
        return kiln_mlir_emit_error_at(
            p, e->line, e->column,
            "use of value '%.*s' expects different type than prior uses: "
            "'%s' vs '%s'",
            KILN_SV_ARG(name), kiln_ir_type_to_string(c, e->values[i]->type),
            kiln_ir_type_to_string(c, values[i]->type));
      }
      kiln_ir_value_replace_all_uses_with(e->values[i], values[i]);
    }
  } else {
    e = (kiln_mlir_value_entry_t*)kiln_ir_arena_alloc(c, sizeof(*e));
    if (!e) return kiln_ir_context_take_error(c);
    e->name = kiln_ir_intern(c, name);
    if (!kiln_ir_hash_map_put(
            p->allocator, &p->scopes[p->num_scopes - 1].values, e->name, e)) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "parser scope");
    }
  }
  e->forward = false;
  e->count = count;
  e->values = values;
  e->line = line;
  e->column = column;
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_resolve_value(P* p, const kiln_mlir_operand_t* operand,
                                      const kiln_ir_type_t* type,
                                      kiln_ir_value_t** out_value) {
  kiln_ir_context_t* c = p->context;
  kiln_mlir_value_entry_t* e = kiln_mlir_lookup_entry(p, operand->name, NULL);
  uint32_t idx = operand->result_number;
  if (e && !e->forward) {
    if (idx >= e->count) {
      return kiln_mlir_emit_error_at(
          p, operand->line, operand->column,
          "invalid result number %u for '%.*s' which has %u results", idx,
          KILN_SV_ARG(operand->name), e->count);
    }
    kiln_ir_value_t* v = e->values[idx];
    if (type && v->type != type) {
      return kiln_mlir_emit_error_at(
          p, operand->line, operand->column,
          "use of value '%.*s' expects different type than prior uses: "
          "'%s' vs '%s'",
          KILN_SV_ARG(operand->name), kiln_ir_type_to_string(c, type),
          kiln_ir_type_to_string(c, v->type));
    }
    *out_value = v;
    return kiln_ok_status();
  }
  if (!type) {
    return kiln_mlir_emit_error_at(p, operand->line, operand->column,
                                   "use of undeclared SSA value name '%.*s'",
                                   KILN_SV_ARG(operand->name));
  }
  // Forward reference: a placeholder in the current scope.
  if (!e) {
    e = (kiln_mlir_value_entry_t*)kiln_ir_arena_alloc(c, sizeof(*e));
    if (!e) return kiln_ir_context_take_error(c);
    e->name = kiln_ir_intern(c, operand->name);
    e->forward = true;
    e->line = operand->line;
    e->column = operand->column;
    if (!kiln_ir_hash_map_put(
            p->allocator, &p->scopes[p->num_scopes - 1].values, e->name, e)) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "parser scope");
    }
  }
  if (idx >= e->count) {
    kiln_ir_value_t** grown =
        (kiln_ir_value_t**)kiln_ir_arena_alloc(c, (idx + 1) * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(c);
    if (e->count) memcpy(grown, e->values, e->count * sizeof(*grown));
    e->values = grown;
    e->count = idx + 1;
  }
  if (!e->values[idx]) {
    kiln_ir_value_t* ph = (kiln_ir_value_t*)kiln_ir_arena_alloc(c, sizeof(*ph));
    if (!ph) return kiln_ir_context_take_error(c);
    ph->kind = KILN_IR_VALUE_BLOCK_ARG;
    ph->type = type;
    e->values[idx] = ph;
  } else if (e->values[idx]->type != type) {
    return kiln_mlir_emit_error_at(
        p, operand->line, operand->column,
        "use of value '%.*s' expects different type than prior uses: "
        "'%s' vs '%s'",
        KILN_SV_ARG(operand->name), kiln_ir_type_to_string(c, type),
        kiln_ir_type_to_string(c, e->values[idx]->type));
  }
  *out_value = e->values[idx];
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_resolve_operand(P* p,
                                        const kiln_mlir_operand_t* operand,
                                        const kiln_ir_type_t* type,
                                        kiln_ir_op_state_t* state) {
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_value(p, operand, type, &v));
  return kiln_ir_op_state_add_operand(p->context, state, v);
}

kiln_status_t kiln_mlir_resolve_operands(P* p,
                                         const kiln_mlir_operand_list_t* list,
                                         size_t num_types,
                                         const kiln_ir_type_t* const* types,
                                         kiln_ir_op_state_t* state) {
  if (num_types != 1 && num_types != list->count) {
    return kiln_mlir_emit_error(p, "%zu operands present, but expected %zu",
                                list->count, num_types);
  }
  for (size_t i = 0; i < list->count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(
        p, &list->items[i], types[num_types == 1 ? 0 : i], state));
  }
  return kiln_ok_status();
}

bool kiln_mlir_parse_optional_operand(P* p, kiln_mlir_operand_t* out,
                                      kiln_status_t* out_status) {
  *out_status = kiln_ok_status();
  if (p->tok.kind != KILN_MLIR_TOK_PERCENT_ID) return false;
  out->name = p->tok.spelling;
  out->line = p->tok.line;
  out->column = p->tok.column;
  out->result_number = 0;
  kiln_mlir_consume(p);
  if (p->tok.kind == KILN_MLIR_TOK_HASH) {
    kiln_mlir_consume(p);
    uint64_t n = 0;
    *out_status = kiln_mlir_parse_uint(p, &n);
    out->result_number = (uint32_t)n;
  }
  return true;
}

kiln_status_t kiln_mlir_parse_operand(P* p, kiln_mlir_operand_t* out) {
  kiln_status_t st = kiln_ok_status();
  if (!kiln_mlir_parse_optional_operand(p, out, &st)) {
    return kiln_mlir_expected(p, "SSA operand");
  }
  return st;
}

static kiln_status_t kiln_mlir_operand_list_push(P* p,
                                                 kiln_mlir_operand_list_t* l,
                                                 kiln_mlir_operand_t v) {
  if (l->count == l->capacity) {
    size_t cap = l->capacity ? l->capacity * 2 : 8;
    kiln_mlir_operand_t* grown = (kiln_mlir_operand_t*)kiln_ir_arena_alloc(
        p->context, cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(p->context);
    if (l->count) memcpy(grown, l->items, l->count * sizeof(*grown));
    l->items = grown;
    l->capacity = cap;
  }
  l->items[l->count++] = v;
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_type_list_push(P* p, kiln_mlir_type_list_t* l,
                                       const kiln_ir_type_t* t) {
  if (l->count == l->capacity) {
    size_t cap = l->capacity ? l->capacity * 2 : 8;
    const kiln_ir_type_t** grown = (const kiln_ir_type_t**)kiln_ir_arena_alloc(
        p->context, cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(p->context);
    if (l->count) memcpy(grown, l->items, l->count * sizeof(*grown));
    l->items = grown;
    l->capacity = cap;
  }
  l->items[l->count++] = t;
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_operand_list(P* p,
                                           kiln_mlir_delimiter_t delimiter,
                                           kiln_mlir_operand_list_t* list) {
  kiln_mlir_token_kind_t close = KILN_MLIR_TOK_EOF;
  if (delimiter == KILN_MLIR_DELIM_OPTIONAL_PAREN) {
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
      return kiln_ok_status();
    }
    close = KILN_MLIR_TOK_RPAREN;
  } else if (delimiter == KILN_MLIR_DELIM_PAREN) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    close = KILN_MLIR_TOK_RPAREN;
  } else if (delimiter == KILN_MLIR_DELIM_SQUARE) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
    close = KILN_MLIR_TOK_RSQUARE;
  }
  if (close != KILN_MLIR_TOK_EOF && kiln_mlir_parse_optional_punct(p, close)) {
    return kiln_ok_status();
  }
  if (close == KILN_MLIR_TOK_EOF && p->tok.kind != KILN_MLIR_TOK_PERCENT_ID) {
    return kiln_ok_status();
  }
  do {
    kiln_mlir_operand_t operand;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operand));
    KILN_RETURN_IF_ERROR(kiln_mlir_operand_list_push(p, list, operand));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  if (close != KILN_MLIR_TOK_EOF) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, close));
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static bool kiln_mlir_parse_int_type_name(kiln_string_view_t s, uint32_t* width,
                                          kiln_ir_signedness_t* sign) {
  size_t i = 0;
  *sign = KILN_IR_SIGNLESS;
  if (s.size > 2 && s.data[0] == 's' && s.data[1] == 'i') {
    *sign = KILN_IR_SIGNED;
    i = 2;
  } else if (s.size > 2 && s.data[0] == 'u' && s.data[1] == 'i') {
    *sign = KILN_IR_UNSIGNED;
    i = 2;
  } else if (s.size > 1 && s.data[0] == 'i') {
    i = 1;
  } else {
    return false;
  }
  uint64_t w = 0;
  if (i >= s.size) return false;
  for (; i < s.size; ++i) {
    if (!isdigit((unsigned char)s.data[i])) return false;
    w = w * 10 + (uint64_t)(s.data[i] - '0');
    if (w > (1u << 24)) return false;
  }
  if (w == 0) return false;
  *width = (uint32_t)w;
  return true;
}

// Parses `4x?x` dims at the raw text position of the current token.
static kiln_status_t kiln_mlir_parse_dims(P* p, int64_t* dims, size_t* rank,
                                          size_t max_rank, bool* unranked) {
  *rank = 0;
  *unranked = false;
  const char* text = p->lexer.text;
  size_t pos = p->tok.offset;
  size_t size = p->lexer.size;
  if (pos < size && text[pos] == '*') {
    if (pos + 1 < size && text[pos + 1] == 'x') {
      *unranked = true;
      kiln_mlir_reset_to(p, pos + 2);
      return kiln_ok_status();
    }
    return kiln_mlir_emit_error(p, "expected 'x' in unranked tensor type");
  }
  for (;;) {
    while (pos < size && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    int64_t dim;
    size_t q = pos;
    if (q < size && text[q] == '?') {
      dim = KILN_IR_DYNAMIC_DIM;
      ++q;
    } else if (q < size && isdigit((unsigned char)text[q])) {
      bool overflow = false;
      size_t n = kiln_string_view_parse_dimension(
          kiln_make_string_view(text + q, size - q), &dim, &overflow);
      if (overflow) {
        kiln_mlir_reset_to(p, q);
        return kiln_mlir_emit_error(p,
                                    "dimension '%.*s' is too large (at most "
                                    "%" PRId64 ")",
                                    (int)n, text + q, INT64_MAX);
      }
      q += n;
    } else {
      break;
    }
    if (q >= size || text[q] != 'x') break;  // not a dimension
    if (*rank >= max_rank) return kiln_mlir_emit_error(p, "rank too large");
    dims[(*rank)++] = dim;
    pos = q + 1;
  }
  kiln_mlir_reset_to(p, pos);
  return kiln_ok_status();
}

static kiln_status_t kiln_mlir_parse_raw_angle(P* p, kiln_string_view_t* out);

static kiln_status_t kiln_mlir_parse_type_nested(P* p,
                                                 const kiln_ir_type_t** out);

kiln_status_t kiln_mlir_parse_type(P* p, const kiln_ir_type_t** out) {
  *out = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_enter_nesting(p));
  kiln_status_t status = kiln_mlir_parse_type_nested(p, out);
  kiln_mlir_leave_nesting(p);
  return status;
}

static kiln_status_t kiln_mlir_parse_type_nested(P* p,
                                                 const kiln_ir_type_t** out) {
  kiln_ir_context_t* c = p->context;
  *out = NULL;
  if (p->tok.kind == KILN_MLIR_TOK_LPAREN) {
    kiln_mlir_consume(p);
    kiln_mlir_type_list_t inputs = {0}, results = {0};
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &inputs));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
    *out = kiln_ir_function_type_get(c, inputs.count, inputs.items,
                                     results.count, results.items);
    return kiln_ok_status();
  }
  if (p->tok.kind == KILN_MLIR_TOK_BANG_ID) {
    kiln_mlir_token_t t = p->tok;
    const kiln_ir_type_t* alias = (const kiln_ir_type_t*)kiln_ir_hash_map_find(
        &p->type_aliases, t.spelling);
    kiln_mlir_consume(p);
    if (alias) {
      *out = alias;
      return kiln_ok_status();
    }
    if (kiln_string_view_find_char(t.spelling, '.', 0) == SIZE_MAX &&
        p->tok.kind != KILN_MLIR_TOK_LESS) {
      return kiln_mlir_emit_error_at(p, t.line, t.column,
                                     "undefined symbol alias id '%.*s'",
                                     KILN_SV_ARG(t.spelling));
    }
    size_t end = t.offset + t.spelling.size;
    if (p->tok.kind == KILN_MLIR_TOK_LESS && p->tok.offset == end) {
      kiln_string_view_t body;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_raw_angle(p, &body));
      end = (size_t)(body.data + body.size - p->lexer.text) + 1;  // past '>'
    }
    *out = kiln_ir_opaque_type_get(
        c, kiln_make_string_view(p->lexer.text + t.offset, end - t.offset));
    return kiln_ok_status();
  }
  if (p->tok.kind != KILN_MLIR_TOK_BARE_ID)
    return kiln_mlir_expected(p, "type");
  kiln_string_view_t s = p->tok.spelling;
  uint32_t width;
  kiln_ir_signedness_t sign;
  if (kiln_mlir_parse_int_type_name(s, &width, &sign)) {
    if (width > 64) {
      // Literals and storage are 64-bit at most throughout kiln.
      return kiln_mlir_emit_error(p,
                                  "integer type '%.*s' is wider than 64 bits "
                                  "(not supported)",
                                  KILN_SV_ARG(s));
    }
    kiln_mlir_consume(p);
    *out = kiln_ir_integer_type_get(c, width, sign);
    return kiln_ok_status();
  }
  for (int i = 0; i < KILN_IR_FLOAT_KIND_COUNT; ++i) {
    if (kiln_string_view_equal_cstr(s, kiln_ir_float_kind_names[i])) {
      kiln_mlir_consume(p);
      *out = kiln_ir_float_type_get(c, (kiln_ir_float_kind_t)i);
      return kiln_ok_status();
    }
  }
  if (kiln_mlir_parse_optional_keyword(p, "index")) {
    *out = kiln_ir_index_type_get(c);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "none")) {
    *out = kiln_ir_none_type_get(c);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "complex")) {
    const kiln_ir_type_t* e = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LESS));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &e));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
    *out = kiln_ir_complex_type_get(c, e);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "tuple")) {
    kiln_mlir_type_list_t types = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LESS));
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_GREATER)) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &types));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
    }
    *out = kiln_ir_tuple_type_get(c, types.count, types.items);
    return kiln_ok_status();
  }
  int shaped = kiln_string_view_equal_cstr(s, "tensor")   ? 1
               : kiln_string_view_equal_cstr(s, "vector") ? 2
               : kiln_string_view_equal_cstr(s, "memref") ? 3
                                                          : 0;
  if (!shaped) {
    return kiln_mlir_emit_error(p, "unknown type '%.*s'", KILN_SV_ARG(s));
  }
  kiln_mlir_consume(p);
  if (p->tok.kind != KILN_MLIR_TOK_LESS) return kiln_mlir_expected(p, "'<'");
  kiln_mlir_reset_to(p, p->tok.offset + 1);
  int64_t dims[64];
  size_t rank = 0;
  bool unranked = false;
  kiln_mlir_token_t dims_start = p->tok;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_dims(p, dims, &rank, 64, &unranked));
  // Every pass may multiply the static dimensions: the product must fit.
  int64_t element_count = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] != KILN_IR_DYNAMIC_DIM &&
        __builtin_mul_overflow(element_count, dims[i], &element_count)) {
      return kiln_mlir_emit_error_at(
          p, dims_start.line, dims_start.column,
          "shaped type has more than %" PRId64 " elements", INT64_MAX);
    }
  }
  const kiln_ir_type_t* element = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &element));
  const kiln_ir_attribute_t* encoding = NULL;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    if (shaped != 1) {
      // memref layouts / memory spaces are not modelled: skip them.
      kiln_mlir_token_t start = p->tok;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &encoding));
      encoding = NULL;
      (void)start;
    } else {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &encoding));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
  if (unranked) {
    *out = kiln_ir_unranked_tensor_type_get(c, element);
  } else if (shaped == 1) {
    *out = kiln_ir_tensor_type_get(c, rank, dims, element, encoding);
  } else if (shaped == 2) {
    *out = kiln_ir_vector_type_get(c, rank, dims, element);
  } else {
    *out = kiln_ir_memref_type_get(c, rank, dims, element);
  }
  return *out ? kiln_ok_status() : kiln_ir_context_take_error(c);
}

kiln_status_t kiln_mlir_parse_colon_type(P* p, const kiln_ir_type_t** out) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  return kiln_mlir_parse_type(p, out);
}

kiln_status_t kiln_mlir_parse_type_list(P* p, kiln_mlir_type_list_t* list) {
  do {
    const kiln_ir_type_t* t = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &t));
    KILN_RETURN_IF_ERROR(kiln_mlir_type_list_push(p, list, t));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_colon_type_list(P* p,
                                              kiln_mlir_type_list_t* list) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  return kiln_mlir_parse_type_list(p, list);
}

kiln_status_t kiln_mlir_parse_type_or_paren_list(P* p,
                                                 kiln_mlir_type_list_t* list) {
  if (p->tok.kind == KILN_MLIR_TOK_LPAREN) {
    // Either a parenthesized list or a function type: look ahead after the
    // matching ')' for '->'.
    kiln_mlir_lexer_t saved_lexer = p->lexer;
    kiln_mlir_token_t saved_tok = p->tok;
    size_t saved_prev = p->prev_end;
    int depth = 0;
    do {
      if (p->tok.kind == KILN_MLIR_TOK_LPAREN) ++depth;
      if (p->tok.kind == KILN_MLIR_TOK_RPAREN) --depth;
      kiln_mlir_consume(p);
    } while (depth > 0 && p->tok.kind != KILN_MLIR_TOK_EOF);
    bool is_function = p->tok.kind == KILN_MLIR_TOK_ARROW;
    p->lexer = saved_lexer;
    p->tok = saved_tok;
    p->prev_end = saved_prev;
    if (!is_function) {
      kiln_mlir_consume(p);
      if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
        return kiln_ok_status();
      }
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, list));
      return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN);
    }
  }
  const kiln_ir_type_t* t = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &t));
  return kiln_mlir_type_list_push(p, list, t);
}

kiln_status_t kiln_mlir_parse_arrow_type_list(P* p,
                                              kiln_mlir_type_list_t* list) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  return kiln_mlir_parse_type_or_paren_list(p, list);
}

kiln_status_t kiln_mlir_add_result_type(P* p, kiln_ir_op_state_t* state,
                                        const kiln_ir_type_t* type) {
  return kiln_ir_op_state_add_result_type(p->context, state, type);
}

kiln_status_t kiln_mlir_add_result_types(P* p, kiln_ir_op_state_t* state,
                                         const kiln_mlir_type_list_t* list) {
  for (size_t i = 0; i < list->count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_result_type(p->context, state, list->items[i]));
  }
  return kiln_ok_status();
}

// True when the current token can start a type.
static bool kiln_mlir_at_type(P* p) {
  if (p->tok.kind == KILN_MLIR_TOK_BANG_ID) return true;
  if (p->tok.kind != KILN_MLIR_TOK_BARE_ID) return false;
  kiln_string_view_t s = p->tok.spelling;
  uint32_t w;
  kiln_ir_signedness_t sg;
  if (kiln_mlir_parse_int_type_name(s, &w, &sg)) return true;
  static const char* names[] = {"f16",    "bf16",   "f32",     "f64",
                                "index",  "none",   "complex", "tuple",
                                "tensor", "vector", "memref"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (kiln_string_view_equal_cstr(s, names[i])) return true;
  }
  for (int i = 0; i < KILN_IR_FLOAT_KIND_COUNT; ++i) {
    if (kiln_string_view_equal_cstr(s, kiln_ir_float_kind_names[i])) {
      return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// The current token is '<': captures the raw text up to the matching '>'
// (|out| excludes both) and moves past it.
static kiln_status_t kiln_mlir_parse_raw_angle(P* p, kiln_string_view_t* out) {
  if (p->tok.kind != KILN_MLIR_TOK_LESS) return kiln_mlir_expected(p, "'<'");
  const char* text = p->lexer.text;
  size_t size = p->lexer.size;
  size_t start = p->tok.offset + 1;
  size_t pos = start;
  int depth = 1;
  while (pos < size) {
    char ch = text[pos];
    if (ch == '"') {
      ++pos;
      while (pos < size && text[pos] != '"') {
        if (text[pos] == '\\') ++pos;
        ++pos;
      }
    } else if (ch == '-' && pos + 1 < size && text[pos + 1] == '>') {
      ++pos;
    } else if (ch == '<') {
      ++depth;
    } else if (ch == '>') {
      if (--depth == 0) break;
    }
    ++pos;
  }
  if (pos >= size) return kiln_mlir_emit_error(p, "unbalanced '<' in literal");
  *out = kiln_make_string_view(text + start, pos - start);
  kiln_mlir_reset_to(p, pos + 1);
  return kiln_ok_status();
}

typedef struct kiln_mlir_named_list_t {
  size_t count;
  size_t capacity;
  kiln_ir_named_attribute_t* items;
} kiln_mlir_named_list_t;

static kiln_status_t kiln_mlir_named_push(P* p, kiln_mlir_named_list_t* l,
                                          kiln_ir_named_attribute_t a) {
  if (l->count == l->capacity) {
    size_t cap = l->capacity ? l->capacity * 2 : 8;
    kiln_ir_named_attribute_t* grown =
        (kiln_ir_named_attribute_t*)kiln_ir_arena_alloc(p->context,
                                                        cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(p->context);
    if (l->count) memcpy(grown, l->items, l->count * sizeof(*grown));
    l->items = grown;
    l->capacity = cap;
  }
  l->items[l->count++] = a;
  return kiln_ok_status();
}

// Parses `{a = 1, b}` into |list| (duplicate names are an error).
static kiln_status_t kiln_mlir_parse_dict_entries(
    P* p, kiln_mlir_named_list_t* list) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LBRACE));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RBRACE)) {
    return kiln_ok_status();
  }
  do {
    kiln_string_view_t name;
    kiln_mlir_token_t t = p->tok;
    if (t.kind == KILN_MLIR_TOK_BARE_ID) {
      name = kiln_ir_intern(p->context, t.spelling);
    } else if (t.kind == KILN_MLIR_TOK_STRING) {
      name = kiln_mlir_decode(p, t.spelling, true);
    } else {
      return kiln_mlir_expected(p, "attribute name");
    }
    kiln_mlir_consume(p);
    for (size_t i = 0; i < list->count; ++i) {
      if (kiln_ir_ident_eq(list->items[i].name, name)) {
        return kiln_mlir_emit_error_at(p, t.line, t.column,
                                       "duplicate key '%.*s' in dictionary "
                                       "attribute",
                                       KILN_SV_ARG(name));
      }
    }
    const kiln_ir_attribute_t* value = NULL;
    if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_EQUAL)) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &value));
    } else {
      value = kiln_ir_unit_attr_get(p->context);
    }
    kiln_ir_named_attribute_t a = {name, value, false};
    KILN_RETURN_IF_ERROR(kiln_mlir_named_push(p, list, a));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE);
}

// One literal element of a dense<...> body.
typedef struct kiln_mlir_literal_t {
  kiln_mlir_token_t token;  // INTEGER, FLOAT, or BARE_ID true/false
  bool negative;
  bool has_imag;
  kiln_mlir_token_t imag;
  bool imag_negative;
} kiln_mlir_literal_t;

typedef struct kiln_mlir_dense_parse_t {
  kiln_mlir_literal_t* items;
  size_t count;
  size_t capacity;
  int64_t shape[64];
  size_t rank;
  size_t max_depth;
  bool shape_known;
  bool ragged;
} kiln_mlir_dense_parse_t;

static kiln_status_t kiln_mlir_parse_number_token(P* p, kiln_mlir_token_t* tok,
                                                  bool* negative) {
  *negative = kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_MINUS);
  if (p->tok.kind == KILN_MLIR_TOK_INTEGER ||
      p->tok.kind == KILN_MLIR_TOK_FLOAT ||
      kiln_mlir_tok_is_keyword(p, "true") ||
      kiln_mlir_tok_is_keyword(p, "false") ||
      kiln_mlir_tok_is_keyword(p, "inf") ||
      kiln_mlir_tok_is_keyword(p, "nan")) {
    *tok = p->tok;
    kiln_mlir_consume(p);
    return kiln_ok_status();
  }
  return kiln_mlir_expected(p, "element literal");
}

static kiln_status_t kiln_mlir_parse_dense_level(P* p,
                                                 kiln_mlir_dense_parse_t* d,
                                                 size_t depth) {
  if (depth >= 64) return kiln_mlir_emit_error(p, "literal nested too deep");
  if (depth + 1 > d->max_depth) d->max_depth = depth + 1;
  if (p->tok.kind == KILN_MLIR_TOK_LSQUARE) {
    kiln_mlir_consume(p);
    int64_t n = 0;
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
      do {
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_dense_level(p, d, depth + 1));
        ++n;
      } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
    }
    if (d->shape[depth] < 0) {
      d->shape[depth] = n;
    } else if (d->shape[depth] != n) {
      d->ragged = true;
    }
    return kiln_ok_status();
  }
  if (!d->shape_known) {
    d->shape_known = true;
    d->rank = depth;
  } else if (depth != d->rank) {
    d->ragged = true;
  }
  kiln_mlir_literal_t lit;
  memset(&lit, 0, sizeof(lit));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_number_token(p, &lit.token, &lit.negative));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_number_token(p, &lit.imag, &lit.imag_negative));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    lit.has_imag = true;
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_number_token(p, &lit.token, &lit.negative));
  }
  if (d->count == d->capacity) {
    size_t cap = d->capacity ? d->capacity * 2 : 64;
    kiln_mlir_literal_t* grown = (kiln_mlir_literal_t*)kiln_ir_arena_alloc(
        p->context, cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(p->context);
    if (d->count) memcpy(grown, d->items, d->count * sizeof(*grown));
    d->items = grown;
    d->capacity = cap;
  }
  d->items[d->count++] = lit;
  return kiln_ok_status();
}

static void kiln_mlir_store_le(uint8_t* out, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out[i] = (uint8_t)(v >> (8 * i));
}

// Converts one scalar literal to storage bytes of |type|.
static kiln_status_t kiln_mlir_convert_scalar(P* p, const kiln_mlir_token_t* t,
                                              bool negative,
                                              const kiln_ir_type_t* type,
                                              uint8_t* out) {
  size_t bytes = kiln_ir_type_storage_bytes(type);
  char buffer[128];
  if (t->spelling.size >= sizeof(buffer) - 2) {
    return kiln_mlir_emit_error_at(p, t->line, t->column, "literal too long");
  }
  snprintf(buffer, sizeof(buffer), "%s%.*s", negative ? "-" : "",
           KILN_SV_ARG(t->spelling));
  bool is_bool = kiln_string_view_equal_cstr(t->spelling, "true") ||
                 kiln_string_view_equal_cstr(t->spelling, "false");
  if (type->kind == KILN_IR_TYPE_FLOAT) {
    kiln_ir_float_kind_t k = type->flt.kind;
    uint64_t bits;
    if (is_bool) {
      return kiln_mlir_emit_error_at(p, t->line, t->column,
                                     "expected floating point literal");
    }
    if (t->kind == KILN_MLIR_TOK_INTEGER && t->spelling.size > 2 &&
        t->spelling.data[1] == 'x') {
      bits = strtoull(buffer + (negative ? 1 : 0), NULL, 16);
    } else if (k == KILN_IR_F64) {
      bits = kiln_ir_float_to_bits(k, strtod(buffer, NULL));
    } else {
      float f = strtof(buffer, NULL);
      bits = k == KILN_IR_F16    ? kiln_ir_f32_to_f16_bits(f)
             : k == KILN_IR_BF16 ? kiln_ir_f32_to_bf16_bits(f)
                                 : kiln_ir_float_to_bits(k, f);
    }
    kiln_mlir_store_le(out, bits, bytes);
    return kiln_ok_status();
  }
  if (type->kind == KILN_IR_TYPE_INTEGER || type->kind == KILN_IR_TYPE_INDEX) {
    uint64_t v;
    if (is_bool) {
      v = kiln_string_view_equal_cstr(t->spelling, "true") ? 1 : 0;
      if (kiln_ir_type_bit_width(type) != 1) {
        return kiln_mlir_emit_error_at(p, t->line, t->column,
                                       "expected integer literal, got bool");
      }
    } else if (t->kind != KILN_MLIR_TOK_INTEGER) {
      return kiln_mlir_emit_error_at(p, t->line, t->column,
                                     "expected integer elements, but parsed "
                                     "floating-point");
    } else {
      const char* digits = buffer + (negative ? 1 : 0);
      v = strtoull(digits, NULL, kiln_mlir_int_base(digits));
      if (negative) v = 0 - v;  // unsigned: INT64_MIN stays defined
    }
    uint32_t width = kiln_ir_type_bit_width(type);
    if (width < 64 && width > 0) {
      int64_t sv = (int64_t)v;
      bool fits = negative ? (sv >= -(int64_t)(1ull << (width - 1)))
                           : (v < (1ull << width));
      if (width == 1 && !is_bool) fits = v <= 1;
      if (!fits) {
        return kiln_mlir_emit_error_at(
            p, t->line, t->column, "integer constant out of range for type");
      }
    }
    kiln_mlir_store_le(out, v, bytes);
    return kiln_ok_status();
  }
  return kiln_mlir_emit_error_at(p, t->line, t->column,
                                 "unsupported dense element type");
}

static kiln_status_t kiln_mlir_parse_dense(P* p,
                                           const kiln_ir_attribute_t** out) {
  kiln_ir_context_t* c = p->context;
  kiln_mlir_token_t start = p->tok;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LESS));
  kiln_mlir_dense_parse_t d;
  memset(&d, 0, sizeof(d));
  for (int i = 0; i < 64; ++i) d.shape[i] = -1;
  kiln_string_view_t hex = kiln_string_view_empty();
  bool is_hex = false;
  if (p->tok.kind == KILN_MLIR_TOK_STRING) {
    hex = kiln_mlir_decode(p, p->tok.spelling, false);
    is_hex = true;
    kiln_mlir_consume(p);
  } else if (p->tok.kind != KILN_MLIR_TOK_GREATER) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_dense_level(p, &d, 0));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
  kiln_mlir_token_t type_tok = p->tok;
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  if (!kiln_ir_type_has_static_shape(type)) {
    return kiln_mlir_emit_error_at(p, type_tok.line, type_tok.column,
                                   "elements literal type must have static "
                                   "shape");
  }
  const kiln_ir_type_t* elem = type->shaped.element;
  size_t ebytes = kiln_ir_type_storage_bytes(elem);
  int64_t n = kiln_ir_type_num_elements(type);
  if (!ebytes) {
    return kiln_mlir_emit_error_at(p, type_tok.line, type_tok.column,
                                   "unsupported element type in dense "
                                   "literal");
  }
  if (is_hex) {
    if (hex.size < 2 || hex.data[0] != '0' || hex.data[1] != 'x' ||
        (hex.size % 2) != 0) {
      return kiln_mlir_emit_error_at(p, start.line, start.column,
                                     "expected hex string \"0x...\" in dense "
                                     "literal");
    }
    size_t nbytes = (hex.size - 2) / 2;
    uint8_t* bytes = (uint8_t*)kiln_ir_arena_alloc(c, nbytes + 1);
    if (!bytes) return kiln_ir_context_take_error(c);
    for (size_t i = 0; i < nbytes; ++i) {
      char pair[3] = {hex.data[2 + 2 * i], hex.data[3 + 2 * i], 0};
      char* end = NULL;
      bytes[i] = (uint8_t)strtoul(pair, &end, 16);
      if (*end) {
        return kiln_mlir_emit_error_at(p, start.line, start.column,
                                       "invalid hex digit in dense literal");
      }
    }
    bool splat = nbytes == ebytes && n != 1;
    if (!splat && nbytes != ebytes * (size_t)n) {
      return kiln_mlir_emit_error_at(
          p, start.line, start.column,
          "hex dense literal has %zu bytes but the type needs %zu", nbytes,
          ebytes * (size_t)n);
    }
    *out = kiln_ir_dense_elements_attr_get(c, type, splat, bytes, nbytes);
    return *out ? kiln_ok_status() : kiln_ir_context_take_error(c);
  }
  // No element at all (`[]`, `[[]]`): every bracket level is a dimension.
  if (!d.shape_known) d.rank = d.max_depth;
  for (size_t i = 0; i < d.rank; ++i) {
    if (d.shape[i] < 0) d.shape[i] = 0;
  }
  if (d.ragged) {
    return kiln_mlir_emit_error_at(p, start.line, start.column,
                                   "dense literal has a non-rectangular "
                                   "shape");
  }
  bool splat = d.rank == 0 && d.count == 1;
  if (!splat) {
    bool match = d.rank == type->shaped.rank;
    for (size_t i = 0; match && i < d.rank; ++i) {
      match = d.shape[i] == type->shaped.dims[i];
    }
    if (!match || (int64_t)d.count != n) {
      char inferred[256] = "";
      size_t len = 0;
      for (size_t i = 0; i < d.rank && len < 200; ++i) {
        len += (size_t)snprintf(inferred + len, sizeof(inferred) - len,
                                i ? ", %lld" : "%lld", (long long)d.shape[i]);
      }
      return kiln_mlir_emit_error_at(
          p, start.line, start.column,
          "inferred shape of elements literal ([%s]) does not match type "
          "(%s)",
          inferred, kiln_ir_type_to_string(c, type));
    }
  }
  size_t count = splat ? 1 : d.count;
  uint8_t* data = (uint8_t*)kiln_ir_arena_alloc(c, count * ebytes + 1);
  if (!data) return kiln_ir_context_take_error(c);
  for (size_t i = 0; i < count; ++i) {
    const kiln_mlir_literal_t* lit = &d.items[i];
    uint8_t* dst = data + i * ebytes;
    if (elem->kind == KILN_IR_TYPE_COMPLEX) {
      const kiln_ir_type_t* ce = elem->complex.element;
      size_t half = ebytes / 2;
      if (!lit->has_imag) {
        return kiln_mlir_emit_error_at(p, lit->token.line, lit->token.column,
                                       "expected complex element (re, im)");
      }
      KILN_RETURN_IF_ERROR(
          kiln_mlir_convert_scalar(p, &lit->token, lit->negative, ce, dst));
      KILN_RETURN_IF_ERROR(kiln_mlir_convert_scalar(
          p, &lit->imag, lit->imag_negative, ce, dst + half));
    } else {
      if (lit->has_imag) {
        return kiln_mlir_emit_error_at(p, lit->token.line, lit->token.column,
                                       "complex element for a non-complex "
                                       "type");
      }
      KILN_RETURN_IF_ERROR(
          kiln_mlir_convert_scalar(p, &lit->token, lit->negative, elem, dst));
    }
  }
  *out = kiln_ir_dense_elements_attr_get(c, type, splat && n != 1, data,
                                         count * ebytes);
  return *out ? kiln_ok_status() : kiln_ir_context_take_error(c);
}

static kiln_status_t kiln_mlir_parse_dense_array(
    P* p, const kiln_ir_attribute_t** out) {
  kiln_ir_context_t* c = p->context;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LESS));
  const kiln_ir_type_t* type = NULL;
  kiln_mlir_token_t type_tok = p->tok;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &type));
  if (type->kind != KILN_IR_TYPE_INTEGER && type->kind != KILN_IR_TYPE_FLOAT) {
    return kiln_mlir_emit_error_at(p, type_tok.line, type_tok.column,
                                   "expected integer or float type in "
                                   "array<...>");
  }
  size_t count = 0, cap = 16;
  int64_t* ints = (int64_t*)kiln_ir_arena_alloc(c, cap * 8);
  double* flts = (double*)kiln_ir_arena_alloc(c, cap * 8);
  if (!ints || !flts) return kiln_ir_context_take_error(c);
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
    do {
      if (count == cap) {
        cap *= 2;
        int64_t* gi = (int64_t*)kiln_ir_arena_alloc(c, cap * 8);
        double* gf = (double*)kiln_ir_arena_alloc(c, cap * 8);
        if (!gi || !gf) return kiln_ir_context_take_error(c);
        memcpy(gi, ints, count * 8);
        memcpy(gf, flts, count * 8);
        ints = gi;
        flts = gf;
      }
      kiln_mlir_token_t t;
      bool neg = false;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_number_token(p, &t, &neg));
      uint8_t bytes[8] = {0};
      KILN_RETURN_IF_ERROR(kiln_mlir_convert_scalar(p, &t, neg, type, bytes));
      uint64_t raw = 0;
      for (int i = 0; i < 8; ++i) raw |= (uint64_t)bytes[i] << (8 * i);
      if (type->kind == KILN_IR_TYPE_FLOAT) {
        flts[count] = kiln_ir_float_from_bits(type->flt.kind, raw);
      } else {
        ints[count] = (int64_t)raw;
      }
      ++count;
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
  *out = type->kind == KILN_IR_TYPE_FLOAT
             ? kiln_ir_dense_f64_array_attr_get(c, type, count, flts)
             : kiln_ir_dense_i64_array_attr_get(c, type, count, ints);
  return *out ? kiln_ok_status() : kiln_ir_context_take_error(c);
}

//===----------------------------------------------------------------------===//
// Affine maps
//===----------------------------------------------------------------------===//

typedef struct kiln_mlir_affine_ids_t {
  kiln_string_view_t names[64];
  bool is_symbol[64];
  int64_t position[64];
  size_t count;
} kiln_mlir_affine_ids_t;

static kiln_status_t kiln_mlir_affine_sum(P* p, kiln_mlir_affine_ids_t* ids,
                                          const kiln_ir_affine_expr_t** out);

static kiln_status_t kiln_mlir_affine_factor_nested(
    P* p, kiln_mlir_affine_ids_t* ids, const kiln_ir_affine_expr_t** out);

static kiln_status_t kiln_mlir_affine_factor(
    P* p, kiln_mlir_affine_ids_t* ids, const kiln_ir_affine_expr_t** out) {
  KILN_RETURN_IF_ERROR(kiln_mlir_enter_nesting(p));
  kiln_status_t status = kiln_mlir_affine_factor_nested(p, ids, out);
  kiln_mlir_leave_nesting(p);
  return status;
}

static kiln_status_t kiln_mlir_affine_factor_nested(
    P* p, kiln_mlir_affine_ids_t* ids, const kiln_ir_affine_expr_t** out) {
  kiln_ir_context_t* c = p->context;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_MINUS)) {
    const kiln_ir_affine_expr_t* inner = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_affine_factor(p, ids, &inner));
    // `-3` is the constant -3 (so `d0 * -1` prints back as written).
    *out = inner->kind == KILN_IR_AFFINE_CONSTANT
               ? kiln_ir_affine_constant(c, -inner->value)
               : kiln_ir_affine_binary(c, KILN_IR_AFFINE_MUL, inner,
                                       kiln_ir_affine_constant(c, -1));
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_affine_sum(p, ids, out));
    return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN);
  }
  if (p->tok.kind == KILN_MLIR_TOK_INTEGER) {
    uint64_t v = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_uint(p, &v));
    *out = kiln_ir_affine_constant(c, (int64_t)v);
    return kiln_ok_status();
  }
  if (p->tok.kind == KILN_MLIR_TOK_BARE_ID) {
    for (size_t i = 0; i < ids->count; ++i) {
      if (kiln_string_view_equal(ids->names[i], p->tok.spelling)) {
        kiln_mlir_consume(p);
        *out = ids->is_symbol[i] ? kiln_ir_affine_symbol(c, ids->position[i])
                                 : kiln_ir_affine_dim(c, ids->position[i]);
        return kiln_ok_status();
      }
    }
    return kiln_mlir_emit_error(p,
                                "use of undeclared identifier '%.*s' in "
                                "affine map",
                                KILN_SV_ARG(p->tok.spelling));
  }
  return kiln_mlir_expected(p, "affine expression");
}

static kiln_status_t kiln_mlir_affine_term(P* p, kiln_mlir_affine_ids_t* ids,
                                           const kiln_ir_affine_expr_t** out) {
  KILN_RETURN_IF_ERROR(kiln_mlir_affine_factor(p, ids, out));
  for (;;) {
    kiln_ir_affine_kind_t kind;
    if (p->tok.kind == KILN_MLIR_TOK_STAR) {
      kind = KILN_IR_AFFINE_MUL;
    } else if (kiln_mlir_tok_is_keyword(p, "floordiv")) {
      kind = KILN_IR_AFFINE_FLOORDIV;
    } else if (kiln_mlir_tok_is_keyword(p, "ceildiv")) {
      kind = KILN_IR_AFFINE_CEILDIV;
    } else if (kiln_mlir_tok_is_keyword(p, "mod")) {
      kind = KILN_IR_AFFINE_MOD;
    } else {
      return kiln_ok_status();
    }
    kiln_mlir_consume(p);
    const kiln_ir_affine_expr_t* rhs = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_affine_factor(p, ids, &rhs));
    *out = kiln_ir_affine_binary(p->context, kind, *out, rhs);
  }
}

static kiln_status_t kiln_mlir_affine_sum(P* p, kiln_mlir_affine_ids_t* ids,
                                          const kiln_ir_affine_expr_t** out) {
  KILN_RETURN_IF_ERROR(kiln_mlir_affine_term(p, ids, out));
  for (;;) {
    bool minus = p->tok.kind == KILN_MLIR_TOK_MINUS;
    if (!minus && p->tok.kind != KILN_MLIR_TOK_PLUS) return kiln_ok_status();
    kiln_mlir_consume(p);
    const kiln_ir_affine_expr_t* rhs = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_affine_term(p, ids, &rhs));
    if (minus) {
      rhs = kiln_ir_affine_binary(p->context, KILN_IR_AFFINE_MUL, rhs,
                                  kiln_ir_affine_constant(p->context, -1));
    }
    *out = kiln_ir_affine_binary(p->context, KILN_IR_AFFINE_ADD, *out, rhs);
  }
}

static kiln_status_t kiln_mlir_affine_id_list(P* p, kiln_mlir_affine_ids_t* ids,
                                              bool symbols,
                                              kiln_mlir_token_kind_t close,
                                              uint32_t* out_count) {
  *out_count = 0;
  if (kiln_mlir_parse_optional_punct(p, close)) return kiln_ok_status();
  do {
    if (p->tok.kind != KILN_MLIR_TOK_BARE_ID || ids->count >= 64) {
      return kiln_mlir_expected(p, "dimension or symbol identifier");
    }
    ids->names[ids->count] = p->tok.spelling;
    ids->is_symbol[ids->count] = symbols;
    ids->position[ids->count] = (*out_count)++;
    ++ids->count;
    kiln_mlir_consume(p);
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_mlir_parse_punct(p, close);
}

static kiln_status_t kiln_mlir_parse_affine_map(
    P* p, const kiln_ir_attribute_t** out) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LESS));
  kiln_mlir_affine_ids_t ids;
  memset(&ids, 0, sizeof(ids));
  uint32_t num_dims = 0, num_symbols = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  KILN_RETURN_IF_ERROR(kiln_mlir_affine_id_list(
      p, &ids, false, KILN_MLIR_TOK_RPAREN, &num_dims));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LSQUARE)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_affine_id_list(
        p, &ids, true, KILN_MLIR_TOK_RSQUARE, &num_symbols));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  const kiln_ir_affine_expr_t* results[64];
  size_t num_results = 0;
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
    do {
      if (num_results >= 64) return kiln_mlir_emit_error(p, "too many results");
      KILN_RETURN_IF_ERROR(
          kiln_mlir_affine_sum(p, &ids, &results[num_results++]));
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
  *out = kiln_ir_affine_map_attr_get(p->context, num_dims, num_symbols,
                                     num_results, results);
  return *out ? kiln_ok_status() : kiln_ir_context_take_error(p->context);
}

//===----------------------------------------------------------------------===//
// Dialect attributes
//===----------------------------------------------------------------------===//

// Parses a `key = value, word, value` body between the current token and
// |end| offset; returns false (without diagnostics) when it does not fit.
static bool kiln_mlir_parse_dialect_params(P* p, size_t end,
                                           kiln_mlir_named_list_t* params) {
  ++p->suppress;
  ++p->in_dialect_attr;
  bool ok = true;
  while (ok && p->tok.offset < end) {
    kiln_ir_named_attribute_t a = {kiln_string_view_empty(), NULL, false};
    if (p->tok.kind == KILN_MLIR_TOK_BARE_ID) {
      kiln_mlir_lexer_t saved_lexer = p->lexer;
      kiln_mlir_token_t saved = p->tok;
      kiln_mlir_consume(p);
      if (p->tok.kind == KILN_MLIR_TOK_EQUAL) {
        a.name = kiln_ir_intern(p->context, saved.spelling);
        kiln_mlir_consume(p);
      } else {
        p->lexer = saved_lexer;
        p->tok = saved;
      }
    }
    kiln_status_t st = kiln_mlir_parse_attribute(p, NULL, &a.value);
    if (st) {
      kiln_status_free(st);
      ok = false;
      break;
    }
    st = kiln_mlir_named_push(p, params, a);
    if (st) {
      kiln_status_free(st);
      ok = false;
      break;
    }
    kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA);
  }
  if (ok && p->tok.offset != end) ok = false;
  --p->in_dialect_attr;
  --p->suppress;
  return ok;
}

static kiln_status_t kiln_mlir_parse_dialect_attr(
    P* p, const kiln_ir_attribute_t** out) {
  kiln_ir_context_t* c = p->context;
  kiln_mlir_token_t t = p->tok;
  kiln_mlir_consume(p);
  size_t end_of_name = t.offset + t.spelling.size;
  kiln_string_view_t id = kiln_string_view_substr(t.spelling, 1, SIZE_MAX);
  kiln_string_view_t dialect, name;
  kiln_string_view_split(id, '.', &dialect, &name);
  if (p->tok.kind != KILN_MLIR_TOK_LESS || p->tok.offset != end_of_name) {
    if (name.size) {
      // A parameterless dialect attribute such as #util.inline.never.
      *out =
          kiln_ir_dialect_attr_get(c, dialect, name, t.spelling, true, 0, NULL);
      return *out ? kiln_ok_status() : kiln_ir_context_take_error(c);
    }
    return kiln_mlir_emit_error_at(p, t.line, t.column,
                                   "undefined symbol alias id '%.*s'",
                                   KILN_SV_ARG(id));
  }
  size_t body_start = p->tok.offset + 1;
  kiln_mlir_lexer_t saved_lexer = p->lexer;
  kiln_mlir_token_t saved_tok = p->tok;
  kiln_string_view_t body;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_raw_angle(p, &body));
  kiln_mlir_lexer_t after_lexer = p->lexer;
  kiln_mlir_token_t after_tok = p->tok;
  size_t body_end = body_start + body.size;
  kiln_string_view_t text =
      kiln_make_string_view(p->lexer.text + t.offset, body_end + 1 - t.offset);
  // Re-lex the body for the structured form.
  p->lexer = saved_lexer;
  p->tok = saved_tok;
  kiln_mlir_reset_to(p, body_start);
  kiln_mlir_named_list_t params = {0};
  if (!name.size && p->tok.kind == KILN_MLIR_TOK_BARE_ID) {
    // #dialect<name ...>: the first word names the attribute.
    name = p->tok.spelling;
    kiln_mlir_consume(p);
  }
  bool structured = kiln_mlir_parse_dialect_params(p, body_end, &params);
  p->lexer = after_lexer;
  p->tok = after_tok;
  *out = kiln_ir_dialect_attr_get(c, dialect, name, text, structured,
                                  structured ? params.count : 0, params.items);
  return *out ? kiln_ok_status() : kiln_ir_context_take_error(c);
}

//===----------------------------------------------------------------------===//
// Attribute entry point
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_mlir_parse_attribute_nested(
    P* p, const kiln_ir_type_t* type, const kiln_ir_attribute_t** out);

kiln_status_t kiln_mlir_parse_attribute(P* p, const kiln_ir_type_t* type,
                                        const kiln_ir_attribute_t** out) {
  *out = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_enter_nesting(p));
  kiln_status_t status = kiln_mlir_parse_attribute_nested(p, type, out);
  kiln_mlir_leave_nesting(p);
  return status;
}

static kiln_status_t kiln_mlir_parse_attribute_nested(
    P* p, const kiln_ir_type_t* type, const kiln_ir_attribute_t** out) {
  kiln_ir_context_t* c = p->context;
  *out = NULL;
  kiln_mlir_token_t t = p->tok;
  switch (t.kind) {
    case KILN_MLIR_TOK_HASH_ID: {
      const kiln_ir_attribute_t* alias =
          (const kiln_ir_attribute_t*)kiln_ir_hash_map_find(&p->attr_aliases,
                                                            t.spelling);
      if (alias) {
        kiln_mlir_consume(p);
        *out = alias;
        return kiln_ok_status();
      }
      return kiln_mlir_parse_dialect_attr(p, out);
    }
    case KILN_MLIR_TOK_AT_ID: {
      kiln_string_view_t root;
      kiln_mlir_parse_optional_symbol_name(p, &root);
      kiln_string_view_t nested[16];
      size_t num_nested = 0;
      while (p->tok.kind == KILN_MLIR_TOK_COLON) {
        // `::@b` lexes as ':' ':' '@b'.
        kiln_mlir_lexer_t saved_lexer = p->lexer;
        kiln_mlir_token_t saved = p->tok;
        kiln_mlir_consume(p);
        if (p->tok.kind != KILN_MLIR_TOK_COLON) {
          p->lexer = saved_lexer;
          p->tok = saved;
          break;
        }
        kiln_mlir_consume(p);
        if (num_nested >= 16) return kiln_mlir_emit_error(p, "nested too deep");
        KILN_RETURN_IF_ERROR(
            kiln_mlir_parse_symbol_name(p, &nested[num_nested++]));
      }
      *out = kiln_ir_symbol_ref_attr_get(c, root, num_nested, nested);
      return kiln_ok_status();
    }
    case KILN_MLIR_TOK_STRING: {
      kiln_string_view_t s;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_string(p, &s));
      *out = kiln_ir_string_attr_get(c, s);
      return kiln_ok_status();
    }
    case KILN_MLIR_TOK_LSQUARE: {
      kiln_mlir_consume(p);
      const kiln_ir_attribute_t** items = NULL;
      size_t count = 0, cap = 0;
      if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
        do {
          if (count == cap) {
            cap = cap ? cap * 2 : 8;
            const kiln_ir_attribute_t** grown =
                (const kiln_ir_attribute_t**)kiln_ir_arena_alloc(
                    c, cap * sizeof(*grown));
            if (!grown) return kiln_ir_context_take_error(c);
            if (count) memcpy(grown, items, count * sizeof(*grown));
            items = grown;
          }
          KILN_RETURN_IF_ERROR(
              kiln_mlir_parse_attribute(p, NULL, &items[count]));
          ++count;
        } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
      }
      *out = kiln_ir_array_attr_get(c, count, items);
      return kiln_ok_status();
    }
    case KILN_MLIR_TOK_LBRACE: {
      kiln_mlir_named_list_t list = {0};
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_dict_entries(p, &list));
      *out = kiln_ir_dictionary_attr_get(c, list.count, list.items);
      return kiln_ok_status();
    }
    case KILN_MLIR_TOK_MINUS:
    case KILN_MLIR_TOK_INTEGER:
    case KILN_MLIR_TOK_FLOAT: {
      kiln_mlir_token_t num;
      bool neg = false;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_number_token(p, &num, &neg));
      const kiln_ir_type_t* ty = type;
      if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &ty));
      }
      if (!ty) {
        ty = num.kind == KILN_MLIR_TOK_FLOAT
                 ? kiln_ir_float_type_get(c, KILN_IR_F64)
                 : kiln_ir_int_type(c, 64);
      }
      if (ty->kind == KILN_IR_TYPE_FLOAT) {
        uint8_t bytes[8] = {0};
        KILN_RETURN_IF_ERROR(kiln_mlir_convert_scalar(p, &num, neg, ty, bytes));
        uint64_t raw = 0;
        for (int i = 0; i < 8; ++i) raw |= (uint64_t)bytes[i] << (8 * i);
        *out = kiln_ir_float_attr_get_bits(c, ty, raw);
        return kiln_ok_status();
      }
      if (ty->kind != KILN_IR_TYPE_INTEGER && ty->kind != KILN_IR_TYPE_INDEX) {
        return kiln_mlir_emit_error_at(p, t.line, t.column,
                                       "integer literal not valid for "
                                       "specified type");
      }
      uint8_t bytes[8] = {0};
      KILN_RETURN_IF_ERROR(kiln_mlir_convert_scalar(p, &num, neg, ty, bytes));
      uint64_t raw = 0;
      for (int i = 0; i < 8; ++i) raw |= (uint64_t)bytes[i] << (8 * i);
      *out = kiln_ir_integer_attr_get(c, ty, (int64_t)raw);
      return kiln_ok_status();
    }
    case KILN_MLIR_TOK_LPAREN:
    case KILN_MLIR_TOK_BANG_ID: {
      const kiln_ir_type_t* ty = NULL;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &ty));
      *out = kiln_ir_type_attr_get(c, ty);
      return kiln_ok_status();
    }
    case KILN_MLIR_TOK_BARE_ID:
      break;
    default:
      return kiln_mlir_expected(p, "attribute value");
  }
  if (kiln_mlir_parse_optional_keyword(p, "true")) {
    *out = kiln_ir_bool_attr_get(c, true);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "false")) {
    *out = kiln_ir_bool_attr_get(c, false);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "unit")) {
    *out = kiln_ir_unit_attr_get(c);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "dense")) {
    return kiln_mlir_parse_dense(p, out);
  }
  if (kiln_mlir_parse_optional_keyword(p, "array")) {
    return kiln_mlir_parse_dense_array(p, out);
  }
  if (kiln_mlir_parse_optional_keyword(p, "affine_map")) {
    return kiln_mlir_parse_affine_map(p, out);
  }
  if (kiln_mlir_at_type(p)) {
    const kiln_ir_type_t* ty = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &ty));
    *out = kiln_ir_type_attr_get(c, ty);
    return kiln_ok_status();
  }
  if (p->in_dialect_attr) {
    *out = kiln_ir_keyword_attr_get(c, t.spelling);
    kiln_mlir_consume(p);
    return kiln_ok_status();
  }
  return kiln_mlir_emit_error(p, "expected attribute value, found '%.*s'",
                              KILN_SV_ARG(t.spelling));
}

kiln_status_t kiln_mlir_add_attribute(P* p, kiln_ir_op_state_t* state,
                                      const char* name,
                                      const kiln_ir_attribute_t* attr) {
  return kiln_ir_op_state_add_attribute(p->context, state, name, attr);
}

static kiln_status_t kiln_mlir_add_entries(P* p, kiln_ir_op_state_t* state,
                                           kiln_mlir_named_list_t* list,
                                           bool properties) {
  for (size_t i = 0; i < list->count; ++i) {
    list->items[i].is_property = properties;
    KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_named_attribute(p->context, state,
                                                              list->items[i]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_optional_attr_dict(P* p,
                                                 kiln_ir_op_state_t* state) {
  if (p->tok.kind != KILN_MLIR_TOK_LBRACE) return kiln_ok_status();
  kiln_mlir_named_list_t list = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_dict_entries(p, &list));
  return kiln_mlir_add_entries(p, state, &list, false);
}

kiln_status_t kiln_mlir_parse_optional_attr_dict_with_keyword(
    P* p, kiln_ir_op_state_t* state) {
  if (!kiln_mlir_parse_optional_keyword(p, "attributes")) {
    return kiln_ok_status();
  }
  if (p->tok.kind != KILN_MLIR_TOK_LBRACE) return kiln_mlir_expected(p, "'{'");
  return kiln_mlir_parse_optional_attr_dict(p, state);
}

kiln_status_t kiln_mlir_parse_optional_properties(P* p,
                                                  kiln_ir_op_state_t* state) {
  if (p->tok.kind != KILN_MLIR_TOK_LESS) return kiln_ok_status();
  kiln_mlir_consume(p);
  kiln_mlir_named_list_t list = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_dict_entries(p, &list));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
  return kiln_mlir_add_entries(p, state, &list, true);
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_mlir_parse_location_body(
    P* p, const kiln_ir_location_t** out) {
  kiln_ir_context_t* c = p->context;
  if (p->tok.kind == KILN_MLIR_TOK_HASH_ID) {
    const kiln_ir_location_t* alias =
        (const kiln_ir_location_t*)kiln_ir_hash_map_find(&p->loc_aliases,
                                                         p->tok.spelling);
    // Unknown aliases (defined later in the file) degrade to unknown.
    *out = alias ? alias : kiln_ir_location_unknown(c);
    kiln_mlir_consume(p);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "unknown")) {
    *out = kiln_ir_location_unknown(c);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "callsite")) {
    const kiln_ir_location_t *callee = NULL, *caller = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_location_body(p, &callee));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "at"));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_location_body(p, &caller));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    *out = kiln_ir_location_callsite(c, callee, caller);
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_keyword(p, "fused")) {
    if (p->tok.kind == KILN_MLIR_TOK_LESS) {
      const kiln_ir_attribute_t* ignored = NULL;
      kiln_mlir_consume(p);
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &ignored));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_GREATER));
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
    const kiln_ir_location_t* kids[64];
    size_t n = 0;
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
      do {
        const kiln_ir_location_t* k = NULL;
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_location_body(p, &k));
        if (n < 64) kids[n++] = k;
      } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
    }
    *out = kiln_ir_location_fused(c, n, kids);
    return kiln_ok_status();
  }
  if (p->tok.kind != KILN_MLIR_TOK_STRING)
    return kiln_mlir_expected(p, "location");
  kiln_string_view_t s;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_string(p, &s));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
    uint64_t line = 0, col = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_uint(p, &line));
    if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_uint(p, &col));
    }
    // Ranges `to :l:c` are accepted and ignored.
    if (kiln_mlir_parse_optional_keyword(p, "to")) {
      uint64_t ignored = 0;
      while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_uint(p, &ignored));
      }
    }
    *out = kiln_ir_location_file(c, s, (uint32_t)line, (uint32_t)col);
    return kiln_ok_status();
  }
  const kiln_ir_location_t* child = NULL;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_location_body(p, &child));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  *out = kiln_ir_location_name(c, s, child);
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_optional_location(
    P* p, const kiln_ir_location_t** out) {
  *out = NULL;
  if (!kiln_mlir_tok_is_keyword(p, "loc")) return kiln_ok_status();
  kiln_mlir_consume(p);
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_location_body(p, out));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN);
}

//===----------------------------------------------------------------------===//
// Blocks and regions
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_mlir_get_block(P* p, kiln_string_view_t name,
                                         uint32_t line, uint32_t column,
                                         kiln_mlir_block_entry_t** out) {
  if (!p->num_scopes) {
    return kiln_mlir_emit_error_at(p, line, column,
                                   "block reference outside of a region");
  }
  kiln_mlir_scope_t* s = &p->scopes[p->num_scopes - 1];
  kiln_mlir_block_entry_t* e =
      (kiln_mlir_block_entry_t*)kiln_ir_hash_map_find(&s->blocks, name);
  if (!e) {
    e = (kiln_mlir_block_entry_t*)kiln_ir_arena_alloc(p->context, sizeof(*e));
    if (!e) return kiln_ir_context_take_error(p->context);
    KILN_RETURN_IF_ERROR(kiln_ir_block_create(p->context, &e->block));
    e->line = line;
    e->column = column;
    if (!kiln_ir_hash_map_put(p->allocator, &s->blocks,
                              kiln_ir_intern(p->context, name), e)) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "parser");
    }
  }
  *out = e;
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_successor(P* p, kiln_ir_block_t** out) {
  if (p->tok.kind != KILN_MLIR_TOK_CARET_ID) {
    return kiln_mlir_expected(p, "block name");
  }
  kiln_mlir_block_entry_t* e = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_mlir_get_block(p, p->tok.spelling, p->tok.line, p->tok.column, &e));
  kiln_mlir_consume(p);
  *out = e->block;
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_successor_and_operands(
    P* p, kiln_ir_op_state_t* state) {
  kiln_ir_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_successor(p, &block));
  kiln_ir_value_t** values = NULL;
  size_t count = 0;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    kiln_mlir_operand_list_t ops = {0};
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &ops));
    kiln_mlir_type_list_t types = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    if (ops.count != types.count) {
      return kiln_mlir_emit_error(p, "%zu operands present, but expected %zu",
                                  ops.count, types.count);
    }
    values = (kiln_ir_value_t**)kiln_ir_arena_alloc(
        p->context, (ops.count + 1) * sizeof(*values));
    if (!values) return kiln_ir_context_take_error(p->context);
    for (size_t i = 0; i < ops.count; ++i) {
      KILN_RETURN_IF_ERROR(kiln_mlir_resolve_value(p, &ops.items[i],
                                                   types.items[i], &values[i]));
    }
    count = ops.count;
  }
  return kiln_ir_op_state_add_successor(p->context, state, block, count,
                                        values);
}

kiln_status_t kiln_mlir_parse_block_arg(P* p, kiln_mlir_block_arg_t* out) {
  memset(out, 0, sizeof(*out));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &out->name));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &out->type));
  return kiln_mlir_parse_optional_location(p, &out->location);
}

static kiln_status_t kiln_mlir_add_block_arg(P* p, kiln_ir_block_t* block,
                                             const kiln_mlir_block_arg_t* a) {
  kiln_ir_value_t* v = NULL;
  const kiln_ir_location_t* loc =
      a->location ? a->location
                  : kiln_mlir_loc_at(p, a->name.line, a->name.column);
  KILN_RETURN_IF_ERROR(
      kiln_ir_block_add_arg(p->context, block, a->type, loc, &v));
  kiln_ir_value_t** values =
      (kiln_ir_value_t**)kiln_ir_arena_dup(p->context, &v, sizeof(v));
  if (!values) return kiln_ir_context_take_error(p->context);
  return kiln_mlir_define(p, a->name.name, a->name.line, a->name.column, 1,
                          values);
}

static kiln_status_t kiln_mlir_parse_operation(P* p, kiln_ir_block_t* block);

static kiln_status_t kiln_mlir_parse_block_body(P* p, kiln_ir_block_t* block) {
  while (p->tok.kind != KILN_MLIR_TOK_CARET_ID &&
         p->tok.kind != KILN_MLIR_TOK_RBRACE) {
    if (p->tok.kind == KILN_MLIR_TOK_EOF) {
      return kiln_mlir_expected(p, "'}' to end the region");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operation(p, block));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_mlir_parse_region_body(
    P* p, kiln_ir_region_t* region, size_t num_entry_args,
    const kiln_mlir_block_arg_t* entry_args) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LBRACE));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RBRACE)) {
    if (num_entry_args) {
      // Entry args on an empty body still need a block to live in.
      kiln_ir_block_t* b = NULL;
      KILN_RETURN_IF_ERROR(kiln_ir_block_create(p->context, &b));
      for (size_t i = 0; i < num_entry_args; ++i) {
        KILN_RETURN_IF_ERROR(kiln_mlir_add_block_arg(p, b, &entry_args[i]));
      }
      kiln_ir_region_append_block(region, b);
    }
    return kiln_ok_status();
  }
  bool first = true;
  while (p->tok.kind != KILN_MLIR_TOK_RBRACE) {
    kiln_ir_block_t* block = NULL;
    if (p->tok.kind == KILN_MLIR_TOK_CARET_ID) {
      if (first && num_entry_args) {
        return kiln_mlir_emit_error(p,
                                    "invalid block name in region with named "
                                    "arguments");
      }
      kiln_mlir_token_t t = p->tok;
      kiln_mlir_block_entry_t* e = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_mlir_get_block(p, t.spelling, t.line, t.column, &e));
      if (e->defined) {
        return kiln_mlir_emit_error_at(p, t.line, t.column,
                                       "redefinition of block '%.*s'",
                                       KILN_SV_ARG(t.spelling));
      }
      e->defined = true;
      block = e->block;
      kiln_mlir_consume(p);
      if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN) &&
          !kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
        do {
          kiln_mlir_block_arg_t a;
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_block_arg(p, &a));
          KILN_RETURN_IF_ERROR(kiln_mlir_add_block_arg(p, block, &a));
        } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
      }
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
    } else if (first) {
      KILN_RETURN_IF_ERROR(kiln_ir_block_create(p->context, &block));
      for (size_t i = 0; i < num_entry_args; ++i) {
        KILN_RETURN_IF_ERROR(kiln_mlir_add_block_arg(p, block, &entry_args[i]));
      }
    } else {
      return kiln_mlir_expected(p, "block");
    }
    kiln_ir_region_append_block(region, block);
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_block_body(p, block));
    first = false;
  }
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE);
}

kiln_status_t kiln_mlir_parse_region(P* p, size_t num_entry_args,
                                     const kiln_mlir_block_arg_t* entry_args,
                                     bool isolated,
                                     kiln_ir_region_t** out_region) {
  KILN_RETURN_IF_ERROR(kiln_mlir_enter_nesting(p));
  kiln_status_t st = kiln_ir_region_create(p->context, out_region);
  if (!st) st = kiln_mlir_push_scope(p, isolated);
  if (st) {
    kiln_mlir_leave_nesting(p);
    return st;
  }
  st = kiln_mlir_parse_region_body(p, *out_region, num_entry_args, entry_args);
  kiln_mlir_leave_nesting(p);
  kiln_status_t pop = kiln_mlir_pop_scope(p);
  if (st) {
    kiln_status_free(pop);
    return st;
  }
  return pop;
}

kiln_status_t kiln_mlir_parse_optional_region(
    P* p, size_t num_entry_args, const kiln_mlir_block_arg_t* entry_args,
    bool isolated, kiln_ir_region_t** out_region) {
  *out_region = NULL;
  if (p->tok.kind != KILN_MLIR_TOK_LBRACE) return kiln_ok_status();
  return kiln_mlir_parse_region(p, num_entry_args, entry_args, isolated,
                                out_region);
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

static bool kiln_mlir_state_isolated(P* p, const kiln_ir_op_state_t* state) {
  const kiln_ir_op_def_t* def = kiln_ir_lookup_op(p->context, state->name);
  return def && (def->traits & KILN_IR_TRAIT_ISOLATED_FROM_ABOVE);
}

kiln_status_t kiln_mlir_parse_generic_op_body(P* p, kiln_ir_op_state_t* state) {
  kiln_ir_context_t* c = p->context;
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_PAREN, &operands));
  // Successors are parsed after the operands are resolved (they append
  // their own operands), so remember where they start.
  kiln_mlir_lexer_t succ_lexer = p->lexer;
  kiln_mlir_token_t succ_tok = p->tok;
  bool has_successors = p->tok.kind == KILN_MLIR_TOK_LSQUARE;
  if (has_successors) {
    int depth = 0;
    do {
      if (p->tok.kind == KILN_MLIR_TOK_LSQUARE) ++depth;
      if (p->tok.kind == KILN_MLIR_TOK_RSQUARE) --depth;
      kiln_mlir_consume(p);
    } while (depth > 0 && p->tok.kind != KILN_MLIR_TOK_EOF);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_properties(p, state));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    bool isolated = kiln_mlir_state_isolated(p, state);
    do {
      kiln_ir_region_t* region = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_mlir_parse_region(p, 0, NULL, isolated, &region));
      KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(c, state, region));
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_token_t type_tok = p->tok;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  const kiln_ir_type_t* fn = NULL;
  type_tok = p->tok;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &fn));
  if (fn->kind != KILN_IR_TYPE_FUNCTION) {
    return kiln_mlir_emit_error_at(p, type_tok.line, type_tok.column,
                                   "expected function type");
  }
  if (fn->function.num_inputs != operands.count) {
    return kiln_mlir_emit_error_at(p, type_tok.line, type_tok.column,
                                   "expected %zu operand type(s) but had %zu",
                                   operands.count, fn->function.num_inputs);
  }
  for (size_t i = 0; i < operands.count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(
        p, &operands.items[i], fn->function.inputs[i], state));
  }
  for (size_t i = 0; i < fn->function.num_results; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_op_state_add_result_type(c, state, fn->function.results[i]));
  }
  if (has_successors) {
    kiln_mlir_lexer_t end_lexer = p->lexer;
    kiln_mlir_token_t end_tok = p->tok;
    size_t end_prev = p->prev_end;
    p->lexer = succ_lexer;
    p->tok = succ_tok;
    kiln_mlir_consume(p);  // '['
    do {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_successor_and_operands(p, state));
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
    p->lexer = end_lexer;
    p->tok = end_tok;
    p->prev_end = end_prev;
  }
  return kiln_ok_status();
}

typedef struct kiln_mlir_result_group_t {
  kiln_mlir_operand_t name;
  uint32_t count;
} kiln_mlir_result_group_t;

static kiln_status_t kiln_mlir_parse_operation(P* p, kiln_ir_block_t* block) {
  kiln_ir_context_t* c = p->context;
  kiln_mlir_token_t start = p->tok;
  kiln_mlir_result_group_t groups[64];
  size_t num_groups = 0;
  uint32_t num_named = 0;
  if (p->tok.kind == KILN_MLIR_TOK_PERCENT_ID) {
    do {
      if (num_groups >= 64) return kiln_mlir_emit_error(p, "too many results");
      kiln_mlir_result_group_t* g = &groups[num_groups++];
      if (p->tok.kind != KILN_MLIR_TOK_PERCENT_ID) {
        return kiln_mlir_expected(p, "SSA result name");
      }
      g->name.name = p->tok.spelling;
      g->name.line = p->tok.line;
      g->name.column = p->tok.column;
      g->name.result_number = 0;
      g->count = 1;
      kiln_mlir_consume(p);
      if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
        uint64_t n = 0;
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_uint(p, &n));
        if (n == 0) return kiln_mlir_emit_error(p, "expected non-zero count");
        g->count = (uint32_t)n;
      }
      num_named += g->count;
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  }
  kiln_ir_op_state_t state;
  memset(&state, 0, sizeof(state));
  state.location = kiln_mlir_loc_at(p, start.line, start.column);
  kiln_mlir_token_t name_tok = p->tok;
  if (p->tok.kind == KILN_MLIR_TOK_STRING) {
    state.name = kiln_mlir_decode(p, p->tok.spelling, true);
    kiln_mlir_consume(p);
    const kiln_ir_op_def_t* def = kiln_ir_lookup_op(c, state.name);
    // An alias (older spelling) builds the canonical op.
    if (def) state.name = kiln_ir_intern_cstr(c, def->name);
    if (!def && !kiln_ir_context_allow_unregistered_ops(c)) {
      return kiln_mlir_emit_error_at(
          p, name_tok.line, name_tok.column,
          "unregistered operation '%.*s' found in known-op-only mode (use "
          "--allow-unregistered-dialect)",
          KILN_SV_ARG(state.name));
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_generic_op_body(p, &state));
  } else if (p->tok.kind == KILN_MLIR_TOK_BARE_ID) {
    kiln_string_view_t name = p->tok.spelling;
    const kiln_ir_op_def_t* def = kiln_ir_lookup_op(c, name);
    if (!def && kiln_string_view_find_char(name, '.', 0) == SIZE_MAX) {
      // Default dialects: `module` is builtin, `return` etc. are func.
      char buffer[256];
      snprintf(buffer, sizeof(buffer), "builtin.%.*s", KILN_SV_ARG(name));
      def = kiln_ir_lookup_op(c, kiln_make_cstring_view(buffer));
      if (!def) {
        snprintf(buffer, sizeof(buffer), "func.%.*s", KILN_SV_ARG(name));
        def = kiln_ir_lookup_op(c, kiln_make_cstring_view(buffer));
      }
    }
    if (!def) {
      return kiln_mlir_emit_error(p,
                                  "unknown op '%.*s' (no custom form "
                                  "registered; use the generic form \"%.*s\""
                                  "(...))",
                                  KILN_SV_ARG(name), KILN_SV_ARG(name));
    }
    if (!def->parse) {
      return kiln_mlir_emit_error(p, "custom form of '%s' not supported",
                                  def->name);
    }
    state.name = kiln_ir_intern_cstr(c, def->name);
    kiln_mlir_consume(p);
    KILN_RETURN_IF_ERROR(def->parse(p, &state));
  } else {
    return kiln_mlir_expected(p, "operation name");
  }
  const kiln_ir_location_t* loc = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_location(p, &loc));
  if (loc) state.location = loc;
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(c, &state, &op));
  // Keep the parse location for diagnostics when loc(...) was given: the
  // verifier reports at the op's location anyway.
  if (block) kiln_ir_block_append_op(block, op);
  if (num_groups) {
    if (num_named != op->num_results) {
      return kiln_mlir_emit_error_at(
          p, start.line, start.column,
          "operation defines %u results but was provided %u to bind",
          op->num_results, num_named);
    }
    uint32_t next = 0;
    for (size_t g = 0; g < num_groups; ++g) {
      kiln_ir_value_t** values = (kiln_ir_value_t**)kiln_ir_arena_alloc(
          c, groups[g].count * sizeof(*values));
      if (!values) return kiln_ir_context_take_error(c);
      for (uint32_t i = 0; i < groups[g].count; ++i) {
        values[i] = &op->results[next++];
      }
      KILN_RETURN_IF_ERROR(
          kiln_mlir_define(p, groups[g].name.name, groups[g].name.line,
                           groups[g].name.column, groups[g].count, values));
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_mlir_parse_top_level(P* p, kiln_ir_block_t* body) {
  kiln_ir_context_t* c = p->context;
  while (p->tok.kind != KILN_MLIR_TOK_EOF) {
    if (p->tok.kind == KILN_MLIR_TOK_FILE_METADATA) {
      kiln_mlir_consume(p);
      continue;
    }
    if (p->tok.kind == KILN_MLIR_TOK_ERROR) {
      return kiln_mlir_emit_error(p, "unexpected character '%.*s'",
                                  KILN_SV_ARG(p->tok.spelling));
    }
    if (p->tok.kind == KILN_MLIR_TOK_HASH_ID ||
        p->tok.kind == KILN_MLIR_TOK_BANG_ID) {
      kiln_mlir_token_t t = p->tok;
      kiln_mlir_lexer_t saved_lexer = p->lexer;
      kiln_mlir_consume(p);
      if (p->tok.kind == KILN_MLIR_TOK_EQUAL) {
        kiln_mlir_consume(p);
        kiln_string_view_t key = kiln_ir_intern(c, t.spelling);
        if (t.kind == KILN_MLIR_TOK_BANG_ID) {
          const kiln_ir_type_t* ty = NULL;
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &ty));
          kiln_ir_hash_map_put(p->allocator, &p->type_aliases, key, (void*)ty);
        } else if (kiln_mlir_tok_is_keyword(p, "loc")) {
          const kiln_ir_location_t* loc = NULL;
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_location(p, &loc));
          kiln_ir_hash_map_put(p->allocator, &p->loc_aliases, key, (void*)loc);
        } else {
          const kiln_ir_attribute_t* a = NULL;
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &a));
          kiln_ir_hash_map_put(p->allocator, &p->attr_aliases, key, (void*)a);
        }
        continue;
      }
      p->lexer = saved_lexer;
      p->tok = t;
      return kiln_mlir_emit_error(p, "expected '=' after alias name");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operation(p, body));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_mlir_parse_source(kiln_ir_context_t* context,
                                     kiln_string_view_t filename,
                                     const char* text, size_t size,
                                     const kiln_mlir_parse_options_t* options,
                                     kiln_ir_op_t** out_module) {
  *out_module = NULL;
  uint32_t first_line =
      options && options->first_line ? options->first_line : 1;
  kiln_ir_context_add_source(context, filename, text, size, first_line);
  P p;
  memset(&p, 0, sizeof(p));
  p.context = context;
  p.allocator = kiln_allocator_system();
  p.filename = kiln_ir_intern(context, filename);
  kiln_mlir_lexer_init(&p.lexer, text, size, first_line);
  p.tok = kiln_mlir_lexer_next(&p.lexer);
  kiln_ir_op_t* module = NULL;
  kiln_status_t st = kiln_ir_module_create(
      context, kiln_ir_location_file(context, filename, first_line, 1),
      &module);
  if (!st) st = kiln_mlir_push_scope(&p, true);
  if (!st) {
    st = kiln_mlir_parse_top_level(&p, kiln_ir_module_body(module));
    kiln_status_t pop = kiln_mlir_pop_scope(&p);
    if (st) {
      kiln_status_free(pop);
    } else {
      st = pop;
    }
  }
  while (p.num_scopes) kiln_status_free(kiln_mlir_pop_scope(&p));
  kiln_allocator_free(p.allocator, p.scopes);
  kiln_ir_hash_map_free(p.allocator, &p.attr_aliases);
  kiln_ir_hash_map_free(p.allocator, &p.type_aliases);
  kiln_ir_hash_map_free(p.allocator, &p.loc_aliases);
  if (st) return st;
  // A lone top-level module is the module itself.
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  if (body->first_op && body->first_op == body->last_op &&
      kiln_ir_op_is(body->first_op, "builtin.module")) {
    kiln_ir_op_t* inner = body->first_op;
    kiln_ir_op_remove(inner);
    module = inner;
  }
  *out_module = module;
  return kiln_ir_context_take_error(context);
}

kiln_status_t kiln_mlir_parse_file(kiln_ir_context_t* context, const char* path,
                                   kiln_ir_op_t** out_module) {
  FILE* f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND, "cannot open '%s'", path);
  }
  size_t cap = 1 << 16, size = 0;
  char* text = (char*)malloc(cap);
  while (text) {
    size_t n = fread(text + size, 1, cap - size, f);
    size += n;
    if (size < cap) break;
    cap *= 2;
    char* grown = (char*)realloc(text, cap);
    if (!grown) {
      free(text);
      text = NULL;
    }
    text = grown;
  }
  if (f != stdin) fclose(f);
  if (!text) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "reading '%s'",
                            path);
  }
  kiln_status_t st = kiln_mlir_parse_source(
      context, kiln_make_cstring_view(path), text, size, NULL, out_module);
  free(text);
  return st;
}
