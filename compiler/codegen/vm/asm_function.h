// A small helper for emitting one VM-assembly function: register
// allocation per bank, labels, a prologue for hoisted constants and the
// body text. Shared by vmvx-codegen (executable entry points) and
// vm-emission (host functions). Syntax: docs/.../vm-bytecode.md.
#ifndef KILN_COMPILER_CODEGEN_VM_ASM_FUNCTION_H_
#define KILN_COMPILER_CODEGEN_VM_ASM_FUNCTION_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/printer.h"
#include "runtime/vm/bytecode_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_ASM_MAX_CONSTS 512

typedef struct kiln_asm_const_t {
  int bank;
  uint64_t bits;
  uint32_t reg;
} kiln_asm_const_t;

typedef struct kiln_asm_function_t {
  kiln_ir_string_builder_t prologue;  // constants, hoisted to the entry
  kiln_ir_string_builder_t body;
  uint32_t next_reg[KILN_VM_BANK_COUNT];
  uint32_t next_label;
  size_t num_consts;
  kiln_asm_const_t consts[KILN_ASM_MAX_CONSTS];
} kiln_asm_function_t;

// Starts a function whose first registers of each bank hold the arguments
// described by the signature |args| ("rrriiiiii").
void kiln_asm_function_init(kiln_asm_function_t* f, const char* args);
void kiln_asm_function_deinit(kiln_asm_function_t* f);

// A fresh register of |bank|.
uint32_t kiln_asm_reg(kiln_asm_function_t* f, int bank);
// A fresh label number (printed ^L<n>).
uint32_t kiln_asm_label(kiln_asm_function_t* f);

// Appends one instruction line to the body ("  " + text + "\n").
void kiln_asm_emit(kiln_asm_function_t* f, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
// Places label |label| here.
void kiln_asm_place_label(kiln_asm_function_t* f, uint32_t label);

// Registers holding constants, defined once in the prologue.
uint32_t kiln_asm_const_i32(kiln_asm_function_t* f, int32_t value);
uint32_t kiln_asm_const_i64(kiln_asm_function_t* f, int64_t value);
uint32_t kiln_asm_const_f32(kiln_asm_function_t* f, float value);
uint32_t kiln_asm_const_f64(kiln_asm_function_t* f, double value);

// Writes `func @name : sig [export] {` + prologue + body + `}` to |out|.
// |attrs| (may be NULL) is inserted after the header line verbatim.
void kiln_asm_function_finish(kiln_asm_function_t* f, const char* name,
                              const char* signature, bool exported,
                              const char* attrs, kiln_ir_string_builder_t* out);

// Appends |text| quoted as an assembly string literal.
void kiln_asm_quote(kiln_ir_string_builder_t* out, const char* text,
                    size_t length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_CODEGEN_VM_ASM_FUNCTION_H_
