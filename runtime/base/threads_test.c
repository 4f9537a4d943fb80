#include "runtime/base/threads.h"

#include <pthread.h>
#include <string.h>

#include "runtime/base/atomics.h"
#include "runtime/testing/test.h"

typedef struct thread_args_t {
  int input;
  char observed_name[16];
} thread_args_t;

static int square_and_read_name(void* arg) {
  thread_args_t* args = (thread_args_t*)arg;
  pthread_getname_np(pthread_self(), args->observed_name,
                     sizeof(args->observed_name));
  return args->input * args->input;
}

KILN_TEST(create_join_returns_result_and_sets_name) {
  thread_args_t args = {7, {0}};
  kiln_thread_t* thread = NULL;
  KILN_ASSERT_OK(kiln_thread_create("kiln-test-thread-with-long-name",
                                    square_and_read_name, &args,
                                    kiln_allocator_system(), &thread));
  int result = 0;
  kiln_thread_join(thread, &result);
  KILN_EXPECT_EQ_INT(result, 49);
  kiln_thread_join(thread, &result);  // joining twice is allowed
  KILN_EXPECT_EQ_INT(result, 49);
  // Linux keeps 15 characters of the name.
  KILN_EXPECT_STREQ(args.observed_name, "kiln-test-threa");
  KILN_EXPECT_STREQ(kiln_thread_name(thread), "kiln-test-threa");
  kiln_thread_release(thread);
}

static kiln_atomic_int32_t ran_count;
static int bump(void* arg) {
  (void)arg;
  kiln_atomic_fetch_add_relaxed(&ran_count, 1);
  return 0;
}

KILN_TEST(release_joins) {
  kiln_atomic_store_relaxed(&ran_count, 0);
  for (int i = 0; i < 16; ++i) {
    kiln_thread_t* thread = NULL;
    KILN_ASSERT_OK(
        kiln_thread_create(NULL, bump, NULL, kiln_allocator_system(), &thread));
    kiln_thread_release(thread);  // joins: the count is exact afterwards
    KILN_EXPECT_EQ_INT(kiln_atomic_load_relaxed(&ran_count), i + 1);
  }
  kiln_thread_release(NULL);
}

KILN_TEST(create_fails_cleanly_without_memory) {
  kiln_thread_t* thread = (kiln_thread_t*)1;
  KILN_EXPECT_STATUS(
      KILN_STATUS_RESOURCE_EXHAUSTED,
      kiln_thread_create("x", bump, NULL, kiln_allocator_null(), &thread));
  KILN_EXPECT_TRUE(thread == NULL);
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_thread_create("x", NULL, NULL, kiln_allocator_system(), &thread));
}

static int wait_briefly(void* arg) {
  (void)arg;
  return 0;
}

KILN_TEST(affinity_and_cpu_count) {
  uint32_t count = kiln_cpu_count();
  KILN_EXPECT_TRUE(count >= 1);
  kiln_thread_t* thread = NULL;
  KILN_ASSERT_OK(kiln_thread_create("affinity", wait_briefly, NULL,
                                    kiln_allocator_system(), &thread));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_thread_set_affinity(thread, 1u << 20));
  kiln_thread_join(thread, NULL);
  kiln_thread_release(thread);
  kiln_thread_yield();
}

KILN_TEST_MAIN(KILN_TEST_CASE(create_join_returns_result_and_sets_name),
               KILN_TEST_CASE(release_joins),
               KILN_TEST_CASE(create_fails_cleanly_without_memory),
               KILN_TEST_CASE(affinity_and_cpu_count))
