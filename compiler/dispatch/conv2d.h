// Recognizes 2-D convolutions among structured ops: a linalg.generic of
// static f32 tensors whose loops are (batch, two output spatial dims,
// output channel) parallel and (input channel, two window dims) reductions,
// whose body is acc + image * filter, and whose image map reads
// (stride * out + dilation * window) in each spatial dim. The named
// linalg.conv_2d_nhwc_hwcf / nhwc_fhwc / nchw_fchw ops, stablehlo.convolution
// and tosa.conv2d all lower to such generics (padding is a separate
// producer). Layouts are arbitrary: the description gives each tensor's
// element strides per role, so any dimension order matches. Grouped and
// depthwise convolutions do not match (their channel dim is shared by the
// image, filter and output).
#ifndef KILN_COMPILER_DISPATCH_CONV2D_H_
#define KILN_COMPILER_DISPATCH_CONV2D_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/attributes.h"
#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_conv2d_t {
  int64_t n, c, f;         // batch, input channels, output channels
  int64_t h, w;            // image spatial extents
  int64_t oh, ow;          // output spatial extents
  int64_t kh, kw;          // window extents
  int64_t sh, sw, dh, dw;  // strides and dilations
  // Element strides of each role in the image, filter and output.
  int64_t img_n, img_c, img_h, img_w;
  int64_t flt_f, flt_c, flt_h, flt_w;
  int64_t out_n, out_f, out_h, out_w;
} kiln_conv2d_t;

// True when |op| is such a convolution; fills |out| (may be NULL). Never
// records diagnostics.
bool kiln_conv2d_match(kiln_ir_context_t* context, kiln_ir_op_t* op,
                       kiln_conv2d_t* out);

// True when |body| is (a, b, acc) -> acc + a * b in any operand order.
bool kiln_conv2d_body_is_mul_add(kiln_ir_block_t* body);

// Splits affine expression |e| into at most two coefficient * dim terms
// (a convolution's stride * out + dilation * window); false otherwise.
bool kiln_conv2d_map_terms(const kiln_ir_affine_expr_t* e, int* count,
                           int64_t dim[2], int64_t coeff[2]);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_CONV2D_H_
