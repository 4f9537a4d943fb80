// Shared helpers of the tensor dialect (dialects/tensor.c) for the passes
// that lower its slice ops (pipeline/lower_tensor.c).
#ifndef KILN_COMPILER_DIALECTS_TENSOR_H_
#define KILN_COMPILER_DIALECTS_TENSOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

// The most dims a tensor.extract_slice / insert_slice may have.
#define KILN_TENSOR_MAX_RANK 16

// Matches the |rank| slice |sizes| (KILN_IR_DYNAMIC_DIM for dynamic ones)
// against the ranked tensor type |t|, which may drop unit dims of the slice
// (rank reduction): result_dim_of[i] receives the dim of |t| that slice dim
// i becomes, or -1 when it is dropped. False when |t| does not match.
bool kiln_tensor_match_slice_shape(size_t rank, const int64_t* sizes,
                                   const kiln_ir_type_t* t,
                                   int64_t* result_dim_of);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_TENSOR_H_
