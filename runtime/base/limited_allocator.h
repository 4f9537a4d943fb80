// An allocator that caps the bytes live through it: what an embedder sets to
// bound what a module (its context, device buffers and VM buffers) may
// allocate. A request that would take the total past the limit fails with
// RESOURCE_EXHAUSTED naming the limit, before the parent allocator is asked.
//
// Thread-safe: allocations and frees may come from any thread (the counters
// are atomic). The limiter is reference counted by its owner and by every
// live allocation, so blocks freed after the owner let go (a result value
// that outlives its session) still find it.
#ifndef KILN_RUNTIME_BASE_LIMITED_ALLOCATOR_H_
#define KILN_RUNTIME_BASE_LIMITED_ALLOCATOR_H_

#include <stdint.h>

#include "runtime/base/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_limited_allocator_t kiln_limited_allocator_t;

// Creates a limiter over |parent| (which must outlive it) allowing at most
// |limit_bytes| live bytes (0 = no limit, only counting). |limit_name| (a
// static string, e.g. "--allocation_limit_mb") names the setting in errors.
// The caller owns one reference.
kiln_status_t kiln_limited_allocator_create(
    kiln_allocator_t parent, uint64_t limit_bytes, const char* limit_name,
    kiln_limited_allocator_t** out_limiter);

// Drops the owner's reference; the limiter goes once no block is live.
void kiln_limited_allocator_release(kiln_limited_allocator_t* limiter);

// The allocator to allocate through (valid while the limiter lives).
kiln_allocator_t kiln_limited_allocator_allocator(
    kiln_limited_allocator_t* limiter);

// Live bytes (as requested, without bookkeeping) and the highest they went.
uint64_t kiln_limited_allocator_bytes_in_use(
    const kiln_limited_allocator_t* limiter);
uint64_t kiln_limited_allocator_bytes_peak(
    const kiln_limited_allocator_t* limiter);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_LIMITED_ALLOCATOR_H_
