#include "runtime/hal/element_type.h"

#include <stdio.h>
#include <string.h>

static bool kiln_consume_prefix(kiln_string_view_t* sv, const char* prefix) {
  kiln_string_view_t p = kiln_make_cstring_view(prefix);
  if (!kiln_string_view_starts_with(*sv, p)) return false;
  *sv = kiln_string_view_substr(*sv, p.size, SIZE_MAX);
  return true;
}

kiln_status_t kiln_hal_element_type_parse(kiln_string_view_t text,
                                          kiln_hal_element_type_t* out_type) {
  *out_type = KILN_HAL_ELEMENT_TYPE_NONE;
  kiln_string_view_t sv = kiln_string_view_trim(text);
  if (kiln_string_view_equal_cstr(sv, "i1") ||
      kiln_string_view_equal_cstr(sv, "bool")) {
    *out_type = KILN_HAL_ELEMENT_TYPE_BOOL_8;
    return kiln_ok_status();
  }
  if (kiln_string_view_equal_cstr(sv, "complex<f32>")) {
    *out_type = KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64;
    return kiln_ok_status();
  }
  if (kiln_string_view_equal_cstr(sv, "complex<f64>")) {
    *out_type = KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128;
    return kiln_ok_status();
  }
  static const char* const small_floats[6] = {"f8E4M3FN",   "f8E5M2",
                                              "f8E4M3FNUZ", "f8E5M2FNUZ",
                                              "f8E8M0FNU",  "f4E2M1FN"};
  static const uint8_t small_codes[6] = {0x25, 0x24, 0x27, 0x26, 0x28, 0x29};
  for (int i = 0; i < 6; ++i) {
    if (kiln_string_view_equal_cstr(sv, small_floats[i])) {
      *out_type = KILN_HAL_ELEMENT_TYPE_VALUE(small_codes[i], i == 5 ? 4 : 8);
      return kiln_ok_status();
    }
  }
  kiln_hal_numerical_type_t numerical_type;
  if (kiln_consume_prefix(&sv, "si")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED;
  } else if (kiln_consume_prefix(&sv, "ui")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED;
  } else if (kiln_consume_prefix(&sv, "i")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_INTEGER;
  } else if (kiln_consume_prefix(&sv, "bf")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_FLOAT_BRAIN;
  } else if (kiln_consume_prefix(&sv, "cf")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX;
  } else if (kiln_consume_prefix(&sv, "f")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE;
  } else if (kiln_consume_prefix(&sv, "x") || kiln_consume_prefix(&sv, "*")) {
    numerical_type = KILN_HAL_NUMERICAL_TYPE_UNKNOWN;
  } else {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unknown element type '%.*s' (expected e.g. f32, "
                            "i8, si32, ui8, bf16, i1, complex<f32>)",
                            KILN_SV_ARG(text));
  }
  // Plain decimal: "i01" or "i0x8" are not spellings of a bit count.
  uint64_t bit_count = 0;
  bool digits_only = sv.size > 0 && sv.size <= 3 && sv.data[0] != '0';
  for (size_t i = 0; digits_only && i < sv.size; ++i) {
    digits_only = sv.data[i] >= '0' && sv.data[i] <= '9';
  }
  if (!digits_only || !kiln_string_view_atoi_uint64(sv, &bit_count) ||
      bit_count == 0 || bit_count > 0xFF) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "invalid bit count in element type '%.*s'",
                            KILN_SV_ARG(text));
  }
  if (numerical_type == KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE && bit_count != 16 &&
      bit_count != 32 && bit_count != 64) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unsupported float width in element type '%.*s'",
                            KILN_SV_ARG(text));
  }
  *out_type = KILN_HAL_ELEMENT_TYPE_VALUE(numerical_type, bit_count);
  return kiln_ok_status();
}

size_t kiln_hal_element_type_format(kiln_hal_element_type_t type, char* buffer,
                                    size_t capacity) {
  const char* prefix = "*";
  uint32_t bit_count = kiln_hal_element_bit_count(type);
  int small = kiln_hal_element_small_float_format(type);
  if (small >= 0) {
    static const char* const names[6] = {"f8E4M3FN",   "f8E5M2",
                                         "f8E4M3FNUZ", "f8E5M2FNUZ",
                                         "f8E8M0FNU",  "f4E2M1FN"};
    size_t n = strlen(names[small]);
    if (buffer && capacity > 0) {
      size_t copy = n < capacity ? n : capacity - 1;
      memcpy(buffer, names[small], copy);
      buffer[copy] = 0;
    }
    return n;
  }
  switch (kiln_hal_element_numerical_type(type)) {
    case KILN_HAL_NUMERICAL_TYPE_BOOLEAN:
      prefix = "i";
      bit_count = 1;
      break;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER:
      prefix = "i";
      break;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED:
      prefix = "si";
      break;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED:
      prefix = "ui";
      break;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE:
      prefix = "f";
      break;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_BRAIN:
      prefix = "bf";
      break;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX:
      prefix = "cf";
      break;
    default:
      break;
  }
  char temp[16];
  int n = snprintf(temp, sizeof(temp), "%s%u", prefix, bit_count);
  if (n < 0) n = 0;
  if (buffer && capacity > 0) {
    size_t copy = (size_t)n < capacity ? (size_t)n : capacity - 1;
    memcpy(buffer, temp, copy);
    buffer[copy] = 0;
  }
  return (size_t)n;
}
