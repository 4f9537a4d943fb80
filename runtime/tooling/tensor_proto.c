// TensorProto wire decoding (see tensor_proto.h). Field numbers follow
// onnx.proto: 1 dims, 2 data_type, 4 float_data, 5 int32_data, 6
// string_data, 7 int64_data, 9 raw_data, 10 double_data, 11 uint64_data,
// 13 external_data, 14 data_location.
#include "runtime/tooling/tensor_proto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct kiln_pb_reader_t {
  const uint8_t* p;
  const uint8_t* end;
} kiln_pb_reader_t;

static bool kiln_pb_varint(kiln_pb_reader_t* r, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (r->p >= r->end) return false;
    uint8_t b = *r->p++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

static bool kiln_pb_fixed(kiln_pb_reader_t* r, size_t width, uint64_t* out) {
  if ((size_t)(r->end - r->p) < width) return false;
  uint64_t v = 0;
  memcpy(&v, r->p, width);  // little endian host
  r->p += width;
  *out = v;
  return true;
}

// Skips one value of wire type |wt|; false when malformed.
static bool kiln_pb_skip(kiln_pb_reader_t* r, uint32_t wt) {
  uint64_t v = 0;
  switch (wt) {
    case 0:
      return kiln_pb_varint(r, &v);
    case 1:
      return kiln_pb_fixed(r, 8, &v);
    case 5:
      return kiln_pb_fixed(r, 4, &v);
    case 2:
      if (!kiln_pb_varint(r, &v) || v > (uint64_t)(r->end - r->p)) return false;
      r->p += v;
      return true;
    default:
      return false;
  }
}

typedef struct kiln_pb_tensor_t {
  size_t rank;
  int64_t dims[KILN_HAL_MAX_RANK];
  bool too_many_dims;
  int64_t data_type;
  bool has_raw;
  const uint8_t* raw;
  size_t raw_length;
  bool external;
  bool has_strings;
} kiln_pb_tensor_t;

// The typed field that holds |data_type|'s values and its wire width (0:
// varint).
static int kiln_pb_typed_field(int64_t data_type, size_t* out_width) {
  switch (data_type) {
    case 1:   // FLOAT
    case 14:  // COMPLEX64
      *out_width = 4;
      return 4;
    case 11:  // DOUBLE
    case 15:  // COMPLEX128
      *out_width = 8;
      return 10;
    case 7:  // INT64
      *out_width = 0;
      return 7;
    case 12:  // UINT32
    case 13:  // UINT64
      *out_width = 0;
      return 11;
    default:
      *out_width = 0;
      return 5;
  }
}

static bool kiln_pb_element_type(int64_t data_type,
                                 kiln_hal_element_type_t* out) {
  switch (data_type) {
    case 1:
      *out = KILN_HAL_ELEMENT_TYPE_FLOAT_32;
      return true;
    case 2:
      *out = KILN_HAL_ELEMENT_TYPE_UINT_8;
      return true;
    case 3:
      *out = KILN_HAL_ELEMENT_TYPE_INT_8;
      return true;
    case 4:
      *out = KILN_HAL_ELEMENT_TYPE_UINT_16;
      return true;
    case 5:
      *out = KILN_HAL_ELEMENT_TYPE_INT_16;
      return true;
    case 6:
      *out = KILN_HAL_ELEMENT_TYPE_INT_32;
      return true;
    case 7:
      *out = KILN_HAL_ELEMENT_TYPE_INT_64;
      return true;
    case 9:
      *out = KILN_HAL_ELEMENT_TYPE_BOOL_8;
      return true;
    case 10:
      *out = KILN_HAL_ELEMENT_TYPE_FLOAT_16;
      return true;
    case 11:
      *out = KILN_HAL_ELEMENT_TYPE_FLOAT_64;
      return true;
    case 12:
      *out = KILN_HAL_ELEMENT_TYPE_UINT_32;
      return true;
    case 13:
      *out = KILN_HAL_ELEMENT_TYPE_UINT_64;
      return true;
    case 14:
      *out = KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64;
      return true;
    case 15:
      *out = KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128;
      return true;
    case 16:
      *out = KILN_HAL_ELEMENT_TYPE_BFLOAT_16;
      return true;
    default:
      return false;
  }
}

#define KILN_PB_MALFORMED()                      \
  kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, \
                   "not a valid TensorProto (truncated or corrupted)")

// Walks every field. With |out| NULL counts the typed values into
// |*count|; otherwise stores them, converted to |elem_bytes| wide
// elements, into |out| (|*count| is the index of the next one).
static kiln_status_t kiln_pb_walk(const uint8_t* data, size_t length,
                                  kiln_pb_tensor_t* t, int typed_field,
                                  size_t typed_width, uint8_t* out,
                                  size_t elem_bytes, size_t capacity,
                                  size_t* count) {
  kiln_pb_reader_t r = {data, data + length};
  while (r.p < r.end) {
    uint64_t key = 0;
    if (!kiln_pb_varint(&r, &key)) return KILN_PB_MALFORMED();
    uint32_t field = (uint32_t)(key >> 3), wt = (uint32_t)(key & 7);
    if (field == 0) return KILN_PB_MALFORMED();
    if (!out && field == 1) {
      // dims: packed or one varint per field.
      kiln_pb_reader_t span = r;
      if (wt == 2) {
        uint64_t len = 0;
        if (!kiln_pb_varint(&r, &len) || len > (uint64_t)(r.end - r.p)) {
          return KILN_PB_MALFORMED();
        }
        span.p = r.p;
        span.end = r.p + len;
        r.p += len;
      } else if (wt == 0) {
        span.end = r.end;
      } else {
        return KILN_PB_MALFORMED();
      }
      do {
        uint64_t v = 0;
        if (!kiln_pb_varint(&span, &v)) return KILN_PB_MALFORMED();
        if (t->rank < KILN_HAL_MAX_RANK) {
          t->dims[t->rank++] = (int64_t)v;
        } else {
          t->too_many_dims = true;
        }
        if (wt == 0) {
          r.p = span.p;
          break;
        }
      } while (span.p < span.end);
      continue;
    }
    if (!out && field == 2 && wt == 0) {
      uint64_t v = 0;
      if (!kiln_pb_varint(&r, &v)) return KILN_PB_MALFORMED();
      t->data_type = (int64_t)v;
      continue;
    }
    if (!out && field == 14 && wt == 0) {
      uint64_t v = 0;
      if (!kiln_pb_varint(&r, &v)) return KILN_PB_MALFORMED();
      t->external = v == 1;
      continue;
    }
    if (!out && (field == 9 || field == 6 || field == 13) && wt == 2) {
      uint64_t len = 0;
      if (!kiln_pb_varint(&r, &len) || len > (uint64_t)(r.end - r.p)) {
        return KILN_PB_MALFORMED();
      }
      if (field == 9) {
        t->has_raw = true;
        t->raw = r.p;
        t->raw_length = (size_t)len;
      } else if (field == 6) {
        t->has_strings = true;
      } else {
        t->external = true;
      }
      r.p += len;
      continue;
    }
    if ((int)field == typed_field) {
      kiln_pb_reader_t span = r;
      bool packed = wt == 2;
      if (packed) {
        uint64_t len = 0;
        if (!kiln_pb_varint(&r, &len) || len > (uint64_t)(r.end - r.p)) {
          return KILN_PB_MALFORMED();
        }
        span.p = r.p;
        span.end = r.p + len;
        r.p += len;
      } else if (wt != (typed_width == 4 ? 5u : typed_width == 8 ? 1u : 0u)) {
        return KILN_PB_MALFORMED();
      }
      do {
        uint64_t v = 0;
        bool ok = typed_width ? kiln_pb_fixed(&span, typed_width, &v)
                              : kiln_pb_varint(&span, &v);
        if (!ok) return KILN_PB_MALFORMED();
        if (out) {
          if (*count >= capacity) return KILN_PB_MALFORMED();
          if (elem_bytes == 1 && typed_field == 5) v = v & 0xff;
          memcpy(out + *count * elem_bytes, &v, elem_bytes);
        }
        ++*count;
        if (!packed) {
          r.p = span.p;
          break;
        }
      } while (span.p < span.end);
      continue;
    }
    if (!kiln_pb_skip(&r, wt)) return KILN_PB_MALFORMED();
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tensor_proto_decode(const uint8_t* data, size_t length,
                                       kiln_allocator_t allocator,
                                       kiln_tooling_tensor_type_t* out_type,
                                       void** out_data, size_t* out_length) {
  *out_data = NULL;
  *out_length = 0;
  kiln_pb_tensor_t t;
  memset(&t, 0, sizeof(t));
  size_t typed_width = 0;
  size_t typed_count = 0;
  // First pass: header fields (dims, data_type, raw_data) only.
  KILN_RETURN_IF_ERROR(
      kiln_pb_walk(data, length, &t, -1, 0, NULL, 0, 0, &typed_count));
  kiln_hal_element_type_t element_type;
  if (t.has_strings || t.data_type == 8) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "string tensors are not supported");
  }
  if (!kiln_pb_element_type(t.data_type, &element_type)) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "TensorProto data_type %lld is not supported",
                            (long long)t.data_type);
  }
  if (t.external) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "TensorProto with external data is not supported "
                            "as a tool input");
  }
  if (t.too_many_dims) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "TensorProto rank is above %d", KILN_HAL_MAX_RANK);
  }
  uint64_t count = 1;
  for (size_t i = 0; i < t.rank; ++i) {
    if (t.dims[i] < 0 ||
        (t.dims[i] > 0 && count > (UINT64_C(1) << 40) / (uint64_t)t.dims[i])) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "TensorProto dim %zu (%lld) is invalid", i,
                              (long long)t.dims[i]);
    }
    count *= (uint64_t)t.dims[i];
  }
  memset(out_type, 0, sizeof(*out_type));
  out_type->rank = t.rank;
  for (size_t i = 0; i < t.rank; ++i)
    out_type->dims[i] = (kiln_hal_dim_t)t.dims[i];
  out_type->element_type = element_type;
  size_t elem_bytes = kiln_hal_element_byte_size(element_type);
  size_t byte_length = (size_t)count * elem_bytes;
  if (t.has_raw) {
    if (t.raw_length != byte_length) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "TensorProto raw_data holds %zu bytes but its shape needs %zu",
          t.raw_length, byte_length);
    }
  }
  void* buffer = NULL;
  if (byte_length) {
    KILN_RETURN_IF_ERROR(
        kiln_allocator_malloc(allocator, byte_length, &buffer));
  }
  kiln_status_t status = kiln_ok_status();
  if (t.has_raw) {
    if (byte_length) memcpy(buffer, t.raw, byte_length);
  } else {
    int field = kiln_pb_typed_field(t.data_type, &typed_width);
    // Complex values are pairs of floats/doubles in the typed field.
    size_t value_bytes = t.data_type == 14   ? 4
                         : t.data_type == 15 ? 8
                                             : elem_bytes;
    size_t values = byte_length / (value_bytes ? value_bytes : 1);
    typed_count = 0;
    status = kiln_pb_walk(data, length, &t, field, typed_width,
                          (uint8_t*)buffer, value_bytes, values, &typed_count);
    if (!status && typed_count != values) {
      status = kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "TensorProto holds %zu values but its shape needs %zu", typed_count,
          values);
    }
  }
  if (status) {
    kiln_allocator_free(allocator, buffer);
    return status;
  }
  *out_data = buffer;
  *out_length = byte_length;
  return kiln_ok_status();
}

// Reads the whole file |path| into |*out_bytes| (from |host_allocator|).
static kiln_status_t kiln_pb_read_file(const char* path,
                                       kiln_allocator_t host_allocator,
                                       uint8_t** out_bytes, size_t* out_size) {
  *out_bytes = NULL;
  *out_size = 0;
  FILE* file = fopen(path, "rb");
  if (!file) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND, "'%s': cannot open: %s",
                            path, strerror(errno));
  }
  size_t capacity = 4096, size = 0;
  uint8_t* bytes = NULL;
  kiln_status_t status =
      kiln_allocator_malloc(host_allocator, capacity, (void**)&bytes);
  while (!status) {
    if (size == capacity) {
      capacity *= 2;
      status = kiln_allocator_realloc(host_allocator, capacity, (void**)&bytes);
      if (status) break;
    }
    size_t n = fread(bytes + size, 1, capacity - size, file);
    if (n == 0) break;
    size += n;
  }
  if (!status && ferror(file)) {
    status = kiln_make_status(KILN_STATUS_DATA_LOSS, "'%s': read error", path);
  }
  fclose(file);
  if (status) {
    kiln_allocator_free(host_allocator, bytes);
    return status;
  }
  *out_bytes = bytes;
  *out_size = size;
  return kiln_ok_status();
}

// A new buffer view holding the TensorProto |bytes|.
static kiln_status_t kiln_pb_make_view(const uint8_t* bytes, size_t size,
                                       kiln_hal_allocator_t* device_allocator,
                                       kiln_allocator_t host_allocator,
                                       kiln_hal_buffer_view_t** out_view) {
  kiln_tooling_tensor_type_t type;
  void* data = NULL;
  size_t length = 0;
  kiln_status_t status = kiln_tensor_proto_decode(bytes, size, host_allocator,
                                                  &type, &data, &length);
  kiln_hal_buffer_t* buffer = NULL;
  if (!status) {
    status = kiln_hal_allocator_allocate_buffer(device_allocator, NULL, length,
                                                &buffer);
  }
  if (!status && length) {
    kiln_hal_buffer_mapping_t mapping;
    memset(&mapping, 0, sizeof(mapping));
    status =
        kiln_hal_buffer_map_range(buffer, KILN_HAL_MEMORY_ACCESS_DISCARD_WRITE,
                                  0, KILN_HAL_WHOLE_BUFFER, &mapping);
    if (!status) {
      memcpy(mapping.contents, data, length);
      kiln_hal_buffer_unmap_range(&mapping);
    }
  }
  if (!status) {
    status = kiln_hal_buffer_view_create(
        buffer, type.rank, type.dims, type.element_type,
        KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR, host_allocator, out_view);
  }
  if (buffer) kiln_hal_buffer_release(buffer);
  kiln_allocator_free(host_allocator, data);
  return status;
}

kiln_status_t kiln_tensor_proto_load_buffer_view(
    const char* path, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  uint8_t* bytes = NULL;
  size_t size = 0;
  KILN_RETURN_IF_ERROR(kiln_pb_read_file(path, host_allocator, &bytes, &size));
  kiln_status_t status = kiln_pb_make_view(bytes, size, device_allocator,
                                           host_allocator, out_view);
  kiln_allocator_free(host_allocator, bytes);
  if (status) {
    return kiln_status_annotate_f(status, "reading '%s'", path);
  }
  return kiln_ok_status();
}

// Walks a SequenceProto (tensor_values: field 3) or OptionalProto
// (tensor_value: field 3, sequence_value: field 5), handing each tensor to
// |fn|; other fields (name, elem_type) are skipped.
static kiln_status_t kiln_pb_walk_container(
    const uint8_t* bytes, size_t size, bool optional,
    kiln_hal_allocator_t* device_allocator, kiln_allocator_t host_allocator,
    kiln_tensor_proto_view_fn_t fn, void* user_data, size_t* count) {
  kiln_pb_reader_t r = {bytes, bytes + size};
  while (r.p < r.end) {
    uint64_t key = 0;
    if (!kiln_pb_varint(&r, &key)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "malformed field key");
    }
    uint32_t number = (uint32_t)(key >> 3), wt = (uint32_t)(key & 7);
    bool tensor = number == 3 && wt == 2;
    bool sequence = optional && number == 5 && wt == 2;
    if (!tensor && !sequence) {
      if (number >= 4 && wt == 2) {
        return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                                "sparse tensors, maps and nested optionals "
                                "are not supported");
      }
      if (!kiln_pb_skip(&r, wt)) {
        return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "malformed field %u", number);
      }
      continue;
    }
    uint64_t n = 0;
    if (!kiln_pb_varint(&r, &n) || n > (uint64_t)(r.end - r.p)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "field %u runs past the end", number);
    }
    const uint8_t* item = r.p;
    r.p += n;
    if (optional && *count) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "an OptionalProto holds at most one value");
    }
    if (sequence) {
      size_t inner = 0;
      KILN_RETURN_IF_ERROR(
          kiln_pb_walk_container(item, (size_t)n, false, device_allocator,
                                 host_allocator, fn, user_data, &inner));
      *count += inner ? inner : 1;  // an empty sequence is still the value
      continue;
    }
    kiln_hal_buffer_view_t* view = NULL;
    KILN_RETURN_IF_ERROR(kiln_pb_make_view(item, (size_t)n, device_allocator,
                                           host_allocator, &view));
    ++*count;
    KILN_RETURN_IF_ERROR(fn(user_data, view));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tensor_proto_load_container(
    const char* path, bool optional, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_tensor_proto_view_fn_t fn,
    void* user_data) {
  uint8_t* bytes = NULL;
  size_t size = 0;
  KILN_RETURN_IF_ERROR(kiln_pb_read_file(path, host_allocator, &bytes, &size));
  size_t count = 0;
  kiln_status_t status =
      kiln_pb_walk_container(bytes, size, optional, device_allocator,
                             host_allocator, fn, user_data, &count);
  kiln_allocator_free(host_allocator, bytes);
  if (status) {
    return kiln_status_annotate_f(
        status, "reading '%s' as %s", path,
        optional ? "an OptionalProto" : "a SequenceProto");
  }
  return kiln_ok_status();
}
