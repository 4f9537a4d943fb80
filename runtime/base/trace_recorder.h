// A trace sink that records events in per-thread buffers and writes them as
// Chrome trace-event JSON (what ui.perfetto.dev and chrome://tracing open).
//
//   kiln_trace_recorder_t* recorder = NULL;
//   KILN_RETURN_IF_ERROR(kiln_trace_recorder_create(NULL, allocator,
//                                                   &recorder));
//   kiln_trace_recorder_start(recorder);      // installs it process-wide
//   ... run traced work (any number of threads) ...
//   kiln_trace_recorder_stop(recorder);       // uninstalls it
//   status = kiln_trace_recorder_write_file(recorder, "trace.json");
//   kiln_trace_recorder_release(recorder);
//
// Ownership: the caller owns the recorder and releases it exactly once; the
// recorder owns every buffer it filled. Names given as static strings are
// used by pointer; dynamic names are copied.
//
// Threading: start, stop, write and release are for one controlling thread.
// Events may come from any thread while the recorder is started: each thread
// appends to its own buffer without locks (a mutex is taken once, when a
// thread sends its first event to this recorder). Writing while events are
// still coming in is allowed and sees a consistent prefix of every thread's
// events (zones still open are left out). Release only after stop, once no
// thread can still be inside a traced call (e.g. after joining the worker
// threads, or after the work that used them has finished).
//
// Output: one complete ("X") event per closed zone with its args, counter
// ("C") events, instant ("i") events for messages, and metadata naming the
// process and each thread. Timestamps are microseconds (with nanosecond
// decimals) from the recorder's creation on the monotonic clock.
#ifndef KILN_RUNTIME_BASE_TRACE_RECORDER_H_
#define KILN_RUNTIME_BASE_TRACE_RECORDER_H_

#include <stdint.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/tracing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_trace_recorder_t kiln_trace_recorder_t;

typedef struct kiln_trace_recorder_options_t {
  // Shown as the process name (copied; NULL for "kiln").
  const char* process_name;
  // Events beyond this many buffered bytes are dropped (counted in
  // kiln_trace_recorder_dropped_event_count); 0 for 256 MiB.
  size_t max_buffer_bytes;
  // Buffer memory allocated and written once at creation, so that the
  // first events do not pay for touching new pages (several microseconds
  // per page on a virtual machine); 0 for 4 MiB (about 100,000 zones).
  size_t preallocate_bytes;
} kiln_trace_recorder_options_t;

// Creates a stopped recorder. |options| may be NULL for the defaults.
kiln_status_t kiln_trace_recorder_create(
    const kiln_trace_recorder_options_t* options, kiln_allocator_t allocator,
    kiln_trace_recorder_t** out_recorder);

// Installs the recorder as the process-wide sink (kiln_trace_set_sink).
void kiln_trace_recorder_start(kiln_trace_recorder_t* recorder);

// Removes the recorder if it is the installed sink.
void kiln_trace_recorder_stop(kiln_trace_recorder_t* recorder);

// The recorder's sink, to chain or install by hand.
const kiln_trace_sink_t* kiln_trace_recorder_sink(
    kiln_trace_recorder_t* recorder);

// Events dropped because the buffers were full.
uint64_t kiln_trace_recorder_dropped_event_count(
    kiln_trace_recorder_t* recorder);

// Writes every recorded event as one JSON object to |stream|.
kiln_status_t kiln_trace_recorder_write_json(kiln_trace_recorder_t* recorder,
                                             FILE* stream);

// As above, to the file at |path| (created or truncated).
kiln_status_t kiln_trace_recorder_write_file(kiln_trace_recorder_t* recorder,
                                             const char* path);

// Stops the recorder if started and frees it with all its buffers (NULL is
// a no-op).
void kiln_trace_recorder_release(kiln_trace_recorder_t* recorder);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_TRACE_RECORDER_H_
