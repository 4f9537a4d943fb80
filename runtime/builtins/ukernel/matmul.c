// The whole-matmul driver: plan (tile sizes, blocking, buffer sizes), RHS
// packing, and runs that pack the LHS, run mmt4d block by block and unpack.
#include "runtime/builtins/ukernel/matmul.h"

#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// CPU features
//===----------------------------------------------------------------------===//

uint64_t kiln_ukernel_host_cpu_features_capped(uint32_t isa_cap) {
  return kiln_ukernel_query_host_cpu_features() &
         kiln_ukernel_isa_feature_mask(isa_cap);
}

kiln_status_t kiln_ukernel_host_cpu_features_from_env(uint64_t* out_features) {
  uint32_t isa = KILN_UKERNEL_ISA_NATIVE;
  const char* value = getenv(KILN_UKERNEL_ISA_ENV);
  if (value && *value && kiln_ukernel_isa_parse(value, &isa) != 0) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "%s='%s' is not an ISA (generic, avx2, avx512, avx512vnni, "
        "avx512bf16, native)",
        KILN_UKERNEL_ISA_ENV, value);
  }
  *out_features = kiln_ukernel_host_cpu_features_capped(isa);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

// Block sizes in matrix rows and columns, and bytes of K per packed row.
// A task is M_BLOCK rows x N_BLOCK columns; the RHS panel of one K block
// (N_BLOCK columns x K_BYTES of K each, 4.5 MiB for f32) streams through
// L2 while the kernel keeps its accumulators in registers for the whole K
// block, and the task's OUT block (M_BLOCK x N_BLOCK x 4 bytes, 144 KiB)
// stays in L2. N_BLOCK is a multiple of three 16-column tiles, the run the
// f32 AVX-512 kernel takes at once. Long K blocks matter most: each
// three-tile call loads and stores 24 accumulators and sets up its loops
// once per K block. Measured on Zen 5 (48 KiB L1, 1 MiB L2), interleaved
// medians at 1 thread against 64 x 576 with 1 KiB of K (an LHS M1 row in
// L1): 1024^2 179 -> 195 GFLOP/s, 1536^2 178 -> 197, 2048^2 182 -> 197,
// 128x768x3072 178 -> 188, the same at 49x512x2048; also faster at 2
// threads. -D overrides them for experiments.
#ifndef KILN_UKERNEL_MATMUL_M_BLOCK
#define KILN_UKERNEL_MATMUL_M_BLOCK 32
#endif
#ifndef KILN_UKERNEL_MATMUL_N_BLOCK
#define KILN_UKERNEL_MATMUL_N_BLOCK 1152
#endif
#ifndef KILN_UKERNEL_MATMUL_K_BYTES
#define KILN_UKERNEL_MATMUL_K_BYTES 4096
#endif

static int kiln_ukernel_mul3_size(int64_t a, int64_t b, int64_t c, size_t elem,
                                  size_t* out) {
  size_t t;
  return kiln_mul_overflow_size((size_t)a, (size_t)b, &t) ||
         kiln_mul_overflow_size(t, (size_t)c, &t) ||
         kiln_mul_overflow_size(t, elem, out);
}

kiln_status_t kiln_ukernel_matmul_plan(uint32_t type, int64_t M, int64_t N,
                                       int64_t K, uint64_t cpu_features,
                                       uint32_t max_threads,
                                       kiln_ukernel_matmul_plan_t* out_plan) {
  memset(out_plan, 0, sizeof(*out_plan));
  if (!kiln_ukernel_mmt4d_input_elem(type)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul plan: unknown mmt4d type %u", type);
  }
  if (M < 0 || N < 0 || K < 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul plan: negative size M=%lld N=%lld K=%lld",
                            (long long)M, (long long)N, (long long)K);
  }
  if (max_threads == 0 || max_threads > KILN_TASK_EXECUTOR_MAX_WORKERS + 1) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul plan: max_threads %u outside 1..%u",
                            max_threads, KILN_TASK_EXECUTOR_MAX_WORKERS + 1);
  }
  kiln_ukernel_matmul_plan_t* p = out_plan;
  p->type = type;
  p->max_threads = max_threads;
  p->M = M, p->N = N, p->K = K;
  p->cpu_features = cpu_features;
  p->tile = kiln_ukernel_mmt4d_tile_sizes(type, cpu_features,
                                          KILN_UKERNEL_ISA_NATIVE, M);
  p->M1 = (M + p->tile.M0 - 1) / p->tile.M0;
  p->N1 = (N + p->tile.N0 - 1) / p->tile.N0;
  p->K1 = (K + p->tile.K0 - 1) / p->tile.K0;
  const size_t in_elem =
      kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(type));
  // K blocks of about K_BYTES per packed row (1024 f32); a last block
  // shorter than half the others is merged into them.
  int64_t k1_target =
      (int64_t)(KILN_UKERNEL_MATMUL_K_BYTES / (in_elem * (size_t)p->tile.K0));
  if (k1_target < 1) k1_target = 1;
  int64_t k_blocks = (p->K1 + k1_target - 1) / k1_target;
  if (k_blocks > 1 && p->K1 - (k_blocks - 1) * k1_target < k1_target / 2) {
    --k_blocks;
  }
  if (k_blocks < 1) k_blocks = 1;
  p->k1_block = (p->K1 + k_blocks - 1) / k_blocks;
  if (p->k1_block < 1) p->k1_block = 1;
  p->n1_block = KILN_UKERNEL_MATMUL_N_BLOCK / p->tile.N0;
  if (p->n1_block < 1) p->n1_block = 1;
  if (p->n1_block > p->N1) p->n1_block = p->N1 > 0 ? p->N1 : 1;
  // A narrower N block (N below N_BLOCK) gets more rows, up to the same OUT
  // block size, so that the tasks of narrow, small-K shapes (3136x64x256:
  // 144 rows) stay about as long as they were with 128-row blocks and the
  // per-task costs (dispatch, packing its rows) stay small.
  p->m1_block = KILN_UKERNEL_MATMUL_M_BLOCK * KILN_UKERNEL_MATMUL_N_BLOCK /
                (p->n1_block * p->tile.N0) / p->tile.M0;
  if (p->m1_block < 1) p->m1_block = 1;
  if (p->m1_block > p->M1) p->m1_block = p->M1 > 0 ? p->M1 : 1;
  // With several threads, smaller blocks until each thread gets a few.
  if (max_threads > 1) {
    for (;;) {
      int64_t tasks = ((p->M1 + p->m1_block - 1) / p->m1_block) *
                      ((p->N1 + p->n1_block - 1) / p->n1_block);
      if (tasks >= 4 * (int64_t)max_threads) break;
      if (p->m1_block > 1) {
        p->m1_block = (p->m1_block + 1) / 2;
      } else if (p->n1_block > 1) {
        p->n1_block = (p->n1_block + 1) / 2;
      } else {
        break;
      }
    }
  }
  size_t lhs_bytes, out_bytes, rhs_bytes;
  if (kiln_ukernel_mul3_size(p->M1, p->K1, (int64_t)p->tile.M0 * p->tile.K0,
                             in_elem, &lhs_bytes) ||
      kiln_ukernel_mul3_size(p->m1_block * p->n1_block, max_threads,
                             (int64_t)p->tile.M0 * p->tile.N0, 4, &out_bytes) ||
      kiln_ukernel_mul3_size(p->N1, p->K1, (int64_t)p->tile.N0 * p->tile.K0,
                             in_elem, &rhs_bytes) ||
      lhs_bytes > SIZE_MAX / 2 || out_bytes > SIZE_MAX / 2) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "matmul plan: packed buffers of M=%lld N=%lld "
                            "K=%lld overflow size_t",
                            (long long)M, (long long)N, (long long)K);
  }
  p->rhs_packed_size = rhs_bytes;
  p->scratch_size = (size_t)kiln_align_up(lhs_bytes, 64) + out_bytes;
  return kiln_ok_status();
}

kiln_status_t kiln_ukernel_matmul_pack_rhs(
    const kiln_ukernel_matmul_plan_t* plan, const void* rhs, int64_t rhs_stride,
    void* rhs_packed) {
  const kiln_ukernel_matmul_plan_t* p = plan;
  if (p->N1 == 0 || p->K1 == 0) return kiln_ok_status();
  if (!rhs_packed || (p->K > 0 && p->N > 0 && !rhs) ||
      (p->K > 0 && rhs_stride < p->N)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul pack_rhs: NULL buffer or row stride %lld "
                            "below N=%lld",
                            (long long)rhs_stride, (long long)p->N);
  }
  // RHS^T (N x K) is stored as the K x N row-major rhs: a transposed pack.
  kiln_ukernel_pack_params_t pack = {
      .in = rhs,
      .out = rhs_packed,
      .in_stride0 = rhs_stride,
      .out_stride0 = p->K1 * p->tile.N0 * p->tile.K0,
      .in_size0 = p->N,
      .in_size1 = p->K,
      .out_size0 = p->N1,
      .out_size1 = p->K1,
      .tile_size0 = p->tile.N0,
      .tile_size1 = p->tile.K0,
      .elem_type = kiln_ukernel_mmt4d_input_elem(p->type),
      .flags = KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE,
      .padding_value = 0,
      .cpu_features = p->cpu_features,
  };
  if (kiln_ukernel_pack(&pack) != KILN_UKERNEL_OK) {
    return kiln_make_status(KILN_STATUS_INTERNAL,
                            "matmul pack_rhs: pack rejected its arguments");
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Run
//===----------------------------------------------------------------------===//

typedef struct kiln_ukernel_matmul_job_t {
  const kiln_ukernel_matmul_plan_t* plan;
  const kiln_ukernel_matmul_args_t* args;
  char* lhs_packed;
  char* out_blocks;  // max_threads blocks of out_block_bytes
  size_t out_block_bytes;
  size_t in_elem;
  int64_t lhs_stride0, rhs_stride0, out_stride0;  // elements
  int64_t m_blocks, n_blocks;
  int pack_in_task;  // compute tasks pack their own LHS rows
} kiln_ukernel_matmul_job_t;

// Rows of an M1 row run as pieces: a whole M0 tile, or, in the last M1
// row when M % M0 != 0, skinny tiles of decreasing powers of two (49 rows:
// 3 x 16 + 1) instead of one padded tile, which computed M0 rows for the
// few real ones (fc 49x512x2048: 64 rows for 49). A piece of |h| rows from
// row r of its M1 row keeps its packed tiles at r / M0 of the M1 row's
// stride (LHS: r * K1 * K0; OUT: r * n1_block * N0), so the pieces of a row
// fill the space of one whole tile. Each element still sums its K products
// in the same order: the results are the bits a whole tile gives.
static int32_t kiln_ukernel_matmul_piece(const kiln_ukernel_matmul_plan_t* p,
                                         int64_t row) {
  const int64_t left = p->M - row;
  if (left >= p->tile.M0) return p->tile.M0;
  int32_t h = 1;
  while (2 * h <= left) h *= 2;
  return h;
}

// Packs |rows| rows (|in|, |in_stride| elements apart, |in_size1| wide) of
// |elem_type| into M1 rows of tiles |out_stride0| elements apart, |out_size1|
// tiles of |tile_size1| wide: the whole M0 tiles in one pack, the rows past
// them as pieces.
static int kiln_ukernel_matmul_pack_rows(const kiln_ukernel_matmul_plan_t* p,
                                         const char* in, int64_t in_stride,
                                         int64_t row0, int64_t rows,
                                         int64_t in_size1, char* out,
                                         int64_t out_stride0, int64_t out_size1,
                                         int32_t tile_size1,
                                         uint32_t elem_type) {
  const int64_t M0 = p->tile.M0;
  const size_t elem = kiln_ukernel_elem_size(elem_type);
  kiln_ukernel_pack_params_t pack = {
      .in = in,
      .out = out,
      .in_stride0 = in_stride,
      .out_stride0 = out_stride0,
      .in_size0 = rows / M0 * M0,
      .in_size1 = in_size1,
      .out_size0 = rows / M0,
      .out_size1 = out_size1,
      .tile_size0 = (int32_t)M0,
      .tile_size1 = tile_size1,
      .elem_type = elem_type,
      .cpu_features = p->cpu_features,
  };
  if (pack.out_size0 > 0 && kiln_ukernel_pack(&pack) != KILN_UKERNEL_OK) {
    return 0;
  }
  const int64_t piece_row_stride = out_stride0 / M0;
  out += (size_t)(rows / M0 * out_stride0) * elem;
  for (int64_t r = rows / M0 * M0; r < rows;) {
    const int32_t h = kiln_ukernel_matmul_piece(p, row0 + r);
    pack.in = in + (size_t)(r * in_stride) * elem;
    pack.out = out + (size_t)(r % M0 * piece_row_stride) * elem;
    pack.in_size0 = h;
    pack.out_size0 = 1;
    pack.out_stride0 = h * piece_row_stride;
    pack.tile_size0 = h;
    if (kiln_ukernel_pack(&pack) != KILN_UKERNEL_OK) return 0;
    r += h;
  }
  return 1;
}

// Phase 1, per block of m1_block M1 rows: packs the LHS rows.
static kiln_status_t kiln_ukernel_matmul_pack_block(void* user_data,
                                                    uint32_t index,
                                                    uint32_t worker_id) {
  (void)worker_id;
  const kiln_ukernel_matmul_job_t* job = user_data;
  const kiln_ukernel_matmul_plan_t* p = job->plan;
  const kiln_ukernel_matmul_args_t* a = job->args;
  const int64_t m1_begin = (int64_t)index * p->m1_block;
  int64_t m1_count = p->M1 - m1_begin;
  if (m1_count > p->m1_block) m1_count = p->m1_block;
  const int64_t row0 = m1_begin * p->tile.M0;
  int64_t rows = p->M - row0;
  if (rows > m1_count * p->tile.M0) rows = m1_count * p->tile.M0;
  if (p->K1 > 0 &&
      !kiln_ukernel_matmul_pack_rows(
          p,
          (const char*)a->lhs + (size_t)(row0 * a->lhs_stride) * job->in_elem,
          a->lhs_stride, row0, rows, p->K,
          job->lhs_packed +
              (size_t)(m1_begin * job->lhs_stride0) * job->in_elem,
          job->lhs_stride0, p->K1, p->tile.K0,
          kiln_ukernel_mmt4d_input_elem(p->type))) {
    return kiln_make_status(KILN_STATUS_INTERNAL,
                            "matmul: LHS pack rejected its arguments");
  }
  return kiln_ok_status();
}

// Phase 2, per (m1_block rows) x (n1_block columns) block: mmt4d over K
// blocks (the RHS block stays in cache across the rows), then unpacks each
// row of tiles once its last K block is done.
static kiln_status_t kiln_ukernel_matmul_compute_block(void* user_data,
                                                       uint32_t index,
                                                       uint32_t worker_id) {
  const kiln_ukernel_matmul_job_t* job = user_data;
  const kiln_ukernel_matmul_plan_t* p = job->plan;
  const kiln_ukernel_matmul_args_t* a = job->args;
  // This worker's OUT block: [m1 - m1_begin][n1 - n1_begin][M0][N0].
  char* out_block = job->out_blocks + (size_t)worker_id * job->out_block_bytes;
  // Consecutive tasks walk down one N block: its RHS columns (the whole
  // K x N_BLOCK panel) stay in the last-level cache across all M blocks.
  const int64_t mb = (int64_t)index % job->m_blocks;
  const int64_t nb = (int64_t)index / job->m_blocks;
  const int64_t m1_begin = mb * p->m1_block;
  int64_t m1_end = m1_begin + p->m1_block;
  if (m1_end > p->M1) m1_end = p->M1;
  const int64_t n1_begin = nb * p->n1_block;
  int64_t n1_count = p->N1 - n1_begin;
  if (n1_count > p->n1_block) n1_count = p->n1_block;
  const int64_t M0 = p->tile.M0, N0 = p->tile.N0, K0 = p->tile.K0;
  const size_t out_elem = 4;
  const int64_t col0 = n1_begin * N0;
  int64_t cols = p->N - col0;
  if (cols > n1_count * N0) cols = n1_count * N0;
  const int accumulate = (a->flags & KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) != 0;
  const int64_t row_begin = m1_begin * M0;
  int64_t block_rows = p->M - row_begin;
  if (block_rows > (m1_end - m1_begin) * M0) {
    block_rows = (m1_end - m1_begin) * M0;
  }
  // s8 and bf16 products write whole tiles straight into OUT's rows
  // (KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR): no packed OUT block, no
  // unpack. Their kernels are 2-4x faster than f32's, so the unpack was a
  // large share (an s8 3136x64x256: a quarter); f32 measured no gain.
  const int in_place = (p->type == KILN_UKERNEL_MMT4D_S8S8S32 ||
                        p->type == KILN_UKERNEL_MMT4D_BF16BF16F32) &&
                       cols == n1_count * N0;
  // The current OUT values become the initial tiles.
  if (accumulate && !in_place &&
      !kiln_ukernel_matmul_pack_rows(
          p,
          (const char*)a->out +
              (size_t)(row_begin * a->out_stride + col0) * out_elem,
          a->out_stride, row_begin, block_rows, cols, out_block,
          job->out_stride0, n1_count, (int32_t)N0,
          kiln_ukernel_mmt4d_output_elem(p->type))) {
    return kiln_make_status(KILN_STATUS_INTERNAL,
                            "matmul: OUT pack rejected its arguments");
  }
  if (job->pack_in_task) {
    kiln_status_t status =
        kiln_ukernel_matmul_pack_block(user_data, (uint32_t)mb, worker_id);
    if (status) return status;
  }
  const int64_t k_blocks =
      p->K1 == 0 ? 1 : (p->K1 + p->k1_block - 1) / p->k1_block;
  for (int64_t kb = 0; kb < k_blocks; ++kb) {
    const int64_t k1_begin = kb * p->k1_block;
    int64_t k1_count = p->K1 - k1_begin;
    if (k1_count > p->k1_block) k1_count = p->k1_block;
    for (int64_t m1 = m1_begin; m1 < m1_end; ++m1) {
      for (int64_t r = 0; r < M0 && m1 * M0 + r < p->M;) {
        const int32_t h = kiln_ukernel_matmul_piece(p, m1 * M0 + r);
        char* out_tiles =
            out_block + (size_t)((m1 - m1_begin) * job->out_stride0 +
                                 r * (job->out_stride0 / M0)) *
                            out_elem;
        char* const out_rows =
            (char*)a->out +
            (size_t)((m1 * M0 + r) * a->out_stride + col0) * out_elem;
        kiln_ukernel_mmt4d_params_t mmt4d = {
            // K1 == 0 reads neither operand (and the RHS may be NULL then).
            .lhs = k1_count == 0
                       ? NULL
                       : job->lhs_packed +
                             (size_t)(m1 * job->lhs_stride0 + r * p->K1 * K0 +
                                      k1_begin * h * K0) *
                                 job->in_elem,
            .rhs = k1_count == 0 ? NULL
                                 : (const char*)a->rhs_packed +
                                       (size_t)(n1_begin * job->rhs_stride0 +
                                                k1_begin * N0 * K0) *
                                           job->in_elem,
            .out = in_place ? (void*)out_rows : (void*)out_tiles,
            .lhs_stride0 = h * p->K1 * K0,
            .rhs_stride0 = job->rhs_stride0,
            .out_stride0 =
                in_place ? h * a->out_stride : h * (job->out_stride0 / M0),
            .M1 = 1,
            .N1 = n1_count,
            .K1 = k1_count,
            .M0 = h,
            .N0 = (int32_t)N0,
            .K0 = (int32_t)K0,
            .type = p->type,
            .flags =
                ((kb > 0 || accumulate) ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE
                                        : 0) |
                (in_place ? KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR : 0),
            .cpu_features = p->cpu_features,
            .out_stride1 = in_place ? a->out_stride : 0,
        };
        if (kiln_ukernel_mmt4d(&mmt4d) != KILN_UKERNEL_OK) {
          return kiln_make_status(KILN_STATUS_INTERNAL,
                                  "matmul: mmt4d rejected its arguments");
        }
        if (kb + 1 == k_blocks && !in_place) {
          const int64_t row0 = m1 * M0 + r;
          kiln_ukernel_unpack_params_t unpack = {
              .in = out_tiles,
              .out = (char*)a->out +
                     (size_t)(row0 * a->out_stride + col0) * out_elem,
              .in_stride0 = mmt4d.out_stride0,
              .out_stride0 = a->out_stride,
              .out_size0 = h,
              .out_size1 = cols,
              .tile_size0 = h,
              .tile_size1 = (int32_t)N0,
              .elem_type = kiln_ukernel_mmt4d_output_elem(p->type),
              .cpu_features = p->cpu_features,
          };
          if (kiln_ukernel_unpack(&unpack) != KILN_UKERNEL_OK) {
            return kiln_make_status(KILN_STATUS_INTERNAL,
                                    "matmul: unpack rejected its arguments");
          }
        }
        r += h;
      }
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_ukernel_matmul_parallel(
    kiln_task_executor_t* executor, uint32_t count, kiln_task_parallel_fn_t fn,
    void* user_data) {
  if (executor) {
    return kiln_task_executor_parallel_for(executor, count, 1, fn, user_data);
  }
  for (uint32_t i = 0; i < count; ++i) {
    kiln_status_t status = fn(user_data, i, 0);
    if (status) return status;
  }
  return kiln_ok_status();
}

kiln_status_t kiln_ukernel_matmul_run(const kiln_ukernel_matmul_plan_t* plan,
                                      const kiln_ukernel_matmul_args_t* args) {
  const kiln_ukernel_matmul_plan_t* p = plan;
  const kiln_ukernel_matmul_args_t* a = args;
  if (p->M == 0 || p->N == 0) return kiln_ok_status();
  if (!a->out || a->out_stride < p->N ||
      (p->K > 0 && (!a->lhs || !a->rhs_packed || a->lhs_stride < p->K))) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "matmul run: NULL buffer or row stride below the row length "
        "(lhs_stride=%lld, K=%lld, out_stride=%lld, N=%lld)",
        (long long)a->lhs_stride, (long long)p->K, (long long)a->out_stride,
        (long long)p->N);
  }
  if (!a->scratch || a->scratch_size < p->scratch_size) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul run: scratch of %zu bytes, the plan "
                            "needs %zu",
                            a->scratch ? a->scratch_size : (size_t)0,
                            p->scratch_size);
  }
  if (a->flags & ~KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul run: unknown flags 0x%x", a->flags);
  }
  const uint32_t threads =
      a->executor ? kiln_task_executor_worker_count(a->executor) + 1 : 1;
  if (threads > p->max_threads) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "matmul run: the executor runs %u threads, the "
                            "plan's scratch is for %u",
                            threads, p->max_threads);
  }
  kiln_ukernel_matmul_job_t job = {
      .plan = p,
      .args = a,
      .in_elem = kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(p->type)),
      .lhs_stride0 = p->K1 * p->tile.M0 * p->tile.K0,
      .rhs_stride0 = p->K1 * p->tile.N0 * p->tile.K0,
      .out_stride0 = p->n1_block * p->tile.M0 * p->tile.N0,
      .out_block_bytes =
          (size_t)(p->m1_block * p->n1_block * p->tile.M0 * p->tile.N0) * 4,
  };
  size_t lhs_bytes = (size_t)(p->M1 * job.lhs_stride0) * job.in_elem;
  job.lhs_packed = (char*)a->scratch;
  job.out_blocks = (char*)a->scratch + kiln_align_up(lhs_bytes, 64);
  job.m_blocks = (p->M1 + p->m1_block - 1) / p->m1_block;
  job.n_blocks = (p->N1 + p->n1_block - 1) / p->n1_block;
  if (job.m_blocks * job.n_blocks > UINT32_MAX) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "matmul run: %lld x %lld blocks",
                            (long long)job.m_blocks, (long long)job.n_blocks);
  }
  // With one N block each task is the only reader of its LHS rows: it packs
  // them itself, just before use (hot in cache, and one parallel_for less).
  // Otherwise every task of an M block shares rows packed beforehand.
  job.pack_in_task = job.n_blocks == 1;
  if (!job.pack_in_task) {
    kiln_status_t status =
        kiln_ukernel_matmul_parallel(a->executor, (uint32_t)job.m_blocks,
                                     kiln_ukernel_matmul_pack_block, &job);
    if (status) return status;
  }
  return kiln_ukernel_matmul_parallel(a->executor,
                                      (uint32_t)(job.m_blocks * job.n_blocks),
                                      kiln_ukernel_matmul_compute_block, &job);
}

kiln_status_t kiln_ukernel_matmul(
    uint32_t type, int64_t M, int64_t N, int64_t K, const void* lhs,
    int64_t lhs_stride, const void* rhs, int64_t rhs_stride, void* out,
    int64_t out_stride, uint32_t flags, uint64_t cpu_features,
    kiln_task_executor_t* executor, kiln_allocator_t allocator) {
  kiln_ukernel_matmul_plan_t plan;
  const uint32_t threads =
      executor ? kiln_task_executor_worker_count(executor) + 1 : 1;
  kiln_status_t status =
      kiln_ukernel_matmul_plan(type, M, N, K, cpu_features, threads, &plan);
  if (status) return status;
  void* rhs_packed = NULL;
  void* scratch = NULL;
  status = kiln_allocator_malloc_aligned(
      allocator, plan.rhs_packed_size ? plan.rhs_packed_size : 1, 64,
      &rhs_packed);
  if (!status) {
    status = kiln_allocator_malloc_aligned(
        allocator, plan.scratch_size ? plan.scratch_size : 1, 64, &scratch);
  }
  if (!status) {
    status = kiln_ukernel_matmul_pack_rhs(&plan, rhs, rhs_stride, rhs_packed);
  }
  if (!status) {
    kiln_ukernel_matmul_args_t args = {
        .lhs = lhs,
        .lhs_stride = lhs_stride,
        .rhs_packed = rhs_packed,
        .out = out,
        .out_stride = out_stride,
        .flags = flags,
        .scratch = scratch,
        .scratch_size = plan.scratch_size ? plan.scratch_size : 1,
        .executor = executor,
    };
    status = kiln_ukernel_matmul_run(&plan, &args);
  }
  if (scratch) kiln_allocator_free_aligned(allocator, scratch, 64);
  if (rhs_packed) kiln_allocator_free_aligned(allocator, rhs_packed, 64);
  return status;
}

kiln_status_t kiln_ukernel_matmul_f32(int64_t M, int64_t N, int64_t K,
                                      const float* lhs, int64_t lhs_stride,
                                      const float* rhs, int64_t rhs_stride,
                                      float* out, int64_t out_stride,
                                      uint64_t cpu_features,
                                      kiln_task_executor_t* executor,
                                      kiln_allocator_t allocator) {
  return kiln_ukernel_matmul(KILN_UKERNEL_MMT4D_F32F32F32, M, N, K, lhs,
                             lhs_stride, rhs, rhs_stride, out, out_stride, 0,
                             cpu_features, executor, allocator);
}
