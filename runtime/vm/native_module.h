// Native modules: a module written in C, described by a static table of
// functions. The hal and check modules and user modules use this helper.
//
// Example:
//   static kiln_status_t my_add(void* state, kiln_vm_native_call_t* call) {
//     call->results[0] = kiln_vm_value_make_i32(call->args[0].i32 +
//                                               call->args[1].i32);
//     return kiln_ok_status();
//   }
//   static const kiln_vm_native_function_t kFunctions[] = {
//       {"add", "ii->i", my_add},
//   };
//   static const kiln_vm_native_module_descriptor_t kDescriptor = {
//       .name = "my", .functions = kFunctions, .function_count = 1};
//   kiln_vm_native_module_create(instance, &kDescriptor, NULL, allocator,
//                                &module);
//
// The arguments a native function receives were checked against the fixed
// part of its signature (count and types); variadic extras are the callee's
// to check. The results it stores are checked by the caller.
#ifndef KILN_RUNTIME_VM_NATIVE_MODULE_H_
#define KILN_RUNTIME_VM_NATIVE_MODULE_H_

#include "runtime/vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

// A native function. |module_state| is the per-context state (see
// kiln_vm_native_module_descriptor_t.create_state; by default the module's
// user_data).
typedef kiln_status_t (*kiln_vm_native_function_ptr_t)(
    void* module_state, kiln_vm_native_call_t* call);

// A reflection attribute of a native export.
typedef struct kiln_vm_native_attr_t {
  const char* key;
  const char* value;
} kiln_vm_native_attr_t;

// One exported function: name (without module prefix), signature (variadic
// allowed), implementation and optional reflection attributes.
typedef struct kiln_vm_native_function_t {
  const char* name;
  const char* signature;
  kiln_vm_native_function_ptr_t fn;
  const kiln_vm_native_attr_t* attrs;
  size_t attr_count;
} kiln_vm_native_function_t;

// One import of a native module: full name "module.function" and signature.
typedef struct kiln_vm_native_import_t {
  const char* full_name;
  const char* signature;
} kiln_vm_native_import_t;

// Static description of a native module. The tables must outlive the module
// (normally they are static const).
typedef struct kiln_vm_native_module_descriptor_t {
  const char* name;
  const kiln_vm_native_function_t* functions;
  size_t function_count;
  const kiln_vm_native_import_t* imports;  // optional
  size_t import_count;
  // Optional: creates the per-context state; default: state = user_data.
  kiln_status_t (*create_state)(void* user_data, kiln_allocator_t allocator,
                                void** out_state);
  // Optional: frees a state from create_state.
  void (*destroy_state)(void* user_data, void* state);
  // Optional: called when the module is destroyed (e.g. to free user_data).
  void (*destroy)(void* user_data);
} kiln_vm_native_module_descriptor_t;

// Creates a native module from |descriptor| (signatures are validated:
// INVALID_ARGUMENT naming the function). |user_data| is passed to the state
// callbacks. One reference.
kiln_status_t kiln_vm_native_module_create(
    kiln_vm_instance_t* instance,
    const kiln_vm_native_module_descriptor_t* descriptor, void* user_data,
    kiln_allocator_t allocator, kiln_vm_module_t** out_module);

// The user_data given at creation (for native function implementations that
// need module-level data besides the state).
void* kiln_vm_native_module_user_data(kiln_vm_module_t* module);

// From inside a native function: calls import |import_ordinal| of the
// callee's module (as resolved by the context) with |args| (borrowed),
// storing owned results. Waits requested by the target happen inline.
kiln_status_t kiln_vm_native_call_import(kiln_vm_native_call_t* call,
                                         uint32_t import_ordinal,
                                         const kiln_vm_value_t* args,
                                         size_t arg_count,
                                         kiln_vm_value_t* results,
                                         size_t result_count);

// Checks that |call| has exactly |count| arguments (only useful for
// variadic functions), and returns the i-th argument's ref cast to |type|
// (INVALID_ARGUMENT naming the function, argument index and types). NULL
// refs are an error unless |allow_null|. Borrowed.
kiln_status_t kiln_vm_native_call_arg_ref(const kiln_vm_native_call_t* call,
                                          size_t index,
                                          const kiln_ref_type_t* type,
                                          bool allow_null,
                                          kiln_ref_object_t** out_ref);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_NATIVE_MODULE_H_
