#include "compiler/ir/text/lexer.h"

#include <ctype.h>
#include <string.h>

void kiln_mlir_lexer_init(kiln_mlir_lexer_t* lexer, const char* text,
                          size_t size, uint32_t first_line) {
  lexer->text = text;
  lexer->size = size;
  lexer->pos = 0;
  lexer->line = first_line ? first_line : 1;
  lexer->column = 1;
}

static char kiln_mlir_peek_char(const kiln_mlir_lexer_t* l, size_t ahead) {
  return l->pos + ahead < l->size ? l->text[l->pos + ahead] : 0;
}

static void kiln_mlir_advance(kiln_mlir_lexer_t* l) {
  if (l->pos >= l->size) return;
  if (l->text[l->pos] == '\n') {
    ++l->line;
    l->column = 1;
  } else {
    ++l->column;
  }
  ++l->pos;
}

// Suffix characters of %/^/#/! identifiers.
static bool kiln_mlir_is_suffix_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

static kiln_mlir_token_t kiln_mlir_make(kiln_mlir_lexer_t* l,
                                        kiln_mlir_token_kind_t kind,
                                        size_t start, uint32_t line,
                                        uint32_t column) {
  kiln_mlir_token_t t;
  t.kind = kind;
  t.spelling = kiln_make_string_view(l->text + start, l->pos - start);
  t.line = line;
  t.column = column;
  t.offset = start;
  return t;
}

static void kiln_mlir_lex_string_body(kiln_mlir_lexer_t* l, bool* ok) {
  // Opening quote already consumed.
  while (l->pos < l->size) {
    char c = l->text[l->pos];
    if (c == '"') {
      kiln_mlir_advance(l);
      *ok = true;
      return;
    }
    if (c == '\n') break;
    if (c == '\\') kiln_mlir_advance(l);
    kiln_mlir_advance(l);
  }
  *ok = false;
}

kiln_mlir_token_t kiln_mlir_lexer_next(kiln_mlir_lexer_t* l) {
  for (;;) {
    char c = kiln_mlir_peek_char(l, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      kiln_mlir_advance(l);
    } else if (c == '/' && kiln_mlir_peek_char(l, 1) == '/') {
      while (l->pos < l->size && l->text[l->pos] != '\n') kiln_mlir_advance(l);
    } else {
      break;
    }
  }
  size_t start = l->pos;
  uint32_t line = l->line, column = l->column;
  if (l->pos >= l->size) {
    return kiln_mlir_make(l, KILN_MLIR_TOK_EOF, start, line, column);
  }
  char c = l->text[l->pos];
  kiln_mlir_advance(l);
  switch (c) {
    case '(':
      return kiln_mlir_make(l, KILN_MLIR_TOK_LPAREN, start, line, column);
    case ')':
      return kiln_mlir_make(l, KILN_MLIR_TOK_RPAREN, start, line, column);
    case '{':
      if (kiln_mlir_peek_char(l, 0) == '-' &&
          kiln_mlir_peek_char(l, 1) == '#') {
        while (l->pos < l->size) {
          if (l->text[l->pos] == '#' && kiln_mlir_peek_char(l, 1) == '-' &&
              kiln_mlir_peek_char(l, 2) == '}') {
            kiln_mlir_advance(l);
            kiln_mlir_advance(l);
            kiln_mlir_advance(l);
            return kiln_mlir_make(l, KILN_MLIR_TOK_FILE_METADATA, start, line,
                                  column);
          }
          kiln_mlir_advance(l);
        }
        return kiln_mlir_make(l, KILN_MLIR_TOK_ERROR, start, line, column);
      }
      return kiln_mlir_make(l, KILN_MLIR_TOK_LBRACE, start, line, column);
    case '}':
      return kiln_mlir_make(l, KILN_MLIR_TOK_RBRACE, start, line, column);
    case '[':
      return kiln_mlir_make(l, KILN_MLIR_TOK_LSQUARE, start, line, column);
    case ']':
      return kiln_mlir_make(l, KILN_MLIR_TOK_RSQUARE, start, line, column);
    case '<':
      return kiln_mlir_make(l, KILN_MLIR_TOK_LESS, start, line, column);
    case '>':
      return kiln_mlir_make(l, KILN_MLIR_TOK_GREATER, start, line, column);
    case ':':
      return kiln_mlir_make(l, KILN_MLIR_TOK_COLON, start, line, column);
    case ',':
      return kiln_mlir_make(l, KILN_MLIR_TOK_COMMA, start, line, column);
    case '=':
      return kiln_mlir_make(l, KILN_MLIR_TOK_EQUAL, start, line, column);
    case '+':
      return kiln_mlir_make(l, KILN_MLIR_TOK_PLUS, start, line, column);
    case '*':
      return kiln_mlir_make(l, KILN_MLIR_TOK_STAR, start, line, column);
    case '?':
      return kiln_mlir_make(l, KILN_MLIR_TOK_QUESTION, start, line, column);
    case '.':
      return kiln_mlir_make(l, KILN_MLIR_TOK_DOT, start, line, column);
    case '|':
      return kiln_mlir_make(l, KILN_MLIR_TOK_PIPE, start, line, column);
    case '-':
      if (kiln_mlir_peek_char(l, 0) == '>') {
        kiln_mlir_advance(l);
        return kiln_mlir_make(l, KILN_MLIR_TOK_ARROW, start, line, column);
      }
      return kiln_mlir_make(l, KILN_MLIR_TOK_MINUS, start, line, column);
    case '"': {
      bool ok = false;
      kiln_mlir_lex_string_body(l, &ok);
      return kiln_mlir_make(l, ok ? KILN_MLIR_TOK_STRING : KILN_MLIR_TOK_ERROR,
                            start, line, column);
    }
    case '%':
    case '^':
    case '#':
    case '!':
    case '@': {
      if (c == '@' && kiln_mlir_peek_char(l, 0) == '"') {
        kiln_mlir_advance(l);
        bool ok = false;
        kiln_mlir_lex_string_body(l, &ok);
        return kiln_mlir_make(l, ok ? KILN_MLIR_TOK_AT_ID : KILN_MLIR_TOK_ERROR,
                              start, line, column);
      }
      char n = kiln_mlir_peek_char(l, 0);
      bool has_suffix = kiln_mlir_is_suffix_char(n) && n != '.' &&
                        !(c == '#' && isdigit((unsigned char)n));
      // MLIR's suffix-id also admits '-' (`%model.layer-1.kernel`), in value
      // and block names and aliases; symbol names (@) are bare ids.
      bool dash = c != '@';
      if (c == '%' || c == '^') has_suffix = has_suffix || n == '.';
      if (c == '%' || c == '^') has_suffix = has_suffix || n == '-';
      if (!has_suffix) {
        if (c == '#') {
          return kiln_mlir_make(l, KILN_MLIR_TOK_HASH, start, line, column);
        }
        return kiln_mlir_make(l, KILN_MLIR_TOK_ERROR, start, line, column);
      }
      if (c == '%' && isdigit((unsigned char)n)) {
        while (isdigit((unsigned char)kiln_mlir_peek_char(l, 0))) {
          kiln_mlir_advance(l);
        }
      } else {
        while (kiln_mlir_is_suffix_char(kiln_mlir_peek_char(l, 0)) ||
               (dash && kiln_mlir_peek_char(l, 0) == '-')) {
          kiln_mlir_advance(l);
        }
      }
      kiln_mlir_token_kind_t kind = c == '%'   ? KILN_MLIR_TOK_PERCENT_ID
                                    : c == '^' ? KILN_MLIR_TOK_CARET_ID
                                    : c == '#' ? KILN_MLIR_TOK_HASH_ID
                                    : c == '!' ? KILN_MLIR_TOK_BANG_ID
                                               : KILN_MLIR_TOK_AT_ID;
      return kiln_mlir_make(l, kind, start, line, column);
    }
    default:
      break;
  }
  if (isdigit((unsigned char)c)) {
    if (c == '0' && kiln_mlir_peek_char(l, 0) == 'x' &&
        isxdigit((unsigned char)kiln_mlir_peek_char(l, 1))) {
      kiln_mlir_advance(l);
      while (isxdigit((unsigned char)kiln_mlir_peek_char(l, 0))) {
        kiln_mlir_advance(l);
      }
      return kiln_mlir_make(l, KILN_MLIR_TOK_INTEGER, start, line, column);
    }
    while (isdigit((unsigned char)kiln_mlir_peek_char(l, 0))) {
      kiln_mlir_advance(l);
    }
    if (kiln_mlir_peek_char(l, 0) != '.') {
      return kiln_mlir_make(l, KILN_MLIR_TOK_INTEGER, start, line, column);
    }
    kiln_mlir_advance(l);
    while (isdigit((unsigned char)kiln_mlir_peek_char(l, 0))) {
      kiln_mlir_advance(l);
    }
    char e = kiln_mlir_peek_char(l, 0);
    if (e == 'e' || e == 'E') {
      char s = kiln_mlir_peek_char(l, 1);
      if (isdigit((unsigned char)s) ||
          ((s == '-' || s == '+') &&
           isdigit((unsigned char)kiln_mlir_peek_char(l, 2)))) {
        kiln_mlir_advance(l);
        kiln_mlir_advance(l);
        while (isdigit((unsigned char)kiln_mlir_peek_char(l, 0))) {
          kiln_mlir_advance(l);
        }
      }
    }
    return kiln_mlir_make(l, KILN_MLIR_TOK_FLOAT, start, line, column);
  }
  if (isalpha((unsigned char)c) || c == '_') {
    while (isalnum((unsigned char)kiln_mlir_peek_char(l, 0)) ||
           kiln_mlir_peek_char(l, 0) == '_' ||
           kiln_mlir_peek_char(l, 0) == '$' ||
           kiln_mlir_peek_char(l, 0) == '.') {
      kiln_mlir_advance(l);
    }
    return kiln_mlir_make(l, KILN_MLIR_TOK_BARE_ID, start, line, column);
  }
  return kiln_mlir_make(l, KILN_MLIR_TOK_ERROR, start, line, column);
}

const char* kiln_mlir_token_kind_name(kiln_mlir_token_kind_t kind) {
  switch (kind) {
    case KILN_MLIR_TOK_EOF:
      return "end of file";
    case KILN_MLIR_TOK_ERROR:
      return "invalid token";
    case KILN_MLIR_TOK_BARE_ID:
      return "identifier";
    case KILN_MLIR_TOK_PERCENT_ID:
      return "SSA value";
    case KILN_MLIR_TOK_CARET_ID:
      return "block name";
    case KILN_MLIR_TOK_HASH_ID:
      return "attribute alias";
    case KILN_MLIR_TOK_BANG_ID:
      return "type alias";
    case KILN_MLIR_TOK_AT_ID:
      return "symbol";
    case KILN_MLIR_TOK_INTEGER:
      return "integer";
    case KILN_MLIR_TOK_FLOAT:
      return "float";
    case KILN_MLIR_TOK_STRING:
      return "string";
    case KILN_MLIR_TOK_LPAREN:
      return "'('";
    case KILN_MLIR_TOK_RPAREN:
      return "')'";
    case KILN_MLIR_TOK_LBRACE:
      return "'{'";
    case KILN_MLIR_TOK_RBRACE:
      return "'}'";
    case KILN_MLIR_TOK_LSQUARE:
      return "'['";
    case KILN_MLIR_TOK_RSQUARE:
      return "']'";
    case KILN_MLIR_TOK_LESS:
      return "'<'";
    case KILN_MLIR_TOK_GREATER:
      return "'>'";
    case KILN_MLIR_TOK_COLON:
      return "':'";
    case KILN_MLIR_TOK_COMMA:
      return "','";
    case KILN_MLIR_TOK_EQUAL:
      return "'='";
    case KILN_MLIR_TOK_ARROW:
      return "'->'";
    case KILN_MLIR_TOK_MINUS:
      return "'-'";
    case KILN_MLIR_TOK_PLUS:
      return "'+'";
    case KILN_MLIR_TOK_STAR:
      return "'*'";
    case KILN_MLIR_TOK_QUESTION:
      return "'?'";
    case KILN_MLIR_TOK_HASH:
      return "'#'";
    case KILN_MLIR_TOK_DOT:
      return "'.'";
    case KILN_MLIR_TOK_PIPE:
      return "'|'";
    case KILN_MLIR_TOK_FILE_METADATA:
      return "file metadata";
  }
  return "token";
}

static int kiln_mlir_hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t kiln_mlir_decode_string(kiln_string_view_t spelling, char* out) {
  // Skip a leading '@' and the quotes.
  size_t i = 0, n = spelling.size;
  if (n && spelling.data[0] == '@') ++i;
  if (i < n && spelling.data[i] == '"') ++i;
  if (n && spelling.data[n - 1] == '"') --n;
  size_t o = 0;
  while (i < n) {
    char c = spelling.data[i++];
    if (c != '\\' || i >= n) {
      out[o++] = c;
      continue;
    }
    char e = spelling.data[i++];
    switch (e) {
      case 'n':
        out[o++] = '\n';
        break;
      case 't':
        out[o++] = '\t';
        break;
      case '"':
      case '\\':
        out[o++] = e;
        break;
      default:
        if (i < n && kiln_mlir_hex(e) >= 0 &&
            kiln_mlir_hex(spelling.data[i]) >= 0) {
          out[o++] =
              (char)(kiln_mlir_hex(e) * 16 + kiln_mlir_hex(spelling.data[i]));
          ++i;
        } else {
          out[o++] = e;
        }
    }
  }
  return o;
}
