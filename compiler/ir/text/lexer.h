// MLIR lexer: splits text into tokens with exact line:col positions.
#ifndef KILN_COMPILER_INPUT_MLIR_LEXER_H_
#define KILN_COMPILER_INPUT_MLIR_LEXER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kiln_mlir_token_kind_e {
  KILN_MLIR_TOK_EOF = 0,
  KILN_MLIR_TOK_ERROR,          // invalid character / unterminated string
  KILN_MLIR_TOK_BARE_ID,        // foo, stablehlo.add, i32, x_1, d0
  KILN_MLIR_TOK_PERCENT_ID,     // %0, %arg0, %x#1 is PERCENT_ID '#' INT
  KILN_MLIR_TOK_CARET_ID,       // ^bb0
  KILN_MLIR_TOK_HASH_ID,        // #map, #stablehlo (name part only)
  KILN_MLIR_TOK_BANG_ID,        // !stablehlo.token, !alias
  KILN_MLIR_TOK_AT_ID,          // @foo, @"quoted"
  KILN_MLIR_TOK_INTEGER,        // 42, 0x2A
  KILN_MLIR_TOK_FLOAT,          // 1.5, 1e-3, 2.
  KILN_MLIR_TOK_STRING,         // "text" (spelling includes the quotes)
  KILN_MLIR_TOK_LPAREN,         // (
  KILN_MLIR_TOK_RPAREN,         // )
  KILN_MLIR_TOK_LBRACE,         // {
  KILN_MLIR_TOK_RBRACE,         // }
  KILN_MLIR_TOK_LSQUARE,        // [
  KILN_MLIR_TOK_RSQUARE,        // ]
  KILN_MLIR_TOK_LESS,           // <
  KILN_MLIR_TOK_GREATER,        // >
  KILN_MLIR_TOK_COLON,          // :
  KILN_MLIR_TOK_COMMA,          // ,
  KILN_MLIR_TOK_EQUAL,          // =
  KILN_MLIR_TOK_ARROW,          // ->
  KILN_MLIR_TOK_MINUS,          // -
  KILN_MLIR_TOK_PLUS,           // +
  KILN_MLIR_TOK_STAR,           // *
  KILN_MLIR_TOK_QUESTION,       // ?
  KILN_MLIR_TOK_HASH,           // # alone (result number: %x#1)
  KILN_MLIR_TOK_DOT,            // .
  KILN_MLIR_TOK_PIPE,           // |
  KILN_MLIR_TOK_FILE_METADATA,  // {-# ... #-}
} kiln_mlir_token_kind_t;

typedef struct kiln_mlir_token_t {
  kiln_mlir_token_kind_t kind;
  kiln_string_view_t spelling;  // exact source text
  uint32_t line;                // 1-based (including first_line offset)
  uint32_t column;              // 1-based
  size_t offset;                // byte offset in the buffer
} kiln_mlir_token_t;

typedef struct kiln_mlir_lexer_t {
  const char* text;
  size_t size;
  size_t pos;
  uint32_t line;
  uint32_t column;
} kiln_mlir_lexer_t;

void kiln_mlir_lexer_init(kiln_mlir_lexer_t* lexer, const char* text,
                          size_t size, uint32_t first_line);
// Returns the next token, skipping whitespace and `//` comments. ERROR
// tokens carry the offending text; the lexer advances past it.
kiln_mlir_token_t kiln_mlir_lexer_next(kiln_mlir_lexer_t* lexer);
// Human name of a kind ("'('", "identifier", ...), for messages.
const char* kiln_mlir_token_kind_name(kiln_mlir_token_kind_t kind);

// Decodes the body of a STRING token (escapes \n \t \" \\ \XX) into |out|
// (at least spelling.size bytes); returns the decoded length.
size_t kiln_mlir_decode_string(kiln_string_view_t spelling, char* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_INPUT_MLIR_LEXER_H_
