#include "runtime/base/limited_allocator.h"

#include <string.h>

#include "runtime/testing/test.h"

KILN_TEST(counts_and_refuses_past_the_limit) {
  kiln_limited_allocator_t* limiter = NULL;
  KILN_ASSERT_OK(kiln_limited_allocator_create(kiln_allocator_system(), 1000,
                                               "--test_limit", &limiter));
  kiln_allocator_t a = kiln_limited_allocator_allocator(limiter);
  void* p = NULL;
  KILN_ASSERT_OK(kiln_allocator_malloc(a, 600, &p));
  memset(p, 1, 600);
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 600);
  // 600 + 401 > 1000: refused with a status naming the limit and its flag.
  void* q = NULL;
  kiln_status_t status = kiln_allocator_malloc(a, 401, &q);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_RESOURCE_EXHAUSTED);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "allocating 401 bytes would exceed the allocation "
                       "limit of 1000 bytes (--test_limit; 600 bytes in use)");
  kiln_status_free(status);
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 600);
  // Exactly up to the limit fits; aligned blocks are aligned and counted.
  KILN_ASSERT_OK(kiln_allocator_malloc_aligned(a, 400, 64, &q));
  KILN_EXPECT_EQ_INT((uintptr_t)q % 64, 0);
  memset(q, 2, 400);
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 1000);
  kiln_allocator_free_aligned(a, q, 64);
  // Growing counts the growth; a failed growth keeps the old block.
  KILN_ASSERT_OK(kiln_allocator_realloc(a, 900, &p));
  KILN_EXPECT_EQ_INT(((uint8_t*)p)[599], 1);
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 900);
  status = kiln_allocator_realloc(a, 1001, &p);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_RESOURCE_EXHAUSTED);
  kiln_status_free(status);
  KILN_ASSERT_OK(kiln_allocator_realloc(a, 10, &p));
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 10);
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_peak(limiter), 1000);
  // A request whose size overflows with the header is refused, not wrapped.
  status = kiln_allocator_malloc(a, SIZE_MAX - 4, &q);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_RESOURCE_EXHAUSTED);
  kiln_status_free(status);
  // A block freed after the owner's release still finds the limiter (LSan
  // checks that it then goes).
  kiln_limited_allocator_release(limiter);
  kiln_allocator_free(a, p);
}

KILN_TEST(zero_limit_only_counts) {
  kiln_limited_allocator_t* limiter = NULL;
  KILN_ASSERT_OK(kiln_limited_allocator_create(kiln_allocator_system(), 0, NULL,
                                               &limiter));
  kiln_allocator_t a = kiln_limited_allocator_allocator(limiter);
  void* p = NULL;
  KILN_ASSERT_OK(kiln_allocator_malloc(a, 1 << 20, &p));
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 1 << 20);
  kiln_allocator_free(a, p);
  KILN_EXPECT_EQ_INT(kiln_limited_allocator_bytes_in_use(limiter), 0);
  kiln_limited_allocator_release(limiter);
}

KILN_TEST_MAIN(KILN_TEST_CASE(counts_and_refuses_past_the_limit),
               KILN_TEST_CASE(zero_limit_only_counts))
