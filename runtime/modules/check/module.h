// The `check` native VM module: the assertions of check tests
// (check.expect_true, expect_false, expect_all_true, expect_eq,
// expect_almost_eq), as IREE's check module provides them. A failed check
// returns FAILED_PRECONDITION whose message shows the expected and actual
// values, so kiln-check-module reports the failing test and continues.
#ifndef KILN_RUNTIME_MODULES_CHECK_MODULE_H_
#define KILN_RUNTIME_MODULES_CHECK_MODULE_H_

#include "runtime/hal/api.h"
#include "runtime/vm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

// Creates the check module. It reads buffer views through host mappings, so
// the programs calling it must have awaited the work producing them.
kiln_status_t kiln_check_module_create(kiln_vm_instance_t* instance,
                                       kiln_allocator_t allocator,
                                       kiln_vm_module_t** out_module);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_MODULES_CHECK_MODULE_H_
