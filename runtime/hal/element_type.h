// Element types of tensors crossing the HAL (buffer views, --input parsing),
// encoded as IREE encodes them: the numerical type in the high byte and the
// bit count in the low byte, so that the byte size is derivable without a
// table and the values match what IREE users see in dumps.
#ifndef KILN_RUNTIME_HAL_ELEMENT_TYPE_H_
#define KILN_RUNTIME_HAL_ELEMENT_TYPE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Numerical types and element type encoding
//===----------------------------------------------------------------------===//

typedef enum kiln_hal_numerical_type_e {
  KILN_HAL_NUMERICAL_TYPE_UNKNOWN = 0x00,
  KILN_HAL_NUMERICAL_TYPE_INTEGER = 0x10,           // signless
  KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED = 0x11,    // "si"
  KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED = 0x12,  // "ui"
  KILN_HAL_NUMERICAL_TYPE_BOOLEAN = 0x13,           // "i1", stored in 8 bits
  KILN_HAL_NUMERICAL_TYPE_FLOAT = 0x20,
  KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE = 0x21,     // "f"
  KILN_HAL_NUMERICAL_TYPE_FLOAT_BRAIN = 0x22,    // "bf"
  KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX = 0x23,  // "cf" (bits of the pair)
  // 8- and 4-bit floats (IREE's codes for the f8 kinds), one per byte.
  KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E5M2 = 0x24,
  KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E4M3_FN = 0x25,
  KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E5M2_FNUZ = 0x26,
  KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E4M3_FNUZ = 0x27,
  KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E8M0_FNU = 0x28,
  KILN_HAL_NUMERICAL_TYPE_FLOAT_4_E2M1_FN = 0x29,
} kiln_hal_numerical_type_t;

// An element type value: (numerical_type << 24) | bit_count.
typedef uint32_t kiln_hal_element_type_t;

#define KILN_HAL_ELEMENT_TYPE_VALUE(numerical_type, bit_count) \
  (((uint32_t)(numerical_type) << 24) | (uint32_t)(bit_count))

#define KILN_HAL_ELEMENT_TYPE_NONE \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_UNKNOWN, 0)
#define KILN_HAL_ELEMENT_TYPE_OPAQUE_8 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_UNKNOWN, 8)
#define KILN_HAL_ELEMENT_TYPE_OPAQUE_16 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_UNKNOWN, 16)
#define KILN_HAL_ELEMENT_TYPE_OPAQUE_32 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_UNKNOWN, 32)
#define KILN_HAL_ELEMENT_TYPE_OPAQUE_64 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_UNKNOWN, 64)
#define KILN_HAL_ELEMENT_TYPE_BOOL_8 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_BOOLEAN, 8)
#define KILN_HAL_ELEMENT_TYPE_INT_8 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER, 8)
#define KILN_HAL_ELEMENT_TYPE_INT_16 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER, 16)
#define KILN_HAL_ELEMENT_TYPE_INT_32 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER, 32)
#define KILN_HAL_ELEMENT_TYPE_INT_64 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER, 64)
#define KILN_HAL_ELEMENT_TYPE_SINT_8 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED, 8)
#define KILN_HAL_ELEMENT_TYPE_SINT_16 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED, 16)
#define KILN_HAL_ELEMENT_TYPE_SINT_32 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED, 32)
#define KILN_HAL_ELEMENT_TYPE_SINT_64 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED, 64)
#define KILN_HAL_ELEMENT_TYPE_UINT_8 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED, 8)
#define KILN_HAL_ELEMENT_TYPE_UINT_16 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED, 16)
#define KILN_HAL_ELEMENT_TYPE_UINT_32 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED, 32)
#define KILN_HAL_ELEMENT_TYPE_UINT_64 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED, 64)
#define KILN_HAL_ELEMENT_TYPE_FLOAT_16 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE, 16)
#define KILN_HAL_ELEMENT_TYPE_FLOAT_32 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE, 32)
#define KILN_HAL_ELEMENT_TYPE_FLOAT_64 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE, 64)
#define KILN_HAL_ELEMENT_TYPE_BFLOAT_16 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_FLOAT_BRAIN, 16)
// complex<f32>: two f32 (real, imaginary), 64 bits in all.
#define KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX, 64)
// complex<f64>: two f64, 128 bits in all.
#define KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128 \
  KILN_HAL_ELEMENT_TYPE_VALUE(KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX, 128)

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

// The numerical type (high byte).
static inline kiln_hal_numerical_type_t kiln_hal_element_numerical_type(
    kiln_hal_element_type_t type) {
  return (kiln_hal_numerical_type_t)(type >> 24);
}
// The storage bit count (low byte).
static inline uint32_t kiln_hal_element_bit_count(
    kiln_hal_element_type_t type) {
  return type & 0xFFu;
}
// Bytes per element, rounding sub-byte types up (i4 -> 1).
static inline size_t kiln_hal_element_byte_size(kiln_hal_element_type_t type) {
  return (size_t)((kiln_hal_element_bit_count(type) + 7) / 8);
}
// True for any float kind (IEEE, brain, complex).
static inline bool kiln_hal_element_is_float(kiln_hal_element_type_t type) {
  return (kiln_hal_element_numerical_type(type) & 0xF0u) ==
         KILN_HAL_NUMERICAL_TYPE_FLOAT;
}
// The runtime/vm/numerics.h format number of an 8/4-bit float type, or -1.
static inline int kiln_hal_element_small_float_format(
    kiln_hal_element_type_t type) {
  switch (kiln_hal_element_numerical_type(type)) {
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E4M3_FN:
      return 0;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E5M2:
      return 1;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E4M3_FNUZ:
      return 2;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E5M2_FNUZ:
      return 3;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_8_E8M0_FNU:
      return 4;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_4_E2M1_FN:
      return 5;
    default:
      return -1;
  }
}
// True for signless, signed, unsigned integers and booleans.
static inline bool kiln_hal_element_is_integer(kiln_hal_element_type_t type) {
  return (kiln_hal_element_numerical_type(type) & 0xF0u) ==
         KILN_HAL_NUMERICAL_TYPE_INTEGER;
}

//===----------------------------------------------------------------------===//
// Text form (IREE's short names)
//===----------------------------------------------------------------------===//

// Parses IREE's short names: "i1" (bool), "i8".."i64", "si32", "ui8", "f16",
// "f32", "f64", "bf16", "cf64"/"complex<f32>", "cf128"/"complex<f64>",
// "x8"/"*8" (opaque). INVALID_ARGUMENT naming the text otherwise.
kiln_status_t kiln_hal_element_type_parse(kiln_string_view_t text,
                                          kiln_hal_element_type_t* out_type);

// Formats |type| as IREE prints it ("f32", "i1" for BOOL_8, "si32", "bf16",
// "cf64", "*8" for opaque) into |buffer| (NUL-terminated). Returns the length
// written, or the length needed (>= |capacity|) if it did not fit.
size_t kiln_hal_element_type_format(kiln_hal_element_type_t type, char* buffer,
                                    size_t capacity);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_ELEMENT_TYPE_H_
