// IR attributes: immutable compile-time values attached to ops (not uniqued;
// compare with kiln_ir_attribute_equal).
//
// The struct is public so passes read fields directly; create attributes
// only through the kiln_ir_*_attr_get functions.
#ifndef KILN_COMPILER_IR_ATTRIBUTES_H_
#define KILN_COMPILER_IR_ATTRIBUTES_H_

#include "compiler/ir/context.h"
#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Affine expressions and maps
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_affine_kind_e {
  KILN_IR_AFFINE_DIM = 0,       // d<position>
  KILN_IR_AFFINE_SYMBOL = 1,    // s<position>
  KILN_IR_AFFINE_CONSTANT = 2,  // value
  KILN_IR_AFFINE_ADD = 3,       // lhs + rhs   (a - b is a + b * -1)
  KILN_IR_AFFINE_MUL = 4,       // lhs * rhs
  KILN_IR_AFFINE_MOD = 5,       // lhs mod rhs
  KILN_IR_AFFINE_FLOORDIV = 6,  // lhs floordiv rhs
  KILN_IR_AFFINE_CEILDIV = 7,   // lhs ceildiv rhs
} kiln_ir_affine_kind_t;

typedef struct kiln_ir_affine_expr_t {
  kiln_ir_affine_kind_t kind;
  int64_t value;  // position (DIM, SYMBOL) or constant (CONSTANT)
  const struct kiln_ir_affine_expr_t* lhs;  // binary kinds
  const struct kiln_ir_affine_expr_t* rhs;
} kiln_ir_affine_expr_t;

typedef struct kiln_ir_affine_map_t {
  uint32_t num_dims;
  uint32_t num_symbols;
  size_t num_results;
  const kiln_ir_affine_expr_t* const* results;
} kiln_ir_affine_map_t;

const kiln_ir_affine_expr_t* kiln_ir_affine_dim(kiln_ir_context_t* context,
                                                int64_t position);
const kiln_ir_affine_expr_t* kiln_ir_affine_symbol(kiln_ir_context_t* context,
                                                   int64_t position);
const kiln_ir_affine_expr_t* kiln_ir_affine_constant(kiln_ir_context_t* context,
                                                     int64_t value);
const kiln_ir_affine_expr_t* kiln_ir_affine_binary(
    kiln_ir_context_t* context, kiln_ir_affine_kind_t kind,
    const kiln_ir_affine_expr_t* lhs, const kiln_ir_affine_expr_t* rhs);
// Evaluates |expr| with the given dim and symbol values. Returns false on
// division by zero or out-of-range positions.
bool kiln_ir_affine_expr_eval(const kiln_ir_affine_expr_t* expr,
                              const int64_t* dims, size_t num_dims,
                              const int64_t* symbols, size_t num_symbols,
                              int64_t* out_value);
// True when result |i| of |map| is exactly d<k>; stores k.
bool kiln_ir_affine_map_result_is_dim(const kiln_ir_affine_map_t* map, size_t i,
                                      int64_t* out_position);
// True for (d0..dn-1) -> (d0..dn-1).
bool kiln_ir_affine_map_is_identity(const kiln_ir_affine_map_t* map);

//===----------------------------------------------------------------------===//
// Attribute kinds
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_attribute_kind_e {
  KILN_IR_ATTR_INTEGER = 0,          // 42 : i64
  KILN_IR_ATTR_FLOAT = 1,            // 1.5 : f32
  KILN_IR_ATTR_BOOL = 2,             // true / false (type i1)
  KILN_IR_ATTR_STRING = 3,           // "text"
  KILN_IR_ATTR_UNIT = 4,             // unit (or a bare key in a dictionary)
  KILN_IR_ATTR_TYPE = 5,             // a type used as an attribute
  KILN_IR_ATTR_ARRAY = 6,            // [a, b]
  KILN_IR_ATTR_DENSE_ARRAY = 7,      // array<i64: 1, 2>
  KILN_IR_ATTR_DICTIONARY = 8,       // {a = 1, b}
  KILN_IR_ATTR_SYMBOL_REF = 9,       // @foo, @a::@b
  KILN_IR_ATTR_DENSE_ELEMENTS = 10,  // dense<...> : tensor<...>
  KILN_IR_ATTR_AFFINE_MAP = 11,      // affine_map<(d0) -> (d0)>
  KILN_IR_ATTR_DIALECT = 12,         // #dialect.name<...>, #dialect<kw V>
  KILN_IR_ATTR_KEYWORD = 13,         // a bare word inside a dialect attr (LT)
} kiln_ir_attribute_kind_t;

struct kiln_ir_attribute_t;

// A (name, value) pair: dictionary entries and op attributes. For op
// attributes |is_property| remembers whether it was written in `<{...}>`.
typedef struct kiln_ir_named_attribute_t {
  kiln_string_view_t name;  // interned
  const struct kiln_ir_attribute_t* value;
  bool is_property;
} kiln_ir_named_attribute_t;

typedef struct kiln_ir_attribute_t {
  kiln_ir_attribute_kind_t kind;
  // INTEGER, FLOAT, BOOL, DENSE_ELEMENTS, DENSE_ARRAY (element type), TYPE
  // (the type value); NULL otherwise. For INTEGER/FLOAT it may be NULL when
  // written without `: type` where none was implied (printed bare).
  const kiln_ir_type_t* type;
  union {
    // INTEGER: the value sign-extended (signless/signed) or zero-extended
    // (unsigned, i1) from its width. BOOL: 0 or 1.
    int64_t i;
    // FLOAT: the value as a double and the exact bits in the storage format
    // of |type| (f16/bf16 -> 16 bits, f32 -> 32, f64 -> 64).
    struct {
      double value;
      uint64_t bits;
    } f;
    // STRING (bytes, may contain NUL), KEYWORD.
    kiln_string_view_t str;
    // ARRAY, DICTIONARY (sorted by name as in MLIR), DIALECT params live in
    // the dialect member.
    struct {
      size_t count;
      const struct kiln_ir_attribute_t* const* elements;
    } array;
    struct {
      size_t count;
      const kiln_ir_named_attribute_t* entries;
    } dict;
    // DENSE_ARRAY: |count| values of |type| (i1/iN/f32/f64); stored as
    // int64 for integer and bool element types, double for floats.
    struct {
      size_t count;
      const int64_t* i64;  // integer element types
      const double* f64;   // float element types
    } dense_array;
    // SYMBOL_REF: root and nested references (@a::@b -> root a, nested [b]).
    struct {
      kiln_string_view_t root;
      size_t num_nested;
      const kiln_string_view_t* nested;
    } symbol;
    // DENSE_ELEMENTS: |type| is the shaped type. |data| holds either one
    // element (splat) or all elements in row-major order, packed with
    // kiln_ir_type_storage_bytes(element) bytes per element, little endian;
    // i1 takes one byte (0/1); complex stores (real, imag).
    struct {
      bool splat;
      size_t size;
      const uint8_t* data;
    } dense;
    const kiln_ir_affine_map_t* affine_map;
    // DIALECT: `#stablehlo.dot<lhs_batching_dimensions = [0]>` gives
    // dialect "stablehlo", name "dot", params [(lhs_batching_dimensions,
    // [0])]; `#stablehlo<comparison_direction LT>` gives name
    // "comparison_direction" and one positional param (name "") with a
    // KEYWORD value "LT"; `#stablehlo.conv<raw a = 1>` gives a positional
    // KEYWORD "raw" then (a, 1). When the body is not of that key/value
    // shape, |structured| is false and only |text| is meaningful.
    // |text| is the exact spelling (from '#' to the closing '>'), used by
    // the printer.
    struct {
      kiln_string_view_t dialect;  // interned
      kiln_string_view_t name;     // interned; "" when absent
      kiln_string_view_t text;
      bool structured;
      size_t num_params;
      const kiln_ir_named_attribute_t* params;
    } dialect;
  };
} kiln_ir_attribute_t;

//===----------------------------------------------------------------------===//
// Constructors (NULL only on out of memory)
//===----------------------------------------------------------------------===//

const kiln_ir_attribute_t* kiln_ir_integer_attr_get(kiln_ir_context_t* context,
                                                    const kiln_ir_type_t* type,
                                                    int64_t value);
// |type| must be a float type; |value| is rounded to it and its exact bits
// recorded.
const kiln_ir_attribute_t* kiln_ir_float_attr_get(kiln_ir_context_t* context,
                                                  const kiln_ir_type_t* type,
                                                  double value);
// A float attribute from exact storage bits of |type|.
const kiln_ir_attribute_t* kiln_ir_float_attr_get_bits(
    kiln_ir_context_t* context, const kiln_ir_type_t* type, uint64_t bits);
const kiln_ir_attribute_t* kiln_ir_bool_attr_get(kiln_ir_context_t* context,
                                                 bool value);
const kiln_ir_attribute_t* kiln_ir_string_attr_get(kiln_ir_context_t* context,
                                                   kiln_string_view_t value);
const kiln_ir_attribute_t* kiln_ir_keyword_attr_get(kiln_ir_context_t* context,
                                                    kiln_string_view_t word);
const kiln_ir_attribute_t* kiln_ir_unit_attr_get(kiln_ir_context_t* context);
const kiln_ir_attribute_t* kiln_ir_type_attr_get(kiln_ir_context_t* context,
                                                 const kiln_ir_type_t* type);
const kiln_ir_attribute_t* kiln_ir_array_attr_get(
    kiln_ir_context_t* context, size_t count,
    const kiln_ir_attribute_t* const* elements);
// Entries are copied and sorted by name.
const kiln_ir_attribute_t* kiln_ir_dictionary_attr_get(
    kiln_ir_context_t* context, size_t count,
    const kiln_ir_named_attribute_t* entries);
// Integer element type (i1..i64): values in |values|.
const kiln_ir_attribute_t* kiln_ir_dense_i64_array_attr_get(
    kiln_ir_context_t* context, const kiln_ir_type_t* element_type,
    size_t count, const int64_t* values);
// Float element type (f32/f64).
const kiln_ir_attribute_t* kiln_ir_dense_f64_array_attr_get(
    kiln_ir_context_t* context, const kiln_ir_type_t* element_type,
    size_t count, const double* values);
const kiln_ir_attribute_t* kiln_ir_symbol_ref_attr_get(
    kiln_ir_context_t* context, kiln_string_view_t root, size_t num_nested,
    const kiln_string_view_t* nested);
// Dense elements: |data| (copied) holds one element when |splat| or all of
// them; |size| must match. Returns NULL when the size is wrong.
const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_get(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type, bool splat,
    const void* data, size_t size);
// Dense elements of |shaped_type| whose |size| bytes of data the caller
// writes through *out_data before the attribute is used (no copy of a
// source buffer, and no zeroing: for results computed straight into place).
const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_get_uninitialized(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type, bool splat,
    size_t size, uint8_t** out_data);
// Dense elements over |data| without a copy: |data| must stay unchanged
// for the context's lifetime (it is in the context's arena).
const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_get_borrowed(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type, bool splat,
    const void* data, size_t size);
// |source| (dense elements) viewed as |shaped_type|, which has the same
// element type and number of elements: the data is shared, not copied
// (attributes are immutable and live as long as their context). NULL when
// the types do not agree.
const kiln_ir_attribute_t* kiln_ir_dense_elements_attr_reshape(
    kiln_ir_context_t* context, const kiln_ir_attribute_t* source,
    const kiln_ir_type_t* shaped_type);
const kiln_ir_attribute_t* kiln_ir_affine_map_attr_get(
    kiln_ir_context_t* context, uint32_t num_dims, uint32_t num_symbols,
    size_t num_results, const kiln_ir_affine_expr_t* const* results);
// A structured dialect attribute; |text| is its exact spelling. The params
// are copied.
const kiln_ir_attribute_t* kiln_ir_dialect_attr_get(
    kiln_ir_context_t* context, kiln_string_view_t dialect,
    kiln_string_view_t name, kiln_string_view_t text, bool structured,
    size_t num_params, const kiln_ir_named_attribute_t* params);

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

// Structural equality (dense data compared bytewise, floats by bits).
bool kiln_ir_attribute_equal(const kiln_ir_attribute_t* a,
                             const kiln_ir_attribute_t* b);

// Looks |name| up in a DICTIONARY attribute; NULL when absent.
const kiln_ir_attribute_t* kiln_ir_dictionary_get(
    const kiln_ir_attribute_t* dict, const char* name);

// Looks up the keyed param |key| of a DIALECT attribute; NULL when absent.
const kiln_ir_attribute_t* kiln_ir_dialect_attr_param(
    const kiln_ir_attribute_t* attr, const char* key);
// The first positional KEYWORD param of a DIALECT attribute
// (`#stablehlo<comparison_direction LT>` -> "LT"); empty when none.
kiln_string_view_t kiln_ir_dialect_attr_keyword(
    const kiln_ir_attribute_t* attr);
// True when |attr| is a DIALECT attribute with that dialect and name.
bool kiln_ir_dialect_attr_is(const kiln_ir_attribute_t* attr,
                             const char* dialect, const char* name);

// Reads an ARRAY of INTEGER or a DENSE_ARRAY of integers into |out| (at
// most |capacity| values); returns the count or -1 when |attr| has another
// shape.
int64_t kiln_ir_attr_int_list(const kiln_ir_attribute_t* attr, int64_t* out,
                              size_t capacity);

// DENSE_ELEMENTS helpers. The element count of the shaped type:
int64_t kiln_ir_dense_num_elements(const kiln_ir_attribute_t* attr);
// Element |index| (splat attrs answer any index) as an integer (integer
// and bool elements; sign handling by the element type) or a double (float
// elements; complex -> real part). Return false on a kind mismatch.
bool kiln_ir_dense_get_int(const kiln_ir_attribute_t* attr, int64_t index,
                           int64_t* out_value);
bool kiln_ir_dense_get_double(const kiln_ir_attribute_t* attr, int64_t index,
                              double* out_value);
// Complex element |index| as (real, imag) doubles.
bool kiln_ir_dense_get_complex(const kiln_ir_attribute_t* attr, int64_t index,
                               double* out_real, double* out_imag);

// Float bit conversions used for exact storage.
uint16_t kiln_ir_f32_to_f16_bits(float value);
float kiln_ir_f16_bits_to_f32(uint16_t bits);
uint16_t kiln_ir_f32_to_bf16_bits(float value);  // round to nearest even
float kiln_ir_bf16_bits_to_f32(uint16_t bits);
// |value| rounded to the float type |kind| and returned as storage bits.
uint64_t kiln_ir_float_to_bits(kiln_ir_float_kind_t kind, double value);
// Storage bits of |kind| back to a double.
double kiln_ir_float_from_bits(kiln_ir_float_kind_t kind, uint64_t bits);

// Prints |attr| in MLIR syntax to an arena string (NULL on OOM).
const char* kiln_ir_attribute_to_string(kiln_ir_context_t* context,
                                        const kiln_ir_attribute_t* attr);

// True for IREE's parameter references, `#flow.parameter.named<"key">` and
// `#flow.parameter.named<"scope"::"key">`: such a global becomes an
// arith.constant holding that attribute, which nothing folds and
// vm-emission writes as a parameter rodata entry.
bool kiln_ir_attr_is_parameter(const kiln_ir_attribute_t* attr);
// Its scope ("" when absent) and key; false when malformed.
bool kiln_ir_parameter_attr_ref(const kiln_ir_attribute_t* attr,
                                kiln_string_view_t* out_scope,
                                kiln_string_view_t* out_key);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_ATTRIBUTES_H_
