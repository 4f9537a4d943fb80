// Spatial sum dispatches of the cpu backend: a region whose kernel op sums
// a static f32 4-D image over its two spatial dims per (batch, channel)
// (global average pooling and squeeze-and-excitation's pooling: the
// reduction generic ONNX GlobalAveragePool / ReduceMean lower to, over an
// NHWC or NCHW image), with a zero init and an elementwise epilogue (the
// divide by H x W), becomes a direct C entry point. Sums are carried in
// double and rounded once, as the generic path does for a float sum
// (vmvx_codegen.c's kiln_is_float_sum), but in pixel order with the
// channels innermost (vectorized, unit stride over NHWC) instead of the
// generic loop order, which walked each channel at a stride of C floats.
#ifndef KILN_COMPILER_TARGETS_CPU_REDUCTION_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_REDUCTION_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_cpu_spatial_sum_t {
  int64_t n, c, pixels;  // batch, channels, H x W
  bool nhwc;             // channels innermost, else planes (NCHW)
  uint32_t in_binding, out_binding;
  const char* epilogue;  // kiln_cpu_epilogue_build's statements, or NULL
} kiln_cpu_spatial_sum_t;

// True when |region| is such a sum; fills |out|.
bool kiln_cpu_match_spatial_sum(kiln_ir_context_t* context,
                                kiln_ir_op_t* region,
                                kiln_cpu_spatial_sum_t* out);

// The dispatch grid of |s|: channel blocks x batch.
void kiln_cpu_spatial_sum_workgroups(const kiln_cpu_spatial_sum_t* s,
                                     int64_t out_count[3]);

// Appends the entry point |c_name| for |s| to |out|.
void kiln_cpu_emit_spatial_sum_entry(const kiln_cpu_spatial_sum_t* s,
                                     const char* c_name,
                                     kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_REDUCTION_ENTRY_H_
