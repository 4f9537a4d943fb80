#include "runtime/base/allocator.h"

#include <stdlib.h>
#include <string.h>

static void* kiln_system_alloc(void* self, size_t size, size_t alignment) {
  (void)self;
  if (size == 0) size = 1;
  if (alignment <= sizeof(max_align_t)) return malloc(size);
  void* ptr = NULL;
  if (posix_memalign(&ptr, alignment, size) != 0) return NULL;
  return ptr;
}

static void* kiln_system_realloc(void* self, void* ptr, size_t size) {
  (void)self;
  return realloc(ptr, size ? size : 1);
}

static void kiln_system_free(void* self, void* ptr, size_t alignment) {
  (void)self;
  (void)alignment;
  free(ptr);
}

kiln_allocator_t kiln_allocator_system(void) {
  kiln_allocator_t allocator = {NULL, kiln_system_alloc, kiln_system_realloc,
                                kiln_system_free, NULL};
  return allocator;
}

static void* kiln_null_alloc(void* self, size_t size, size_t alignment) {
  (void)self, (void)size, (void)alignment;
  return NULL;
}
static void* kiln_null_realloc(void* self, void* ptr, size_t size) {
  (void)self, (void)ptr, (void)size;
  return NULL;
}

kiln_allocator_t kiln_allocator_null(void) {
  kiln_allocator_t allocator = {NULL, kiln_null_alloc, kiln_null_realloc,
                                kiln_system_free, NULL};
  return allocator;
}

kiln_status_t kiln_allocator_malloc(kiln_allocator_t allocator, size_t size,
                                    void** out_ptr) {
  *out_ptr = allocator.alloc(allocator.self, size, 0);
  if (!*out_ptr) {
    if (allocator.failure_status) {
      return allocator.failure_status(allocator.self, size);
    }
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "failed to allocate %zu bytes", size);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_allocator_calloc(kiln_allocator_t allocator, size_t size,
                                    void** out_ptr) {
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(allocator, size, out_ptr));
  memset(*out_ptr, 0, size);
  return kiln_ok_status();
}

kiln_status_t kiln_allocator_realloc(kiln_allocator_t allocator, size_t size,
                                     void** inout_ptr) {
  void* ptr = allocator.realloc(allocator.self, *inout_ptr, size);
  if (!ptr) {
    if (allocator.failure_status) {
      return allocator.failure_status(allocator.self, size);
    }
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "failed to reallocate %zu bytes", size);
  }
  *inout_ptr = ptr;
  return kiln_ok_status();
}

kiln_status_t kiln_allocator_malloc_aligned(kiln_allocator_t allocator,
                                            size_t size, size_t alignment,
                                            void** out_ptr) {
  if (alignment & (alignment - 1)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "alignment %zu is not a power of two", alignment);
  }
  *out_ptr = allocator.alloc(allocator.self, size, alignment);
  if (!*out_ptr) {
    if (allocator.failure_status) {
      return allocator.failure_status(allocator.self, size);
    }
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "failed to allocate %zu bytes aligned to %zu", size,
                            alignment);
  }
  return kiln_ok_status();
}

void kiln_allocator_free(kiln_allocator_t allocator, void* ptr) {
  if (ptr) allocator.free(allocator.self, ptr, 0);
}

void kiln_allocator_free_aligned(kiln_allocator_t allocator, void* ptr,
                                 size_t alignment) {
  if (ptr) allocator.free(allocator.self, ptr, alignment);
}
