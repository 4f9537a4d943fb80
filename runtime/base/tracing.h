// Tracing hooks that compile away.
//
// Instrument code with zones:
//   KILN_TRACE_ZONE_BEGIN(z0);                 // named after the function
//   KILN_TRACE_ZONE_BEGIN_NAMED(z1, "decode");  // explicit name
//   KILN_TRACE_ZONE_APPEND_VALUE_I64(z1, count);
//   KILN_TRACE_ZONE_END(z1);
//   KILN_TRACE_ZONE_END(z0);
//   KILN_TRACE_MESSAGE("loaded module");
// Unless KILN_ENABLE_TRACING is defined (to anything) when this header is
// included, every macro expands to nothing and the zone variables do not
// exist; keep tracing-only code inside KILN_TRACE(...). When enabled, each
// event is forwarded to the process-wide sink installed with
// kiln_trace_set_sink (none by default: events are dropped). The functions
// below always exist in kiln_base, so one translation unit may enable
// tracing while others do not.
#ifndef KILN_RUNTIME_BASE_TRACING_H_
#define KILN_RUNTIME_BASE_TRACING_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Sink
//===----------------------------------------------------------------------===//

// Receives trace events. Any callback may be NULL. Called concurrently from
// every thread that emits events: implementations must be thread-safe.
typedef struct kiln_trace_sink_t {
  void* user_data;
  // A zone opened; |zone_id| is unique per process and passed to later
  // events of the zone.
  void (*zone_begin)(void* user_data, uint64_t zone_id, const char* name,
                     const char* file, int line);
  // A zone closed after |duration_ns| nanoseconds (monotonic clock).
  void (*zone_end)(void* user_data, uint64_t zone_id, int64_t duration_ns);
  // A value attached to an open zone.
  void (*zone_value)(void* user_data, uint64_t zone_id, int64_t value);
  // A free-standing message.
  void (*message)(void* user_data, const char* text);
} kiln_trace_sink_t;

// Installs |sink| for every thread; NULL removes it. The sink is used by
// pointer and must stay valid until it is replaced. Install before starting
// traced work and remove after it ends: events racing with the change may go
// to either sink.
void kiln_trace_set_sink(const kiln_trace_sink_t* sink);

//===----------------------------------------------------------------------===//
// Implementation hooks used by the macros (not called directly)
//===----------------------------------------------------------------------===//

typedef struct kiln_trace_zone_t {
  uint64_t id;  // 0 when no sink was installed at begin
  int64_t start_ns;
} kiln_trace_zone_t;

kiln_trace_zone_t kiln_trace_zone_begin_impl(const char* name, const char* file,
                                             int line);
void kiln_trace_zone_end_impl(kiln_trace_zone_t zone);
void kiln_trace_zone_value_impl(kiln_trace_zone_t zone, int64_t value);
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
#define KILN_TRACE_ZONE_APPEND_VALUE_I64(zone, value) \
  kiln_trace_zone_value_impl((zone), (int64_t)(value))
#define KILN_TRACE_ZONE_END(zone) kiln_trace_zone_end_impl(zone)
#define KILN_TRACE_MESSAGE(text) kiln_trace_message_impl(text)
#else
#define KILN_TRACE(...)
#define KILN_TRACE_ZONE_BEGIN(zone)
#define KILN_TRACE_ZONE_BEGIN_NAMED(zone, name)
#define KILN_TRACE_ZONE_APPEND_VALUE_I64(zone, value)
#define KILN_TRACE_ZONE_END(zone)
#define KILN_TRACE_MESSAGE(text)
#endif  // KILN_ENABLE_TRACING

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_TRACING_H_
