#include "tools/common/run_context.h"

#include <inttypes.h>
#include <string.h>

#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/function_io.h"

KILN_FLAG_LIST(module,
               "Path of a module to load (a .kmod file), or '-' for "
               "standard input. Repeat it to load several: they are linked "
               "into one context in order, each importing the exports of "
               "the ones before it (as IREE's tools do); functions are run "
               "from the last one.");
KILN_FLAG_LIST(parameters,
               "A parameter file (.irpa archive or .safetensors) whose "
               "entries the module's parameters are resolved from, as "
               "`scope=path` or `path` (the empty scope). Repeatable (as "
               "IREE's --parameters).");
KILN_FLAG(int64, allocation_limit_mb, 8192,
          "At most this many MiB live at once for the module (device "
          "buffers, VM buffers and lists, the context); past it an "
          "allocation fails with RESOURCE_EXHAUSTED. 0 = no limit.");
KILN_FLAG(bool, trace_execution, false,
          "Prints each VM bytecode instruction to stderr as it executes: "
          "[module.function+pc], the instruction, and the values of its "
          "register operands (as IREE's --trace_execution). Slow.");
KILN_FLAG(int64, function_timeout_ms, 0,
          "Fails a function call still running after this many milliseconds "
          "with DEADLINE_EXCEEDED (also inside its dispatches); 0 = no "
          "limit.");

int64_t kiln_tools_function_deadline_ns(void) {
  if (kiln_flag_function_timeout_ms <= 0) return KILN_VM_DEADLINE_INFINITE;
  int64_t timeout_ns = kiln_flag_function_timeout_ms > INT64_MAX / 1000000
                           ? INT64_MAX
                           : kiln_flag_function_timeout_ms * 1000000;
  int64_t now = kiln_vm_now_ns();
  return timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
}

//===----------------------------------------------------------------------===//
// Context creation
//===----------------------------------------------------------------------===//

typedef kiln_status_t (*kiln_tools_module_loader_fn_t)(
    kiln_runtime_session_t* session, const void* user_data);

typedef struct kiln_tools_device_wrapper_t {
  kiln_status_t (*fn)(void* user_data, kiln_hal_device_t* device,
                      kiln_hal_device_t** out_device);
  void* user_data;
} kiln_tools_device_wrapper_t;

static kiln_status_t kiln_tools_run_context_initialize_wrapped(
    kiln_allocator_t allocator, kiln_tools_module_loader_fn_t load_module,
    const void* user_data, const kiln_tools_device_wrapper_t* wrapper,
    kiln_tools_run_context_t* out) {
  memset(out, 0, sizeof(*out));
  out->allocator = allocator;
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = kiln_tooling_device_uri_from_flags();
  uint32_t cpu_count = 0;
  KILN_RETURN_IF_ERROR(kiln_tooling_parse_cpu_ids_from_flags(&cpu_count));
  options.device_params = kiln_tooling_device_params_from_flags();
  if (kiln_flag_allocation_limit_mb < 0 ||
      kiln_flag_allocation_limit_mb > INT64_MAX / (1024 * 1024)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--allocation_limit_mb=%" PRId64
                            " is out of range (0 = no limit)",
                            kiln_flag_allocation_limit_mb);
  }
  options.allocation_limit_bytes =
      (uint64_t)kiln_flag_allocation_limit_mb * 1024 * 1024;
  options.allocation_limit_name = "--allocation_limit_mb";
  if (wrapper) {
    options.wrap_device = wrapper->fn;
    options.wrap_device_user_data = wrapper->user_data;
  }
  kiln_status_t status =
      kiln_runtime_session_create(&options, allocator, &out->session);
  if (!status) status = load_module(out->session, user_data);
  if (status) {
    kiln_tools_run_context_deinitialize(out);
    return status;
  }
  out->device = kiln_runtime_session_device(out->session);
  out->user_module = kiln_runtime_session_module(out->session);
  out->context = kiln_runtime_session_context(out->session);
  return kiln_ok_status();
}

static kiln_status_t kiln_tools_run_context_initialize(
    kiln_allocator_t allocator, kiln_tools_module_loader_fn_t load_module,
    const void* user_data, kiln_tools_run_context_t* out) {
  return kiln_tools_run_context_initialize_wrapped(allocator, load_module,
                                                   user_data, NULL, out);
}

// Adds the --parameters files to |session| (before any module loads).
static kiln_status_t kiln_tools_add_parameters_from_flags(
    kiln_runtime_session_t* session) {
  for (size_t i = 0; i < kiln_flag_parameters.count; ++i) {
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_runtime_session_add_parameters(session,
                                            kiln_flag_parameters.values[i]),
        "--parameters=%s", kiln_flag_parameters.values[i]);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tools_load_module_from_flags(
    kiln_runtime_session_t* session, const void* user_data) {
  (void)user_data;
  KILN_RETURN_IF_ERROR(kiln_tools_add_parameters_from_flags(session));
  if (kiln_flag_module.count == 0 || !kiln_flag_module.values[0][0]) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "no module given; pass --module=path.kmod (or "
                            "--module=- to read standard input)");
  }
  size_t stdin_count = 0;
  for (size_t i = 0; i < kiln_flag_module.count; ++i) {
    if (!kiln_flag_module.values[i][0]) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--module #%zu is empty", i + 1);
    }
    if (strcmp(kiln_flag_module.values[i], "-") == 0) ++stdin_count;
  }
  if (stdin_count > 1) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--module=- (standard input) given %zu times; "
                            "at most one module can come from stdin",
                            stdin_count);
  }
  // In order: each load links the modules so far into a new context, so an
  // import of a later module is an error naming it (and the module).
  for (size_t i = 0; i < kiln_flag_module.count; ++i) {
    kiln_status_t status = kiln_runtime_session_load_module_file(
        session, kiln_flag_module.values[i]);
    if (status && kiln_flag_module.count > 1) {
      return kiln_status_annotate_f(status, "loading --module=%s (#%zu of %zu)",
                                    kiln_flag_module.values[i], i + 1,
                                    kiln_flag_module.count);
    }
    KILN_RETURN_IF_ERROR(status);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tools_run_context_initialize_from_flags(
    kiln_allocator_t allocator, kiln_tools_run_context_t* out) {
  return kiln_tools_run_context_initialize(
      allocator, kiln_tools_load_module_from_flags, NULL, out);
}

kiln_status_t kiln_tools_run_context_initialize_from_flags_wrapped(
    kiln_allocator_t allocator,
    kiln_status_t (*wrap_device)(void* user_data, kiln_hal_device_t* device,
                                 kiln_hal_device_t** out_device),
    void* wrap_device_user_data, kiln_tools_run_context_t* out) {
  kiln_tools_device_wrapper_t wrapper = {wrap_device, wrap_device_user_data};
  return kiln_tools_run_context_initialize_wrapped(
      allocator, kiln_tools_load_module_from_flags, NULL, &wrapper, out);
}

typedef struct kiln_tools_memory_image_t {
  const uint8_t* bytes;
  size_t length;
} kiln_tools_memory_image_t;

static kiln_status_t kiln_tools_load_module_from_memory(
    kiln_runtime_session_t* session, const void* user_data) {
  const kiln_tools_memory_image_t* image =
      (const kiln_tools_memory_image_t*)user_data;
  KILN_RETURN_IF_ERROR(kiln_tools_add_parameters_from_flags(session));
  return kiln_runtime_session_load_module_memory(
      session, image->bytes, image->length, KILN_VM_BYTECODE_LOAD_FLAG_NONE);
}

kiln_status_t kiln_tools_run_context_initialize_from_memory(
    kiln_allocator_t allocator, const uint8_t* bytes, size_t length,
    kiln_tools_run_context_t* out) {
  kiln_tools_memory_image_t image = {bytes, length};
  return kiln_tools_run_context_initialize(
      allocator, kiln_tools_load_module_from_memory, &image, out);
}

void kiln_tools_run_context_deinitialize(kiln_tools_run_context_t* context) {
  kiln_runtime_session_release(context->session);
  memset(context, 0, sizeof(*context));
}

//===----------------------------------------------------------------------===//
// Running functions
//===----------------------------------------------------------------------===//

kiln_status_t kiln_tools_run_context_lookup(kiln_tools_run_context_t* context,
                                            const char* name,
                                            kiln_vm_function_t* out_function) {
  return kiln_runtime_session_lookup_function(context->session, name,
                                              out_function);
}

// The exports a user may run: not the internal ones ("__init", which the
// VM runs when the context is created). Their count, and the first in
// |*out_first|.
static size_t kiln_tools_user_exports(kiln_vm_module_t* module,
                                      kiln_vm_function_t* out_first) {
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  size_t users = 0;
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_function_t function;
    kiln_status_t status = kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, i, &function);
    if (status) {  // (not for i < count)
      kiln_status_free(status);
      continue;
    }
    if (kiln_string_view_starts_with(kiln_vm_function_name(&function),
                                     kiln_make_cstring_view("__"))) {
      continue;
    }
    if (users++ == 0 && out_first) *out_first = function;
  }
  return users;
}

kiln_status_t kiln_tools_run_context_pick_function(
    kiln_tools_run_context_t* context, const char* name,
    kiln_vm_function_t* out_function) {
  if (name && name[0]) {
    return kiln_tools_run_context_lookup(context, name, out_function);
  }
  kiln_vm_module_t* module = context->user_module;
  if (kiln_tools_user_exports(module, out_function) == 1) {
    return kiln_ok_status();
  }
  // The lookup error lists the exports to choose from.
  return kiln_status_annotate_f(
      kiln_tools_run_context_lookup(context, "", out_function),
      "pass --function=NAME to choose one");
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
  // A coarse-fences function gets no wait fence (its inputs are ready) and a
  // signal fence the tool waits on before reading the results.
  bool is_async = kiln_runtime_function_is_async(&function);
  kiln_hal_fence_t* signal_fence = NULL;
  if (!status && is_async) {
    status = kiln_hal_device_create_fence(context->device, context->allocator,
                                          &signal_fence);
    kiln_vm_value_t fence_value = kiln_vm_value_make_ref(NULL);
    if (!status) status = kiln_vm_list_push_value(inputs, &fence_value);
    fence_value = kiln_vm_value_make_ref(signal_fence);
    if (!status) status = kiln_vm_list_push_value(inputs, &fence_value);
  }
  kiln_vm_invoke_options_t options = {0};
  if (!status) {
    kiln_tooling_print_exec_header(stream, kiln_vm_function_name(&function));
    options.deadline_ns = kiln_tools_function_deadline_ns();
    options.trace_execution = kiln_flag_trace_execution ? stderr : NULL;
    status = kiln_vm_invoke_list(context->context, function, inputs, outputs,
                                 &options);
  }
  if (!status && is_async) {
    status = kiln_hal_fence_wait(
        signal_fence,
        options.deadline_ns ? options.deadline_ns : KILN_HAL_INFINITE_DEADLINE);
    if (status) {
      kiln_string_view_t name = kiln_vm_function_name(&function);
      status = kiln_status_annotate_f(status, "waiting for '%.*s'",
                                      KILN_SV_ARG(name));
    }
  }
  if (signal_fence) kiln_hal_fence_release(signal_fence);
  if (!status) {
    status = kiln_tooling_process_results(&function, outputs, stream,
                                          context->allocator, out_exit_code);
  }
  kiln_ref_release(outputs);
  kiln_ref_release(inputs);
  return status;
}

kiln_status_t kiln_tools_run_context_run_named(
    kiln_tools_run_context_t* context, const char* function_name,
    bool print_statistics, int* out_exit_code) {
  *out_exit_code = 0;
  kiln_vm_function_t function;
  KILN_RETURN_IF_ERROR(
      kiln_tools_run_context_pick_function(context, function_name, &function));
  KILN_RETURN_IF_ERROR(
      kiln_tools_run_function(context, function, stdout, out_exit_code));
  if (print_statistics)
    kiln_tools_run_context_print_statistics(context, stderr);
  return kiln_ok_status();
}

kiln_status_t kiln_tools_run_context_run_all(kiln_tools_run_context_t* context,
                                             bool print_statistics,
                                             int* out_exit_code) {
  *out_exit_code = 0;
  kiln_vm_module_t* module = context->user_module;
  if (kiln_tools_user_exports(module, NULL) < 2) {
    return kiln_tools_run_context_run_named(context, "", print_statistics,
                                            out_exit_code);
  }
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, i, &function));
    if (kiln_string_view_starts_with(kiln_vm_function_name(&function),
                                     kiln_make_cstring_view("__"))) {
      continue;  // internal (the VM runs "__init" itself)
    }
    int exit_code = 0;
    KILN_RETURN_IF_ERROR(
        kiln_tools_run_function(context, function, stdout, &exit_code));
    if (exit_code) *out_exit_code = exit_code;
  }
  if (print_statistics)
    kiln_tools_run_context_print_statistics(context, stderr);
  return kiln_ok_status();
}

void kiln_tools_run_context_print_statistics(kiln_tools_run_context_t* context,
                                             FILE* stream) {
  if (context->device) {
    kiln_hal_allocator_statistics_fprint(
        stream, kiln_hal_device_allocator(context->device));
  }
}
