#include "runtime/base/tracing.h"

#include <string.h>

#include "runtime/base/atomics.h"
#include "runtime/base/time.h"

// Tracing is the one process-wide hook in kiln: a profiler attaches to the
// whole process, not to one runtime instance.
static kiln_atomic_ptr(const kiln_trace_sink_t*) kiln_trace_sink = NULL;

// The trace name of the calling thread (kiln_trace_set_thread_name).
static _Thread_local char kiln_trace_tls_thread_name[64];

void kiln_trace_set_sink(const kiln_trace_sink_t* sink) {
  kiln_atomic_store_release(&kiln_trace_sink, sink);
}

const kiln_trace_sink_t* kiln_trace_current_sink(void) {
  return kiln_atomic_load_acquire(&kiln_trace_sink);
}

void kiln_trace_set_thread_name(const char* name) {
  size_t n = name ? strlen(name) : 0;
  if (n >= sizeof(kiln_trace_tls_thread_name)) {
    n = sizeof(kiln_trace_tls_thread_name) - 1;
  }
  if (n) memcpy(kiln_trace_tls_thread_name, name, n);
  kiln_trace_tls_thread_name[n] = 0;
}

const char* kiln_trace_thread_name(void) {
  return kiln_trace_tls_thread_name;
}

kiln_trace_zone_t kiln_trace_zone_begin_impl(const char* name, const char* file,
                                             int line) {
  kiln_trace_zone_t zone = {kiln_atomic_load_acquire(&kiln_trace_sink)};
  if (zone.sink && zone.sink->zone_begin) {
    zone.sink->zone_begin(zone.sink->user_data, name, strlen(name), 1, file,
                          line, kiln_time_now_ns());
  }
  return zone;
}

kiln_trace_zone_t kiln_trace_zone_begin_dynamic_impl(const char* name,
                                                     size_t name_length,
                                                     const char* file,
                                                     int line) {
  kiln_trace_zone_t zone = {kiln_atomic_load_acquire(&kiln_trace_sink)};
  if (zone.sink && zone.sink->zone_begin) {
    zone.sink->zone_begin(zone.sink->user_data, name, name_length, 0, file,
                          line, kiln_time_now_ns());
  }
  return zone;
}

// A zone ends only in the sink it began in, so that a sink swapped while a
// zone was open never sees an end without its begin.
void kiln_trace_zone_end_impl(kiln_trace_zone_t zone) {
  if (!zone.sink) return;
  if (kiln_atomic_load_acquire(&kiln_trace_sink) != zone.sink) return;
  if (zone.sink->zone_end) {
    zone.sink->zone_end(zone.sink->user_data, kiln_time_now_ns());
  }
}

void kiln_trace_zone_arg_impl(kiln_trace_zone_t zone, const char* key,
                              int64_t value) {
  if (!zone.sink) return;
  if (kiln_atomic_load_acquire(&kiln_trace_sink) != zone.sink) return;
  if (zone.sink->zone_arg)
    zone.sink->zone_arg(zone.sink->user_data, key, value);
}

void kiln_trace_counter_impl(const char* name, const char* series,
                             int64_t value) {
  const kiln_trace_sink_t* sink = kiln_atomic_load_acquire(&kiln_trace_sink);
  if (sink && sink->counter) {
    sink->counter(sink->user_data, name, series, value, kiln_time_now_ns());
  }
}

void kiln_trace_message_impl(const char* text) {
  const kiln_trace_sink_t* sink = kiln_atomic_load_acquire(&kiln_trace_sink);
  if (sink && sink->message) {
    sink->message(sink->user_data, text, kiln_time_now_ns());
  }
}
