// The core's f32 FMA peak for bench/conv/run.sh: a register-only loop of
// independent FMAs (more chains than latency x throughput, no memory
// traffic), in assembly so that the compiler cannot change it. Prints the
// best GFLOP/s of one thread over a few rounds, in CPU time (as run.sh
// times kiln: other processes sharing the core do not count); AVX-512 (zmm)
// when the CPU has it, else AVX2 (ymm).
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double kiln_peak_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define KILN_PEAK_FMA12(r)                 \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "0\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "1\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "2\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "3\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "4\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "5\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "6\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "7\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "8\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "9\n"                                    \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r \
  "10\n"                                   \
  "vfmadd231ps %%" r "14, %%" r "15, %%" r "11\n"

#define KILN_PEAK_CLOBBERS                                                \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
      "xmm9", "xmm10", "xmm11", "xmm14", "xmm15"

__attribute__((noinline, target("avx512f"))) static void kiln_peak_zmm(
    int64_t n) {
  __asm__ volatile(
      "vxorps %%xmm14, %%xmm14, %%xmm14\n"
      "vxorps %%xmm15, %%xmm15, %%xmm15\n"
      "1:\n" KILN_PEAK_FMA12("zmm") "dec %0\njnz 1b\nvzeroupper\n"
      : "+r"(n)
      :
      : KILN_PEAK_CLOBBERS);
}

__attribute__((noinline, target("avx2,fma"))) static void kiln_peak_ymm(
    int64_t n) {
  __asm__ volatile(
      "vxorps %%xmm14, %%xmm14, %%xmm14\n"
      "vxorps %%xmm15, %%xmm15, %%xmm15\n"
      "1:\n" KILN_PEAK_FMA12("ymm") "dec %0\njnz 1b\nvzeroupper\n"
      : "+r"(n)
      :
      : KILN_PEAK_CLOBBERS);
}

int main(void) {
  __builtin_cpu_init();
  int zmm = __builtin_cpu_supports("avx512f");
  const int64_t n = 20 * 1000 * 1000;
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    double t0 = kiln_peak_now();
    if (zmm) {
      kiln_peak_zmm(n);
    } else {
      kiln_peak_ymm(n);
    }
    double t = kiln_peak_now() - t0;
    double flops = (double)n * 12 * (zmm ? 16 : 8) * 2;
    if (flops / t / 1e9 > best) best = flops / t / 1e9;
  }
  printf("%.2f %s\n", best, zmm ? "avx512" : "avx2");
  return 0;
}
