// The kiln CPU dispatch ABI: the contract between the runtime and every CPU
// executable (native shared objects emitted by the compiler's C backend, and
// statically linked libraries). Generated code includes this header and
// nothing else from kiln, so it depends only on <stdint.h> and <stddef.h>.
//
// A library exports one symbol, kiln_hal_executable_library_query, that
// returns its header for an ABI version the runtime supports. The header is
// the first member of the versioned library struct, which carries the export
// table (entry points with names, workgroup sizes, local memory sizes and
// source locations) and the import table (micro-kernels it wants the runtime
// to provide).
//
// For each dispatch the runtime calls an entry point once per workgroup:
//   int entry(const kiln_hal_executable_environment_v1_t* environment,
//             const kiln_hal_executable_dispatch_state_v1_t* dispatch_state,
//             const kiln_hal_executable_workgroup_state_v1_t* workgroup_state)
// returning 0 on success (non-zero fails the dispatch). Workgroups of one
// dispatch may run concurrently on different workers in any order; each must
// write only its own part of the outputs, so results do not depend on the
// worker count.
#ifndef KILN_RUNTIME_HAL_LOCAL_EXECUTABLE_LIBRARY_H_
#define KILN_RUNTIME_HAL_LOCAL_EXECUTABLE_LIBRARY_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Versioning
//===----------------------------------------------------------------------===//

// The ABI version this header describes. Bumped on any layout change; a
// runtime loads libraries whose header version is <= the version it asks for
// and that it knows.
#define KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1 1u
#define KILN_HAL_EXECUTABLE_LIBRARY_VERSION \
  KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1

// Name of the exported query function (see kiln_hal_executable_library_query
// below).
#define KILN_HAL_EXECUTABLE_LIBRARY_QUERY_NAME \
  "kiln_hal_executable_library_query"

// Generated code marks the query function with this so it is exported from a
// shared object built with -fvisibility=hidden.
#if defined(_WIN32)
#define KILN_HAL_EXECUTABLE_LIBRARY_EXPORT __declspec(dllexport)
#else
#define KILN_HAL_EXECUTABLE_LIBRARY_EXPORT \
  __attribute__((visibility("default")))
#endif

//===----------------------------------------------------------------------===//
// CPU features
//===----------------------------------------------------------------------===//

// Bits of kiln_hal_executable_library_header_t.required_cpu_features and
// kiln_hal_executable_environment_v1_t.cpu_features. The meaning of a bit
// depends on the architecture the library was built for.
// x86_64:
#define KILN_HAL_CPU_FEATURE_X86_64_SSE4_2 (1ull << 0)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX (1ull << 1)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX2 (1ull << 2)
#define KILN_HAL_CPU_FEATURE_X86_64_FMA (1ull << 3)
#define KILN_HAL_CPU_FEATURE_X86_64_F16C (1ull << 4)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX512F (1ull << 5)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX512BW (1ull << 6)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX512DQ (1ull << 7)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX512VL (1ull << 8)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX512VNNI (1ull << 9)
#define KILN_HAL_CPU_FEATURE_X86_64_AVX512BF16 (1ull << 10)
// aarch64:
#define KILN_HAL_CPU_FEATURE_AARCH64_NEON (1ull << 0)
#define KILN_HAL_CPU_FEATURE_AARCH64_DOTPROD (1ull << 1)
#define KILN_HAL_CPU_FEATURE_AARCH64_I8MM (1ull << 2)
#define KILN_HAL_CPU_FEATURE_AARCH64_FP16 (1ull << 3)
#define KILN_HAL_CPU_FEATURE_AARCH64_BF16 (1ull << 4)
#define KILN_HAL_CPU_FEATURE_AARCH64_SVE (1ull << 5)

//===----------------------------------------------------------------------===//
// Environment (per loaded executable, constant during dispatches)
//===----------------------------------------------------------------------===//

// A function the runtime provides to generated code (a micro-kernel).
// |params| points at a kernel-specific argument struct; returns 0 on success.
typedef int (*kiln_hal_executable_import_fn_t)(void* context, void* params,
                                               void* reserved);

typedef struct kiln_hal_executable_environment_v1_t {
  // CPU feature bits of the host (see above).
  uint64_t cpu_features;
  // Imports resolved in the order of the library's import table: entry i is
  // the runtime function named imports.symbols[i], or NULL for an optional
  // import ("?name") the runtime lacks. |import_contexts[i]| is passed back
  // as the |context| argument.
  uint32_t import_count;
  const kiln_hal_executable_import_fn_t* import_funcs;
  void* const* import_contexts;
  // Executable-level constants (kiln_hal_executable_params_t.constants).
  uint32_t constant_count;
  const uint32_t* constants;
} kiln_hal_executable_environment_v1_t;

//===----------------------------------------------------------------------===//
// Dispatch state (per dispatch, shared by all its workgroups)
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_executable_dispatch_state_v1_t {
  // Threads per workgroup as declared by the entry point (CPU code usually
  // loops over them itself).
  uint32_t workgroup_size_x;
  uint32_t workgroup_size_y;
  uint32_t workgroup_size_z;
  // The dispatch grid.
  uint32_t workgroup_count_x;
  uint32_t workgroup_count_y;
  uint32_t workgroup_count_z;
  // Upper bound of workgroups that may run at once (the worker count); the
  // processor ids in the workgroup state are < this.
  uint32_t max_concurrency;
  // Push constants of the dispatch.
  uint32_t constant_count;
  const uint32_t* constants;
  // Bindings: base pointer (already offset to the bound range) and length in
  // bytes of each. Host-visible allocations are 64-byte aligned; a binding
  // is as aligned as its offset allows.
  uint32_t binding_count;
  void* const* binding_ptrs;
  const size_t* binding_lengths;
} kiln_hal_executable_dispatch_state_v1_t;

//===----------------------------------------------------------------------===//
// Workgroup state (per workgroup invocation)
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_executable_workgroup_state_v1_t {
  uint32_t workgroup_id_x;
  uint32_t workgroup_id_y;
  uint32_t workgroup_id_z;
  // The id of the worker running this workgroup, in [0, max_concurrency).
  // Stable for the duration of the call; use it to index per-worker state.
  uint32_t processor_id;
  // Scratch memory of at least the entry point's declared local memory size,
  // owned by the worker (reused across workgroups, not zeroed) and 64-byte
  // aligned. NULL when the entry point declares 0 bytes.
  void* local_memory;
  size_t local_memory_size;
} kiln_hal_executable_workgroup_state_v1_t;

// The entry point signature; returns 0 on success.
typedef int (*kiln_hal_executable_dispatch_fn_v1_t)(
    const kiln_hal_executable_environment_v1_t* environment,
    const kiln_hal_executable_dispatch_state_v1_t* dispatch_state,
    const kiln_hal_executable_workgroup_state_v1_t* workgroup_state);

//===----------------------------------------------------------------------===//
// Library
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_executable_library_header_t {
  // KILN_HAL_EXECUTABLE_LIBRARY_VERSION_* the library struct follows.
  uint32_t version;
  // Library name for diagnostics ("module_dispatch_0").
  const char* name;
  // Feature bits the code was compiled for; loading fails unless the host
  // has all of them.
  uint64_t required_cpu_features;
} kiln_hal_executable_library_header_t;

// Static attributes of one entry point.
typedef struct kiln_hal_executable_dispatch_attrs_v1_t {
  uint32_t workgroup_size_x;  // 0 treated as 1
  uint32_t workgroup_size_y;
  uint32_t workgroup_size_z;
  // Bytes of per-worker scratch the entry point needs (0 for none).
  uint32_t local_memory_size;
} kiln_hal_executable_dispatch_attrs_v1_t;

typedef struct kiln_hal_executable_export_table_v1_t {
  uint32_t count;
  const kiln_hal_executable_dispatch_fn_v1_t* ptrs;      // [count]
  const char* const* names;                              // [count]
  const kiln_hal_executable_dispatch_attrs_v1_t* attrs;  // [count] or NULL
  const char* const* source_locations;  // [count] "file:line", or NULL
} kiln_hal_executable_export_table_v1_t;

typedef struct kiln_hal_executable_import_table_v1_t {
  uint32_t count;
  // Runtime function names; a leading '?' marks an optional import.
  const char* const* symbols;
} kiln_hal_executable_import_table_v1_t;

// Version 1 library: the header MUST be the first member so the pointer the
// query returns is both.
typedef struct kiln_hal_executable_library_v1_t {
  kiln_hal_executable_library_header_t header;
  kiln_hal_executable_import_table_v1_t imports;
  kiln_hal_executable_export_table_v1_t exports;
} kiln_hal_executable_library_v1_t;

// The exported query function. Returns the library's header if the library
// can provide a version <= |max_version|, else NULL. |environment| is the one
// that will be passed to dispatches (the library may inspect cpu_features to
// choose among variants). Signature of the exported symbol:
//   KILN_HAL_EXECUTABLE_LIBRARY_EXPORT
//   const kiln_hal_executable_library_header_t*
//   kiln_hal_executable_library_query(
//       uint32_t max_version,
//       const kiln_hal_executable_environment_v1_t* environment);
typedef const kiln_hal_executable_library_header_t* (
    *kiln_hal_executable_library_query_fn_t)(
    uint32_t max_version,
    const kiln_hal_executable_environment_v1_t* environment);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_EXECUTABLE_LIBRARY_H_
