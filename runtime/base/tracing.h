// Tracing hooks that compile away.
//
// Instrument code with zones:
//   KILN_TRACE_ZONE_BEGIN(z0);                 // named after the function
//   KILN_TRACE_ZONE_BEGIN_NAMED(z1, "decode");  // a string literal
//   KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z2, name, length);  // copied
//   KILN_TRACE_ZONE_APPEND_VALUE_I64(z1, count);       // arg "value"
//   KILN_TRACE_ZONE_APPEND_ARG_I64(z1, "bytes", n);    // a named arg
//   KILN_TRACE_ZONE_END(z2);
//   KILN_TRACE_ZONE_END(z1);
//   KILN_TRACE_ZONE_END(z0);
//   KILN_TRACE_COUNTER_I64("hal.allocator", "live_bytes", bytes);
//   KILN_TRACE_MESSAGE("loaded module");
// Zones nest: end them on the thread that began them, innermost first.
// Names, keys and counter names given as `const char*` (not the _DYNAMIC
// form) must be string literals or otherwise live as long as the process.
//
// KILN_ENABLE_TRACING (the CMake option of the same name, on by default)
// compiles the hooks in; without it every macro expands to nothing and the
// zone variables do not exist (keep tracing-only code inside KILN_TRACE(...)).
// Compiled in, an event is one call that loads the installed sink and returns
// when there is none. With a sink installed (kiln_trace_set_sink, or a
// kiln_trace_recorder_t from runtime/base/trace_recorder.h, which writes
// Chrome trace-event JSON) each event reads the monotonic clock and is passed
// on. The functions below always exist in kiln_base, so one translation unit
// may enable tracing while others do not.
#ifndef KILN_RUNTIME_BASE_TRACING_H_
#define KILN_RUNTIME_BASE_TRACING_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Sink
//===----------------------------------------------------------------------===//

// Receives trace events; |time_ns| is kiln_time_now_ns (CLOCK_MONOTONIC).
// Any callback may be NULL. Called concurrently from every thread that emits
// events, each thread's events in order: implementations must be
// thread-safe (per-thread state keyed on the calling thread is enough, since
// a zone begins and ends on one thread).
typedef struct kiln_trace_sink_t {
  void* user_data;
  // A zone opened on the calling thread. |name| has |name_length| bytes (no
  // NUL needed); when |name_is_static| it lives forever, otherwise it is
  // valid only during the call (copy it).
  void (*zone_begin)(void* user_data, const char* name, size_t name_length,
                     int name_is_static, const char* file, int line,
                     int64_t time_ns);
  // The innermost open zone of the calling thread closed.
  void (*zone_end)(void* user_data, int64_t time_ns);
  // A named integer attached to the innermost open zone of the calling
  // thread (|key| is static).
  void (*zone_arg)(void* user_data, const char* key, int64_t value);
  // A sample of counter |name|'s series |series| (both static).
  void (*counter)(void* user_data, const char* name, const char* series,
                  int64_t value, int64_t time_ns);
  // A free-standing message (valid during the call only).
  void (*message)(void* user_data, const char* text, int64_t time_ns);
} kiln_trace_sink_t;

// Installs |sink| for every thread; NULL removes it. The sink is used by
// pointer and must stay valid until it is replaced and no traced work is
// running. Install before starting traced work and remove after it ends:
// events racing with the change may go to either sink, and a zone is only
// ended in the sink it began in.
void kiln_trace_set_sink(const kiln_trace_sink_t* sink);

// The installed sink, or NULL.
const kiln_trace_sink_t* kiln_trace_current_sink(void);

// Names the calling thread in traces (copied; at most 63 bytes kept). Threads
// made by kiln_thread_create are named after their kiln name; others default
// to their system name.
void kiln_trace_set_thread_name(const char* name);
// The calling thread's trace name ("" if none was set).
const char* kiln_trace_thread_name(void);

//===----------------------------------------------------------------------===//
// Implementation hooks used by the macros (not called directly)
//===----------------------------------------------------------------------===//

typedef struct kiln_trace_zone_t {
  // The sink the zone began in; NULL when none was installed.
  const kiln_trace_sink_t* sink;
} kiln_trace_zone_t;

kiln_trace_zone_t kiln_trace_zone_begin_impl(const char* name, const char* file,
                                             int line);
kiln_trace_zone_t kiln_trace_zone_begin_dynamic_impl(const char* name,
                                                     size_t name_length,
                                                     const char* file,
                                                     int line);
void kiln_trace_zone_end_impl(kiln_trace_zone_t zone);
void kiln_trace_zone_arg_impl(kiln_trace_zone_t zone, const char* key,
                              int64_t value);
void kiln_trace_counter_impl(const char* name, const char* series,
                             int64_t value);
void kiln_trace_message_impl(const char* text);

//===----------------------------------------------------------------------===//
// Macros
//===----------------------------------------------------------------------===//

#if defined(KILN_ENABLE_TRACING)
#define KILN_TRACE(...) __VA_ARGS__
#define KILN_TRACE_ZONE_BEGIN(zone) \
  kiln_trace_zone_t zone =          \
      kiln_trace_zone_begin_impl(__func__, __FILE__, __LINE__)
#define KILN_TRACE_ZONE_BEGIN_NAMED(zone, name) \
  kiln_trace_zone_t zone =                      \
      kiln_trace_zone_begin_impl((name), __FILE__, __LINE__)
#define KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(zone, name, length) \
  kiln_trace_zone_t zone = kiln_trace_zone_begin_dynamic_impl(  \
      (name), (size_t)(length), __FILE__, __LINE__)
#define KILN_TRACE_ZONE_APPEND_VALUE_I64(zone, value) \
  kiln_trace_zone_arg_impl((zone), "value", (int64_t)(value))
#define KILN_TRACE_ZONE_APPEND_ARG_I64(zone, key, value) \
  kiln_trace_zone_arg_impl((zone), (key), (int64_t)(value))
#define KILN_TRACE_ZONE_END(zone) kiln_trace_zone_end_impl(zone)
#define KILN_TRACE_COUNTER_I64(name, series, value) \
  kiln_trace_counter_impl((name), (series), (int64_t)(value))
#define KILN_TRACE_MESSAGE(text) kiln_trace_message_impl(text)
#else
#define KILN_TRACE(...)
#define KILN_TRACE_ZONE_BEGIN(zone)
#define KILN_TRACE_ZONE_BEGIN_NAMED(zone, name)
#define KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(zone, name, length)
#define KILN_TRACE_ZONE_APPEND_VALUE_I64(zone, value)
#define KILN_TRACE_ZONE_APPEND_ARG_I64(zone, key, value)
#define KILN_TRACE_ZONE_END(zone)
#define KILN_TRACE_COUNTER_I64(name, series, value)
#define KILN_TRACE_MESSAGE(text)
#endif  // KILN_ENABLE_TRACING

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_TRACING_H_
