#include "runtime/tooling/tensor_text.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

// The 8/4-bit float codecs; <tgmath.h> (from numerics.h) defines `complex`
// and `I`, unused here.
#include "runtime/vm/numerics.h"
#undef complex
#undef I

//===----------------------------------------------------------------------===//
// Tensor types
//===----------------------------------------------------------------------===//

kiln_status_t kiln_tooling_tensor_type_parse(kiln_string_view_t text,
                                             kiln_tooling_tensor_type_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_string_view_t value = kiln_string_view_trim(text);
  if (value.size >= 2 && value.data[0] == '"' &&
      value.data[value.size - 1] == '"') {
    value = kiln_string_view_trim(
        kiln_string_view_substr(value, 1, value.size - 2));
  }
  if (value.size == 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "empty tensor type; expected e.g. 2x2xf32");
  }
  // Leading "<digits>x" groups are dimensions; the rest is the element
  // type, which may itself contain an 'x' ("2xcomplex<f32>").
  size_t pos = 0;
  while (pos < value.size) {
    size_t end = pos;
    while (end < value.size && isdigit((unsigned char)value.data[end])) ++end;
    if (end == pos || end >= value.size || value.data[end] != 'x') break;
    int64_t d = 0;
    bool overflow = false;
    kiln_string_view_t dim = kiln_string_view_substr(value, pos, end - pos);
    kiln_string_view_parse_dimension(dim, &d, &overflow);
    if (overflow) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "dimension '%.*s' in '%.*s' is too large (at "
                              "most %" PRId64 ")",
                              KILN_SV_ARG(dim), KILN_SV_ARG(value), INT64_MAX);
    }
    if (out->rank == KILN_HAL_MAX_RANK) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "'%.*s' has more than %d dimensions",
                              KILN_SV_ARG(value), KILN_HAL_MAX_RANK);
    }
    out->dims[out->rank++] = d;
    pos = end + 1;
  }
  kiln_string_view_t type_text = kiln_string_view_substr(value, pos, SIZE_MAX);
  kiln_status_t status = kiln_hal_element_type_parse(
      kiln_string_view_trim(type_text), &out->element_type);
  if (status) {
    kiln_status_free(status);
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unknown element type '%.*s' in '%.*s'",
                            KILN_SV_ARG(type_text), KILN_SV_ARG(value));
  }
  if (kiln_hal_element_bit_count(out->element_type) == 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "element type '%.*s' has no size",
                            KILN_SV_ARG(type_text));
  }
  // Refused here, with the type, rather than at the first element.
  if (!kiln_tooling_element_type_is_supported(out->element_type)) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "element type '%.*s' in '%.*s' is not supported (expected i1, "
        "i8/i16/i32/i64 (also si/ui), f16, bf16, f32, f64, the f8/f4 kinds, "
        "complex<f32> or complex<f64>)",
        KILN_SV_ARG(kiln_string_view_trim(type_text)), KILN_SV_ARG(value));
  }
  return kiln_ok_status();
}

bool kiln_tooling_element_type_is_supported(kiln_hal_element_type_t type) {
  switch (kiln_hal_element_numerical_type(type)) {
    case KILN_HAL_NUMERICAL_TYPE_INTEGER:
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED:
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED: {
      uint32_t bits = kiln_hal_element_bit_count(type);
      return bits == 8 || bits == 16 || bits == 32 || bits == 64;
    }
    default:
      return kiln_hal_element_small_float_format(type) >= 0 ||
             type == KILN_HAL_ELEMENT_TYPE_BOOL_8 ||
             type == KILN_HAL_ELEMENT_TYPE_FLOAT_16 ||
             type == KILN_HAL_ELEMENT_TYPE_BFLOAT_16 ||
             type == KILN_HAL_ELEMENT_TYPE_FLOAT_32 ||
             type == KILN_HAL_ELEMENT_TYPE_FLOAT_64 ||
             type == KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64 ||
             type == KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128;
  }
}

static kiln_status_t kiln_tooling_element_type_append(
    kiln_hal_element_type_t type, kiln_string_builder_t* builder) {
  char name[32];
  size_t n = kiln_hal_element_type_format(type, name, sizeof(name));
  if (n >= sizeof(name)) n = 0;
  return kiln_string_builder_append(builder, kiln_make_string_view(name, n));
}

kiln_status_t kiln_tooling_tensor_type_append(
    const kiln_tooling_tensor_type_t* type, kiln_string_builder_t* builder) {
  for (size_t i = 0; i < type->rank; ++i) {
    KILN_RETURN_IF_ERROR(kiln_string_builder_append_format(
        builder, "%" PRId64 "x", (int64_t)type->dims[i]));
  }
  return kiln_tooling_element_type_append(type->element_type, builder);
}

kiln_status_t kiln_tooling_tensor_type_sizes(
    const kiln_tooling_tensor_type_t* type, uint64_t* out_element_count,
    uint64_t* out_byte_length) {
  uint64_t count = 1;
  for (size_t i = 0; i < type->rank; ++i) {
    if (type->dims[i] < 0 ||
        __builtin_mul_overflow(count, (uint64_t)type->dims[i], &count)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "tensor shape is too large");
    }
  }
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(
          count, (uint64_t)kiln_hal_element_byte_size(type->element_type),
          &bytes) ||
      bytes > SIZE_MAX) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "tensor shape is too large");
  }
  if (out_element_count) *out_element_count = count;
  if (out_byte_length) *out_byte_length = bytes;
  return kiln_ok_status();
}

bool kiln_tooling_tensor_type_equal(const kiln_tooling_tensor_type_t* a,
                                    const kiln_tooling_tensor_type_t* b) {
  if (a->rank != b->rank || a->element_type != b->element_type) return false;
  for (size_t i = 0; i < a->rank; ++i) {
    if (a->dims[i] != b->dims[i]) return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Half precision
//===----------------------------------------------------------------------===//

static uint32_t kiln_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float kiln_f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

float kiln_tooling_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1F) {  // inf / nan
    return kiln_f32_from_bits(sign | 0x7F800000u | (mantissa << 13));
  }
  if (exponent == 0) {  // zero / subnormal: mantissa * 2^-24
    float f = (float)mantissa * 5.9604644775390625e-8f;
    return sign ? -f : f;
  }
  return kiln_f32_from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t kiln_tooling_f32_to_f16(float value) {
  uint32_t u = kiln_f32_bits(value);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t abs = u & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) {  // inf or nan
    return (uint16_t)(sign | 0x7C00u | (abs > 0x7F800000u ? 0x200u : 0));
  }
  if (abs >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);  // overflow
  if (abs < 0x38800000u) {  // subnormal half or zero
    // Round abs * 2^24 to nearest even via float arithmetic.
    float f = kiln_f32_from_bits(abs) * 16777216.0f;
    float r = nearbyintf(f);
    return (uint16_t)(sign | (uint16_t)r);
  }
  uint32_t mantissa_rounded = abs + 0xFFFu + ((abs >> 13) & 1u);
  return (uint16_t)(sign | ((mantissa_rounded - 0x38000000u) >> 13));
}

float kiln_tooling_bf16_to_f32(uint16_t value) {
  return kiln_f32_from_bits((uint32_t)value << 16);
}

uint16_t kiln_tooling_f32_to_bf16(float value) {
  uint32_t u = kiln_f32_bits(value);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tooling_bad_element(kiln_string_view_t text,
                                              kiln_hal_element_type_t type) {
  char name[32];
  size_t n = kiln_hal_element_type_format(type, name, sizeof(name));
  if (n >= sizeof(name)) snprintf(name, sizeof(name), "0x%08x", type);
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "'%.*s' is not a valid %s", KILN_SV_ARG(text), name);
}

// Parses an integer of |bits| bits; signless accepts [-2^(b-1), 2^b - 1].
static bool kiln_tooling_parse_int(kiln_string_view_t text,
                                   kiln_hal_numerical_type_t kind,
                                   uint32_t bits, uint64_t* out) {
  int64_t s = 0;
  uint64_t u = 0;
  bool is_signed = kiln_string_view_atoi_int64(text, &s);
  bool is_unsigned = kiln_string_view_atoi_uint64(text, &u);
  if (!is_signed && !is_unsigned) return false;
  int64_t smin = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  int64_t smax = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
  uint64_t umax = bits >= 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  bool ok = false;
  if (kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED) {
    ok = is_signed && s >= smin && s <= smax;
    u = (uint64_t)s;
  } else if (kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED) {
    ok = is_unsigned && u <= umax;
  } else {
    if (is_signed && s < 0) {
      ok = s >= smin;
      u = (uint64_t)s;
    } else {
      ok = is_unsigned && u <= umax;
    }
  }
  *out = u;
  return ok;
}

kiln_status_t kiln_tooling_element_parse(kiln_string_view_t text,
                                         kiln_hal_element_type_t type,
                                         void* out) {
  text = kiln_string_view_trim(text);
  kiln_hal_numerical_type_t kind = kiln_hal_element_numerical_type(type);
  uint32_t bits = kiln_hal_element_bit_count(type);
  if (type == KILN_HAL_ELEMENT_TYPE_BOOL_8) {
    uint8_t v = 0;
    if (kiln_string_view_equal_cstr(text, "true") ||
        kiln_string_view_equal_cstr(text, "1")) {
      v = 1;
    } else if (kiln_string_view_equal_cstr(text, "false") ||
               kiln_string_view_equal_cstr(text, "0")) {
      v = 0;
    } else {
      return kiln_tooling_bad_element(text, type);
    }
    memcpy(out, &v, 1);
    return kiln_ok_status();
  }
  if ((kind == KILN_HAL_NUMERICAL_TYPE_INTEGER ||
       kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED ||
       kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED) &&
      (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
    uint64_t v = 0;
    if (!kiln_tooling_parse_int(text, kind, bits, &v)) {
      return kiln_tooling_bad_element(text, type);
    }
    // Little-endian hosts only (as the rest of kiln): the low bytes.
    memcpy(out, &v, bits / 8);
    return kiln_ok_status();
  }
  if (type == KILN_HAL_ELEMENT_TYPE_FLOAT_16 ||
      type == KILN_HAL_ELEMENT_TYPE_BFLOAT_16 ||
      type == KILN_HAL_ELEMENT_TYPE_FLOAT_32 ||
      type == KILN_HAL_ELEMENT_TYPE_FLOAT_64) {
    double d = 0;
    if (!kiln_string_view_atof(text, &d)) {
      return kiln_tooling_bad_element(text, type);
    }
    if (type == KILN_HAL_ELEMENT_TYPE_FLOAT_64) {
      memcpy(out, &d, 8);
    } else if (type == KILN_HAL_ELEMENT_TYPE_FLOAT_32) {
      float f = (float)d;
      memcpy(out, &f, 4);
    } else {
      uint16_t h = type == KILN_HAL_ELEMENT_TYPE_FLOAT_16
                       ? kiln_tooling_f32_to_f16((float)d)
                       : kiln_tooling_f32_to_bf16((float)d);
      memcpy(out, &h, 2);
    }
    return kiln_ok_status();
  }
  int small = kiln_hal_element_small_float_format(type);
  if (small >= 0) {  // 8/4-bit floats: one byte, rounded to nearest even
    double d = 0;
    if (!kiln_string_view_atof(text, &d)) {
      return kiln_tooling_bad_element(text, type);
    }
    *(uint8_t*)out = (uint8_t)kiln_vm_f32_to_small_float((float)d, small);
    return kiln_ok_status();
  }
  char name[32];
  kiln_hal_element_type_format(type, name, sizeof(name));
  return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                          "parsing %s elements is not supported", name);
}

// Loads a sign-extended integer of |bits| (8/16/32/64) bits.
static int64_t kiln_tooling_load_signed(const void* data, uint32_t bits) {
  switch (bits) {
    case 8: {
      int8_t v;
      memcpy(&v, data, 1);
      return v;
    }
    case 16: {
      int16_t v;
      memcpy(&v, data, 2);
      return v;
    }
    case 32: {
      int32_t v;
      memcpy(&v, data, 4);
      return v;
    }
    default: {
      int64_t v;
      memcpy(&v, data, 8);
      return v;
    }
  }
}

kiln_status_t kiln_tooling_element_append(const void* data,
                                          kiln_hal_element_type_t type,
                                          kiln_string_builder_t* builder) {
  kiln_hal_numerical_type_t kind = kiln_hal_element_numerical_type(type);
  uint32_t bits = kiln_hal_element_bit_count(type);
  if (type == KILN_HAL_ELEMENT_TYPE_BOOL_8) {
    uint8_t v;
    memcpy(&v, data, 1);
    return kiln_string_builder_append_format(builder, "%u", (unsigned)v);
  }
  if (type == KILN_HAL_ELEMENT_TYPE_FLOAT_16 ||
      type == KILN_HAL_ELEMENT_TYPE_BFLOAT_16 ||
      type == KILN_HAL_ELEMENT_TYPE_FLOAT_32 ||
      type == KILN_HAL_ELEMENT_TYPE_FLOAT_64 ||
      kiln_hal_element_small_float_format(type) >= 0) {
    return kiln_string_builder_append_format(
        builder, "%G", kiln_tooling_element_to_double(data, type));
  }
  if ((kind == KILN_HAL_NUMERICAL_TYPE_INTEGER ||
       kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED ||
       kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED) &&
      (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
    if (kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED) {
      uint64_t v = 0;
      memcpy(&v, data, bits / 8);
      return kiln_string_builder_append_format(builder, "%" PRIu64, v);
    }
    return kiln_string_builder_append_format(
        builder, "%" PRId64, kiln_tooling_load_signed(data, bits));
  }
  // Opaque, complex and sub-byte types: the bytes in hex, as IREE does.
  size_t size = kiln_hal_element_byte_size(type);
  for (size_t i = 0; i < size; ++i) {
    KILN_RETURN_IF_ERROR(kiln_string_builder_append_format(
        builder, "%02X", ((const uint8_t*)data)[i]));
  }
  return kiln_ok_status();
}

double kiln_tooling_element_to_double(const void* data,
                                      kiln_hal_element_type_t type) {
  kiln_hal_numerical_type_t kind = kiln_hal_element_numerical_type(type);
  uint32_t bits = kiln_hal_element_bit_count(type);
  switch (type) {
    case KILN_HAL_ELEMENT_TYPE_FLOAT_16: {
      uint16_t h;
      memcpy(&h, data, 2);
      return kiln_tooling_f16_to_f32(h);
    }
    case KILN_HAL_ELEMENT_TYPE_BFLOAT_16: {
      uint16_t h;
      memcpy(&h, data, 2);
      return kiln_tooling_bf16_to_f32(h);
    }
    case KILN_HAL_ELEMENT_TYPE_FLOAT_32: {
      float f;
      memcpy(&f, data, 4);
      return f;
    }
    case KILN_HAL_ELEMENT_TYPE_FLOAT_64: {
      double d;
      memcpy(&d, data, 8);
      return d;
    }
    default:
      break;
  }
  int small = kiln_hal_element_small_float_format(type);
  if (small >= 0) {
    return kiln_vm_small_float_to_f32(*(const uint8_t*)data, small);
  }
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return 0.0;
  if (kind == KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED ||
      kind == KILN_HAL_NUMERICAL_TYPE_BOOLEAN) {
    uint64_t v = 0;
    memcpy(&v, data, bits / 8);
    return (double)v;
  }
  return (double)kiln_tooling_load_signed(data, bits);
}

//===----------------------------------------------------------------------===//
// Element lists
//===----------------------------------------------------------------------===//

static bool kiln_tooling_is_separator(char c) {
  return isspace((unsigned char)c) || c == ',' || c == '[' || c == ']';
}

// Complex elements are written as their (real, imaginary) components: the
// text of a complex tensor is that of a float tensor with a trailing
// dimension of 2 ("2xcomplex<f32>=[1 2][3 4]" is 1+2i, 3+4i). Returns the
// component type, or NONE for other types.
static kiln_hal_element_type_t kiln_tooling_complex_component_type(
    kiln_hal_element_type_t type) {
  if (type == KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64) {
    return KILN_HAL_ELEMENT_TYPE_FLOAT_32;
  }
  if (type == KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128) {
    return KILN_HAL_ELEMENT_TYPE_FLOAT_64;
  }
  return KILN_HAL_ELEMENT_TYPE_NONE;
}

kiln_status_t kiln_tooling_elements_parse(kiln_string_view_t text,
                                          kiln_hal_element_type_t type,
                                          uint64_t element_count, void* out) {
  kiln_hal_element_type_t component = kiln_tooling_complex_component_type(type);
  if (component != KILN_HAL_ELEMENT_TYPE_NONE) {
    return kiln_tooling_elements_parse(text, component, element_count * 2, out);
  }
  size_t element_size = kiln_hal_element_byte_size(type);
  uint8_t* bytes = (uint8_t*)out;
  uint64_t count = 0;
  size_t i = 0;
  while (i < text.size) {
    while (i < text.size && kiln_tooling_is_separator(text.data[i])) ++i;
    if (i == text.size) break;
    size_t start = i;
    while (i < text.size && !kiln_tooling_is_separator(text.data[i])) ++i;
    kiln_string_view_t token =
        kiln_make_string_view(text.data + start, i - start);
    if (count < element_count) {
      KILN_RETURN_IF_ERROR(kiln_tooling_element_parse(
          token, type, bytes + count * element_size));
    } else {
      // Validate the rest so the count in the error is exact.
      uint8_t scratch[16];
      if (element_size <= sizeof(scratch)) {
        KILN_RETURN_IF_ERROR(kiln_tooling_element_parse(token, type, scratch));
      }
    }
    ++count;
  }
  if (count == 0) {
    if (element_count) memset(out, 0, element_count * element_size);
    return kiln_ok_status();
  }
  if (count == 1 && element_count > 1) {
    for (uint64_t e = 1; e < element_count; ++e) {
      memcpy(bytes + e * element_size, bytes, element_size);
    }
    return kiln_ok_status();
  }
  if (count != element_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "needs %" PRIu64 " elements, got %" PRIu64,
                            element_count, count);
  }
  return kiln_ok_status();
}

// IREE's recursive layout: rows in brackets for rank >= 2, "..." where a row
// is cut short by the element budget.
static kiln_status_t kiln_tooling_elements_append_recursive(
    size_t rank, const kiln_hal_dim_t* dims, kiln_hal_element_type_t type,
    const uint8_t* data, size_t* budget, kiln_string_builder_t* builder) {
  size_t element_size = kiln_hal_element_byte_size(type);
  if (rank == 0) {
    const kiln_hal_dim_t one = 1;
    return kiln_tooling_elements_append_recursive(1, &one, type, data, budget,
                                                  builder);
  }
  if (rank > 1) {
    uint64_t inner = 1;
    for (size_t i = 1; i < rank; ++i) inner *= (uint64_t)dims[i];
    for (kiln_hal_dim_t i = 0; i < dims[0]; ++i) {
      // The budget bounds rows too, so that time and output stay bounded
      // however many rows there are: a row of an empty tensor (no elements
      // to spend the budget on) costs one.
      if (*budget == 0 && (i > 0 || inner == 0)) {
        return kiln_string_builder_append_cstring(builder, "...");
      }
      if (inner == 0) --*budget;
      KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, "["));
      KILN_RETURN_IF_ERROR(kiln_tooling_elements_append_recursive(
          rank - 1, dims + 1, type,
          // Empty inner dims have no data (possibly NULL): no offset.
          inner ? data + (uint64_t)i * inner * element_size : data, budget,
          builder));
      KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, "]"));
    }
    return kiln_ok_status();
  }
  size_t count = (uint64_t)dims[0] < *budget ? (size_t)dims[0] : *budget;
  *budget -= count;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) {
      KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, " "));
    }
    KILN_RETURN_IF_ERROR(
        kiln_tooling_element_append(data + i * element_size, type, builder));
  }
  if ((uint64_t)count < (uint64_t)dims[0]) {
    KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, "..."));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tooling_elements_append(
    const kiln_tooling_tensor_type_t* type, const void* data,
    size_t data_length, size_t max_element_count,
    kiln_string_builder_t* builder) {
  uint64_t byte_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(type, NULL, &byte_length));
  if (data_length < byte_length) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "tensor data has %zu bytes, the shape needs "
                            "%" PRIu64,
                            data_length, byte_length);
  }
  size_t budget = max_element_count;
  kiln_hal_element_type_t component =
      kiln_tooling_complex_component_type(type->element_type);
  if (component != KILN_HAL_ELEMENT_TYPE_NONE &&
      type->rank < KILN_HAL_MAX_RANK) {
    kiln_hal_dim_t dims[KILN_HAL_MAX_RANK];
    memcpy(dims, type->dims, type->rank * sizeof(dims[0]));
    dims[type->rank] = 2;
    budget *= 2;
    return kiln_tooling_elements_append_recursive(
        type->rank + 1, dims, component, (const uint8_t*)data, &budget,
        builder);
  }
  return kiln_tooling_elements_append_recursive(
      type->rank, type->dims, type->element_type, (const uint8_t*)data, &budget,
      builder);
}

kiln_status_t kiln_tooling_tensor_append(const kiln_tooling_tensor_type_t* type,
                                         const void* data, size_t data_length,
                                         size_t max_element_count,
                                         kiln_string_builder_t* builder) {
  KILN_RETURN_IF_ERROR(kiln_tooling_tensor_type_append(type, builder));
  KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, "="));
  return kiln_tooling_elements_append(type, data, data_length,
                                      max_element_count, builder);
}
