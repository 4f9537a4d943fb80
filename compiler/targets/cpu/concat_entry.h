// Concatenation dispatches of the cpu backend: a region that only
// concatenates static tensors along one dim (the structured form that
// stablehlo.concatenate, tosa.concat and ONNX Concat lower to: a generic
// with no inputs whose body selects, by the index along that dim, one
// tensor.extract per operand at the index minus the operand's offset,
// clamped) becomes a direct C entry point that copies each operand's runs
// with memcpy. The generic form computes every element through clamps and
// selects the C compiler cannot vectorize (a 55x55x128 channel concat took
// ~0.3 ms; the copies take a fraction of that). f32 elementwise ops on the
// concatenation's result in the same region (the epilogue ops of
// epilogue.h) run on each row right after its copies.
#ifndef KILN_COMPILER_TARGETS_CPU_CONCAT_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_CONCAT_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_CPU_CONCAT_MAX_OPERANDS 64

typedef struct kiln_cpu_concat_t {
  uint32_t count;  // operands, >= 2
  uint32_t bindings[KILN_CPU_CONCAT_MAX_OPERANDS];
  int64_t sizes[KILN_CPU_CONCAT_MAX_OPERANDS];  // extents along the dim
  int64_t outer;  // product of the result's extents before the dim
  int64_t inner;  // bytes of one index step along the dim
  int64_t total;  // the result's extent along the dim
  uint32_t out_binding;
  // kiln_cpu_epilogue_build's statements for the f32 elementwise ops after
  // the concatenation (run on each row after its copies), or NULL.
  const char* epilogue;
  const kiln_ir_type_t* result;  // the concatenation's type, with epilogue
} kiln_cpu_concat_t;

// True when |region| is such a concatenation; fills |out|.
bool kiln_cpu_match_concat(kiln_ir_context_t* context, kiln_ir_op_t* region,
                           kiln_cpu_concat_t* out);

// The dispatch grid of |c|: blocks of outer rows.
void kiln_cpu_concat_workgroups(const kiln_cpu_concat_t* c,
                                int64_t out_count[3]);

// Appends the entry point |c_name| for |c| to |out|.
void kiln_cpu_emit_concat_entry(const kiln_cpu_concat_t* c, const char* c_name,
                                kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_CONCAT_ENTRY_H_
