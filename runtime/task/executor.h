// Task executor: a pool of worker threads that runs data-parallel work for
// the local-task HAL driver ("GPU-like CPU scheduling" in IREE's design).
//
// A parallel_for splits [0, count) into chunks of |grain| indices claimed
// by the pool's workers and by the calling thread, which always
// participates; it returns once every claimed index has run. The range is
// cut into one contiguous part per thread (the caller's first, then worker
// 0's, ...): each thread claims its own part's chunks in order, then helps
// with the others'. Calls of the same count and grain thus give a thread the
// same indices (unless another finished early and took some), which keeps a
// dispatch's data in the cache of the core that wrote it.
// Idle workers sleep on a futex (after at most a few microseconds of
// spinning) and use no CPU.
//
// Threads and ids: worker_count is the number of POOL threads the executor
// owns. A parallel_for runs on up to worker_count + 1 threads: the pool
// threads have worker ids 0 .. worker_count - 1 and the calling thread has
// worker id worker_count. Ids index per-worker scratch memory: at most one
// fn call runs with a given worker id at any time.
//
// Concurrency: parallel_for calls on one executor from different threads are
// safe; they are queued and run one after the other (each one uses the whole
// pool), which is what keeps worker ids exclusive. fn must not call
// parallel_for on the same executor, directly or through another executor's
// parallel_for (FAILED_PRECONDITION is returned: it would wait for itself).
// Calling parallel_for on a different executor from fn is allowed.
#ifndef KILN_RUNTIME_TASK_EXECUTOR_H_
#define KILN_RUNTIME_TASK_EXECUTOR_H_

#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Creation and lifetime
//===----------------------------------------------------------------------===//

typedef struct kiln_task_executor_t kiln_task_executor_t;

typedef struct kiln_task_executor_options_t {
  // Pool threads to start; 0 = one per CPU (kiln_cpu_count()). The calling
  // thread of each parallel_for participates in addition to these. The
  // tooling layer derives this from --task_topology_group_count.
  uint32_t worker_count;
  // Thread name prefix ("kiln-worker" when NULL); threads are named
  // "<prefix>-<id>", truncated to 15 characters by the OS.
  const char* name;
  // Non-NULL: worker i runs only on CPU cpu_ids[i] (one entry per pool
  // thread; the tooling layer's --task_topology_cpu_ids). A CPU the process
  // may not use fails creation, naming it.
  const uint32_t* cpu_ids;
  // true: worker_count counts the calling thread as one of the threads that
  // run indices, so the pool starts worker_count - 1 threads (0 = one thread
  // per CPU in all: kiln_cpu_count() - 1 pool threads; 1 = no pool, every
  // parallel_for runs inline). A parallel_for then runs on at most
  // worker_count threads instead of worker_count + 1, which keeps N threads
  // on N CPUs instead of oversubscribing them by one. false (the default):
  // worker_count pool threads, the caller in addition.
  bool count_caller;
} kiln_task_executor_options_t;

// Upper bound on worker_count, to catch nonsense values from flags.
#define KILN_TASK_EXECUTOR_MAX_WORKERS 1024

// Default options: worker_count 0 (one per CPU), name "kiln-worker".
kiln_task_executor_options_t kiln_task_executor_options_default(void);

// Creates an executor and starts its worker threads. |options| may be NULL
// (defaults). INVALID_ARGUMENT for worker_count above
// KILN_TASK_EXECUTOR_MAX_WORKERS; RESOURCE_EXHAUSTED when memory or threads
// run out (threads already started are stopped and joined).
kiln_status_t kiln_task_executor_create(
    const kiln_task_executor_options_t* options, kiln_allocator_t allocator,
    kiln_task_executor_t** out_executor);

// Adds a reference (the executor embeds kiln_ref_object_t first, so
// kiln_ref_retain works too). NULL is allowed.
void kiln_task_executor_retain(kiln_task_executor_t* executor);
// Drops a reference; the last one stops and joins every worker and frees the
// executor. No parallel_for may be running then. NULL is allowed.
void kiln_task_executor_release(kiln_task_executor_t* executor);

// Number of pool threads (not counting callers; one less than
// options.worker_count with count_caller). Per-worker scratch arrays need
// worker_count + 1 entries (see the file comment).
uint32_t kiln_task_executor_worker_count(const kiln_task_executor_t* executor);

//===----------------------------------------------------------------------===//
// Parallel for
//===----------------------------------------------------------------------===//

// Runs one index. |worker_id| is in [0, worker_count] (see the file comment).
// Returning a non-OK status transfers ownership of it to the executor.
typedef kiln_status_t (*kiln_task_parallel_fn_t)(void* user_data,
                                                 uint32_t index,
                                                 uint32_t worker_id);

// Runs fn(user_data, index, worker_id) for every index in [0, count), spread
// over the workers and the calling thread, and returns when all are done.
// |grain| is how many consecutive indices one claim takes (0 picks a chunk
// size that gives each thread several chunks). count 0 returns OK at once.
//
// Errors: if any call fails, the status of the LOWEST failing index is
// returned and the others are freed. Indices above a known failure may be
// skipped; every index below the returned one has run and succeeded, so the
// result is deterministic for a deterministic fn.
kiln_status_t kiln_task_executor_parallel_for(kiln_task_executor_t* executor,
                                              uint32_t count, uint32_t grain,
                                              kiln_task_parallel_fn_t fn,
                                              void* user_data);

typedef struct kiln_task_parallel_for_params_t {
  uint32_t count;
  uint32_t grain;  // 0 = automatic, as for kiln_task_executor_parallel_for
  kiln_task_parallel_fn_t fn;
  void* user_data;
  // Optional (may be NULL): worker_count + 1 entries that receive, for this
  // call, the nanoseconds each worker id spent running fn (0 for ids that
  // ran nothing). Overwritten, not accumulated.
  int64_t* out_worker_ns;
  // Optional: names the trace slice of each chunk a thread runs (copied;
  // |trace_name_length| bytes), e.g. the dispatch's entry point. NULL for
  // "task.chunk". Each slice carries args "begin" and "end" (the index
  // range).
  const char* trace_name;
  size_t trace_name_length;
} kiln_task_parallel_for_params_t;

// Statistics of one parallel_for, for profiling and dispatch statistics.
typedef struct kiln_task_parallel_for_stats_t {
  // Summed time (monotonic clock) every thread spent running fn: the "CPU
  // time" of the work as the sum over the workers that ran it.
  int64_t total_worker_ns;
  // Summed CPU time (each thread's CPU clock, measured once as it enters
  // and leaves the job) of the threads that ran indices. Unlike
  // total_worker_ns it excludes time a thread was preempted, so it does not
  // over-count when threads outnumber CPUs; it includes the few claim
  // operations around fn.
  int64_t total_worker_cpu_ns;
  // Wall time of the whole call, from entry until all indices finished.
  int64_t wall_ns;
  // Distinct worker ids (caller included) that ran at least one index.
  uint32_t workers_used;
  // Indices that ran (count unless a failure made the rest skipped).
  uint32_t indices_run;
} kiln_task_parallel_for_stats_t;

// As kiln_task_executor_parallel_for with per-call statistics: fills
// |*out_stats| (may be NULL) and params->out_worker_ns (may be NULL), also
// when an index fails.
kiln_status_t kiln_task_executor_parallel_for_ex(
    kiln_task_executor_t* executor,
    const kiln_task_parallel_for_params_t* params,
    kiln_task_parallel_for_stats_t* out_stats);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TASK_EXECUTOR_H_
