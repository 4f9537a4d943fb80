// The `hal` native VM module: the VM's bindings of the HAL, called by the
// host code of compiled programs. Its functions, signatures and semantics are
// the contract in docs/website/docs/developers/design-docs/hal-module.md.
#ifndef KILN_RUNTIME_MODULES_HAL_MODULE_H_
#define KILN_RUNTIME_MODULES_HAL_MODULE_H_

#include "runtime/hal/api.h"
#include "runtime/vm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

// Creates the hal module bound to |device| (retained): every context the
// module is linked into uses that device, and caches the executables it
// prepares there (one preparation per executable per context).
kiln_status_t kiln_hal_module_create(kiln_vm_instance_t* instance,
                                     kiln_hal_device_t* device,
                                     kiln_allocator_t allocator,
                                     kiln_vm_module_t** out_module);

// The device a hal module was created with (borrowed).
kiln_hal_device_t* kiln_hal_module_device(kiln_vm_module_t* module);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_MODULES_HAL_MODULE_H_
