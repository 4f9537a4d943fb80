#include "runtime/tooling/npy.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/tooling/string_builder.h"

// Upper bound on the header we accept (numpy writes < 1 KiB headers).
#define KILN_NPY_MAX_HEADER_LENGTH (1u << 20)

static const uint8_t kKilnNpyMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

bool kiln_npy_at_end(FILE* stream) {
  int c = fgetc(stream);
  if (c == EOF) return true;
  ungetc(c, stream);
  return false;
}

static kiln_status_t kiln_npy_bad_header(const char* what) {
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "not a valid .npy file (bad header: %s)", what);
}

//===----------------------------------------------------------------------===//
// Header dictionary
//===----------------------------------------------------------------------===//

// Finds the value text following key |'name':| in |dict|; false if absent.
static bool kiln_npy_find_key(kiln_string_view_t dict, const char* name,
                              kiln_string_view_t* out_value) {
  size_t name_length = strlen(name);
  for (size_t i = 0; i + name_length + 2 <= dict.size; ++i) {
    char q = dict.data[i];
    if ((q != '\'' && q != '"') ||
        memcmp(dict.data + i + 1, name, name_length) != 0 ||
        dict.data[i + 1 + name_length] != q) {
      continue;
    }
    size_t j = i + name_length + 2;
    while (j < dict.size && isspace((unsigned char)dict.data[j])) ++j;
    if (j >= dict.size || dict.data[j] != ':') continue;
    *out_value =
        kiln_string_view_trim(kiln_string_view_substr(dict, j + 1, SIZE_MAX));
    return true;
  }
  return false;
}

static kiln_status_t kiln_npy_parse_descr(kiln_string_view_t value,
                                          kiln_hal_element_type_t* out) {
  if (value.size < 2 || (value.data[0] != '\'' && value.data[0] != '"')) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "unsupported .npy dtype (structured or missing)");
  }
  size_t end = kiln_string_view_find_char(value, value.data[0], 1);
  if (end == SIZE_MAX) return kiln_npy_bad_header("unterminated descr");
  kiln_string_view_t descr = kiln_string_view_substr(value, 1, end - 1);
  kiln_string_view_t original = descr;
  if (descr.size < 2) return kiln_npy_bad_header("short descr");
  char order = descr.data[0];
  if (order == '<' || order == '|' || order == '=' || order == '>') {
    descr = kiln_string_view_substr(descr, 1, SIZE_MAX);
  } else {
    order = '|';
  }
  if (descr.size < 2) return kiln_npy_bad_header("short descr");
  char kind = descr.data[0];
  uint64_t width = 0;
  if (!kiln_string_view_atoi_uint64(kiln_string_view_substr(descr, 1, SIZE_MAX),
                                    &width) ||
      width == 0 || width > 32) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "unsupported .npy dtype '%.*s'",
                            KILN_SV_ARG(original));
  }
  if (order == '>' && width > 1) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "big-endian dtype '%.*s' is not supported",
                            KILN_SV_ARG(original));
  }
  kiln_hal_numerical_type_t numerical;
  switch (kind) {
    case 'b':
      numerical = KILN_HAL_NUMERICAL_TYPE_BOOLEAN;
      if (width != 1) numerical = KILN_HAL_NUMERICAL_TYPE_UNKNOWN;
      break;
    case 'i':
      numerical = KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED;
      break;
    case 'u':
      numerical = KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED;
      break;
    case 'f':
      numerical = KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE;
      break;
    case 'c':
      numerical = KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX;
      break;
    case 'V':
      numerical = KILN_HAL_NUMERICAL_TYPE_UNKNOWN;
      break;
    default:
      return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                              "unsupported .npy dtype '%.*s'",
                              KILN_SV_ARG(original));
  }
  if ((kind == 'i' || kind == 'u') && width != 1 && width != 2 && width != 4 &&
      width != 8) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "unsupported .npy dtype '%.*s'",
                            KILN_SV_ARG(original));
  }
  if (kind == 'f' && width != 2 && width != 4 && width != 8) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "unsupported .npy dtype '%.*s'",
                            KILN_SV_ARG(original));
  }
  *out = KILN_HAL_ELEMENT_TYPE_VALUE(numerical, width * 8);
  return kiln_ok_status();
}

static kiln_status_t kiln_npy_parse_shape(kiln_string_view_t value,
                                          kiln_tooling_tensor_type_t* out) {
  if (value.size == 0 || value.data[0] != '(') {
    return kiln_npy_bad_header("shape is not a tuple");
  }
  size_t end = kiln_string_view_find_char(value, ')', 0);
  if (end == SIZE_MAX) return kiln_npy_bad_header("unterminated shape");
  kiln_string_view_t rest = kiln_string_view_substr(value, 1, end - 1);
  out->rank = 0;
  while (true) {
    kiln_string_view_t dim;
    size_t at = kiln_string_view_split(rest, ',', &dim, &rest);
    dim = kiln_string_view_trim(dim);
    if (dim.size == 0) {
      // "()" or a trailing comma "(3,)"; anything else is malformed.
      if (at == SIZE_MAX && kiln_string_view_trim(rest).size == 0) break;
      return kiln_npy_bad_header("empty dimension");
    }
    // numpy writes "3" or "3L" (python 2).
    if (dim.data[dim.size - 1] == 'L') --dim.size;
    uint64_t d = 0;
    if (!isdigit((unsigned char)dim.data[0]) ||
        !kiln_string_view_atoi_uint64(dim, &d) || d > INT64_MAX) {
      return kiln_npy_bad_header("bad dimension");
    }
    if (out->rank == KILN_HAL_MAX_RANK) {
      return kiln_npy_bad_header("too many dimensions");
    }
    out->dims[out->rank++] = (kiln_hal_dim_t)d;
    if (at == SIZE_MAX) break;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_npy_parse_dict(kiln_string_view_t dict,
                                         kiln_tooling_tensor_type_t* out) {
  dict = kiln_string_view_trim(dict);
  if (dict.size < 2 || dict.data[0] != '{' || dict.data[dict.size - 1] != '}') {
    return kiln_npy_bad_header("not a dictionary");
  }
  kiln_string_view_t descr, fortran, shape;
  if (!kiln_npy_find_key(dict, "descr", &descr)) {
    return kiln_npy_bad_header("no 'descr'");
  }
  if (!kiln_npy_find_key(dict, "fortran_order", &fortran)) {
    return kiln_npy_bad_header("no 'fortran_order'");
  }
  if (!kiln_npy_find_key(dict, "shape", &shape)) {
    return kiln_npy_bad_header("no 'shape'");
  }
  if (kiln_string_view_starts_with(fortran, kiln_make_cstring_view("True"))) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "fortran_order arrays are not supported (save "
                            "with numpy.ascontiguousarray)");
  }
  if (!kiln_string_view_starts_with(fortran, kiln_make_cstring_view("False"))) {
    return kiln_npy_bad_header("fortran_order is not True or False");
  }
  KILN_RETURN_IF_ERROR(kiln_npy_parse_descr(descr, &out->element_type));
  KILN_RETURN_IF_ERROR(kiln_npy_parse_shape(shape, out));
  return kiln_tooling_tensor_type_sizes(out, NULL, NULL);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

kiln_status_t kiln_npy_read_header(FILE* stream,
                                   kiln_tooling_tensor_type_t* out_type) {
  memset(out_type, 0, sizeof(*out_type));
  uint8_t prefix[8];
  size_t n = fread(prefix, 1, sizeof(prefix), stream);
  if (n == 0) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "no more arrays in the .npy file");
  }
  if (n < 6 || memcmp(prefix, kKilnNpyMagic, 6) != 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "not a valid .npy file (bad magic)");
  }
  if (n < 8) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "not a valid .npy file (truncated header)");
  }
  uint8_t major = prefix[6], minor = prefix[7];
  size_t length_size = 0;
  if (major == 1) {
    length_size = 2;
  } else if (major == 2 || major == 3) {
    length_size = 4;
  } else {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            ".npy format version %u.%u is not supported", major,
                            minor);
  }
  uint8_t length_bytes[4] = {0};
  if (fread(length_bytes, 1, length_size, stream) != length_size) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "not a valid .npy file (truncated header)");
  }
  uint32_t header_length =
      (uint32_t)length_bytes[0] | ((uint32_t)length_bytes[1] << 8) |
      ((uint32_t)length_bytes[2] << 16) | ((uint32_t)length_bytes[3] << 24);
  if (header_length > KILN_NPY_MAX_HEADER_LENGTH) {
    return kiln_npy_bad_header("header too long");
  }
  kiln_allocator_t allocator = kiln_allocator_system();
  char* header = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(allocator, header_length + 1, (void**)&header));
  kiln_status_t status = kiln_ok_status();
  if (fread(header, 1, header_length, stream) != header_length) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "not a valid .npy file (truncated header)");
  } else {
    status = kiln_npy_parse_dict(kiln_make_string_view(header, header_length),
                                 out_type);
  }
  kiln_allocator_free(allocator, header);
  return status;
}

// Bytes left in |stream| if it is a regular file, else UINT64_MAX.
static uint64_t kiln_npy_remaining(FILE* stream) {
  struct stat st;
  long position = ftell(stream);
  if (position < 0 || fstat(fileno(stream), &st) != 0 || !S_ISREG(st.st_mode)) {
    return UINT64_MAX;
  }
  return (uint64_t)st.st_size > (uint64_t)position
             ? (uint64_t)st.st_size - (uint64_t)position
             : 0;
}

static kiln_status_t kiln_npy_check_available(FILE* stream,
                                              uint64_t byte_length) {
  uint64_t remaining = kiln_npy_remaining(stream);
  if (remaining != UINT64_MAX && remaining < byte_length) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "truncated data: needs %" PRIu64
                            " bytes, got %" PRIu64,
                            byte_length, remaining);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_npy_read_data(FILE* stream, void* data,
                                        size_t length) {
  size_t n = length ? fread(data, 1, length, stream) : 0;
  if (n != length) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "truncated data: needs %zu bytes, got %zu", length,
                            n);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_npy_read_array(FILE* stream, kiln_allocator_t allocator,
                                  kiln_tooling_tensor_type_t* out_type,
                                  void** out_data, size_t* out_length) {
  *out_data = NULL;
  *out_length = 0;
  KILN_RETURN_IF_ERROR(kiln_npy_read_header(stream, out_type));
  uint64_t byte_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(out_type, NULL, &byte_length));
  KILN_RETURN_IF_ERROR(kiln_npy_check_available(stream, byte_length));
  void* data = NULL;
  if (byte_length) {
    KILN_RETURN_IF_ERROR(
        kiln_allocator_malloc(allocator, (size_t)byte_length, &data));
  }
  kiln_status_t status = kiln_npy_read_data(stream, data, (size_t)byte_length);
  if (status) {
    kiln_allocator_free(allocator, data);
    return status;
  }
  *out_data = data;
  *out_length = (size_t)byte_length;
  return kiln_ok_status();
}

kiln_status_t kiln_npy_load_buffer_view(FILE* stream,
                                        kiln_hal_allocator_t* device_allocator,
                                        kiln_allocator_t host_allocator,
                                        kiln_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  kiln_tooling_tensor_type_t type;
  KILN_RETURN_IF_ERROR(kiln_npy_read_header(stream, &type));
  uint64_t byte_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(&type, NULL, &byte_length));
  KILN_RETURN_IF_ERROR(kiln_npy_check_available(stream, byte_length));
  kiln_hal_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_allocator_allocate_buffer(
      device_allocator, NULL, byte_length, &buffer));
  kiln_hal_buffer_mapping_t mapping;
  memset(&mapping, 0, sizeof(mapping));
  kiln_status_t status =
      kiln_hal_buffer_map_range(buffer, KILN_HAL_MEMORY_ACCESS_DISCARD_WRITE, 0,
                                KILN_HAL_WHOLE_BUFFER, &mapping);
  if (!status) {
    status = kiln_npy_read_data(stream, mapping.contents, (size_t)byte_length);
    kiln_hal_buffer_unmap_range(&mapping);
  }
  if (!status) {
    status = kiln_hal_buffer_view_create(
        buffer, type.rank, type.dims, type.element_type,
        KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR, host_allocator, out_view);
  }
  kiln_hal_buffer_release(buffer);
  return status;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_npy_append_descr(kiln_hal_element_type_t type,
                                           kiln_string_builder_t* builder) {
  size_t width = kiln_hal_element_byte_size(type);
  char kind = 0;
  switch (kiln_hal_element_numerical_type(type)) {
    case KILN_HAL_NUMERICAL_TYPE_BOOLEAN:
      kind = 'b';
      break;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER:
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED:
      kind = 'i';
      break;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED:
      kind = 'u';
      break;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE:
      kind = 'f';
      break;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX:
      kind = 'c';
      break;
    case KILN_HAL_NUMERICAL_TYPE_UNKNOWN:
      kind = 'V';
      break;
    default:
      break;
  }
  if (!kind || width == 0 || kiln_hal_element_bit_count(type) % 8 != 0) {
    char name[32];
    kiln_hal_element_type_format(type, name, sizeof(name));
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "element type %s has no numpy dtype", name);
  }
  return kiln_string_builder_append_format(
      builder, "%c%c%zu", (width == 1 || kind == 'V') ? '|' : '<', kind, width);
}

kiln_status_t kiln_npy_write_array(FILE* stream,
                                   const kiln_tooling_tensor_type_t* type,
                                   const void* data, size_t length) {
  uint64_t byte_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(type, NULL, &byte_length));
  if (byte_length != length) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "array data has %zu bytes, the shape needs "
                            "%" PRIu64,
                            length, byte_length);
  }
  kiln_string_builder_t dict;
  kiln_string_builder_initialize(kiln_allocator_system(), &dict);
  kiln_status_t status =
      kiln_string_builder_append_cstring(&dict, "{'descr': '");
  if (!status) status = kiln_npy_append_descr(type->element_type, &dict);
  if (!status) {
    status = kiln_string_builder_append_cstring(
        &dict, "', 'fortran_order': False, 'shape': (");
  }
  for (size_t i = 0; i < type->rank && !status; ++i) {
    status = kiln_string_builder_append_format(
        &dict, i ? ", %" PRId64 : "%" PRId64, (int64_t)type->dims[i]);
  }
  if (!status && type->rank == 1) {
    status = kiln_string_builder_append_cstring(&dict, ",");
  }
  if (!status) status = kiln_string_builder_append_cstring(&dict, "), }");
  if (status) {
    kiln_string_builder_deinitialize(&dict);
    return status;
  }
  // magic(6) + version(2) + length(2 or 4) + dict + padding + '\n' is a
  // multiple of 64.
  bool v2 = dict.size + 1 + 64 > 65535;
  size_t prefix = 6 + 2 + (v2 ? 4 : 2);
  size_t total = (prefix + dict.size + 1 + 63) / 64 * 64;
  size_t header_length = total - prefix;
  uint8_t head[12];
  memcpy(head, kKilnNpyMagic, 6);
  head[6] = v2 ? 2 : 1;
  head[7] = 0;
  head[8] = (uint8_t)header_length;
  head[9] = (uint8_t)(header_length >> 8);
  head[10] = (uint8_t)(header_length >> 16);
  head[11] = (uint8_t)(header_length >> 24);
  bool ok = fwrite(head, 1, prefix, stream) == prefix &&
            fwrite(dict.data, 1, dict.size, stream) == dict.size;
  for (size_t i = dict.size; ok && i + 1 < header_length; ++i) {
    ok = fputc(' ', stream) != EOF;
  }
  ok = ok && fputc('\n', stream) != EOF;
  ok = ok && (length == 0 || fwrite(data, 1, length, stream) == length);
  kiln_string_builder_deinitialize(&dict);
  if (!ok) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "failed to write .npy array");
  }
  return kiln_ok_status();
}

kiln_status_t kiln_npy_save_buffer_view(FILE* stream,
                                        kiln_hal_buffer_view_t* view) {
  if (kiln_hal_buffer_view_encoding_type(view) !=
      KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "only dense row-major buffer views can be saved");
  }
  kiln_tooling_tensor_type_t type;
  memset(&type, 0, sizeof(type));
  type.rank = kiln_hal_buffer_view_shape_rank(view);
  if (type.rank > KILN_HAL_MAX_RANK) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "rank too large");
  }
  memcpy(type.dims, kiln_hal_buffer_view_shape_dims(view),
         type.rank * sizeof(type.dims[0]));
  type.element_type = kiln_hal_buffer_view_element_type(view);
  kiln_hal_buffer_mapping_t mapping;
  memset(&mapping, 0, sizeof(mapping));
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_map_range(
      kiln_hal_buffer_view_buffer(view), KILN_HAL_MEMORY_ACCESS_READ,
      kiln_hal_buffer_view_byte_offset(view),
      kiln_hal_buffer_view_byte_length(view), &mapping));
  kiln_status_t status =
      kiln_npy_write_array(stream, &type, mapping.contents, mapping.length);
  kiln_hal_buffer_unmap_range(&mapping);
  return status;
}
