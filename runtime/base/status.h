// Status: the result of every kiln operation that can fail.
//
// A status is either OK (represented by NULL, so the success path costs
// nothing) or a heap object holding a code, a message, the source location
// that created it and a chain of annotations added as the error propagates
// outward. The caller that receives a non-OK status owns it: it must either
// return it (propagate), or free it with kiln_status_free / consume it.
#ifndef KILN_RUNTIME_BASE_STATUS_H_
#define KILN_RUNTIME_BASE_STATUS_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Status codes
//===----------------------------------------------------------------------===//

// Codes follow the canonical gRPC/absl set, as IREE's do, so that users know
// what each means without reading our docs.
typedef enum kiln_status_code_e {
  KILN_STATUS_OK = 0,
  KILN_STATUS_CANCELLED = 1,
  KILN_STATUS_UNKNOWN = 2,
  KILN_STATUS_INVALID_ARGUMENT = 3,
  KILN_STATUS_DEADLINE_EXCEEDED = 4,
  KILN_STATUS_NOT_FOUND = 5,
  KILN_STATUS_ALREADY_EXISTS = 6,
  KILN_STATUS_PERMISSION_DENIED = 7,
  KILN_STATUS_RESOURCE_EXHAUSTED = 8,
  KILN_STATUS_FAILED_PRECONDITION = 9,
  KILN_STATUS_ABORTED = 10,
  KILN_STATUS_OUT_OF_RANGE = 11,
  KILN_STATUS_UNIMPLEMENTED = 12,
  KILN_STATUS_INTERNAL = 13,
  KILN_STATUS_UNAVAILABLE = 14,
  KILN_STATUS_DATA_LOSS = 15,
  KILN_STATUS_UNAUTHENTICATED = 16,
} kiln_status_code_t;

// Opaque status object; NULL is OK.
typedef struct kiln_status_object_t* kiln_status_t;

// Returns the OK status.
#define kiln_ok_status() ((kiln_status_t)NULL)

// Creates a status with |code| (must not be OK) and a printf-style message,
// recording the caller's file and line. Never returns NULL: if memory for the
// status cannot be allocated a static out-of-memory status is returned.
#define kiln_make_status(code, ...) \
  kiln_status_allocate_f((code), __FILE__, __LINE__, __VA_ARGS__)

kiln_status_t kiln_status_allocate_f(kiln_status_code_t code, const char* file,
                                     int line, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
kiln_status_t kiln_status_allocate_vf(kiln_status_code_t code, const char* file,
                                      int line, const char* format,
                                      va_list args);

// Appends an annotation ("; <message>") to |status| and returns it. OK
// statuses pass through untouched so that this can wrap any expression.
kiln_status_t kiln_status_annotate_f(kiln_status_t status, const char* format,
                                     ...) __attribute__((format(printf, 2, 3)));

// Returns the code of |status| (KILN_STATUS_OK for NULL).
kiln_status_code_t kiln_status_code(kiln_status_t status);

// Returns the message of |status| including annotations ("" for OK). The
// pointer lives as long as the status.
const char* kiln_status_message(kiln_status_t status);

// Returns the canonical upper-case name of |code| ("INVALID_ARGUMENT").
const char* kiln_status_code_string(kiln_status_code_t code);

// True when |status| is OK.
static inline bool kiln_status_is_ok(kiln_status_t status) {
  return status == NULL;
}

// Frees |status| (no-op for OK or the static out-of-memory status).
void kiln_status_free(kiln_status_t status);

// Frees |status| and returns its code: for callers that only branch on it.
kiln_status_code_t kiln_status_consume_code(kiln_status_t status);

// Returns a deep copy, for fan-out of one failure to several waiters.
kiln_status_t kiln_status_clone(kiln_status_t status);

// Formats "<file>:<line>: <CODE>; <message>" into a new heap string the caller
// frees with free(); NULL on allocation failure.
char* kiln_status_format(kiln_status_t status);

// Prints |status| as kiln_status_format does, with a newline, to |stream|.
void kiln_status_fprint(FILE* stream, kiln_status_t status);

// Tools' convention: prints "Error: <message>" style output to stderr without
// source locations of kiln internals (users care about what, not where in our
// code), frees the status and returns the process exit code (0 or 1).
int kiln_status_report_and_exit_code(kiln_status_t status);

//===----------------------------------------------------------------------===//
// Propagation helpers
//===----------------------------------------------------------------------===//

// Evaluates |expr|; on failure returns the status from the enclosing function.
#define KILN_RETURN_IF_ERROR(expr)                   \
  do {                                               \
    kiln_status_t kiln_status__ = (expr);            \
    if (kiln_status__ != NULL) return kiln_status__; \
  } while (0)

// Like KILN_RETURN_IF_ERROR but annotates the status with a formatted note.
#define KILN_RETURN_AND_ANNOTATE_IF_ERROR(expr, ...)             \
  do {                                                           \
    kiln_status_t kiln_status__ = (expr);                        \
    if (kiln_status__ != NULL)                                   \
      return kiln_status_annotate_f(kiln_status__, __VA_ARGS__); \
  } while (0)

// Returns an error from the enclosing function unless |cond| holds.
#define KILN_RETURN_IF_FALSE(cond, code, ...)                  \
  do {                                                         \
    if (!(cond)) return kiln_make_status((code), __VA_ARGS__); \
  } while (0)

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_STATUS_H_
