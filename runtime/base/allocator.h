// Allocator interface: every heap allocation in kiln goes through one of
// these so that embedders can route memory to their own heaps and tests can
// count or fail allocations.
#ifndef KILN_RUNTIME_BASE_ALLOCATOR_H_
#define KILN_RUNTIME_BASE_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// An allocator is a value type: a |self| pointer and a vtable-like set of
// callbacks. Copying it is cheap; the object behind |self| must outlive every
// allocation made through it.
typedef struct kiln_allocator_t {
  void* self;
  // Allocates |size| bytes aligned to |alignment| (a power of two, or 0 for
  // the natural malloc alignment). Returns NULL on failure.
  void* (*alloc)(void* self, size_t size, size_t alignment);
  // Resizes |ptr| (allocated with alignment 0) to |size| bytes.
  void* (*realloc)(void* self, void* ptr, size_t size);
  // Frees |ptr|; NULL is allowed. |alignment| is what it was allocated with.
  void (*free)(void* self, void* ptr, size_t alignment);
  // Optional (NULL: a generic RESOURCE_EXHAUSTED): the status of a failed
  // request for |size| bytes, so that an allocator that refuses by policy
  // (a limit) can say which.
  kiln_status_t (*failure_status)(void* self, size_t size);
} kiln_allocator_t;

// The process heap (malloc/aligned_alloc/free).
kiln_allocator_t kiln_allocator_system(void);

// An allocator that fails every request, for objects that must not allocate.
kiln_allocator_t kiln_allocator_null(void);

// Allocates |size| bytes into |*out_ptr|; RESOURCE_EXHAUSTED on failure.
kiln_status_t kiln_allocator_malloc(kiln_allocator_t allocator, size_t size,
                                    void** out_ptr);
// As kiln_allocator_malloc, zero-filled.
kiln_status_t kiln_allocator_calloc(kiln_allocator_t allocator, size_t size,
                                    void** out_ptr);
// Resizes |*inout_ptr| to |size| bytes; on failure the old block stays valid.
kiln_status_t kiln_allocator_realloc(kiln_allocator_t allocator, size_t size,
                                     void** inout_ptr);
// Allocates |size| bytes aligned to |alignment| (power of two).
kiln_status_t kiln_allocator_malloc_aligned(kiln_allocator_t allocator,
                                            size_t size, size_t alignment,
                                            void** out_ptr);
// Frees a block from kiln_allocator_malloc/calloc/realloc.
void kiln_allocator_free(kiln_allocator_t allocator, void* ptr);
// Frees a block from kiln_allocator_malloc_aligned.
void kiln_allocator_free_aligned(kiln_allocator_t allocator, void* ptr,
                                 size_t alignment);

// Returns true if a + b overflows size_t, else stores the sum.
static inline int kiln_add_overflow_size(size_t a, size_t b, size_t* out) {
  return __builtin_add_overflow(a, b, out);
}
// Returns true if a * b overflows size_t, else stores the product.
static inline int kiln_mul_overflow_size(size_t a, size_t b, size_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

// Rounds |value| up to a multiple of |alignment| (a power of two).
static inline uint64_t kiln_align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_ALLOCATOR_H_
