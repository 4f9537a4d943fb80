// The matmul driver on a task executor: results are bit-identical for any
// worker count (tile blocks are split, K never is), and match the
// single-threaded run.
#include <stdint.h>

#include "runtime/builtins/ukernel/matmul.h"
#include "runtime/testing/test.h"

static uint32_t kiln_test_rand(uint64_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (uint32_t)(*state >> 16);
}

// Fills |n| elements of |type|'s input type with random values: f32 in
// [-1, 1) (rounding differs between summation orders, so a split K would
// show), any s8, bf16/f16 bit patterns 0x3f80..0x3fff (bf16 [1, 2), f16
// about 1.9).
static void kiln_test_fill(uint32_t type, uint8_t* buf, int64_t n,
                           uint64_t* state) {
  for (int64_t i = 0; i < n; ++i) {
    uint32_t r = kiln_test_rand(state);
    if (type == KILN_UKERNEL_MMT4D_F32F32F32) {
      ((float*)buf)[i] = (float)(int32_t)(r % 2000001u - 1000000) / 1e6f;
    } else if (type == KILN_UKERNEL_MMT4D_S8S8S32) {
      buf[i] = (uint8_t)r;
    } else {
      ((uint16_t*)buf)[i] = (uint16_t)(0x3f80 | (r & 0x7f));
    }
  }
}

// Runs |type| M x K x N with no executor, then on executors with 1 and 2
// pool threads (2 and 3 threads with the caller), and compares the bits.
static void kiln_test_workers_identical(uint32_t type, int64_t M, int64_t N,
                                        int64_t K) {
  uint64_t features = kiln_ukernel_query_host_cpu_features();
  const size_t in_elem =
      kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(type));
  uint8_t* lhs = malloc((size_t)(M * K) * in_elem);
  uint8_t* rhs = malloc((size_t)(K * N) * in_elem);
  uint32_t* out[3];
  for (int i = 0; i < 3; ++i) out[i] = malloc((size_t)(M * N) * 4);
  KILN_ASSERT_TRUE(lhs && rhs && out[0] && out[1] && out[2]);
  uint64_t state = 0x1234567887654321ull;
  kiln_test_fill(type, lhs, M * K, &state);
  kiln_test_fill(type, rhs, K * N, &state);
  KILN_EXPECT_OK(kiln_ukernel_matmul(type, M, N, K, lhs, K, rhs, N, out[0], N,
                                     0, features, NULL,
                                     kiln_allocator_system()));
  for (uint32_t workers = 1; workers <= 2; ++workers) {
    kiln_task_executor_options_t options = kiln_task_executor_options_default();
    options.worker_count = workers;
    kiln_task_executor_t* executor = NULL;
    KILN_ASSERT_OK(kiln_task_executor_create(&options, kiln_allocator_system(),
                                             &executor));
    memset(out[workers], 0xff, (size_t)(M * N) * 4);
    KILN_EXPECT_OK(kiln_ukernel_matmul(type, M, N, K, lhs, K, rhs, N,
                                       out[workers], N, 0, features, executor,
                                       kiln_allocator_system()));
    kiln_task_executor_release(executor);
    if (memcmp(out[0], out[workers], (size_t)(M * N) * 4) != 0) {
      KILN_TEST_FAIL_(
          "type %u %lldx%lldx%lld: %u pool workers differ from "
          "the single-threaded run",
          type, (long long)M, (long long)K, (long long)N, workers);
    }
  }
  // Sanity: the result is not all zeros (the comparison would be vacuous).
  int nonzero = 0;
  for (int64_t i = 0; i < M * N; ++i) nonzero |= out[0][i] != 0;
  KILN_EXPECT_TRUE(nonzero);
  free(lhs);
  free(rhs);
  for (int i = 0; i < 3; ++i) free(out[i]);
}

KILN_TEST(f32_bit_identical_for_worker_counts) {
  // Several M blocks, N blocks (> 1152 columns) and K blocks (> 1024).
  kiln_test_workers_identical(KILN_UKERNEL_MMT4D_F32F32F32, 200, 1300, 2200);
  kiln_test_workers_identical(KILN_UKERNEL_MMT4D_F32F32F32, 3, 1500, 300);
  // One N block: tasks pack their own LHS rows.
  kiln_test_workers_identical(KILN_UKERNEL_MMT4D_F32F32F32, 300, 200, 500);
}

KILN_TEST(other_types_bit_identical_for_worker_counts) {
  kiln_test_workers_identical(KILN_UKERNEL_MMT4D_BF16BF16F32, 150, 700, 900);
  kiln_test_workers_identical(KILN_UKERNEL_MMT4D_F16F16F32, 150, 700, 300);
  kiln_test_workers_identical(KILN_UKERNEL_MMT4D_S8S8S32, 150, 700, 1500);
}

// Rows past the last whole tile run as skinny tiles (M = 49: 3 x 16 + 1):
// they must give the bits the same rows give inside whole tiles (the first
// M rows of an M = 64 run), overwriting or accumulating, with whole and
// partial column blocks (N = 1200: a 1152-column block and 48 columns) and
// several K blocks; rows past M stay untouched.
static void kiln_test_tail_rows_match_whole_tiles(uint32_t type) {
  const int64_t big_M = 64, N = 1200, K = 2100;
  uint64_t features = kiln_ukernel_query_host_cpu_features();
  const size_t in_elem =
      kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(type));
  uint8_t* lhs = malloc((size_t)(big_M * K) * in_elem);
  uint8_t* rhs = malloc((size_t)(K * N) * in_elem);
  int32_t* whole = malloc((size_t)(big_M * N) * 4);
  int32_t* tail = malloc((size_t)(big_M * N) * 4);
  KILN_ASSERT_TRUE(lhs && rhs && whole && tail);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  kiln_test_fill(type, lhs, big_M * K, &state);
  kiln_test_fill(type, rhs, K * N, &state);
  static const int64_t tails[] = {49, 63, 50, 17};
  for (int accumulate = 0; accumulate < 2; ++accumulate) {
    for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); ++t) {
      const int64_t M = tails[t];
      for (int64_t i = 0; i < big_M * N; ++i) {
        whole[i] = tail[i] = (int32_t)(i % 13) - 6;  // f32: tiny denormals
      }
      const uint32_t flags =
          accumulate ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0;
      KILN_EXPECT_OK(kiln_ukernel_matmul(type, big_M, N, K, lhs, K, rhs, N,
                                         whole, N, flags, features, NULL,
                                         kiln_allocator_system()));
      KILN_EXPECT_OK(kiln_ukernel_matmul(type, M, N, K, lhs, K, rhs, N, tail, N,
                                         flags, features, NULL,
                                         kiln_allocator_system()));
      if (memcmp(whole, tail, (size_t)(M * N) * 4) != 0) {
        KILN_TEST_FAIL_("type %u M=%lld %s: tail rows differ from whole tiles",
                        type, (long long)M,
                        accumulate ? "accumulate" : "overwrite");
      }
      for (int64_t i = M * N; i < big_M * N; ++i) {
        if (tail[i] != (int32_t)(i % 13) - 6) {
          KILN_TEST_FAIL_("type %u M=%lld: element %lld past M written", type,
                          (long long)M, (long long)i);
          break;
        }
      }
    }
  }
  free(lhs);
  free(rhs);
  free(whole);
  free(tail);
}

KILN_TEST(tail_rows_match_whole_tiles) {
  kiln_test_tail_rows_match_whole_tiles(KILN_UKERNEL_MMT4D_F32F32F32);
  kiln_test_tail_rows_match_whole_tiles(KILN_UKERNEL_MMT4D_BF16BF16F32);
  kiln_test_tail_rows_match_whole_tiles(KILN_UKERNEL_MMT4D_S8S8S32);
}

KILN_TEST_MAIN(KILN_TEST_CASE(f32_bit_identical_for_worker_counts),
               KILN_TEST_CASE(other_types_bit_identical_for_worker_counts),
               KILN_TEST_CASE(tail_rows_match_whole_tiles))
