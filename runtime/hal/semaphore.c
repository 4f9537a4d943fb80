#include "runtime/hal/semaphore.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <time.h>

struct kiln_hal_semaphore_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  uint64_t value;
  kiln_status_t failure;                       // owned; NULL while healthy
  kiln_hal_semaphore_timepoint_t* timepoints;  // registered, not yet fired
};

// Unlinks the timepoints |semaphore| now satisfies (all of them once it
// failed), in registration order. Called with the mutex held.
static kiln_hal_semaphore_timepoint_t* kiln_hal_semaphore_take_reached(
    kiln_hal_semaphore_t* semaphore) {
  kiln_hal_semaphore_timepoint_t* reached = NULL;
  kiln_hal_semaphore_timepoint_t** reached_tail = &reached;
  kiln_hal_semaphore_timepoint_t** link = &semaphore->timepoints;
  while (*link) {
    kiln_hal_semaphore_timepoint_t* timepoint = *link;
    if (semaphore->failure || timepoint->value <= semaphore->value) {
      *link = timepoint->next;
      timepoint->next = NULL;
      *reached_tail = timepoint;
      reached_tail = &timepoint->next;
    } else {
      link = &timepoint->next;
    }
  }
  return reached;
}

// Runs unlinked timepoints with the mutex released: a callback may signal
// this or another semaphore. |failure| is borrowed.
static void kiln_hal_semaphore_fire(kiln_hal_semaphore_timepoint_t* timepoint,
                                    kiln_status_t failure) {
  while (timepoint) {
    kiln_hal_semaphore_timepoint_t* next = timepoint->next;
    timepoint->callback(timepoint->user_data, failure);
    timepoint = next;
  }
}

int64_t kiln_hal_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int64_t kiln_hal_deadline_after_ns(int64_t timeout_ns) {
  if (timeout_ns < 0) return KILN_HAL_INFINITE_DEADLINE;
  int64_t now = kiln_hal_now_ns();
  if (timeout_ns > KILN_HAL_INFINITE_DEADLINE - now) {
    return KILN_HAL_INFINITE_DEADLINE;
  }
  return now + timeout_ns;
}

static void kiln_hal_semaphore_destroy(void* object) {
  kiln_hal_semaphore_t* semaphore = (kiln_hal_semaphore_t*)object;
  kiln_status_free(semaphore->failure);
  pthread_cond_destroy(&semaphore->cond);
  pthread_mutex_destroy(&semaphore->mutex);
  kiln_allocator_free(semaphore->host_allocator, semaphore);
}

const kiln_ref_type_t kiln_hal_semaphore_type = {"hal.semaphore",
                                                 kiln_hal_semaphore_destroy};

kiln_status_t kiln_hal_semaphore_create(uint64_t initial_value,
                                        kiln_allocator_t host_allocator,
                                        kiln_hal_semaphore_t** out_semaphore) {
  *out_semaphore = NULL;
  kiln_hal_semaphore_t* semaphore = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(host_allocator, sizeof(*semaphore),
                                             (void**)&semaphore));
  kiln_ref_object_initialize(&semaphore->ref, &kiln_hal_semaphore_type);
  semaphore->host_allocator = host_allocator;
  pthread_mutex_init(&semaphore->mutex, NULL);
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&semaphore->cond, &attr);
  pthread_condattr_destroy(&attr);
  semaphore->value = initial_value;
  *out_semaphore = semaphore;
  return kiln_ok_status();
}

void kiln_hal_semaphore_retain(kiln_hal_semaphore_t* semaphore) {
  kiln_ref_retain(semaphore);
}
void kiln_hal_semaphore_release(kiln_hal_semaphore_t* semaphore) {
  kiln_ref_release(semaphore);
}

kiln_status_t kiln_hal_semaphore_query(kiln_hal_semaphore_t* semaphore,
                                       uint64_t* out_value) {
  pthread_mutex_lock(&semaphore->mutex);
  *out_value = semaphore->value;
  kiln_status_t status = kiln_status_clone(semaphore->failure);
  pthread_mutex_unlock(&semaphore->mutex);
  return status;
}

kiln_status_t kiln_hal_semaphore_signal(kiln_hal_semaphore_t* semaphore,
                                        uint64_t new_value) {
  pthread_mutex_lock(&semaphore->mutex);
  kiln_status_t status = NULL;
  kiln_hal_semaphore_timepoint_t* reached = NULL;
  if (semaphore->failure) {
    status = kiln_status_clone(semaphore->failure);
  } else if (new_value <= semaphore->value) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "semaphore signal to %" PRIu64
                              " does not advance the current value %" PRIu64,
                              new_value, semaphore->value);
  } else {
    semaphore->value = new_value;
    pthread_cond_broadcast(&semaphore->cond);
    reached = kiln_hal_semaphore_take_reached(semaphore);
  }
  pthread_mutex_unlock(&semaphore->mutex);
  kiln_hal_semaphore_fire(reached, NULL);
  return status;
}

void kiln_hal_semaphore_fail(kiln_hal_semaphore_t* semaphore,
                             kiln_status_t status) {
  if (!status) {
    status = kiln_make_status(KILN_STATUS_ABORTED, "semaphore failed");
  }
  pthread_mutex_lock(&semaphore->mutex);
  kiln_hal_semaphore_timepoint_t* reached = NULL;
  if (!semaphore->failure) {
    semaphore->failure = status;
    status = NULL;
    pthread_cond_broadcast(&semaphore->cond);
    reached = kiln_hal_semaphore_take_reached(semaphore);
  }
  // The failure stays set for the semaphore's lifetime and the semaphore
  // outlives this call (the caller holds a reference), so it can be lent.
  kiln_status_t failure = semaphore->failure;
  pthread_mutex_unlock(&semaphore->mutex);
  kiln_hal_semaphore_fire(reached, failure);
  kiln_status_free(status);  // a later failure loses to the first
}

kiln_status_t kiln_hal_semaphore_wait(kiln_hal_semaphore_t* semaphore,
                                      uint64_t value, int64_t deadline_ns) {
  pthread_mutex_lock(&semaphore->mutex);
  kiln_status_t status = NULL;
  for (;;) {
    if (semaphore->failure) {
      status = kiln_status_clone(semaphore->failure);
      break;
    }
    if (semaphore->value >= value) break;
    if (deadline_ns == KILN_HAL_INFINITE_DEADLINE) {
      pthread_cond_wait(&semaphore->cond, &semaphore->mutex);
      continue;
    }
    if (deadline_ns == KILN_HAL_IMMEDIATE_DEADLINE ||
        kiln_hal_now_ns() >= deadline_ns) {
      status = kiln_make_status(KILN_STATUS_DEADLINE_EXCEEDED,
                                "semaphore wait for value %" PRIu64
                                " timed out at value %" PRIu64,
                                value, semaphore->value);
      break;
    }
    struct timespec ts = {(time_t)(deadline_ns / 1000000000ll),
                          (long)(deadline_ns % 1000000000ll)};
    pthread_cond_timedwait(&semaphore->cond, &semaphore->mutex, &ts);
  }
  pthread_mutex_unlock(&semaphore->mutex);
  return status;
}

bool kiln_hal_semaphore_add_timepoint(
    kiln_hal_semaphore_t* semaphore,
    kiln_hal_semaphore_timepoint_t* timepoint) {
  pthread_mutex_lock(&semaphore->mutex);
  bool added = !semaphore->failure && semaphore->value < timepoint->value;
  if (added) {
    // Appended, so that timepoints for one value fire in registration order
    // (a device's deferred submissions keep their order).
    kiln_hal_semaphore_timepoint_t** link = &semaphore->timepoints;
    while (*link) link = &(*link)->next;
    timepoint->next = NULL;
    *link = timepoint;
  }
  pthread_mutex_unlock(&semaphore->mutex);
  return added;
}

bool kiln_hal_semaphore_cancel_timepoint(
    kiln_hal_semaphore_t* semaphore,
    kiln_hal_semaphore_timepoint_t* timepoint) {
  pthread_mutex_lock(&semaphore->mutex);
  bool removed = false;
  for (kiln_hal_semaphore_timepoint_t** link = &semaphore->timepoints; *link;
       link = &(*link)->next) {
    if (*link == timepoint) {
      *link = timepoint->next;
      timepoint->next = NULL;
      removed = true;
      break;
    }
  }
  pthread_mutex_unlock(&semaphore->mutex);
  return removed;
}
