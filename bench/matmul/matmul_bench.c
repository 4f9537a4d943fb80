// Matmul benchmark: kiln's ukernel matmul against OpenBLAS sgemm and the
// core's FMA peak, measured in one run (see run.sh). Not a test: it prints
// rates and ratios against references measured in the same process.
//
// kiln's time includes packing the LHS and unpacking the result; the RHS is
// packed once beforehand, as constant weights are. Each measurement is the
// fastest call of several rounds, and kiln and OpenBLAS alternate within a
// round so that load from other processes hits both alike. The roofline
// column is the lower of the FMA peak and the rate that one read of the
// packed RHS (timed in the same rounds) allows: a matrix-vector product is
// bound by that read, not by the FMAs.
//
// Usage: matmul_bench [--json FILE] [--rounds N] [--threads 1,2] [--quick]
//                     [--shape NAME]   (only the shapes named NAME, e.g.
//                                       gemv-like; the FMA peak still runs)
#include <cblas.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/builtins/ukernel/matmul.h"

static double kiln_bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Register-only FMA loop: 16 independent zmm accumulators (more than FMA
// latency x throughput), no memory traffic; written in assembly so the
// compiler cannot reorder or spill it. Returns GFLOP/s of one thread.
__attribute__((noinline, target("avx512f"))) static double
kiln_bench_peak_avx512(int64_t iterations) {
  double start = kiln_bench_now();
  int64_t n = iterations;
  __asm__ volatile(
      "vxorps %%xmm30, %%xmm30, %%xmm30\n"
      "vxorps %%xmm31, %%xmm31, %%xmm31\n"
      "1:\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm0\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm1\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm2\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm3\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm4\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm5\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm6\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm7\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm8\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm9\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm10\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm11\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm12\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm13\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm14\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm15\n"
      "dec %0\n"
      "jnz 1b\n"
      "vzeroupper\n"
      : "+r"(n)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm30",
        "xmm31", "cc");
  double seconds = kiln_bench_now() - start;
  return (double)iterations * 16 * 16 * 2 / seconds / 1e9;
}

// The peak of |threads| threads at once: each runs the register-only loop
// after a common start; the sum of their rates. On a shared or virtual
// machine two busy cores may each run slower than one alone (measured here:
// 150-170 GFLOP/s each at times, against 220-235 alone), so the rate of
// several threads is measured with that many threads, not as one thread's
// times the count.
typedef struct kiln_bench_peak_thread_t {
  pthread_barrier_t* start;
  int64_t iterations;
  double gflops;
} kiln_bench_peak_thread_t;

static void* kiln_bench_peak_thread_main(void* arg) {
  kiln_bench_peak_thread_t* t = (kiln_bench_peak_thread_t*)arg;
  pthread_barrier_wait(t->start);
  t->gflops = kiln_bench_peak_avx512(t->iterations);
  return NULL;
}

static double kiln_bench_peak_threads(int threads, int64_t iterations) {
  enum { kMaxThreads = 64 };
  if (threads > kMaxThreads) threads = kMaxThreads;
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, (unsigned)threads);
  kiln_bench_peak_thread_t ts[kMaxThreads];
  pthread_t handles[kMaxThreads];
  for (int i = 1; i < threads; ++i) {
    ts[i].start = &start;
    ts[i].iterations = iterations;
    pthread_create(&handles[i], NULL, kiln_bench_peak_thread_main, &ts[i]);
  }
  ts[0].start = &start;
  ts[0].iterations = iterations;
  kiln_bench_peak_thread_main(&ts[0]);
  double sum = ts[0].gflops;
  for (int i = 1; i < threads; ++i) {
    pthread_join(handles[i], NULL);
    sum += ts[i].gflops;
  }
  pthread_barrier_destroy(&start);
  return sum;
}

typedef struct kiln_bench_shape_t {
  const char* name;
  int64_t M, K, N;
} kiln_bench_shape_t;

typedef struct kiln_bench_kiln_t {
  kiln_ukernel_matmul_plan_t plan;
  void* lhs;
  void* rhs_packed;
  void* out;
  void* scratch;
  kiln_task_executor_t* executor;
} kiln_bench_kiln_t;

static void kiln_bench_check(kiln_status_t status, const char* what) {
  if (status) {
    fprintf(stderr, "matmul_bench: %s: %s\n", what,
            kiln_status_message(status));
    exit(1);
  }
}

static void* kiln_bench_alloc(size_t size) {
  void* p = aligned_alloc(64, (size + 63) & ~(size_t)63);
  if (!p) {
    fprintf(stderr, "matmul_bench: out of memory (%zu bytes)\n", size);
    exit(1);
  }
  memset(p, 0, size);
  return p;
}

static void kiln_bench_kiln_init(kiln_bench_kiln_t* k, uint32_t type,
                                 const kiln_bench_shape_t* s, uint64_t features,
                                 kiln_task_executor_t* executor) {
  memset(k, 0, sizeof(*k));
  kiln_bench_check(
      kiln_ukernel_matmul_plan(
          type, s->M, s->N, s->K, features,
          executor ? kiln_task_executor_worker_count(executor) + 1 : 1,
          &k->plan),
      "plan");
  size_t in_elem = kiln_ukernel_elem_size(kiln_ukernel_mmt4d_input_elem(type));
  k->lhs = kiln_bench_alloc((size_t)(s->M * s->K) * in_elem);
  void* rhs = kiln_bench_alloc((size_t)(s->K * s->N) * in_elem);
  // Small values valid in every type (bf16/f16 1.0 + noise, s8 bytes).
  for (int64_t i = 0; i < s->M * s->K; ++i) {
    if (in_elem == 4) ((float*)k->lhs)[i] = (float)(i % 7) * 0.25f - 0.75f;
    if (in_elem == 2) ((uint16_t*)k->lhs)[i] = (uint16_t)(0x3f80 + i % 17);
    if (in_elem == 1) ((int8_t*)k->lhs)[i] = (int8_t)(i % 255 - 127);
  }
  for (int64_t i = 0; i < s->K * s->N; ++i) {
    if (in_elem == 4) ((float*)rhs)[i] = (float)(i % 5) * 0.5f - 1.0f;
    if (in_elem == 2) ((uint16_t*)rhs)[i] = (uint16_t)(0x3f80 + i % 13);
    if (in_elem == 1) ((int8_t*)rhs)[i] = (int8_t)(i % 251 - 125);
  }
  k->rhs_packed = kiln_bench_alloc(k->plan.rhs_packed_size);
  kiln_bench_check(
      kiln_ukernel_matmul_pack_rhs(&k->plan, rhs, s->N, k->rhs_packed),
      "pack rhs");
  free(rhs);
  k->out = kiln_bench_alloc((size_t)(s->M * s->N) * 4);
  k->scratch = kiln_bench_alloc(k->plan.scratch_size);
  k->executor = executor;
}

static void kiln_bench_kiln_run(kiln_bench_kiln_t* k) {
  kiln_ukernel_matmul_args_t args = {
      .lhs = k->lhs,
      .lhs_stride = k->plan.K,
      .rhs_packed = k->rhs_packed,
      .out = k->out,
      .out_stride = k->plan.N,
      .scratch = k->scratch,
      .scratch_size = k->plan.scratch_size,
      .executor = k->executor,
  };
  kiln_bench_check(kiln_ukernel_matmul_run(&k->plan, &args), "run");
}

static void kiln_bench_kiln_free(kiln_bench_kiln_t* k) {
  free(k->lhs);
  free(k->rhs_packed);
  free(k->out);
  free(k->scratch);
}

// The memory roofline of a shape: one read of its packed f32 RHS (the
// bytes every call must stream in; the LHS and OUT of the shapes that are
// bound by memory are small), split over the threads as the matmul splits
// its columns. A matmul cannot take less time than this read from the
// same level of the memory hierarchy, so flops / its time bounds the rate:
// the 1x2048x1000 matrix-vector product reads 8 MB per 4 MFLOP.
typedef struct kiln_bench_read_t {
  const char* data;
  size_t bytes;
  uint32_t chunks;
  kiln_task_executor_t* executor;
  float sums[64 * 16];  // one 64-byte line per chunk, so the sum stays live
} kiln_bench_read_t;

__attribute__((target("avx512f"))) static kiln_status_t kiln_bench_read_chunk(
    void* user_data, uint32_t index, uint32_t worker_id) {
  (void)worker_id;
  kiln_bench_read_t* r = (kiln_bench_read_t*)user_data;
  const size_t per = (r->bytes / r->chunks) & ~(size_t)255;
  const char* p = r->data + (size_t)index * per;
  const size_t n =
      index + 1 == r->chunks ? r->bytes - (size_t)index * per : per;
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  size_t i = 0;
  for (; i + 256 <= n; i += 256) {
    a0 = _mm512_add_ps(a0, _mm512_loadu_ps((const float*)(p + i)));
    a1 = _mm512_add_ps(a1, _mm512_loadu_ps((const float*)(p + i + 64)));
    a2 = _mm512_add_ps(a2, _mm512_loadu_ps((const float*)(p + i + 128)));
    a3 = _mm512_add_ps(a3, _mm512_loadu_ps((const float*)(p + i + 192)));
  }
  _mm512_storeu_ps(r->sums + 16 * (index % 64),
                   _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
  return kiln_ok_status();
}

static void kiln_bench_read_run(kiln_bench_read_t* r) {
  if (r->executor) {
    kiln_bench_check(kiln_task_executor_parallel_for(r->executor, r->chunks, 1,
                                                     kiln_bench_read_chunk, r),
                     "read");
  } else {
    for (uint32_t i = 0; i < r->chunks; ++i) kiln_bench_read_chunk(r, i, 0);
  }
}

typedef struct kiln_bench_blas_t {
  const kiln_bench_shape_t* shape;
  float *a, *b, *c;
} kiln_bench_blas_t;

static void kiln_bench_blas_run(kiln_bench_blas_t* b) {
  const kiln_bench_shape_t* s = b->shape;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)s->M, (int)s->N,
              (int)s->K, 1.0f, b->a, (int)s->K, b->b, (int)s->N, 0.0f, b->c,
              (int)s->N);
}

// Seconds of one call: the fastest of the calls made in ~|budget| seconds
// (the machine is shared: the fastest call is the one least disturbed).
typedef void (*kiln_bench_fn_t)(void*);
static double kiln_bench_time(kiln_bench_fn_t fn, void* arg, double budget) {
  fn(arg);  // warm caches and page in
  double best = 1e30;
  double start = kiln_bench_now(), now = start;
  do {
    double t0 = kiln_bench_now();
    fn(arg);
    now = kiln_bench_now();
    if (now - t0 < best) best = now - t0;
  } while (now - start < budget);
  return best;
}

// One call of the register-only loop on |threads| threads at once, about a
// millisecond: timed by kiln_bench_time like the matmuls, in the same
// rounds, so that the peak a shape is compared with is sampled as often and
// at the same moments as the shape itself (this virtual machine's speed
// drifts by 10-20% over a run, which a peak measured once at the start
// turns into a drift of *% of peak*).
typedef struct kiln_bench_peak_call_t {
  int threads;
  double best_gflops;  // the best call's rate (threads: the sum of theirs)
} kiln_bench_peak_call_t;

static void kiln_bench_peak_call(kiln_bench_peak_call_t* c) {
  const int64_t iterations = 1000 * 1000;  // ~2 ms
  double g = c->threads > 1 ? kiln_bench_peak_threads(c->threads, iterations)
                            : kiln_bench_peak_avx512(iterations);
  if (g > c->best_gflops) c->best_gflops = g;
}

int main(int argc, char** argv) {
  const char* json_path = NULL;
  int rounds = 5;
  int quick = 0;
  const char* shape_name = NULL;
  int thread_counts[2] = {1, 2};
  int thread_count_n = 2;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--json") && i + 1 < argc) {
      json_path = argv[++i];
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      const char* v = argv[++i];
      thread_count_n = 0;
      for (const char* p = v; *p && thread_count_n < 2;) {
        thread_counts[thread_count_n++] = atoi(p);
        while (*p && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else if (!strcmp(argv[i], "--shape") && i + 1 < argc) {
      shape_name = argv[++i];
    } else {
      fprintf(stderr,
              "matmul_bench: unknown argument '%s' (usage: matmul_bench "
              "[--json FILE] [--rounds N] [--threads 1,2] [--quick] "
              "[--shape NAME])\n",
              argv[i]);
      return 2;
    }
  }
  if (rounds < 1) rounds = 1;
  uint64_t features = 0;
  kiln_bench_check(kiln_ukernel_host_cpu_features_from_env(&features),
                   "cpu features");
  if (!kiln_ukernel_has_features(features,
                                 KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
    fprintf(stderr,
            "matmul_bench: note: no AVX-512 (or capped); the peak "
            "loop still uses AVX-512 and may fault\n");
  }
  // Peak: best of a few runs, for one thread and for each thread count.
  double peak = 0;
  for (int i = 0; i < 20; ++i) {
    double g = kiln_bench_peak_avx512(10 * 1000 * 1000);
    if (g > peak) peak = g;
  }
  printf("FMA peak (register-only loop, 1 thread): %.1f GFLOP/s\n", peak);
  double peak_by_count[8] = {0};
  for (int t = 0; t < thread_count_n; ++t) {
    const int threads = thread_counts[t];
    if (threads < 1 || threads >= 8) continue;
    double best = threads == 1 ? peak : 0;
    for (int i = 0; threads > 1 && i < 10; ++i) {
      double g = kiln_bench_peak_threads(threads, 10 * 1000 * 1000);
      if (g > best) best = g;
    }
    peak_by_count[threads] = best;
    printf(
        "FMA peak (register-only loop, %d threads at once): %.1f GFLOP/s "
        "(%.2f x one thread's)\n",
        threads, best, best / peak);
  }

  static const kiln_bench_shape_t all_shapes[] = {
      {"square", 256, 256, 256},    {"square", 512, 512, 512},
      {"square", 768, 768, 768},    {"square", 1024, 1024, 1024},
      {"square", 1536, 1536, 1536}, {"square", 2048, 2048, 2048},
      {"gemv-like", 1, 2048, 1000}, {"fc", 49, 512, 2048},
      {"conv1x1", 3136, 64, 256},   {"bert", 128, 768, 3072},
  };
  static const kiln_bench_shape_t quick_shapes[] = {
      {"square", 256, 256, 256},
      {"square", 1024, 1024, 1024},
      {"fc", 49, 512, 2048},
      {"conv1x1", 3136, 64, 256},
  };
  const kiln_bench_shape_t* shapes = quick ? quick_shapes : all_shapes;
  size_t shape_count = quick ? sizeof(quick_shapes) / sizeof(quick_shapes[0])
                             : sizeof(all_shapes) / sizeof(all_shapes[0]);
  FILE* json = json_path ? fopen(json_path, "w") : NULL;
  if (json_path && !json) {
    fprintf(stderr, "matmul_bench: cannot write '%s'\n", json_path);
    return 1;
  }
  if (json) {
    fprintf(json, "{\n  \"peak_gflops_1thread\": %.2f,\n", peak);
    fprintf(json, "  \"peak_gflops_by_threads\": {");
    for (int t = 0; t < thread_count_n; ++t) {
      int threads = thread_counts[t];
      if (threads < 1 || threads >= 8) continue;
      fprintf(json, "%s\"%d\": %.2f", t ? ", " : "", threads,
              peak_by_count[threads]);
    }
    fprintf(json, "},\n  \"results\": [\n");
  }
  printf(
      "%-10s %5s %5s %5s %3s | %8s %8s %6s %6s | %8s %5s | %8s %5s | %8s "
      "%6s\n",
      "shape", "M", "K", "N", "thr", "kiln", "openblas", "ratio", "%peak",
      "bf16", "x f32", "i8", "x f32", "roofline", "%roof");
  int first_record = 1;
  for (int t = 0; t < thread_count_n; ++t) {
    const int threads = thread_counts[t];
    kiln_task_executor_t* executor = NULL;
    if (threads > 1) {
      kiln_task_executor_options_t options =
          kiln_task_executor_options_default();
      options.worker_count = (uint32_t)(threads - 1);  // + the caller
      kiln_bench_check(kiln_task_executor_create(
                           &options, kiln_allocator_system(), &executor),
                       "executor");
    }
    openblas_set_num_threads(threads);
    for (size_t s = 0; s < shape_count; ++s) {
      const kiln_bench_shape_t* shape = &shapes[s];
      if (shape_name && strcmp(shape->name, shape_name)) continue;
      const double flops = 2.0 * shape->M * shape->N * shape->K;
      const double budget = 0.05;
      kiln_bench_kiln_t k32, kbf16, ki8;
      kiln_bench_kiln_init(&k32, KILN_UKERNEL_MMT4D_F32F32F32, shape, features,
                           executor);
      kiln_bench_kiln_init(&kbf16, KILN_UKERNEL_MMT4D_BF16BF16F32, shape,
                           features, executor);
      kiln_bench_kiln_init(&ki8, KILN_UKERNEL_MMT4D_S8S8S32, shape, features,
                           executor);
      kiln_bench_blas_t blas = {shape, NULL, NULL, NULL};
      blas.a = kiln_bench_alloc((size_t)(shape->M * shape->K) * 4);
      blas.b = kiln_bench_alloc((size_t)(shape->K * shape->N) * 4);
      blas.c = kiln_bench_alloc((size_t)(shape->M * shape->N) * 4);
      memcpy(blas.a, k32.lhs, (size_t)(shape->M * shape->K) * 4);
      for (int64_t i = 0; i < shape->K * shape->N; ++i) {
        blas.b[i] = (float)(i % 5) * 0.5f - 1.0f;
      }
      kiln_bench_read_t read = {
          .data = (const char*)k32.rhs_packed,
          .bytes = k32.plan.rhs_packed_size,
          .chunks = (uint32_t)(threads > 1 ? 8 * threads : 1),
          .executor = executor,
      };
      double best_kiln = 1e30, best_blas = 1e30, best_bf16 = 1e30,
             best_i8 = 1e30, best_read = 1e30;
      kiln_bench_peak_call_t peak_call = {threads, 0}, peak_call_1t = {1, 0};
      for (int r = 0; r < rounds; ++r) {
        double v;
        kiln_bench_time((kiln_bench_fn_t)kiln_bench_peak_call, &peak_call,
                        budget);
        if (threads > 1) {
          kiln_bench_time((kiln_bench_fn_t)kiln_bench_peak_call, &peak_call_1t,
                          budget);
        }
        v = kiln_bench_time((kiln_bench_fn_t)kiln_bench_kiln_run, &k32, budget);
        if (v < best_kiln) best_kiln = v;
        v = kiln_bench_time((kiln_bench_fn_t)kiln_bench_blas_run, &blas,
                            budget);
        if (v < best_blas) best_blas = v;
        v = kiln_bench_time((kiln_bench_fn_t)kiln_bench_kiln_run, &kbf16,
                            budget);
        if (v < best_bf16) best_bf16 = v;
        v = kiln_bench_time((kiln_bench_fn_t)kiln_bench_kiln_run, &ki8, budget);
        if (v < best_i8) best_i8 = v;
        v = kiln_bench_time((kiln_bench_fn_t)kiln_bench_read_run, &read,
                            budget);
        if (v < best_read) best_read = v;
      }
      // Check kiln's f32 result against OpenBLAS's (same inputs).
      double max_err = 0;
      for (int64_t i = 0; i < shape->M * shape->N; ++i) {
        double d = (double)((float*)k32.out)[i] - (double)blas.c[i];
        if (d < 0) d = -d;
        if (d > max_err) max_err = d;
      }
      if (max_err > 1e-2) {
        fprintf(stderr,
                "matmul_bench: %s %lldx%lldx%lld: kiln and OpenBLAS "
                "differ by %g\n",
                shape->name, (long long)shape->M, (long long)shape->K,
                (long long)shape->N, max_err);
        return 1;
      }
      double g_kiln = flops / best_kiln / 1e9, g_blas = flops / best_blas / 1e9;
      double g_bf16 = flops / best_bf16 / 1e9, g_i8 = flops / best_i8 / 1e9;
      // Against the peak of this many threads at once measured in the same
      // rounds, and against one thread's (same rounds) times the count.
      double peak_t = peak_call.best_gflops;
      double peak_1t = threads > 1 ? peak_call_1t.best_gflops : peak_t;
      double pct = 100.0 * g_kiln / peak_t;
      double pct_1t = 100.0 * g_kiln / (peak_1t * threads);
      // The roofline: the lower of the FMA peak and the rate at which the
      // RHS read alone would run.
      const double g_read = flops / best_read / 1e9;
      const double g_roof = g_read < peak_t ? g_read : peak_t;
      const double pct_roof = 100.0 * g_kiln / g_roof;
      printf(
          "%-10s %5lld %5lld %5lld %3d | %8.1f %8.1f %6.2f %5.1f%% | %8.1f "
          "%5.2f | %8.1f %5.2f | %8.1f %5.1f%%\n",
          shape->name, (long long)shape->M, (long long)shape->K,
          (long long)shape->N, threads, g_kiln, g_blas, g_kiln / g_blas, pct,
          g_bf16, g_bf16 / g_kiln, g_i8, g_i8 / g_kiln, g_roof, pct_roof);
      fflush(stdout);
      if (json) {
        fprintf(json,
                "%s    {\"shape\": \"%s\", \"M\": %lld, \"K\": %lld, \"N\": "
                "%lld, \"threads\": %d, \"kiln_f32_gflops\": %.2f, "
                "\"openblas_f32_gflops\": %.2f, \"ratio\": %.3f, "
                "\"percent_of_peak\": %.1f, \"peak_gflops\": %.2f, "
                "\"peak_gflops_1thread\": %.2f, "
                "\"percent_of_1thread_peak_x_threads\": %.1f, "
                "\"kiln_bf16_gflops\": %.2f, "
                "\"kiln_i8_gflops\": %.2f, \"rhs_read_gbps\": %.1f, "
                "\"roofline_gflops\": %.2f, \"percent_of_roofline\": %.1f, "
                "\"tile\": \"%dx%dx%d\"}",
                first_record ? "" : ",\n", shape->name, (long long)shape->M,
                (long long)shape->K, (long long)shape->N, threads, g_kiln,
                g_blas, g_kiln / g_blas, pct, peak_t, peak_1t, pct_1t, g_bf16,
                g_i8, (double)read.bytes / best_read / 1e9, g_roof, pct_roof,
                k32.plan.tile.M0, k32.plan.tile.N0, k32.plan.tile.K0);
        first_record = 0;
      }
      kiln_bench_kiln_free(&k32);
      kiln_bench_kiln_free(&kbf16);
      kiln_bench_kiln_free(&ki8);
      free(blas.a);
      free(blas.b);
      free(blas.c);
    }
    kiln_task_executor_release(executor);
  }
  if (json) {
    fprintf(json, "\n  ]\n}\n");
    fclose(json);
  }
  return 0;
}
