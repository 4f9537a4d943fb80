// Contexts (linking modules, owning their states) and invocations.
#include "runtime/vm/context.h"

#include <string.h>

#include "runtime/base/tracing.h"
#include "runtime/vm/bytecode_module_impl.h"

struct kiln_vm_context_t {
  kiln_ref_object_t ref;
  kiln_allocator_t allocator;
  kiln_vm_instance_t* instance;
  size_t module_count;
  kiln_vm_module_t** modules;
  void** states;
};

static void kiln_vm_context_destroy(void* object) {
  kiln_vm_context_t* context = (kiln_vm_context_t*)object;
  // Free states in reverse link order: later modules may use earlier ones.
  for (size_t i = context->module_count; i > 0; --i) {
    kiln_vm_module_t* module = context->modules[i - 1];
    if (!module) continue;
    if (context->states[i - 1]) {
      module->vtable->free_state(module, context->states[i - 1]);
    }
    kiln_vm_module_release(module);
  }
  kiln_allocator_free(context->allocator, context->modules);
  kiln_allocator_free(context->allocator, context->states);
  kiln_vm_instance_release(context->instance);
  kiln_allocator_free(context->allocator, context);
}

static const kiln_ref_type_t kiln_vm_context_type = {"vm.context",
                                                     kiln_vm_context_destroy};

// Finds export |name| ("module.function") among modules[0..limit).
static bool kiln_vm_context_find_export(kiln_vm_context_t* context,
                                        size_t limit, kiln_string_view_t name,
                                        kiln_vm_function_t* out_function,
                                        size_t* out_index) {
  kiln_string_view_t module_name, function_name;
  if (kiln_string_view_split(name, '.', &module_name, &function_name) ==
      SIZE_MAX) {
    return false;
  }
  for (size_t i = limit; i > 0; --i) {
    kiln_vm_module_t* module = context->modules[i - 1];
    if (!kiln_string_view_equal(kiln_vm_module_name(module), module_name)) {
      continue;
    }
    kiln_status_t status = kiln_vm_module_lookup_function_by_name(
        module, function_name, out_function);
    if (!status) {
      *out_index = i - 1;
      return true;
    }
    kiln_status_free(status);
  }
  return false;
}

static kiln_status_t kiln_vm_context_link(kiln_vm_context_t* context,
                                          size_t index) {
  kiln_vm_module_t* module = context->modules[index];
  kiln_string_view_t module_name = kiln_vm_module_name(module);
  size_t import_count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_IMPORT);
  for (uint32_t i = 0; i < import_count; ++i) {
    kiln_string_view_t name, sig;
    KILN_RETURN_IF_ERROR(module->vtable->function_info(
        module, KILN_VM_FUNCTION_LINKAGE_IMPORT, i, &name, &sig));
    kiln_vm_function_t target;
    size_t target_index = 0;
    if (!kiln_vm_context_find_export(context, index, name, &target,
                                     &target_index)) {
      return kiln_make_status(
          KILN_STATUS_NOT_FOUND,
          "import '%.*s' of module '%.*s' not found in the modules linked "
          "before it",
          KILN_SV_ARG(name), KILN_SV_ARG(module_name));
    }
    kiln_string_view_t target_sig = kiln_vm_function_signature(&target);
    if (!kiln_string_view_equal(sig, target_sig)) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "import '%.*s' of module '%.*s' expects signature '%.*s' but the "
          "export has '%.*s'",
          KILN_SV_ARG(name), KILN_SV_ARG(module_name), KILN_SV_ARG(sig),
          KILN_SV_ARG(target_sig));
    }
    KILN_RETURN_IF_ERROR(
        module->vtable->resolve_import(module, context->states[index], i,
                                       &target, context->states[target_index]));
  }
  return kiln_ok_status();
}

// Runs the no-argument export "__init" of module |index| once, if it has one
// (IREE's convention: module initializers fill globals before any call).
static kiln_status_t kiln_vm_context_run_init(kiln_vm_context_t* context,
                                              size_t index) {
  kiln_vm_module_t* module = context->modules[index];
  kiln_string_view_t module_name = kiln_vm_module_name(module);
  size_t export_count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (uint32_t i = 0; i < export_count; ++i) {
    kiln_string_view_t name, sig;
    KILN_RETURN_IF_ERROR(module->vtable->function_info(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, i, &name, &sig));
    if (!kiln_string_view_equal_cstr(name, "__init")) continue;
    kiln_vm_signature_t parsed;
    KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(sig, &parsed));
    if (parsed.args.size != 0 || parsed.variadic) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "module '%.*s' exports '__init' with arguments "
                              "('%.*s'); the initializer must take none",
                              KILN_SV_ARG(module_name), KILN_SV_ARG(sig));
    }
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, i, &function));
    kiln_vm_value_t results[8];
    size_t result_count = parsed.results.size;
    if (result_count > 8) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "module '%.*s': '__init' returns %zu values",
                              KILN_SV_ARG(module_name), result_count);
    }
    kiln_status_t status =
        kiln_vm_invoke(context, function, NULL, 0, results, result_count, NULL);
    if (status) {
      return kiln_status_annotate_f(
          status,
          "module '%.*s' initializer '__init' failed; context not "
          "created",
          KILN_SV_ARG(module_name));
    }
    kiln_vm_values_release(results, result_count);  // results are ignored
    return kiln_ok_status();
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_context_create(kiln_vm_instance_t* instance,
                                     kiln_vm_module_t* const* modules,
                                     size_t module_count,
                                     kiln_allocator_t allocator,
                                     kiln_vm_context_t** out_context) {
  *out_context = NULL;
  kiln_vm_context_t* context = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*context), (void**)&context));
  kiln_ref_object_initialize(&context->ref, &kiln_vm_context_type);
  context->allocator = allocator;
  context->instance = instance;
  kiln_vm_instance_retain(instance);
  kiln_status_t status = kiln_allocator_calloc(
      allocator, sizeof(void*) * (module_count + 1), (void**)&context->modules);
  if (!status) {
    status =
        kiln_allocator_calloc(allocator, sizeof(void*) * (module_count + 1),
                              (void**)&context->states);
  }
  if (status) {
    kiln_vm_context_destroy(context);
    return status;
  }
  context->module_count = module_count;
  for (size_t i = 0; i < module_count; ++i) {
    context->modules[i] = modules[i];
    kiln_vm_module_retain(modules[i]);
  }
  for (size_t i = 0; !status && i < module_count; ++i) {
    kiln_vm_module_t* module = modules[i];
    status =
        module->vtable->create_state(module, allocator, &context->states[i]);
    if (!status) status = kiln_vm_context_link(context, i);
  }
  // Initializers run once every module is linked, in link order.
  for (size_t i = 0; !status && i < module_count; ++i) {
    status = kiln_vm_context_run_init(context, i);
  }
  if (status) {
    kiln_vm_context_destroy(context);
    return status;
  }
  *out_context = context;
  return kiln_ok_status();
}

void kiln_vm_context_retain(kiln_vm_context_t* context) {
  kiln_ref_retain(context);
}
void kiln_vm_context_release(kiln_vm_context_t* context) {
  kiln_ref_release(context);
}

size_t kiln_vm_context_module_count(const kiln_vm_context_t* context) {
  return context->module_count;
}

kiln_vm_module_t* kiln_vm_context_module_at(const kiln_vm_context_t* context,
                                            size_t index) {
  return index < context->module_count ? context->modules[index] : NULL;
}

static bool kiln_vm_context_state_of(const kiln_vm_context_t* context,
                                     const kiln_vm_module_t* module,
                                     void** out_state) {
  for (size_t i = 0; i < context->module_count; ++i) {
    if (context->modules[i] == module) {
      *out_state = context->states[i];
      return true;
    }
  }
  return false;
}

kiln_status_t kiln_vm_context_module_state(const kiln_vm_context_t* context,
                                           const kiln_vm_module_t* module,
                                           void** out_state) {
  if (kiln_vm_context_state_of(context, module, out_state)) {
    return kiln_ok_status();
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "module is not linked in this context");
}

kiln_status_t kiln_vm_context_lookup_function_by_name(
    const kiln_vm_context_t* context, kiln_string_view_t name,
    kiln_vm_function_t* out_function) {
  size_t index = 0;
  // "module.function" first (module names do not contain dots).
  if (kiln_vm_context_find_export((kiln_vm_context_t*)context,
                                  context->module_count, name, out_function,
                                  &index)) {
    return kiln_ok_status();
  }
  for (size_t i = context->module_count; i > 0; --i) {
    kiln_status_t status = kiln_vm_module_lookup_function_by_name(
        context->modules[i - 1], name, out_function);
    if (!status) return kiln_ok_status();
    kiln_status_free(status);
  }
  if (context->module_count > 0) {
    kiln_string_view_t last =
        kiln_vm_module_name(context->modules[context->module_count - 1]);
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "function '%.*s' not found in module '%.*s' (or "
                            "any module of the context)",
                            KILN_SV_ARG(name), KILN_SV_ARG(last));
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "function '%.*s' not found: the context is empty",
                          KILN_SV_ARG(name));
}

//===----------------------------------------------------------------------===//
// Argument checks
//===----------------------------------------------------------------------===//

kiln_status_t kiln_vm_check_args(kiln_string_view_t function_name,
                                 const kiln_vm_signature_t* sig,
                                 const kiln_vm_value_t* args, size_t count) {
  if (count < sig->args.size || (!sig->variadic && count != sig->args.size)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "function '%.*s' expects %s%zu argument%s, got %zu",
                            KILN_SV_ARG(function_name),
                            sig->variadic ? "at least " : "", sig->args.size,
                            sig->args.size == 1 ? "" : "s", count);
  }
  for (size_t i = 0; i < sig->args.size; ++i) {
    kiln_vm_value_type_t expected =
        kiln_vm_value_type_from_char(sig->args.data[i]);
    if (args[i].type != expected) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "argument %zu of '%.*s' must be %s, got %s", i,
                              KILN_SV_ARG(function_name),
                              kiln_vm_value_type_name(expected),
                              kiln_vm_value_type_name(args[i].type));
    }
  }
  for (size_t i = sig->args.size; i < count; ++i) {
    if (args[i].type == KILN_VM_VALUE_TYPE_NONE) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "argument %zu of '%.*s' has no value", i,
                              KILN_SV_ARG(function_name));
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_check_results(kiln_string_view_t function_name,
                                    const kiln_vm_signature_t* sig,
                                    const kiln_vm_value_t* results,
                                    size_t count) {
  for (size_t i = 0; i < count && i < sig->results.size; ++i) {
    kiln_vm_value_type_t expected =
        kiln_vm_value_type_from_char(sig->results.data[i]);
    if (results[i].type != expected) {
      return kiln_make_status(KILN_STATUS_INTERNAL,
                              "'%.*s' returned %s as result %zu, its "
                              "signature says %s",
                              KILN_SV_ARG(function_name),
                              kiln_vm_value_type_name(results[i].type), i,
                              kiln_vm_value_type_name(expected));
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Invocation
//===----------------------------------------------------------------------===//

kiln_status_t kiln_vm_invoke(kiln_vm_context_t* context,
                             kiln_vm_function_t function,
                             const kiln_vm_value_t* args, size_t arg_count,
                             kiln_vm_value_t* results, size_t result_count,
                             const kiln_vm_invoke_options_t* options) {
  for (size_t i = 0; i < result_count; ++i) {
    results[i] = kiln_vm_value_make_none();
  }
  void* state = NULL;
  if (!function.module ||
      !kiln_vm_context_state_of(context, function.module, &state)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "function's module is not linked in the context");
  }
  if (function.linkage != KILN_VM_FUNCTION_LINKAGE_EXPORT) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "only exported functions can be invoked");
  }
  kiln_string_view_t name = kiln_vm_function_name(&function);
  kiln_vm_signature_t sig;
  KILN_RETURN_IF_ERROR(
      kiln_vm_signature_parse(kiln_vm_function_signature(&function), &sig));
  KILN_RETURN_IF_ERROR(kiln_vm_check_args(name, &sig, args, arg_count));
  if (result_count != sig.results.size) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "function '%.*s' returns %zu result%s, the caller "
                            "provided room for %zu",
                            KILN_SV_ARG(name), sig.results.size,
                            sig.results.size == 1 ? "" : "s", result_count);
  }
  kiln_vm_native_call_t call;
  memset(&call, 0, sizeof(call));
  call.function = function;
  call.args = args;
  call.arg_count = arg_count;
  call.results = results;
  call.result_count = result_count;
  call.deadline_ns = options ? options->deadline_ns : 0;
  call.max_call_depth = options ? options->max_call_depth : 0;
  call.trace_execution = options ? options->trace_execution : NULL;
  // Named after the function: the outermost zone of each invocation.
  KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, name.data, name.size);
  kiln_status_t status =
      function.module->vtable->call(function.module, state, &call);
  if (!status) {
    status = kiln_vm_check_results(name, &sig, results, result_count);
  }
  if (!status && call.wait.wait) {
    status = call.wait.wait(call.wait.object,
                            call.deadline_ns ? call.deadline_ns : INT64_MAX);
  }
  KILN_TRACE_ZONE_END(z0);
  if (status) {
    kiln_vm_values_release(results, result_count);
    kiln_string_view_t module_name = kiln_vm_module_name(function.module);
    return kiln_status_annotate_f(status, "while invoking '%.*s.%.*s'",
                                  KILN_SV_ARG(module_name), KILN_SV_ARG(name));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_invoke_list(kiln_vm_context_t* context,
                                  kiln_vm_function_t function,
                                  kiln_vm_list_t* args, kiln_vm_list_t* results,
                                  const kiln_vm_invoke_options_t* options) {
  size_t arg_count = args ? kiln_vm_list_size(args) : 0;
  kiln_vm_signature_t sig;
  KILN_RETURN_IF_ERROR(
      kiln_vm_signature_parse(kiln_vm_function_signature(&function), &sig));
  size_t result_count = sig.results.size;
  if (result_count && !results) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "function returns results but no result list was "
                            "given");
  }
  kiln_vm_value_t* values = NULL;
  kiln_allocator_t allocator = context->allocator;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      allocator, sizeof(kiln_vm_value_t) * (arg_count + result_count + 1),
      (void**)&values));
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; !status && i < arg_count; ++i) {
    status = kiln_vm_list_get_value(args, i, &values[i]);  // borrowed
  }
  kiln_vm_value_t* result_values = values + arg_count;
  if (!status) {
    status = kiln_vm_invoke(context, function, values, arg_count, result_values,
                            result_count, options);
  }
  for (size_t i = 0; !status && i < result_count; ++i) {
    status = kiln_vm_list_push_value_move(results, &result_values[i]);
  }
  kiln_vm_values_release(result_values, result_count);
  kiln_allocator_free(allocator, values);
  return status;
}
