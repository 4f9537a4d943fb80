// StableHLO helpers shared by the dialect and the lowering pass.
#ifndef KILN_COMPILER_DIALECTS_STABLEHLO_H_
#define KILN_COMPILER_DIALECTS_STABLEHLO_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kiln_stablehlo_direction_e {
  KILN_STABLEHLO_EQ = 0,
  KILN_STABLEHLO_NE = 1,
  KILN_STABLEHLO_GE = 2,
  KILN_STABLEHLO_GT = 3,
  KILN_STABLEHLO_LE = 4,
  KILN_STABLEHLO_LT = 5,
} kiln_stablehlo_direction_t;

// The comparison direction of a stablehlo.compare (-1 when malformed).
int kiln_stablehlo_compare_direction(const kiln_ir_op_t* op);

// Dimension numbers of a stablehlo.dot_general (counts are -1 when the
// attribute is malformed). At most 16 dims each.
typedef struct kiln_stablehlo_dot_dims_t {
  int64_t num_batch;
  int64_t lhs_batch[16];
  int64_t rhs_batch[16];
  int64_t num_contract;
  int64_t lhs_contract[16];
  int64_t rhs_contract[16];
} kiln_stablehlo_dot_dims_t;
bool kiln_stablehlo_dot_dims(const kiln_ir_op_t* op,
                             kiln_stablehlo_dot_dims_t* out_dims);

// Reads integer list attribute |name| of |op| (array<i64: ...>, [..] or
// dense<...>) into |out|; returns the count or -1 when absent/malformed.
int64_t kiln_stablehlo_int_list_attr(const kiln_ir_op_t* op, const char* name,
                                     int64_t* out, size_t capacity);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_STABLEHLO_H_
