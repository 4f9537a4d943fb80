// Registration of every dialect the compiler understands (arith, math,
// linalg, tensor, stablehlo, tosa, util, check; func/builtin come from the
// IR and the MLIR parser library).
#ifndef KILN_COMPILER_DIALECTS_DIALECTS_H_
#define KILN_COMPILER_DIALECTS_DIALECTS_H_

#include "compiler/ir/context.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers every op of every supported dialect into |context| (builtin,
// func, then the dialect files below; later registrations replace the
// parser library's example definitions).
kiln_status_t kiln_compiler_register_dialects(kiln_ir_context_t* context);

//===----------------------------------------------------------------------===//
// Per-dialect registration (one file each)
//===----------------------------------------------------------------------===//

kiln_status_t kiln_dialect_register_arith(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_math(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_linalg(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_tensor(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_stablehlo(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_tosa(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_util(kiln_ir_context_t* context);
kiln_status_t kiln_dialect_register_check(kiln_ir_context_t* context);
// cf.br / cf.cond_br: host control flow (compiler/dialects/cf.c).
kiln_status_t kiln_dialect_register_cf(kiln_ir_context_t* context);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_DIALECTS_H_
