#include "runtime/hal/local/library_executable.h"

#include <stdio.h>
#include <string.h>

#include "runtime/builtins/ukernel/ukernel.h"

typedef struct kiln_hal_library_executable_t {
  kiln_hal_local_executable_t base;
  const kiln_hal_executable_library_v1_t* library;
  uint32_t* export_indices;  // entry ordinal -> library export index
  kiln_hal_executable_import_fn_t* import_funcs;
  void** import_contexts;
  uint32_t* constants;
  void (*close_fn)(void*);
  void* close_arg;
} kiln_hal_library_executable_t;

// Micro-kernels the runtime provides to generated code, by name (the
// packed matmul kernels of runtime/builtins/ukernel/; each takes a pointer
// to its params struct from ukernel_abi.h). Libraries that import something
// unknown fail to load (or get NULL for an optional "?name" import).
typedef struct kiln_hal_builtin_import_t {
  const char* name;
  kiln_hal_executable_import_fn_t fn;
} kiln_hal_builtin_import_t;
static const kiln_hal_builtin_import_t* kiln_hal_lookup_builtin_import(
    const char* name) {
  static const kiln_hal_builtin_import_t imports[] = {
      {KILN_UKERNEL_IMPORT_MMT4D, kiln_ukernel_mmt4d_import},
      {KILN_UKERNEL_IMPORT_PACK, kiln_ukernel_pack_import},
      {KILN_UKERNEL_IMPORT_UNPACK, kiln_ukernel_unpack_import},
      {KILN_UKERNEL_IMPORT_PACK_WINDOW, kiln_ukernel_pack_window_import},
      {KILN_UKERNEL_IMPORT_WINOGRAD_INPUT, kiln_ukernel_winograd_input_import},
      {KILN_UKERNEL_IMPORT_WINOGRAD_OUTPUT,
       kiln_ukernel_winograd_output_import},
      {KILN_UKERNEL_IMPORT_BIAS_ACT, kiln_ukernel_bias_act_import},
  };
  for (size_t i = 0; i < sizeof(imports) / sizeof(imports[0]); ++i) {
    if (strcmp(imports[i].name, name) == 0) return &imports[i];
  }
  return NULL;
}

static void kiln_hal_library_executable_destroy(
    kiln_hal_executable_t* base_executable) {
  kiln_hal_library_executable_t* executable =
      (kiln_hal_library_executable_t*)base_executable;
  kiln_allocator_t allocator = base_executable->host_allocator;
  kiln_allocator_free(allocator, executable->export_indices);
  kiln_allocator_free(allocator, executable->import_funcs);
  kiln_allocator_free(allocator, executable->import_contexts);
  kiln_allocator_free(allocator, executable->constants);
  kiln_hal_executable_deinitialize_base(base_executable);
  if (executable->close_fn) executable->close_fn(executable->close_arg);
  kiln_allocator_free(allocator, executable);
}

static kiln_status_t kiln_hal_library_executable_issue_workgroup(
    kiln_hal_local_executable_t* base_executable, uint32_t entry_point,
    void* dispatch_data,
    const kiln_hal_executable_dispatch_state_v1_t* dispatch_state,
    const kiln_hal_executable_workgroup_state_v1_t* workgroup_state) {
  kiln_hal_library_executable_t* executable =
      (kiln_hal_library_executable_t*)base_executable;
  uint32_t index = executable->export_indices[entry_point];
  int result = executable->library->exports.ptrs[index](
      &base_executable->environment, dispatch_state, workgroup_state);
  if (result != 0) {
    return kiln_make_status(
        KILN_STATUS_INTERNAL,
        "entry point '%s' failed with code %d in workgroup (%u, %u, %u)",
        executable->library->exports.names[index], result,
        workgroup_state->workgroup_id_x, workgroup_state->workgroup_id_y,
        workgroup_state->workgroup_id_z);
  }
  return kiln_ok_status();
}

static const kiln_hal_local_executable_vtable_t
    kiln_hal_library_executable_vtable = {
        {kiln_hal_library_executable_destroy},
        NULL,
        kiln_hal_library_executable_issue_workgroup,
        NULL,
};

static kiln_status_t kiln_hal_library_check(
    const kiln_hal_executable_library_header_t* header,
    const kiln_hal_executable_load_options_t* options) {
  if (!header) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "executable library does not support dispatch "
                            "ABI version %u",
                            KILN_HAL_EXECUTABLE_LIBRARY_VERSION);
  }
  if (header->version != KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "executable library '%s' has ABI version %u; "
                            "this runtime supports %u",
                            header->name ? header->name : "?", header->version,
                            KILN_HAL_EXECUTABLE_LIBRARY_VERSION);
  }
  uint64_t missing =
      header->required_cpu_features & ~options->host_cpu_features;
  if (missing) {
    // Named as the compilers name them: x86_64 -m flags, aarch64 -march
    // extensions (the bits mean different features on each).
#if defined(__aarch64__)
    static const char* const kNames[] = {"neon", "dotprod", "i8mm",
                                         "fp16", "bf16",    "sve"};
    static const char* const kLevel = "armv8.2-a";
#else
    static const char* const kNames[] = {"sse4.2",     "avx",       "avx2",
                                         "fma",        "f16c",      "avx512f",
                                         "avx512bw",   "avx512dq",  "avx512vl",
                                         "avx512vnni", "avx512bf16"};
    static const char* const kLevel = "x86-64-v3";
#endif
    char names[256] = "";
    size_t used = 0;
    for (uint32_t bit = 0; bit < 64; ++bit) {
      if (!(missing & (1ull << bit))) continue;
      char one[32];
      if (bit < sizeof(kNames) / sizeof(kNames[0])) {
        snprintf(one, sizeof(one), "%s%s", used ? ", " : "", kNames[bit]);
      } else {
        snprintf(one, sizeof(one), "%sbit %u", used ? ", " : "", bit);
      }
      size_t n = strlen(one);
      if (used + n + 1 >= sizeof(names)) break;
      memcpy(names + used, one, n + 1);
      used += n;
    }
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "executable library '%s' needs CPU features this "
                            "host lacks: %s (compile for this CPU, e.g. "
                            "--iree-llvmcpu-target-cpu=host, or for a lower "
                            "level such as %s or generic)",
                            header->name ? header->name : "?", names, kLevel);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_hal_library_executable_create(
    kiln_hal_executable_library_query_fn_t query_fn,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    void (*close_fn)(void* close_arg), void* close_arg,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable) {
  *out_executable = NULL;
  kiln_hal_library_executable_t* executable = NULL;
  kiln_status_t status = kiln_allocator_calloc(
      host_allocator, sizeof(*executable), (void**)&executable);
  if (status) {
    if (close_fn) close_fn(close_arg);
    return status;
  }
  kiln_hal_executable_environment_v1_t* env = &executable->base.environment;
  env->cpu_features = options->host_cpu_features;
  if (params->constant_count) {
    status = kiln_allocator_malloc(host_allocator,
                                   params->constant_count * sizeof(uint32_t),
                                   (void**)&executable->constants);
    if (!status) {
      memcpy(executable->constants, params->constants,
             params->constant_count * sizeof(uint32_t));
      env->constant_count = (uint32_t)params->constant_count;
      env->constants = executable->constants;
    }
  }

  const kiln_hal_executable_library_v1_t* library = NULL;
  if (!status) {
    const kiln_hal_executable_library_header_t* header =
        query_fn(KILN_HAL_EXECUTABLE_LIBRARY_VERSION, env);
    status = kiln_hal_library_check(header, options);
    library = (const kiln_hal_executable_library_v1_t*)header;
  }
  executable->library = library;

  // Imports.
  if (!status && library->imports.count) {
    uint32_t count = library->imports.count;
    status = kiln_allocator_calloc(host_allocator,
                                   count * sizeof(*executable->import_funcs),
                                   (void**)&executable->import_funcs);
    if (!status) {
      status = kiln_allocator_calloc(
          host_allocator, count * sizeof(*executable->import_contexts),
          (void**)&executable->import_contexts);
    }
    for (uint32_t i = 0; !status && i < count; ++i) {
      const char* name = library->imports.symbols[i];
      bool optional = name[0] == '?';
      if (optional) ++name;
      const kiln_hal_builtin_import_t* import =
          kiln_hal_lookup_builtin_import(name);
      if (import) {
        executable->import_funcs[i] = import->fn;
      } else if (!optional) {
        status = kiln_make_status(KILN_STATUS_NOT_FOUND,
                                  "executable library '%s' imports '%s', "
                                  "which this runtime does not provide",
                                  library->header.name, name);
      }
    }
    env->import_count = count;
    env->import_funcs = executable->import_funcs;
    env->import_contexts = executable->import_contexts;
  }

  // Entry points.
  size_t entry_count = 0;
  kiln_hal_executable_entry_point_info_t* infos = NULL;
  if (!status) {
    const kiln_hal_executable_export_table_v1_t* exports = &library->exports;
    entry_count =
        params->entry_point_count ? params->entry_point_count : exports->count;
    status = kiln_allocator_calloc(
        host_allocator,
        (entry_count ? entry_count : 1) * (sizeof(*infos) + sizeof(uint32_t)),
        (void**)&infos);
    if (!status) {
      executable->export_indices = NULL;
      status = kiln_allocator_calloc(
          host_allocator, (entry_count ? entry_count : 1) * sizeof(uint32_t),
          (void**)&executable->export_indices);
    }
    for (size_t i = 0; !status && i < entry_count; ++i) {
      uint32_t index = (uint32_t)i;
      if (params->entry_point_count) {
        kiln_string_view_t wanted = params->entry_points[i].name;
        index = UINT32_MAX;
        for (uint32_t j = 0; j < exports->count; ++j) {
          if (kiln_string_view_equal_cstr(wanted, exports->names[j])) {
            index = j;
            break;
          }
        }
        if (index == UINT32_MAX) {
          status = kiln_make_status(KILN_STATUS_NOT_FOUND,
                                    "executable library '%s' has no entry "
                                    "point named '%.*s'",
                                    library->header.name, KILN_SV_ARG(wanted));
          break;
        }
      }
      executable->export_indices[i] = index;
      kiln_hal_executable_entry_point_info_t* info = &infos[i];
      info->name = kiln_make_cstring_view(exports->names[index]);
      info->workgroup_size[0] = info->workgroup_size[1] =
          info->workgroup_size[2] = 1;
      if (exports->attrs) {
        const kiln_hal_executable_dispatch_attrs_v1_t* a =
            &exports->attrs[index];
        info->workgroup_size[0] = a->workgroup_size_x ? a->workgroup_size_x : 1;
        info->workgroup_size[1] = a->workgroup_size_y ? a->workgroup_size_y : 1;
        info->workgroup_size[2] = a->workgroup_size_z ? a->workgroup_size_z : 1;
        info->local_memory_size = a->local_memory_size;
      }
      if (exports->source_locations && exports->source_locations[index]) {
        info->source_location =
            kiln_make_cstring_view(exports->source_locations[index]);
      }
      if (params->entry_point_count) {
        const kiln_hal_executable_entry_point_info_t* given =
            &params->entry_points[i];
        for (int d = 0; d < 3 && !status; ++d) {
          if (given->workgroup_size[d] &&
              given->workgroup_size[d] != info->workgroup_size[d]) {
            status = kiln_make_status(
                KILN_STATUS_INVALID_ARGUMENT,
                "entry point '%.*s': workgroup size %u in dimension %d "
                "disagrees with the library's %u",
                KILN_SV_ARG(info->name), given->workgroup_size[d], d,
                info->workgroup_size[d]);
          }
        }
        if (!status && given->local_memory_size > info->local_memory_size) {
          info->local_memory_size = given->local_memory_size;
        }
        if (!info->source_location.size && given->source_location.size) {
          info->source_location = given->source_location;
        }
      }
    }
  }
  if (!status) {
    status = kiln_hal_executable_initialize_base(
        &executable->base.base, &kiln_hal_library_executable_vtable.base,
        params->format, entry_count, infos, host_allocator);
  }
  kiln_allocator_free(host_allocator, infos);
  if (status) {
    kiln_allocator_free(host_allocator, executable->export_indices);
    kiln_allocator_free(host_allocator, executable->import_funcs);
    kiln_allocator_free(host_allocator, executable->import_contexts);
    kiln_allocator_free(host_allocator, executable->constants);
    kiln_allocator_free(host_allocator, executable);
    if (close_fn) close_fn(close_arg);
    return status;
  }
  executable->close_fn = close_fn;
  executable->close_arg = close_arg;
  *out_executable = &executable->base.base;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_static_executable_create(
    kiln_hal_executable_library_query_fn_t query_fn,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable) {
  kiln_hal_executable_params_t p = *params;
  if (!p.format.size) p.format = kiln_make_cstring_view("static");
  kiln_hal_executable_load_options_t o = {0};
  if (options) {
    o = *options;
  } else {
    o.host_cpu_features = kiln_hal_query_host_cpu_features();
  }
  return kiln_hal_library_executable_create(query_fn, &p, &o, NULL, NULL,
                                            host_allocator, out_executable);
}
