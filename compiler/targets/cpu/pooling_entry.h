// Pooling dispatches of the cpu backend: a region whose kernel op is an f32
// NCHW max or sum pooling (the structured form of stablehlo.reduce_window:
// a generic reading the image at (n, c, stride * out + dilation * window)
// with a unit window over n and c, body max(acc, x) or acc + x), possibly
// reading a constant padding of its image in the same region and followed
// by an elementwise epilogue (average pooling's divide, epilogue.h),
// becomes a direct C entry point. Each workgroup takes one channel plane's
// block of output rows (channels x row blocks x batch, so that several
// workers share even a few channels); each output row is accumulated tap
// by tap (window row, then column, as the generic op does) in a loop over
// the row that the C compiler vectorizes. Padding is never materialized:
// taps that fall in it are skipped, which gives the generic op's result
// exactly since the padding holds the reduction's identity (-inf for max,
// 0 for a sum).
#ifndef KILN_COMPILER_TARGETS_CPU_POOLING_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_POOLING_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"

#ifdef __cplusplus
extern "C" {
#endif

// The image of a window op in a dispatch region: a binding, read with
// the window shifted by |pad_top| / |pad_left| (a folded padding).
typedef struct kiln_cpu_window_image_t {
  uint32_t binding;
  int64_t n, c, h, w;  // the unpadded image's extents
  int64_t pad_top, pad_left;
  int64_t padded_h, padded_w;  // the extents the window op reads
} kiln_cpu_window_image_t;

// Finds the image of |op| (operand 0) in region body |body|: a block
// argument, or a padding (window_pad.h) of one over H and W only whose
// value is |identity|. The image is (N, C, H, W), or (N, H, W, C) when
// |nhwc|. False otherwise.
bool kiln_cpu_window_image(kiln_ir_context_t* context, kiln_ir_block_t* body,
                           kiln_ir_op_t* op, bool nhwc, double identity,
                           kiln_cpu_window_image_t* out);

typedef struct kiln_cpu_pool_t {
  kiln_cpu_window_image_t image;
  int64_t oh, ow;  // output extents
  int64_t kh, kw, sh, sw, dh, dw;
  bool is_max;         // else a sum
  bool acc_first;      // the body combines (acc, x), else (x, acc)
  uint32_t init_bits;  // the accumulator's start (a splat init)
  int64_t rows_per_group;
  uint32_t out_binding;
  const char* epilogue;  // kiln_cpu_epilogue_build's statements, or NULL
  bool nhwc;  // channels-last image and output (windows on dims 1 and 2)
} kiln_cpu_pool_t;

// True when |op| (in a region) is such a pooling; fills its geometry and
// operation (not the bindings). |out| may be NULL.
bool kiln_cpu_match_pool_op(kiln_ir_context_t* context, kiln_ir_op_t* op,
                            kiln_cpu_pool_t* out);

// True when |region| is a pooling dispatch the entry runs; fills |out|.
bool kiln_cpu_match_pool(kiln_ir_context_t* context, kiln_ir_op_t* region,
                         kiln_cpu_pool_t* out);

// The dispatch grid of |p|: channels x row blocks x batch.
void kiln_cpu_pool_workgroups(const kiln_cpu_pool_t* p, int64_t out_count[3]);

// Appends the entry point |c_name| for |p| to |out|.
void kiln_cpu_emit_pool_entry(const kiln_cpu_pool_t* p, const char* c_name,
                              kiln_ir_string_builder_t* out);

// form-dispatch-regions' window_pad_ok for the cpu backend: the pooling and
// depthwise entries fold paddings of H and W holding their identity.
bool kiln_cpu_window_pad_ok(kiln_ir_context_t* context, kiln_ir_op_t* root,
                            kiln_ir_op_t* pad);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_POOLING_ENTRY_H_
