// Lowering of stablehlo.optimization_barrier, get_dimension_size and map
// (input/stablehlo/stablehlo_misc.c), called from lower-to-structured:
//   optimization_barrier -> util.optimization_barrier (same operands),
//   get_dimension_size   -> a dense<size> : tensor<i32> constant,
//   map                  -> one parallel linalg.generic whose body is the
//                           computation region as scalar ops.
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_MISC_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_MISC_H_

#include <stdbool.h>

#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The hooks of this file's ops (see KILN_STABLEHLO_DECLARE_LOWERING):
// kiln_stablehlo_lower_<name>, named by each op definition.
#define KILN_STABLEHLO_MISC_LOWERINGS(X) \
  X(optimization_barrier)                \
  X(get_dimension_size) X(map) X(tuple) X(get_tuple_element) X(dynamic_shape)
KILN_STABLEHLO_MISC_LOWERINGS(KILN_STABLEHLO_DECLARE_LOWERING)

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_MISC_H_
