#include <pthread.h>
#include <time.h>

#include "runtime/hal/api.h"
#include "runtime/testing/test.h"

static kiln_hal_semaphore_t* make_semaphore(uint64_t value) {
  kiln_hal_semaphore_t* semaphore = NULL;
  kiln_status_t status =
      kiln_hal_semaphore_create(value, kiln_allocator_system(), &semaphore);
  if (status) kiln_status_free(status);
  return semaphore;
}

static void sleep_ms(int ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

KILN_TEST(signal_and_query) {
  kiln_hal_semaphore_t* s = make_semaphore(3);
  uint64_t value = 0;
  KILN_EXPECT_OK(kiln_hal_semaphore_query(s, &value));
  KILN_EXPECT_EQ_INT(value, 3);
  KILN_EXPECT_OK(kiln_hal_semaphore_signal(s, 5));
  KILN_EXPECT_OK(kiln_hal_semaphore_query(s, &value));
  KILN_EXPECT_EQ_INT(value, 5);
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_hal_semaphore_signal(s, 5));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_hal_semaphore_signal(s, 4));
  KILN_EXPECT_OK(kiln_hal_semaphore_wait(s, 5, KILN_HAL_IMMEDIATE_DEADLINE));
  KILN_EXPECT_STATUS(
      KILN_STATUS_DEADLINE_EXCEEDED,
      kiln_hal_semaphore_wait(s, 6, KILN_HAL_IMMEDIATE_DEADLINE));
  int64_t start = kiln_hal_now_ns();
  KILN_EXPECT_STATUS(
      KILN_STATUS_DEADLINE_EXCEEDED,
      kiln_hal_semaphore_wait(s, 6, kiln_hal_deadline_after_ns(20000000)));
  KILN_EXPECT_TRUE(kiln_hal_now_ns() - start >= 20000000);
  kiln_hal_semaphore_release(s);
}

typedef struct {
  kiln_hal_semaphore_t* semaphore;
  kiln_hal_fence_t* fence;
  uint64_t value;
  bool fail;
} signaler_t;

static void* signaler_main(void* arg) {
  signaler_t* s = (signaler_t*)arg;
  sleep_ms(10);
  if (s->fence) {
    if (s->fail) {
      kiln_hal_fence_fail(
          s->fence, kiln_make_status(KILN_STATUS_DATA_LOSS, "producer broke"));
    } else {
      kiln_status_free(kiln_hal_fence_signal(s->fence));
    }
  } else if (s->fail) {
    kiln_hal_semaphore_fail(
        s->semaphore,
        kiln_make_status(KILN_STATUS_DATA_LOSS, "producer broke"));
  } else {
    kiln_status_free(kiln_hal_semaphore_signal(s->semaphore, s->value));
  }
  return NULL;
}

KILN_TEST(wait_for_other_thread) {
  kiln_hal_semaphore_t* s = make_semaphore(0);
  signaler_t arg = {s, NULL, 7, false};
  pthread_t thread;
  pthread_create(&thread, NULL, signaler_main, &arg);
  KILN_EXPECT_OK(kiln_hal_semaphore_wait(s, 7, KILN_HAL_INFINITE_DEADLINE));
  pthread_join(thread, NULL);
  uint64_t value = 0;
  KILN_EXPECT_OK(kiln_hal_semaphore_query(s, &value));
  KILN_EXPECT_EQ_INT(value, 7);
  kiln_hal_semaphore_release(s);
}

KILN_TEST(failure_wakes_waiters) {
  kiln_hal_semaphore_t* s = make_semaphore(0);
  signaler_t arg = {s, NULL, 0, true};
  pthread_t thread;
  pthread_create(&thread, NULL, signaler_main, &arg);
  kiln_status_t status =
      kiln_hal_semaphore_wait(s, 1, kiln_hal_deadline_after_ns(5000000000ll));
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_DATA_LOSS);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "producer broke");
  kiln_status_free(status);
  pthread_join(thread, NULL);
  // Later waits, queries and signals fail too.
  KILN_EXPECT_STATUS(KILN_STATUS_DATA_LOSS,
                     kiln_hal_semaphore_wait(s, 0, KILN_HAL_INFINITE_DEADLINE));
  uint64_t value;
  KILN_EXPECT_STATUS(KILN_STATUS_DATA_LOSS,
                     kiln_hal_semaphore_query(s, &value));
  KILN_EXPECT_STATUS(KILN_STATUS_DATA_LOSS, kiln_hal_semaphore_signal(s, 9));
  kiln_hal_semaphore_release(s);
}

KILN_TEST(fence_insert_join) {
  kiln_allocator_t host = kiln_allocator_system();
  kiln_hal_semaphore_t* a = make_semaphore(0);
  kiln_hal_semaphore_t* b = make_semaphore(0);
  kiln_hal_fence_t* f1 = NULL;
  kiln_hal_fence_t* f2 = NULL;
  KILN_ASSERT_OK(kiln_hal_fence_create(0, host, &f1));
  KILN_EXPECT_OK(kiln_hal_fence_insert(f1, a, 2));
  KILN_EXPECT_OK(kiln_hal_fence_insert(f1, a, 1));  // max wins
  KILN_EXPECT_EQ_INT(kiln_hal_fence_timepoint_count(f1), 1);
  KILN_ASSERT_OK(kiln_hal_fence_create_at(b, 3, host, &f2));
  KILN_EXPECT_OK(kiln_hal_fence_insert(f2, a, 5));
  kiln_hal_fence_t* fences[3] = {f1, NULL, f2};
  kiln_hal_fence_t* joined = NULL;
  KILN_ASSERT_OK(kiln_hal_fence_join(3, fences, host, &joined));
  KILN_EXPECT_EQ_INT(kiln_hal_fence_timepoint_count(joined), 2);
  kiln_hal_semaphore_t* sem = NULL;
  uint64_t value = 0;
  kiln_hal_fence_timepoint(joined, 0, &sem, &value);
  KILN_EXPECT_TRUE(sem == a);
  KILN_EXPECT_EQ_INT(value, 5);
  bool reached = true;
  KILN_EXPECT_OK(kiln_hal_fence_query(joined, &reached));
  KILN_EXPECT_FALSE(reached);
  KILN_EXPECT_OK(kiln_hal_fence_signal(f1));
  KILN_EXPECT_OK(kiln_hal_fence_query(joined, &reached));
  KILN_EXPECT_FALSE(reached);
  KILN_EXPECT_STATUS(KILN_STATUS_DEADLINE_EXCEEDED,
                     kiln_hal_fence_wait(joined, KILN_HAL_IMMEDIATE_DEADLINE));
  // Signal f2 from another thread while waiting on the join.
  signaler_t arg = {NULL, f2, 0, false};
  pthread_t thread;
  pthread_create(&thread, NULL, signaler_main, &arg);
  KILN_EXPECT_OK(kiln_hal_fence_wait(joined, KILN_HAL_INFINITE_DEADLINE));
  pthread_join(thread, NULL);
  KILN_EXPECT_OK(kiln_hal_fence_query(joined, &reached));
  KILN_EXPECT_TRUE(reached);
  KILN_EXPECT_OK(kiln_hal_fence_wait(NULL, KILN_HAL_IMMEDIATE_DEADLINE));
  kiln_hal_fence_release(joined);
  kiln_hal_fence_release(f1);
  kiln_hal_fence_release(f2);
  kiln_hal_semaphore_release(a);
  kiln_hal_semaphore_release(b);
}

KILN_TEST(fence_failure_propagates) {
  kiln_allocator_t host = kiln_allocator_system();
  kiln_hal_semaphore_t* a = make_semaphore(0);
  kiln_hal_semaphore_t* b = make_semaphore(0);
  kiln_hal_fence_t* fence = NULL;
  KILN_ASSERT_OK(kiln_hal_fence_create_at(a, 1, host, &fence));
  KILN_EXPECT_OK(kiln_hal_fence_insert(fence, b, 1));
  signaler_t arg = {NULL, fence, 0, true};
  pthread_t thread;
  pthread_create(&thread, NULL, signaler_main, &arg);
  KILN_EXPECT_STATUS(KILN_STATUS_DATA_LOSS,
                     kiln_hal_fence_wait(fence, KILN_HAL_INFINITE_DEADLINE));
  pthread_join(thread, NULL);
  // Every semaphore of the fence failed.
  KILN_EXPECT_STATUS(
      KILN_STATUS_DATA_LOSS,
      kiln_hal_semaphore_wait(b, 1, KILN_HAL_IMMEDIATE_DEADLINE));
  bool reached;
  KILN_EXPECT_STATUS(KILN_STATUS_DATA_LOSS,
                     kiln_hal_fence_query(fence, &reached));
  kiln_hal_fence_release(fence);
  kiln_hal_semaphore_release(a);
  kiln_hal_semaphore_release(b);
}

KILN_TEST_MAIN(KILN_TEST_CASE(signal_and_query),
               KILN_TEST_CASE(wait_for_other_thread),
               KILN_TEST_CASE(failure_wakes_waiters),
               KILN_TEST_CASE(fence_insert_join),
               KILN_TEST_CASE(fence_failure_propagates))
