// Pass registration and the default pipeline.
#include "compiler/pipeline/passes.h"

#include "compiler/pipeline/registration.h"

// IREE's iree-preprocessing-make-single-dispatch-for-function wraps a
// function's body in one dispatch region: a grouping choice that changes
// no value. kiln's form-dispatch-regions makes its own grouping, so the pass
// leaves the IR as it is (IREE's RUN lines pipe it into iree-run-mlir).
static kiln_status_t kiln_pass_iree_single_dispatch(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* module,
                                                    void* user_data) {
  (void)context;
  (void)module;
  (void)user_data;
  return kiln_ok_status();
}

static const kiln_ir_pass_t kiln_compiler_passes[] = {
    {"lower-to-structured",
     "Lowers input ops (StableHLO, arith/math on tensors) to linalg/tensor",
     kiln_pass_lower_to_structured, NULL},
    {"canonicalize", "Folds ops, applies simple rewrites, drops dead pure ops",
     kiln_pass_canonicalize, NULL},
    {"cse", "Merges identical pure ops", kiln_pass_cse, NULL},
    {"dce", "Deletes unused pure ops", kiln_pass_dce, NULL},
    {"const-eval", "Evaluates structured ops on constants into arith.constant",
     kiln_pass_const_eval, NULL},
    {"lower-host-ops",
     "Unfoldable constants become constants, host scalar ops rank-0 "
     "structured ops, expect_true/false expect_all_true",
     kiln_pass_lower_host_ops, NULL},
    {"convert-conv-to-channels-last",
     "NCHW convolutions become NHWC; the layout propagates through the "
     "generics between them so that the transposes cancel",
     kiln_pass_conv_channels_last, NULL},
    {"iree-preprocessing-make-single-dispatch-for-function",
     "IREE's one-dispatch-per-function request: accepted, the IR unchanged "
     "(kiln groups dispatches itself; values are the same)",
     kiln_pass_iree_single_dispatch, NULL},
};

#define KILN_NUM_PASSES \
  (sizeof(kiln_compiler_passes) / sizeof(kiln_compiler_passes[0]))

kiln_status_t kiln_compiler_register_passes(kiln_ir_pass_registry_t* registry) {
  for (size_t i = 0; i < KILN_NUM_PASSES; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_ir_pass_registry_add(registry, &kiln_compiler_passes[i]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_pipeline_register_passes(kiln_ir_pass_registry_t* registry) {
  return kiln_compiler_register_passes(registry);
}

kiln_status_t kiln_compiler_build_default_pipeline(kiln_ir_pass_manager_t* pm) {
  return kiln_compiler_build_default_pipeline_with(pm, NULL);
}

kiln_status_t kiln_compiler_build_default_pipeline_with(
    kiln_ir_pass_manager_t* pm, const kiln_conv_channels_last_options_t* cl) {
  // Channels-last right after lowering, so that const-eval folds the
  // transposes of constant filters.
  static const int order[] = {0, 6, 1, 2, 4, 1, 3, 5};
  for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i) {
    kiln_ir_pass_t pass = kiln_compiler_passes[order[i]];
    if (order[i] == 6) pass.user_data = (void*)cl;
    KILN_RETURN_IF_ERROR(kiln_ir_pass_manager_add(pm, &pass));
  }
  return kiln_ok_status();
}
