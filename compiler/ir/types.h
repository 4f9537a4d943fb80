// IR types: immutable, uniqued per context (two equal types are the same
// pointer, so `a == b` is type equality).
//
// The struct is public so passes read fields directly; create types only
// through the kiln_ir_*_type_get functions.
#ifndef KILN_COMPILER_IR_TYPES_H_
#define KILN_COMPILER_IR_TYPES_H_

#include "compiler/ir/context.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kiln_ir_attribute_t;

//===----------------------------------------------------------------------===//
// Type kinds
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_type_kind_e {
  KILN_IR_TYPE_INTEGER = 0,          // i1 i8 i32 si32 ui8 ...
  KILN_IR_TYPE_INDEX = 1,            // index
  KILN_IR_TYPE_FLOAT = 2,            // f16 bf16 f32 f64
  KILN_IR_TYPE_COMPLEX = 3,          // complex<f32>
  KILN_IR_TYPE_RANKED_TENSOR = 4,    // tensor<4x?xf32, #enc>
  KILN_IR_TYPE_UNRANKED_TENSOR = 5,  // tensor<*xf32>
  KILN_IR_TYPE_VECTOR = 6,           // vector<4xf32>
  KILN_IR_TYPE_MEMREF = 7,           // memref<4x?xf32> (no layout)
  KILN_IR_TYPE_FUNCTION = 8,         // (i32, f32) -> (f32)
  KILN_IR_TYPE_TUPLE = 9,            // tuple<i32, f32>
  KILN_IR_TYPE_NONE = 10,            // none
  KILN_IR_TYPE_OPAQUE = 11,          // !stablehlo.token, !dialect.foo<...>
} kiln_ir_type_kind_t;

typedef enum kiln_ir_signedness_e {
  KILN_IR_SIGNLESS = 0,  // iN
  KILN_IR_SIGNED = 1,    // siN
  KILN_IR_UNSIGNED = 2,  // uiN
} kiln_ir_signedness_t;

typedef enum kiln_ir_float_kind_e {
  KILN_IR_F16 = 0,
  KILN_IR_BF16 = 1,
  KILN_IR_F32 = 2,
  KILN_IR_F64 = 3,
  // 8- and 4-bit floats, one per byte in memory, computed on as f32 and
  // rounded back (runtime/vm/numerics.h; format number = kind - 4).
  KILN_IR_F8E4M3FN = 4,
  KILN_IR_F8E5M2 = 5,
  KILN_IR_F8E4M3FNUZ = 6,
  KILN_IR_F8E5M2FNUZ = 7,
  KILN_IR_F8E8M0FNU = 8,
  KILN_IR_F4E2M1FN = 9,
} kiln_ir_float_kind_t;

#define KILN_IR_FLOAT_KIND_COUNT 10
// The MLIR spellings of the float kinds, by kind.
extern const char* const kiln_ir_float_kind_names[KILN_IR_FLOAT_KIND_COUNT];
// True for the 8- and 4-bit kinds.
static inline bool kiln_ir_float_kind_is_small(kiln_ir_float_kind_t k) {
  return k >= KILN_IR_F8E4M3FN;
}

// The marker for a dynamic dimension (`?`) in shaped types.
#define KILN_IR_DYNAMIC_DIM INT64_MIN

typedef struct kiln_ir_type_t {
  kiln_ir_type_kind_t kind;
  union {
    struct {
      uint32_t width;
      kiln_ir_signedness_t signedness;
    } integer;
    struct {
      kiln_ir_float_kind_t kind;
    } flt;
    struct {
      const struct kiln_ir_type_t* element;
    } complex;
    // RANKED_TENSOR, UNRANKED_TENSOR (rank 0, dims NULL), VECTOR, MEMREF.
    struct {
      size_t rank;
      const int64_t* dims;  // KILN_IR_DYNAMIC_DIM for `?`
      const struct kiln_ir_type_t* element;
      const struct kiln_ir_attribute_t* encoding;  // NULL when absent
    } shaped;
    struct {
      size_t num_inputs;
      const struct kiln_ir_type_t* const* inputs;
      size_t num_results;
      const struct kiln_ir_type_t* const* results;
    } function;
    struct {
      size_t count;
      const struct kiln_ir_type_t* const* types;
    } tuple;
    struct {
      kiln_string_view_t dialect;  // "stablehlo" (interned)
      kiln_string_view_t text;     // full spelling "!stablehlo.token"
    } opaque;
  };
} kiln_ir_type_t;

//===----------------------------------------------------------------------===//
// Constructors (uniqued; NULL only on out of memory)
//===----------------------------------------------------------------------===//

const kiln_ir_type_t* kiln_ir_integer_type_get(kiln_ir_context_t* context,
                                               uint32_t width,
                                               kiln_ir_signedness_t sign);
// Signless iN (the common case).
const kiln_ir_type_t* kiln_ir_int_type(kiln_ir_context_t* context,
                                       uint32_t width);
const kiln_ir_type_t* kiln_ir_index_type_get(kiln_ir_context_t* context);
const kiln_ir_type_t* kiln_ir_float_type_get(kiln_ir_context_t* context,
                                             kiln_ir_float_kind_t kind);
const kiln_ir_type_t* kiln_ir_complex_type_get(kiln_ir_context_t* context,
                                               const kiln_ir_type_t* element);
// Ranked tensor; |encoding| may be NULL.
const kiln_ir_type_t* kiln_ir_tensor_type_get(
    kiln_ir_context_t* context, size_t rank, const int64_t* dims,
    const kiln_ir_type_t* element, const struct kiln_ir_attribute_t* encoding);
const kiln_ir_type_t* kiln_ir_unranked_tensor_type_get(
    kiln_ir_context_t* context, const kiln_ir_type_t* element);
const kiln_ir_type_t* kiln_ir_vector_type_get(kiln_ir_context_t* context,
                                              size_t rank, const int64_t* dims,
                                              const kiln_ir_type_t* element);
const kiln_ir_type_t* kiln_ir_memref_type_get(kiln_ir_context_t* context,
                                              size_t rank, const int64_t* dims,
                                              const kiln_ir_type_t* element);
const kiln_ir_type_t* kiln_ir_function_type_get(
    kiln_ir_context_t* context, size_t num_inputs,
    const kiln_ir_type_t* const* inputs, size_t num_results,
    const kiln_ir_type_t* const* results);
const kiln_ir_type_t* kiln_ir_tuple_type_get(
    kiln_ir_context_t* context, size_t count,
    const kiln_ir_type_t* const* types);
const kiln_ir_type_t* kiln_ir_none_type_get(kiln_ir_context_t* context);
// An opaque dialect type: |text| is the full spelling including the leading
// '!' (e.g. "!stablehlo.token"); the dialect is taken from it.
const kiln_ir_type_t* kiln_ir_opaque_type_get(kiln_ir_context_t* context,
                                              kiln_string_view_t text);

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool kiln_ir_type_is_integer(const kiln_ir_type_t* type);  // integer kinds
bool kiln_ir_type_is_signless_int(const kiln_ir_type_t* type, uint32_t width);
bool kiln_ir_type_is_float(const kiln_ir_type_t* type);
bool kiln_ir_type_is_index(const kiln_ir_type_t* type);
// Integer, index, float or complex.
bool kiln_ir_type_is_scalar(const kiln_ir_type_t* type);
// Ranked or unranked tensor, vector, memref.
bool kiln_ir_type_is_shaped(const kiln_ir_type_t* type);
bool kiln_ir_type_is_ranked_tensor(const kiln_ir_type_t* type);
// Element type of a shaped type, or |type| itself for scalars.
const kiln_ir_type_t* kiln_ir_type_element(const kiln_ir_type_t* type);
// True when a ranked shaped type has no dynamic dim.
bool kiln_ir_type_has_static_shape(const kiln_ir_type_t* type);
// Number of elements of a static shaped type (1 for rank 0), or -1.
int64_t kiln_ir_type_num_elements(const kiln_ir_type_t* type);
// Bit width of a scalar element type (i1 -> 1, f16 -> 16, complex<f32> ->
// 64, index -> 64); 0 for other types.
uint32_t kiln_ir_type_bit_width(const kiln_ir_type_t* type);
// Bytes one element takes in dense attribute storage: i1 -> 1, iN ->
// ceil(N/8), floats by width, complex -> 2 * element; 0 for non-scalars.
size_t kiln_ir_type_storage_bytes(const kiln_ir_type_t* type);

// Prints |type| in MLIR syntax to an arena string (NULL on OOM).
const char* kiln_ir_type_to_string(kiln_ir_context_t* context,
                                   const kiln_ir_type_t* type);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_TYPES_H_
