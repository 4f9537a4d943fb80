// A uniform view of the structured ops that dispatch formation and the
// backends consume: linalg.generic, and the named ops linalg.matmul,
// linalg.batch_matmul and linalg.fill, described as (iteration domain,
// indexing map per operand, iterator kinds, scalar body). Named ops are
// described without rewriting the IR: their maps are built here and their
// body is implied by |kind|.
#ifndef KILN_COMPILER_DISPATCH_STRUCTURED_H_
#define KILN_COMPILER_DISPATCH_STRUCTURED_H_

#include "compiler/ir/attributes.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The most loop dimensions a structured op may have.
#define KILN_STRUCTURED_MAX_DIMS 12
// The most operands (ins + outs) a structured op may have.
#define KILN_STRUCTURED_MAX_OPERANDS 32

typedef enum kiln_structured_kind_e {
  KILN_STRUCTURED_NONE = 0,
  KILN_STRUCTURED_GENERIC = 1,       // linalg.generic (body block)
  KILN_STRUCTURED_MATMUL = 2,        // linalg.matmul: C += A * B
  KILN_STRUCTURED_BATCH_MATMUL = 3,  // linalg.batch_matmul
  KILN_STRUCTURED_FILL = 4,          // linalg.fill: out = scalar
} kiln_structured_kind_t;

typedef struct kiln_structured_op_t {
  kiln_ir_op_t* op;
  kiln_structured_kind_t kind;
  uint32_t num_ins;   // operands [0, num_ins)
  uint32_t num_outs;  // operands [num_ins, num_ins + num_outs) == results
  uint32_t num_dims;
  // Loop bounds; KILN_IR_DYNAMIC_DIM where only known at run time.
  int64_t ranges[KILN_STRUCTURED_MAX_DIMS];
  bool is_reduction[KILN_STRUCTURED_MAX_DIMS];
  const kiln_ir_affine_map_t* maps[KILN_STRUCTURED_MAX_OPERANDS];
  kiln_ir_block_t* body;  // GENERIC only
} kiln_structured_op_t;

// True when |op| is one of the structured ops above.
bool kiln_structured_op_is(const kiln_ir_op_t* op);

// Fills |out| for |op|. Errors (recorded as diagnostics at the op) for
// malformed ops, dynamic shapes and maps whose loop ranges cannot be
// derived from operand shapes.
kiln_status_t kiln_structured_op_get(kiln_ir_context_t* context,
                                     kiln_ir_op_t* op,
                                     kiln_structured_op_t* out);

// As kiln_structured_op_get for a matcher that only asks whether |op| fits:
// false (the error dropped) where that returns an error.
bool kiln_structured_op_try_get(kiln_ir_context_t* context, kiln_ir_op_t* op,
                                kiln_structured_op_t* out);

// True when every loop is parallel.
bool kiln_structured_op_all_parallel(const kiln_structured_op_t* s);

// In a generic's body: the loop dim of the linalg.index defining |v|, or -1
// (the matchers of lowered forms: paddings, concatenations).
int64_t kiln_structured_index_dim(kiln_ir_value_t* v);
// The value of the integer arith.constant defining |v|; false otherwise.
bool kiln_structured_const_int(kiln_ir_value_t* v, int64_t* out);
// True when output map |i| (of the outs) is a permutation of all dims.
bool kiln_structured_out_map_is_permutation(const kiln_structured_op_t* s,
                                            uint32_t i);
// Number of reduction loops.
uint32_t kiln_structured_num_reductions(const kiln_structured_op_t* s);
// True for generics whose loops are all parallel and whose outputs are
// indexed by permutations: fusion recomputes them at any point.
bool kiln_structured_is_elementwise(const kiln_structured_op_t* s);
// True when |map| is (d0..dn) -> (the parallel dims in order): the output
// map of a reduction whose result is indexed by its parallel loops.
bool kiln_structured_map_is_parallel_projection(
    const kiln_structured_op_t* s, const kiln_ir_affine_map_t* map);

// The size operand a tensor.empty |empty| takes for its dynamic dim |dim|
// (its dynamic dims' sizes are its operands, in dim order), or NULL.
kiln_ir_value_t* kiln_structured_empty_size(kiln_ir_op_t* empty, size_t dim);

// Where the run-time size of dynamic dim |dim| of tensor |v| comes from,
// followed back through the inits of the structured ops producing it: the
// index value a tensor.empty takes for that dim, or NULL with |*out_tensor|
// the furthest tensor reached (|v| itself when |dim| is static or |v| has
// no such producer), whose dim |dim| it is.
kiln_ir_value_t* kiln_structured_dim_size(kiln_ir_context_t* context,
                                          kiln_ir_value_t* v, size_t dim,
                                          kiln_ir_value_t** out_tensor);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_STRUCTURED_H_
