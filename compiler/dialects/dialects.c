// kiln_compiler_register_dialects: every dialect in one call.
#include "compiler/dialects/dialects.h"

#include "compiler/dialects/linalg.h"
#include "compiler/dialects/registration.h"
#include "compiler/ir/text/parser.h"

kiln_status_t kiln_compiler_register_dialects(kiln_ir_context_t* context) {
  // builtin + func (with their parse hooks) and the parser's examples first;
  // the dialect files then replace the example definitions.
  KILN_RETURN_IF_ERROR(kiln_mlir_register_builtin_ops(context));
  KILN_RETURN_IF_ERROR(kiln_mlir_register_example_ops(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_arith(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_math(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_linalg(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_tensor(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_linalg_ext(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_linalg_pack(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_iree_encoding(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_stablehlo(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_stablehlo_data(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_chlo(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_tosa(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_util(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_check(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_cf(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_stablehlo_rng_fft(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_region_cf(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_stablehlo_compute(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_stablehlo_misc(context));
  KILN_RETURN_IF_ERROR(kiln_dialect_register_mhlo_aliases(context));
  return kiln_ok_status();
}

kiln_status_t kiln_dialects_register_all(kiln_ir_context_t* context) {
  return kiln_compiler_register_dialects(context);
}
