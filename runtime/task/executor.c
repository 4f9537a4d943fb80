// Task executor implementation.
//
// One job runs at a time (dispatch_mutex queues concurrent callers). The
// caller publishes the job through |current_job|, wakes as many sleeping
// workers as there are spare chunks, and claims chunks itself. The index
// range is cut into one contiguous part per thread (the caller's first, then
// worker 0's, ...): a thread claims chunks from its own part first and then
// from the others'. So a thread runs the same part of every dispatch of the
// same shape, and a dispatch that reads what the previous one wrote mostly
// finds it in its own core's cache (with one shared counter the claims fell
// to either thread at random, and memory-bound dispatches on two threads
// took up to 2.7x the CPU time of one thread, measured on DenseNet-121).
//
// A worker "enters" the executor by incrementing |active_workers| and only
// then reads |current_job|; the caller, once it finds no chunk left to
// claim, clears |current_job| and waits for |active_workers| to reach zero.
// Both sides use sequentially consistent operations (a Dekker handshake),
// so either a worker sees the cleared pointer or the caller sees the worker
// active: the job, which lives on the caller's stack, is never touched after
// the call returns.
#include "runtime/task/executor.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/atomics.h"
#include "runtime/base/ref.h"
#include "runtime/base/sync.h"
#include "runtime/base/threads.h"
#include "runtime/base/time.h"
#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"

// Bounded spins before sleeping on a futex: a worker that just finished a job
// looks for the next one this many times, and a caller waits this many times
// for the last workers to finish. Each iteration is one CPU pause (~10-50 ns);
// the bound keeps idle CPU use to microseconds per job.
#define KILN_TASK_WORKER_SPIN_COUNT 2000
#define KILN_TASK_CALLER_SPIN_COUNT 4000

// No error recorded yet in a job.
#define KILN_TASK_NO_ERROR UINT32_MAX

// One link of the chain of executors a thread is working for (see
// kiln_task_current_frame below).
typedef struct kiln_task_frame_t {
  kiln_task_executor_t* executor;
  const struct kiln_task_frame_t* parent;
} kiln_task_frame_t;

// One thread's contiguous part [next, end) of a job's indices. Padded to a
// cache line: the owner claims from it on every chunk.
typedef struct kiln_task_part_t {
  // Next index to claim; 64-bit so that over-claiming never wraps.
  kiln_atomic_uint64_t next;
  uint64_t end;
  uint8_t padding[64 - 2 * sizeof(uint64_t)];
} kiln_task_part_t;

typedef struct kiln_task_job_t {
  kiln_task_parallel_fn_t fn;
  void* user_data;
  uint32_t count;
  uint32_t grain;
  // The executor's parts array (part_count entries: the caller's is part 0,
  // worker id i's is part i + 1), set up for this job before publishing it.
  kiln_task_part_t* parts;
  uint32_t part_count;
  bool measure;            // time each chunk (parallel_for_ex only)
  const char* trace_name;  // names the chunk slices in traces
  size_t trace_name_length;
  // The calling thread's frame chain: workers running the job adopt it, so a
  // parallel_for issued from fn sees every executor waiting on this job.
  const kiln_task_frame_t* caller_frame;
  // Lowest failing index so far (KILN_TASK_NO_ERROR if none); only ever
  // decreases. Written under the executor's error_mutex, read relaxed to skip
  // indices above it.
  kiln_atomic_uint32_t error_index;
  kiln_status_t error_status;  // guarded by error_mutex
} kiln_task_job_t;

typedef struct kiln_task_worker_t {
  kiln_task_executor_t* executor;
  uint32_t id;
  kiln_thread_t* thread;
  int32_t cpu;  // the CPU the worker is pinned to, or -1
} kiln_task_worker_t;

struct kiln_task_executor_t {
  kiln_ref_object_t ref;  // must be first
  kiln_allocator_t allocator;
  uint32_t worker_count;
  kiln_task_worker_t* workers;  // [worker_count]

  // Serializes parallel_for calls: keeps worker ids exclusive.
  kiln_mutex_t dispatch_mutex;
  // Guards job->error_status of the running job.
  kiln_mutex_t error_mutex;

  // Posted when a job is published or on shutdown; idle workers sleep on it.
  kiln_notification_t work_notification;
  // Posted when active_workers drops to zero; the caller sleeps on it.
  kiln_notification_t idle_notification;

  kiln_atomic_ptr(kiln_task_job_t*) current_job;
  kiln_atomic_int32_t active_workers;
  kiln_atomic_bool_t shutdown;

  // Per worker id (worker_count + 1 entries, the caller last), for the
  // running job: written only by the thread running with that id while it is
  // inside the job, read by the caller after every worker left.
  int64_t* worker_ns;
  int64_t* worker_cpu_ns;
  uint32_t* worker_indices;
  // worker_count + 1 parts, reused by every job (jobs run one at a time).
  kiln_task_part_t* parts;
};

// The executors whose work the current thread is running, innermost first
// (frames live on the stack): one frame per parallel_for the thread is
// inside, and for a worker running a job, its executor followed by the job
// caller's chain. A parallel_for on any executor in the chain would wait for
// itself, so it is rejected.
static _Thread_local const kiln_task_frame_t* kiln_task_current_frame = NULL;

static bool kiln_task_thread_is_inside(const kiln_task_executor_t* executor) {
  for (const kiln_task_frame_t* f = kiln_task_current_frame; f; f = f->parent) {
    if (f->executor == executor) return true;
  }
  return false;
}

static const kiln_ref_type_t kiln_task_executor_type;

//===----------------------------------------------------------------------===//
// Running chunks
//===----------------------------------------------------------------------===//

static void kiln_task_job_record_error(kiln_task_executor_t* executor,
                                       kiln_task_job_t* job, uint32_t index,
                                       kiln_status_t status) {
  kiln_mutex_lock(&executor->error_mutex);
  if (index < kiln_atomic_load_relaxed(&job->error_index)) {
    kiln_status_free(job->error_status);
    job->error_status = status;
    kiln_atomic_store_relaxed(&job->error_index, index);
    status = NULL;
  }
  kiln_mutex_unlock(&executor->error_mutex);
  kiln_status_free(status);
}

// The part a thread owns: the caller's (id worker_count) is the first.
static uint32_t kiln_task_part_of(const kiln_task_executor_t* executor,
                                  uint32_t worker_id) {
  return worker_id == executor->worker_count ? 0 : worker_id + 1;
}

// Claims the next chunk [*out_begin, *out_end) of the job, from the part
// |*part| (the thread's own first) onwards; false once every part is empty.
// Indices above a known failure cannot change the result: a part whose next
// chunk starts above it counts as empty.
static bool kiln_task_job_claim(kiln_task_job_t* job, uint32_t* part,
                                uint32_t* parts_left, uint64_t* out_begin,
                                uint64_t* out_end) {
  while (*parts_left) {
    kiln_task_part_t* p = &job->parts[*part];
    if (kiln_atomic_load_relaxed(&p->next) < p->end) {
      uint64_t begin =
          kiln_atomic_fetch_add_relaxed(&p->next, (uint64_t)job->grain);
      if (begin < p->end &&
          begin <= kiln_atomic_load_relaxed(&job->error_index)) {
        *out_begin = begin;
        *out_end = begin + job->grain < p->end ? begin + job->grain : p->end;
        return true;
      }
    }
    *part = *part + 1 == job->part_count ? 0 : *part + 1;
    --*parts_left;
  }
  return false;
}

// Claims and runs chunks of |job| until none are left. Returns the number of
// indices this thread ran and adds its busy time to the worker's slot.
static uint32_t kiln_task_job_run_chunks(kiln_task_executor_t* executor,
                                         kiln_task_job_t* job,
                                         uint32_t worker_id) {
  uint32_t ran = 0;
  int64_t busy_ns = 0;
  int64_t cpu_start_ns = job->measure ? kiln_thread_cpu_time_ns() : 0;
  uint32_t part = kiln_task_part_of(executor, worker_id);
  uint32_t parts_left = job->part_count;
  uint64_t begin = 0, end = 0;
  while (kiln_task_job_claim(job, &part, &parts_left, &begin, &end)) {
    kiln_time_t start_ns = job->measure ? kiln_time_now_ns() : 0;
    KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, job->trace_name,
                                        job->trace_name_length);
    KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "begin", begin);
    KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "end", end);
    for (uint32_t i = (uint32_t)begin; i < (uint32_t)end; ++i) {
      if (i > kiln_atomic_load_relaxed(&job->error_index)) break;
      kiln_status_t status = job->fn(job->user_data, i, worker_id);
      ++ran;
      if (status) {
        kiln_task_job_record_error(executor, job, i, status);
        break;
      }
    }
    KILN_TRACE_ZONE_END(z0);
    if (job->measure) busy_ns += kiln_time_now_ns() - start_ns;
  }
  if (ran) {
    if (job->measure) {
      executor->worker_cpu_ns[worker_id] +=
          kiln_thread_cpu_time_ns() - cpu_start_ns;
    }
    executor->worker_ns[worker_id] += busy_ns;
    executor->worker_indices[worker_id] += ran;
  }
  return ran;
}

//===----------------------------------------------------------------------===//
// Workers
//===----------------------------------------------------------------------===//

// Enters the executor, runs chunks of the current job if there is one, and
// leaves. Returns true if any index ran.
static bool kiln_task_worker_try_run(kiln_task_executor_t* executor,
                                     uint32_t worker_id) {
  kiln_atomic_fetch_add_seq_cst(&executor->active_workers, 1);
  kiln_task_job_t* job = kiln_atomic_load_seq_cst(&executor->current_job);
  uint32_t ran = 0;
  if (job) {
    KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_WORKER_RUN);
    const kiln_task_frame_t* idle_frame = kiln_task_current_frame;
    kiln_task_frame_t job_frame = {executor, job->caller_frame};
    kiln_task_current_frame = &job_frame;
    ran = kiln_task_job_run_chunks(executor, job, worker_id);
    kiln_task_current_frame = idle_frame;
    KILN_TRACE_ZONE_END(z0);
  }
  if (kiln_atomic_fetch_sub_seq_cst(&executor->active_workers, 1) == 1) {
    kiln_notification_post(&executor->idle_notification, KILN_NOTIFICATION_ALL);
  }
  return ran != 0;
}

// Whether the process's affinity mask allows |cpu|.
static bool kiln_task_cpu_usable(uint32_t cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) != 0) {
    return false;
  }
  return CPU_ISSET((int)cpu, &set) != 0;
}

static int kiln_task_worker_main(void* arg) {
  kiln_task_worker_t* worker = (kiln_task_worker_t*)arg;
  kiln_task_executor_t* executor = worker->executor;
  if (worker->cpu >= 0) {
    // Checked by the creator (kiln_task_cpu_usable); a failure here leaves
    // the worker unpinned, which changes only where it runs.
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(worker->cpu, &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  }
  kiln_task_frame_t frame = {executor, NULL};
  kiln_task_current_frame = &frame;
  for (;;) {
    kiln_wait_token_t token =
        kiln_notification_prepare_wait(&executor->work_notification);
    if (kiln_atomic_load_seq_cst(&executor->shutdown)) {
      kiln_notification_cancel_wait(&executor->work_notification);
      break;
    }
    if (kiln_task_worker_try_run(executor, worker->id)) {
      // Did work: look again (the job may still have chunks, or the next job
      // may already be published).
      kiln_notification_cancel_wait(&executor->work_notification);
      continue;
    }
    // Nothing to do: spin briefly for back-to-back jobs, then sleep.
    bool posted = false;
    for (int i = 0; i < KILN_TASK_WORKER_SPIN_COUNT && !posted; ++i) {
      kiln_cpu_relax();
      posted =
          kiln_notification_posted_since(&executor->work_notification, token);
    }
    if (posted) {
      kiln_notification_cancel_wait(&executor->work_notification);
    } else {
      kiln_notification_commit_wait(&executor->work_notification, token,
                                    KILN_INFINITE_FUTURE);
    }
  }
  kiln_task_current_frame = NULL;
  return 0;
}

//===----------------------------------------------------------------------===//
// Creation and lifetime
//===----------------------------------------------------------------------===//

kiln_task_executor_options_t kiln_task_executor_options_default(void) {
  kiln_task_executor_options_t options;
  memset(&options, 0, sizeof(options));
  options.worker_count = 0;
  options.name = "kiln-worker";
  options.cpu_ids = NULL;
  options.count_caller = false;
  return options;
}

// Stops and joins every started worker and frees the executor.
static void kiln_task_executor_destroy(void* object) {
  kiln_task_executor_t* executor = (kiln_task_executor_t*)object;
  kiln_atomic_store_seq_cst(&executor->shutdown, true);
  kiln_notification_post(&executor->work_notification, KILN_NOTIFICATION_ALL);
  if (executor->workers) {
    for (uint32_t i = 0; i < executor->worker_count; ++i) {
      kiln_thread_release(executor->workers[i].thread);
    }
  }
  kiln_notification_deinitialize(&executor->idle_notification);
  kiln_notification_deinitialize(&executor->work_notification);
  kiln_mutex_deinitialize(&executor->error_mutex);
  kiln_mutex_deinitialize(&executor->dispatch_mutex);
  kiln_allocator_t allocator = executor->allocator;
  kiln_allocator_free(allocator, executor->workers);
  kiln_allocator_free(allocator, executor->worker_ns);
  kiln_allocator_free(allocator, executor->worker_cpu_ns);
  kiln_allocator_free(allocator, executor->worker_indices);
  kiln_allocator_free(allocator, executor->parts);
  kiln_allocator_free(allocator, executor);
}

static const kiln_ref_type_t kiln_task_executor_type = {
    "task.executor", kiln_task_executor_destroy};

kiln_status_t kiln_task_executor_create(
    const kiln_task_executor_options_t* options, kiln_allocator_t allocator,
    kiln_task_executor_t** out_executor) {
  *out_executor = NULL;
  kiln_task_executor_options_t defaults = kiln_task_executor_options_default();
  if (!options) options = &defaults;
  uint32_t worker_count =
      options->worker_count ? options->worker_count : kiln_cpu_count();
  KILN_RETURN_IF_FALSE(
      worker_count <= KILN_TASK_EXECUTOR_MAX_WORKERS,
      KILN_STATUS_INVALID_ARGUMENT,
      "kiln_task_executor_create: worker_count %u exceeds the limit of %u",
      worker_count, (unsigned)KILN_TASK_EXECUTOR_MAX_WORKERS);
  // The caller is one of the threads: the pool makes up the rest.
  if (options->count_caller && worker_count > 0) --worker_count;
  const char* prefix = options->name ? options->name : "kiln-worker";

  kiln_task_executor_t* executor = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*executor), (void**)&executor));
  kiln_ref_object_initialize(&executor->ref, &kiln_task_executor_type);
  executor->allocator = allocator;
  executor->worker_count = 0;  // threads started so far, for cleanup
  kiln_mutex_initialize(&executor->dispatch_mutex);
  kiln_mutex_initialize(&executor->error_mutex);
  kiln_notification_initialize(&executor->work_notification);
  kiln_notification_initialize(&executor->idle_notification);
  kiln_atomic_init(&executor->current_job, NULL);
  kiln_atomic_init(&executor->active_workers, 0);
  kiln_atomic_init(&executor->shutdown, false);

  // At least one entry: a pool of zero threads is valid (count_caller with
  // one thread) and an allocator may refuse zero-byte blocks.
  kiln_status_t status = kiln_allocator_calloc(
      allocator, (worker_count ? worker_count : 1) * sizeof(kiln_task_worker_t),
      (void**)&executor->workers);
  if (!status) {
    status =
        kiln_allocator_calloc(allocator, (worker_count + 1) * sizeof(int64_t),
                              (void**)&executor->worker_ns);
  }
  if (!status) {
    status =
        kiln_allocator_calloc(allocator, (worker_count + 1) * sizeof(int64_t),
                              (void**)&executor->worker_cpu_ns);
  }
  if (!status) {
    status =
        kiln_allocator_calloc(allocator, (worker_count + 1) * sizeof(uint32_t),
                              (void**)&executor->worker_indices);
  }
  if (!status) {
    status = kiln_allocator_calloc(
        allocator, (worker_count + 1) * sizeof(kiln_task_part_t),
        (void**)&executor->parts);
  }
  for (uint32_t i = 0; !status && options->cpu_ids && i < worker_count; ++i) {
    if (!kiln_task_cpu_usable(options->cpu_ids[i])) {
      status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "CPU %u (worker %u) is not one this process "
                                "may run on",
                                options->cpu_ids[i], i);
    }
  }
  for (uint32_t i = 0; !status && i < worker_count; ++i) {
    kiln_task_worker_t* worker = &executor->workers[i];
    worker->executor = executor;
    worker->id = i;
    worker->cpu = options->cpu_ids ? (int32_t)options->cpu_ids[i] : -1;
    char name[64];
    snprintf(name, sizeof(name), "%s-%u", prefix, i);
    status = kiln_thread_create(name, kiln_task_worker_main, worker, allocator,
                                &worker->thread);
    if (!status) executor->worker_count = i + 1;
  }
  if (status) {
    kiln_task_executor_destroy(executor);
    return kiln_status_annotate_f(status,
                                  "creating task executor '%s' with %u workers",
                                  prefix, worker_count);
  }
  *out_executor = executor;
  return kiln_ok_status();
}

void kiln_task_executor_retain(kiln_task_executor_t* executor) {
  kiln_ref_retain(executor);
}

void kiln_task_executor_release(kiln_task_executor_t* executor) {
  kiln_ref_release(executor);
}

uint32_t kiln_task_executor_worker_count(const kiln_task_executor_t* executor) {
  return executor->worker_count;
}

//===----------------------------------------------------------------------===//
// Parallel for
//===----------------------------------------------------------------------===//

// Waits until no worker is inside the executor (after current_job was
// cleared, so none can enter the finished job again).
static void kiln_task_executor_wait_idle(kiln_task_executor_t* executor) {
  for (int i = 0; i < KILN_TASK_CALLER_SPIN_COUNT; ++i) {
    if (kiln_atomic_load_seq_cst(&executor->active_workers) == 0) return;
    kiln_cpu_relax();
  }
  for (;;) {
    kiln_wait_token_t token =
        kiln_notification_prepare_wait(&executor->idle_notification);
    if (kiln_atomic_load_seq_cst(&executor->active_workers) == 0) {
      kiln_notification_cancel_wait(&executor->idle_notification);
      return;
    }
    kiln_notification_commit_wait(&executor->idle_notification, token,
                                  KILN_INFINITE_FUTURE);
  }
}

kiln_status_t kiln_task_executor_parallel_for_ex(
    kiln_task_executor_t* executor,
    const kiln_task_parallel_for_params_t* params,
    kiln_task_parallel_for_stats_t* out_stats) {
  // Clock reads only for statistics (a system call on some VMs).
  kiln_time_t call_start_ns = out_stats ? kiln_time_now_ns() : 0;
  if (out_stats) memset(out_stats, 0, sizeof(*out_stats));
  KILN_RETURN_IF_FALSE(executor && params, KILN_STATUS_INVALID_ARGUMENT,
                       "kiln_task_executor_parallel_for: NULL executor or "
                       "params");
  const uint32_t worker_count = executor->worker_count;
  if (params->out_worker_ns) {
    memset(params->out_worker_ns, 0, (worker_count + 1) * sizeof(int64_t));
  }
  if (params->count == 0) return kiln_ok_status();
  KILN_RETURN_IF_FALSE(params->fn != NULL, KILN_STATUS_INVALID_ARGUMENT,
                       "kiln_task_executor_parallel_for: fn is NULL (count "
                       "%u)",
                       params->count);
  KILN_RETURN_IF_FALSE(
      !kiln_task_thread_is_inside(executor), KILN_STATUS_FAILED_PRECONDITION,
      "kiln_task_executor_parallel_for: called from inside a parallel_for of "
      "the same executor (nested parallel_for would deadlock)");
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_PARALLEL_FOR);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "count", params->count);

  kiln_task_job_t job;
  job.fn = params->fn;
  job.user_data = params->user_data;
  job.count = params->count;
  job.grain = params->grain;
  if (job.grain == 0) {
    // About sixteen chunks per participating thread: uneven work and a
    // thread preempted while it holds a chunk (the caller makes one more
    // thread than there are workers) cost at most a small chunk at the
    // end, and claiming a chunk is one atomic add.
    uint64_t target_chunks = 16ull * (worker_count + 1);
    job.grain = (uint32_t)((job.count + target_chunks - 1) / target_chunks);
    if (job.grain == 0) job.grain = 1;
  }
  job.measure = out_stats != NULL || params->out_worker_ns != NULL;
  job.trace_name = params->trace_name ? params->trace_name : "task.chunk";
  job.trace_name_length =
      params->trace_name ? params->trace_name_length : strlen("task.chunk");
  kiln_atomic_init(&job.error_index, KILN_TASK_NO_ERROR);
  job.error_status = NULL;
  const uint32_t caller_id = worker_count;
  uint64_t chunk_count = ((uint64_t)job.count + job.grain - 1) / job.grain;

  kiln_mutex_lock(&executor->dispatch_mutex);
  kiln_task_frame_t frame = {executor, kiln_task_current_frame};
  kiln_task_current_frame = &frame;
  job.caller_frame = &frame;
  memset(executor->worker_ns, 0, (worker_count + 1) * sizeof(int64_t));
  memset(executor->worker_cpu_ns, 0, (worker_count + 1) * sizeof(int64_t));
  memset(executor->worker_indices, 0, (worker_count + 1) * sizeof(uint32_t));

  // One part per thread, cut at chunk boundaries (the caller's first); one
  // part when the caller runs everything inline.
  job.parts = executor->parts;
  job.part_count = chunk_count > 1 && worker_count > 0 ? worker_count + 1 : 1;
  for (uint32_t i = 0; i < job.part_count; ++i) {
    uint64_t first_chunk = chunk_count * i / job.part_count;
    uint64_t end_chunk = chunk_count * (i + 1) / job.part_count;
    uint64_t end = end_chunk * job.grain;
    kiln_atomic_init(&job.parts[i].next, first_chunk * job.grain);
    job.parts[i].end = end < job.count ? end : job.count;
  }

  if (job.part_count > 1) {
    kiln_atomic_store_seq_cst(&executor->current_job, &job);
    uint64_t wake = chunk_count - 1;
    if (wake > worker_count) wake = worker_count;
    kiln_notification_post(&executor->work_notification, (int32_t)wake);
    kiln_task_job_run_chunks(executor, &job, caller_id);
    kiln_atomic_store_seq_cst(&executor->current_job, NULL);
    kiln_task_executor_wait_idle(executor);
  } else {
    // One chunk (or no pool): run inline without waking anyone.
    kiln_task_job_run_chunks(executor, &job, caller_id);
  }

  if (out_stats || params->out_worker_ns) {
    kiln_task_parallel_for_stats_t stats;
    memset(&stats, 0, sizeof(stats));
    for (uint32_t i = 0; i <= worker_count; ++i) {
      stats.total_worker_ns += executor->worker_ns[i];
      stats.total_worker_cpu_ns += executor->worker_cpu_ns[i];
      stats.indices_run += executor->worker_indices[i];
      if (executor->worker_indices[i]) ++stats.workers_used;
      if (params->out_worker_ns) {
        params->out_worker_ns[i] = executor->worker_ns[i];
      }
    }
    stats.wall_ns = kiln_time_now_ns() - call_start_ns;
    if (out_stats) *out_stats = stats;
  }
  kiln_task_current_frame = frame.parent;
  kiln_mutex_unlock(&executor->dispatch_mutex);
  KILN_TRACE_ZONE_END(z0);

  kiln_status_t status = job.error_status;
  if (status) {
    status = kiln_status_annotate_f(
        status, "in parallel_for index %u of %u",
        (unsigned)kiln_atomic_load_relaxed(&job.error_index), job.count);
  }
  return status;
}

kiln_status_t kiln_task_executor_parallel_for(kiln_task_executor_t* executor,
                                              uint32_t count, uint32_t grain,
                                              kiln_task_parallel_fn_t fn,
                                              void* user_data) {
  kiln_task_parallel_for_params_t params;
  memset(&params, 0, sizeof(params));
  params.count = count;
  params.grain = grain;
  params.fn = fn;
  params.user_data = user_data;
  return kiln_task_executor_parallel_for_ex(executor, &params, NULL);
}
