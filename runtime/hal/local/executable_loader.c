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
#elif defined(__aarch64__)
  unsigned long hwcap = getauxval(AT_HWCAP);
  features |= KILN_HAL_CPU_FEATURE_AARCH64_NEON;
  if (hwcap & (1ul << 20)) features |= KILN_HAL_CPU_FEATURE_AARCH64_DOTPROD;
  if (hwcap & (1ul << 9)) features |= KILN_HAL_CPU_FEATURE_AARCH64_FP16;
  if (hwcap & (1ul << 22)) features |= KILN_HAL_CPU_FEATURE_AARCH64_SVE;
#endif
  return features;
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

static void kiln_hal_native_dlclose(void* handle) {
  dlclose(handle);
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
// a memfd, or else a private temp file unlinked right after dlopen.
static kiln_status_t kiln_hal_dlopen_memory(const void* data, size_t size,
                                            void** out_handle) {
  *out_handle = NULL;
  char path[64];
  int fd = memfd_create("kiln_native_executable", MFD_CLOEXEC);
  bool is_temp_file = false;
  char temp_path[256];
  if (fd >= 0) {
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  } else {
    const char* tmpdir = getenv("TMPDIR");
    snprintf(temp_path, sizeof(temp_path), "%s/kiln_exe_XXXXXX",
             tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    fd = mkstemp(temp_path);
    if (fd < 0) {
      return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                              "cannot create a file for the native "
                              "executable: %s",
                              strerror(errno));
    }
    is_temp_file = true;
  }
  kiln_status_t status = kiln_hal_write_all(fd, data, size);
  if (!status) {
    void* handle =
        dlopen(is_temp_file ? temp_path : path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* error = dlerror();
      status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "dlopen of the native executable failed: %s",
                                error ? error : "unknown error");
    }
    *out_handle = handle;
  }
  if (is_temp_file) unlink(temp_path);
  close(fd);
  return status;
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
  void* handle = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_dlopen_memory(params->data, params->data_length, &handle));
  void* symbol = dlsym(handle, KILN_HAL_EXECUTABLE_LIBRARY_QUERY_NAME);
  if (!symbol) {
    dlclose(handle);
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "native executable does not export '%s'",
                            KILN_HAL_EXECUTABLE_LIBRARY_QUERY_NAME);
  }
  kiln_hal_executable_library_query_fn_t query_fn;
  memcpy(&query_fn, &symbol, sizeof(query_fn));
  return kiln_hal_library_executable_create(query_fn, params, options,
                                            kiln_hal_native_dlclose, handle,
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
