#include "runtime/task/executor.h"

#include "runtime/base/atomics.h"
#include "runtime/base/threads.h"
#include "runtime/base/time.h"
#include "runtime/testing/test.h"

static kiln_task_executor_t* make_executor(uint32_t worker_count) {
  kiln_task_executor_options_t options = kiln_task_executor_options_default();
  options.worker_count = worker_count;
  options.name = "kiln-test";
  kiln_task_executor_t* executor = NULL;
  kiln_status_t status =
      kiln_task_executor_create(&options, kiln_allocator_system(), &executor);
  if (status) {
    kiln_status_fprint(stderr, status);
    kiln_status_free(status);
    return NULL;
  }
  return executor;
}

//===----------------------------------------------------------------------===//
// Sums: per-worker partial sums in scratch slots indexed by worker_id
//===----------------------------------------------------------------------===//

typedef struct sum_state_t {
  uint64_t partial[64];  // indexed by worker_id; never shared concurrently
  uint32_t worker_limit;
  kiln_atomic_int32_t bad_worker_id;
} sum_state_t;

static kiln_status_t add_index(void* user_data, uint32_t index,
                               uint32_t worker_id) {
  sum_state_t* state = (sum_state_t*)user_data;
  if (worker_id > state->worker_limit || worker_id >= 64) {
    kiln_atomic_store_relaxed(&state->bad_worker_id, 1);
    return kiln_ok_status();
  }
  state->partial[worker_id] += index;
  return kiln_ok_status();
}

KILN_TEST(sum_matches_closed_form) {
  const uint32_t worker_counts[] = {1, 2, 3};
  const uint32_t grains[] = {0, 1, 64, 4096, 1u << 30};
  for (size_t w = 0; w < 3; ++w) {
    kiln_task_executor_t* executor = make_executor(worker_counts[w]);
    KILN_ASSERT_TRUE(executor != NULL);
    KILN_EXPECT_EQ_INT(kiln_task_executor_worker_count(executor),
                       worker_counts[w]);
    for (size_t g = 0; g < 5; ++g) {
      const uint32_t n = 1u << 20;
      sum_state_t state;
      memset(&state, 0, sizeof(state));
      state.worker_limit = worker_counts[w];
      KILN_EXPECT_OK(kiln_task_executor_parallel_for(executor, n, grains[g],
                                                     add_index, &state));
      uint64_t total = 0;
      for (int i = 0; i < 64; ++i) total += state.partial[i];
      KILN_EXPECT_EQ_INT(total, (uint64_t)n * (n - 1) / 2);
      KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&state.bad_worker_id), 0);
    }
    kiln_task_executor_release(executor);
  }
}

//===----------------------------------------------------------------------===//
// Every index exactly once
//===----------------------------------------------------------------------===//

typedef struct hits_state_t {
  kiln_atomic_int32_t* hits;
} hits_state_t;

static kiln_status_t count_hit(void* user_data, uint32_t index,
                               uint32_t worker_id) {
  hits_state_t* state = (hits_state_t*)user_data;
  kiln_atomic_fetch_add_relaxed(&state->hits[index], 1);
  return kiln_ok_status();
}

KILN_TEST(every_index_runs_exactly_once) {
  kiln_task_executor_t* executor = make_executor(3);
  KILN_ASSERT_TRUE(executor != NULL);
  const uint32_t counts[] = {1, 2, 3, 5, 17, 1000, 100003};
  const uint32_t grains[] = {0, 1, 2, 7, 100, 100003, UINT32_MAX};
  kiln_atomic_int32_t* hits =
      (kiln_atomic_int32_t*)malloc(100003 * sizeof(kiln_atomic_int32_t));
  KILN_ASSERT_TRUE(hits != NULL);
  for (size_t c = 0; c < 7; ++c) {
    for (size_t g = 0; g < 7; ++g) {
      for (uint32_t i = 0; i < counts[c]; ++i) kiln_atomic_init(&hits[i], 0);
      hits_state_t state = {hits};
      KILN_EXPECT_OK(kiln_task_executor_parallel_for(
          executor, counts[c], grains[g], count_hit, &state));
      uint32_t wrong = 0;
      for (uint32_t i = 0; i < counts[c]; ++i) {
        if (kiln_atomic_load_relaxed(&hits[i]) != 1) ++wrong;
      }
      if (wrong) {
        KILN_TEST_FAIL_("count %u grain %u: %u indices not run exactly once",
                        counts[c], grains[g], wrong);
      }
    }
  }
  free(hits);
  // count 0 is a no-op, even with a NULL fn.
  KILN_EXPECT_OK(kiln_task_executor_parallel_for(executor, 0, 0, NULL, NULL));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_task_executor_parallel_for(executor, 5, 0, NULL, NULL));
  kiln_task_executor_release(executor);
}

//===----------------------------------------------------------------------===//
// Errors: the lowest failing index wins
//===----------------------------------------------------------------------===//

typedef struct fail_state_t {
  kiln_atomic_int32_t* hits;
} fail_state_t;

// Fails at indices >= 1000 whose remainder mod 97 is 96. The lowest is
// 970 + 96 = 1066 (1000 mod 97 = 30, so 10*97 + 96 is the first at or above
// 1000). The error message names the index.
static kiln_status_t fail_some(void* user_data, uint32_t index,
                               uint32_t worker_id) {
  fail_state_t* state = (fail_state_t*)user_data;
  kiln_atomic_fetch_add_relaxed(&state->hits[index], 1);
  // Later indices finish quickly, early ones slowly, so failures at high
  // indices are usually recorded first and must be replaced.
  if (index < 1100) {
    volatile uint32_t spin = 0;
    for (uint32_t i = 0; i < 2000; ++i) spin += i;
    (void)spin;
  }
  if (index >= 1000 && index % 97 == 96) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS, "bad index %u", index);
  }
  return kiln_ok_status();
}

KILN_TEST(lowest_failing_index_is_returned) {
  kiln_task_executor_t* executor = make_executor(3);
  KILN_ASSERT_TRUE(executor != NULL);
  const uint32_t count = 20000;
  kiln_atomic_int32_t* hits =
      (kiln_atomic_int32_t*)malloc(count * sizeof(kiln_atomic_int32_t));
  KILN_ASSERT_TRUE(hits != NULL);
  const uint32_t grains[] = {1, 3, 50, 0};
  for (int round = 0; round < 40; ++round) {
    for (uint32_t i = 0; i < count; ++i) kiln_atomic_init(&hits[i], 0);
    fail_state_t state = {hits};
    kiln_task_parallel_for_params_t params = {
        count, grains[round % 4], fail_some, &state, NULL, NULL, 0};
    kiln_task_parallel_for_stats_t stats;
    kiln_status_t status =
        kiln_task_executor_parallel_for_ex(executor, &params, &stats);
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_DATA_LOSS);
    KILN_EXPECT_CONTAINS(kiln_status_message(status), "bad index 1066");
    kiln_status_free(status);
    // Everything below the failure ran exactly once; nothing ran twice.
    uint32_t wrong = 0, ran = 0;
    for (uint32_t i = 0; i < count; ++i) {
      int32_t h = kiln_atomic_load_relaxed(&hits[i]);
      if (h > 1 || (i <= 1066 && h != 1)) ++wrong;
      ran += (uint32_t)h;
    }
    KILN_EXPECT_EQ_INT(wrong, 0);
    KILN_EXPECT_EQ_INT(stats.indices_run, ran);
  }
  free(hits);
  kiln_task_executor_release(executor);
}

//===----------------------------------------------------------------------===//
// Concurrent callers
//===----------------------------------------------------------------------===//

typedef struct caller_args_t {
  kiln_task_executor_t* executor;
  uint32_t count;
  int failures;
} caller_args_t;

static int caller_main(void* arg) {
  caller_args_t* args = (caller_args_t*)arg;
  uint32_t worker_count = kiln_task_executor_worker_count(args->executor);
  for (int round = 0; round < 100; ++round) {
    sum_state_t state;
    memset(&state, 0, sizeof(state));
    state.worker_limit = worker_count;
    kiln_status_t status = kiln_task_executor_parallel_for(
        args->executor, args->count, 16, add_index, &state);
    if (status) {
      kiln_status_free(status);
      ++args->failures;
      continue;
    }
    uint64_t total = 0;
    for (int i = 0; i < 64; ++i) total += state.partial[i];
    if (total != (uint64_t)args->count * (args->count - 1) / 2) {
      ++args->failures;
    }
    if (kiln_atomic_load_relaxed(&state.bad_worker_id)) ++args->failures;
  }
  return 0;
}

KILN_TEST(concurrent_callers_from_two_threads) {
  kiln_task_executor_t* executor = make_executor(2);
  KILN_ASSERT_TRUE(executor != NULL);
  caller_args_t a = {executor, 5000, 0};
  caller_args_t b = {executor, 7777, 0};
  kiln_thread_t* thread_a = NULL;
  kiln_thread_t* thread_b = NULL;
  KILN_ASSERT_OK(kiln_thread_create("caller-a", caller_main, &a,
                                    kiln_allocator_system(), &thread_a));
  KILN_ASSERT_OK(kiln_thread_create("caller-b", caller_main, &b,
                                    kiln_allocator_system(), &thread_b));
  kiln_thread_release(thread_a);
  kiln_thread_release(thread_b);
  KILN_EXPECT_EQ_INT(a.failures, 0);
  KILN_EXPECT_EQ_INT(b.failures, 0);
  kiln_task_executor_release(executor);
}

//===----------------------------------------------------------------------===//
// Nesting, lifetime, options
//===----------------------------------------------------------------------===//

typedef struct nested_state_t {
  kiln_task_executor_t* executor;
  kiln_atomic_int32_t rejected;
} nested_state_t;

static kiln_status_t try_nested(void* user_data, uint32_t index,
                                uint32_t worker_id) {
  nested_state_t* state = (nested_state_t*)user_data;
  kiln_status_t status =
      kiln_task_executor_parallel_for(state->executor, 4, 1, count_hit, NULL);
  if (kiln_status_consume_code(status) == KILN_STATUS_FAILED_PRECONDITION) {
    kiln_atomic_fetch_add_relaxed(&state->rejected, 1);
  }
  return kiln_ok_status();
}

KILN_TEST(nested_parallel_for_is_rejected) {
  kiln_task_executor_t* executor = make_executor(2);
  KILN_ASSERT_TRUE(executor != NULL);
  nested_state_t state;
  state.executor = executor;
  kiln_atomic_init(&state.rejected, 0);
  KILN_EXPECT_OK(
      kiln_task_executor_parallel_for(executor, 64, 1, try_nested, &state));
  KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&state.rejected), 64);
  kiln_task_executor_release(executor);
}

// fn of a parallel_for on A calls parallel_for on B (allowed); fn of that one
// calls parallel_for on A again, on whichever thread runs it (rejected).
typedef struct two_level_state_t {
  kiln_task_executor_t* outer;
  kiln_task_executor_t* inner;
  kiln_atomic_int32_t inner_ok;
  kiln_atomic_int32_t rejected;
  kiln_atomic_int32_t on_inner_workers;  // innermost calls on inner workers
} two_level_state_t;

static kiln_status_t innermost(void* user_data, uint32_t index,
                               uint32_t worker_id) {
  two_level_state_t* state = (two_level_state_t*)user_data;
  // Slow enough that the inner executor's workers take some of the indices:
  // they must be rejected too, since the outer call waits on them.
  kiln_sleep_ns(2 * 1000000);
  if (worker_id < kiln_task_executor_worker_count(state->inner)) {
    kiln_atomic_fetch_add_relaxed(&state->on_inner_workers, 1);
  }
  kiln_status_t status =
      kiln_task_executor_parallel_for(state->outer, 2, 1, count_hit, NULL);
  if (kiln_status_consume_code(status) == KILN_STATUS_FAILED_PRECONDITION) {
    kiln_atomic_fetch_add_relaxed(&state->rejected, 1);
  }
  return kiln_ok_status();
}

static kiln_status_t run_inner(void* user_data, uint32_t index,
                               uint32_t worker_id) {
  two_level_state_t* state = (two_level_state_t*)user_data;
  kiln_status_t status =
      kiln_task_executor_parallel_for(state->inner, 3, 1, innermost, state);
  if (!status) kiln_atomic_fetch_add_relaxed(&state->inner_ok, 1);
  return status;
}

KILN_TEST(nesting_across_executors) {
  two_level_state_t state;
  state.outer = make_executor(2);
  state.inner = make_executor(2);
  KILN_ASSERT_TRUE(state.outer && state.inner);
  kiln_atomic_init(&state.inner_ok, 0);
  kiln_atomic_init(&state.rejected, 0);
  kiln_atomic_init(&state.on_inner_workers, 0);
  KILN_EXPECT_OK(
      kiln_task_executor_parallel_for(state.outer, 8, 1, run_inner, &state));
  KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&state.inner_ok), 8);
  KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&state.rejected), 8 * 3);
  // Not asserted (scheduling decides), but normally most of the 24.
  printf("%d of 24 innermost calls ran on inner pool workers\n",
         (int)kiln_atomic_load_relaxed(&state.on_inner_workers));
  kiln_task_executor_release(state.inner);
  kiln_task_executor_release(state.outer);
}

KILN_TEST(create_destroy_repeatedly) {
  for (int i = 0; i < 40; ++i) {
    kiln_task_executor_t* executor = make_executor(1 + i % 4);
    KILN_ASSERT_TRUE(executor != NULL);
    if (i % 2) {
      sum_state_t state;
      memset(&state, 0, sizeof(state));
      state.worker_limit = 1 + i % 4;
      KILN_EXPECT_OK(kiln_task_executor_parallel_for(executor, 1000, 1,
                                                     add_index, &state));
      uint64_t total = 0;
      for (int j = 0; j < 64; ++j) total += state.partial[j];
      KILN_EXPECT_EQ_INT(total, 1000ull * 999 / 2);
    }
    kiln_task_executor_retain(executor);
    kiln_task_executor_release(executor);
    kiln_task_executor_release(executor);
  }
}

KILN_TEST(options_and_failures) {
  kiln_task_executor_t* executor = NULL;
  KILN_ASSERT_OK(
      kiln_task_executor_create(NULL, kiln_allocator_system(), &executor));
  KILN_EXPECT_EQ_INT(kiln_task_executor_worker_count(executor),
                     kiln_cpu_count());
  kiln_task_executor_release(executor);

  kiln_task_executor_options_t options = kiln_task_executor_options_default();
  options.worker_count = KILN_TASK_EXECUTOR_MAX_WORKERS + 1;
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_task_executor_create(&options, kiln_allocator_system(), &executor));
  KILN_EXPECT_TRUE(executor == NULL);
  options.worker_count = 2;
  KILN_EXPECT_STATUS(
      KILN_STATUS_RESOURCE_EXHAUSTED,
      kiln_task_executor_create(&options, kiln_allocator_null(), &executor));
  KILN_EXPECT_TRUE(executor == NULL);
}

//===----------------------------------------------------------------------===//
// CPU use: idle workers sleep, busy workers run in parallel
//===----------------------------------------------------------------------===//

KILN_TEST(idle_workers_use_no_cpu) {
  kiln_task_executor_t* executor = make_executor(4);
  KILN_ASSERT_TRUE(executor != NULL);
  // Run some work first so that every worker has woken and gone idle again.
  sum_state_t state;
  memset(&state, 0, sizeof(state));
  state.worker_limit = 4;
  KILN_EXPECT_OK(
      kiln_task_executor_parallel_for(executor, 100000, 1, add_index, &state));
  kiln_sleep_ns(20 * 1000000);  // past any post-job spinning
  int64_t cpu0 = kiln_process_cpu_time_ns();
  kiln_sleep_ns(200 * 1000000);
  int64_t idle_cpu = kiln_process_cpu_time_ns() - cpu0;
  printf("idle: %.3f ms of CPU over 200 ms with 4 idle workers\n",
         idle_cpu / 1e6);
  KILN_EXPECT_TRUE(idle_cpu < 50 * 1000000);
  kiln_task_executor_release(executor);
}

// Burns ~0.5 ms of this thread's CPU time (not wall time, so that a loaded
// machine does not shorten the work).
static kiln_status_t burn_cpu(void* user_data, uint32_t index,
                              uint32_t worker_id) {
  int64_t start = kiln_thread_cpu_time_ns();
  volatile uint64_t sink = 0;
  while (kiln_thread_cpu_time_ns() - start < 500 * 1000) {
    for (int i = 0; i < 100; ++i) sink += (uint64_t)i;
  }
  (void)sink;
  return kiln_ok_status();
}

// The work of one parallel_for is spread over the pool: more than one thread
// runs fn and the accounting adds up. Speed itself (CPU time vs wall time) is
// a benchmark's business: bench/parallel_dispatch/run.sh measures it with
// kiln-benchmark-module, not this unit test.
KILN_TEST(busy_workers_share_the_work) {
  kiln_task_executor_t* executor = make_executor(2);
  KILN_ASSERT_TRUE(executor != NULL);
  kiln_task_parallel_for_params_t params = {400,  1,    burn_cpu, NULL,
                                            NULL, NULL, 0};
  int64_t worker_ns[3] = {0, 0, 0};
  params.out_worker_ns = worker_ns;
  kiln_task_parallel_for_stats_t stats;
  int64_t cpu0 = kiln_process_cpu_time_ns();
  KILN_EXPECT_OK(kiln_task_executor_parallel_for_ex(executor, &params, &stats));
  int64_t cpu = kiln_process_cpu_time_ns() - cpu0;
  KILN_EXPECT_EQ_INT(stats.indices_run, 400);
  KILN_EXPECT_EQ_INT(worker_ns[0] + worker_ns[1] + worker_ns[2],
                     stats.total_worker_ns);
  // Each index burns >= 0.5 ms of CPU, so the summed time spent in fn is
  // at least 200 ms, and no more than the threads' wall time allows.
  KILN_EXPECT_TRUE(stats.total_worker_ns >= 200 * 1000000);
  KILN_EXPECT_TRUE(stats.total_worker_ns <= 3 * stats.wall_ns);
  // The CPU clocks of the threads that ran fn account for that work and
  // cannot exceed the whole process's CPU time (1 ms clock skew allowed).
  KILN_EXPECT_TRUE(stats.total_worker_cpu_ns >= 200 * 1000000);
  KILN_EXPECT_TRUE(stats.total_worker_cpu_ns <= cpu + 1000000);
  // 400 chunks of 0.5 ms each leave the sleeping workers ample time to wake
  // and claim work, whatever the machine's load.
  KILN_EXPECT_TRUE(stats.workers_used >= 2);
  kiln_task_executor_release(executor);
}

// count_caller: N threads are the caller plus N - 1 pool threads. One
// thread is no pool at all (every index inline, worker id 0); two share 400
// chunks of 0.5 ms (ample time for the pool thread to wake), and no
// parallel_for runs on more than the two.
KILN_TEST(count_caller_includes_the_calling_thread) {
  for (uint32_t threads = 1; threads <= 2; ++threads) {
    kiln_task_executor_options_t options = kiln_task_executor_options_default();
    options.worker_count = threads;
    options.count_caller = true;
    options.name = "kiln-test";
    kiln_task_executor_t* executor = NULL;
    KILN_ASSERT_OK(kiln_task_executor_create(&options, kiln_allocator_system(),
                                             &executor));
    KILN_EXPECT_EQ_INT(kiln_task_executor_worker_count(executor), threads - 1);
    kiln_task_parallel_for_params_t params = {400,  1,    burn_cpu, NULL,
                                              NULL, NULL, 0};
    int64_t worker_ns[2] = {0, 0};
    params.out_worker_ns = worker_ns;
    kiln_task_parallel_for_stats_t stats;
    KILN_EXPECT_OK(
        kiln_task_executor_parallel_for_ex(executor, &params, &stats));
    KILN_EXPECT_EQ_INT(stats.indices_run, 400);
    KILN_EXPECT_EQ_INT(stats.workers_used, threads);
    // Both ids ran work with two threads; the only id with one.
    for (uint32_t id = 0; id < threads; ++id) {
      KILN_EXPECT_TRUE(worker_ns[id] > 0);
    }
    sum_state_t state;
    memset(&state, 0, sizeof(state));
    state.worker_limit = threads - 1;
    KILN_EXPECT_OK(
        kiln_task_executor_parallel_for(executor, 10000, 0, add_index, &state));
    uint64_t sum = 0;
    for (int i = 0; i < 64; ++i) sum += state.partial[i];
    KILN_EXPECT_TRUE(sum == 10000ull * 9999ull / 2);
    KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&state.bad_worker_id), 0);
    kiln_task_executor_release(executor);
  }
}

//===----------------------------------------------------------------------===//
// Each thread owns a contiguous part
//===----------------------------------------------------------------------===//

// Threads: the caller and three pool threads; 16 indices, so four parts of
// four: the caller's [0, 4), then worker 0's [4, 8), ... The first index of
// every part waits (up to 10 s) until the first indices of all four parts
// have started. No thread can finish its own part before then, so none can
// take another's part: each first index must run on its owner. (With one
// shared counter, any thread could claim index 0.)
typedef struct parts_state_t {
  kiln_atomic_int32_t started;  // part-start indices begun
  kiln_atomic_int32_t timed_out;
  int32_t ran_by[16];  // worker id per index; each slot written once
} parts_state_t;

static kiln_status_t record_part_start(void* user_data, uint32_t index,
                                       uint32_t worker_id) {
  parts_state_t* state = (parts_state_t*)user_data;
  state->ran_by[index] = (int32_t)worker_id;
  if (index % 4 != 0) return kiln_ok_status();
  kiln_atomic_fetch_add_seq_cst(&state->started, 1);
  kiln_time_t deadline = kiln_time_now_ns() + 10 * 1000000000ll;
  while (kiln_atomic_load_seq_cst(&state->started) < 4) {
    if (kiln_time_now_ns() > deadline) {
      kiln_atomic_store_relaxed(&state->timed_out, 1);
      break;
    }
    kiln_thread_yield();
  }
  return kiln_ok_status();
}

KILN_TEST(each_thread_starts_with_its_own_part) {
  kiln_task_executor_t* executor = make_executor(3);
  KILN_ASSERT_TRUE(executor != NULL);
  for (int round = 0; round < 20; ++round) {
    parts_state_t state;
    memset(&state, 0, sizeof(state));
    KILN_EXPECT_OK(kiln_task_executor_parallel_for(executor, 16, 1,
                                                   record_part_start, &state));
    KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&state.timed_out), 0);
    KILN_EXPECT_EQ_INT(state.ran_by[0], 3);  // the caller
    KILN_EXPECT_EQ_INT(state.ran_by[4], 0);
    KILN_EXPECT_EQ_INT(state.ran_by[8], 1);
    KILN_EXPECT_EQ_INT(state.ran_by[12], 2);
  }
  kiln_task_executor_release(executor);
}

KILN_TEST_MAIN(KILN_TEST_CASE(sum_matches_closed_form),
               KILN_TEST_CASE(every_index_runs_exactly_once),
               KILN_TEST_CASE(lowest_failing_index_is_returned),
               KILN_TEST_CASE(concurrent_callers_from_two_threads),
               KILN_TEST_CASE(nested_parallel_for_is_rejected),
               KILN_TEST_CASE(nesting_across_executors),
               KILN_TEST_CASE(create_destroy_repeatedly),
               KILN_TEST_CASE(options_and_failures),
               KILN_TEST_CASE(idle_workers_use_no_cpu),
               KILN_TEST_CASE(busy_workers_share_the_work),
               KILN_TEST_CASE(count_caller_includes_the_calling_thread),
               KILN_TEST_CASE(each_thread_starts_with_its_own_part))
