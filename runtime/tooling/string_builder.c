#include "runtime/tooling/string_builder.h"

#include <stdio.h>
#include <string.h>

void kiln_string_builder_initialize(kiln_allocator_t allocator,
                                    kiln_string_builder_t* builder) {
  memset(builder, 0, sizeof(*builder));
  builder->allocator = allocator;
}

void kiln_string_builder_deinitialize(kiln_string_builder_t* builder) {
  kiln_allocator_free(builder->allocator, builder->data);
  builder->data = NULL;
  builder->size = builder->capacity = 0;
}

void kiln_string_builder_reset(kiln_string_builder_t* builder) {
  builder->size = 0;
  if (builder->data) builder->data[0] = 0;
}

static kiln_status_t kiln_string_builder_reserve(kiln_string_builder_t* builder,
                                                 size_t extra) {
  size_t needed = 0;
  if (kiln_add_overflow_size(builder->size, extra + 1, &needed)) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "string too long");
  }
  if (needed <= builder->capacity) return kiln_ok_status();
  size_t capacity = builder->capacity ? builder->capacity : 128;
  while (capacity < needed) capacity *= 2;
  KILN_RETURN_IF_ERROR(kiln_allocator_realloc(builder->allocator, capacity,
                                              (void**)&builder->data));
  builder->capacity = capacity;
  return kiln_ok_status();
}

kiln_status_t kiln_string_builder_append(kiln_string_builder_t* builder,
                                         kiln_string_view_t text) {
  KILN_RETURN_IF_ERROR(kiln_string_builder_reserve(builder, text.size));
  if (text.size) memcpy(builder->data + builder->size, text.data, text.size);
  builder->size += text.size;
  builder->data[builder->size] = 0;
  return kiln_ok_status();
}

kiln_status_t kiln_string_builder_append_cstring(kiln_string_builder_t* builder,
                                                 const char* text) {
  return kiln_string_builder_append(builder, kiln_make_cstring_view(text));
}

kiln_status_t kiln_string_builder_append_format(kiln_string_builder_t* builder,
                                                const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list args_copy;
  va_copy(args_copy, args);
  int n = vsnprintf(NULL, 0, format, args);
  va_end(args);
  kiln_status_t status = kiln_ok_status();
  if (n < 0) {
    status = kiln_make_status(KILN_STATUS_INTERNAL, "bad format '%s'", format);
  } else {
    status = kiln_string_builder_reserve(builder, (size_t)n);
  }
  if (!status) {
    vsnprintf(builder->data + builder->size, (size_t)n + 1, format, args_copy);
    builder->size += (size_t)n;
  }
  va_end(args_copy);
  return status;
}

const char* kiln_string_builder_cstr(const kiln_string_builder_t* builder) {
  return builder->data ? builder->data : "";
}
