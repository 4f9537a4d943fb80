// What the run tools (kiln-run-module, kiln-check-module,
// kiln-benchmark-module, kiln-run-mlir) share: a VM instance, the --device
// device, the hal and check modules and the user's module linked into one
// context, and running one function the way iree-run-module does.
#ifndef KILN_TOOLS_COMMON_RUN_CONTEXT_H_
#define KILN_TOOLS_COMMON_RUN_CONTEXT_H_

#include <stdio.h>

#include "runtime/hal/api.h"
#include "runtime/session/session.h"
#include "runtime/vm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

// A session (runtime/session) created from flags, with borrowed aliases of
// its parts for the tools' convenience.
typedef struct kiln_tools_run_context_t {
  kiln_runtime_session_t* session;  // owned
  kiln_allocator_t allocator;
  kiln_hal_device_t* device;
  kiln_vm_module_t* user_module;
  kiln_vm_context_t* context;
} kiln_tools_run_context_t;

// Loads the module named by --module (a path, or "-" for standard input) and
// creates the context on the --device device. On failure everything created
// so far is released and |out| is zeroed.
kiln_status_t kiln_tools_run_context_initialize_from_flags(
    kiln_allocator_t allocator, kiln_tools_run_context_t* out);

// As above, with the created device replaced by what |wrap_device| returns
// (see kiln_runtime_session_options_t.wrap_device), e.g. a replay recorder.
kiln_status_t kiln_tools_run_context_initialize_from_flags_wrapped(
    kiln_allocator_t allocator,
    kiln_status_t (*wrap_device)(void* user_data, kiln_hal_device_t* device,
                                 kiln_hal_device_t** out_device),
    void* wrap_device_user_data, kiln_tools_run_context_t* out);

// As above, from a module image in memory (copied), e.g. one just compiled
// by kiln-run-mlir.
kiln_status_t kiln_tools_run_context_initialize_from_memory(
    kiln_allocator_t allocator, const uint8_t* bytes, size_t length,
    kiln_tools_run_context_t* out);

// Releases everything in |context| (safe on a zeroed one).
void kiln_tools_run_context_deinitialize(kiln_tools_run_context_t* context);

// Looks up exported function |name| of the user module: NOT_FOUND lists the
// module's exports when it is missing.
kiln_status_t kiln_tools_run_context_lookup(kiln_tools_run_context_t* context,
                                            const char* name,
                                            kiln_vm_function_t* out_function);

// Picks the function to run: |name| when non-empty, else the module's only
// export (an error listing the exports when there are several).
kiln_status_t kiln_tools_run_context_pick_function(
    kiln_tools_run_context_t* context, const char* name,
    kiln_vm_function_t* out_function);

// The deadline of a call starting now from --function_timeout_ms (absolute,
// kiln_vm_now_ns; KILN_VM_DEADLINE_INFINITE when the flag is 0).
int64_t kiln_tools_function_deadline_ns(void);

// Runs |function| as iree-run-module does: parses --input, prints
// "EXEC @name", invokes, then prints the results or writes --output, and
// checks --expected_output. |*out_exit_code| is non-zero when an expected
// output did not match. Errors (bad inputs, a failing program) are returned.
kiln_status_t kiln_tools_run_function(kiln_tools_run_context_t* context,
                                      kiln_vm_function_t function, FILE* stream,
                                      int* out_exit_code);

// What kiln-run-module and kiln-run-mlir do once the context exists: picks
// |function_name| (or the only export), runs it with the --input values,
// prints or checks the results, and prints the allocator statistics when
// |print_statistics|. |*out_exit_code| is non-zero on an output mismatch.
kiln_status_t kiln_tools_run_context_run_named(
    kiln_tools_run_context_t* context, const char* function_name,
    bool print_statistics, int* out_exit_code);

// As kiln_tools_run_context_run_named without a name, except that a module
// exporting several functions runs each of them in export order with the
// same --input values (IREE's iree-run-mlir did so, and its older tests
// rely on it); stops at the first error. |*out_exit_code| is non-zero when
// any output mismatched.
kiln_status_t kiln_tools_run_context_run_all(kiln_tools_run_context_t* context,
                                             bool print_statistics,
                                             int* out_exit_code);

// Prints the allocator statistics of the device (--print_statistics).
void kiln_tools_run_context_print_statistics(kiln_tools_run_context_t* context,
                                             FILE* stream);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_TOOLS_COMMON_RUN_CONTEXT_H_
