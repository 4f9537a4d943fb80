// Elementwise dispatches of the cpu backend: a region whose structured ops
// are all f32 elementwise linalg.generics of one static shape (the ops an
// epilogue may hold: kiln_cpu_epilogue_op_ok), reading captured tensors
// through identity or broadcast maps, becomes a direct C entry point: rows
// of the result's last dim, each a unit-stride loop the C compiler
// vectorizes, with the body emitted by kiln_cpu_epilogue_build. The generic
// path runs the loop program's bounds-checked scalar loops instead
// (DenseNet-121's batch-norm + ReLU before each 1x1 convolution, over the
// concatenated features, was 13% of its time on one thread).
#ifndef KILN_COMPILER_TARGETS_CPU_ELEMENTWISE_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_ELEMENTWISE_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_cpu_elementwise_t {
  const kiln_ir_type_t* result;  // static f32 tensor, at least one element
  int64_t rows;                  // product of the result's dims but the last
  int64_t cols;                  // the last dim (1 for rank 0)
  int64_t rows_per_workgroup;
  uint32_t out_binding;
  const char* body;  // kiln_cpu_epilogue_build's statements (root NULL)
} kiln_cpu_elementwise_t;

// True when |region| is such an elementwise dispatch; fills |out|.
bool kiln_cpu_match_elementwise(kiln_ir_context_t* context,
                                kiln_ir_op_t* region,
                                kiln_cpu_elementwise_t* out);

// The dispatch grid of |e|: blocks of rows.
void kiln_cpu_elementwise_workgroups(const kiln_cpu_elementwise_t* e,
                                     int64_t out_count[3]);

// Appends the entry point |c_name| for |e| to |out|.
void kiln_cpu_emit_elementwise_entry(const kiln_cpu_elementwise_t* e,
                                     const char* c_name,
                                     kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_ELEMENTWISE_ENTRY_H_
