// The entry point tools use to register every dialect (see
// compiler/CMakeLists.txt: kiln_compiler_all picks this header up).
#ifndef KILN_COMPILER_DIALECTS_REGISTRATION_H_
#define KILN_COMPILER_DIALECTS_REGISTRATION_H_

#include "compiler/dialects/dialects.h"

#ifdef __cplusplus
extern "C" {
#endif

// Same as kiln_compiler_register_dialects (the name kiln-opt calls).
kiln_status_t kiln_dialects_register_all(kiln_ir_context_t* context);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_REGISTRATION_H_
