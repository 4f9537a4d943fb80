#include "runtime/base/limited_allocator.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

struct kiln_limited_allocator_t {
  kiln_allocator_t parent;
  uint64_t limit;  // 0: none
  const char* limit_name;
  _Atomic uint64_t in_use;
  _Atomic uint64_t peak;
  // The owner's reference plus one per live block.
  _Atomic uint64_t references;
};

// Every block is preceded by a header holding its size, as wide as the
// block's alignment so that the block stays aligned.
#define KILN_LIMITED_MIN_HEADER 16

static size_t kiln_limited_header_size(size_t alignment) {
  return alignment > KILN_LIMITED_MIN_HEADER ? alignment
                                             : KILN_LIMITED_MIN_HEADER;
}

static void kiln_limited_unref(kiln_limited_allocator_t* limiter) {
  if (atomic_fetch_sub(&limiter->references, 1) == 1) {
    kiln_allocator_t parent = limiter->parent;
    parent.free(parent.self, limiter, 0);
  }
}

// Reserves |size| bytes against the limit; false when it would pass it.
static bool kiln_limited_reserve(kiln_limited_allocator_t* limiter,
                                 uint64_t size) {
  uint64_t in_use = atomic_load(&limiter->in_use);
  for (;;) {
    uint64_t next = in_use + size;
    if (next < in_use || (limiter->limit && next > limiter->limit)) {
      return false;
    }
    if (atomic_compare_exchange_weak(&limiter->in_use, &in_use, next)) {
      uint64_t peak = atomic_load(&limiter->peak);
      while (next > peak &&
             !atomic_compare_exchange_weak(&limiter->peak, &peak, next)) {
      }
      return true;
    }
  }
}

static void kiln_limited_unreserve(kiln_limited_allocator_t* limiter,
                                   uint64_t size) {
  atomic_fetch_sub(&limiter->in_use, size);
}

static void* kiln_limited_alloc(void* self, size_t size, size_t alignment) {
  kiln_limited_allocator_t* limiter = (kiln_limited_allocator_t*)self;
  size_t header = kiln_limited_header_size(alignment);
  size_t total = 0;
  if (kiln_add_overflow_size(size, header, &total) ||
      !kiln_limited_reserve(limiter, size)) {
    return NULL;
  }
  uint8_t* base =
      (uint8_t*)limiter->parent.alloc(limiter->parent.self, total, alignment);
  if (!base) {
    kiln_limited_unreserve(limiter, size);
    return NULL;
  }
  uint64_t stored = size;
  memcpy(base + header - sizeof(stored), &stored, sizeof(stored));
  atomic_fetch_add(&limiter->references, 1);
  return base + header;
}

static uint64_t kiln_limited_block_size(const void* ptr) {
  uint64_t size = 0;
  memcpy(&size, (const uint8_t*)ptr - sizeof(size), sizeof(size));
  return size;
}

static void kiln_limited_free(void* self, void* ptr, size_t alignment) {
  if (!ptr) return;
  kiln_limited_allocator_t* limiter = (kiln_limited_allocator_t*)self;
  size_t header = kiln_limited_header_size(alignment);
  kiln_limited_unreserve(limiter, kiln_limited_block_size(ptr));
  limiter->parent.free(limiter->parent.self, (uint8_t*)ptr - header, alignment);
  kiln_limited_unref(limiter);
}

static void* kiln_limited_realloc(void* self, void* ptr, size_t size) {
  kiln_limited_allocator_t* limiter = (kiln_limited_allocator_t*)self;
  if (!ptr) return kiln_limited_alloc(self, size, 0);
  size_t header = kiln_limited_header_size(0);
  uint64_t old_size = kiln_limited_block_size(ptr);
  size_t total = 0;
  if (kiln_add_overflow_size(size, header, &total)) return NULL;
  // Reserve only the growth: a shrink always fits.
  if (size > old_size && !kiln_limited_reserve(limiter, size - old_size)) {
    return NULL;
  }
  uint8_t* base = (uint8_t*)limiter->parent.realloc(
      limiter->parent.self, (uint8_t*)ptr - header, total);
  if (!base) {
    if (size > old_size) kiln_limited_unreserve(limiter, size - old_size);
    return NULL;
  }
  if (size < old_size) kiln_limited_unreserve(limiter, old_size - size);
  uint64_t stored = size;
  memcpy(base + header - sizeof(stored), &stored, sizeof(stored));
  return base + header;
}

static kiln_status_t kiln_limited_failure_status(void* self, size_t size) {
  kiln_limited_allocator_t* limiter = (kiln_limited_allocator_t*)self;
  uint64_t in_use = atomic_load(&limiter->in_use);
  if (limiter->limit &&
      (size > limiter->limit || in_use > limiter->limit - size)) {
    return kiln_make_status(
        KILN_STATUS_RESOURCE_EXHAUSTED,
        "allocating %zu bytes would exceed the allocation limit of %" PRIu64
        " bytes (%s; %" PRIu64 " bytes in use)",
        size, limiter->limit, limiter->limit_name, in_use);
  }
  return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                          "failed to allocate %zu bytes", size);
}

kiln_status_t kiln_limited_allocator_create(
    kiln_allocator_t parent, uint64_t limit_bytes, const char* limit_name,
    kiln_limited_allocator_t** out_limiter) {
  *out_limiter = NULL;
  kiln_limited_allocator_t* limiter = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(parent, sizeof(*limiter), (void**)&limiter));
  limiter->parent = parent;
  limiter->limit = limit_bytes;
  limiter->limit_name = limit_name ? limit_name : "allocation limit";
  atomic_init(&limiter->in_use, 0);
  atomic_init(&limiter->peak, 0);
  atomic_init(&limiter->references, 1);
  *out_limiter = limiter;
  return kiln_ok_status();
}

void kiln_limited_allocator_release(kiln_limited_allocator_t* limiter) {
  if (limiter) kiln_limited_unref(limiter);
}

kiln_allocator_t kiln_limited_allocator_allocator(
    kiln_limited_allocator_t* limiter) {
  kiln_allocator_t allocator = {limiter, kiln_limited_alloc,
                                kiln_limited_realloc, kiln_limited_free,
                                kiln_limited_failure_status};
  return allocator;
}

uint64_t kiln_limited_allocator_bytes_in_use(
    const kiln_limited_allocator_t* limiter) {
  return atomic_load(&((kiln_limited_allocator_t*)limiter)->in_use);
}

uint64_t kiln_limited_allocator_bytes_peak(
    const kiln_limited_allocator_t* limiter) {
  return atomic_load(&((kiln_limited_allocator_t*)limiter)->peak);
}
