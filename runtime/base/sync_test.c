#include "runtime/base/sync.h"

#include "runtime/base/atomics.h"
#include "runtime/base/threads.h"
#include "runtime/testing/test.h"

//===----------------------------------------------------------------------===//
// Mutex
//===----------------------------------------------------------------------===//

typedef struct counter_state_t {
  kiln_mutex_t mutex;
  int64_t value;  // guarded by mutex
} counter_state_t;

static int increment_many(void* arg) {
  counter_state_t* state = (counter_state_t*)arg;
  for (int i = 0; i < 20000; ++i) {
    kiln_mutex_lock(&state->mutex);
    ++state->value;
    kiln_mutex_unlock(&state->mutex);
  }
  return 0;
}

KILN_TEST(mutex_excludes) {
  counter_state_t state;
  kiln_mutex_initialize(&state.mutex);
  state.value = 0;
  kiln_thread_t* threads[4];
  for (int i = 0; i < 4; ++i) {
    KILN_ASSERT_OK(kiln_thread_create("sync-test", increment_many, &state,
                                      kiln_allocator_system(), &threads[i]));
  }
  for (int i = 0; i < 4; ++i) kiln_thread_release(threads[i]);
  KILN_EXPECT_EQ_INT(state.value, 4 * 20000);
  kiln_mutex_deinitialize(&state.mutex);
}

static int try_lock_from_other_thread(void* arg) {
  kiln_mutex_t* mutex = (kiln_mutex_t*)arg;
  if (kiln_mutex_try_lock(mutex)) {
    kiln_mutex_unlock(mutex);
    return 1;
  }
  return 0;
}

KILN_TEST(mutex_try_lock) {
  kiln_mutex_t mutex;
  kiln_mutex_initialize(&mutex);
  KILN_EXPECT_TRUE(kiln_mutex_try_lock(&mutex));
  kiln_thread_t* thread = NULL;
  KILN_ASSERT_OK(kiln_thread_create("try-lock", try_lock_from_other_thread,
                                    &mutex, kiln_allocator_system(), &thread));
  int result = -1;
  kiln_thread_join(thread, &result);
  KILN_EXPECT_EQ_INT(result, 0);  // held by us: the other thread failed
  kiln_thread_release(thread);
  kiln_mutex_unlock(&mutex);
  KILN_ASSERT_OK(kiln_thread_create("try-lock", try_lock_from_other_thread,
                                    &mutex, kiln_allocator_system(), &thread));
  kiln_thread_join(thread, &result);
  KILN_EXPECT_EQ_INT(result, 1);
  kiln_thread_release(thread);
  kiln_mutex_deinitialize(&mutex);
}

//===----------------------------------------------------------------------===//
// Condition
//===----------------------------------------------------------------------===//

typedef struct flag_state_t {
  kiln_mutex_t mutex;
  kiln_condition_t condition;
  bool flag;
} flag_state_t;

static int set_flag_later(void* arg) {
  flag_state_t* state = (flag_state_t*)arg;
  kiln_sleep_ns(5 * 1000000);
  kiln_mutex_lock(&state->mutex);
  state->flag = true;
  kiln_condition_broadcast(&state->condition);
  kiln_mutex_unlock(&state->mutex);
  return 0;
}

KILN_TEST(condition_wait_and_timeout) {
  flag_state_t state;
  kiln_mutex_initialize(&state.mutex);
  kiln_condition_initialize(&state.condition);
  state.flag = false;

  // Times out when nobody signals.
  kiln_mutex_lock(&state.mutex);
  kiln_time_t start = kiln_time_now_ns();
  bool signaled = true;
  while (signaled && !state.flag) {
    signaled = kiln_condition_wait(&state.condition, &state.mutex,
                                   kiln_make_deadline(10 * 1000000));
  }
  KILN_EXPECT_FALSE(signaled);
  KILN_EXPECT_TRUE(kiln_time_now_ns() - start >= 10 * 1000000);
  KILN_EXPECT_FALSE(
      kiln_condition_wait(&state.condition, &state.mutex, KILN_IMMEDIATE_PAST));
  kiln_mutex_unlock(&state.mutex);

  kiln_thread_t* thread = NULL;
  KILN_ASSERT_OK(kiln_thread_create("cond", set_flag_later, &state,
                                    kiln_allocator_system(), &thread));
  kiln_mutex_lock(&state.mutex);
  while (!state.flag) {
    kiln_condition_wait(&state.condition, &state.mutex, KILN_INFINITE_FUTURE);
  }
  kiln_mutex_unlock(&state.mutex);
  KILN_EXPECT_TRUE(state.flag);
  kiln_thread_release(thread);
  kiln_condition_deinitialize(&state.condition);
  kiln_mutex_deinitialize(&state.mutex);
}

//===----------------------------------------------------------------------===//
// Notification
//===----------------------------------------------------------------------===//

KILN_TEST(notification_post_before_commit_is_not_lost) {
  kiln_notification_t n;
  kiln_notification_initialize(&n);
  kiln_wait_token_t token = kiln_notification_prepare_wait(&n);
  kiln_notification_post(&n, 1);
  // Must return at once, even with an infinite deadline.
  KILN_EXPECT_TRUE(
      kiln_notification_commit_wait(&n, token, KILN_INFINITE_FUTURE));
  // No post since this token: times out.
  token = kiln_notification_prepare_wait(&n);
  kiln_time_t start = kiln_time_now_ns();
  KILN_EXPECT_FALSE(
      kiln_notification_commit_wait(&n, token, kiln_make_deadline(10000000)));
  KILN_EXPECT_TRUE(kiln_time_now_ns() - start >= 10000000);
  token = kiln_notification_prepare_wait(&n);
  KILN_EXPECT_FALSE(
      kiln_notification_commit_wait(&n, token, KILN_IMMEDIATE_PAST));
  kiln_notification_prepare_wait(&n);
  kiln_notification_cancel_wait(&n);
  KILN_EXPECT_EQ_INT(kiln_atomic_load_seq_cst(&n.waiters), 0);
  kiln_notification_deinitialize(&n);
}

// Ping-pong: two threads hand a counter back and forth through two
// notifications; any lost wake-up hangs (and the ctest timeout catches it).
typedef struct ping_pong_t {
  kiln_notification_t to_b;
  kiln_notification_t to_a;
  kiln_atomic_int32_t turn;  // even: A's turn, odd: B's
  int32_t rounds;
} ping_pong_t;

static void wait_for_turn(kiln_notification_t* n, kiln_atomic_int32_t* turn,
                          int32_t parity, int32_t* out_value) {
  for (;;) {
    kiln_wait_token_t token = kiln_notification_prepare_wait(n);
    int32_t value = kiln_atomic_load_acquire(turn);
    if ((value & 1) == parity) {
      kiln_notification_cancel_wait(n);
      *out_value = value;
      return;
    }
    kiln_notification_commit_wait(n, token, KILN_INFINITE_FUTURE);
  }
}

static int ping_pong_b(void* arg) {
  ping_pong_t* pp = (ping_pong_t*)arg;
  for (int32_t i = 0; i < pp->rounds; ++i) {
    int32_t value = 0;
    wait_for_turn(&pp->to_b, &pp->turn, 1, &value);
    kiln_atomic_store_release(&pp->turn, value + 1);
    kiln_notification_post(&pp->to_a, 1);
  }
  return 0;
}

KILN_TEST(notification_ping_pong) {
  ping_pong_t pp;
  kiln_notification_initialize(&pp.to_a);
  kiln_notification_initialize(&pp.to_b);
  kiln_atomic_init(&pp.turn, 0);
  pp.rounds = 2000;
  kiln_thread_t* thread = NULL;
  KILN_ASSERT_OK(kiln_thread_create("pong", ping_pong_b, &pp,
                                    kiln_allocator_system(), &thread));
  for (int32_t i = 0; i < pp.rounds; ++i) {
    int32_t value = 0;
    wait_for_turn(&pp.to_a, &pp.turn, 0, &value);
    kiln_atomic_store_release(&pp.turn, value + 1);
    kiln_notification_post(&pp.to_b, 1);
  }
  int32_t final_value = 0;
  wait_for_turn(&pp.to_a, &pp.turn, 0, &final_value);
  KILN_EXPECT_EQ_INT(final_value, 2 * pp.rounds);
  kiln_thread_release(thread);
  kiln_notification_deinitialize(&pp.to_a);
  kiln_notification_deinitialize(&pp.to_b);
}

//===----------------------------------------------------------------------===//
// Event
//===----------------------------------------------------------------------===//

static int set_event_later(void* arg) {
  kiln_sleep_ns(2 * 1000000);
  kiln_event_set((kiln_event_t*)arg);
  return 0;
}

KILN_TEST(event_manual_and_auto_reset) {
  kiln_event_t manual;
  kiln_event_initialize(&manual, /*auto_reset=*/false, /*initially_set=*/false);
  KILN_EXPECT_FALSE(kiln_event_wait(&manual, kiln_make_deadline(1000000)));
  kiln_thread_t* thread = NULL;
  KILN_ASSERT_OK(kiln_thread_create("event", set_event_later, &manual,
                                    kiln_allocator_system(), &thread));
  KILN_EXPECT_TRUE(kiln_event_wait(&manual, KILN_INFINITE_FUTURE));
  KILN_EXPECT_TRUE(kiln_event_wait(&manual, KILN_IMMEDIATE_PAST));  // stays
  kiln_event_reset(&manual);
  KILN_EXPECT_FALSE(kiln_event_wait(&manual, KILN_IMMEDIATE_PAST));
  kiln_thread_release(thread);
  kiln_event_deinitialize(&manual);

  kiln_event_t automatic;
  kiln_event_initialize(&automatic, /*auto_reset=*/true,
                        /*initially_set=*/true);
  KILN_EXPECT_TRUE(kiln_event_wait(&automatic, KILN_IMMEDIATE_PAST));
  KILN_EXPECT_FALSE(kiln_event_wait(&automatic, KILN_IMMEDIATE_PAST));
  kiln_event_set(&automatic);
  KILN_EXPECT_TRUE(kiln_event_wait(&automatic, KILN_IMMEDIATE_PAST));
  kiln_event_deinitialize(&automatic);
}

KILN_TEST_MAIN(KILN_TEST_CASE(mutex_excludes), KILN_TEST_CASE(mutex_try_lock),
               KILN_TEST_CASE(condition_wait_and_timeout),
               KILN_TEST_CASE(notification_post_before_commit_is_not_lost),
               KILN_TEST_CASE(notification_ping_pong),
               KILN_TEST_CASE(event_manual_and_auto_reset))
