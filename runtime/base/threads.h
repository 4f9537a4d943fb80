// Threads: creation with names, joining, CPU affinity and the CPU count.
//
// A kiln_thread_t is an owned handle: create it, then kiln_thread_release it
// exactly once (which joins it if nobody has). Names show up in debuggers,
// `top -H` and profilers (Linux truncates them to 15 characters).
#ifndef KILN_RUNTIME_BASE_THREADS_H_
#define KILN_RUNTIME_BASE_THREADS_H_

#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// kiln_thread_t
//===----------------------------------------------------------------------===//

typedef struct kiln_thread_t kiln_thread_t;

// A thread's body; its return value is reported by kiln_thread_join.
typedef int (*kiln_thread_entry_t)(void* arg);

// Starts a new thread running entry(arg), named |name| (NULL for none; longer
// than 15 characters is truncated). The handle is allocated from |allocator|
// and released with kiln_thread_release. Fails with RESOURCE_EXHAUSTED when
// memory or the system's thread limit is reached.
kiln_status_t kiln_thread_create(const char* name, kiln_thread_entry_t entry,
                                 void* arg, kiln_allocator_t allocator,
                                 kiln_thread_t** out_thread);

// Waits for |thread| to finish and stores its entry's return value in
// |*out_result| (may be NULL). Joining twice returns the stored result again.
// Must not be called by |thread| itself.
void kiln_thread_join(kiln_thread_t* thread, int* out_result);

// Joins |thread| if not yet joined and frees the handle. NULL is allowed.
void kiln_thread_release(kiln_thread_t* thread);

// The name given at creation (possibly truncated), never NULL.
const char* kiln_thread_name(const kiln_thread_t* thread);

// Pins |thread| to logical CPU |cpu_index| (0-based). INVALID_ARGUMENT if the
// CPU does not exist; UNAVAILABLE where affinity is unsupported. Optional:
// callers may ignore failure.
kiln_status_t kiln_thread_set_affinity(kiln_thread_t* thread,
                                       uint32_t cpu_index);

//===----------------------------------------------------------------------===//
// Calling thread
//===----------------------------------------------------------------------===//

// Renames the calling thread (truncated to 15 characters).
void kiln_thread_set_current_name(const char* name);

// Gives up the rest of the calling thread's time slice.
void kiln_thread_yield(void);

// Logical CPUs this process may run on (its affinity mask), at least 1.
uint32_t kiln_cpu_count(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_THREADS_H_
