// Contexts and invocations.
//
// A context links an ordered list of modules: each module's imports
// ("module.function") are resolved against the exports of EARLIER modules,
// with exact signature match (a variadic import matches an export declared
// with the same variadic signature). The context owns every module's
// per-context state. Once created it is immutable, so any number of threads
// may invoke functions in it concurrently; each invocation has its own stack.
#ifndef KILN_RUNTIME_VM_CONTEXT_H_
#define KILN_RUNTIME_VM_CONTEXT_H_

#include "runtime/vm/list.h"
#include "runtime/vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_vm_context_t kiln_vm_context_t;

// Creates a context from |modules| (retained) in link order. Errors:
// NOT_FOUND "import 'hal.foo' of module 'main' not found (modules: ...)",
// INVALID_ARGUMENT "import 'hal.foo' of module 'main' expects signature
// 'r->i' but 'hal.foo' has 'r->I'".
// Once every module is linked, each module that exports a function named
// "__init" (no arguments; results are ignored) has it run once, in link
// order; an error from it fails the creation, annotated "module 'm'
// initializer '__init' failed; context not created".
kiln_status_t kiln_vm_context_create(kiln_vm_instance_t* instance,
                                     kiln_vm_module_t* const* modules,
                                     size_t module_count,
                                     kiln_allocator_t allocator,
                                     kiln_vm_context_t** out_context);
void kiln_vm_context_retain(kiln_vm_context_t* context);
void kiln_vm_context_release(kiln_vm_context_t* context);

size_t kiln_vm_context_module_count(const kiln_vm_context_t* context);
kiln_vm_module_t* kiln_vm_context_module_at(const kiln_vm_context_t* context,
                                            size_t index);
// The state of |module| in |context| (NOT_FOUND if not linked).
kiln_status_t kiln_vm_context_module_state(const kiln_vm_context_t* context,
                                           const kiln_vm_module_t* module,
                                           void** out_state);

// Finds an exported function by "module.function" or, for a bare
// "function", in the LAST module that exports it. NOT_FOUND: "function 'foo'
// not found in module 'bar'" / "... in context".
kiln_status_t kiln_vm_context_lookup_function_by_name(
    const kiln_vm_context_t* context, kiln_string_view_t name,
    kiln_vm_function_t* out_function);

//===----------------------------------------------------------------------===//
// Invocation
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_invoke_options_t {
  // Absolute deadline (kiln_vm_now_ns), 0 = none. Checked on backward
  // branches, calls and waits: DEADLINE_EXCEEDED once passed.
  int64_t deadline_ns;
  // Maximum call depth (frames); 0 = default (1024). RESOURCE_EXHAUSTED
  // beyond it.
  uint32_t max_call_depth;
  // When non-NULL, every bytecode instruction is printed here as it is about
  // to execute (IREE's --trace_execution): "[module.function+pc]
  // instruction" and the values its register operands hold. Calls into
  // other bytecode modules are traced too; executables (vmvx workgroups)
  // are not. Slow: for debugging only.
  FILE* trace_execution;
} kiln_vm_invoke_options_t;

// Calls exported |function| of a module linked in |context|. |args| are
// borrowed; their count and types must match the signature (INVALID_ARGUMENT:
// "function 'foo' expects 3 arguments, got 2", "argument 1 of 'foo' must be
// i64, got f32"). |result_count| must equal the number of results; on
// success |results| holds owned values (release them with
// kiln_vm_values_release). On failure no results are set. Errors raised
// inside (fail ops, native errors, out-of-range accesses) are annotated with
// a short backtrace: "at main.foo+0x12; at main.bar+0x40". |options| may be
// NULL.
kiln_status_t kiln_vm_invoke(kiln_vm_context_t* context,
                             kiln_vm_function_t function,
                             const kiln_vm_value_t* args, size_t arg_count,
                             kiln_vm_value_t* results, size_t result_count,
                             const kiln_vm_invoke_options_t* options);

// As kiln_vm_invoke with arguments taken from |args| (may be NULL when there
// are none) and results APPENDED to |results| (may be NULL when there are
// none).
kiln_status_t kiln_vm_invoke_list(kiln_vm_context_t* context,
                                  kiln_vm_function_t function,
                                  kiln_vm_list_t* args, kiln_vm_list_t* results,
                                  const kiln_vm_invoke_options_t* options);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_CONTEXT_H_
