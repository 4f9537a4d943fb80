// The entry point tools use to register every pass (see
// compiler/CMakeLists.txt: kiln_compiler_all picks this header up).
#ifndef KILN_COMPILER_PIPELINE_REGISTRATION_H_
#define KILN_COMPILER_PIPELINE_REGISTRATION_H_

#include "compiler/pipeline/passes.h"

#ifdef __cplusplus
extern "C" {
#endif

// Same as kiln_compiler_register_passes (the name kiln-opt calls).
kiln_status_t kiln_pipeline_register_passes(kiln_ir_pass_registry_t* registry);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_REGISTRATION_H_
