#include "runtime/hal/allocator.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"
#include "runtime/hal/buffer_internal.h"

// Freed large blocks kept for reuse: a function that returns a 16 MB tensor
// gets a new result buffer on every call, and fresh pages cost a fault each
// on first touch (more than the work of an elementwise dispatch over
// them: BERT's 384 KB result took 1.1 ms of faults per call on this VM when
// the floor was 1 MB). Only blocks of at least KILN_HAL_CACHE_MIN_BYTES are
// kept, at most
// KILN_HAL_CACHE_MAX_BLOCKS and KILN_HAL_CACHE_MAX_BYTES of them; a request
// takes the smallest block that fits and is no more than twice its size.
#define KILN_HAL_CACHE_MIN_BYTES (64u << 10)
#define KILN_HAL_CACHE_MAX_BLOCKS 8
#define KILN_HAL_CACHE_MAX_BYTES ((size_t)256 << 20)

typedef struct kiln_hal_cached_block_t {
  void* data;
  size_t capacity;
} kiln_hal_cached_block_t;

struct kiln_hal_allocator_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  pthread_mutex_t mutex;
  kiln_hal_allocator_statistics_t statistics;
  char identifier[32];
  // Guarded by |mutex|.
  kiln_hal_cached_block_t cache[KILN_HAL_CACHE_MAX_BLOCKS];
  size_t cache_count;
  size_t cache_bytes;
};

static void kiln_hal_allocator_destroy(void* object) {
  kiln_hal_allocator_t* allocator = (kiln_hal_allocator_t*)object;
  for (size_t i = 0; i < allocator->cache_count; ++i) {
    kiln_allocator_free_aligned(allocator->host_allocator,
                                allocator->cache[i].data,
                                KILN_HAL_HEAP_BUFFER_ALIGNMENT);
  }
  pthread_mutex_destroy(&allocator->mutex);
  kiln_allocator_free(allocator->host_allocator, allocator);
}

const kiln_ref_type_t kiln_hal_allocator_type = {"hal.allocator",
                                                 kiln_hal_allocator_destroy};

kiln_status_t kiln_hal_allocator_create_heap(
    kiln_string_view_t identifier, kiln_allocator_t host_allocator,
    kiln_hal_allocator_t** out_allocator) {
  *out_allocator = NULL;
  kiln_hal_allocator_t* allocator = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(host_allocator, sizeof(*allocator),
                                             (void**)&allocator));
  kiln_ref_object_initialize(&allocator->ref, &kiln_hal_allocator_type);
  allocator->host_allocator = host_allocator;
  pthread_mutex_init(&allocator->mutex, NULL);
  size_t n = identifier.size < sizeof(allocator->identifier) - 1
                 ? identifier.size
                 : sizeof(allocator->identifier) - 1;
  memcpy(allocator->identifier, identifier.data, n);
  *out_allocator = allocator;
  return kiln_ok_status();
}

void kiln_hal_allocator_retain(kiln_hal_allocator_t* allocator) {
  kiln_ref_retain(allocator);
}
void kiln_hal_allocator_release(kiln_hal_allocator_t* allocator) {
  kiln_ref_release(allocator);
}

kiln_allocator_t kiln_hal_allocator_host_allocator(
    const kiln_hal_allocator_t* allocator) {
  return allocator->host_allocator;
}

// Samples the memory counters; called under the allocator's mutex so that
// samples are in the order of the changes.
static void kiln_hal_allocator_trace_counters(
    const kiln_hal_allocator_statistics_t* s) {
  KILN_TRACE_COUNTER_I64(KILN_TRACE_COUNTER_ALLOCATOR, "live_bytes",
                         s->bytes_live);
  KILN_TRACE_COUNTER_I64(KILN_TRACE_COUNTER_ALLOCATOR, "peak_bytes",
                         s->bytes_peak);
}

// Frees heap memory of a buffer allocated by kiln_hal_allocator_allocate_buffer
// and updates the statistics. Called from the buffer's destroy.
static void kiln_hal_allocator_free_heap(void* user_data, void* data,
                                         uint64_t size) {
  kiln_hal_allocator_t* allocator = (kiln_hal_allocator_t*)user_data;
  size_t capacity =
      (size_t)kiln_align_up(size ? size : 1, KILN_HAL_HEAP_BUFFER_ALIGNMENT);
  bool cached = false;
  pthread_mutex_lock(&allocator->mutex);
  allocator->statistics.bytes_live -= size;
  allocator->statistics.free_count++;
  kiln_hal_allocator_trace_counters(&allocator->statistics);
  if (capacity >= KILN_HAL_CACHE_MIN_BYTES &&
      allocator->cache_count < KILN_HAL_CACHE_MAX_BLOCKS &&
      allocator->cache_bytes + capacity <= KILN_HAL_CACHE_MAX_BYTES) {
    kiln_hal_cached_block_t* block =
        &allocator->cache[allocator->cache_count++];
    block->data = data;
    block->capacity = capacity;
    allocator->cache_bytes += capacity;
    cached = true;
  }
  pthread_mutex_unlock(&allocator->mutex);
  if (!cached) {
    kiln_allocator_free_aligned(allocator->host_allocator, data,
                                KILN_HAL_HEAP_BUFFER_ALIGNMENT);
  }
  kiln_hal_allocator_release(allocator);
}

kiln_status_t kiln_hal_allocator_allocate_buffer(
    kiln_hal_allocator_t* allocator, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  kiln_hal_buffer_params_t resolved = kiln_hal_buffer_params_resolve(params);
  if (size > (uint64_t)SIZE_MAX / 2) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "buffer of %" PRIu64 " bytes is too large", size);
  }
  size_t alignment = resolved.min_alignment;
  void* data = NULL;
  // Round the allocation itself up so that vectorized tails never fault.
  size_t alloc_size = (size_t)kiln_align_up(size ? size : 1, alignment);
  kiln_status_t status = kiln_ok_status();
  if (alignment <= KILN_HAL_HEAP_BUFFER_ALIGNMENT &&
      alloc_size >= KILN_HAL_CACHE_MIN_BYTES) {
    pthread_mutex_lock(&allocator->mutex);
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < allocator->cache_count; ++i) {
      size_t capacity = allocator->cache[i].capacity;
      if (capacity >= alloc_size && capacity / 2 <= alloc_size &&
          (best == SIZE_MAX || capacity < allocator->cache[best].capacity)) {
        best = i;
      }
    }
    if (best != SIZE_MAX) {
      data = allocator->cache[best].data;
      allocator->cache_bytes -= allocator->cache[best].capacity;
      allocator->cache[best] = allocator->cache[--allocator->cache_count];
    }
    pthread_mutex_unlock(&allocator->mutex);
  }
  if (!data) {
    status = kiln_allocator_malloc_aligned(allocator->host_allocator,
                                           alloc_size, alignment, &data);
  }
  if (status) {
    return kiln_status_annotate_f(status,
                                  "allocating a %" PRIu64 " byte buffer", size);
  }
  kiln_hal_allocator_retain(allocator);
  kiln_hal_buffer_release_callback_t release = {kiln_hal_allocator_free_heap,
                                                allocator};
  status = kiln_hal_buffer_create_internal(
      &resolved, data, size, release, allocator->host_allocator, out_buffer);
  if (status) {
    kiln_allocator_free_aligned(allocator->host_allocator, data, alignment);
    kiln_hal_allocator_release(allocator);
    return status;
  }
  pthread_mutex_lock(&allocator->mutex);
  kiln_hal_allocator_statistics_t* s = &allocator->statistics;
  s->bytes_live += size;
  s->bytes_allocated += size;
  if (s->bytes_live > s->bytes_peak) s->bytes_peak = s->bytes_live;
  s->allocation_count++;
  kiln_hal_allocator_trace_counters(s);
  pthread_mutex_unlock(&allocator->mutex);
  return kiln_ok_status();
}

void kiln_hal_allocator_query_statistics(
    kiln_hal_allocator_t* allocator,
    kiln_hal_allocator_statistics_t* out_statistics) {
  pthread_mutex_lock(&allocator->mutex);
  *out_statistics = allocator->statistics;
  pthread_mutex_unlock(&allocator->mutex);
}

void kiln_hal_allocator_statistics_fprint(FILE* stream,
                                          kiln_hal_allocator_t* allocator) {
  kiln_hal_allocator_statistics_t s;
  kiln_hal_allocator_query_statistics(allocator, &s);
  fprintf(stream, "[[ kiln_hal_allocator_t memory statistics ]]\n");
  // IREE's line first (scripts parse it), then kiln's call counts.
  const char* name =
      allocator->identifier[0] ? allocator->identifier : "HOST_LOCAL";
  fprintf(stream,
          "  %s: %12" PRIu64 "B peak / %12" PRIu64 "B allocated / %12" PRIu64
          "B freed / %12" PRIu64 "B live\n",
          name, s.bytes_peak, s.bytes_allocated,
          s.bytes_allocated - s.bytes_live, s.bytes_live);
  fprintf(stream, "  %s: %6" PRIu64 " allocations / %6" PRIu64 " frees\n", name,
          s.allocation_count, s.free_count);
}
