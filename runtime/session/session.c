#include "runtime/session/session.h"

#include <string.h>

#include "runtime/base/limited_allocator.h"
#include "runtime/hal/local/loaders/vmvx_loader.h"
#include "runtime/io/parameter_index.h"
#include "runtime/modules/check/module.h"
#include "runtime/modules/hal/module.h"

// Arguments of one call are gathered on the stack up to this count.
#define KILN_RUNTIME_SESSION_MAX_INLINE_ARGS 32
// hal and check come before the user modules in the context.
#define KILN_RUNTIME_SESSION_NATIVE_MODULES 2

struct kiln_runtime_session_t {
  kiln_allocator_t parent_allocator;  // the caller's: holds the session
  kiln_limited_allocator_t* limiter;  // counts (and caps) everything else
  kiln_allocator_t allocator;         // the limiter's
  kiln_vm_instance_t* instance;
  kiln_hal_device_t* device;
  kiln_vm_module_t* hal_module;
  kiln_vm_module_t* check_module;
  // User modules in load (= link) order; the context links all of them.
  kiln_vm_module_t* user_modules[KILN_RUNTIME_SESSION_MAX_MODULES];
  size_t user_module_count;
  kiln_vm_context_t* context;             // NULL until a module is loaded
  kiln_io_parameter_index_t* parameters;  // NULL until a file is added
};

kiln_runtime_session_options_t kiln_runtime_session_options_default(void) {
  kiln_runtime_session_options_t options;
  memset(&options, 0, sizeof(options));
  options.device_uri = "local-task";
  return options;
}

// Creates the device with the vmvx loader added to the caller's loaders.
static kiln_status_t kiln_runtime_session_create_device(
    kiln_runtime_session_t* session,
    const kiln_runtime_session_options_t* options) {
  kiln_hal_executable_loader_t* vmvx_loader = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_vmvx_loader_create(
      session->instance, session->allocator, &vmvx_loader));
  size_t extra = options->device_params.executable_loader_count;
  kiln_hal_executable_loader_t* loaders[16];
  kiln_status_t status = kiln_ok_status();
  if (extra + 1 > sizeof(loaders) / sizeof(loaders[0])) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "at most 15 extra executable loaders");
  }
  if (!status) {
    for (size_t i = 0; i < extra; ++i) {
      loaders[i] = options->device_params.executable_loaders[i];
    }
    loaders[extra] = vmvx_loader;
    kiln_hal_device_params_t params = options->device_params;
    params.executable_loader_count = extra + 1;
    params.executable_loaders = loaders;
    const char* uri = options->device_uri ? options->device_uri : "local-task";
    status = kiln_hal_create_device(kiln_hal_driver_registry_default(),
                                    kiln_make_cstring_view(uri), &params,
                                    session->allocator, &session->device);
  }
  kiln_hal_executable_loader_release(vmvx_loader);
  if (!status && options->wrap_device) {
    kiln_hal_device_t* wrapped = NULL;
    status = options->wrap_device(options->wrap_device_user_data,
                                  session->device, &wrapped);
    kiln_hal_device_release(session->device);
    session->device = wrapped;
  }
  return status;
}

kiln_status_t kiln_runtime_session_create(
    const kiln_runtime_session_options_t* options, kiln_allocator_t allocator,
    kiln_runtime_session_t** out_session) {
  *out_session = NULL;
  kiln_runtime_session_t* session = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*session), (void**)&session));
  session->parent_allocator = allocator;
  // Everything the session and its module allocate (device buffers, VM
  // buffers and lists, the context) goes through the limiter.
  kiln_status_t status = kiln_limited_allocator_create(
      allocator, options->allocation_limit_bytes,
      options->allocation_limit_name ? options->allocation_limit_name
                                     : "the session's allocation_limit_bytes",
      &session->limiter);
  if (!status) {
    session->allocator = kiln_limited_allocator_allocator(session->limiter);
    status = kiln_vm_instance_create(session->allocator, &session->instance);
  }
  if (!status) status = kiln_runtime_session_create_device(session, options);
  if (!status) {
    status = kiln_hal_module_create(session->instance, session->device,
                                    session->allocator, &session->hal_module);
  }
  if (!status) {
    status = kiln_check_module_create(session->instance, session->allocator,
                                      &session->check_module);
  }
  if (status) {
    kiln_runtime_session_release(session);
    return status;
  }
  *out_session = session;
  return kiln_ok_status();
}

void kiln_runtime_session_release(kiln_runtime_session_t* session) {
  if (!session) return;
  if (session->context) kiln_vm_context_release(session->context);
  for (size_t i = 0; i < session->user_module_count; ++i) {
    kiln_ref_release(session->user_modules[i]);
  }
  kiln_ref_release(session->check_module);
  kiln_ref_release(session->hal_module);
  if (session->device) kiln_hal_device_release(session->device);
  if (session->instance) kiln_vm_instance_release(session->instance);
  kiln_ref_release(session->parameters);
  // Values the caller still holds keep the limiter (not the session) alive.
  kiln_limited_allocator_release(session->limiter);
  kiln_allocator_free(session->parent_allocator, session);
}

static bool kiln_runtime_session_has_module(kiln_runtime_session_t* session,
                                            kiln_string_view_t name) {
  for (size_t i = 0; i < session->user_module_count; ++i) {
    if (kiln_string_view_equal(kiln_vm_module_name(session->user_modules[i]),
                               name)) {
      return true;
    }
  }
  return false;
}

// Links the loaded |module| (ownership taken) after the session's modules:
// contexts are immutable, so a new context links them all and replaces the
// old one only once it exists (on failure the session is unchanged).
static kiln_status_t kiln_runtime_session_lookup_parameter(
    void* user_data, kiln_string_view_t scope, kiln_string_view_t key,
    const uint8_t** out_data, uint64_t* out_length) {
  return kiln_io_parameter_index_lookup((kiln_io_parameter_index_t*)user_data,
                                        scope, key, out_data, out_length);
}

static kiln_status_t kiln_runtime_session_link(kiln_runtime_session_t* session,
                                               kiln_vm_module_t* module) {
  kiln_string_view_t name = kiln_vm_module_name(module);
  kiln_status_t status = kiln_ok_status();
  if (session->user_module_count == KILN_RUNTIME_SESSION_MAX_MODULES) {
    status = kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "a session holds at most %d modules",
                              KILN_RUNTIME_SESSION_MAX_MODULES);
  } else if (kiln_runtime_session_has_module(session, name) ||
             kiln_string_view_equal_cstr(name, "hal") ||
             kiln_string_view_equal_cstr(name, "check")) {
    // Imports and qualified lookups name modules: names must be unique.
    status = kiln_make_status(
        KILN_STATUS_ALREADY_EXISTS,
        "the session already holds a module named '%.*s' (name each model "
        "apart: `module @name` in its source)",
        KILN_SV_ARG(name));
  }
  kiln_vm_module_t* modules[KILN_RUNTIME_SESSION_NATIVE_MODULES +
                            KILN_RUNTIME_SESSION_MAX_MODULES];
  size_t count = 0;
  modules[count++] = session->hal_module;
  modules[count++] = session->check_module;
  for (size_t i = 0; i < session->user_module_count; ++i) {
    modules[count++] = session->user_modules[i];
  }
  if (!status && kiln_vm_module_is_bytecode(module) &&
      kiln_vm_bytecode_module_parameter_count(module) && session->parameters) {
    // Without an index the parameters stay unbound and making the context
    // fails naming the first one and the flag that provides it.
    status = kiln_vm_bytecode_module_bind_parameters(
        module, kiln_runtime_session_lookup_parameter, session->parameters,
        (kiln_ref_object_t*)session->parameters);
  }
  kiln_vm_context_t* context = NULL;
  if (!status) {
    modules[count++] = module;
    status = kiln_vm_context_create(session->instance, modules, count,
                                    session->allocator, &context);
  }
  if (status) {
    kiln_ref_release(module);
    return status;
  }
  if (session->context) kiln_vm_context_release(session->context);
  session->context = context;
  session->user_modules[session->user_module_count++] = module;
  return kiln_ok_status();
}

kiln_status_t kiln_runtime_session_add_parameters(
    kiln_runtime_session_t* session, const char* value) {
  if (!session->parameters) {
    // From the parent allocator: modules (and buffers into the mappings)
    // may outlive the session and its limiter, and they keep the index.
    KILN_RETURN_IF_ERROR(kiln_io_parameter_index_create(
        session->parent_allocator, &session->parameters));
  }
  return kiln_io_parameter_index_add_flag(session->parameters, value);
}

kiln_status_t kiln_runtime_session_load_module_file(
    kiln_runtime_session_t* session, const char* path) {
  kiln_vm_module_t* module = NULL;
  kiln_status_t status = kiln_vm_bytecode_module_load_file(
      session->instance, path, KILN_VM_BYTECODE_LOAD_FLAG_NONE,
      session->allocator, &module);
  if (status) {
    if (!strstr(kiln_status_message(status), path)) {
      status = kiln_status_annotate_f(status, "loading module '%s'", path);
    }
    return status;
  }
  return kiln_runtime_session_link(session, module);
}

kiln_status_t kiln_runtime_session_load_module_memory(
    kiln_runtime_session_t* session, const void* bytes, size_t length,
    kiln_vm_bytecode_load_flags_t flags) {
  kiln_vm_module_t* module = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_module_load_memory(
      session->instance, bytes, length, flags, session->allocator, &module));
  return kiln_runtime_session_link(session, module);
}

static kiln_status_t kiln_runtime_session_check_loaded(
    kiln_runtime_session_t* session) {
  if (!session->user_module_count) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "no module is loaded in the session");
  }
  return kiln_ok_status();
}

// Appends "f, g" (|qualified|: "m.f, m.g") for |module|'s exports.
static size_t kiln_runtime_session_list_exports(kiln_vm_module_t* module,
                                                bool qualified, char* out,
                                                size_t capacity, size_t used) {
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (size_t i = 0; i < count && used < capacity; ++i) {
    kiln_vm_function_t function;
    kiln_status_t info = kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, (uint32_t)i, &function);
    if (info) {
      kiln_status_free(info);
      continue;
    }
    kiln_string_view_t module_name = kiln_vm_module_name(module);
    used += (size_t)snprintf(
        out + used, capacity - used, "%s%.*s%s%.*s", used ? ", " : "",
        qualified ? (int)module_name.size : 0, module_name.data,
        qualified ? "." : "", KILN_SV_ARG(kiln_vm_function_name(&function)));
  }
  return used;
}

kiln_status_t kiln_runtime_session_lookup_function(
    kiln_runtime_session_t* session, const char* name,
    kiln_vm_function_t* out_function) {
  KILN_RETURN_IF_ERROR(kiln_runtime_session_check_loaded(session));
  kiln_string_view_t full = kiln_make_cstring_view(name);
  // "module.function" searches only that module; a bare name (or a prefix
  // that is no module's name) the modules from the last loaded back.
  size_t first = 0, end = session->user_module_count;
  kiln_string_view_t function_name = full;
  size_t dot = kiln_string_view_find_char(full, '.', 0);
  for (size_t i = 0; dot != SIZE_MAX && i < session->user_module_count; ++i) {
    if (kiln_string_view_equal(kiln_vm_module_name(session->user_modules[i]),
                               kiln_string_view_substr(full, 0, dot))) {
      first = i;
      end = i + 1;
      function_name = kiln_string_view_substr(full, dot + 1, SIZE_MAX);
    }
  }
  for (size_t i = end; i-- > first;) {
    kiln_status_t status = kiln_vm_module_lookup_function_by_name(
        session->user_modules[i], function_name, out_function);
    if (!status) return status;
    kiln_status_free(status);
  }
  // Name what exists: the caller most likely mistyped one of these.
  char exports[512];
  char modules[256];
  size_t used = 0, modules_used = 0;
  exports[0] = modules[0] = 0;
  bool several = end - first > 1;
  for (size_t i = first; i < end; ++i) {
    kiln_vm_module_t* module = session->user_modules[i];
    used = kiln_runtime_session_list_exports(module, several, exports,
                                             sizeof(exports), used);
    if (modules_used < sizeof(modules)) {
      modules_used += (size_t)snprintf(
          modules + modules_used, sizeof(modules) - modules_used, "%s'%.*s'",
          modules_used ? ", " : "", KILN_SV_ARG(kiln_vm_module_name(module)));
    }
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "function '%s' not found in module%s %s; "
                          "exported functions: %s",
                          name, several ? "s" : "", modules,
                          used ? exports : "(none)");
}

kiln_status_t kiln_runtime_session_call(kiln_runtime_session_t* session,
                                        kiln_vm_function_t function,
                                        const kiln_vm_value_t* args,
                                        size_t arg_count,
                                        kiln_vm_value_t* results,
                                        size_t result_count) {
  return kiln_runtime_session_call_with_deadline(
      session, function, args, arg_count, results, result_count,
      KILN_VM_DEADLINE_INFINITE);
}

kiln_status_t kiln_runtime_session_call_with_deadline(
    kiln_runtime_session_t* session, kiln_vm_function_t function,
    const kiln_vm_value_t* args, size_t arg_count, kiln_vm_value_t* results,
    size_t result_count, int64_t deadline_ns) {
  KILN_RETURN_IF_ERROR(kiln_runtime_session_check_loaded(session));
  kiln_vm_invoke_options_t options = {0};
  options.deadline_ns = deadline_ns;
  return kiln_vm_invoke(session->context, function, args, arg_count, results,
                        result_count, &options);
}

kiln_status_t kiln_runtime_session_call_async(
    kiln_runtime_session_t* session, kiln_vm_function_t function,
    const kiln_vm_value_t* args, size_t arg_count, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, kiln_vm_value_t* results,
    size_t result_count) {
  if (arg_count + 2 > KILN_RUNTIME_SESSION_MAX_INLINE_ARGS) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "at most %d arguments per async call",
                            KILN_RUNTIME_SESSION_MAX_INLINE_ARGS - 2);
  }
  kiln_vm_value_t all_args[KILN_RUNTIME_SESSION_MAX_INLINE_ARGS];
  if (arg_count) memcpy(all_args, args, arg_count * sizeof(*args));
  all_args[arg_count] = kiln_vm_value_make_ref(wait_fence);
  all_args[arg_count + 1] = kiln_vm_value_make_ref(signal_fence);
  return kiln_runtime_session_call(session, function, all_args, arg_count + 2,
                                   results, result_count);
}

bool kiln_runtime_function_is_async(const kiln_vm_function_t* function) {
  kiln_string_view_t model;
  return kiln_vm_function_reflection_attr(function, "iree.abi.model", &model) &&
         kiln_string_view_equal_cstr(model, "coarse-fences");
}

kiln_vm_instance_t* kiln_runtime_session_instance(kiln_runtime_session_t* s) {
  return s->instance;
}
kiln_hal_device_t* kiln_runtime_session_device(kiln_runtime_session_t* s) {
  return s->device;
}
kiln_vm_module_t* kiln_runtime_session_module(kiln_runtime_session_t* s) {
  return s->user_module_count ? s->user_modules[s->user_module_count - 1]
                              : NULL;
}
size_t kiln_runtime_session_module_count(kiln_runtime_session_t* s) {
  return s->user_module_count;
}
kiln_vm_module_t* kiln_runtime_session_module_at(kiln_runtime_session_t* s,
                                                 size_t index) {
  return index < s->user_module_count ? s->user_modules[index] : NULL;
}
kiln_vm_context_t* kiln_runtime_session_context(kiln_runtime_session_t* s) {
  return s->context;
}
kiln_allocator_t kiln_runtime_session_allocator(kiln_runtime_session_t* s) {
  return s->allocator;
}
uint64_t kiln_runtime_session_bytes_in_use(kiln_runtime_session_t* s) {
  return kiln_limited_allocator_bytes_in_use(s->limiter);
}
