// Recognizes the constant padding of a 4-D tensor in its structured form:
// the linalg.generic that stablehlo.pad / tensor.pad lowering produces
// (no inputs, an identity output, a body reading the source through
// tensor.extract at clamped indices (i - lo) and selecting a constant
// where any index falls outside). Convolution, depthwise and pooling
// entries of a backend read the source directly with the window bounds
// instead (form-dispatch-regions' window_pad_ok), so the padded tensor is
// never materialized.
#ifndef KILN_COMPILER_DISPATCH_WINDOW_PAD_H_
#define KILN_COMPILER_DISPATCH_WINDOW_PAD_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_window_pad_t {
  kiln_ir_value_t* source;  // the unpadded 4-D tensor (tensor.extract's)
  int64_t lo[4], hi[4];     // elements added before / after, each >= 0
  double value;             // what the padding holds
} kiln_window_pad_t;

// True when |op| is such a padding (edge padding only: no interior
// padding, no cropping) of an f32 4-D tensor; fills |out| (may be NULL).
bool kiln_window_pad_match(kiln_ir_context_t* context, kiln_ir_op_t* op,
                           kiln_window_pad_t* out);

// True when |wp| pads only the spatial dims H and W: dims 1 and 2 of an
// NHWC tensor (|nhwc|), else dims 2 and 3 of an NCHW one.
bool kiln_window_pad_is_spatial(const kiln_window_pad_t* wp, bool nhwc);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_WINDOW_PAD_H_
