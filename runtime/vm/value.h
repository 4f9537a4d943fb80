// VM values: the typed scalars and refs that cross function boundaries
// (invocation arguments and results, native call arguments, list elements),
// and the function signature strings that describe them.
#ifndef KILN_RUNTIME_VM_VALUE_H_
#define KILN_RUNTIME_VM_VALUE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// kiln_vm_value_t
//===----------------------------------------------------------------------===//

// The five value types of the VM; each has its own register bank in bytecode.
// The numeric values are part of the module format (bytecode register lists).
typedef enum kiln_vm_value_type_e {
  KILN_VM_VALUE_TYPE_NONE = 0,
  KILN_VM_VALUE_TYPE_I32 = 1,
  KILN_VM_VALUE_TYPE_I64 = 2,
  KILN_VM_VALUE_TYPE_F32 = 3,
  KILN_VM_VALUE_TYPE_F64 = 4,
  KILN_VM_VALUE_TYPE_REF = 5,
} kiln_vm_value_type_t;

// A tagged value. For REF the pointer may be NULL (a null ref). Whether a ref
// in a value is owned (retained) depends on where it sits; every API that
// takes or returns values says so.
typedef struct kiln_vm_value_t {
  kiln_vm_value_type_t type;
  union {
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    kiln_ref_object_t* ref;
  };
} kiln_vm_value_t;

static inline kiln_vm_value_t kiln_vm_value_make_none(void) {
  kiln_vm_value_t v;
  v.type = KILN_VM_VALUE_TYPE_NONE;
  v.i64 = 0;
  return v;
}
static inline kiln_vm_value_t kiln_vm_value_make_i32(int32_t x) {
  kiln_vm_value_t v;
  v.type = KILN_VM_VALUE_TYPE_I32;
  v.i64 = 0;
  v.i32 = x;
  return v;
}
static inline kiln_vm_value_t kiln_vm_value_make_i64(int64_t x) {
  kiln_vm_value_t v;
  v.type = KILN_VM_VALUE_TYPE_I64;
  v.i64 = x;
  return v;
}
static inline kiln_vm_value_t kiln_vm_value_make_f32(float x) {
  kiln_vm_value_t v;
  v.type = KILN_VM_VALUE_TYPE_F32;
  v.i64 = 0;
  v.f32 = x;
  return v;
}
static inline kiln_vm_value_t kiln_vm_value_make_f64(double x) {
  kiln_vm_value_t v;
  v.type = KILN_VM_VALUE_TYPE_F64;
  v.f64 = x;
  return v;
}
// Wraps |ref| WITHOUT retaining it (a borrowed value, e.g. an argument).
static inline kiln_vm_value_t kiln_vm_value_make_ref(void* ref) {
  kiln_vm_value_t v;
  v.type = KILN_VM_VALUE_TYPE_REF;
  v.ref = (kiln_ref_object_t*)ref;
  return v;
}
// Wraps |ref| and retains it (an owned value, e.g. a native call result).
static inline kiln_vm_value_t kiln_vm_value_make_ref_retain(void* ref) {
  kiln_ref_retain(ref);
  return kiln_vm_value_make_ref(ref);
}

// Releases the ref of an owned value (if any) and resets it to NONE.
void kiln_vm_value_release(kiln_vm_value_t* value);
// kiln_vm_value_release over an array.
void kiln_vm_values_release(kiln_vm_value_t* values, size_t count);

// "i32", "i64", "f32", "f64", "ref" or "none".
const char* kiln_vm_value_type_name(kiln_vm_value_type_t type);
// Signature character of |type|: 'i', 'I', 'f', 'F', 'r' (0 for NONE).
char kiln_vm_value_type_char(kiln_vm_value_type_t type);
// Inverse of kiln_vm_value_type_char; NONE for any other character.
kiln_vm_value_type_t kiln_vm_value_type_from_char(char c);

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//
// A function signature is a string of type characters: the arguments, "->",
// the results: 'i' i32, 'I' i64, 'f' f32, 'F' f64, 'r' ref. Examples:
// "rI->r", "->". An IMPORT (or a native function) may end its arguments with
// "..." meaning "any number of further values of any type" ("r...->i"); the
// callee checks them. Bytecode functions are never variadic.

typedef struct kiln_vm_signature_t {
  kiln_string_view_t args;     // type chars of the fixed arguments
  kiln_string_view_t results;  // type chars of the results
  bool variadic;               // args ended with "..."
} kiln_vm_signature_t;

// Parses and validates |signature|; INVALID_ARGUMENT naming the bad character
// otherwise. The views in |out| point into |signature|.
kiln_status_t kiln_vm_signature_parse(kiln_string_view_t signature,
                                      kiln_vm_signature_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_VALUE_H_
