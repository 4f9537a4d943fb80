// The op registry: op name -> definition (traits, counts, hooks).
//
// Dialects register their ops into a context. The definition tells the
// verifier what counts/traits to check, and provides optional hooks: a
// verifier, a custom-form parser and printer (used by the MLIR parser and
// the printer), and a folder (used by canonicalization/constant folding).
#ifndef KILN_COMPILER_IR_OP_REGISTRY_H_
#define KILN_COMPILER_IR_OP_REGISTRY_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Declared in compiler/ir/text/op_parser.h (the parser API handed to
// custom parse hooks) and compiler/ir/printer.h.
typedef struct kiln_mlir_op_parser_t kiln_mlir_op_parser_t;
typedef struct kiln_ir_printer_t kiln_ir_printer_t;
typedef struct kiln_ir_builder_t kiln_ir_builder_t;

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

enum {
  // No side effects: may be CSE'd, hoisted, deleted when unused.
  KILN_IR_TRAIT_PURE = 1u << 0,
  // Has side effects that passes must keep in order (check.*, calls, ...).
  KILN_IR_TRAIT_SIDE_EFFECTING = 1u << 1,
  // Must be the last op of its block.
  KILN_IR_TRAIT_TERMINATOR = 1u << 2,
  // Binary op whose operands may be swapped.
  KILN_IR_TRAIT_COMMUTATIVE = 1u << 3,
  // Regions cannot use values defined outside of them (func.func, module).
  KILN_IR_TRAIT_ISOLATED_FROM_ABOVE = 1u << 4,
  // Defines a symbol (has a `sym_name` string attribute).
  KILN_IR_TRAIT_SYMBOL = 1u << 5,
  // Holds a symbol table (builtin.module).
  KILN_IR_TRAIT_SYMBOL_TABLE = 1u << 6,
  // Regions have no terminator requirement (builtin.module body).
  KILN_IR_TRAIT_NO_TERMINATOR = 1u << 7,
  // Produces a constant from its attributes (arith.constant, ...): the
  // folder returns the `value` attribute.
  KILN_IR_TRAIT_CONSTANT_LIKE = 1u << 8,
  // Operands and results all have the same type.
  KILN_IR_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE = 1u << 9,
  // The op's regions are single-block (entry block only).
  KILN_IR_TRAIT_SINGLE_BLOCK = 1u << 10,
  // Returns from its parent op (func.return, stablehlo.return).
  KILN_IR_TRAIT_RETURN_LIKE = 1u << 11,
  // Its lower_to_structured hook handles dynamically shaped tensors (sizes
  // read with tensor.dim at run time); other input ops must be static.
  KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES = 1u << 12,
};

// Marker for "any number" in the count fields.
#define KILN_IR_VARIADIC (-1)

//===----------------------------------------------------------------------===//
// Hooks
//===----------------------------------------------------------------------===//

// One fold result: either a constant attribute or an existing value.
typedef struct kiln_ir_fold_result_t {
  const kiln_ir_attribute_t* attr;
  kiln_ir_value_t* value;
} kiln_ir_fold_result_t;

struct kiln_ir_op_def_t;

// Checks op-specific invariants. Report problems with
// `return kiln_ir_op_emit_error(op, context, "...")` (builder.h), which records
// a diagnostic at the op's location.
typedef kiln_status_t (*kiln_ir_verify_fn_t)(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op);

// Parses the custom form after the op name (`%a, %b : f32` for
// `%c = arith.addf %a, %b : f32`) into |state| (name and location are
// already set; results are bound to names by the parser afterwards).
typedef kiln_status_t (*kiln_ir_parse_fn_t)(kiln_mlir_op_parser_t* parser,
                                            kiln_ir_op_state_t* state);

// Prints the custom form after the op name (the printer has already
// written `%r = op.name`); see printer.h for the API.
typedef void (*kiln_ir_print_fn_t)(kiln_ir_printer_t* printer,
                                   kiln_ir_op_t* op);

// Folds |op| given the constant value of each operand (NULL when not
// constant). On success fills |results| (one per op result) and sets
// |*out_folded|; leaving it false means "no fold".
typedef kiln_status_t (*kiln_ir_fold_fn_t)(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded);

// Rewrites |op| into the structured form (lower-to-structured calls it for
// each op whose definition has one; |b| is set before |op|, at its
// location). Each input's registration sets it for its ops, so the pass
// routes on the definition, never on the name.
typedef kiln_status_t (*kiln_ir_lower_fn_t)(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op);

typedef struct kiln_ir_op_def_t {
  const char* name;     // "stablehlo.add"
  const char* summary;  // one line for --help / docs
  uint32_t traits;      // KILN_IR_TRAIT_*
  // Expected counts (KILN_IR_VARIADIC for any). Operands count only the
  // regular operands (not successor operands).
  int32_t num_operands;
  int32_t num_results;
  int32_t num_regions;
  int32_t num_successors;
  kiln_ir_verify_fn_t verify;  // optional
  kiln_ir_parse_fn_t parse;    // optional: custom form
  kiln_ir_print_fn_t print;    // optional: custom form
  kiln_ir_fold_fn_t fold;      // optional
  void* user_data;             // for the dialect
  // optional: lowering to the structured form (NULL: already structured,
  // or left for later passes).
  kiln_ir_lower_fn_t lower_to_structured;
} kiln_ir_op_def_t;

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

// Registers |def| (not copied: it must outlive the context; static const
// tables are the norm). A later registration of the same name replaces the
// earlier one, so a dialect may override the example hooks.
kiln_status_t kiln_ir_register_op(kiln_ir_context_t* context,
                                  const kiln_ir_op_def_t* def);
// Registers |count| definitions.
kiln_status_t kiln_ir_register_ops(kiln_ir_context_t* context,
                                   const kiln_ir_op_def_t* defs, size_t count);
// Registers |alias| as another spelling of the registered op |canonical|
// (an older name kept by upstream files, e.g. tosa.reduce_prod). Lookups of
// the alias return the canonical definition, so the parser builds the
// canonical op; --list-ops lists only the canonical name.
kiln_status_t kiln_ir_register_op_alias(kiln_ir_context_t* context,
                                        const char* alias,
                                        const char* canonical);
// Looks up a definition (or an alias's canonical one); NULL when unknown.
const kiln_ir_op_def_t* kiln_ir_lookup_op(kiln_ir_context_t* context,
                                          kiln_string_view_t name);
// Calls |fn| for each registered op (in registration order).
void kiln_ir_for_each_op_def(kiln_ir_context_t* context,
                             void (*fn)(void* user_data,
                                        const kiln_ir_op_def_t* def),
                             void* user_data);

// Trait check that is false for unregistered ops.
static inline bool kiln_ir_op_has_trait(const kiln_ir_op_t* op,
                                        uint32_t trait) {
  return op->def && (op->def->traits & trait) == trait;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_OP_REGISTRY_H_
