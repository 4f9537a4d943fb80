// Convolution dispatches of the cpu backend: a dispatch region that is an
// f32 2-D convolution (compiler/dispatch/conv2d.h), alone or followed by an
// elementwise epilogue (epilogue.h), becomes a matmul entry
// (matmul_entry.h) over output pixels x output channels x window taps. The
// image is an im2col window operand, gathered per K block straight into the
// packed tile layout (never materialized); a 1x1 stride-1 convolution over
// contiguous pixels is a plain matmul packed by the pack micro-kernel. The
// filter is always a plain strided matrix.
#ifndef KILN_COMPILER_TARGETS_CPU_CONV_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_CONV_ENTRY_H_

#include <stdbool.h>

#include "compiler/dispatch/window_pad.h"
#include "compiler/targets/cpu/matmul_entry.h"

#ifdef __cplusplus
extern "C" {
#endif

// True when |region| is such a convolution; fills |out| with its packed
// matmul problem (pixels x channels with channels innermost in the output,
// else channels x pixels).
bool kiln_cpu_match_conv(kiln_ir_context_t* context, kiln_ir_op_t* region,
                         kiln_cpu_gemm_t* out);

// Also matches a convolution whose image is a padding folded into the
// region (form-dispatch-regions' window_pad_ok): |out_pad| then describes
// it (its source is not NULL) and |out|'s image binding is the unpadded
// source's, its geometry still the padded image's, so only an entry that
// reads through the padding's bounds (Winograd's input transform) may use
// the match.
bool kiln_cpu_match_conv_padded(kiln_ir_context_t* context,
                                kiln_ir_op_t* region, kiln_cpu_gemm_t* out,
                                kiln_window_pad_t* out_pad);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_CONV_ENTRY_H_
