// The compiler's optimization and lowering passes (each runnable alone by
// kiln-opt as --<name>), their registration and the default pipeline.
//
//   lower-to-structured  input dialects -> linalg/tensor/arith form
//   canonicalize         op folders + simple patterns + dead pure ops
//   cse                  merges identical pure ops within a block
//   dce                  deletes unused pure ops (never side-effecting ones)
//   const-eval           evaluates structured ops on constants (reference
//                        interpreter) into arith.constant
//   lower-host-ops       (last) util.unfoldable_constant -> arith.constant,
//                        host scalar ops -> rank-0 linalg.generic,
//                        check.expect_true/false -> check.expect_all_true
#ifndef KILN_COMPILER_PIPELINE_PASSES_H_
#define KILN_COMPILER_PIPELINE_PASSES_H_

#include "compiler/ir/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers every pass above into |registry|.
kiln_status_t kiln_compiler_register_passes(kiln_ir_pass_registry_t* registry);

// Adds lower-to-structured, canonicalize, cse, const-eval, canonicalize,
// dce, lower-host-ops to |pm| (code generation appends its passes after these).
kiln_status_t kiln_compiler_build_default_pipeline(kiln_ir_pass_manager_t* pm);

// The passes' run functions (kiln_ir_pass_t::run).
kiln_status_t kiln_pass_lower_to_structured(kiln_ir_context_t* context,
                                            kiln_ir_op_t* module,
                                            void* user_data);
kiln_status_t kiln_pass_canonicalize(kiln_ir_context_t* context,
                                     kiln_ir_op_t* module, void* user_data);
kiln_status_t kiln_pass_cse(kiln_ir_context_t* context, kiln_ir_op_t* module,
                            void* user_data);
kiln_status_t kiln_pass_dce(kiln_ir_context_t* context, kiln_ir_op_t* module,
                            void* user_data);
kiln_status_t kiln_pass_const_eval(kiln_ir_context_t* context,
                                   kiln_ir_op_t* module, void* user_data);
kiln_status_t kiln_pass_lower_host_ops(kiln_ir_context_t* context,
                                       kiln_ir_op_t* module, void* user_data);

// convert-conv-to-channels-last (conv_channels_last.c): NCHW f32 2-D
// convolutions become NHWC with FHWC (depthwise: HWCF) filters, the layout
// propagated through the generics between them. |user_data|: NULL (on) or
// a kiln_conv_channels_last_options_t.
typedef struct kiln_conv_channels_last_options_t {
  bool disabled;      // --kiln-conv-channels-last=false
  bool no_depthwise;  // --kiln-conv-channels-last=no-depthwise
} kiln_conv_channels_last_options_t;
kiln_status_t kiln_pass_conv_channels_last(kiln_ir_context_t* context,
                                           kiln_ir_op_t* module,
                                           void* user_data);

// The default pipeline with the channels-last pass configured by |cl|
// (NULL: on).
kiln_status_t kiln_compiler_build_default_pipeline_with(
    kiln_ir_pass_manager_t* pm, const kiln_conv_channels_last_options_t* cl);

// The constant attribute a value is known to hold (result of a
// CONSTANT_LIKE op; util.unfoldable_constant is never known), or NULL.
const kiln_ir_attribute_t* kiln_pipeline_constant_of(kiln_ir_value_t* value);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_PASSES_H_
