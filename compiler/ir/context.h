// IR context: the owner of everything the compiler's IR is made of.
//
// A context holds an arena (every op, block, region, value, type, attribute
// and string of the IR lives in it and is freed at once when the context is
// destroyed), the interned strings (identifiers, op names), the uniqued
// types, the op registry (op name -> definition) and the diagnostics that
// parsing, verification and passes emit.
//
// Ownership rule: nothing created through a context is freed individually.
// Erased ops simply become unreachable; the arena reclaims them with the
// context. This keeps passes simple and leak-free.
//
// Out of memory: functions that return a pointer return NULL only when the
// arena cannot grow; the context then remembers a sticky RESOURCE_EXHAUSTED
// error (kiln_ir_context_take_error) so that callers may check once at the
// end of a phase instead of after each allocation.
#ifndef KILN_COMPILER_IR_CONTEXT_H_
#define KILN_COMPILER_IR_CONTEXT_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_ir_context_t kiln_ir_context_t;

//===----------------------------------------------------------------------===//
// Context lifetime
//===----------------------------------------------------------------------===//

// Creates an empty context (no ops registered) using |allocator| for its
// arena blocks and tables.
kiln_status_t kiln_ir_context_create(kiln_allocator_t allocator,
                                     kiln_ir_context_t** out_context);

// Frees the context and everything created through it. NULL is allowed.
void kiln_ir_context_destroy(kiln_ir_context_t* context);

// Returns (and clears) the sticky out-of-memory error, or OK.
kiln_status_t kiln_ir_context_take_error(kiln_ir_context_t* context);

// When false (the default, as in mlir-opt), the parser and verifier reject
// ops whose name is not registered ("unregistered operation 'x.y'").
// When true, unknown ops in generic form are kept as opaque ops.
void kiln_ir_context_set_allow_unregistered_ops(kiln_ir_context_t* context,
                                                bool allow);
bool kiln_ir_context_allow_unregistered_ops(const kiln_ir_context_t* context);

//===----------------------------------------------------------------------===//
// Arena and interned strings
//===----------------------------------------------------------------------===//

// Allocates |size| zero-filled bytes aligned to 16 that live as long as the
// context. NULL only on out of memory (sticky error recorded).
void* kiln_ir_arena_alloc(kiln_ir_context_t* context, size_t size);

// As kiln_ir_arena_alloc, but the bytes are not zeroed: for buffers the
// caller fills at once (dense data: zeroing hundreds of megabytes of
// weights first costs as much as writing them).
void* kiln_ir_arena_alloc_uninitialized(kiln_ir_context_t* context,
                                        size_t size);

// Copies |size| bytes of |data| into the arena.
void* kiln_ir_arena_dup(kiln_ir_context_t* context, const void* data,
                        size_t size);

// Formats a NUL-terminated string into the arena.
char* kiln_ir_arena_printf(kiln_ir_context_t* context, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
char* kiln_ir_arena_vprintf(kiln_ir_context_t* context, const char* format,
                            va_list args);

// Interns |text|: returns a view whose data pointer is the same for equal
// contents (so identifiers compare by pointer) and which is NUL-terminated
// (data[size] == 0), usable as a C string. Empty view on out of memory.
kiln_string_view_t kiln_ir_intern(kiln_ir_context_t* context,
                                  kiln_string_view_t text);
kiln_string_view_t kiln_ir_intern_cstr(kiln_ir_context_t* context,
                                       const char* text);

// True when two interned views are the same string (pointer compare).
static inline bool kiln_ir_ident_eq(kiln_string_view_t a,
                                    kiln_string_view_t b) {
  return a.data == b.data && a.size == b.size;
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_location_kind_e {
  KILN_IR_LOC_UNKNOWN = 0,   // loc(unknown)
  KILN_IR_LOC_FILE = 1,      // loc("file":line:col)
  KILN_IR_LOC_NAME = 2,      // loc("name") or loc("name"(child))
  KILN_IR_LOC_FUSED = 3,     // loc(fused[a, b]) / loc(fused<#attr>[a, b])
  KILN_IR_LOC_CALLSITE = 4,  // loc(callsite(callee at caller)): children 0, 1
} kiln_ir_location_kind_t;

// An immutable source location. |file| and |name| are interned.
typedef struct kiln_ir_location_t {
  kiln_ir_location_kind_t kind;
  kiln_string_view_t file;  // FILE
  uint32_t line;            // FILE, 1-based
  uint32_t column;          // FILE, 1-based
  kiln_string_view_t name;  // NAME
  size_t num_children;      // NAME (0 or 1), FUSED, CALLSITE (2)
  const struct kiln_ir_location_t* const* children;
} kiln_ir_location_t;

// The shared unknown location (never NULL).
const kiln_ir_location_t* kiln_ir_location_unknown(kiln_ir_context_t* context);
// A file:line:col location.
const kiln_ir_location_t* kiln_ir_location_file(kiln_ir_context_t* context,
                                                kiln_string_view_t file,
                                                uint32_t line, uint32_t column);
// A fused location over |count| children.
const kiln_ir_location_t* kiln_ir_location_fused(
    kiln_ir_context_t* context, size_t count,
    const kiln_ir_location_t* const* children);
// A named location with an optional child (NULL for none).
const kiln_ir_location_t* kiln_ir_location_name(
    kiln_ir_context_t* context, kiln_string_view_t name,
    const kiln_ir_location_t* child);
// A call site location.
const kiln_ir_location_t* kiln_ir_location_callsite(
    kiln_ir_context_t* context, const kiln_ir_location_t* callee,
    const kiln_ir_location_t* caller);

// Returns the first file:line:col location found in |loc| (itself, or the
// first such child, depth first), or NULL. Diagnostics use it.
const kiln_ir_location_t* kiln_ir_location_find_file(
    const kiln_ir_location_t* loc);

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_severity_e {
  KILN_IR_SEVERITY_ERROR = 0,
  KILN_IR_SEVERITY_WARNING = 1,
  KILN_IR_SEVERITY_NOTE = 2,
  KILN_IR_SEVERITY_REMARK = 3,
} kiln_ir_severity_t;

// One diagnostic: where, how bad and what. Lives in the context arena.
typedef struct kiln_ir_diagnostic_t {
  kiln_ir_severity_t severity;
  const kiln_ir_location_t* location;
  const char* message;
} kiln_ir_diagnostic_t;

// Called for each diagnostic as it is emitted (after it is recorded).
typedef void (*kiln_ir_diagnostic_handler_t)(
    void* user_data, kiln_ir_context_t* context,
    const kiln_ir_diagnostic_t* diagnostic);

// Installs a handler (NULL removes it). Diagnostics are always collected in
// the context as well, so tests can read them back.
void kiln_ir_context_set_diagnostic_handler(
    kiln_ir_context_t* context, kiln_ir_diagnostic_handler_t handler,
    void* user_data);

// Records a diagnostic. Returns INVALID_ARGUMENT for errors (carrying the
// formatted "file:line:col: error: message" text) so that callers can
// `return kiln_ir_emit_error(...)`; returns OK for other severities.
kiln_status_t kiln_ir_emit_diagnostic(kiln_ir_context_t* context,
                                      kiln_ir_severity_t severity,
                                      const kiln_ir_location_t* location,
                                      const char* format, ...)
    __attribute__((format(printf, 4, 5)));
kiln_status_t kiln_ir_emit_diagnostic_v(kiln_ir_context_t* context,
                                        kiln_ir_severity_t severity,
                                        const kiln_ir_location_t* location,
                                        const char* format, va_list args);
// Shorthand for an error diagnostic.
kiln_status_t kiln_ir_emit_error(kiln_ir_context_t* context,
                                 const kiln_ir_location_t* location,
                                 const char* format, ...)
    __attribute__((format(printf, 3, 4)));

// The collected diagnostics, oldest first.
size_t kiln_ir_context_diagnostic_count(const kiln_ir_context_t* context);
const kiln_ir_diagnostic_t* kiln_ir_context_diagnostic(
    const kiln_ir_context_t* context, size_t index);
// Number of collected error diagnostics.
size_t kiln_ir_context_error_count(const kiln_ir_context_t* context);
// Forgets the collected diagnostics.
void kiln_ir_context_clear_diagnostics(kiln_ir_context_t* context);

// Registers the text of a source buffer so that diagnostics can quote the
// offending line. |first_line| is the line number of the buffer's first line
// (1 normally; larger for --split-input-file chunks). The text is copied.
void kiln_ir_context_add_source(kiln_ir_context_t* context,
                                kiln_string_view_t file, const char* text,
                                size_t size, uint32_t first_line);

// Prints |diagnostic| as MLIR does:
//   file:line:col: error: message
//   <the source line>
//   <spaces>^
// (the two quote lines only when the source is registered).
void kiln_ir_diagnostic_print(kiln_ir_context_t* context,
                              const kiln_ir_diagnostic_t* diagnostic,
                              FILE* stream);
// Prints every collected diagnostic with kiln_ir_diagnostic_print.
void kiln_ir_context_print_diagnostics(kiln_ir_context_t* context,
                                       FILE* stream);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_CONTEXT_H_
