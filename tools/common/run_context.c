#include "tools/common/run_context.h"

#include <string.h>

#include "runtime/hal/local/loaders/vmvx_loader.h"
#include "runtime/modules/check/module.h"
#include "runtime/modules/hal/module.h"
#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/function_io.h"

KILN_FLAG(string, module, "",
          "Path of the module to run (a .kmod file), or '-' for standard "
          "input.");

//===----------------------------------------------------------------------===//
// Context creation
//===----------------------------------------------------------------------===//

// Creates the instance and device, then links [hal, check, user module].
// Takes ownership of nothing: |user_module| is retained by the context.
static kiln_status_t kiln_tools_run_context_link(
    kiln_tools_run_context_t* out) {
  kiln_vm_module_t* hal_module = NULL;
  kiln_vm_module_t* check_module = NULL;
  kiln_status_t status = kiln_hal_module_create(out->instance, out->device,
                                                out->allocator, &hal_module);
  if (!status) {
    status =
        kiln_check_module_create(out->instance, out->allocator, &check_module);
  }
  if (!status) {
    kiln_vm_module_t* modules[3] = {hal_module, check_module, out->user_module};
    status = kiln_vm_context_create(out->instance, modules, 3, out->allocator,
                                    &out->context);
  }
  kiln_ref_release(hal_module);
  kiln_ref_release(check_module);
  return status;
}

// Creates the --device device with the vmvx loader registered, so that
// portable executables run on every CPU device.
static kiln_status_t kiln_tools_run_context_create_device(
    kiln_tools_run_context_t* out) {
  kiln_hal_executable_loader_t* vmvx_loader = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_vmvx_loader_create(
      out->instance, out->allocator, &vmvx_loader));
  kiln_hal_device_params_t params = kiln_tooling_device_params_from_flags();
  params.executable_loader_count = 1;
  params.executable_loaders = &vmvx_loader;
  const char* uri = kiln_tooling_device_uri_from_flags();
  kiln_status_t status =
      kiln_hal_create_device(kiln_hal_driver_registry_default(),
                             kiln_make_cstring_view(uri), &params,
                             out->allocator, &out->device);
  kiln_hal_executable_loader_release(vmvx_loader);
  return status;
}

typedef kiln_status_t (*kiln_tools_module_loader_fn_t)(
    kiln_tools_run_context_t* out, const void* user_data);

static kiln_status_t kiln_tools_run_context_initialize(
    kiln_allocator_t allocator, kiln_tools_module_loader_fn_t load_module,
    const void* user_data, kiln_tools_run_context_t* out) {
  memset(out, 0, sizeof(*out));
  out->allocator = allocator;
  kiln_status_t status = kiln_vm_instance_create(allocator, &out->instance);
  // The module is loaded before the device is created so that a bad module
  // is reported without starting worker threads.
  if (!status) status = load_module(out, user_data);
  if (!status) status = kiln_tools_run_context_create_device(out);
  if (!status) status = kiln_tools_run_context_link(out);
  if (status) kiln_tools_run_context_deinitialize(out);
  return status;
}

static kiln_status_t kiln_tools_load_module_from_flags(
    kiln_tools_run_context_t* out, const void* user_data) {
  (void)user_data;
  if (!kiln_flag_module || !kiln_flag_module[0]) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "no module given; pass --module=path.kmod (or "
                            "--module=- to read standard input)");
  }
  kiln_status_t status = kiln_vm_bytecode_module_load_file(
      out->instance, kiln_flag_module, KILN_VM_BYTECODE_LOAD_FLAG_NONE,
      out->allocator, &out->user_module);
  if (status && !strstr(kiln_status_message(status), kiln_flag_module)) {
    status =
        kiln_status_annotate_f(status, "loading module '%s'", kiln_flag_module);
  }
  return status;
}

kiln_status_t kiln_tools_run_context_initialize_from_flags(
    kiln_allocator_t allocator, kiln_tools_run_context_t* out) {
  return kiln_tools_run_context_initialize(
      allocator, kiln_tools_load_module_from_flags, NULL, out);
}

typedef struct kiln_tools_memory_image_t {
  const uint8_t* bytes;
  size_t length;
} kiln_tools_memory_image_t;

static kiln_status_t kiln_tools_load_module_from_memory(
    kiln_tools_run_context_t* out, const void* user_data) {
  const kiln_tools_memory_image_t* image =
      (const kiln_tools_memory_image_t*)user_data;
  return kiln_vm_bytecode_module_load_memory(
      out->instance, image->bytes, image->length,
      KILN_VM_BYTECODE_LOAD_FLAG_NONE, out->allocator, &out->user_module);
}

kiln_status_t kiln_tools_run_context_initialize_from_memory(
    kiln_allocator_t allocator, const uint8_t* bytes, size_t length,
    kiln_tools_run_context_t* out) {
  kiln_tools_memory_image_t image = {bytes, length};
  return kiln_tools_run_context_initialize(
      allocator, kiln_tools_load_module_from_memory, &image, out);
}

void kiln_tools_run_context_deinitialize(kiln_tools_run_context_t* context) {
  if (context->context) kiln_vm_context_release(context->context);
  kiln_ref_release(context->user_module);
  if (context->device) kiln_hal_device_release(context->device);
  if (context->instance) kiln_vm_instance_release(context->instance);
  memset(context, 0, sizeof(*context));
}

//===----------------------------------------------------------------------===//
// Running functions
//===----------------------------------------------------------------------===//

kiln_status_t kiln_tools_run_context_lookup(kiln_tools_run_context_t* context,
                                            const char* name,
                                            kiln_vm_function_t* out_function) {
  kiln_vm_module_t* module = context->user_module;
  kiln_string_view_t module_name = kiln_vm_module_name(module);
  kiln_status_t status = kiln_vm_module_lookup_function_by_name(
      module, kiln_make_cstring_view(name), out_function);
  if (!status) return status;
  kiln_status_free(status);
  // Name what exists: the user most likely mistyped one of these.
  char exports[512];
  size_t used = 0;
  exports[0] = 0;
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (size_t i = 0; i < count && used < sizeof(exports); ++i) {
    kiln_string_view_t export_name, signature;
    kiln_status_t info =
        module->vtable->function_info(module, KILN_VM_FUNCTION_LINKAGE_EXPORT,
                                      (uint32_t)i, &export_name, &signature);
    if (info) {
      kiln_status_free(info);
      continue;
    }
    used += (size_t)snprintf(exports + used, sizeof(exports) - used, "%s%.*s",
                             used ? ", " : "", KILN_SV_ARG(export_name));
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "function '%s' not found in module '%.*s'; "
                          "exported functions: %s",
                          name, KILN_SV_ARG(module_name),
                          used ? exports : "(none)");
}

kiln_status_t kiln_tools_run_function(kiln_tools_run_context_t* context,
                                      kiln_vm_function_t function, FILE* stream,
                                      int* out_exit_code) {
  *out_exit_code = 0;
  kiln_vm_list_t* inputs = NULL;
  KILN_RETURN_IF_ERROR(kiln_tooling_parse_function_inputs_from_flags(
      &function, kiln_hal_device_allocator(context->device), context->allocator,
      &inputs));
  kiln_vm_list_t* outputs = NULL;
  kiln_status_t status = kiln_vm_list_create(4, context->allocator, &outputs);
  if (!status) {
    kiln_tooling_print_exec_header(stream, kiln_vm_function_name(&function));
    status =
        kiln_vm_invoke_list(context->context, function, inputs, outputs, NULL);
  }
  if (!status) {
    status = kiln_tooling_process_results(&function, outputs, stream,
                                          context->allocator, out_exit_code);
  }
  kiln_ref_release(outputs);
  kiln_ref_release(inputs);
  return status;
}

void kiln_tools_run_context_print_statistics(kiln_tools_run_context_t* context,
                                             FILE* stream) {
  if (context->device) {
    kiln_hal_allocator_statistics_fprint(
        stream, kiln_hal_device_allocator(context->device));
  }
}
