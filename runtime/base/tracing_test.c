// Tracing enabled in this translation unit whatever the build says.
#ifndef KILN_ENABLE_TRACING
#define KILN_ENABLE_TRACING 1
#endif
#include "runtime/base/tracing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/atomics.h"
#include "runtime/base/threads.h"
#include "runtime/base/trace_recorder.h"
#include "runtime/testing/test.h"

typedef struct recorder_t {
  int begins, ends, args, counters, messages;
  char last_name[64];
  int last_static;
  int64_t last_value, last_begin_ns, last_end_ns;
} recorder_t;

static void on_begin(void* user, const char* name, size_t length, int is_static,
                     const char* file, int line, int64_t time_ns) {
  recorder_t* r = (recorder_t*)user;
  ++r->begins;
  snprintf(r->last_name, sizeof(r->last_name), "%.*s", (int)length, name);
  r->last_static = is_static;
  r->last_begin_ns = time_ns;
  (void)file, (void)line;
}
static void on_end(void* user, int64_t time_ns) {
  recorder_t* r = (recorder_t*)user;
  ++r->ends;
  r->last_end_ns = time_ns;
}
static void on_arg(void* user, const char* key, int64_t value) {
  recorder_t* r = (recorder_t*)user;
  ++r->args;
  r->last_value = value;
  (void)key;
}
static void on_counter(void* user, const char* name, const char* series,
                       int64_t value, int64_t time_ns) {
  recorder_t* r = (recorder_t*)user;
  ++r->counters;
  r->last_value = value;
  (void)name, (void)series, (void)time_ns;
}
static void on_message(void* user, const char* text, int64_t time_ns) {
  recorder_t* r = (recorder_t*)user;
  ++r->messages;
  (void)text, (void)time_ns;
}

static void traced_function(void) {
  KILN_TRACE_ZONE_BEGIN(z0);
  KILN_TRACE_ZONE_APPEND_VALUE_I64(z0, 42);
  KILN_TRACE_ZONE_END(z0);
}

KILN_TEST(zones_reach_the_sink) {
  recorder_t r;
  memset(&r, 0, sizeof(r));
  kiln_trace_sink_t sink = {&r,     on_begin,   on_end,
                            on_arg, on_counter, on_message};
  kiln_trace_set_sink(&sink);
  traced_function();
  KILN_EXPECT_EQ_INT(r.begins, 1);
  KILN_EXPECT_STREQ(r.last_name, "traced_function");
  KILN_EXPECT_EQ_INT(r.last_static, 1);
  KILN_EXPECT_EQ_INT(r.args, 1);
  KILN_EXPECT_EQ_INT(r.last_value, 42);
  KILN_EXPECT_EQ_INT(r.ends, 1);
  KILN_EXPECT_TRUE(r.last_end_ns >= r.last_begin_ns);
  char dynamic[] = "dynamic-name-xyz";
  KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z1, dynamic, 12);
  KILN_TRACE_ZONE_END(z1);
  KILN_EXPECT_STREQ(r.last_name, "dynamic-name");
  KILN_EXPECT_EQ_INT(r.last_static, 0);
  KILN_TRACE_COUNTER_I64("memory", "live_bytes", 7);
  KILN_EXPECT_EQ_INT(r.counters, 1);
  KILN_EXPECT_EQ_INT(r.last_value, 7);
  KILN_TRACE_MESSAGE("hello");
  KILN_EXPECT_EQ_INT(r.messages, 1);
  int traced_only = 0;
  KILN_TRACE(traced_only = 1;)
  KILN_EXPECT_EQ_INT(traced_only, 1);

  // A zone open while the sink is removed never ends in another sink.
  KILN_TRACE_ZONE_BEGIN_NAMED(z2, "straddles");
  kiln_trace_set_sink(NULL);
  KILN_TRACE_ZONE_END(z2);
  KILN_EXPECT_EQ_INT(r.ends, 2);
  traced_function();  // dropped without a sink
  KILN_EXPECT_EQ_INT(r.begins, 3);
}

// Counts occurrences of |needle| in |text|.
static int count_of(const char* text, const char* needle) {
  int n = 0;
  for (const char* p = strstr(text, needle); p; p = strstr(p + 1, needle)) ++n;
  return n;
}

static char* write_to_string(kiln_trace_recorder_t* recorder) {
  char* text = NULL;
  size_t size = 0;
  FILE* stream = open_memstream(&text, &size);
  if (!stream) return NULL;
  kiln_status_t status = kiln_trace_recorder_write_json(recorder, stream);
  fclose(stream);
  if (status) {
    kiln_status_free(status);
    free(text);
    return NULL;
  }
  return text;
}

#define KILN_TEST_ZONES_PER_THREAD 3000

static int emit_zones(void* arg) {
  (void)arg;
  for (int i = 0; i < KILN_TEST_ZONES_PER_THREAD; ++i) {
    KILN_TRACE_ZONE_BEGIN_NAMED(outer, "worker_outer");
    KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(inner, "worker_inner!", 12);
    KILN_TRACE_ZONE_APPEND_ARG_I64(inner, "i", i);
    KILN_TRACE_ZONE_END(inner);
    KILN_TRACE_ZONE_END(outer);
  }
  return 0;
}

// Two threads and the main thread record at once (each into its own buffer)
// while the main thread writes snapshots: under TSan this checks that the
// buffers are published safely.
KILN_TEST(recorder_writes_every_thread) {
  kiln_trace_recorder_options_t options = {"tracing_test", 0, 0};
  kiln_trace_recorder_t* recorder = NULL;
  KILN_ASSERT_OK(
      kiln_trace_recorder_create(&options, kiln_allocator_system(), &recorder));
  kiln_trace_recorder_start(recorder);
  kiln_thread_t* threads[2] = {NULL, NULL};
  KILN_ASSERT_OK(kiln_thread_create("trace-test-thread-a", emit_zones, NULL,
                                    kiln_allocator_system(), &threads[0]));
  KILN_ASSERT_OK(kiln_thread_create("trace-test-thread-b", emit_zones, NULL,
                                    kiln_allocator_system(), &threads[1]));
  char* snapshot = write_to_string(recorder);  // while they record
  KILN_EXPECT_TRUE(snapshot != NULL);
  free(snapshot);
  KILN_TRACE_ZONE_BEGIN_NAMED(main_zone, "main \"quoted\"");
  KILN_TRACE_COUNTER_I64("memory", "live_bytes", 1234);
  KILN_TRACE_MESSAGE("a message");
  KILN_TRACE_ZONE_END(main_zone);
  KILN_TRACE_ZONE_BEGIN_NAMED(open_zone, "never_closed");
  for (int i = 0; i < 2; ++i) kiln_thread_release(threads[i]);
  kiln_trace_recorder_stop(recorder);
  KILN_TRACE_ZONE_END(open_zone);  // not recorded: the recorder stopped

  char* text = write_to_string(recorder);
  KILN_ASSERT_TRUE(text != NULL);
  KILN_EXPECT_CONTAINS(text, "\"traceEvents\":[");
  KILN_EXPECT_CONTAINS(text, "\"name\":\"tracing_test\"");
  // Full thread names, past the 15 characters Linux keeps.
  KILN_EXPECT_CONTAINS(text, "\"name\":\"trace-test-thread-a\"");
  KILN_EXPECT_CONTAINS(text, "\"name\":\"trace-test-thread-b\"");
  KILN_EXPECT_EQ_INT(count_of(text, "\"name\":\"worker_outer\""),
                     2 * KILN_TEST_ZONES_PER_THREAD);
  KILN_EXPECT_EQ_INT(count_of(text, "\"name\":\"worker_inner\""),
                     2 * KILN_TEST_ZONES_PER_THREAD);
  KILN_EXPECT_CONTAINS(text, "\"args\":{\"i\":2999}");
  KILN_EXPECT_CONTAINS(text, "\"name\":\"main \\\"quoted\\\"\"");
  KILN_EXPECT_CONTAINS(text, "\"ph\":\"C\"");
  KILN_EXPECT_CONTAINS(text, "\"args\":{\"live_bytes\":1234}");
  KILN_EXPECT_CONTAINS(text, "\"name\":\"a message\"");
  KILN_EXPECT_EQ_INT(count_of(text, "never_closed"), 0);
  KILN_EXPECT_EQ_INT((int)kiln_trace_recorder_dropped_event_count(recorder), 0);
  free(text);
  kiln_trace_recorder_release(recorder);
}

// With a tiny buffer cap the recorder keeps a prefix and counts the rest.
KILN_TEST(recorder_drops_past_its_cap) {
  kiln_trace_recorder_options_t options = {NULL, 1, 0};
  kiln_trace_recorder_t* recorder = NULL;
  KILN_ASSERT_OK(
      kiln_trace_recorder_create(&options, kiln_allocator_system(), &recorder));
  kiln_trace_recorder_start(recorder);
  traced_function();
  kiln_trace_recorder_stop(recorder);
  KILN_EXPECT_TRUE(kiln_trace_recorder_dropped_event_count(recorder) >= 2);
  char* text = write_to_string(recorder);
  KILN_ASSERT_TRUE(text != NULL);
  KILN_EXPECT_EQ_INT(count_of(text, "traced_function"), 0);
  free(text);
  kiln_trace_recorder_release(recorder);
}

KILN_TEST_MAIN(KILN_TEST_CASE(zones_reach_the_sink),
               KILN_TEST_CASE(recorder_writes_every_thread),
               KILN_TEST_CASE(recorder_drops_past_its_cap))
