// kiln's embeddable compiler API: the compiler as a library, for tools, JITs
// and language bindings. kiln-compile, kiln-run-mlir and the Python
// kiln.compiler module are built on it.
//
//   kiln_compiler_global_initialize();
//   session    = flags (the ones kiln-compile takes) and an allocator
//   source     = a file or a memory buffer
//   invocation = one compilation: parse a source, run the pipeline to a
//                phase, write outputs; diagnostics to a callback or a stream
//   output     = a file or a growable memory buffer
//   kiln_compiler_global_shutdown();
//
// Errors: every function that can fail returns a kiln_status_t (NULL is OK;
// free a non-OK one with kiln_status_free). Errors in the program being
// compiled are reported as diagnostics (severity, file:line:col, message)
// while the call runs; the status then says "compilation failed (N errors
// reported)".
//
// Ownership: every object made by a *_create / *_open_* / *_wrap_* function
// is owned by the caller and released with its *_destroy function (NULL is
// allowed there). An invocation must be destroyed before its session; a
// source must outlive the invocations that parse it; outputs are not tied
// to a session.
//
// Threading:
//   - kiln_compiler_global_initialize/shutdown may be called from any thread
//     (they are reference counted), but not concurrently with the last
//     shutdown.
//   - A session is thread-safe: several threads may create invocations and
//     sources from one session, and set its flags, at the same time (an
//     invocation takes a snapshot of the flags when it is created).
//   - A source is immutable once made: several invocations on several
//     threads may parse the same source at once.
//   - An invocation and an output are used by one thread at a time (they may
//     move between threads between calls). Different invocations, of the
//     same session or not, compile concurrently: they share no mutable state
//     (the op registry and target tables are constant or initialized once).
//   - Diagnostic callbacks run on the thread that made the call that emitted
//     them, before that call returns; they must not call back into the
//     invocation.
#ifndef KILN_COMPILER_API_COMPILER_API_H_
#define KILN_COMPILER_API_COMPILER_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Global initialization
//===----------------------------------------------------------------------===//

// The API version: major << 16 | minor. Within a major version functions are
// only added.
#define KILN_COMPILER_API_VERSION_MAJOR 1
#define KILN_COMPILER_API_VERSION_MINOR 0
int kiln_compiler_api_version(void);

// Must be called before any session is created; each call is balanced by a
// kiln_compiler_global_shutdown. Sessions may only exist while at least one
// initialization is open.
kiln_status_t kiln_compiler_global_initialize(void);
void kiln_compiler_global_shutdown(void);

// Calls |callback| with the name of each target backend ("vmvx",
// "llvm-cpu"), in the order --target-backends lists them.
void kiln_compiler_enumerate_target_backends(void (*callback)(void* user_data,
                                                              const char* name),
                                             void* user_data);

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

typedef struct kiln_compiler_session_t kiln_compiler_session_t;

// Creates a session with default flags whose invocations, sources and
// memory outputs allocate from |allocator|. FAILED_PRECONDITION when the
// compiler is not initialized.
kiln_status_t kiln_compiler_session_create(
    kiln_allocator_t allocator, kiln_compiler_session_t** out_session);
void kiln_compiler_session_destroy(kiln_compiler_session_t* session);

// Applies kiln-compile's compiler flags ("--iree-hal-target-backends=vmvx",
// "--output-format=vm-asm", "--compile-to=structured", ...; see
// kiln-compile --help) in order; the strings are copied. A flag that is not
// a compiler flag is NOT_FOUND ("unknown compiler flag '--x'": tools with
// flags of their own tell the two apart), a compiler flag with a bad value
// INVALID_ARGUMENT naming the flag and the choices; the flags before it stay
// applied. As in kiln-compile, --compile-to
// implies --output-format=mlir, and any other output format with it is an
// error.
kiln_status_t kiln_compiler_session_set_flags(kiln_compiler_session_t* session,
                                              int argc,
                                              const char* const* argv);

// True when |flag| ("--name=value" or "--name") is one of kiln-compile's
// compiler flags, whatever its value (a bad value is still the compiler's to
// report), so that a tool with flags of its own (kiln-run-mlir, as
// iree-run-mlir does) can hand it to the compiler. Needs no session.
bool kiln_compiler_is_compiler_flag(const char* flag);

// Calls |on_flag| with every flag applied so far, in order.
void kiln_compiler_session_get_flags(kiln_compiler_session_t* session,
                                     void (*on_flag)(void* user_data,
                                                     const char* flag),
                                     void* user_data);

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

typedef struct kiln_compiler_source_t kiln_compiler_source_t;

// Reads |path| ("-" is stdin, named "<stdin>" in diagnostics) into memory
// the source owns. NOT_FOUND when it cannot be opened.
kiln_status_t kiln_compiler_source_open_file(
    kiln_compiler_session_t* session, const char* path,
    kiln_compiler_source_t** out_source);

// Wraps |length| bytes of MLIR text (or an ONNX model) at |data| named
// |name| in diagnostics (copied). The bytes are not copied: they must stay
// unchanged until the source is destroyed.
kiln_status_t kiln_compiler_source_wrap_buffer(
    kiln_compiler_session_t* session, const char* name, const void* data,
    size_t length, kiln_compiler_source_t** out_source);

void kiln_compiler_source_destroy(kiln_compiler_source_t* source);

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

typedef struct kiln_compiler_output_t kiln_compiler_output_t;

// Creates (truncates) |path| for writing; "-" is stdout. UNAVAILABLE
// ("cannot open 'PATH' for writing") when it cannot be created.
kiln_status_t kiln_compiler_output_open_file(
    const char* path, kiln_compiler_output_t** out_output);

// An output that collects everything written into memory from |allocator|.
kiln_status_t kiln_compiler_output_open_memory(
    kiln_allocator_t allocator, kiln_compiler_output_t** out_output);

// Appends |length| bytes.
kiln_status_t kiln_compiler_output_write(kiln_compiler_output_t* output,
                                         const void* data, size_t length);

// The bytes written so far to a memory output (followed by a NUL that is not
// counted, so text may be read as a C string). Valid until the next write or
// destroy. FAILED_PRECONDITION for a file output.
kiln_status_t kiln_compiler_output_map_memory(kiln_compiler_output_t* output,
                                              const void** out_data,
                                              size_t* out_length);

// Flushes a file output and closes it (stdout is flushed, not closed);
// DATA_LOSS ("error writing 'PATH'") when the bytes did not all reach the
// file. Later writes are FAILED_PRECONDITION. No-op for memory outputs.
kiln_status_t kiln_compiler_output_close(kiln_compiler_output_t* output);

// Closes the output if needed (ignoring errors: call close to see them) and
// frees it.
void kiln_compiler_output_destroy(kiln_compiler_output_t* output);

//===----------------------------------------------------------------------===//
// Invocations
//===----------------------------------------------------------------------===//

typedef struct kiln_compiler_invocation_t kiln_compiler_invocation_t;

typedef enum kiln_compiler_diagnostic_severity_e {
  KILN_COMPILER_DIAGNOSTIC_ERROR = 0,
  KILN_COMPILER_DIAGNOSTIC_WARNING = 1,
  KILN_COMPILER_DIAGNOSTIC_NOTE = 2,
  KILN_COMPILER_DIAGNOSTIC_REMARK = 3,
} kiln_compiler_diagnostic_severity_t;

// One diagnostic. The strings are valid only during the callback.
typedef struct kiln_compiler_diagnostic_t {
  kiln_compiler_diagnostic_severity_t severity;
  // The first file:line:col location of the diagnostic (1-based line and
  // column); file is "" and line, column are 0 when it has none.
  const char* file;
  uint32_t line;
  uint32_t column;
  const char* message;  // without location or severity
} kiln_compiler_diagnostic_t;

typedef void (*kiln_compiler_diagnostic_callback_t)(
    void* user_data, const kiln_compiler_diagnostic_t* diagnostic);

// Creates an invocation with a snapshot of |session|'s flags.
// UNIMPLEMENTED when the flags name a target backend this host cannot use.
kiln_status_t kiln_compiler_invocation_create(
    kiln_compiler_session_t* session,
    kiln_compiler_invocation_t** out_invocation);
void kiln_compiler_invocation_destroy(kiln_compiler_invocation_t* invocation);

// Diagnostics are delivered to |callback| (NULL: none). By default they are
// printed to stderr as kiln-compile prints them (file:line:col: error: ...,
// the source line and a caret); once a callback is set they are printed only
// to a stream set with kiln_compiler_invocation_set_diagnostic_stream.
void kiln_compiler_invocation_set_diagnostic_callback(
    kiln_compiler_invocation_t* invocation,
    kiln_compiler_diagnostic_callback_t callback, void* user_data);
// Prints diagnostics to |stream| (NULL: not printed). The stream must stay
// open while the invocation runs.
void kiln_compiler_invocation_set_diagnostic_stream(
    kiln_compiler_invocation_t* invocation, FILE* stream);
// Where --mlir-print-ir-*, --timing and other dumps go (NULL: stderr).
void kiln_compiler_invocation_set_dump_stream(
    kiln_compiler_invocation_t* invocation, FILE* stream);

// The last phase kiln_compiler_invocation_run_pipeline runs: "input",
// "structured", "form-dispatch-regions", "vmvx-codegen", "schedule" or
// "end" (everything a module needs). Default: the session's --compile-to, else
// "schedule" when --output-format=mlir, else "end" (what kiln-compile does).
// INVALID_ARGUMENT for an unknown phase.
kiln_status_t kiln_compiler_invocation_set_compile_to_phase(
    kiln_compiler_invocation_t* invocation, const char* phase);

// Parses and verifies |source|. Once per invocation. A source that holds
// nothing but whitespace is INVALID_ARGUMENT ("input 'NAME' is empty"): an
// empty module from it would hide a wrong path or a failed pipe.
kiln_status_t kiln_compiler_invocation_parse_source(
    kiln_compiler_invocation_t* invocation, kiln_compiler_source_t* source);

// Runs the pipeline on the parsed program up to the compile-to phase. Once
// per invocation, after a successful parse.
kiln_status_t kiln_compiler_invocation_run_pipeline(
    kiln_compiler_invocation_t* invocation);

// Writes what the session's --output-format asks for (a .kmod module by
// default) to |output|.
kiln_status_t kiln_compiler_invocation_output(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output);
// Writes the IR as it stands (after parse_source or run_pipeline) as MLIR
// text, with the session's --mlir-print-* flags.
kiln_status_t kiln_compiler_invocation_output_ir(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output);
// Writes the .kmod module image; the pipeline must have run to "end".
kiln_status_t kiln_compiler_invocation_output_module(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output);
// Writes the host module's VM assembly text; the pipeline must have run to
// "end".
kiln_status_t kiln_compiler_invocation_output_vm_asm(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_API_COMPILER_API_H_
