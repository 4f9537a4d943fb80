#include "runtime/base/threads.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/tracing.h"

struct kiln_thread_t {
  kiln_allocator_t allocator;
  pthread_t handle;
  kiln_thread_entry_t entry;
  void* arg;
  int result;
  bool joined;
  char name[16];
  char trace_name[64];  // the untruncated name, for traces
};

static void* kiln_thread_start(void* opaque) {
  kiln_thread_t* thread = (kiln_thread_t*)opaque;
  if (thread->name[0]) kiln_thread_set_current_name(thread->name);
  if (thread->trace_name[0]) kiln_trace_set_thread_name(thread->trace_name);
  thread->result = thread->entry(thread->arg);
  return NULL;
}

kiln_status_t kiln_thread_create(const char* name, kiln_thread_entry_t entry,
                                 void* arg, kiln_allocator_t allocator,
                                 kiln_thread_t** out_thread) {
  *out_thread = NULL;
  KILN_RETURN_IF_FALSE(entry != NULL, KILN_STATUS_INVALID_ARGUMENT,
                       "kiln_thread_create: entry function is NULL");
  kiln_thread_t* thread = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*thread), (void**)&thread));
  thread->allocator = allocator;
  thread->entry = entry;
  thread->arg = arg;
  if (name) {
    strncpy(thread->name, name, sizeof(thread->name) - 1);
    thread->name[sizeof(thread->name) - 1] = 0;
    strncpy(thread->trace_name, name, sizeof(thread->trace_name) - 1);
  }
  int rc = pthread_create(&thread->handle, NULL, kiln_thread_start, thread);
  if (rc != 0) {
    kiln_allocator_free(allocator, thread);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "kiln_thread_create: pthread_create failed for "
                            "thread '%s': %s",
                            name ? name : "", strerror(rc));
  }
  *out_thread = thread;
  return kiln_ok_status();
}

void kiln_thread_join(kiln_thread_t* thread, int* out_result) {
  if (!thread->joined) {
    pthread_join(thread->handle, NULL);
    thread->joined = true;
  }
  if (out_result) *out_result = thread->result;
}

void kiln_thread_release(kiln_thread_t* thread) {
  if (!thread) return;
  kiln_thread_join(thread, NULL);
  kiln_allocator_free(thread->allocator, thread);
}

const char* kiln_thread_name(const kiln_thread_t* thread) {
  return thread->name;
}

kiln_status_t kiln_thread_set_affinity(kiln_thread_t* thread,
                                       uint32_t cpu_index) {
#if defined(__linux__)
  long configured = sysconf(_SC_NPROCESSORS_CONF);
  if (cpu_index >= CPU_SETSIZE ||
      (configured > 0 && cpu_index >= (uint32_t)configured)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "kiln_thread_set_affinity: CPU %u does not exist "
                            "(%ld configured) for thread '%s'",
                            cpu_index, configured, thread->name);
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu_index, &set);
  int rc = pthread_setaffinity_np(thread->handle, sizeof(set), &set);
  if (rc != 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "kiln_thread_set_affinity: cannot pin thread '%s' "
                            "to CPU %u: %s",
                            thread->name, cpu_index, strerror(rc));
  }
  return kiln_ok_status();
#else
  return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                          "kiln_thread_set_affinity: unsupported platform");
#endif
}

void kiln_thread_set_current_name(const char* name) {
  char buffer[16];
  strncpy(buffer, name ? name : "", sizeof(buffer) - 1);
  buffer[sizeof(buffer) - 1] = 0;
#if defined(__linux__)
  pthread_setname_np(pthread_self(), buffer);
#endif
}

void kiln_thread_yield(void) {
  sched_yield();
}

uint32_t kiln_cpu_count(void) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0) return (uint32_t)count;
  }
#endif
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? (uint32_t)online : 1;
}
