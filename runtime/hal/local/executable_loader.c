#include "runtime/hal/local/executable_loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/hal/local/library_executable.h"

//===----------------------------------------------------------------------===//
// Loader base
//===----------------------------------------------------------------------===//

static void kiln_hal_executable_loader_destroy(void* object) {
  kiln_hal_executable_loader_t* loader = (kiln_hal_executable_loader_t*)object;
  loader->vtable->destroy(loader);
}

const kiln_ref_type_t kiln_hal_executable_loader_type = {
    "hal.executable_loader", kiln_hal_executable_loader_destroy};

void kiln_hal_executable_loader_initialize(
    kiln_hal_executable_loader_t* loader,
    const kiln_hal_executable_loader_vtable_t* vtable, const char* name) {
  kiln_ref_object_initialize(&loader->ref, &kiln_hal_executable_loader_type);
  loader->vtable = vtable;
  loader->name = name;
}

void kiln_hal_executable_loader_retain(kiln_hal_executable_loader_t* loader) {
  kiln_ref_retain(loader);
}
void kiln_hal_executable_loader_release(kiln_hal_executable_loader_t* loader) {
  kiln_ref_release(loader);
}

bool kiln_hal_executable_loader_query_support(
    kiln_hal_executable_loader_t* loader, kiln_string_view_t format) {
  return loader->vtable->query_support(loader, format);
}

kiln_status_t kiln_hal_executable_loader_try_load(
    kiln_hal_executable_loader_t* loader,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable) {
  *out_executable = NULL;
  return loader->vtable->try_load(loader, params, options, host_allocator,
                                  out_executable);
}

//===----------------------------------------------------------------------===//
// Host CPU features
//===----------------------------------------------------------------------===//

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

// KILN_HAL_CPU_ISA_CAP=generic|x86-64-v2|x86-64-v3|x86-64-v4 hides the
// features above that level (for testing each ISA variant of an executable
// on one machine); unset or "host": none hidden. On aarch64 only "generic"
// (Armv8-A's NEON, which every aarch64 CPU has) means something.
static uint64_t kiln_hal_cpu_isa_cap(void) {
  const char* cap = getenv("KILN_HAL_CPU_ISA_CAP");
  if (!cap || !cap[0] || strcmp(cap, "host") == 0) return ~0ull;
#if defined(__aarch64__)
  if (strcmp(cap, "generic") == 0) return KILN_HAL_CPU_FEATURE_AARCH64_NEON;
  return ~0ull;
#else
  uint64_t v2 = KILN_HAL_CPU_FEATURE_X86_64_SSE4_2;
  uint64_t v3 =
      v2 | KILN_HAL_CPU_FEATURE_X86_64_AVX | KILN_HAL_CPU_FEATURE_X86_64_AVX2 |
      KILN_HAL_CPU_FEATURE_X86_64_FMA | KILN_HAL_CPU_FEATURE_X86_64_F16C;
  uint64_t v4 = v3 | KILN_HAL_CPU_FEATURE_X86_64_AVX512F |
                KILN_HAL_CPU_FEATURE_X86_64_AVX512BW |
                KILN_HAL_CPU_FEATURE_X86_64_AVX512DQ |
                KILN_HAL_CPU_FEATURE_X86_64_AVX512VL;
  if (strcmp(cap, "generic") == 0) return 0;
  if (strcmp(cap, "x86-64-v2") == 0) return v2;
  if (strcmp(cap, "x86-64-v3") == 0) return v3;
  if (strcmp(cap, "x86-64-v4") == 0) return v4;
  return ~0ull;
#endif
}

uint64_t kiln_hal_query_host_cpu_features(void) {
  uint64_t features = 0;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse4.2")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_SSE4_2;
  }
  if (__builtin_cpu_supports("avx"))
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX;
  if (__builtin_cpu_supports("avx2")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX2;
  }
  if (__builtin_cpu_supports("fma"))
    features |= KILN_HAL_CPU_FEATURE_X86_64_FMA;
  if (__builtin_cpu_supports("avx512f")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX512F;
  }
  if (__builtin_cpu_supports("avx512bw")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX512BW;
  }
  if (__builtin_cpu_supports("avx512dq")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX512DQ;
  }
  if (__builtin_cpu_supports("avx512vl")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX512VL;
  }
  if (__builtin_cpu_supports("avx512vnni")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX512VNNI;
  }
  if (__builtin_cpu_supports("avx512bf16")) {
    features |= KILN_HAL_CPU_FEATURE_X86_64_AVX512BF16;
  }
  // F16C has no __builtin_cpu_supports name in every compiler: cpuid leaf 1,
  // ecx bit 29 (AVX's OS support was checked above).
  {
    unsigned eax = 1, ebx = 0, ecx = 0, edx = 0;
    __asm__("cpuid" : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx));
    if ((ecx >> 29) & 1) features |= KILN_HAL_CPU_FEATURE_X86_64_F16C;
  }
#elif defined(__aarch64__)
  // The kernel's HWCAP bits (asm/hwcap.h; numbered here so that older
  // headers build): NEON is part of Armv8-A (Linux requires it).
  unsigned long hwcap = getauxval(AT_HWCAP);
  unsigned long hwcap2 = getauxval(AT_HWCAP2);
  features |= KILN_HAL_CPU_FEATURE_AARCH64_NEON;
  if (hwcap & (1ul << 20)) features |= KILN_HAL_CPU_FEATURE_AARCH64_DOTPROD;
  // FP16 as the compiler means it (__ARM_FEATURE_FP16_VECTOR_ARITHMETIC):
  // scalar and vector half-precision arithmetic (FPHP and ASIMDHP).
  if ((hwcap & (3ul << 9)) == (3ul << 9)) {
    features |= KILN_HAL_CPU_FEATURE_AARCH64_FP16;
  }
  if (hwcap & (1ul << 22)) features |= KILN_HAL_CPU_FEATURE_AARCH64_SVE;
  if (hwcap2 & (1ul << 13)) features |= KILN_HAL_CPU_FEATURE_AARCH64_I8MM;
  if (hwcap2 & (1ul << 14)) features |= KILN_HAL_CPU_FEATURE_AARCH64_BF16;
#endif
  // Other architectures report no optional features: executables that
  // need none still load.
  return features & kiln_hal_cpu_isa_cap();
}

//===----------------------------------------------------------------------===//
// Native ELF loader
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
#define KILN_HAL_HOST_NATIVE_FORMAT "native-elf-x86_64"
#define KILN_HAL_HOST_ELF_MACHINE 62
#elif defined(__aarch64__)
#define KILN_HAL_HOST_NATIVE_FORMAT "native-elf-aarch64"
#define KILN_HAL_HOST_ELF_MACHINE 183
#else
#define KILN_HAL_HOST_NATIVE_FORMAT "native-elf-unsupported"
#define KILN_HAL_HOST_ELF_MACHINE 0
#endif

typedef struct kiln_hal_native_loader_t {
  kiln_hal_executable_loader_t base;
  kiln_allocator_t host_allocator;
} kiln_hal_native_loader_t;

static void kiln_hal_native_loader_destroy(
    kiln_hal_executable_loader_t* base_loader) {
  kiln_hal_native_loader_t* loader = (kiln_hal_native_loader_t*)base_loader;
  kiln_allocator_free(loader->host_allocator, loader);
}

static bool kiln_hal_native_loader_query_support(
    kiln_hal_executable_loader_t* loader, kiln_string_view_t format) {
  return kiln_string_view_equal_cstr(format, "native-elf-x86_64") ||
         kiln_string_view_equal_cstr(format, "native-elf-aarch64");
}

// A loaded shared object and what keeps its name unique while it is
// loaded. glibc identifies libraries by path: were the memfd closed after
// dlopen, the next memfd could get the same /proc/self/fd/N and dlopen would
// hand back the first library. So the descriptor (or the private temp file)
// lives as long as the library.
typedef struct kiln_hal_native_library_t {
  kiln_allocator_t allocator;
  void* handle;
  int fd;               // the memfd or temp file descriptor, or -1
  char temp_path[256];  // the private temp file ("" for a memfd)
} kiln_hal_native_library_t;

static void kiln_hal_native_library_close(void* arg) {
  kiln_hal_native_library_t* library = (kiln_hal_native_library_t*)arg;
  if (library->handle) dlclose(library->handle);
  if (library->fd >= 0) close(library->fd);
  if (library->temp_path[0]) unlink(library->temp_path);
  kiln_allocator_free(library->allocator, library);
}

static kiln_status_t kiln_hal_write_all(int fd, const void* data, size_t size) {
  const uint8_t* p = (const uint8_t*)data;
  while (size) {
    ssize_t n = write(fd, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                              "writing the native executable failed: %s",
                              strerror(errno));
    }
    p += n;
    size -= (size_t)n;
  }
  return kiln_ok_status();
}

// Opens |data| as a shared object without it ever being visible by name:
// a memfd, or else a private temp file (removed when the library closes).
// Fills |library| (handle, fd, temp_path).
static kiln_status_t kiln_hal_dlopen_memory(
    const void* data, size_t size, kiln_hal_native_library_t* library) {
  char path[64];
  int fd = memfd_create("kiln_native_executable", MFD_CLOEXEC);
  if (fd >= 0) {
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  } else {
    const char* tmpdir = getenv("TMPDIR");
    snprintf(library->temp_path, sizeof(library->temp_path),
             "%s/kiln_exe_XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    fd = mkstemp(library->temp_path);
    if (fd < 0) {
      library->temp_path[0] = 0;
      return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                              "cannot create a file for the native "
                              "executable: %s",
                              strerror(errno));
    }
  }
  library->fd = fd;
  KILN_RETURN_IF_ERROR(kiln_hal_write_all(fd, data, size));
  library->handle = dlopen(library->temp_path[0] ? library->temp_path : path,
                           RTLD_NOW | RTLD_LOCAL);
  if (!library->handle) {
    const char* error = dlerror();
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "dlopen of the native executable failed: %s",
                            error ? error : "unknown error");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_native_loader_try_load(
    kiln_hal_executable_loader_t* base_loader,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable) {
  *out_executable = NULL;
  if (!options->allow_native_executables) {
    return kiln_make_status(
        KILN_STATUS_PERMISSION_DENIED,
        "native executables are not allowed; native code is trusted code, "
        "so the device must be created with allow_native_executables to load "
        "format '%.*s'",
        KILN_SV_ARG(params->format));
  }
  if (!kiln_string_view_equal_cstr(params->format,
                                   KILN_HAL_HOST_NATIVE_FORMAT)) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "executable format '%.*s' cannot run on this "
                            "host (%s)",
                            KILN_SV_ARG(params->format),
                            KILN_HAL_HOST_NATIVE_FORMAT);
  }
  const uint8_t* bytes = (const uint8_t*)params->data;
  if (!bytes || params->data_length < 64 ||
      memcmp(bytes,
             "\x7f"
             "ELF",
             4) != 0 ||
      bytes[4] != 2 /* ELFCLASS64 */) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "native executable data (%zu bytes) is not a "
                            "64-bit ELF shared object",
                            params->data_length);
  }
  uint16_t machine = (uint16_t)(bytes[18] | (bytes[19] << 8));
  if (machine != KILN_HAL_HOST_ELF_MACHINE) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "native executable is for ELF machine %u, not "
                            "this host's %u",
                            machine, KILN_HAL_HOST_ELF_MACHINE);
  }
  kiln_hal_native_library_t* library = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(host_allocator, sizeof(*library),
                                             (void**)&library));
  library->allocator = host_allocator;
  library->fd = -1;
  kiln_status_t status =
      kiln_hal_dlopen_memory(params->data, params->data_length, library);
  void* symbol = NULL;
  if (!status) {
    symbol = dlsym(library->handle, KILN_HAL_EXECUTABLE_LIBRARY_QUERY_NAME);
    if (!symbol) {
      status = kiln_make_status(KILN_STATUS_NOT_FOUND,
                                "native executable does not export '%s'",
                                KILN_HAL_EXECUTABLE_LIBRARY_QUERY_NAME);
    }
  }
  if (status) {
    kiln_hal_native_library_close(library);
    return status;
  }
  kiln_hal_executable_library_query_fn_t query_fn;
  memcpy(&query_fn, &symbol, sizeof(query_fn));
  // The executable owns the library from here (closed on failure too).
  return kiln_hal_library_executable_create(
      query_fn, params, options, kiln_hal_native_library_close, library,
      host_allocator, out_executable);
}

static const kiln_hal_executable_loader_vtable_t kiln_hal_native_loader_vtable =
    {
        kiln_hal_native_loader_destroy,
        kiln_hal_native_loader_query_support,
        kiln_hal_native_loader_try_load,
};

kiln_status_t kiln_hal_native_executable_loader_create(
    kiln_allocator_t host_allocator,
    kiln_hal_executable_loader_t** out_loader) {
  *out_loader = NULL;
  kiln_hal_native_loader_t* loader = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*loader), (void**)&loader));
  kiln_hal_executable_loader_initialize(
      &loader->base, &kiln_hal_native_loader_vtable, "native");
  loader->host_allocator = host_allocator;
  *out_loader = &loader->base;
  return kiln_ok_status();
}
