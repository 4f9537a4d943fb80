// The vmvx executable loader (CMake target kiln_hal_vmvx, which links the
// VM; the HAL core does not). A vmvx executable is a kmod bytecode module,
// verified at load, whose exported functions are the entry points. Each is
// called once per workgroup with the signature "rrriiiiii" (no results):
//   (local_memory: vm.buffer (mutable, per worker),
//    constants: vm.buffer (the uint32 push constants, read-only),
//    bindings: vm.list of vm.buffer (binding i wraps the bound range, mutable),
//    workgroup_id_x, workgroup_id_y, workgroup_id_z: i32,
//    workgroup_count_x, workgroup_count_y, workgroup_count_z: i32)
// Pass the loader to devices in kiln_hal_device_params_t.executable_loaders.
#ifndef KILN_RUNTIME_HAL_LOCAL_LOADERS_VMVX_LOADER_H_
#define KILN_RUNTIME_HAL_LOCAL_LOADERS_VMVX_LOADER_H_

#include "runtime/hal/local/executable_loader.h"
#include "runtime/vm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

// Format string of vmvx executables.
#define KILN_HAL_VMVX_FORMAT "vmvx-bytecode"
// Signature every vmvx entry point must have.
#define KILN_HAL_VMVX_ENTRY_SIGNATURE "rrriiiiii->"

// Creates the loader; |instance| is retained and used for every module.
kiln_status_t kiln_hal_vmvx_loader_create(
    kiln_vm_instance_t* instance, kiln_allocator_t host_allocator,
    kiln_hal_executable_loader_t** out_loader);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_LOADERS_VMVX_LOADER_H_
