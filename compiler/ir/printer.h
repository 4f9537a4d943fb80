// MLIR-syntax printer: generic form for every op, custom form through the
// op definitions' print hooks. Output round-trips through the parser.
#ifndef KILN_COMPILER_IR_PRINTER_H_
#define KILN_COMPILER_IR_PRINTER_H_

#include <stdio.h>

#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_ir_print_options_t {
  bool generic;          // --mlir-print-op-generic: never use print hooks
  bool print_locations;  // --mlir-print-debuginfo: append loc(...)
  // --mlir-elide-elementsattrs-if-larger=N: dense constants of more than N
  // elements print as dense_resource<__elided__> (0: never).
  int64_t elide_elements_larger_than;
} kiln_ir_print_options_t;

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

// Prints |op| (normally a builtin.module) and a trailing newline to |stream|.
kiln_status_t kiln_ir_print_op(kiln_ir_context_t* context, kiln_ir_op_t* op,
                               const kiln_ir_print_options_t* options,
                               FILE* stream);
// Prints |op| into a malloc'ed NUL-terminated string (*out_text; the caller
// frees it with free()).
kiln_status_t kiln_ir_print_op_to_string(kiln_ir_context_t* context,
                                         kiln_ir_op_t* op,
                                         const kiln_ir_print_options_t* options,
                                         char** out_text);

//===----------------------------------------------------------------------===//
// API for custom print hooks (kiln_ir_print_fn_t)
//===----------------------------------------------------------------------===//

kiln_ir_context_t* kiln_ir_printer_context(kiln_ir_printer_t* p);
// Raw text.
void kiln_ir_printer_printf(kiln_ir_printer_t* p, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void kiln_ir_printer_print_str(kiln_ir_printer_t* p, kiln_string_view_t text);
// `%name` of a value (numbered per isolated scope).
void kiln_ir_printer_print_value(kiln_ir_printer_t* p,
                                 const kiln_ir_value_t* value);
// The regular operands, comma separated: `%a, %b`.
void kiln_ir_printer_print_operands(kiln_ir_printer_t* p, kiln_ir_op_t* op);
void kiln_ir_printer_print_type(kiln_ir_printer_t* p,
                                const kiln_ir_type_t* type);
// Comma separated types; parenthesized when |parens| (or when count != 1
// and |parens_if_not_one|).
void kiln_ir_printer_print_type_list(kiln_ir_printer_t* p, size_t count,
                                     const kiln_ir_type_t* const* types,
                                     bool parens);
// `(operand types) -> result type(s)` of |op|.
void kiln_ir_printer_print_functional_type(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op);
// Result types: `t` for one, `(t1, t2)` otherwise.
void kiln_ir_printer_print_result_types(kiln_ir_printer_t* p, kiln_ir_op_t* op);
void kiln_ir_printer_print_attribute(kiln_ir_printer_t* p,
                                     const kiln_ir_attribute_t* attr);
// Prints an attribute without its `: type` suffix when it has one.
void kiln_ir_printer_print_attribute_no_type(kiln_ir_printer_t* p,
                                             const kiln_ir_attribute_t* attr);
// ` {a = 1, b}` for |op|'s attributes minus |elided| names; nothing when
// empty. Properties are printed here too (custom forms merge them).
void kiln_ir_printer_print_attr_dict(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                     const char* const* elided,
                                     size_t num_elided);
// As above but spelled ` attributes {…}` (func.func, module).
void kiln_ir_printer_print_attr_dict_with_keyword(kiln_ir_printer_t* p,
                                                  kiln_ir_op_t* op,
                                                  const char* const* elided,
                                                  size_t num_elided);
// A region in braces. |print_entry_args| prints the entry block header
// `^bb0(%a: t):` (custom forms that show the arguments elsewhere pass
// false); blocks after the entry always get their headers.
void kiln_ir_printer_print_region(kiln_ir_printer_t* p,
                                  kiln_ir_region_t* region,
                                  bool print_entry_args);
// `^bbN` or `^bbN(%a : t)` for successor |index| of |op|.
void kiln_ir_printer_print_successor(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                     uint32_t index);
// `%arg0: tensor<4xf32>` for a block argument (declaration form).
void kiln_ir_printer_print_arg_decl(kiln_ir_printer_t* p,
                                    const kiln_ir_value_t* arg);
// A newline and the current indentation.
void kiln_ir_printer_newline(kiln_ir_printer_t* p);
// The options in effect.
const kiln_ir_print_options_t* kiln_ir_printer_options(kiln_ir_printer_t* p);

// Appends MLIR syntax of a type / attribute to a growing malloc'ed buffer
// (used by kiln_ir_type_to_string and friends).
typedef struct kiln_ir_string_builder_t {
  char* data;
  size_t size;
  size_t capacity;
  bool failed;  // allocation failed at some point
  // Dense constants above this many elements print elided (0: never); set
  // by the IR printer from kiln_ir_print_options_t.
  int64_t elide_elements_larger_than;
} kiln_ir_string_builder_t;
void kiln_ir_sb_printf(kiln_ir_string_builder_t* sb, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void kiln_ir_sb_append(kiln_ir_string_builder_t* sb, const char* data,
                       size_t size);
void kiln_ir_sb_free(kiln_ir_string_builder_t* sb);
void kiln_ir_sb_print_type(kiln_ir_string_builder_t* sb,
                           const kiln_ir_type_t* type);
void kiln_ir_sb_print_attribute(kiln_ir_string_builder_t* sb,
                                const kiln_ir_attribute_t* attr,
                                bool with_type);
// A float value spelled so that it reads back to the same bits (|kind|
// rounding): shortest %.Ng that round-trips, else hex `0x...` bits.
void kiln_ir_sb_print_float(kiln_ir_string_builder_t* sb,
                            kiln_ir_float_kind_t kind, uint64_t bits);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_PRINTER_H_
