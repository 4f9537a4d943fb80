// The embedding API: what an application needs to run a compiled kiln
// module, in a few calls (as IREE's runtime/src/iree/runtime does):
//
//   kiln_runtime_session_options_t options =
//   kiln_runtime_session_options_default(); options.device_uri = "local-task";
//   kiln_runtime_session_t* session = NULL;
//   kiln_runtime_session_create(&options, kiln_allocator_system(), &session);
//   kiln_runtime_session_load_module_file(session, "model.kmod");
//   kiln_vm_function_t fn;
//   kiln_runtime_session_lookup_function(session, "predict", &fn);
//   kiln_runtime_session_call(session, fn, args, 1, results, 1);
//   ...
//   kiln_runtime_session_release(session);
//
// A session owns a VM instance, one HAL device (with the vmvx executable
// loader registered), the hal and check native modules, and, once a module
// is loaded, the context linking them (one or several user modules).
// Sessions are independent: there is no global state. Threading: calls may
// run concurrently; create, load and release must not overlap other calls
// on the same session.
#ifndef KILN_RUNTIME_SESSION_SESSION_H_
#define KILN_RUNTIME_SESSION_SESSION_H_

#include "runtime/hal/api.h"
#include "runtime/vm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_runtime_session_t kiln_runtime_session_t;

// User modules one session links at most.
#define KILN_RUNTIME_SESSION_MAX_MODULES 16

typedef struct kiln_runtime_session_options_t {
  // Device URI: "local-sync" or "local-task" (IREE's names).
  const char* device_uri;
  // Worker count, native-code permission, extra executable loaders. The vmvx
  // loader is always added.
  kiln_hal_device_params_t device_params;
  // Optional: called once with the created device; the session uses the
  // device it returns instead (e.g. a replay recording device wrapping it,
  // runtime/hal/replay/recorder.h). The session drops its reference to the
  // original device, so the wrapper must retain it.
  kiln_status_t (*wrap_device)(void* user_data, kiln_hal_device_t* device,
                               kiln_hal_device_t** out_device);
  void* wrap_device_user_data;
  // At most this many bytes live at once through the session's allocator:
  // device buffers, VM buffers and lists, the module and context (0 = no
  // limit). Past it an allocation fails with RESOURCE_EXHAUSTED naming the
  // limit and |allocation_limit_name| (e.g. the flag that set it; NULL:
  // "the session's allocation_limit_bytes").
  uint64_t allocation_limit_bytes;
  const char* allocation_limit_name;
} kiln_runtime_session_options_t;

// local-task with one worker per core; native executables refused.
kiln_runtime_session_options_t kiln_runtime_session_options_default(void);

// Creates a session and its device. Errors name the device URI.
kiln_status_t kiln_runtime_session_create(
    const kiln_runtime_session_options_t* options, kiln_allocator_t allocator,
    kiln_runtime_session_t** out_session);

// Releases the session and everything it owns.
void kiln_runtime_session_release(kiln_runtime_session_t* session);

// Loads a module from |path| ("-" reads standard input) and links it after
// the hal and check modules and the modules loaded before it, so that its
// imports resolve against their exports ("model_a.encode"): several models
// share the session's device. Contexts are immutable, so each load links a
// new context (earlier modules' state, e.g. their globals, starts afresh);
// on failure the session is unchanged. Module names must be unique
// (ALREADY_EXISTS); at most KILN_RUNTIME_SESSION_MAX_MODULES. Not safe
// concurrently with calls on the same session.
kiln_status_t kiln_runtime_session_load_module_file(
    kiln_runtime_session_t* session, const char* path);

// Adds a parameter file (.irpa or safetensors) to the session's parameter
// index, as `--parameters=` does: |value| is `scope=path` or `path` (the
// empty scope). Modules loaded afterwards resolve their parameters from the
// index; loading fails, naming the parameter, when a key is missing or its
// size differs. Add files before loading the modules that use them.
kiln_status_t kiln_runtime_session_add_parameters(
    kiln_runtime_session_t* session, const char* value);

// As above from a module image in memory; |flags| as for
// kiln_vm_bytecode_module_load_memory (copy unless BORROW).
kiln_status_t kiln_runtime_session_load_module_memory(
    kiln_runtime_session_t* session, const void* bytes, size_t length,
    kiln_vm_bytecode_load_flags_t flags);

// Finds exported function |name|: "module.function" only in that module, a
// bare name in the last loaded module that exports it. NOT_FOUND names the
// function and lists the exports of the modules searched.
kiln_status_t kiln_runtime_session_lookup_function(
    kiln_runtime_session_t* session, const char* name,
    kiln_vm_function_t* out_function);

// Calls |function| synchronously: |args| are borrowed, |results| receive
// owned values (release with kiln_vm_values_release). Argument count and
// types are checked against the signature. For a coarse-fences function
// (reflection attribute iree.abi.model = "coarse-fences") pass the wait and
// signal fences as the last two arguments, or use
// kiln_runtime_session_call_async.
kiln_status_t kiln_runtime_session_call(kiln_runtime_session_t* session,
                                        kiln_vm_function_t function,
                                        const kiln_vm_value_t* args,
                                        size_t arg_count,
                                        kiln_vm_value_t* results,
                                        size_t result_count);

// As kiln_runtime_session_call, bounded by |deadline_ns| (absolute, on
// kiln_vm_now_ns's monotonic clock; KILN_VM_DEADLINE_INFINITE (0) for none):
// past it the call fails with DEADLINE_EXCEEDED naming the function, on
// either device, also while one of its dispatches runs (vmvx dispatches stop
// at their next loop iteration, native ones after the running workgroup).
// The device stays usable: work the call submitted has stopped or stops on
// its own, and releasing the session waits for it.
kiln_status_t kiln_runtime_session_call_with_deadline(
    kiln_runtime_session_t* session, kiln_vm_function_t function,
    const kiln_vm_value_t* args, size_t arg_count, kiln_vm_value_t* results,
    size_t result_count, int64_t deadline_ns);

// Calls a coarse-fences function: appends |wait_fence| (may be NULL) and
// |signal_fence| to |args|. The call returns once the work is scheduled;
// the results are ready when |signal_fence| is reached.
kiln_status_t kiln_runtime_session_call_async(
    kiln_runtime_session_t* session, kiln_vm_function_t function,
    const kiln_vm_value_t* args, size_t arg_count, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, kiln_vm_value_t* results,
    size_t result_count);

// True if |function| uses the coarse-fences ABI.
bool kiln_runtime_function_is_async(const kiln_vm_function_t* function);

// Bytes live through the session's allocator now (what the limit counts).
uint64_t kiln_runtime_session_bytes_in_use(kiln_runtime_session_t* s);

// Accessors (borrowed; valid while the session lives). module (the last
// loaded one) and context are NULL until a module is loaded; a context is
// valid until the next load. The allocator is the session's limited one;
// values allocated through it may outlive the session.
kiln_vm_instance_t* kiln_runtime_session_instance(kiln_runtime_session_t* s);
kiln_hal_device_t* kiln_runtime_session_device(kiln_runtime_session_t* s);
kiln_vm_module_t* kiln_runtime_session_module(kiln_runtime_session_t* s);
// User modules in load order (module_at: NULL past the count).
size_t kiln_runtime_session_module_count(kiln_runtime_session_t* s);
kiln_vm_module_t* kiln_runtime_session_module_at(kiln_runtime_session_t* s,
                                                 size_t index);
kiln_vm_context_t* kiln_runtime_session_context(kiln_runtime_session_t* s);
kiln_allocator_t kiln_runtime_session_allocator(kiln_runtime_session_t* s);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_SESSION_SESSION_H_
