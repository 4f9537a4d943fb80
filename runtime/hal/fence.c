#include "runtime/hal/fence.h"

#include <string.h>

typedef struct kiln_hal_timepoint_t {
  kiln_hal_semaphore_t* semaphore;  // retained
  uint64_t value;
} kiln_hal_timepoint_t;

// Fences are built (insert/join) by one thread and then shared read-only;
// the semaphores inside carry all cross-thread synchronization.
struct kiln_hal_fence_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  size_t count;
  size_t capacity;
  kiln_hal_timepoint_t* timepoints;
};

static void kiln_hal_fence_destroy(void* object) {
  kiln_hal_fence_t* fence = (kiln_hal_fence_t*)object;
  for (size_t i = 0; i < fence->count; ++i) {
    kiln_hal_semaphore_release(fence->timepoints[i].semaphore);
  }
  kiln_allocator_free(fence->host_allocator, fence->timepoints);
  kiln_allocator_free(fence->host_allocator, fence);
}

const kiln_ref_type_t kiln_hal_fence_type = {"hal.fence",
                                             kiln_hal_fence_destroy};

kiln_status_t kiln_hal_fence_create(size_t capacity,
                                    kiln_allocator_t host_allocator,
                                    kiln_hal_fence_t** out_fence) {
  *out_fence = NULL;
  kiln_hal_fence_t* fence = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*fence), (void**)&fence));
  kiln_ref_object_initialize(&fence->ref, &kiln_hal_fence_type);
  fence->host_allocator = host_allocator;
  if (capacity) {
    kiln_status_t status = kiln_allocator_malloc(
        host_allocator, capacity * sizeof(kiln_hal_timepoint_t),
        (void**)&fence->timepoints);
    if (status) {
      kiln_allocator_free(host_allocator, fence);
      return status;
    }
    fence->capacity = capacity;
  }
  *out_fence = fence;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_fence_create_at(kiln_hal_semaphore_t* semaphore,
                                       uint64_t value,
                                       kiln_allocator_t host_allocator,
                                       kiln_hal_fence_t** out_fence) {
  KILN_RETURN_IF_ERROR(kiln_hal_fence_create(1, host_allocator, out_fence));
  kiln_status_t status = kiln_hal_fence_insert(*out_fence, semaphore, value);
  if (status) {
    kiln_hal_fence_release(*out_fence);
    *out_fence = NULL;
  }
  return status;
}

kiln_status_t kiln_hal_fence_insert(kiln_hal_fence_t* fence,
                                    kiln_hal_semaphore_t* semaphore,
                                    uint64_t value) {
  if (!semaphore) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "fence insert of a NULL semaphore");
  }
  for (size_t i = 0; i < fence->count; ++i) {
    if (fence->timepoints[i].semaphore == semaphore) {
      if (value > fence->timepoints[i].value) {
        fence->timepoints[i].value = value;
      }
      return kiln_ok_status();
    }
  }
  if (fence->count == fence->capacity) {
    size_t new_capacity = fence->capacity ? fence->capacity * 2 : 4;
    void* p = fence->timepoints;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        fence->host_allocator, new_capacity * sizeof(kiln_hal_timepoint_t),
        &p));
    fence->timepoints = (kiln_hal_timepoint_t*)p;
    fence->capacity = new_capacity;
  }
  kiln_hal_semaphore_retain(semaphore);
  fence->timepoints[fence->count].semaphore = semaphore;
  fence->timepoints[fence->count].value = value;
  fence->count++;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_fence_join(size_t fence_count,
                                  kiln_hal_fence_t* const* fences,
                                  kiln_allocator_t host_allocator,
                                  kiln_hal_fence_t** out_fence) {
  size_t total = 0;
  for (size_t i = 0; i < fence_count; ++i) {
    if (fences[i]) total += fences[i]->count;
  }
  KILN_RETURN_IF_ERROR(kiln_hal_fence_create(total, host_allocator, out_fence));
  for (size_t i = 0; i < fence_count; ++i) {
    if (!fences[i]) continue;
    for (size_t j = 0; j < fences[i]->count; ++j) {
      kiln_status_t status =
          kiln_hal_fence_insert(*out_fence, fences[i]->timepoints[j].semaphore,
                                fences[i]->timepoints[j].value);
      if (status) {
        kiln_hal_fence_release(*out_fence);
        *out_fence = NULL;
        return status;
      }
    }
  }
  return kiln_ok_status();
}

void kiln_hal_fence_retain(kiln_hal_fence_t* fence) {
  kiln_ref_retain(fence);
}
void kiln_hal_fence_release(kiln_hal_fence_t* fence) {
  kiln_ref_release(fence);
}

size_t kiln_hal_fence_timepoint_count(const kiln_hal_fence_t* fence) {
  return fence ? fence->count : 0;
}

void kiln_hal_fence_timepoint(const kiln_hal_fence_t* fence, size_t index,
                              kiln_hal_semaphore_t** out_semaphore,
                              uint64_t* out_value) {
  *out_semaphore = fence->timepoints[index].semaphore;
  *out_value = fence->timepoints[index].value;
}

kiln_status_t kiln_hal_fence_query(kiln_hal_fence_t* fence, bool* out_reached) {
  *out_reached = true;
  if (!fence) return kiln_ok_status();
  for (size_t i = 0; i < fence->count; ++i) {
    uint64_t value = 0;
    KILN_RETURN_IF_ERROR(
        kiln_hal_semaphore_query(fence->timepoints[i].semaphore, &value));
    if (value < fence->timepoints[i].value) *out_reached = false;
  }
  return kiln_ok_status();
}

kiln_status_t kiln_hal_fence_signal(kiln_hal_fence_t* fence) {
  if (!fence) return kiln_ok_status();
  for (size_t i = 0; i < fence->count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_hal_semaphore_signal(
        fence->timepoints[i].semaphore, fence->timepoints[i].value));
  }
  return kiln_ok_status();
}

void kiln_hal_fence_fail(kiln_hal_fence_t* fence, kiln_status_t status) {
  if (!status) {
    status = kiln_make_status(KILN_STATUS_ABORTED, "fence failed");
  }
  if (fence) {
    for (size_t i = 0; i < fence->count; ++i) {
      kiln_hal_semaphore_fail(fence->timepoints[i].semaphore,
                              kiln_status_clone(status));
    }
  }
  kiln_status_free(status);
}

kiln_status_t kiln_hal_fence_wait(kiln_hal_fence_t* fence,
                                  int64_t deadline_ns) {
  if (!fence) return kiln_ok_status();
  for (size_t i = 0; i < fence->count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_hal_semaphore_wait(fence->timepoints[i].semaphore,
                                                 fence->timepoints[i].value,
                                                 deadline_ns));
  }
  return kiln_ok_status();
}
