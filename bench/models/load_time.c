// Module load time: loads a .kmod with kiln_vm_bytecode_module_load_file
// (map the file, check it, index it) RUNS times and prints one JSON line
// with the median milliseconds: default flags (the CRC32 check: of the
// structure only when the module has a rodata_checksums section, as kiln
// writes them, the weights being checked at their first use; else of the
// whole file) and with the CRC check skipped, and the time to read every
// page of the file once (what a whole-file check costs at least).
//
// Usage: load_time MODULE.kmod [RUNS]
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/vm/bytecode_module.h"

static double kiln_bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int kiln_bench_compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double kiln_bench_median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(*v), kiln_bench_compare);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median ms of |runs| loads with |flags|; negative on failure.
static double kiln_bench_load(kiln_vm_instance_t* instance, const char* path,
                              kiln_vm_bytecode_load_flags_t flags, int runs) {
  double times[64];
  for (int i = 0; i < runs; ++i) {
    kiln_vm_module_t* module = NULL;
    double t0 = kiln_bench_now_ms();
    kiln_status_t status = kiln_vm_bytecode_module_load_file(
        instance, path, flags, kiln_allocator_system(), &module);
    times[i] = kiln_bench_now_ms() - t0;
    if (status) {
      kiln_status_fprint(stderr, status);
      kiln_status_free(status);
      return -1.0;
    }
    kiln_vm_module_release(module);
  }
  return kiln_bench_median(times, runs);
}

// Median ms to map the file and touch one byte per page.
static double kiln_bench_map(const char* path, int runs) {
  double times[64];
  for (int i = 0; i < runs; ++i) {
    double t0 = kiln_bench_now_ms();
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1.0;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size == 0) {
      close(fd);
      return -1.0;
    }
    size_t length = (size_t)st.st_size;
    const volatile unsigned char* p =
        mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if ((const void*)p == MAP_FAILED) return -1.0;
    unsigned sum = 0;
    for (size_t o = 0; o < length; o += 4096) sum += p[o];
    (void)sum;
    munmap((void*)p, length);
    times[i] = kiln_bench_now_ms() - t0;
  }
  return kiln_bench_median(times, runs);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: load_time MODULE.kmod [RUNS]\n");
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  if (runs < 1) runs = 1;
  if (runs > 64) runs = 64;
  kiln_vm_instance_t* instance = NULL;
  kiln_status_t status =
      kiln_vm_instance_create(kiln_allocator_system(), &instance);
  if (status) {
    kiln_status_fprint(stderr, status);
    kiln_status_free(status);
    return 1;
  }
  double map_ms = kiln_bench_map(argv[1], runs);
  double load_ms =
      kiln_bench_load(instance, argv[1], KILN_VM_BYTECODE_LOAD_FLAG_NONE, runs);
  double nocrc_ms = kiln_bench_load(instance, argv[1],
                                    KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC, runs);
  kiln_vm_instance_release(instance);
  if (map_ms < 0 || load_ms < 0 || nocrc_ms < 0) return 1;
  printf("{\"load_ms\": %.3f, \"load_skip_crc_ms\": %.3f, \"map_touch_ms\": "
         "%.3f}\n",
         load_ms, nocrc_ms, map_ms);
  return 0;
}
