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
#include "compiler/ir/types.h"

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

// Row max/min dispatches: a region whose kernel op takes the maximumf or
// minimumf of a static f32 tensor over its last dim (softmax's row max),
// read from a captured tensor through the identity map, from a splat
// init, with an elementwise epilogue. The generic path's in-order loop of
// NaN-aware max calls does not vectorize; the entry keeps 16 lanes
// (element j of a row goes to lane j % 16 while whole groups of 16 last),
// then combines the lanes and the tail in order. max/min are exact, so the
// result is the generic path's but for which NaN's payload survives when a
// row holds several.
typedef struct kiln_cpu_row_reduction_t {
  int64_t rows, n;  // rows (the result's elements) of n reduced values
  bool is_max;      // else min
  uint32_t init_bits;
  uint32_t in_binding, out_binding;
  const kiln_ir_type_t* result;
  const char* epilogue;  // kiln_cpu_epilogue_build's statements, or NULL
} kiln_cpu_row_reduction_t;

// True when |region| is such a row reduction; fills |out|.
bool kiln_cpu_match_row_reduction(kiln_ir_context_t* context,
                                  kiln_ir_op_t* region,
                                  kiln_cpu_row_reduction_t* out);

// The dispatch grid of |r|: blocks of rows.
void kiln_cpu_row_reduction_workgroups(const kiln_cpu_row_reduction_t* r,
                                       int64_t out_count[3]);

// Appends the entry point |c_name| for |r| to |out|.
void kiln_cpu_emit_row_reduction_entry(const kiln_cpu_row_reduction_t* r,
                                       const char* c_name,
                                       kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_REDUCTION_ENTRY_H_
