// The parser API given to custom-form parse hooks (kiln_ir_parse_fn_t).
//
// A hook is called after the op name has been consumed, with a state whose
// name and location are set. It reads the rest of the op with these
// functions and fills the state (operands, result types, attributes,
// regions, successors). The parser then binds the `%r = ` names to the
// results. Every function returns OK or an error that has already been
// recorded as a diagnostic at the offending token, so hooks just propagate
// with KILN_RETURN_IF_ERROR. "optional" functions never fail on absence:
// they report whether the thing was present.
//
// Example (binary op `%c = arith.addf %a, %b : f32`):
//   kiln_mlir_operand_t lhs, rhs;
//   const kiln_ir_type_t* type;
//   KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &lhs));
//   KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
//   KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &rhs));
//   KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
//   KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
//   KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &lhs, type, state));
//   KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &rhs, type, state));
//   return kiln_mlir_add_result_type(p, state, type);
#ifndef KILN_COMPILER_INPUT_MLIR_OP_PARSER_H_
#define KILN_COMPILER_INPUT_MLIR_OP_PARSER_H_

#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/text/lexer.h"

#ifdef __cplusplus
extern "C" {
#endif

// An operand reference not yet resolved to a value: `%name` or `%name#3`,
// with the token position for diagnostics.
typedef struct kiln_mlir_operand_t {
  kiln_string_view_t name;  // "%name" including the '%'
  uint32_t result_number;   // from `#N`, else 0
  uint32_t line;
  uint32_t column;
} kiln_mlir_operand_t;

// A growable list of operands (arena-backed).
typedef struct kiln_mlir_operand_list_t {
  size_t count;
  size_t capacity;
  kiln_mlir_operand_t* items;
} kiln_mlir_operand_list_t;

// A growable list of types (arena-backed).
typedef struct kiln_mlir_type_list_t {
  size_t count;
  size_t capacity;
  const kiln_ir_type_t** items;
} kiln_mlir_type_list_t;

// An entry-block argument declared by a custom form (`%arg0: f32`).
typedef struct kiln_mlir_block_arg_t {
  kiln_mlir_operand_t name;
  const kiln_ir_type_t* type;
  const kiln_ir_location_t* location;  // NULL: the token location
} kiln_mlir_block_arg_t;

typedef enum kiln_mlir_delimiter_e {
  KILN_MLIR_DELIM_NONE = 0,            // a bare comma list (may be empty)
  KILN_MLIR_DELIM_PAREN = 1,           // ( ... )
  KILN_MLIR_DELIM_SQUARE = 2,          // [ ... ]
  KILN_MLIR_DELIM_OPTIONAL_PAREN = 3,  // optional ( ... )
} kiln_mlir_delimiter_t;

//===----------------------------------------------------------------------===//
// Context and diagnostics
//===----------------------------------------------------------------------===//

kiln_ir_context_t* kiln_mlir_parser_context(kiln_mlir_op_parser_t* p);
// Records "error: <message>" at the current token and returns the status.
kiln_status_t kiln_mlir_emit_error(kiln_mlir_op_parser_t* p, const char* format,
                                   ...) __attribute__((format(printf, 2, 3)));
// As above at an explicit line:col.
kiln_status_t kiln_mlir_emit_error_at(kiln_mlir_op_parser_t* p, uint32_t line,
                                      uint32_t column, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
// The current (not yet consumed) token.
const kiln_mlir_token_t* kiln_mlir_peek(kiln_mlir_op_parser_t* p);
// The location of the current token.
const kiln_ir_location_t* kiln_mlir_current_location(kiln_mlir_op_parser_t* p);

//===----------------------------------------------------------------------===//
// Punctuation and keywords
//===----------------------------------------------------------------------===//

// Consumes a token of |kind| or fails "expected '<kind>'".
kiln_status_t kiln_mlir_parse_punct(kiln_mlir_op_parser_t* p,
                                    kiln_mlir_token_kind_t kind);
// Consumes a token of |kind| when present; returns whether it was.
bool kiln_mlir_parse_optional_punct(kiln_mlir_op_parser_t* p,
                                    kiln_mlir_token_kind_t kind);
// Consumes the bare word |keyword| or fails "expected 'keyword'".
kiln_status_t kiln_mlir_parse_keyword(kiln_mlir_op_parser_t* p,
                                      const char* keyword);
// Consumes |keyword| when it is next; returns whether it was.
bool kiln_mlir_parse_optional_keyword(kiln_mlir_op_parser_t* p,
                                      const char* keyword);
// Consumes any bare word (or a quoted string when |allow_string|) into
// |*out_word|; returns false (consuming nothing) when none is next.
bool kiln_mlir_parse_optional_any_keyword(kiln_mlir_op_parser_t* p,
                                          kiln_string_view_t* out_word);
// Consumes an integer literal (with optional leading '-').
kiln_status_t kiln_mlir_parse_integer(kiln_mlir_op_parser_t* p,
                                      int64_t* out_value);
// `@name` into an interned view without the '@' (quoted names decoded).
kiln_status_t kiln_mlir_parse_symbol_name(kiln_mlir_op_parser_t* p,
                                          kiln_string_view_t* out_name);
bool kiln_mlir_parse_optional_symbol_name(kiln_mlir_op_parser_t* p,
                                          kiln_string_view_t* out_name);
// A string literal, decoded, into an arena copy.
kiln_status_t kiln_mlir_parse_string(kiln_mlir_op_parser_t* p,
                                     kiln_string_view_t* out_value);

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

kiln_status_t kiln_mlir_parse_operand(kiln_mlir_op_parser_t* p,
                                      kiln_mlir_operand_t* out_operand);
// Parses `%x` when the current token is a percent identifier.
bool kiln_mlir_parse_optional_operand(kiln_mlir_op_parser_t* p,
                                      kiln_mlir_operand_t* out_operand,
                                      kiln_status_t* out_status);
// Comma separated operands with |delimiter|, appended to |list|.
kiln_status_t kiln_mlir_parse_operand_list(kiln_mlir_op_parser_t* p,
                                           kiln_mlir_delimiter_t delimiter,
                                           kiln_mlir_operand_list_t* list);
// Resolves |operand| to a value of |type| and appends it to the state's
// operands. Errors: undefined value (forward references become
// placeholders resolved later), type mismatch with the definition.
kiln_status_t kiln_mlir_resolve_operand(kiln_mlir_op_parser_t* p,
                                        const kiln_mlir_operand_t* operand,
                                        const kiln_ir_type_t* type,
                                        kiln_ir_op_state_t* state);
// Resolves |list| with |types| (same count or "N operands present, but
// expected M") and appends them. With |num_types| == 1 every operand gets
// types[0].
kiln_status_t kiln_mlir_resolve_operands(kiln_mlir_op_parser_t* p,
                                         const kiln_mlir_operand_list_t* list,
                                         size_t num_types,
                                         const kiln_ir_type_t* const* types,
                                         kiln_ir_op_state_t* state);
// Resolves |operand| to a value without appending it (for successor
// operands or hooks that need the value itself).
kiln_status_t kiln_mlir_resolve_value(kiln_mlir_op_parser_t* p,
                                      const kiln_mlir_operand_t* operand,
                                      const kiln_ir_type_t* type,
                                      kiln_ir_value_t** out_value);

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

kiln_status_t kiln_mlir_parse_type(kiln_mlir_op_parser_t* p,
                                   const kiln_ir_type_t** out_type);
// `: type`
kiln_status_t kiln_mlir_parse_colon_type(kiln_mlir_op_parser_t* p,
                                         const kiln_ir_type_t** out_type);
// Comma separated types (no delimiters), appended to |list|.
kiln_status_t kiln_mlir_parse_type_list(kiln_mlir_op_parser_t* p,
                                        kiln_mlir_type_list_t* list);
// `: t1, t2`
kiln_status_t kiln_mlir_parse_colon_type_list(kiln_mlir_op_parser_t* p,
                                              kiln_mlir_type_list_t* list);
// `-> t` or `-> (t1, t2)` (also `-> ()`), appended to |list|.
kiln_status_t kiln_mlir_parse_arrow_type_list(kiln_mlir_op_parser_t* p,
                                              kiln_mlir_type_list_t* list);
// A single type or a parenthesized list (function result syntax).
kiln_status_t kiln_mlir_parse_type_or_paren_list(kiln_mlir_op_parser_t* p,
                                                 kiln_mlir_type_list_t* list);
// Adds result types to the state.
kiln_status_t kiln_mlir_add_result_type(kiln_mlir_op_parser_t* p,
                                        kiln_ir_op_state_t* state,
                                        const kiln_ir_type_t* type);
kiln_status_t kiln_mlir_add_result_types(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state,
                                         const kiln_mlir_type_list_t* list);

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// Any attribute. |type| (may be NULL) is the implied type for a literal
// without `: type` (e.g. integers in `dense<...>` contexts).
kiln_status_t kiln_mlir_parse_attribute(kiln_mlir_op_parser_t* p,
                                        const kiln_ir_type_t* type,
                                        const kiln_ir_attribute_t** out_attr);
// `{a = 1, b}` when present: entries are added to the state.
kiln_status_t kiln_mlir_parse_optional_attr_dict(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state);
// `attributes {a = 1}` when present.
kiln_status_t kiln_mlir_parse_optional_attr_dict_with_keyword(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state);
// `<{a = 1}>` when present: entries are added as properties.
kiln_status_t kiln_mlir_parse_optional_properties(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state);
// Adds |attr| to the state as attribute |name|.
kiln_status_t kiln_mlir_add_attribute(kiln_mlir_op_parser_t* p,
                                      kiln_ir_op_state_t* state,
                                      const char* name,
                                      const kiln_ir_attribute_t* attr);

//===----------------------------------------------------------------------===//
// Regions and successors
//===----------------------------------------------------------------------===//

// Parses `{ ... }` into a new detached region. |entry_args| (may be empty)
// become the entry block's arguments and are in scope inside the region
// (the entry block must then have no `^bb(...)` header of its own).
// |isolated| starts a fresh value scope (the op is isolated from above).
kiln_status_t kiln_mlir_parse_region(kiln_mlir_op_parser_t* p,
                                     size_t num_entry_args,
                                     const kiln_mlir_block_arg_t* entry_args,
                                     bool isolated,
                                     kiln_ir_region_t** out_region);
// As above when the next token is '{'; *out_region is NULL otherwise.
kiln_status_t kiln_mlir_parse_optional_region(
    kiln_mlir_op_parser_t* p, size_t num_entry_args,
    const kiln_mlir_block_arg_t* entry_args, bool isolated,
    kiln_ir_region_t** out_region);
// `^bb1` (forward references allowed) into |*out_block|.
kiln_status_t kiln_mlir_parse_successor(kiln_mlir_op_parser_t* p,
                                        kiln_ir_block_t** out_block);
// `^bb1` optionally followed by `(%a, %b : t1, t2)`; adds the successor
// with its operands to the state.
kiln_status_t kiln_mlir_parse_successor_and_operands(kiln_mlir_op_parser_t* p,
                                                     kiln_ir_op_state_t* state);
// `%name: type` (plus optional `loc(...)`) for an entry block argument.
kiln_status_t kiln_mlir_parse_block_arg(kiln_mlir_op_parser_t* p,
                                        kiln_mlir_block_arg_t* out_arg);
// An optional trailing `loc(...)`; *out_loc stays NULL when absent.
kiln_status_t kiln_mlir_parse_optional_location(
    kiln_mlir_op_parser_t* p, const kiln_ir_location_t** out_loc);

// Helpers for the growable lists (arena-backed).
kiln_status_t kiln_mlir_type_list_push(kiln_mlir_op_parser_t* p,
                                       kiln_mlir_type_list_t* list,
                                       const kiln_ir_type_t* type);

// The generic-form parser for the rest of an op (after the quoted name):
// used as the fallback and available to hooks that delegate.
kiln_status_t kiln_mlir_parse_generic_op_body(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_INPUT_MLIR_OP_PARSER_H_
