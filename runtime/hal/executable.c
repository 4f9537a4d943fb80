#include "runtime/hal/executable.h"

#include <string.h>

#include "runtime/hal/executable_cache.h"

static void kiln_hal_executable_destroy(void* object) {
  kiln_hal_executable_t* executable = (kiln_hal_executable_t*)object;
  executable->vtable->destroy(executable);
}

const kiln_ref_type_t kiln_hal_executable_type = {"hal.executable",
                                                  kiln_hal_executable_destroy};

kiln_status_t kiln_hal_executable_initialize_base(
    kiln_hal_executable_t* executable,
    const kiln_hal_executable_vtable_t* vtable, kiln_string_view_t format,
    size_t entry_point_count,
    const kiln_hal_executable_entry_point_info_t* entry_points,
    kiln_allocator_t host_allocator) {
  kiln_ref_object_initialize(&executable->ref, &kiln_hal_executable_type);
  executable->vtable = vtable;
  executable->host_allocator = host_allocator;
  executable->format = NULL;
  executable->entry_point_count = 0;
  executable->entry_points = NULL;
  executable->string_storage = NULL;
  size_t string_size = format.size + 1;
  for (size_t i = 0; i < entry_point_count; ++i) {
    string_size += entry_points[i].name.size + 1 +
                   entry_points[i].source_location.size + 1;
  }
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
      host_allocator, string_size, (void**)&executable->string_storage));
  if (entry_point_count) {
    kiln_status_t status = kiln_allocator_calloc(
        host_allocator, entry_point_count * sizeof(*entry_points),
        (void**)&executable->entry_points);
    if (status) {
      kiln_allocator_free(host_allocator, executable->string_storage);
      executable->string_storage = NULL;
      return status;
    }
  }
  char* p = executable->string_storage;
  executable->format = p;
  memcpy(p, format.data, format.size);
  p[format.size] = 0;
  p += format.size + 1;
  for (size_t i = 0; i < entry_point_count; ++i) {
    kiln_hal_executable_entry_point_info_t* info = &executable->entry_points[i];
    *info = entry_points[i];
    for (int d = 0; d < 3; ++d) {
      if (!info->workgroup_size[d]) info->workgroup_size[d] = 1;
    }
    memcpy(p, entry_points[i].name.data, entry_points[i].name.size);
    p[entry_points[i].name.size] = 0;
    info->name = kiln_make_string_view(p, entry_points[i].name.size);
    p += entry_points[i].name.size + 1;
    if (entry_points[i].source_location.size) {
      memcpy(p, entry_points[i].source_location.data,
             entry_points[i].source_location.size);
    }
    p[entry_points[i].source_location.size] = 0;
    info->source_location =
        kiln_make_string_view(p, entry_points[i].source_location.size);
    p += entry_points[i].source_location.size + 1;
  }
  executable->entry_point_count = entry_point_count;
  return kiln_ok_status();
}

void kiln_hal_executable_deinitialize_base(kiln_hal_executable_t* executable) {
  kiln_allocator_free(executable->host_allocator, executable->entry_points);
  kiln_allocator_free(executable->host_allocator, executable->string_storage);
  executable->entry_points = NULL;
  executable->string_storage = NULL;
}

void kiln_hal_executable_retain(kiln_hal_executable_t* executable) {
  kiln_ref_retain(executable);
}
void kiln_hal_executable_release(kiln_hal_executable_t* executable) {
  kiln_ref_release(executable);
}

size_t kiln_hal_executable_entry_point_count(
    const kiln_hal_executable_t* executable) {
  return executable->entry_point_count;
}

kiln_status_t kiln_hal_executable_entry_point_info(
    const kiln_hal_executable_t* executable, uint32_t ordinal,
    kiln_hal_executable_entry_point_info_t* out_info) {
  if (ordinal >= executable->entry_point_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "entry point ordinal %u is out of range (the "
                            "executable has %zu)",
                            ordinal, executable->entry_point_count);
  }
  *out_info = executable->entry_points[ordinal];
  return kiln_ok_status();
}

kiln_status_t kiln_hal_executable_lookup_entry_point(
    const kiln_hal_executable_t* executable, kiln_string_view_t name,
    uint32_t* out_ordinal) {
  for (size_t i = 0; i < executable->entry_point_count; ++i) {
    if (kiln_string_view_equal(executable->entry_points[i].name, name)) {
      *out_ordinal = (uint32_t)i;
      return kiln_ok_status();
    }
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "executable has no entry point named '%.*s'",
                          KILN_SV_ARG(name));
}

kiln_string_view_t kiln_hal_executable_format(
    const kiln_hal_executable_t* executable) {
  return kiln_make_cstring_view(executable->format);
}

//===----------------------------------------------------------------------===//
// Executable cache (dispatch to the implementation)
//===----------------------------------------------------------------------===//

static void kiln_hal_executable_cache_destroy(void* object) {
  kiln_hal_executable_cache_t* cache = (kiln_hal_executable_cache_t*)object;
  cache->vtable->destroy(cache);
}

const kiln_ref_type_t kiln_hal_executable_cache_type = {
    "hal.executable_cache", kiln_hal_executable_cache_destroy};

void kiln_hal_executable_cache_retain(kiln_hal_executable_cache_t* cache) {
  kiln_ref_retain(cache);
}
void kiln_hal_executable_cache_release(kiln_hal_executable_cache_t* cache) {
  kiln_ref_release(cache);
}

bool kiln_hal_executable_cache_can_prepare_format(
    kiln_hal_executable_cache_t* cache, kiln_string_view_t format) {
  return cache->vtable->can_prepare_format(cache, format);
}

kiln_status_t kiln_hal_executable_cache_prepare_executable(
    kiln_hal_executable_cache_t* cache,
    const kiln_hal_executable_params_t* params,
    kiln_hal_executable_t** out_executable) {
  *out_executable = NULL;
  return cache->vtable->prepare_executable(cache, params, out_executable);
}
