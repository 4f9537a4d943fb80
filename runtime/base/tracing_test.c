// Tracing enabled in this translation unit only (the hooks always exist).
#define KILN_ENABLE_TRACING 1
#include "runtime/base/tracing.h"

#include "runtime/testing/test.h"

typedef struct recorder_t {
  int begins, ends, values, messages;
  const char* last_name;
  int64_t last_value;
  uint64_t begin_id, end_id;
} recorder_t;

static void on_begin(void* user, uint64_t id, const char* name,
                     const char* file, int line) {
  recorder_t* r = (recorder_t*)user;
  ++r->begins;
  r->last_name = name;
  r->begin_id = id;
  (void)file, (void)line;
}
static void on_end(void* user, uint64_t id, int64_t duration_ns) {
  recorder_t* r = (recorder_t*)user;
  ++r->ends;
  r->end_id = id;
  if (duration_ns < 0) r->ends = -1000;
}
static void on_value(void* user, uint64_t id, int64_t value) {
  recorder_t* r = (recorder_t*)user;
  ++r->values;
  r->last_value = value;
  (void)id;
}
static void on_message(void* user, const char* text) {
  recorder_t* r = (recorder_t*)user;
  ++r->messages;
  (void)text;
}

static void traced_function(void) {
  KILN_TRACE_ZONE_BEGIN(z0);
  KILN_TRACE_ZONE_APPEND_VALUE_I64(z0, 42);
  KILN_TRACE_ZONE_END(z0);
}

KILN_TEST(zones_reach_the_sink) {
  recorder_t r = {0};
  kiln_trace_sink_t sink = {&r, on_begin, on_end, on_value, on_message};
  kiln_trace_set_sink(&sink);
  traced_function();
  KILN_EXPECT_EQ_INT(r.begins, 1);
  KILN_EXPECT_STREQ(r.last_name, "traced_function");
  KILN_EXPECT_EQ_INT(r.values, 1);
  KILN_EXPECT_EQ_INT(r.last_value, 42);
  KILN_EXPECT_EQ_INT(r.ends, 1);
  KILN_EXPECT_TRUE(r.begin_id != 0 && r.begin_id == r.end_id);
  KILN_TRACE_ZONE_BEGIN_NAMED(z1, "named");
  KILN_TRACE_ZONE_END(z1);
  KILN_EXPECT_STREQ(r.last_name, "named");
  KILN_TRACE_MESSAGE("hello");
  KILN_EXPECT_EQ_INT(r.messages, 1);
  int traced_only = 0;
  KILN_TRACE(traced_only = 1;)
  KILN_EXPECT_EQ_INT(traced_only, 1);

  kiln_trace_set_sink(NULL);
  traced_function();  // dropped without a sink
  KILN_EXPECT_EQ_INT(r.begins, 2);
}

KILN_TEST_MAIN(KILN_TEST_CASE(zones_reach_the_sink))
