// Cost of one trace zone (begin + end) with tracing compiled in: with no
// sink installed, and with a kiln_trace_recorder_t recording, in thread CPU
// time (the machine may be shared: wall time would count time spent
// preempted). Each recording round uses a new recorder: the first round
// writes memory fresh from the kernel (page zeroing included, as in a real
// first trace), later rounds mostly reuse the memory the previous recorder
// freed. Built and run by bench/tracing/run.sh.
#define KILN_ENABLE_TRACING 1
#include <stdio.h>

#include "runtime/base/time.h"
#include "runtime/base/trace_recorder.h"
#include "runtime/base/tracing.h"

#define ZONES 100000
#define ROUNDS 7

typedef enum { STATIC_ZONE, DYNAMIC_ZONE_WITH_ARG } zone_kind_t;

static double ns_per_zone(zone_kind_t kind) {
  int64_t start = kiln_thread_cpu_time_ns();
  if (kind == STATIC_ZONE) {
    for (int i = 0; i < ZONES; ++i) {
      KILN_TRACE_ZONE_BEGIN_NAMED(z0, "bench.zone");
      KILN_TRACE_ZONE_END(z0);
    }
  } else {
    for (int i = 0; i < ZONES; ++i) {
      KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, "main_dispatch_0_matmul", 22);
      KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "begin", i);
      KILN_TRACE_ZONE_END(z0);
    }
  }
  return (double)(kiln_thread_cpu_time_ns() - start) / ZONES;
}

// Wall time of the last kiln_trace_recorder_create (its preallocation).
static double last_create_ms = 0;

// Records one round into a new recorder; returns ns per zone.
static double recorded_round(zone_kind_t kind) {
  kiln_trace_recorder_t* recorder = NULL;
  int64_t start = kiln_time_now_ns();
  kiln_status_t status =
      kiln_trace_recorder_create(NULL, kiln_allocator_system(), &recorder);
  last_create_ms = (double)(kiln_time_now_ns() - start) / 1e6;
  if (status) {
    kiln_status_free(status);
    return -1;
  }
  kiln_trace_recorder_start(recorder);
  double ns = ns_per_zone(kind);
  kiln_trace_recorder_stop(recorder);
  if (kiln_trace_recorder_dropped_event_count(recorder)) ns = -1;
  kiln_trace_recorder_release(recorder);
  return ns;
}

int main(void) {
  double off = 1e30;
  for (int r = 0; r < ROUNDS; ++r) {
    double ns = ns_per_zone(STATIC_ZONE);
    if (ns < off) off = ns;
  }
  printf("zone, compiled in, no sink installed:   %7.1f ns\n", off);
  const char* labels[2] = {"zone, recording", "zone with copied name + arg"};
  for (int k = 0; k < 2; ++k) {
    double first = recorded_round((zone_kind_t)k), best = 1e30;
    for (int r = 1; r < ROUNDS; ++r) {
      double ns = recorded_round((zone_kind_t)k);
      if (ns < best) best = ns;
    }
    if (first < 0 || best < 0) {
      fprintf(stderr, "recording failed or dropped events\n");
      return 1;
    }
    printf("%-28s fresh memory %7.1f ns, reused memory %7.1f ns\n", labels[k],
           first, best);
  }
  // The recorder writes its preallocated buffers once when it is created
  // (outside the zones timed above): what that costs, once per trace.
  printf("recorder creation (default preallocation): %.1f ms\n",
         last_create_ms);
  return 0;
}
