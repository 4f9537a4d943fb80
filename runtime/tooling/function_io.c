#include "runtime/tooling/function_io.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/tooling/flags.h"
#include "runtime/tooling/npy.h"
#include "runtime/tooling/tensor_proto.h"

KILN_FLAG_LIST(
    input,
    "An input value, one per function argument, in order:\n"
    "  5, -1.5                  primitive (i32/i64/f32/f64)\n"
    "  2x2xf32=1 2 3 4          buffer view; also [[1 2][3 4]],\n"
    "                           1,2,3,4, f32=-2; one value splats\n"
    "  2x2xf32=@file.bin        raw bytes (size must match)\n"
    "  @file.npy / +file.npy    next array of a .npy file\n"
    "  @file.pb                 an ONNX TensorProto file (ONNX test data)\n"
    "  sequence=@file.pb        an ONNX SequenceProto: one value per element\n"
    "  optional=@file.pb        an ONNX OptionalProto: its tensor(s), or none\n"
    "  3x4xbf16=@file.pb        its data as another type of that shape and\n"
    "                           width (bf16 test data stored as uint16)\n"
    "  *file.npy                all remaining arrays of a .npy file\n"
    "  (null)                   null ref or zero");
KILN_FLAG_LIST(output,
               "Where each result goes, one per result, in order:\n"
               "  (empty) ignore   - print   @f.npy write   +f.npy append\n"
               "  @f.bin raw bytes  +f.bin append raw bytes");
KILN_FLAG_LIST(expected_output,
               "An expected result, one per result, in --input's syntax;\n"
               "(ignored) skips one. Results are compared instead of printed\n"
               "and the tool exits 1 if any differ.");
KILN_FLAG(int32, output_max_element_count, 1024,
          "Prints at most this many elements of each tensor, then '...'.");
KILN_FLAG(int32, print_max_element_count, 1024,
          "Older IREE name of --output_max_element_count (the smaller wins).");
KILN_FLAG(double, expected_f16_threshold, 0.001,
          "Absolute tolerance for f16 elements of --expected_output.");
KILN_FLAG(double, expected_bf16_threshold, 0.01,
          "Absolute tolerance for bf16 elements of --expected_output.");
KILN_FLAG(double, expected_f32_threshold, 0.0001,
          "Absolute tolerance for f32 elements of --expected_output.");
KILN_FLAG(double, expected_f64_threshold, 0.0001,
          "Absolute tolerance for f64 elements of --expected_output.");
KILN_FLAG(double, expected_rtol, 0.0,
          "Relative tolerance added to the absolute ones: an element matches\n"
          "when |actual - expected| <= atol + rtol * |expected|.");

static size_t kiln_tooling_max_element_count_from_flags(void) {
  int32_t n = kiln_flag_output_max_element_count;
  if (kiln_flag_print_max_element_count < n) {
    n = kiln_flag_print_max_element_count;
  }
  return n < 0 ? 0 : (size_t)n;
}

// Replaces |status| with one whose message is "<prefix>: <old message>".
static kiln_status_t kiln_tooling_prefix_status(kiln_status_t status,
                                                const char* format, ...)
    __attribute__((format(printf, 2, 3)));
static kiln_status_t kiln_tooling_prefix_status(kiln_status_t status,
                                                const char* format, ...) {
  if (!status) return status;
  char prefix[512];
  va_list args;
  va_start(args, format);
  vsnprintf(prefix, sizeof(prefix), format, args);
  va_end(args);
  kiln_status_t result = kiln_make_status(kiln_status_code(status), "%s: %s",
                                          prefix, kiln_status_message(status));
  kiln_status_free(status);
  return result;
}

//===----------------------------------------------------------------------===//
// Buffer views from text
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tooling_allocate_view(
    const kiln_tooling_tensor_type_t* type,
    kiln_hal_allocator_t* device_allocator, kiln_allocator_t host_allocator,
    kiln_hal_buffer_t** out_buffer, kiln_hal_buffer_mapping_t* out_mapping) {
  uint64_t byte_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(type, NULL, &byte_length));
  KILN_RETURN_IF_ERROR(kiln_hal_allocator_allocate_buffer(
      device_allocator, NULL, byte_length, out_buffer));
  kiln_status_t status = kiln_hal_buffer_map_range(
      *out_buffer, KILN_HAL_MEMORY_ACCESS_DISCARD_WRITE, 0,
      KILN_HAL_WHOLE_BUFFER, out_mapping);
  if (status) {
    kiln_hal_buffer_release(*out_buffer);
    *out_buffer = NULL;
  }
  return status;
}

static kiln_status_t kiln_tooling_finish_view(
    const kiln_tooling_tensor_type_t* type, kiln_hal_buffer_t* buffer,
    kiln_hal_buffer_mapping_t* mapping, kiln_status_t status,
    kiln_allocator_t host_allocator, kiln_hal_buffer_view_t** out_view) {
  kiln_hal_buffer_unmap_range(mapping);
  if (!status) {
    status = kiln_hal_buffer_view_create(
        buffer, type->rank, type->dims, type->element_type,
        KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR, host_allocator, out_view);
  }
  kiln_hal_buffer_release(buffer);
  return status;
}

kiln_status_t kiln_tooling_parse_buffer_view(
    kiln_string_view_t text, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  kiln_string_view_t metadata, contents;
  kiln_string_view_split(kiln_string_view_trim(text), '=', &metadata,
                         &contents);
  kiln_tooling_tensor_type_t type;
  KILN_RETURN_IF_ERROR(kiln_tooling_tensor_type_parse(metadata, &type));
  uint64_t element_count = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(&type, &element_count, NULL));
  kiln_hal_buffer_t* buffer = NULL;
  kiln_hal_buffer_mapping_t mapping;
  memset(&mapping, 0, sizeof(mapping));
  KILN_RETURN_IF_ERROR(kiln_tooling_allocate_view(
      &type, device_allocator, host_allocator, &buffer, &mapping));
  kiln_status_t status = kiln_tooling_elements_parse(
      contents, type.element_type, element_count, mapping.contents);
  if (status && strncmp(kiln_status_message(status), "needs ", 6) == 0) {
    // "2x2xf32 needs 4 elements, got 3".
    kiln_status_t named =
        kiln_make_status(kiln_status_code(status), "%.*s %s",
                         KILN_SV_ARG(kiln_string_view_trim(metadata)),
                         kiln_status_message(status));
    kiln_status_free(status);
    status = named;
  }
  return kiln_tooling_finish_view(&type, buffer, &mapping, status,
                                  host_allocator, out_view);
}

//===----------------------------------------------------------------------===//
// Files opened while parsing a list of specs
//===----------------------------------------------------------------------===//

typedef struct kiln_tooling_stream_t {
  char* path;
  FILE* file;
  bool is_npy;
  size_t first_spec;  // index of the spec that opened it (for errors)
} kiln_tooling_stream_t;

typedef struct kiln_tooling_stream_list_t {
  kiln_allocator_t allocator;
  kiln_tooling_stream_t* streams;
  size_t count;
  size_t capacity;
} kiln_tooling_stream_list_t;

static void kiln_tooling_stream_list_deinitialize(
    kiln_tooling_stream_list_t* list) {
  for (size_t i = 0; i < list->count; ++i) {
    if (list->streams[i].file) fclose(list->streams[i].file);
    kiln_allocator_free(list->allocator, list->streams[i].path);
  }
  kiln_allocator_free(list->allocator, list->streams);
  memset(list, 0, sizeof(*list));
}

// Returns the stream for |path| (opened for reading on first use). |rewind|
// restarts an already open stream at byte 0.
static kiln_status_t kiln_tooling_stream_list_open(
    kiln_tooling_stream_list_t* list, kiln_string_view_t path, bool is_npy,
    bool rewind_stream, size_t spec_index, FILE** out_file) {
  for (size_t i = 0; i < list->count; ++i) {
    if (kiln_string_view_equal_cstr(path, list->streams[i].path)) {
      if (rewind_stream) rewind(list->streams[i].file);
      *out_file = list->streams[i].file;
      return kiln_ok_status();
    }
  }
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 4;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        list->allocator, capacity * sizeof(list->streams[0]),
        (void**)&list->streams));
    list->capacity = capacity;
  }
  char* copy = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(list->allocator, path.size + 1, (void**)&copy));
  memcpy(copy, path.data, path.size);
  copy[path.size] = 0;
  FILE* file = fopen(copy, "rb");
  if (!file) {
    kiln_status_t status = kiln_make_status(
        KILN_STATUS_NOT_FOUND, "'%s': cannot open: %s", copy, strerror(errno));
    kiln_allocator_free(list->allocator, copy);
    return status;
  }
  kiln_tooling_stream_t* stream = &list->streams[list->count++];
  stream->path = copy;
  stream->file = file;
  stream->is_npy = is_npy;
  stream->first_spec = spec_index;
  *out_file = file;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Parsing values
//===----------------------------------------------------------------------===//

static const char* kiln_tooling_type_char_name(char c) {
  switch (c) {
    case 'i':
      return "i32";
    case 'I':
      return "i64";
    case 'f':
      return "f32";
    case 'F':
      return "f64";
    case 'r':
      return "ref";
    default:
      return "?";
  }
}

static kiln_status_t kiln_tooling_push_move(kiln_vm_list_t* list,
                                            kiln_vm_value_t value) {
  kiln_status_t status = kiln_vm_list_push_value_move(list, &value);
  if (status) kiln_vm_value_release(&value);
  return status;
}

static kiln_status_t kiln_tooling_parse_primitive(kiln_string_view_t text,
                                                  char type,
                                                  kiln_vm_value_t* out) {
  int64_t i = 0;
  double d = 0;
  switch (type) {
    case 'i':
      if (!kiln_string_view_atoi_int64(text, &i) || i < INT32_MIN ||
          i > (int64_t)UINT32_MAX) {
        break;
      }
      *out = kiln_vm_value_make_i32((int32_t)(uint32_t)i);
      return kiln_ok_status();
    case 'I':
      if (!kiln_string_view_atoi_int64(text, &i)) break;
      *out = kiln_vm_value_make_i64(i);
      return kiln_ok_status();
    case 'f':
      if (!kiln_string_view_atof(text, &d)) break;
      *out = kiln_vm_value_make_f32((float)d);
      return kiln_ok_status();
    case 'F':
      if (!kiln_string_view_atof(text, &d)) break;
      *out = kiln_vm_value_make_f64(d);
      return kiln_ok_status();
    default:
      break;
  }
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "'%.*s' is not a valid %s", KILN_SV_ARG(text),
                          kiln_tooling_type_char_name(type));
}

// Reads a raw binary tensor for "TYPE=@path" / "TYPE=+path".
static kiln_status_t kiln_tooling_parse_binary_file(
    kiln_string_view_t metadata, kiln_string_view_t file_spec,
    size_t spec_index, kiln_tooling_stream_list_t* streams,
    kiln_hal_allocator_t* device_allocator, kiln_allocator_t host_allocator,
    kiln_hal_buffer_view_t** out_view) {
  kiln_tooling_tensor_type_t type;
  KILN_RETURN_IF_ERROR(kiln_tooling_tensor_type_parse(metadata, &type));
  uint64_t byte_length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tooling_tensor_type_sizes(&type, NULL, &byte_length));
  bool append = file_spec.data[0] == '+';
  kiln_string_view_t path = kiln_string_view_substr(file_spec, 1, SIZE_MAX);
  FILE* file = NULL;
  KILN_RETURN_IF_ERROR(kiln_tooling_stream_list_open(
      streams, path, /*is_npy=*/false, !append, spec_index, &file));
  kiln_hal_buffer_t* buffer = NULL;
  kiln_hal_buffer_mapping_t mapping;
  memset(&mapping, 0, sizeof(mapping));
  KILN_RETURN_IF_ERROR(kiln_tooling_allocate_view(
      &type, device_allocator, host_allocator, &buffer, &mapping));
  size_t n =
      byte_length ? fread(mapping.contents, 1, (size_t)byte_length, file) : 0;
  kiln_status_t status = kiln_ok_status();
  if (n != byte_length) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "'%.*s' has %zu bytes%s, %.*s needs %" PRIu64,
                              KILN_SV_ARG(path), n, append ? " left" : "",
                              KILN_SV_ARG(kiln_string_view_trim(metadata)),
                              byte_length);
  }
  return kiln_tooling_finish_view(&type, buffer, &mapping, status,
                                  host_allocator, out_view);
}

// Reads "TYPE=@file.pb": the TensorProto's data taken as TYPE, which must
// have the file's shape and element width. ONNX's test data stores bfloat16
// tensors as uint16 (numpy has no bfloat16), so 3x4xbf16=@x.pb reads them as
// the bf16 values they are.
static kiln_status_t kiln_tooling_parse_typed_tensor_proto(
    kiln_string_view_t metadata, kiln_string_view_t path,
    kiln_hal_allocator_t* device_allocator, kiln_allocator_t host_allocator,
    kiln_hal_buffer_view_t** out_view) {
  kiln_tooling_tensor_type_t type;
  KILN_RETURN_IF_ERROR(kiln_tooling_tensor_type_parse(metadata, &type));
  char cpath[4096];
  if (path.size >= sizeof(cpath)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "path too long");
  }
  memcpy(cpath, path.data, path.size);
  cpath[path.size] = 0;
  kiln_hal_buffer_view_t* file_view = NULL;
  KILN_RETURN_IF_ERROR(kiln_tensor_proto_load_buffer_view(
      cpath, device_allocator, host_allocator, &file_view));
  size_t rank = kiln_hal_buffer_view_shape_rank(file_view);
  const kiln_hal_dim_t* dims = kiln_hal_buffer_view_shape_dims(file_view);
  kiln_hal_element_type_t file_type =
      kiln_hal_buffer_view_element_type(file_view);
  bool same =
      rank == type.rank && kiln_hal_element_bit_count(file_type) ==
                               kiln_hal_element_bit_count(type.element_type);
  for (size_t i = 0; same && i < rank; ++i) same = dims[i] == type.dims[i];
  kiln_status_t status = kiln_ok_status();
  if (!same) {
    char got[64];
    kiln_hal_element_type_format(file_type, got, sizeof(got));
    status = kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "'%.*s' holds a rank-%zu %s tensor; %.*s needs the same shape and "
        "element width",
        KILN_SV_ARG(path), rank, got,
        KILN_SV_ARG(kiln_string_view_trim(metadata)));
  } else {
    status = kiln_hal_buffer_view_create_at(
        kiln_hal_buffer_view_buffer(file_view),
        kiln_hal_buffer_view_byte_offset(file_view), KILN_HAL_WHOLE_BUFFER,
        rank, dims, type.element_type, KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR,
        host_allocator, out_view);
  }
  kiln_hal_buffer_view_release(file_view);
  return status;
}

typedef struct kiln_tooling_container_push_t {
  kiln_string_view_t types;
  size_t* type_index;
  kiln_string_view_t path;
  kiln_vm_list_t* list;
} kiln_tooling_container_push_t;

static kiln_status_t kiln_tooling_push_container_view(
    void* user_data, kiln_hal_buffer_view_t* view) {
  kiln_tooling_container_push_t* push =
      (kiln_tooling_container_push_t*)user_data;
  char type = *push->type_index < push->types.size
                  ? push->types.data[*push->type_index]
                  : 0;
  if (type != 'r') {
    kiln_hal_buffer_view_release(view);
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "'%.*s': element %zu gives a buffer view but the argument is %s",
        KILN_SV_ARG(push->path), *push->type_index,
        type ? kiln_tooling_type_char_name(type) : "missing (too many values)");
  }
  ++*push->type_index;
  return kiln_tooling_push_move(push->list, kiln_vm_value_make_ref(view));
}

// "sequence=@f.pb" / "optional=@f.pb": an ONNX SequenceProto or
// OptionalProto, one value per tensor it holds (the ONNX importer passes a
// sequence or optional as its tensors).
static kiln_status_t kiln_tooling_parse_container(
    kiln_string_view_t types, size_t* type_index, kiln_string_view_t path,
    bool optional, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t* list) {
  char cpath[4096];
  if (path.size >= sizeof(cpath)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "path too long");
  }
  memcpy(cpath, path.data, path.size);
  cpath[path.size] = 0;
  kiln_tooling_container_push_t push = {types, type_index, path, list};
  return kiln_tensor_proto_load_container(
      cpath, optional, device_allocator, host_allocator,
      kiln_tooling_push_container_view, &push);
}

// Parses one spec, appending zero or more values; advances |*type_index|.
static kiln_status_t kiln_tooling_parse_one(
    kiln_string_view_t types, size_t* type_index, kiln_string_view_t spec,
    size_t spec_index, bool allow_ignored, kiln_tooling_stream_list_t* streams,
    kiln_hal_allocator_t* device_allocator, kiln_allocator_t host_allocator,
    kiln_vm_list_t* list) {
  char type = *type_index < types.size ? types.data[*type_index] : 0;
  if (spec.size == 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "no value given");
  }
  if (kiln_string_view_equal_cstr(spec, "(null)") ||
      kiln_string_view_equal_cstr(spec, "(ignored)")) {
    ++*type_index;
    kiln_vm_value_t value = kiln_vm_value_make_ref(NULL);
    if (allow_ignored && type != 'r') {
      value = kiln_vm_value_make_none();
    } else if (type != 'r') {
      KILN_RETURN_IF_ERROR(kiln_tooling_parse_primitive(
          kiln_make_cstring_view("0"), type ? type : 'i', &value));
    }
    return kiln_tooling_push_move(list, value);
  }
  char first = spec.data[0];
  if (first == '@' || first == '+' || first == '*') {
    kiln_string_view_t path = kiln_string_view_substr(spec, 1, SIZE_MAX);
    if (kiln_string_view_ends_with(path, kiln_make_cstring_view(".pb"))) {
      // An ONNX TensorProto: one tensor per file (ONNX's test data).
      if (first != '@') {
        return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "'%.*s': a .pb file holds one tensor; use @",
                                KILN_SV_ARG(path));
      }
      if (type != 'r') {
        return kiln_make_status(
            KILN_STATUS_INVALID_ARGUMENT,
            "'%.*s' gives a buffer view but the argument is %s",
            KILN_SV_ARG(path),
            type ? kiln_tooling_type_char_name(type)
                 : "missing (too many values)");
      }
      char cpath[4096];
      if (path.size >= sizeof(cpath)) {
        return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "path too long");
      }
      memcpy(cpath, path.data, path.size);
      cpath[path.size] = 0;
      kiln_hal_buffer_view_t* view = NULL;
      KILN_RETURN_IF_ERROR(kiln_tensor_proto_load_buffer_view(
          cpath, device_allocator, host_allocator, &view));
      ++*type_index;
      return kiln_tooling_push_move(list, kiln_vm_value_make_ref(view));
    }
    if (!kiln_string_view_ends_with(path, kiln_make_cstring_view(".npy"))) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "'%.*s': only .npy files carry their own shape; give raw files one "
          "(e.g. 2x2xf32=@%.*s)",
          KILN_SV_ARG(path), KILN_SV_ARG(path));
    }
    FILE* file = NULL;
    KILN_RETURN_IF_ERROR(kiln_tooling_stream_list_open(
        streams, path, /*is_npy=*/true, /*rewind=*/false, spec_index, &file));
    bool all = first == '*';
    do {
      if (type != 'r') {
        return kiln_make_status(
            KILN_STATUS_INVALID_ARGUMENT,
            "'%.*s' gives a buffer view but the argument is %s",
            KILN_SV_ARG(path),
            type ? kiln_tooling_type_char_name(type)
                 : "missing (too many values)");
      }
      kiln_hal_buffer_view_t* view = NULL;
      kiln_status_t status = kiln_npy_load_buffer_view(file, device_allocator,
                                                       host_allocator, &view);
      if (status) {
        return kiln_tooling_prefix_status(status, "'%.*s'", KILN_SV_ARG(path));
      }
      KILN_RETURN_IF_ERROR(
          kiln_tooling_push_move(list, kiln_vm_value_make_ref(view)));
      ++*type_index;
      type = *type_index < types.size ? types.data[*type_index] : 0;
    } while (all && !kiln_npy_at_end(file));
    return kiln_ok_status();
  }
  bool has_equal = kiln_string_view_find_char(spec, '=', 0) != SIZE_MAX;
  bool has_x = kiln_string_view_find_char(spec, 'x', 0) != SIZE_MAX;
  if (has_equal) {
    kiln_string_view_t metadata, contents;
    kiln_string_view_split(spec, '=', &metadata, &contents);
    metadata = kiln_string_view_trim(metadata);
    contents = kiln_string_view_trim(contents);
    bool sequence = kiln_string_view_equal_cstr(metadata, "sequence");
    bool optional = kiln_string_view_equal_cstr(metadata, "optional");
    if ((sequence || optional) && contents.size > 1 &&
        contents.data[0] == '@' &&
        kiln_string_view_ends_with(contents, kiln_make_cstring_view(".pb"))) {
      return kiln_tooling_parse_container(
          types, type_index, kiln_string_view_substr(contents, 1, SIZE_MAX),
          optional, device_allocator, host_allocator, list);
    }
  }
  if (type == 'r') {
    if (!has_equal && !has_x) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "'%.*s' is not a tensor; the argument is a buffer view (e.g. "
          "2x2xf32=1 2 3 4 or f32=%.*s)",
          KILN_SV_ARG(spec), KILN_SV_ARG(spec));
    }
    kiln_string_view_t metadata, contents;
    kiln_string_view_split(spec, '=', &metadata, &contents);
    contents = kiln_string_view_trim(contents);
    kiln_hal_buffer_view_t* view = NULL;
    if (contents.size && contents.data[0] == '@' &&
        kiln_string_view_ends_with(contents, kiln_make_cstring_view(".pb"))) {
      KILN_RETURN_IF_ERROR(kiln_tooling_parse_typed_tensor_proto(
          metadata, kiln_string_view_substr(contents, 1, SIZE_MAX),
          device_allocator, host_allocator, &view));
    } else if (contents.size &&
               (contents.data[0] == '@' || contents.data[0] == '+')) {
      KILN_RETURN_IF_ERROR(kiln_tooling_parse_binary_file(
          metadata, contents, spec_index, streams, device_allocator,
          host_allocator, &view));
    } else {
      KILN_RETURN_IF_ERROR(kiln_tooling_parse_buffer_view(
          spec, device_allocator, host_allocator, &view));
    }
    ++*type_index;
    return kiln_tooling_push_move(list, kiln_vm_value_make_ref(view));
  }
  if (type == 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "more values than the function takes");
  }
  if (has_equal) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "'%.*s' is a tensor but the argument is %s (give "
                            "a plain number)",
                            KILN_SV_ARG(spec),
                            kiln_tooling_type_char_name(type));
  }
  kiln_vm_value_t value;
  KILN_RETURN_IF_ERROR(kiln_tooling_parse_primitive(spec, type, &value));
  ++*type_index;
  return kiln_tooling_push_move(list, value);
}

kiln_status_t kiln_tooling_parse_values(
    kiln_string_view_t function_name, kiln_string_view_t types,
    const char* const* specs, size_t spec_count, const char* noun,
    bool allow_ignored, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t** out_list) {
  *out_list = NULL;
  bool expands = false;
  for (size_t i = 0; i < spec_count; ++i) {
    kiln_string_view_t s =
        kiln_string_view_trim(kiln_make_cstring_view(specs[i]));
    // *f.npy and ONNX sequences/optionals give any number of values.
    if (s.size && s.data[0] == '*') expands = true;
    if (kiln_string_view_starts_with(s, kiln_make_cstring_view("sequence=")) ||
        kiln_string_view_starts_with(s, kiln_make_cstring_view("optional="))) {
      expands = true;
    }
  }
  if (!expands && spec_count != types.size) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "function '%.*s' expects %zu %ss, got %zu",
                            KILN_SV_ARG(function_name), types.size, noun,
                            spec_count);
  }
  kiln_vm_list_t* list = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_list_create(types.size, host_allocator, &list));
  kiln_tooling_stream_list_t streams;
  memset(&streams, 0, sizeof(streams));
  streams.allocator = host_allocator;
  kiln_status_t status = kiln_ok_status();
  size_t type_index = 0;
  for (size_t i = 0; i < spec_count && !status; ++i) {
    kiln_string_view_t spec =
        kiln_string_view_trim(kiln_make_cstring_view(specs[i]));
    status = kiln_tooling_parse_one(types, &type_index, spec, i, allow_ignored,
                                    &streams, device_allocator, host_allocator,
                                    list);
    if (status) status = kiln_tooling_prefix_status(status, "%s %zu", noun, i);
  }
  if (!status && kiln_vm_list_size(list) != types.size) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "function '%.*s' expects %zu %ss, got %zu",
                              KILN_SV_ARG(function_name), types.size, noun,
                              kiln_vm_list_size(list));
  }
  // Raw files must be consumed exactly: their size must match the tensors.
  for (size_t i = 0; i < streams.count && !status; ++i) {
    kiln_tooling_stream_t* s = &streams.streams[i];
    if (s->is_npy || kiln_npy_at_end(s->file)) continue;
    long position = ftell(s->file);
    struct stat st;
    long long size =
        fstat(fileno(s->file), &st) == 0 ? (long long)st.st_size : -1;
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "%s %zu: '%s' has %lld bytes but only %ld were "
                              "read; its size must match the tensor",
                              noun, s->first_spec, s->path, size, position);
  }
  kiln_tooling_stream_list_deinitialize(&streams);
  if (status) {
    kiln_vm_list_release(list);
    return status;
  }
  *out_list = list;
  return kiln_ok_status();
}

kiln_status_t kiln_tooling_parse_function_inputs(
    const kiln_vm_function_t* function, const char* const* specs,
    size_t spec_count, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t** out_list) {
  kiln_vm_signature_t signature;
  KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(
      kiln_vm_function_signature(function), &signature));
  // A coarse-fences function's last two arguments are its wait and signal
  // fences, which the tools supply: the user's inputs are the others.
  kiln_string_view_t model;
  if (kiln_vm_function_reflection_attr(function, "iree.abi.model", &model) &&
      kiln_string_view_equal_cstr(model, "coarse-fences") &&
      signature.args.size >= 2) {
    signature.args.size -= 2;
  }
  return kiln_tooling_parse_values(kiln_vm_function_name(function),
                                   signature.args, specs, spec_count, "input",
                                   /*allow_ignored=*/false, device_allocator,
                                   host_allocator, out_list);
}

kiln_status_t kiln_tooling_parse_function_inputs_from_flags(
    const kiln_vm_function_t* function, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t** out_list) {
  return kiln_tooling_parse_function_inputs(
      function, kiln_flag_input.values, kiln_flag_input.count, device_allocator,
      host_allocator, out_list);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void kiln_tooling_print_exec_header(FILE* stream,
                                    kiln_string_view_t function_name) {
  fprintf(stream, "EXEC @%.*s\n", KILN_SV_ARG(function_name));
  fflush(stream);
}

// The tensor type of |view|.
static void kiln_tooling_view_type(kiln_hal_buffer_view_t* view,
                                   kiln_tooling_tensor_type_t* out) {
  memset(out, 0, sizeof(*out));
  out->rank = kiln_hal_buffer_view_shape_rank(view);
  if (out->rank > KILN_HAL_MAX_RANK) out->rank = KILN_HAL_MAX_RANK;
  memcpy(out->dims, kiln_hal_buffer_view_shape_dims(view),
         out->rank * sizeof(out->dims[0]));
  out->element_type = kiln_hal_buffer_view_element_type(view);
}

static kiln_status_t kiln_tooling_map_view(kiln_hal_buffer_view_t* view,
                                           kiln_hal_buffer_mapping_t* mapping) {
  memset(mapping, 0, sizeof(*mapping));
  return kiln_hal_buffer_map_range(
      kiln_hal_buffer_view_buffer(view), KILN_HAL_MEMORY_ACCESS_READ,
      kiln_hal_buffer_view_byte_offset(view),
      kiln_hal_buffer_view_byte_length(view), mapping);
}

kiln_status_t kiln_tooling_append_buffer_view(kiln_hal_buffer_view_t* view,
                                              size_t max_element_count,
                                              kiln_string_builder_t* builder) {
  kiln_tooling_tensor_type_t type;
  kiln_tooling_view_type(view, &type);
  kiln_hal_buffer_mapping_t mapping;
  KILN_RETURN_IF_ERROR(kiln_tooling_map_view(view, &mapping));
  kiln_status_t status = kiln_tooling_tensor_append(
      &type, mapping.contents, mapping.length, max_element_count, builder);
  kiln_hal_buffer_unmap_range(&mapping);
  return status;
}

static kiln_status_t kiln_tooling_append_list(const char* name,
                                              kiln_vm_list_t* list,
                                              size_t max_element_count,
                                              kiln_string_builder_t* builder);

kiln_status_t kiln_tooling_append_value(const kiln_vm_value_t* value,
                                        size_t max_element_count,
                                        kiln_string_builder_t* builder) {
  switch (value->type) {
    case KILN_VM_VALUE_TYPE_NONE:
      return kiln_string_builder_append_cstring(builder, "(null)");
    case KILN_VM_VALUE_TYPE_I32:
      return kiln_string_builder_append_format(builder, "i32=%" PRId32,
                                               value->i32);
    case KILN_VM_VALUE_TYPE_I64:
      return kiln_string_builder_append_format(builder, "i64=%" PRId64,
                                               value->i64);
    case KILN_VM_VALUE_TYPE_F32:
      return kiln_string_builder_append_format(builder, "f32=%g",
                                               (double)value->f32);
    case KILN_VM_VALUE_TYPE_F64:
      return kiln_string_builder_append_format(builder, "f64=%g", value->f64);
    case KILN_VM_VALUE_TYPE_REF:
      break;
  }
  if (!value->ref) return kiln_string_builder_append_cstring(builder, "(null)");
  KILN_RETURN_IF_ERROR(
      kiln_string_builder_append_cstring(builder, value->ref->type->name));
  KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, "\n"));
  if (kiln_ref_isa(value->ref, &kiln_hal_buffer_view_type)) {
    return kiln_tooling_append_buffer_view((kiln_hal_buffer_view_t*)value->ref,
                                           max_element_count, builder);
  }
  kiln_vm_list_t* child = kiln_vm_list_cast(value->ref);
  if (child) {
    return kiln_tooling_append_list("child_list", child, max_element_count,
                                    builder);
  }
  return kiln_string_builder_append_cstring(builder, "(no printer)");
}

static kiln_status_t kiln_tooling_append_list(const char* name,
                                              kiln_vm_list_t* list,
                                              size_t max_element_count,
                                              kiln_string_builder_t* builder) {
  for (size_t i = 0; i < kiln_vm_list_size(list); ++i) {
    kiln_vm_value_t value;
    KILN_RETURN_IF_ERROR(kiln_vm_list_get_value(list, i, &value));
    KILN_RETURN_IF_ERROR(
        kiln_string_builder_append_format(builder, "%s[%zu]: ", name, i));
    KILN_RETURN_IF_ERROR(
        kiln_tooling_append_value(&value, max_element_count, builder));
    KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(builder, "\n"));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tooling_print_values(FILE* stream, const char* name,
                                        kiln_vm_list_t* list,
                                        size_t max_element_count) {
  kiln_string_builder_t builder;
  kiln_string_builder_initialize(kiln_allocator_system(), &builder);
  kiln_status_t status =
      kiln_tooling_append_list(name, list, max_element_count, &builder);
  if (!status) {
    fwrite(kiln_string_builder_cstr(&builder), 1, builder.size, stream);
    fflush(stream);
  }
  kiln_string_builder_deinitialize(&builder);
  return status;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

// Writes |value| to |file| as an .npy array or raw bytes.
static kiln_status_t kiln_tooling_write_value(const kiln_vm_value_t* value,
                                              FILE* file, bool npy) {
  kiln_tooling_tensor_type_t type;
  memset(&type, 0, sizeof(type));
  const void* data = &value->i32;
  size_t length = 0;
  switch (value->type) {
    case KILN_VM_VALUE_TYPE_I32:
      type.element_type = KILN_HAL_ELEMENT_TYPE_INT_32;
      data = &value->i32, length = 4;
      break;
    case KILN_VM_VALUE_TYPE_I64:
      type.element_type = KILN_HAL_ELEMENT_TYPE_INT_64;
      data = &value->i64, length = 8;
      break;
    case KILN_VM_VALUE_TYPE_F32:
      type.element_type = KILN_HAL_ELEMENT_TYPE_FLOAT_32;
      data = &value->f32, length = 4;
      break;
    case KILN_VM_VALUE_TYPE_F64:
      type.element_type = KILN_HAL_ELEMENT_TYPE_FLOAT_64;
      data = &value->f64, length = 8;
      break;
    case KILN_VM_VALUE_TYPE_NONE:
    case KILN_VM_VALUE_TYPE_REF:
      if (value->type == KILN_VM_VALUE_TYPE_REF &&
          kiln_ref_isa(value->ref, &kiln_hal_buffer_view_type)) {
        kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)value->ref;
        if (npy) return kiln_npy_save_buffer_view(file, view);
        kiln_hal_buffer_mapping_t mapping;
        KILN_RETURN_IF_ERROR(kiln_tooling_map_view(view, &mapping));
        bool ok =
            mapping.length == 0 ||
            fwrite(mapping.contents, 1, mapping.length, file) == mapping.length;
        kiln_hal_buffer_unmap_range(&mapping);
        return ok ? kiln_ok_status()
                  : kiln_make_status(KILN_STATUS_DATA_LOSS, "write failed");
      }
      if (value->type == KILN_VM_VALUE_TYPE_NONE || !value->ref) {
        // An empty array keeps multi-array files in result order.
        type.rank = 1;
        type.element_type = KILN_HAL_ELEMENT_TYPE_INT_8;
        break;
      }
      return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                              "cannot write a %s to a file",
                              value->ref->type->name);
  }
  if (npy) return kiln_npy_write_array(file, &type, data, length);
  if (length && fwrite(data, 1, length, file) != length) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS, "write failed");
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tooling_write_values(kiln_vm_list_t* values,
                                        const char* const* specs,
                                        size_t spec_count,
                                        size_t max_element_count,
                                        FILE* default_stream) {
  if (kiln_vm_list_size(values) != spec_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%zu --output values given but the function "
                            "returned %zu results",
                            spec_count, kiln_vm_list_size(values));
  }
  for (size_t i = 0; i < spec_count; ++i) {
    kiln_string_view_t spec =
        kiln_string_view_trim(kiln_make_cstring_view(specs[i]));
    kiln_vm_value_t value;
    KILN_RETURN_IF_ERROR(kiln_vm_list_get_value(values, i, &value));
    if (spec.size == 0) continue;
    if (kiln_string_view_equal_cstr(spec, "-")) {
      if (!default_stream) continue;
      kiln_string_builder_t builder;
      kiln_string_builder_initialize(kiln_allocator_system(), &builder);
      kiln_status_t status =
          kiln_tooling_append_value(&value, max_element_count, &builder);
      if (!status) {
        fprintf(default_stream, "%s\n", kiln_string_builder_cstr(&builder));
      }
      kiln_string_builder_deinitialize(&builder);
      if (status) return kiln_tooling_prefix_status(status, "output %zu", i);
      continue;
    }
    if (spec.data[0] != '@' && spec.data[0] != '+') {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "output %zu: '%.*s' is not an output; use '', "
                              "'-', @file or +file",
                              i, KILN_SV_ARG(spec));
    }
    char path[4096];
    snprintf(path, sizeof(path), "%.*s", (int)(spec.size - 1), spec.data + 1);
    FILE* file = fopen(path, spec.data[0] == '@' ? "wb" : "ab");
    if (!file) {
      return kiln_make_status(KILN_STATUS_PERMISSION_DENIED,
                              "output %zu: cannot open '%s': %s", i, path,
                              strerror(errno));
    }
    kiln_status_t status = kiln_tooling_write_value(
        &value, file,
        kiln_string_view_ends_with(spec, kiln_make_cstring_view(".npy")));
    if (fclose(file) != 0 && !status) {
      status = kiln_make_status(KILN_STATUS_DATA_LOSS, "closing failed");
    }
    if (status) {
      return kiln_tooling_prefix_status(status, "output %zu: '%s'", i, path);
    }
  }
  if (default_stream) fflush(default_stream);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

kiln_tooling_thresholds_t kiln_tooling_thresholds_from_flags(void) {
  kiln_tooling_thresholds_t t = {
      kiln_flag_expected_f16_threshold, kiln_flag_expected_bf16_threshold,
      kiln_flag_expected_f32_threshold, kiln_flag_expected_f64_threshold,
      kiln_flag_expected_rtol};
  return t;
}

static bool kiln_tooling_fuzzy_equal(double actual, double expected,
                                     double atol, double rtol) {
  if (actual == expected) return true;
  if (isnan(actual) && isnan(expected)) return true;
  if (!isfinite(expected) || !isfinite(actual)) return false;
  return fabs(actual - expected) <= atol + rtol * fabs(expected);
}

// Index of the first mismatching element or SIZE_MAX.
static size_t kiln_tooling_first_mismatch(
    kiln_hal_element_type_t type, uint64_t count, const uint8_t* expected,
    const uint8_t* actual, const kiln_tooling_thresholds_t* thresholds) {
  double atol = -1;
  switch (type) {
    case KILN_HAL_ELEMENT_TYPE_FLOAT_16:
      atol = thresholds->f16_atol;
      break;
    case KILN_HAL_ELEMENT_TYPE_BFLOAT_16:
      atol = thresholds->bf16_atol;
      break;
    case KILN_HAL_ELEMENT_TYPE_FLOAT_32:
      atol = thresholds->f32_atol;
      break;
    case KILN_HAL_ELEMENT_TYPE_FLOAT_64:
      atol = thresholds->f64_atol;
      break;
    default:
      break;
  }
  size_t size = kiln_hal_element_byte_size(type);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* e = expected + i * size;
    const uint8_t* a = actual + i * size;
    bool equal = atol < 0 ? memcmp(e, a, size) == 0
                          : kiln_tooling_fuzzy_equal(
                                kiln_tooling_element_to_double(a, type),
                                kiln_tooling_element_to_double(e, type), atol,
                                thresholds->rtol);
    if (!equal) return (size_t)i;
  }
  return SIZE_MAX;
}

static kiln_status_t kiln_tooling_compare_views(
    size_t index, kiln_hal_buffer_view_t* expected,
    kiln_hal_buffer_view_t* actual, const kiln_tooling_thresholds_t* thresholds,
    size_t max_element_count, kiln_string_builder_t* report, bool* out_match) {
  kiln_tooling_tensor_type_t et, at;
  kiln_tooling_view_type(expected, &et);
  kiln_tooling_view_type(actual, &at);
  kiln_string_builder_t line;
  kiln_string_builder_initialize(kiln_allocator_system(), &line);
  kiln_status_t status = kiln_ok_status();
  *out_match = true;
  if (!kiln_tooling_tensor_type_equal(&et, &at)) {
    *out_match = false;
    status = kiln_string_builder_append_cstring(&line, "metadata is ");
    if (!status) status = kiln_tooling_tensor_type_append(&at, &line);
    if (!status) {
      status = kiln_string_builder_append_cstring(
          &line, "; expected that the view matches ");
    }
    if (!status) status = kiln_tooling_tensor_type_append(&et, &line);
  } else {
    kiln_hal_buffer_mapping_t em, am;
    uint64_t count = 0;
    status = kiln_tooling_tensor_type_sizes(&et, &count, NULL);
    if (!status) status = kiln_tooling_map_view(expected, &em);
    if (!status) {
      status = kiln_tooling_map_view(actual, &am);
      if (status) kiln_hal_buffer_unmap_range(&em);
    }
    if (!status) {
      size_t i = kiln_tooling_first_mismatch(
          et.element_type, count, (const uint8_t*)em.contents,
          (const uint8_t*)am.contents, thresholds);
      if (i != SIZE_MAX) {
        *out_match = false;
        size_t size = kiln_hal_element_byte_size(et.element_type);
        status = kiln_string_builder_append_format(&line,
                                                   "element at index %zu (", i);
        if (!status) {
          status = kiln_tooling_element_append(
              (const uint8_t*)am.contents + i * size, et.element_type, &line);
        }
        if (!status) {
          status = kiln_string_builder_append_cstring(
              &line, ") does not match the expected (");
        }
        if (!status) {
          status = kiln_tooling_element_append(
              (const uint8_t*)em.contents + i * size, et.element_type, &line);
        }
        if (!status) status = kiln_string_builder_append_cstring(&line, ")");
      }
      kiln_hal_buffer_unmap_range(&em);
      kiln_hal_buffer_unmap_range(&am);
    }
  }
  if (!status && !*out_match) {
    status = kiln_string_builder_append_format(report,
                                               "[FAILED] result[%zu]: ", index);
    if (!status) {
      status =
          kiln_string_builder_append(report, kiln_string_builder_view(&line));
    }
    if (!status) {
      status = kiln_string_builder_append_cstring(
          report,
          "; expected that the view is equal to contents of a view of ");
    }
    if (!status) status = kiln_tooling_tensor_type_append(&et, report);
    if (!status) {
      status = kiln_string_builder_append_cstring(report, "\n  expected:\n");
    }
    if (!status) {
      status =
          kiln_tooling_append_buffer_view(expected, max_element_count, report);
    }
    if (!status) {
      status = kiln_string_builder_append_cstring(report, "\n  actual:\n");
    }
    if (!status) {
      status =
          kiln_tooling_append_buffer_view(actual, max_element_count, report);
    }
    if (!status) status = kiln_string_builder_append_cstring(report, "\n");
  }
  kiln_string_builder_deinitialize(&line);
  return status;
}

static const char* kiln_tooling_value_kind(const kiln_vm_value_t* v) {
  if (v->type == KILN_VM_VALUE_TYPE_REF) {
    return v->ref ? v->ref->type->name : "(null)";
  }
  return kiln_vm_value_type_name(v->type);
}

kiln_status_t kiln_tooling_compare_values(
    kiln_vm_list_t* expected, kiln_vm_list_t* actual,
    const kiln_tooling_thresholds_t* thresholds, size_t max_element_count,
    kiln_string_builder_t* report, bool* out_all_match) {
  *out_all_match = false;
  size_t count = kiln_vm_list_size(expected);
  if (count != kiln_vm_list_size(actual)) {
    return kiln_string_builder_append_format(
        report, "[FAILED] expected %zu results but the function returned %zu\n",
        count, kiln_vm_list_size(actual));
  }
  bool all = true;
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_value_t e, a;
    KILN_RETURN_IF_ERROR(kiln_vm_list_get_value(expected, i, &e));
    KILN_RETURN_IF_ERROR(kiln_vm_list_get_value(actual, i, &a));
    if (e.type == KILN_VM_VALUE_TYPE_NONE ||
        (e.type == KILN_VM_VALUE_TYPE_REF && !e.ref)) {
      continue;  // (ignored)
    }
    if (e.type == KILN_VM_VALUE_TYPE_REF && a.type == KILN_VM_VALUE_TYPE_REF &&
        kiln_ref_isa(e.ref, &kiln_hal_buffer_view_type) &&
        kiln_ref_isa(a.ref, &kiln_hal_buffer_view_type)) {
      bool match = false;
      KILN_RETURN_IF_ERROR(kiln_tooling_compare_views(
          i, (kiln_hal_buffer_view_t*)e.ref, (kiln_hal_buffer_view_t*)a.ref,
          thresholds, max_element_count, report, &match));
      all = all && match;
      continue;
    }
    if (e.type != a.type || e.type == KILN_VM_VALUE_TYPE_REF) {
      all = false;
      KILN_RETURN_IF_ERROR(kiln_string_builder_append_format(
          report,
          "[FAILED] result[%zu]: variant types mismatch; expected %s but got "
          "%s\n",
          i, kiln_tooling_value_kind(&e), kiln_tooling_value_kind(&a)));
      continue;
    }
    bool match = true;
    switch (e.type) {
      case KILN_VM_VALUE_TYPE_I32:
        match = e.i32 == a.i32;
        break;
      case KILN_VM_VALUE_TYPE_I64:
        match = e.i64 == a.i64;
        break;
      case KILN_VM_VALUE_TYPE_F32:
        match = kiln_tooling_fuzzy_equal(a.f32, e.f32, thresholds->f32_atol,
                                         thresholds->rtol);
        break;
      case KILN_VM_VALUE_TYPE_F64:
        match = kiln_tooling_fuzzy_equal(a.f64, e.f64, thresholds->f64_atol,
                                         thresholds->rtol);
        break;
      default:
        break;
    }
    if (!match) {
      all = false;
      kiln_string_builder_t ev, av;
      kiln_string_builder_initialize(kiln_allocator_system(), &ev);
      kiln_string_builder_initialize(kiln_allocator_system(), &av);
      kiln_status_t status = kiln_tooling_append_value(&e, 0, &ev);
      if (!status) status = kiln_tooling_append_value(&a, 0, &av);
      if (!status) {
        // "i32=5" -> values after the '='.
        status = kiln_string_builder_append_format(
            report,
            "[FAILED] result[%zu]: %s values differ\n  expected: %s\n"
            "  actual: %s\n",
            i, kiln_vm_value_type_name(e.type),
            strchr(kiln_string_builder_cstr(&ev), '=') + 1,
            strchr(kiln_string_builder_cstr(&av), '=') + 1);
      }
      kiln_string_builder_deinitialize(&ev);
      kiln_string_builder_deinitialize(&av);
      KILN_RETURN_IF_ERROR(status);
    }
  }
  *out_all_match = all;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Processing results from flags
//===----------------------------------------------------------------------===//

kiln_status_t kiln_tooling_process_results(const kiln_vm_function_t* function,
                                           kiln_vm_list_t* results,
                                           FILE* stream,
                                           kiln_allocator_t host_allocator,
                                           int* out_exit_code) {
  *out_exit_code = 0;
  size_t max_element_count = kiln_tooling_max_element_count_from_flags();
  if (kiln_flag_expected_output.count == 0) {
    if (kiln_flag_output.count == 0) {
      return kiln_tooling_print_values(stream, "result", results,
                                       max_element_count);
    }
    return kiln_tooling_write_values(results, kiln_flag_output.values,
                                     kiln_flag_output.count, max_element_count,
                                     stream);
  }
  kiln_vm_signature_t signature;
  KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(
      kiln_vm_function_signature(function), &signature));
  // Expected values live in host memory of their own allocator so that device
  // statistics only count the program's buffers.
  kiln_hal_allocator_t* heap = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_allocator_create_heap(
      kiln_make_cstring_view("expected"), host_allocator, &heap));
  kiln_vm_list_t* expected = NULL;
  kiln_status_t status = kiln_tooling_parse_values(
      kiln_vm_function_name(function), signature.results,
      kiln_flag_expected_output.values, kiln_flag_expected_output.count,
      "expected_output", /*allow_ignored=*/true, heap, host_allocator,
      &expected);
  if (!status) {
    kiln_string_builder_t report;
    kiln_string_builder_initialize(host_allocator, &report);
    kiln_tooling_thresholds_t thresholds = kiln_tooling_thresholds_from_flags();
    bool all_match = false;
    status = kiln_tooling_compare_values(
        expected, results, &thresholds, max_element_count, &report, &all_match);
    if (!status) {
      fwrite(kiln_string_builder_cstr(&report), 1, report.size, stream);
      if (all_match) {
        fprintf(stream,
                "[SUCCESS] all function outputs matched their expected "
                "values.\n");
      }
      fflush(stream);
      *out_exit_code = all_match ? 0 : 1;
    }
    kiln_string_builder_deinitialize(&report);
  }
  kiln_vm_list_release(expected);
  kiln_hal_allocator_release(heap);
  return status;
}
