#include "runtime/hal/buffer_view.h"

#include <inttypes.h>
#include <string.h>

struct kiln_hal_buffer_view_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  kiln_hal_buffer_t* buffer;
  uint64_t byte_offset;
  uint64_t byte_length;
  kiln_hal_element_type_t element_type;
  kiln_hal_encoding_type_t encoding_type;
  size_t shape_rank;
  kiln_hal_dim_t shape[];
};

static void kiln_hal_buffer_view_destroy(void* object) {
  kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)object;
  kiln_hal_buffer_release(view->buffer);
  kiln_allocator_free(view->host_allocator, view);
}

const kiln_ref_type_t kiln_hal_buffer_view_type = {
    "hal.buffer_view", kiln_hal_buffer_view_destroy};

// Formats "AxBxCxf32" for error messages.
static void kiln_format_shape(size_t rank, const kiln_hal_dim_t* shape,
                              kiln_hal_element_type_t type, char* buffer,
                              size_t capacity) {
  size_t n = 0;
  buffer[0] = 0;
  for (size_t i = 0; i < rank && n + 24 < capacity; ++i) {
    n += (size_t)snprintf(buffer + n, capacity - n, "%" PRId64 "x", shape[i]);
  }
  if (n < capacity)
    kiln_hal_element_type_format(type, buffer + n, capacity - n);
}

kiln_status_t kiln_hal_compute_dense_byte_length(
    size_t shape_rank, const kiln_hal_dim_t* shape,
    kiln_hal_element_type_t element_type, uint64_t* out_byte_length) {
  *out_byte_length = 0;
  uint64_t count = 1;
  for (size_t i = 0; i < shape_rank; ++i) {
    if (shape[i] < 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "shape dimension %zu is negative (%" PRId64 ")",
                              i, shape[i]);
    }
    if (__builtin_mul_overflow(count, (uint64_t)shape[i], &count)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "shape element count overflows");
    }
  }
  uint64_t bits = 0;
  if (__builtin_mul_overflow(
          count, (uint64_t)kiln_hal_element_bit_count(element_type), &bits)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "shape byte size overflows");
  }
  // Sub-byte types are stored one element per byte unless a packed encoding
  // says otherwise (kiln has none yet).
  *out_byte_length = count * kiln_hal_element_byte_size(element_type);
  (void)bits;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_view_create_at(
    kiln_hal_buffer_t* buffer, uint64_t byte_offset, uint64_t byte_length,
    size_t shape_rank, const kiln_hal_dim_t* shape,
    kiln_hal_element_type_t element_type,
    kiln_hal_encoding_type_t encoding_type, kiln_allocator_t host_allocator,
    kiln_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  if (!buffer) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "buffer view needs a buffer (got NULL)");
  }
  if (shape_rank > KILN_HAL_MAX_RANK) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "buffer view rank %zu exceeds the maximum %d",
                            shape_rank, KILN_HAL_MAX_RANK);
  }
  if (shape_rank && !shape) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "buffer view of rank %zu has no shape", shape_rank);
  }
  uint64_t buffer_length = kiln_hal_buffer_byte_length(buffer);
  if (byte_offset > buffer_length) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "buffer view offset %" PRIu64
                            " is past the end of a %" PRIu64 " byte buffer",
                            byte_offset, buffer_length);
  }
  if (encoding_type == KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR) {
    if (element_type == KILN_HAL_ELEMENT_TYPE_NONE) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "a dense buffer view needs an element type (got none)");
    }
    uint64_t needed = 0;
    KILN_RETURN_IF_ERROR(kiln_hal_compute_dense_byte_length(
        shape_rank, shape, element_type, &needed));
    char desc[256];
    kiln_format_shape(shape_rank, shape, element_type, desc, sizeof(desc));
    if (byte_length == KILN_HAL_WHOLE_BUFFER) {
      byte_length = needed;
    } else if (byte_length != needed) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "buffer view %s needs %" PRIu64
                              " bytes but a length of %" PRIu64 " was given",
                              desc, needed, byte_length);
    }
    if (needed > buffer_length - byte_offset) {
      return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                              "buffer view %s needs %" PRIu64
                              " bytes at offset %" PRIu64
                              " but the buffer has only %" PRIu64 " bytes",
                              desc, needed, byte_offset, buffer_length);
    }
  } else if (encoding_type == KILN_HAL_ENCODING_TYPE_OPAQUE) {
    if (byte_length == KILN_HAL_WHOLE_BUFFER) {
      byte_length = buffer_length - byte_offset;
    }
    if (byte_length > buffer_length - byte_offset) {
      return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                              "buffer view range [%" PRIu64 ", +%" PRIu64
                              ") exceeds the %" PRIu64 " byte buffer",
                              byte_offset, byte_length, buffer_length);
    }
  } else {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unknown buffer view encoding %u", encoding_type);
  }
  kiln_hal_buffer_view_t* view = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
      host_allocator, sizeof(*view) + shape_rank * sizeof(kiln_hal_dim_t),
      (void**)&view));
  kiln_ref_object_initialize(&view->ref, &kiln_hal_buffer_view_type);
  view->host_allocator = host_allocator;
  kiln_hal_buffer_retain(buffer);
  view->buffer = buffer;
  view->byte_offset = byte_offset;
  view->byte_length = byte_length;
  view->element_type = element_type;
  view->encoding_type = encoding_type;
  view->shape_rank = shape_rank;
  if (shape_rank) memcpy(view->shape, shape, shape_rank * sizeof(*shape));
  *out_view = view;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_view_create(
    kiln_hal_buffer_t* buffer, size_t shape_rank, const kiln_hal_dim_t* shape,
    kiln_hal_element_type_t element_type,
    kiln_hal_encoding_type_t encoding_type, kiln_allocator_t host_allocator,
    kiln_hal_buffer_view_t** out_view) {
  return kiln_hal_buffer_view_create_at(
      buffer, 0, KILN_HAL_WHOLE_BUFFER, shape_rank, shape, element_type,
      encoding_type, host_allocator, out_view);
}

void kiln_hal_buffer_view_retain(kiln_hal_buffer_view_t* view) {
  kiln_ref_retain(view);
}
void kiln_hal_buffer_view_release(kiln_hal_buffer_view_t* view) {
  kiln_ref_release(view);
}
kiln_hal_buffer_t* kiln_hal_buffer_view_buffer(
    const kiln_hal_buffer_view_t* view) {
  return view->buffer;
}
uint64_t kiln_hal_buffer_view_byte_offset(const kiln_hal_buffer_view_t* view) {
  return view->byte_offset;
}
uint64_t kiln_hal_buffer_view_byte_length(const kiln_hal_buffer_view_t* view) {
  return view->byte_length;
}
kiln_hal_element_type_t kiln_hal_buffer_view_element_type(
    const kiln_hal_buffer_view_t* view) {
  return view->element_type;
}
kiln_hal_encoding_type_t kiln_hal_buffer_view_encoding_type(
    const kiln_hal_buffer_view_t* view) {
  return view->encoding_type;
}
size_t kiln_hal_buffer_view_shape_rank(const kiln_hal_buffer_view_t* view) {
  return view->shape_rank;
}
const kiln_hal_dim_t* kiln_hal_buffer_view_shape_dims(
    const kiln_hal_buffer_view_t* view) {
  return view->shape;
}
kiln_hal_dim_t kiln_hal_buffer_view_shape_dim(
    const kiln_hal_buffer_view_t* view, size_t index) {
  return index < view->shape_rank ? view->shape[index] : 0;
}
uint64_t kiln_hal_buffer_view_element_count(
    const kiln_hal_buffer_view_t* view) {
  uint64_t count = 1;
  for (size_t i = 0; i < view->shape_rank; ++i)
    count *= (uint64_t)view->shape[i];
  return count;
}
size_t kiln_hal_buffer_view_element_size(const kiln_hal_buffer_view_t* view) {
  return kiln_hal_element_byte_size(view->element_type);
}
