#include "runtime/base/tracing.h"

#include <stddef.h>

#include "runtime/base/atomics.h"
#include "runtime/base/time.h"

// Tracing is the one process-wide hook in kiln: a profiler attaches to the
// whole process, not to one runtime instance.
static kiln_atomic_ptr(const kiln_trace_sink_t*) kiln_trace_sink = NULL;
static kiln_atomic_uint64_t kiln_trace_next_zone_id = 1;

void kiln_trace_set_sink(const kiln_trace_sink_t* sink) {
  kiln_atomic_store_release(&kiln_trace_sink, sink);
}

kiln_trace_zone_t kiln_trace_zone_begin_impl(const char* name, const char* file,
                                             int line) {
  kiln_trace_zone_t zone = {0, 0};
  const kiln_trace_sink_t* sink = kiln_atomic_load_acquire(&kiln_trace_sink);
  if (!sink) return zone;
  zone.id = kiln_atomic_fetch_add_relaxed(&kiln_trace_next_zone_id, 1);
  zone.start_ns = kiln_time_now_ns();
  if (sink->zone_begin) {
    sink->zone_begin(sink->user_data, zone.id, name, file, line);
  }
  return zone;
}

void kiln_trace_zone_end_impl(kiln_trace_zone_t zone) {
  if (!zone.id) return;
  const kiln_trace_sink_t* sink = kiln_atomic_load_acquire(&kiln_trace_sink);
  if (sink && sink->zone_end) {
    sink->zone_end(sink->user_data, zone.id,
                   kiln_time_now_ns() - zone.start_ns);
  }
}

void kiln_trace_zone_value_impl(kiln_trace_zone_t zone, int64_t value) {
  if (!zone.id) return;
  const kiln_trace_sink_t* sink = kiln_atomic_load_acquire(&kiln_trace_sink);
  if (sink && sink->zone_value)
    sink->zone_value(sink->user_data, zone.id, value);
}

void kiln_trace_message_impl(const char* text) {
  const kiln_trace_sink_t* sink = kiln_atomic_load_acquire(&kiln_trace_sink);
  if (sink && sink->message) sink->message(sink->user_data, text);
}
