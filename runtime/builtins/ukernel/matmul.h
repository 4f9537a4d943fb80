// Whole matmuls on the micro-kernels, for tests, benchmarks and the
// runtime: OUT (M x N, row-major) = LHS (M x K, row-major) x RHS (K x N,
// row-major), or OUT += with KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE.
//
// A plan fixes the tile sizes and blocking for one shape and CPU. The RHS is
// packed once (constant weights are packed ahead of time); each run packs
// the LHS into caller-owned scratch, runs mmt4d over the tiles (optionally
// spread over a task executor: M1 x N1 tile blocks, K never split, so the
// result is bit-identical for any worker count) and unpacks the result.
//
// Ownership: the caller owns every buffer; nothing here allocates except
// the kiln_ukernel_matmul convenience function (which frees what it
// allocates before returning). Threading: a plan is immutable; runs with
// different scratch and outputs may proceed concurrently.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_MATMUL_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_MATMUL_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/builtins/ukernel/ukernel.h"
#include "runtime/task/executor.h"

#ifdef __cplusplus
extern "C" {
#endif

// The environment variable that caps the ISA of
// kiln_ukernel_host_cpu_features (generic, avx2, avx512, avx512vnni,
// avx512bf16, native).
#define KILN_UKERNEL_ISA_ENV "KILN_UKERNEL_ISA"

// The host's CPU features capped at |isa_cap| (kiln_ukernel_isa_t).
uint64_t kiln_ukernel_host_cpu_features_capped(uint32_t isa_cap);
// The host's CPU features capped by $KILN_UKERNEL_ISA when it is set;
// INVALID_ARGUMENT naming the variable and the value when it is not an ISA.
kiln_status_t kiln_ukernel_host_cpu_features_from_env(uint64_t* out_features);

typedef struct kiln_ukernel_matmul_plan_t {
  uint32_t type;  // kiln_ukernel_mmt4d_type_t
  int64_t M, N, K;
  uint64_t cpu_features;
  kiln_ukernel_tile_sizes_t tile;
  int64_t M1, N1, K1;  // tile counts (padded up)
  // Blocking: K1 tiles per mmt4d call, N1 tiles per task, M1 rows per task.
  int64_t k1_block, n1_block, m1_block;
  // Threads a run may use (the executor's worker_count + 1 for the caller).
  uint32_t max_threads;
  size_t rhs_packed_size;  // bytes of the packed RHS
  // Bytes of scratch one run needs: the packed LHS, and one block of OUT
  // tiles per thread (it stays in cache while K blocks accumulate into it).
  size_t scratch_size;
} kiln_ukernel_matmul_plan_t;

// Plans an M x K x N matmul of |type| for |cpu_features|, to run on up to
// |max_threads| threads (1 without an executor; the executor's worker_count
// + 1 with one). INVALID_ARGUMENT for an unknown type, negative sizes or 0
// threads; OUT_OF_RANGE when the buffer sizes overflow.
kiln_status_t kiln_ukernel_matmul_plan(uint32_t type, int64_t M, int64_t N,
                                       int64_t K, uint64_t cpu_features,
                                       uint32_t max_threads,
                                       kiln_ukernel_matmul_plan_t* out_plan);

// Packs the row-major K x N |rhs| (row stride |rhs_stride| elements) into
// |rhs_packed| (plan->rhs_packed_size bytes).
kiln_status_t kiln_ukernel_matmul_pack_rhs(
    const kiln_ukernel_matmul_plan_t* plan, const void* rhs, int64_t rhs_stride,
    void* rhs_packed);

typedef struct kiln_ukernel_matmul_args_t {
  const void* lhs;  // M x K, row-major
  int64_t lhs_stride;
  const void* rhs_packed;  // from kiln_ukernel_matmul_pack_rhs
  void* out;               // M x N, row-major (f32, or s32 for s8 inputs)
  int64_t out_stride;
  uint32_t flags;  // KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE: out += product
  void* scratch;   // plan->scratch_size bytes (64-byte aligned is fastest)
  size_t scratch_size;
  // Optional: spreads tile blocks over the executor's workers and the
  // calling thread. NULL runs on the calling thread. Must not be called
  // from inside a parallel_for of the same executor.
  kiln_task_executor_t* executor;
} kiln_ukernel_matmul_args_t;

// Runs the planned matmul. INVALID_ARGUMENT for NULL buffers, strides below
// the row lengths, too little scratch or an executor with more threads than
// the plan's max_threads.
kiln_status_t kiln_ukernel_matmul_run(const kiln_ukernel_matmul_plan_t* plan,
                                      const kiln_ukernel_matmul_args_t* args);

// Plans, packs the RHS, runs and frees, in one call; buffers as above.
kiln_status_t kiln_ukernel_matmul(
    uint32_t type, int64_t M, int64_t N, int64_t K, const void* lhs,
    int64_t lhs_stride, const void* rhs, int64_t rhs_stride, void* out,
    int64_t out_stride, uint32_t flags, uint64_t cpu_features,
    kiln_task_executor_t* executor, kiln_allocator_t allocator);

// f32 x f32 -> f32 through kiln_ukernel_matmul.
kiln_status_t kiln_ukernel_matmul_f32(int64_t M, int64_t N, int64_t K,
                                      const float* lhs, int64_t lhs_stride,
                                      const float* rhs, int64_t rhs_stride,
                                      float* out, int64_t out_stride,
                                      uint64_t cpu_features,
                                      kiln_task_executor_t* executor,
                                      kiln_allocator_t allocator);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BUILTINS_UKERNEL_MATMUL_H_
