#include "runtime/vm/executable_ref.h"

#include "runtime/vm/bytecode_module.h"

static void kiln_vm_executable_ref_destroy(void* object) {
  kiln_vm_executable_ref_t* ref = (kiln_vm_executable_ref_t*)object;
  kiln_ref_release(ref->module);
  kiln_allocator_free(ref->allocator, ref);
}

static const kiln_ref_type_t kiln_vm_executable_ref_type_descriptor = {
    "vm.executable", kiln_vm_executable_ref_destroy};

const kiln_ref_type_t* kiln_vm_executable_ref_type(void) {
  return &kiln_vm_executable_ref_type_descriptor;
}

kiln_status_t kiln_vm_executable_ref_create(
    kiln_vm_module_t* module, uint32_t ordinal, kiln_allocator_t allocator,
    kiln_vm_executable_ref_t** out_ref) {
  *out_ref = NULL;
  size_t count = kiln_vm_bytecode_module_executable_count(module);
  if (ordinal >= count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "executable %u out of range (module has %zu)",
                            ordinal, count);
  }
  kiln_vm_executable_ref_t* ref = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(allocator, sizeof(*ref), (void**)&ref));
  kiln_ref_object_initialize(&ref->ref, kiln_vm_executable_ref_type());
  kiln_ref_retain(module);
  ref->module = module;
  ref->ordinal = ordinal;
  ref->allocator = allocator;
  *out_ref = ref;
  return kiln_ok_status();
}
