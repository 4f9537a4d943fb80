#include "runtime/hal/local/local_device.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "runtime/base/threads.h"
#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"
#include "runtime/hal/buffer_internal.h"
#include "runtime/hal/local/executable_loader.h"

//===----------------------------------------------------------------------===//
// Transient buffer pool (queue_alloca / queue_dealloca)
//===----------------------------------------------------------------------===//

// Free blocks kept for reuse; beyond these, blocks go back to the allocator.
#define KILN_HAL_POOL_MAX_FREE_BLOCKS 32

typedef struct kiln_hal_pool_block_t {
  struct kiln_hal_transient_pool_t* pool;
  kiln_hal_buffer_t* storage;  // a heap buffer of the device allocator
} kiln_hal_pool_block_t;

typedef struct kiln_hal_transient_pool_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  kiln_hal_allocator_t* allocator;
  pthread_mutex_t mutex;
  size_t free_count;
  kiln_hal_pool_block_t* free_blocks[KILN_HAL_POOL_MAX_FREE_BLOCKS];
} kiln_hal_transient_pool_t;

static void kiln_hal_pool_block_free(kiln_hal_pool_block_t* block) {
  kiln_hal_buffer_release(block->storage);
  kiln_allocator_free(block->pool->host_allocator, block);
}

static void kiln_hal_transient_pool_destroy(void* object) {
  kiln_hal_transient_pool_t* pool = (kiln_hal_transient_pool_t*)object;
  for (size_t i = 0; i < pool->free_count; ++i) {
    kiln_hal_pool_block_free(pool->free_blocks[i]);
  }
  kiln_hal_allocator_release(pool->allocator);
  pthread_mutex_destroy(&pool->mutex);
  kiln_allocator_free(pool->host_allocator, pool);
}

static const kiln_ref_type_t kiln_hal_transient_pool_type = {
    "hal.transient_pool", kiln_hal_transient_pool_destroy};

static kiln_status_t kiln_hal_transient_pool_create(
    kiln_hal_allocator_t* allocator, kiln_allocator_t host_allocator,
    kiln_hal_transient_pool_t** out_pool) {
  kiln_hal_transient_pool_t* pool = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*pool), (void**)&pool));
  kiln_ref_object_initialize(&pool->ref, &kiln_hal_transient_pool_type);
  pool->host_allocator = host_allocator;
  kiln_hal_allocator_retain(allocator);
  pool->allocator = allocator;
  pthread_mutex_init(&pool->mutex, NULL);
  *out_pool = pool;
  return kiln_ok_status();
}

// Called when the last reference to a transient buffer drops.
static void kiln_hal_pool_block_return(void* user_data, void* data,
                                       uint64_t size) {
  kiln_hal_pool_block_t* block = (kiln_hal_pool_block_t*)user_data;
  kiln_hal_transient_pool_t* pool = block->pool;
  pthread_mutex_lock(&pool->mutex);
  bool kept = false;
  if (pool->free_count < KILN_HAL_POOL_MAX_FREE_BLOCKS) {
    pool->free_blocks[pool->free_count++] = block;
    kept = true;
  }
  pthread_mutex_unlock(&pool->mutex);
  if (!kept) kiln_hal_pool_block_free(block);
  kiln_ref_release(pool);
}

static kiln_status_t kiln_hal_transient_pool_acquire(
    kiln_hal_transient_pool_t* pool, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer) {
  kiln_hal_pool_block_t* block = NULL;
  pthread_mutex_lock(&pool->mutex);
  // Best fit among blocks no more than twice the request.
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < pool->free_count; ++i) {
    uint64_t capacity =
        kiln_hal_buffer_byte_length(pool->free_blocks[i]->storage);
    if (capacity >= size && capacity / 2 <= size &&
        (best == SIZE_MAX ||
         capacity <
             kiln_hal_buffer_byte_length(pool->free_blocks[best]->storage))) {
      best = i;
    }
  }
  if (best != SIZE_MAX) {
    block = pool->free_blocks[best];
    pool->free_blocks[best] = pool->free_blocks[--pool->free_count];
  }
  pthread_mutex_unlock(&pool->mutex);
  if (!block) {
    KILN_RETURN_IF_ERROR(kiln_allocator_calloc(pool->host_allocator,
                                               sizeof(*block), (void**)&block));
    block->pool = pool;
    kiln_status_t status = kiln_hal_allocator_allocate_buffer(
        pool->allocator, NULL, kiln_align_up(size ? size : 1, 256),
        &block->storage);
    if (status) {
      kiln_allocator_free(pool->host_allocator, block);
      return status;
    }
  }
  kiln_ref_retain(pool);
  kiln_hal_buffer_release_callback_t release = {kiln_hal_pool_block_return,
                                                block};
  kiln_status_t status =
      kiln_hal_buffer_wrap(params, kiln_hal_buffer_host_ptr(block->storage),
                           size, release, pool->host_allocator, out_buffer);
  if (status) kiln_hal_pool_block_return(block, NULL, 0);
  return status;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

typedef enum kiln_hal_queue_op_type_e {
  KILN_HAL_QUEUE_OP_EXECUTE,
  KILN_HAL_QUEUE_OP_BARRIER,  // alloca / dealloca: wait then signal
} kiln_hal_queue_op_type_t;

typedef struct kiln_hal_queue_op_t {
  struct kiln_hal_queue_op_t* next;
  kiln_hal_queue_op_type_t type;
  kiln_hal_fence_t* wait_fence;    // retained
  kiln_hal_fence_t* signal_fence;  // retained
  kiln_hal_buffer_t* buffer;       // retained (dealloca), may be NULL
  size_t command_buffer_count;
  kiln_hal_command_buffer_t** command_buffers;      // retained
  kiln_hal_buffer_binding_table_t* binding_tables;  // NULL or per cb
  kiln_hal_buffer_binding_t* bindings;  // storage of the tables (retained)
  size_t binding_count;
  int64_t deadline_ns;  // absolute; KILN_HAL_INFINITE_DEADLINE for none
} kiln_hal_queue_op_t;

typedef struct kiln_hal_deferred_op_t kiln_hal_deferred_op_t;

typedef struct kiln_hal_local_device_t {
  kiln_hal_device_t base;
  bool allow_native_executables;
  size_t loader_count;
  kiln_hal_executable_loader_t** loaders;
  kiln_hal_transient_pool_t* pool;
  kiln_hal_local_command_executor_t executor;
  // Serializes execution (one command buffer at a time uses the executor).
  pthread_mutex_t execute_mutex;
  // Async queue.
  bool async_queue;
  pthread_mutex_t queue_mutex;
  pthread_cond_t queue_cond;       // work arrived / exit requested
  pthread_cond_t queue_idle_cond;  // queue drained
  kiln_hal_queue_op_t* head;
  kiln_hal_queue_op_t* tail;
  bool busy;
  bool exit_requested;
  bool thread_started;
  pthread_t thread;
  // Sync devices: submissions whose wait fence was not reached (guarded by
  // queue_mutex). Each runs on the thread that
  // reaches its last wait timepoint; what is left at destruction is failed.
  kiln_hal_deferred_op_t* deferred;
} kiln_hal_local_device_t;

// A sync device's submission waiting for its wait fence: one semaphore
// timepoint per timepoint of the fence, and a count of those not yet fired
// (plus one held by the submitter while it registers them).
struct kiln_hal_deferred_op_t {
  kiln_hal_deferred_op_t* next;
  kiln_hal_deferred_op_t* prev;
  kiln_hal_local_device_t* device;
  struct kiln_hal_queue_op_t* op;  // owned
  atomic_size_t pending;
  size_t timepoint_count;
  kiln_hal_semaphore_timepoint_t timepoints[];
};

static void kiln_hal_queue_op_free(kiln_allocator_t allocator,
                                   kiln_hal_queue_op_t* op) {
  kiln_hal_fence_release(op->wait_fence);
  kiln_hal_fence_release(op->signal_fence);
  kiln_hal_buffer_release(op->buffer);
  for (size_t i = 0; i < op->command_buffer_count; ++i) {
    kiln_hal_command_buffer_release(op->command_buffers[i]);
  }
  for (size_t i = 0; i < op->binding_count; ++i) {
    kiln_hal_buffer_release(op->bindings[i].buffer);
  }
  kiln_allocator_free(allocator, op);
}

// Runs one operation: wait, execute, then signal or fail the signal fence.
// Returns the failure (also delivered to the signal fence).
static kiln_status_t kiln_hal_local_device_run_op(
    kiln_hal_local_device_t* device, kiln_hal_queue_op_t* op) {
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_QUEUE_OPERATION);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "type", op->type);
  kiln_status_t status = kiln_hal_fence_wait(op->wait_fence, op->deadline_ns);
  if (!status && op->type == KILN_HAL_QUEUE_OP_EXECUTE) {
    pthread_mutex_lock(&device->execute_mutex);
    for (size_t i = 0; !status && i < op->command_buffer_count; ++i) {
      status = kiln_hal_local_command_executor_execute(
          &device->executor, op->command_buffers[i],
          op->binding_tables ? &op->binding_tables[i] : NULL, op->deadline_ns);
    }
    pthread_mutex_unlock(&device->execute_mutex);
  }
  if (status) {
    kiln_hal_fence_fail(op->signal_fence, kiln_status_clone(status));
  } else {
    status = kiln_hal_fence_signal(op->signal_fence);
  }
  KILN_TRACE_ZONE_END(z0);
  return status;
}

static void* kiln_hal_local_device_queue_main(void* arg) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)arg;
  kiln_thread_set_current_name("kiln-hal-queue");
  kiln_trace_set_thread_name("kiln-hal-queue");
  pthread_mutex_lock(&device->queue_mutex);
  for (;;) {
    // |busy| without a popped op: a submitter is running one inline.
    while ((!device->head || device->busy) && !device->exit_requested) {
      pthread_cond_wait(&device->queue_cond, &device->queue_mutex);
    }
    while (device->busy) {  // exit requested: let the inline op finish
      pthread_cond_wait(&device->queue_cond, &device->queue_mutex);
    }
    if (!device->head) break;  // exit requested and drained
    kiln_hal_queue_op_t* op = device->head;
    device->head = op->next;
    if (!device->head) device->tail = NULL;
    device->busy = true;
    pthread_mutex_unlock(&device->queue_mutex);
    kiln_status_free(kiln_hal_local_device_run_op(device, op));
    kiln_hal_queue_op_free(device->base.host_allocator, op);
    pthread_mutex_lock(&device->queue_mutex);
    device->busy = false;
    if (!device->head) pthread_cond_broadcast(&device->queue_idle_cond);
  }
  pthread_mutex_unlock(&device->queue_mutex);
  return NULL;
}

// Runs a deferred op whose wait timepoints all fired (or failed: run_op
// then delivers the failure to the signal fence) and frees it.
static void kiln_hal_deferred_op_run(kiln_hal_deferred_op_t* deferred) {
  kiln_hal_local_device_t* device = deferred->device;
  pthread_mutex_lock(&device->queue_mutex);
  if (deferred->prev) {
    deferred->prev->next = deferred->next;
  } else {
    device->deferred = deferred->next;
  }
  if (deferred->next) deferred->next->prev = deferred->prev;
  pthread_mutex_unlock(&device->queue_mutex);
  // The failure, if any, reached the op's signal fence; the thread that
  // signalled the wait fence has no use for it.
  kiln_status_free(kiln_hal_local_device_run_op(device, deferred->op));
  kiln_hal_queue_op_free(device->base.host_allocator, deferred->op);
  kiln_allocator_free(device->base.host_allocator, deferred);
}

static void kiln_hal_deferred_op_release_one(kiln_hal_deferred_op_t* deferred) {
  if (atomic_fetch_sub(&deferred->pending, 1) == 1) {
    kiln_hal_deferred_op_run(deferred);
  }
}

static void kiln_hal_deferred_op_timepoint_fired(void* user_data,
                                                 kiln_status_t failure) {
  (void)failure;  // run_op's wait sees it again and fails the signal fence
  kiln_hal_deferred_op_release_one((kiln_hal_deferred_op_t*)user_data);
}

// Sync devices: a submission whose wait fence is not reached cannot run on
// the submitting thread without blocking it, and that thread may be the one
// that will signal the fence (an async call whose input is signalled after
// the call returns). The op waits on the fence's semaphores instead and
// runs on whichever thread reaches the last of them. Takes ownership of
// |op|.
static kiln_status_t kiln_hal_local_device_defer(
    kiln_hal_local_device_t* device, kiln_hal_queue_op_t* op) {
  size_t count = kiln_hal_fence_timepoint_count(op->wait_fence);
  kiln_hal_deferred_op_t* deferred = NULL;
  kiln_status_t status = kiln_allocator_calloc(
      device->base.host_allocator,
      sizeof(*deferred) + count * sizeof(deferred->timepoints[0]),
      (void**)&deferred);
  if (status) {
    kiln_hal_queue_op_free(device->base.host_allocator, op);
    return status;
  }
  deferred->device = device;
  deferred->op = op;
  deferred->timepoint_count = count;
  atomic_init(&deferred->pending, count + 1);
  pthread_mutex_lock(&device->queue_mutex);
  deferred->next = device->deferred;
  if (device->deferred) device->deferred->prev = deferred;
  device->deferred = deferred;
  pthread_mutex_unlock(&device->queue_mutex);
  for (size_t i = 0; i < count; ++i) {
    kiln_hal_semaphore_t* semaphore = NULL;
    kiln_hal_semaphore_timepoint_t* timepoint = &deferred->timepoints[i];
    kiln_hal_fence_timepoint(op->wait_fence, i, &semaphore, &timepoint->value);
    timepoint->callback = kiln_hal_deferred_op_timepoint_fired;
    timepoint->user_data = deferred;
    if (!kiln_hal_semaphore_add_timepoint(semaphore, timepoint)) {
      kiln_hal_deferred_op_release_one(deferred);  // reached meanwhile
    }
  }
  kiln_hal_deferred_op_release_one(deferred);  // the submitter's share
  return kiln_ok_status();
}

// Runs |op| inline or defers it (sync devices) or enqueues it (async
// devices). Takes ownership of |op|.
static kiln_status_t kiln_hal_local_device_submit(
    kiln_hal_local_device_t* device, kiln_hal_queue_op_t* op) {
  if (!device->async_queue) {
    bool wait_reached = false;
    kiln_status_t query = kiln_hal_fence_query(op->wait_fence, &wait_reached);
    if (query) {
      kiln_status_free(query);
      wait_reached = true;  // failed: run_op delivers the failure at once
    }
    if (!wait_reached) return kiln_hal_local_device_defer(device, op);
    kiln_status_t status = kiln_hal_local_device_run_op(device, op);
    kiln_hal_queue_op_free(device->base.host_allocator, op);
    return status;
  }
  // An idle queue and a wait fence already reached (or failed): nothing can
  // run before this op, so the submitting thread runs it now, as local-sync
  // does, instead of handing it to the queue thread and waking it (two
  // thread wake-ups per submission, tens of microseconds on a busy machine:
  // most of a small invocation). Ops submitted meanwhile queue up behind it
  // (|busy| holds the queue thread back) and keep their order.
  bool reached = false;
  kiln_status_t query = kiln_hal_fence_query(op->wait_fence, &reached);
  if (query) {
    kiln_status_free(query);
    reached = true;  // failed: run_op delivers the failure at once
  }
  pthread_mutex_lock(&device->queue_mutex);
  if (reached && !device->head && !device->busy) {
    device->busy = true;
    pthread_mutex_unlock(&device->queue_mutex);
    kiln_status_t status = kiln_hal_local_device_run_op(device, op);
    kiln_hal_queue_op_free(device->base.host_allocator, op);
    pthread_mutex_lock(&device->queue_mutex);
    device->busy = false;
    // The queue thread runs what queued up meanwhile (or, exiting, was
    // waiting for this op); flush waits for an empty, idle queue.
    if (device->head || device->exit_requested) {
      pthread_cond_signal(&device->queue_cond);
    } else {
      pthread_cond_broadcast(&device->queue_idle_cond);
    }
    pthread_mutex_unlock(&device->queue_mutex);
    // As a queued op's failure, this one reaches the caller through the
    // signal fence (run_op failed it), not through the submission.
    kiln_status_free(status);
    return kiln_ok_status();
  }
  if (device->tail) {
    device->tail->next = op;
  } else {
    device->head = op;
  }
  device->tail = op;
  pthread_cond_signal(&device->queue_cond);
  pthread_mutex_unlock(&device->queue_mutex);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_local_device_new_op(
    kiln_hal_local_device_t* device, kiln_hal_queue_op_type_t type,
    kiln_hal_fence_t* wait_fence, kiln_hal_fence_t* signal_fence,
    size_t extra_size, kiln_hal_queue_op_t** out_op) {
  kiln_hal_queue_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      device->base.host_allocator, sizeof(*op) + extra_size, (void**)&op));
  op->type = type;
  op->deadline_ns = KILN_HAL_INFINITE_DEADLINE;
  kiln_hal_fence_retain(wait_fence);
  op->wait_fence = wait_fence;
  kiln_hal_fence_retain(signal_fence);
  op->signal_fence = signal_fence;
  *out_op = op;
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_local_device_queue_execute(
    kiln_hal_device_t* base_device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables,
    int64_t deadline_ns) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  size_t binding_count = 0;
  for (size_t i = 0; i < command_buffer_count; ++i) {
    if (!command_buffers[i]) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "command buffer %zu is NULL", i);
    }
    if (binding_tables) binding_count += binding_tables[i].count;
  }
  // One allocation: op, command buffer array, tables, bindings.
  size_t cb_bytes = command_buffer_count * sizeof(kiln_hal_command_buffer_t*);
  size_t table_bytes =
      binding_tables
          ? command_buffer_count * sizeof(kiln_hal_buffer_binding_table_t)
          : 0;
  size_t binding_bytes = binding_count * sizeof(kiln_hal_buffer_binding_t);
  kiln_hal_queue_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_local_device_new_op(
      device, KILN_HAL_QUEUE_OP_EXECUTE, wait_fence, signal_fence,
      cb_bytes + table_bytes + binding_bytes, &op));
  op->deadline_ns = deadline_ns;
  uint8_t* p = (uint8_t*)(op + 1);
  op->command_buffers = (kiln_hal_command_buffer_t**)p;
  p += cb_bytes;
  if (binding_tables) {
    op->binding_tables = (kiln_hal_buffer_binding_table_t*)p;
    p += table_bytes;
    op->bindings = (kiln_hal_buffer_binding_t*)p;
  }
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < command_buffer_count && !status; ++i) {
    status = kiln_hal_command_buffer_begin_submission(command_buffers[i]);
    if (status) {
      status = kiln_status_annotate_f(status, "command buffer %zu", i);
      break;
    }
    kiln_hal_command_buffer_retain(command_buffers[i]);
    op->command_buffers[op->command_buffer_count++] = command_buffers[i];
    if (binding_tables) {
      op->binding_tables[i].count = binding_tables[i].count;
      op->binding_tables[i].bindings = op->bindings + op->binding_count;
      for (size_t j = 0; j < binding_tables[i].count; ++j) {
        kiln_hal_buffer_binding_t binding = binding_tables[i].bindings[j];
        kiln_hal_buffer_retain(binding.buffer);
        op->bindings[op->binding_count++] = binding;
      }
    }
  }
  if (status) {
    kiln_hal_queue_op_free(device->base.host_allocator, op);
    return status;
  }
  return kiln_hal_local_device_submit(device, op);
}

static kiln_status_t kiln_hal_local_device_queue_alloca(
    kiln_hal_device_t* base_device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  KILN_RETURN_IF_ERROR(
      kiln_hal_transient_pool_acquire(device->pool, params, size, out_buffer));
  kiln_hal_queue_op_t* op = NULL;
  kiln_status_t status = kiln_hal_local_device_new_op(
      device, KILN_HAL_QUEUE_OP_BARRIER, wait_fence, signal_fence, 0, &op);
  if (!status) status = kiln_hal_local_device_submit(device, op);
  if (status) {
    kiln_hal_buffer_release(*out_buffer);
    *out_buffer = NULL;
  }
  return status;
}

static kiln_status_t kiln_hal_local_device_queue_dealloca(
    kiln_hal_device_t* base_device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, kiln_hal_buffer_t* buffer) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  kiln_hal_queue_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_local_device_new_op(
      device, KILN_HAL_QUEUE_OP_BARRIER, wait_fence, signal_fence, 0, &op));
  // Holding a reference until the wait is over keeps the memory out of the
  // pool until both the dealloca ran and the caller released the buffer.
  kiln_hal_buffer_retain(buffer);
  op->buffer = buffer;
  return kiln_hal_local_device_submit(device, op);
}

static kiln_status_t kiln_hal_local_device_queue_flush(
    kiln_hal_device_t* base_device) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  if (!device->async_queue) return kiln_ok_status();
  pthread_mutex_lock(&device->queue_mutex);
  while (device->head || device->busy) {
    pthread_cond_wait(&device->queue_idle_cond, &device->queue_mutex);
  }
  pthread_mutex_unlock(&device->queue_mutex);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_local_device_profiling_begin(
    kiln_hal_device_t* base_device, const kiln_hal_profiling_sink_t* sink) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  pthread_mutex_lock(&device->execute_mutex);
  kiln_status_t status = kiln_ok_status();
  if (device->executor.profiling) {
    status = kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                              "a profiling session is already active on "
                              "device '%s'",
                              device->base.id);
  } else {
    device->executor.sink = *sink;
    device->executor.profiling = true;
  }
  pthread_mutex_unlock(&device->execute_mutex);
  return status;
}

static kiln_status_t kiln_hal_local_device_profiling_end(
    kiln_hal_device_t* base_device) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  KILN_RETURN_IF_ERROR(kiln_hal_local_device_queue_flush(base_device));
  pthread_mutex_lock(&device->execute_mutex);
  device->executor.profiling = false;
  memset(&device->executor.sink, 0, sizeof(device->executor.sink));
  pthread_mutex_unlock(&device->execute_mutex);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Executable cache
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_local_executable_cache_t {
  kiln_hal_executable_cache_t base;
  kiln_hal_local_device_t* device;  // retained
} kiln_hal_local_executable_cache_t;

static void kiln_hal_local_executable_cache_destroy(
    kiln_hal_executable_cache_t* base_cache) {
  kiln_hal_local_executable_cache_t* cache =
      (kiln_hal_local_executable_cache_t*)base_cache;
  kiln_hal_device_t* device = &cache->device->base;
  kiln_allocator_free(device->host_allocator, cache);
  kiln_hal_device_release(device);
}

static bool kiln_hal_local_executable_cache_can_prepare_format(
    kiln_hal_executable_cache_t* base_cache, kiln_string_view_t format) {
  kiln_hal_local_executable_cache_t* cache =
      (kiln_hal_local_executable_cache_t*)base_cache;
  for (size_t i = 0; i < cache->device->loader_count; ++i) {
    if (kiln_hal_executable_loader_query_support(cache->device->loaders[i],
                                                 format)) {
      return true;
    }
  }
  return false;
}

static kiln_status_t kiln_hal_local_executable_cache_prepare_executable(
    kiln_hal_executable_cache_t* base_cache,
    const kiln_hal_executable_params_t* params,
    kiln_hal_executable_t** out_executable) {
  kiln_hal_local_executable_cache_t* cache =
      (kiln_hal_local_executable_cache_t*)base_cache;
  kiln_hal_local_device_t* device = cache->device;
  kiln_hal_executable_load_options_t options;
  options.allow_native_executables = device->allow_native_executables;
  options.host_cpu_features = kiln_hal_query_host_cpu_features();
  for (size_t i = 0; i < device->loader_count; ++i) {
    if (!kiln_hal_executable_loader_query_support(device->loaders[i],
                                                  params->format)) {
      continue;
    }
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_hal_executable_loader_try_load(
            device->loaders[i], params, &options, device->base.host_allocator,
            out_executable),
        "loading executable of format '%.*s'", KILN_SV_ARG(params->format));
    return kiln_ok_status();
  }
  char names[256];
  size_t n = 0;
  names[0] = 0;
  for (size_t i = 0; i < device->loader_count && n < sizeof(names); ++i) {
    n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
                          device->loaders[i]->name);
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "no loader for executable format '%.*s' on device "
                          "'%s'; loaders: %s",
                          KILN_SV_ARG(params->format), device->base.id, names);
}

static const kiln_hal_executable_cache_vtable_t
    kiln_hal_local_executable_cache_vtable = {
        kiln_hal_local_executable_cache_destroy,
        kiln_hal_local_executable_cache_can_prepare_format,
        kiln_hal_local_executable_cache_prepare_executable,
};

static kiln_status_t kiln_hal_local_device_create_executable_cache(
    kiln_hal_device_t* base_device, kiln_hal_executable_cache_t** out_cache) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  kiln_hal_local_executable_cache_t* cache = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(device->base.host_allocator,
                                             sizeof(*cache), (void**)&cache));
  kiln_ref_object_initialize(&cache->base.ref, &kiln_hal_executable_cache_type);
  cache->base.vtable = &kiln_hal_local_executable_cache_vtable;
  kiln_hal_device_retain(base_device);
  cache->device = device;
  *out_cache = &cache->base;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Lifetime
//===----------------------------------------------------------------------===//

static void kiln_hal_local_device_destroy(kiln_hal_device_t* base_device) {
  kiln_hal_local_device_t* device = (kiln_hal_local_device_t*)base_device;
  kiln_allocator_t allocator = device->base.host_allocator;
  if (device->thread_started) {
    pthread_mutex_lock(&device->queue_mutex);
    device->exit_requested = true;
    pthread_cond_signal(&device->queue_cond);
    pthread_mutex_unlock(&device->queue_mutex);
    pthread_join(device->thread, NULL);
  }
  // Deferred submissions whose wait fence was never reached: nothing can
  // run them now. Their signal fences fail so that waiters wake.
  while (device->deferred) {
    kiln_hal_deferred_op_t* deferred = device->deferred;
    device->deferred = deferred->next;
    for (size_t i = 0; i < deferred->timepoint_count; ++i) {
      kiln_hal_semaphore_t* semaphore = NULL;
      uint64_t value = 0;
      kiln_hal_fence_timepoint(deferred->op->wait_fence, i, &semaphore, &value);
      kiln_hal_semaphore_cancel_timepoint(semaphore, &deferred->timepoints[i]);
    }
    kiln_hal_fence_fail(
        deferred->op->signal_fence,
        kiln_make_status(KILN_STATUS_CANCELLED,
                         "device '%s' was released before the wait fence of "
                         "a submission was reached",
                         device->base.id));
    kiln_hal_queue_op_free(allocator, deferred->op);
    kiln_allocator_free(allocator, deferred);
  }
  kiln_hal_local_command_executor_deinitialize(&device->executor);
  for (size_t i = 0; i < device->loader_count; ++i) {
    kiln_hal_executable_loader_release(device->loaders[i]);
  }
  kiln_allocator_free(allocator, device->loaders);
  if (device->pool) kiln_ref_release(device->pool);
  pthread_cond_destroy(&device->queue_idle_cond);
  pthread_cond_destroy(&device->queue_cond);
  pthread_mutex_destroy(&device->queue_mutex);
  pthread_mutex_destroy(&device->execute_mutex);
  kiln_hal_device_deinitialize_base(&device->base);
  kiln_allocator_free(allocator, device);
}

static const kiln_hal_device_vtable_t kiln_hal_local_device_vtable = {
    kiln_hal_local_device_destroy,
    kiln_hal_local_device_create_executable_cache,
    kiln_hal_local_device_queue_execute,
    kiln_hal_local_device_queue_alloca,
    kiln_hal_local_device_queue_dealloca,
    kiln_hal_local_device_queue_flush,
    kiln_hal_local_device_profiling_begin,
    kiln_hal_local_device_profiling_end,
};

kiln_status_t kiln_hal_local_device_create(
    const kiln_hal_local_device_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device) {
  *out_device = NULL;
  kiln_hal_local_workgroup_runner_t runner = options->runner;
  kiln_hal_allocator_t* allocator = NULL;
  kiln_status_t status = kiln_hal_allocator_create_heap(
      kiln_make_cstring_view("HOST_LOCAL"), host_allocator, &allocator);
  kiln_hal_local_device_t* device = NULL;
  if (!status) {
    status =
        kiln_allocator_calloc(host_allocator, sizeof(*device), (void**)&device);
  }
  if (status) {
    kiln_hal_allocator_release(allocator);
    if (runner.destroy) runner.destroy(runner.self);
    return status;
  }
  kiln_hal_device_initialize_base(&device->base, &kiln_hal_local_device_vtable,
                                  options->id, allocator, host_allocator);
  kiln_hal_allocator_release(allocator);  // the device holds it
  pthread_mutex_init(&device->execute_mutex, NULL);
  pthread_mutex_init(&device->queue_mutex, NULL);
  pthread_cond_init(&device->queue_cond, NULL);
  pthread_cond_init(&device->queue_idle_cond, NULL);
  device->async_queue = options->async_queue;
  const kiln_hal_device_params_t* params = options->params;
  device->allow_native_executables = params && params->allow_native_executables;

  status = kiln_hal_local_command_executor_initialize(&device->executor, runner,
                                                      host_allocator);
  if (status) {
    // The executor took the runner; nothing else to undo but the device.
    device->executor.runner.destroy = NULL;
  }
  if (!status) {
    status = kiln_hal_transient_pool_create(device->base.device_allocator,
                                            host_allocator, &device->pool);
  }
  size_t extra = params ? params->executable_loader_count : 0;
  if (!status) {
    status = kiln_allocator_calloc(
        host_allocator, (extra + 1) * sizeof(kiln_hal_executable_loader_t*),
        (void**)&device->loaders);
  }
  for (size_t i = 0; !status && i < extra; ++i) {
    kiln_hal_executable_loader_retain(params->executable_loaders[i]);
    device->loaders[device->loader_count++] = params->executable_loaders[i];
  }
  if (!status) {
    status = kiln_hal_native_executable_loader_create(
        host_allocator, &device->loaders[device->loader_count]);
    if (!status) device->loader_count++;
  }
  if (!status && device->async_queue) {
    int rc = pthread_create(&device->thread, NULL,
                            kiln_hal_local_device_queue_main, device);
    if (rc != 0) {
      status = kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                "cannot start the queue thread of device '%s'",
                                options->id);
    } else {
      device->thread_started = true;
    }
  }
  if (status) {
    kiln_hal_local_device_destroy(&device->base);
    return status;
  }
  *out_device = &device->base;
  return kiln_ok_status();
}
