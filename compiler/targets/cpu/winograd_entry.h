// Winograd convolution dispatches of the cpu backend: an f32 3x3 stride-1
// dilation-1 convolution (conv_entry.h's match) over a channels-last image
// with a constant filter, at least KILN_CPU_WINOGRAD_MIN_INPUT_CHANNELS input
// and KILN_CPU_WINOGRAD_MIN_OUTPUT_CHANNELS output channels runs as Winograd
// F(4x4, 3x3): per block of 4x4 output
// tiles, the runtime's input transform, 36 mmt4d products against filters
// transformed and packed at compile time, and the output transform (plus
// bias), then the region's epilogue. Its matmuls do 4x fewer multiplies than
// the direct (im2col) convolution and adds a few ulps of error (docs:
// cpu-backend.md).
#ifndef KILN_COMPILER_TARGETS_CPU_WINOGRAD_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_WINOGRAD_ENTRY_H_

#include <stdbool.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/targets/cpu/matmul_entry.h"

#ifdef __cplusplus
extern "C" {
#endif

// Below these channel counts the transforms (per tile and channel, not
// amortized over the other channel count) cost about as much as the
// multiplies they save. The input transform's cost per input channel is
// amortized over the output channels, so fewer input channels are enough:
// SqueezeNet 1.1's 55x55 16 -> 64 layers took 7% less of the model's time
// with Winograd (interleaved A/B, 1 and 2 threads).
#define KILN_CPU_WINOGRAD_MIN_INPUT_CHANNELS 16
#define KILN_CPU_WINOGRAD_MIN_OUTPUT_CHANNELS 32
// Every workgroup reads the whole transformed filter (36 x C x F, 4x the
// direct filter) for at most 16 tiles of one image; with fewer tiles than
// that per image the filter's memory traffic costs more than the saved
// multiplies (ResNet-50 at 7x7 pixels, 4 tiles: 4x slower than direct;
// 14x14, 16 tiles: 1.6x faster).
#define KILN_CPU_WINOGRAD_MIN_TILES 16

typedef struct kiln_cpu_winograd_t {
  kiln_cpu_gemm_t gemm;  // the direct problem: bindings, bias, epilogue
  kiln_conv2d_t cv;
  uint32_t image_binding, filter_binding;
  // The image the input transform reads: the convolution's (cv's extents
  // and strides, no padding) or the source of a folded zero padding of H
  // and W, read shifted by pad_top / pad_left with zeros outside.
  int64_t image_h, image_w, pad_top, pad_left;
  int64_t image_stride_h, image_stride_w, image_stride_n;
} kiln_cpu_winograd_t;

// True when |region| is such a convolution and its filter constant was
// replaced by the transformed, packed one (36 points, each in the 16-column
// panel layout of matmul_entry.h); fills |out|. Leaves the region alone
// otherwise. Unless |any_size|, the image must also have at least
// KILN_CPU_WINOGRAD_MIN_TILES output tiles.
bool kiln_cpu_match_winograd(kiln_ir_context_t* context, kiln_ir_op_t* region,
                             bool any_size, kiln_cpu_winograd_t* out,
                             kiln_status_t* out_status);

// form-dispatch-regions' window_pad_ok for Winograd roots: a zero padding
// of H and W of a channels-last image feeding a convolution the Winograd
// entry takes (kiln_cpu_match_winograd's shape tests with |any_size|).
bool kiln_cpu_window_pad_ok_winograd(kiln_ir_context_t* context,
                                     kiln_ir_op_t* root, kiln_ir_op_t* pad,
                                     bool any_size);

void kiln_cpu_winograd_workgroups(const kiln_cpu_winograd_t* w,
                                  int64_t out_count[3]);
uint32_t kiln_cpu_winograd_local_memory(const kiln_cpu_winograd_t* w);
void kiln_cpu_emit_winograd_entry(const kiln_cpu_winograd_t* w,
                                  const char* c_name,
                                  kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_WINOGRAD_ENTRY_H_
