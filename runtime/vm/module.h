// The VM's module interface: every module (bytecode modules loaded from a
// .kmod file, native modules written in C such as hal and check) implements
// this vtable, so a context links and calls them the same way.
//
// A module is read-only and shareable: code, data and metadata. Anything
// mutable lives in a per-context module STATE created by the module.
#ifndef KILN_RUNTIME_VM_MODULE_H_
#define KILN_RUNTIME_VM_MODULE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/vm/value.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// kiln_vm_instance_t
//===----------------------------------------------------------------------===//

// The root object of a VM: holds the allocator used for contexts and
// invocations. Several instances may coexist; there is no global state.
typedef struct kiln_vm_instance_t kiln_vm_instance_t;

// Creates an instance with one reference.
kiln_status_t kiln_vm_instance_create(kiln_allocator_t allocator,
                                      kiln_vm_instance_t** out_instance);
void kiln_vm_instance_retain(kiln_vm_instance_t* instance);
void kiln_vm_instance_release(kiln_vm_instance_t* instance);
kiln_allocator_t kiln_vm_instance_allocator(const kiln_vm_instance_t* instance);

// Monotonic clock (CLOCK_MONOTONIC) in nanoseconds: the time base of
// deadlines in this API.
int64_t kiln_vm_now_ns(void);

// Deadline value meaning "no deadline".
#define KILN_VM_DEADLINE_INFINITE INT64_C(0)

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_module_t kiln_vm_module_t;

typedef enum kiln_vm_function_linkage_e {
  KILN_VM_FUNCTION_LINKAGE_INTERNAL = 0,  // ordinal = module function index
  KILN_VM_FUNCTION_LINKAGE_IMPORT = 1,    // ordinal = import index
  KILN_VM_FUNCTION_LINKAGE_EXPORT = 2,    // ordinal = export index
} kiln_vm_function_linkage_t;

// A handle to a function of a module (not retained: valid while the module
// lives). Exported functions are what contexts link and invoke.
typedef struct kiln_vm_function_t {
  kiln_vm_module_t* module;
  uint32_t ordinal;
  kiln_vm_function_linkage_t linkage;
} kiln_vm_function_t;

// Name of |function| ("" if unknown). For an IMPORT, the full name
// "module.function". Valid while the module lives.
kiln_string_view_t kiln_vm_function_name(const kiln_vm_function_t* function);

// Signature string of |function| (see value.h), e.g. "rI->r".
kiln_string_view_t kiln_vm_function_signature(
    const kiln_vm_function_t* function);

// Number of reflection attributes of an exported function (0 otherwise).
size_t kiln_vm_function_reflection_attr_count(
    const kiln_vm_function_t* function);

// Reflection attribute |index| (OUT_OF_RANGE past the end) as key and value.
kiln_status_t kiln_vm_function_reflection_attr_at(
    const kiln_vm_function_t* function, size_t index, kiln_string_view_t* key,
    kiln_string_view_t* value);

// Looks up attribute |key| (e.g. "iree.abi.model"); returns false (and an
// empty |*value|) when absent.
bool kiln_vm_function_reflection_attr(const kiln_vm_function_t* function,
                                      const char* key,
                                      kiln_string_view_t* value);

//===----------------------------------------------------------------------===//
// Calls and waits
//===----------------------------------------------------------------------===//

// A wait a callee asks its caller to perform (a yield): the interpreter saves
// its state, returns to the invocation loop, which calls |wait| with the
// invocation's deadline and then resumes the program. Waits thus all happen in
// one place in the VM. |wait| may block; it returns OK once the awaited event
// happened, DEADLINE_EXCEEDED on timeout, or another error. Its deadline is
// absolute (kiln_vm_now_ns); INT64_MAX (KILN_INFINITE_FUTURE) means none.
typedef struct kiln_vm_wait_request_t {
  void* object;
  kiln_status_t (*wait)(void* object, int64_t deadline_ns);
} kiln_vm_wait_request_t;

// One call into a module (a native function, or a module's call entry).
// |args| are BORROWED (the callee retains refs it keeps). |results| has
// |result_count| entries, all NONE on entry; the callee stores one value per
// result of its signature, refs RETAINED (ownership passes to the caller).
// The caller checks result types against the signature.
typedef struct kiln_vm_native_call_t {
  kiln_vm_function_t function;  // the function called (EXPORT linkage)
  const kiln_vm_value_t* args;
  size_t arg_count;
  kiln_vm_value_t* results;
  size_t result_count;
  // Set by the callee (optionally) to ask for a wait before the caller
  // continues; the results are already valid.
  kiln_vm_wait_request_t wait;
  // Deadline of the invocation (absolute, kiln_vm_now_ns; 0 = none).
  int64_t deadline_ns;
  // Maximum call depth for bytecode callees (0 = default).
  uint32_t max_call_depth;
  // When non-NULL, bytecode callees print each instruction they execute
  // here (kiln_vm_invoke_options_t.trace_execution).
  FILE* trace_execution;
  // Private to the native-module helper (import table of the callee module).
  void* reserved;
} kiln_vm_native_call_t;

//===----------------------------------------------------------------------===//
// kiln_vm_module_t: the vtable
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_module_vtable_t {
  // Frees the module (refcount reached zero).
  void (*destroy)(kiln_vm_module_t* module);
  // Module name ("hal", "check", or from the file).
  kiln_string_view_t (*name)(kiln_vm_module_t* module);
  // Number of functions of |linkage| (imports, exports, internal functions).
  size_t (*function_count)(kiln_vm_module_t* module,
                           kiln_vm_function_linkage_t linkage);
  // Name and signature of function |ordinal| of |linkage|; OUT_OF_RANGE when
  // |ordinal| is past the end. Views stay valid while the module lives.
  kiln_status_t (*function_info)(kiln_vm_module_t* module,
                                 kiln_vm_function_linkage_t linkage,
                                 uint32_t ordinal, kiln_string_view_t* name,
                                 kiln_string_view_t* signature);
  // Reflection attributes of EXPORT |ordinal|: count, and key/value at
  // |index| (OUT_OF_RANGE past the end). May be NULL (no attributes).
  size_t (*attr_count)(kiln_vm_module_t* module, uint32_t export_ordinal);
  kiln_status_t (*attr_at)(kiln_vm_module_t* module, uint32_t export_ordinal,
                           size_t index, kiln_string_view_t* key,
                           kiln_string_view_t* value);
  // Creates the per-context state (may store NULL). |allocator| is the
  // context's.
  kiln_status_t (*create_state)(kiln_vm_module_t* module,
                                kiln_allocator_t allocator, void** out_state);
  // Frees a state from create_state.
  void (*free_state)(kiln_vm_module_t* module, void* state);
  // Binds import |import_ordinal| of this module in |state| to |target| (an
  // export of an earlier module of the context) whose module state is
  // |target_state|. Signatures were already checked by the context.
  kiln_status_t (*resolve_import)(kiln_vm_module_t* module, void* state,
                                  uint32_t import_ordinal,
                                  const kiln_vm_function_t* target,
                                  void* target_state);
  // Runs export |call->function| to completion with |state|. A callee may
  // set |call->wait| to ask the caller to wait (see kiln_vm_wait_request_t).
  kiln_status_t (*call)(kiln_vm_module_t* module, void* state,
                        kiln_vm_native_call_t* call);
} kiln_vm_module_vtable_t;

// Every module embeds this header first. It is ref-counted: contexts retain
// the modules they link.
struct kiln_vm_module_t {
  kiln_ref_object_t ref;  // type: kiln_vm_module_type()
  const kiln_vm_module_vtable_t* vtable;
  kiln_allocator_t allocator;  // that allocated the module
};

// The type descriptor shared by all modules ("vm.module"); destroy calls the
// module's vtable->destroy.
const kiln_ref_type_t* kiln_vm_module_type(void);

// Initializes the header of a new module with one reference (for module
// implementations).
void kiln_vm_module_initialize(kiln_vm_module_t* module,
                               const kiln_vm_module_vtable_t* vtable,
                               kiln_allocator_t allocator);

void kiln_vm_module_retain(kiln_vm_module_t* module);
void kiln_vm_module_release(kiln_vm_module_t* module);

// Module name.
kiln_string_view_t kiln_vm_module_name(kiln_vm_module_t* module);

// Number of exports / imports / internal functions.
size_t kiln_vm_module_function_count(kiln_vm_module_t* module,
                                     kiln_vm_function_linkage_t linkage);

// Function |ordinal| of |linkage| (OUT_OF_RANGE past the end).
kiln_status_t kiln_vm_module_function_at(kiln_vm_module_t* module,
                                         kiln_vm_function_linkage_t linkage,
                                         uint32_t ordinal,
                                         kiln_vm_function_t* out_function);

// Finds the EXPORT named |name|; NOT_FOUND: "function 'foo' not found in
// module 'bar'".
kiln_status_t kiln_vm_module_lookup_function_by_name(
    kiln_vm_module_t* module, kiln_string_view_t name,
    kiln_vm_function_t* out_function);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_MODULE_H_
