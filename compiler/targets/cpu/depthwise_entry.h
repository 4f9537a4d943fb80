// Depthwise convolution dispatches of the cpu backend: a region whose
// kernel op is an f32 NCHW depthwise convolution (one input channel per
// group, filter [C, 1, KH, KW], zero-initialized), possibly followed by an
// elementwise epilogue (epilogue.h), becomes a direct C entry point: one
// workgroup per channel plane, each output row accumulated tap by tap in
// place (a loop over the row that the C compiler vectorizes), then the
// epilogue on that row. The generic loop nest it replaces walked the taps
// innermost, one scalar at a time. Taps are summed in the generic op's
// order (window row, then column, from zero), so results are the same.
// A zero padding of the image in the region is folded into the bounds.
#ifndef KILN_COMPILER_TARGETS_CPU_DEPTHWISE_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_DEPTHWISE_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"
#include "compiler/targets/cpu/epilogue.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_cpu_depthwise_t {
  int64_t n, c;    // batch, channels
  int64_t h, w;    // image extents
  int64_t oh, ow;  // output extents
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t pad_top, pad_left;  // a folded zero padding (pooling_entry.h)
  uint32_t img_binding, flt_binding, out_binding;
  const char* epilogue;  // kiln_cpu_epilogue_build's statements, or NULL
  // Channels-last: image (N, H, W, C), filter (KH, KW, 1, C), output
  // (N, OH, OW, C), loops (n, oh, ow, c | 1, kh, kw); else NCHW planes.
  bool nhwc;
  // Channels-last, an epilogue that is a per-channel bias and a clamp
  // (epilogue.h): applied to each accumulator vector before its store
  // instead of a pass over the row.
  bool bias_clamp;
  // NHWC: the epilogue is a bias + SiLU, which each output row gets from
  // the kiln_ukernel_bias_act import (KILN_CPU_MATMUL_IMPORTS' seventh).
  bool bias_silu;
  kiln_cpu_epilogue_bias_clamp_t bc;
} kiln_cpu_depthwise_t;

// True when linalg op |op| is such a depthwise convolution, whatever its
// image and filter are (the geometry only); fills |out| (may be NULL).
bool kiln_cpu_match_depthwise_op(kiln_ir_context_t* context, kiln_ir_op_t* op,
                                 kiln_cpu_depthwise_t* out);

// True when |region| is such a depthwise convolution of a binding (or of a
// zero padding of one, read with the window shifted: taps in the padding
// are skipped, which adds exactly what the generic op adds, w * 0, unless
// a weight is inf or NaN); fills |out|.
bool kiln_cpu_match_depthwise(kiln_ir_context_t* context, kiln_ir_op_t* region,
                              kiln_cpu_depthwise_t* out);

// The dispatch grid of |d|: channels x 1 x batch.
// True when |pad| (a zero padding of the spatial dims) can join the
// channels-last depthwise convolution |root| in its dispatch.
bool kiln_cpu_window_pad_ok_depthwise_nhwc(kiln_ir_context_t* context,
                                           kiln_ir_op_t* root,
                                           kiln_ir_op_t* pad);

void kiln_cpu_depthwise_workgroups(const kiln_cpu_depthwise_t* d,
                                   int64_t out_count[3]);

// Appends the entry point |c_name| for |d| to |out|.
void kiln_cpu_emit_depthwise_entry(const kiln_cpu_depthwise_t* d,
                                   const char* c_name,
                                   kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_DEPTHWISE_ENTRY_H_
