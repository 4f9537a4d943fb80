#include "runtime/hal/local/loaders/vmvx_loader.h"

#include <string.h>

#include "runtime/hal/local/local_executable.h"
#include "runtime/hal/semaphore.h"

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_vmvx_executable_t {
  kiln_hal_local_executable_t base;
  kiln_vm_module_t* module;
  kiln_vm_context_t* context;
  kiln_vm_function_t* functions;  // per entry ordinal
} kiln_hal_vmvx_executable_t;

// Built once per dispatch and shared by its workgroups.
typedef struct kiln_hal_vmvx_dispatch_t {
  kiln_vm_buffer_t* constants;
  kiln_vm_list_t* bindings;
  kiln_vm_buffer_t* empty;  // local memory when the entry declares none
  int64_t deadline_ns;      // the VM's: 0 for none
  uint32_t worker_count;
  // Per worker: its local memory wrapped once (created lazily by the worker
  // itself on its first workgroup of the dispatch; only that worker touches
  // its slot).
  kiln_vm_buffer_t* local_memory[];
} kiln_hal_vmvx_dispatch_t;

static void kiln_hal_vmvx_executable_destroy(kiln_hal_executable_t* base) {
  kiln_hal_vmvx_executable_t* executable = (kiln_hal_vmvx_executable_t*)base;
  kiln_allocator_t allocator = base->host_allocator;
  kiln_vm_context_release(executable->context);
  kiln_vm_module_release(executable->module);
  kiln_allocator_free(allocator, executable->functions);
  kiln_hal_executable_deinitialize_base(base);
  kiln_allocator_free(allocator, executable);
}

static void kiln_hal_vmvx_end_dispatch(kiln_hal_local_executable_t* base,
                                       uint32_t entry_point,
                                       void* dispatch_data) {
  kiln_hal_vmvx_dispatch_t* dispatch = (kiln_hal_vmvx_dispatch_t*)dispatch_data;
  if (!dispatch) return;
  for (uint32_t i = 0; i < dispatch->worker_count; ++i) {
    kiln_ref_release(dispatch->local_memory[i]);
  }
  kiln_ref_release(dispatch->constants);
  kiln_ref_release(dispatch->bindings);
  kiln_ref_release(dispatch->empty);
  kiln_allocator_free(base->base.host_allocator, dispatch);
}

static kiln_status_t kiln_hal_vmvx_begin_dispatch(
    kiln_hal_local_executable_t* base, uint32_t entry_point,
    const kiln_hal_executable_dispatch_state_v1_t* state, int64_t deadline_ns,
    void** out_dispatch_data) {
  kiln_allocator_t allocator = base->base.host_allocator;
  uint32_t workers = state->max_concurrency ? state->max_concurrency : 1;
  kiln_hal_vmvx_dispatch_t* dispatch = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      allocator, sizeof(*dispatch) + workers * sizeof(kiln_vm_buffer_t*),
      (void**)&dispatch));
  dispatch->worker_count = workers;
  dispatch->deadline_ns = deadline_ns == KILN_HAL_INFINITE_DEADLINE
                              ? KILN_VM_DEADLINE_INFINITE
                              : deadline_ns;
  kiln_status_t status = kiln_vm_buffer_wrap(
      (void*)state->constants, state->constant_count * sizeof(uint32_t),
      /*is_mutable=*/false, NULL, allocator, &dispatch->constants);
  if (!status) {
    status =
        kiln_vm_buffer_wrap(NULL, 0, true, NULL, allocator, &dispatch->empty);
  }
  if (!status) {
    status = kiln_vm_list_create(state->binding_count, allocator,
                                 &dispatch->bindings);
  }
  for (uint32_t i = 0; !status && i < state->binding_count; ++i) {
    kiln_vm_buffer_t* buffer = NULL;
    status =
        kiln_vm_buffer_wrap(state->binding_ptrs[i], state->binding_lengths[i],
                            true, NULL, allocator, &buffer);
    if (!status) {
      kiln_vm_value_t value = kiln_vm_value_make_ref(buffer);
      status = kiln_vm_list_push_value_move(dispatch->bindings, &value);
      if (status) kiln_ref_release(buffer);
    }
  }
  if (status) {
    kiln_hal_vmvx_end_dispatch(base, entry_point, dispatch);
    return status;
  }
  *out_dispatch_data = dispatch;
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_vmvx_issue_workgroup(
    kiln_hal_local_executable_t* base, uint32_t entry_point,
    void* dispatch_data, const kiln_hal_executable_dispatch_state_v1_t* state,
    const kiln_hal_executable_workgroup_state_v1_t* workgroup) {
  kiln_hal_vmvx_executable_t* executable = (kiln_hal_vmvx_executable_t*)base;
  kiln_hal_vmvx_dispatch_t* dispatch = (kiln_hal_vmvx_dispatch_t*)dispatch_data;
  kiln_vm_buffer_t* local = dispatch->empty;
  if (workgroup->local_memory_size) {
    uint32_t slot = workgroup->processor_id;
    if (slot >= dispatch->worker_count) {
      return kiln_make_status(KILN_STATUS_INTERNAL,
                              "processor id %u out of range", slot);
    }
    if (!dispatch->local_memory[slot]) {
      KILN_RETURN_IF_ERROR(kiln_vm_buffer_wrap(
          workgroup->local_memory, workgroup->local_memory_size, true, NULL,
          base->base.host_allocator, &dispatch->local_memory[slot]));
    }
    local = dispatch->local_memory[slot];
  }
  kiln_vm_value_t args[9] = {
      kiln_vm_value_make_ref(local),
      kiln_vm_value_make_ref(dispatch->constants),
      kiln_vm_value_make_ref(dispatch->bindings),
      kiln_vm_value_make_i32((int32_t)workgroup->workgroup_id_x),
      kiln_vm_value_make_i32((int32_t)workgroup->workgroup_id_y),
      kiln_vm_value_make_i32((int32_t)workgroup->workgroup_id_z),
      kiln_vm_value_make_i32((int32_t)state->workgroup_count_x),
      kiln_vm_value_make_i32((int32_t)state->workgroup_count_y),
      kiln_vm_value_make_i32((int32_t)state->workgroup_count_z),
  };
  // The VM checks the deadline on backward branches and calls: a workgroup
  // that loops forever stops there.
  kiln_vm_invoke_options_t options = {0};
  options.deadline_ns = dispatch->deadline_ns;
  kiln_status_t status =
      kiln_vm_invoke(executable->context, executable->functions[entry_point],
                     args, 9, NULL, 0, &options);
  if (status) {
    kiln_string_view_t name =
        kiln_vm_function_name(&executable->functions[entry_point]);
    return kiln_status_annotate_f(status,
                                  "vmvx entry point '%.*s' workgroup (%u, %u, "
                                  "%u)",
                                  KILN_SV_ARG(name), workgroup->workgroup_id_x,
                                  workgroup->workgroup_id_y,
                                  workgroup->workgroup_id_z);
  }
  return kiln_ok_status();
}

static const kiln_hal_local_executable_vtable_t
    kiln_hal_vmvx_executable_vtable = {
        {kiln_hal_vmvx_executable_destroy},
        kiln_hal_vmvx_begin_dispatch,
        kiln_hal_vmvx_issue_workgroup,
        kiln_hal_vmvx_end_dispatch,
};

//===----------------------------------------------------------------------===//
// Loader
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_vmvx_loader_t {
  kiln_hal_executable_loader_t base;
  kiln_allocator_t host_allocator;
  kiln_vm_instance_t* instance;
} kiln_hal_vmvx_loader_t;

static void kiln_hal_vmvx_loader_destroy(kiln_hal_executable_loader_t* base) {
  kiln_hal_vmvx_loader_t* loader = (kiln_hal_vmvx_loader_t*)base;
  kiln_vm_instance_release(loader->instance);
  kiln_allocator_free(loader->host_allocator, loader);
}

static bool kiln_hal_vmvx_loader_query_support(
    kiln_hal_executable_loader_t* base, kiln_string_view_t format) {
  return kiln_string_view_equal_cstr(format, KILN_HAL_VMVX_FORMAT);
}

static kiln_status_t kiln_hal_vmvx_loader_try_load(
    kiln_hal_executable_loader_t* base,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable) {
  kiln_hal_vmvx_loader_t* loader = (kiln_hal_vmvx_loader_t*)base;
  *out_executable = NULL;
  kiln_hal_vmvx_executable_t* executable = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      host_allocator, sizeof(*executable), (void**)&executable));
  // The bytes are borrowed only for this call: let the VM copy them.
  kiln_status_t status = kiln_vm_bytecode_module_load_memory(
      loader->instance, params->data, params->data_length,
      KILN_VM_BYTECODE_LOAD_FLAG_NONE, host_allocator, &executable->module);
  if (!status) {
    status = kiln_vm_context_create(loader->instance, &executable->module, 1,
                                    host_allocator, &executable->context);
  }
  size_t count = 0;
  if (!status) {
    count = params->entry_point_count
                ? params->entry_point_count
                : kiln_vm_module_function_count(
                      executable->module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
    status = kiln_allocator_calloc(
        host_allocator, (count ? count : 1) * sizeof(kiln_vm_function_t),
        (void**)&executable->functions);
  }
  kiln_hal_executable_entry_point_info_t* infos = NULL;
  if (!status) {
    status = kiln_allocator_calloc(
        host_allocator, (count ? count : 1) * sizeof(*infos), (void**)&infos);
  }
  for (size_t i = 0; !status && i < count; ++i) {
    kiln_vm_function_t* function = &executable->functions[i];
    if (params->entry_point_count) {
      infos[i] = params->entry_points[i];
      status = kiln_vm_module_lookup_function_by_name(
          executable->module, params->entry_points[i].name, function);
    } else {
      status = kiln_vm_module_function_at(executable->module,
                                          KILN_VM_FUNCTION_LINKAGE_EXPORT,
                                          (uint32_t)i, function);
      if (!status) infos[i].name = kiln_vm_function_name(function);
    }
    if (!status) {
      kiln_string_view_t signature = kiln_vm_function_signature(function);
      if (!kiln_string_view_equal_cstr(signature,
                                       KILN_HAL_VMVX_ENTRY_SIGNATURE) &&
          !kiln_string_view_equal_cstr(signature, "rrriiiiii")) {
        kiln_string_view_t name = kiln_vm_function_name(function);
        status = kiln_make_status(
            KILN_STATUS_INVALID_ARGUMENT,
            "vmvx entry point '%.*s' has signature '%.*s'; expected '%s'",
            KILN_SV_ARG(name), KILN_SV_ARG(signature),
            KILN_HAL_VMVX_ENTRY_SIGNATURE);
      }
    }
  }
  if (!status) {
    status = kiln_hal_executable_initialize_base(
        &executable->base.base, &kiln_hal_vmvx_executable_vtable.base,
        params->format, count, infos, host_allocator);
  }
  kiln_allocator_free(host_allocator, infos);
  if (status) {
    kiln_vm_context_release(executable->context);
    kiln_vm_module_release(executable->module);
    kiln_allocator_free(host_allocator, executable->functions);
    kiln_allocator_free(host_allocator, executable);
    return status;
  }
  executable->base.environment.cpu_features = options->host_cpu_features;
  *out_executable = &executable->base.base;
  return kiln_ok_status();
}

static const kiln_hal_executable_loader_vtable_t kiln_hal_vmvx_loader_vtable = {
    kiln_hal_vmvx_loader_destroy,
    kiln_hal_vmvx_loader_query_support,
    kiln_hal_vmvx_loader_try_load,
};

kiln_status_t kiln_hal_vmvx_loader_create(
    kiln_vm_instance_t* instance, kiln_allocator_t host_allocator,
    kiln_hal_executable_loader_t** out_loader) {
  *out_loader = NULL;
  kiln_hal_vmvx_loader_t* loader = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*loader), (void**)&loader));
  kiln_hal_executable_loader_initialize(&loader->base,
                                        &kiln_hal_vmvx_loader_vtable, "vmvx");
  loader->host_allocator = host_allocator;
  kiln_vm_instance_retain(instance);
  loader->instance = instance;
  *out_loader = &loader->base;
  return kiln_ok_status();
}
