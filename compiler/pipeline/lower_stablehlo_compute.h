// Lowering of stablehlo.sort and stablehlo.dynamic_update_slice
// (dialects/stablehlo_sort.c) to the structured form, called from
// lower-to-structured. See structured-form.md ("Sort").
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_SORT_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_SORT_H_

#include <stdbool.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// True for the ops kiln_lower_stablehlo_sort_op lowers (lower-to-structured
// also leaves the ops inside their regions, the comparator, to it).
bool kiln_lower_stablehlo_sort_handles(const kiln_ir_op_t* op);

// Lowers |op| (uses replaced, |op| erased) with |b| placed before it.
kiln_status_t kiln_lower_stablehlo_sort_op(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_SORT_H_
