// Pass `form-dispatch-regions`: groups the structured ops of every function
// into kiln.dispatch.region ops (see dispatch_ops.h), one per dispatch.
//
// Fusion rules (bottom-up from each not-yet-grouped structured op, the
// region's "sink"):
//   - an elementwise producer (all loops parallel, outputs indexed by a
//     permutation) whose results are used only inside the region joins it
//     and is recomputed at the consumer's point; into a reduction it joins
//     only when the consumer's map reads each producer element once, and
//     one with a transcendental or a divide joins a broadcast only when the
//     consumer has fewer than 16x its iterations;
//   - at most one reduction or matmul (the "root") per region: it joins an
//     elementwise region when every use of its results is at the region's
//     loop point through an identity map (epilogue fusion);
//   - linalg.fill producing a root's init joins it;
//   - with window_pad_ok, a constant padding feeding a root's image joins
//     it (the backend reads the unpadded source with window bounds);
//   - tensor.empty, scalar constants and splat tensor constants are cloned
//     into the region; other captured values (arguments, dense constants,
//     results of other regions) become the region's operands.
// The region op records `kind` ("elementwise", "reduction", "matmul",
// "generic") for entry point names.
#ifndef KILN_COMPILER_DISPATCH_FORM_DISPATCH_REGIONS_H_
#define KILN_COMPILER_DISPATCH_FORM_DISPATCH_REGIONS_H_

#include <stdbool.h>

#include "compiler/ir/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_form_dispatch_regions_options_t {
  // A linalg.matmul / batch_matmul of static f32 tensors joins an
  // elementwise region only through epilogue_op_ok below: its other
  // consumers get a dispatch of their own. For backends that run such
  // matmuls as micro-kernels, which evaluate only the epilogues they know.
  // The same holds for f32 2-D convolutions (conv2d.h), which such
  // backends run as im2col matmuls.
  bool matmuls_alone;
  // With matmuls_alone: the elementwise consumers for which this returns
  // true still join such a matmul or convolution, as an epilogue that the
  // backend evaluates on each output tile (NULL: none do).
  bool (*epilogue_op_ok)(kiln_ir_context_t* context, kiln_ir_op_t* op);
  // A constant padding (window_pad.h) whose only use is operand 0 (the
  // image) of a region's root joins that region when this returns true for
  // (root, pad): the backend's window entry folds it into its bounds, so no
  // padded tensor is materialized (NULL: paddings get dispatches of their
  // own, as any elementwise producer of a window reduction does).
  bool (*window_pad_ok)(kiln_ir_context_t* context, const void* user_data,
                        kiln_ir_op_t* root, kiln_ir_op_t* pad);
  // Passed to window_pad_ok (the backend's target options).
  const void* window_pad_user_data;
} kiln_form_dispatch_regions_options_t;

// The pass (name "form-dispatch-regions"); its user_data may point at a
// kiln_form_dispatch_regions_options_t.
extern const kiln_ir_pass_t kiln_form_dispatch_regions_pass;

// Runs the pass on |module|.
kiln_status_t kiln_form_dispatch_regions(kiln_ir_context_t* context,
                                         kiln_ir_op_t* module);
kiln_status_t kiln_form_dispatch_regions_with_options(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_form_dispatch_regions_options_t* options);  // may be NULL

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_FORM_DISPATCH_REGIONS_H_
