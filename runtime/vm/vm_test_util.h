// Test helpers shared by the VM tests: assemble text, load it, link a
// context and invoke functions by name.
#ifndef KILN_RUNTIME_VM_VM_TEST_UTIL_H_
#define KILN_RUNTIME_VM_VM_TEST_UTIL_H_

#include <string.h>

#include "runtime/testing/test.h"
#include "runtime/vm/api.h"
#include "runtime/vm/assembler.h"

typedef struct kiln_vm_test_env_t {
  kiln_vm_instance_t* instance;
  kiln_vm_module_t* module;
  kiln_vm_context_t* context;
} kiln_vm_test_env_t;

// Assembles |text| and loads it (module only).
static inline kiln_status_t kiln_vm_test_load(const char* text,
                                              kiln_vm_test_env_t* env) {
  memset(env, 0, sizeof(*env));
  kiln_allocator_t a = kiln_allocator_system();
  KILN_RETURN_IF_ERROR(kiln_vm_instance_create(a, &env->instance));
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_vm_assemble(text, strlen(text), "test.vmasm", a, &bytes, &length));
  kiln_status_t status = kiln_vm_bytecode_module_load_memory(
      env->instance, bytes, length, 0, a, &env->module);
  kiln_allocator_free(a, bytes);
  return status;
}

// Assembles, loads and links |text| after |natives| (may be NULL).
static inline kiln_status_t kiln_vm_test_setup(const char* text,
                                               kiln_vm_module_t* native,
                                               kiln_vm_test_env_t* env) {
  KILN_RETURN_IF_ERROR(kiln_vm_test_load(text, env));
  kiln_vm_module_t* modules[2];
  size_t count = 0;
  if (native) modules[count++] = native;
  modules[count++] = env->module;
  return kiln_vm_context_create(env->instance, modules, count,
                                kiln_allocator_system(), &env->context);
}

static inline void kiln_vm_test_teardown(kiln_vm_test_env_t* env) {
  if (env->context) kiln_vm_context_release(env->context);
  kiln_vm_module_release(env->module);
  if (env->instance) kiln_vm_instance_release(env->instance);
  memset(env, 0, sizeof(*env));
}

static inline kiln_status_t kiln_vm_test_call(
    kiln_vm_test_env_t* env, const char* name, const kiln_vm_value_t* args,
    size_t arg_count, kiln_vm_value_t* results, size_t result_count) {
  kiln_vm_function_t fn;
  KILN_RETURN_IF_ERROR(kiln_vm_context_lookup_function_by_name(
      env->context, kiln_make_cstring_view(name), &fn));
  kiln_vm_invoke_options_t options = {kiln_vm_now_ns() + 10000000000ll, 0,
                                      NULL};
  return kiln_vm_invoke(env->context, fn, args, arg_count, results,
                        result_count, &options);
}

#endif  // KILN_RUNTIME_VM_VM_TEST_UTIL_H_
