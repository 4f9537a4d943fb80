// Instance, the module header and function accessors over the vtable.
#include "runtime/vm/module.h"

#include <time.h>

#include "runtime/base/time.h"

struct kiln_vm_instance_t {
  kiln_ref_object_t ref;
  kiln_allocator_t allocator;
};

static void kiln_vm_instance_destroy(void* object) {
  kiln_vm_instance_t* instance = (kiln_vm_instance_t*)object;
  kiln_allocator_free(instance->allocator, instance);
}

static const kiln_ref_type_t kiln_vm_instance_type = {"vm.instance",
                                                      kiln_vm_instance_destroy};

kiln_status_t kiln_vm_instance_create(kiln_allocator_t allocator,
                                      kiln_vm_instance_t** out_instance) {
  *out_instance = NULL;
  kiln_vm_instance_t* instance = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*instance), (void**)&instance));
  kiln_ref_object_initialize(&instance->ref, &kiln_vm_instance_type);
  instance->allocator = allocator;
  *out_instance = instance;
  return kiln_ok_status();
}

void kiln_vm_instance_retain(kiln_vm_instance_t* instance) {
  kiln_ref_retain(instance);
}
void kiln_vm_instance_release(kiln_vm_instance_t* instance) {
  kiln_ref_release(instance);
}
kiln_allocator_t kiln_vm_instance_allocator(
    const kiln_vm_instance_t* instance) {
  return instance->allocator;
}

int64_t kiln_vm_now_ns(void) {
  return kiln_time_now_ns();
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

static void kiln_vm_module_destroy_ref(void* object) {
  kiln_vm_module_t* module = (kiln_vm_module_t*)object;
  module->vtable->destroy(module);
}

static const kiln_ref_type_t kiln_vm_module_type_descriptor = {
    "vm.module", kiln_vm_module_destroy_ref};

const kiln_ref_type_t* kiln_vm_module_type(void) {
  return &kiln_vm_module_type_descriptor;
}

void kiln_vm_module_initialize(kiln_vm_module_t* module,
                               const kiln_vm_module_vtable_t* vtable,
                               kiln_allocator_t allocator) {
  kiln_ref_object_initialize(&module->ref, &kiln_vm_module_type_descriptor);
  module->vtable = vtable;
  module->allocator = allocator;
}

void kiln_vm_module_retain(kiln_vm_module_t* module) {
  kiln_ref_retain(module);
}
void kiln_vm_module_release(kiln_vm_module_t* module) {
  kiln_ref_release(module);
}

kiln_string_view_t kiln_vm_module_name(kiln_vm_module_t* module) {
  return module->vtable->name(module);
}

size_t kiln_vm_module_function_count(kiln_vm_module_t* module,
                                     kiln_vm_function_linkage_t linkage) {
  return module->vtable->function_count(module, linkage);
}

kiln_status_t kiln_vm_module_function_at(kiln_vm_module_t* module,
                                         kiln_vm_function_linkage_t linkage,
                                         uint32_t ordinal,
                                         kiln_vm_function_t* out_function) {
  if (ordinal >= kiln_vm_module_function_count(module, linkage)) {
    kiln_string_view_t name = kiln_vm_module_name(module);
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "function ordinal %u out of range in module '%.*s'",
                            ordinal, KILN_SV_ARG(name));
  }
  out_function->module = module;
  out_function->linkage = linkage;
  out_function->ordinal = ordinal;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_module_lookup_function_by_name(
    kiln_vm_module_t* module, kiln_string_view_t name,
    kiln_vm_function_t* out_function) {
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (uint32_t i = 0; i < count; ++i) {
    kiln_string_view_t fn_name, fn_sig;
    if (module->vtable->function_info(module, KILN_VM_FUNCTION_LINKAGE_EXPORT,
                                      i, &fn_name, &fn_sig)) {
      continue;
    }
    if (kiln_string_view_equal(fn_name, name)) {
      out_function->module = module;
      out_function->linkage = KILN_VM_FUNCTION_LINKAGE_EXPORT;
      out_function->ordinal = i;
      return kiln_ok_status();
    }
  }
  kiln_string_view_t module_name = kiln_vm_module_name(module);
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "function '%.*s' not found in module '%.*s'",
                          KILN_SV_ARG(name), KILN_SV_ARG(module_name));
}

//===----------------------------------------------------------------------===//
// Function accessors
//===----------------------------------------------------------------------===//

kiln_string_view_t kiln_vm_function_name(const kiln_vm_function_t* function) {
  kiln_string_view_t name = kiln_string_view_empty(), sig;
  kiln_status_t status = function->module->vtable->function_info(
      function->module, function->linkage, function->ordinal, &name, &sig);
  if (status) {
    kiln_status_free(status);
    return kiln_string_view_empty();
  }
  return name;
}

kiln_string_view_t kiln_vm_function_signature(
    const kiln_vm_function_t* function) {
  kiln_string_view_t name, sig = kiln_string_view_empty();
  kiln_status_t status = function->module->vtable->function_info(
      function->module, function->linkage, function->ordinal, &name, &sig);
  if (status) {
    kiln_status_free(status);
    return kiln_string_view_empty();
  }
  return sig;
}

size_t kiln_vm_function_reflection_attr_count(
    const kiln_vm_function_t* function) {
  if (function->linkage != KILN_VM_FUNCTION_LINKAGE_EXPORT ||
      !function->module->vtable->attr_count) {
    return 0;
  }
  return function->module->vtable->attr_count(function->module,
                                              function->ordinal);
}

kiln_status_t kiln_vm_function_reflection_attr_at(
    const kiln_vm_function_t* function, size_t index, kiln_string_view_t* key,
    kiln_string_view_t* value) {
  if (index >= kiln_vm_function_reflection_attr_count(function)) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "reflection attribute %zu out of range", index);
  }
  return function->module->vtable->attr_at(function->module, function->ordinal,
                                           index, key, value);
}

bool kiln_vm_function_reflection_attr(const kiln_vm_function_t* function,
                                      const char* key,
                                      kiln_string_view_t* value) {
  *value = kiln_string_view_empty();
  size_t count = kiln_vm_function_reflection_attr_count(function);
  for (size_t i = 0; i < count; ++i) {
    kiln_string_view_t k, v;
    kiln_status_t status =
        kiln_vm_function_reflection_attr_at(function, i, &k, &v);
    if (status) {
      kiln_status_free(status);
      continue;
    }
    if (kiln_string_view_equal_cstr(k, key)) {
      *value = v;
      return true;
    }
  }
  return false;
}
