// A growable NUL-terminated text buffer for building tool output (printed
// results, comparison reports) before writing it in one piece.
#ifndef KILN_RUNTIME_TOOLING_STRING_BUILDER_H_
#define KILN_RUNTIME_TOOLING_STRING_BUILDER_H_

#include <stdarg.h>
#include <stddef.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_string_builder_t {
  kiln_allocator_t allocator;
  char* data;  // NUL-terminated when non-NULL
  size_t size;
  size_t capacity;
} kiln_string_builder_t;

// Starts an empty builder; nothing is allocated until the first append.
void kiln_string_builder_initialize(kiln_allocator_t allocator,
                                    kiln_string_builder_t* builder);
// Frees the buffer; the builder may be initialized again.
void kiln_string_builder_deinitialize(kiln_string_builder_t* builder);
// Empties the builder, keeping its buffer.
void kiln_string_builder_reset(kiln_string_builder_t* builder);

kiln_status_t kiln_string_builder_append(kiln_string_builder_t* builder,
                                         kiln_string_view_t text);
kiln_status_t kiln_string_builder_append_cstring(kiln_string_builder_t* builder,
                                                 const char* text);
kiln_status_t kiln_string_builder_append_format(kiln_string_builder_t* builder,
                                                const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// The text so far ("" when empty); valid until the next append.
const char* kiln_string_builder_cstr(const kiln_string_builder_t* builder);
static inline kiln_string_view_t kiln_string_builder_view(
    const kiln_string_builder_t* builder) {
  return kiln_make_string_view(kiln_string_builder_cstr(builder),
                               builder->size);
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_STRING_BUILDER_H_
