// Native modules: the module vtable over a static function table.
#include "runtime/vm/native_module.h"

#include <string.h>

#include "runtime/vm/bytecode_module_impl.h"

typedef struct kiln_vm_native_binding_t {
  kiln_vm_function_t target;
  void* target_state;
} kiln_vm_native_binding_t;

// What the context sees as the module state; the user's state is inside.
typedef struct kiln_vm_native_state_t {
  void* user_state;
  kiln_allocator_t allocator;
  kiln_vm_native_binding_t* imports;
} kiln_vm_native_state_t;

typedef struct kiln_vm_native_module_t {
  kiln_vm_module_t base;
  const kiln_vm_native_module_descriptor_t* descriptor;
  void* user_data;
  kiln_vm_signature_t* sigs;         // per function
  kiln_vm_signature_t* import_sigs;  // per import
} kiln_vm_native_module_t;

static const kiln_vm_module_vtable_t kiln_vm_native_module_vtable;

static void kiln_vm_native_destroy(kiln_vm_module_t* base) {
  kiln_vm_native_module_t* m = (kiln_vm_native_module_t*)base;
  if (m->descriptor->destroy) m->descriptor->destroy(m->user_data);
  kiln_allocator_free(base->allocator, m->sigs);
  kiln_allocator_free(base->allocator, m->import_sigs);
  kiln_allocator_free(base->allocator, m);
}

static kiln_string_view_t kiln_vm_native_name(kiln_vm_module_t* base) {
  return kiln_make_cstring_view(
      ((kiln_vm_native_module_t*)base)->descriptor->name);
}

static size_t kiln_vm_native_function_count(
    kiln_vm_module_t* base, kiln_vm_function_linkage_t linkage) {
  const kiln_vm_native_module_descriptor_t* d =
      ((kiln_vm_native_module_t*)base)->descriptor;
  return linkage == KILN_VM_FUNCTION_LINKAGE_IMPORT ? d->import_count
                                                    : d->function_count;
}

static kiln_status_t kiln_vm_native_function_info(
    kiln_vm_module_t* base, kiln_vm_function_linkage_t linkage,
    uint32_t ordinal, kiln_string_view_t* name, kiln_string_view_t* sig) {
  const kiln_vm_native_module_descriptor_t* d =
      ((kiln_vm_native_module_t*)base)->descriptor;
  if (ordinal >= kiln_vm_native_function_count(base, linkage)) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "function ordinal %u out of range in '%s'", ordinal,
                            d->name);
  }
  if (linkage == KILN_VM_FUNCTION_LINKAGE_IMPORT) {
    *name = kiln_make_cstring_view(d->imports[ordinal].full_name);
    *sig = kiln_make_cstring_view(d->imports[ordinal].signature);
  } else {
    *name = kiln_make_cstring_view(d->functions[ordinal].name);
    *sig = kiln_make_cstring_view(d->functions[ordinal].signature);
  }
  return kiln_ok_status();
}

static size_t kiln_vm_native_attr_count(kiln_vm_module_t* base,
                                        uint32_t ordinal) {
  const kiln_vm_native_module_descriptor_t* d =
      ((kiln_vm_native_module_t*)base)->descriptor;
  return ordinal < d->function_count ? d->functions[ordinal].attr_count : 0;
}

static kiln_status_t kiln_vm_native_attr_at(kiln_vm_module_t* base,
                                            uint32_t ordinal, size_t index,
                                            kiln_string_view_t* key,
                                            kiln_string_view_t* value) {
  const kiln_vm_native_module_descriptor_t* d =
      ((kiln_vm_native_module_t*)base)->descriptor;
  if (index >= kiln_vm_native_attr_count(base, ordinal)) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "attribute %zu out of range", index);
  }
  *key = kiln_make_cstring_view(d->functions[ordinal].attrs[index].key);
  *value = kiln_make_cstring_view(d->functions[ordinal].attrs[index].value);
  return kiln_ok_status();
}

static void kiln_vm_native_free_state(kiln_vm_module_t* base, void* opaque) {
  kiln_vm_native_module_t* m = (kiln_vm_native_module_t*)base;
  kiln_vm_native_state_t* state = (kiln_vm_native_state_t*)opaque;
  if (!state) return;
  if (m->descriptor->create_state && m->descriptor->destroy_state) {
    m->descriptor->destroy_state(m->user_data, state->user_state);
  }
  kiln_allocator_free(state->allocator, state->imports);
  kiln_allocator_free(state->allocator, state);
}

static kiln_status_t kiln_vm_native_create_state(kiln_vm_module_t* base,
                                                 kiln_allocator_t allocator,
                                                 void** out_state) {
  kiln_vm_native_module_t* m = (kiln_vm_native_module_t*)base;
  kiln_vm_native_state_t* state = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*state), (void**)&state));
  state->allocator = allocator;
  state->user_state = m->user_data;
  kiln_status_t status = kiln_allocator_calloc(
      allocator,
      sizeof(kiln_vm_native_binding_t) * (m->descriptor->import_count + 1),
      (void**)&state->imports);
  if (!status && m->descriptor->create_state) {
    status = m->descriptor->create_state(m->user_data, allocator,
                                         &state->user_state);
    if (status) {
      kiln_allocator_free(allocator, state->imports);
      kiln_allocator_free(allocator, state);
      return status;
    }
  }
  if (status) {
    kiln_allocator_free(allocator, state);
    return status;
  }
  *out_state = state;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_native_resolve_import(
    kiln_vm_module_t* base, void* opaque, uint32_t ordinal,
    const kiln_vm_function_t* target, void* target_state) {
  kiln_vm_native_module_t* m = (kiln_vm_native_module_t*)base;
  kiln_vm_native_state_t* state = (kiln_vm_native_state_t*)opaque;
  if (ordinal >= m->descriptor->import_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "import ordinal %u out of range", ordinal);
  }
  state->imports[ordinal].target = *target;
  state->imports[ordinal].target_state = target_state;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_native_call(kiln_vm_module_t* base, void* opaque,
                                         kiln_vm_native_call_t* call) {
  kiln_vm_native_module_t* m = (kiln_vm_native_module_t*)base;
  kiln_vm_native_state_t* state = (kiln_vm_native_state_t*)opaque;
  uint32_t ordinal = call->function.ordinal;
  if (call->function.linkage == KILN_VM_FUNCTION_LINKAGE_IMPORT ||
      ordinal >= m->descriptor->function_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "bad native function %u of module '%s'", ordinal,
                            m->descriptor->name);
  }
  const kiln_vm_native_function_t* fn = &m->descriptor->functions[ordinal];
  kiln_string_view_t name = kiln_make_cstring_view(fn->name);
  KILN_RETURN_IF_ERROR(
      kiln_vm_check_args(name, &m->sigs[ordinal], call->args, call->arg_count));
  if (call->result_count != m->sigs[ordinal].results.size) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "function '%s.%s' has %zu results, caller expects %zu",
        m->descriptor->name, fn->name, m->sigs[ordinal].results.size,
        call->result_count);
  }
  void* saved = call->reserved;
  call->reserved = state;
  kiln_status_t status = fn->fn(state->user_state, call);
  call->reserved = saved;
  return status;
}

static const kiln_vm_module_vtable_t kiln_vm_native_module_vtable = {
    .destroy = kiln_vm_native_destroy,
    .name = kiln_vm_native_name,
    .function_count = kiln_vm_native_function_count,
    .function_info = kiln_vm_native_function_info,
    .attr_count = kiln_vm_native_attr_count,
    .attr_at = kiln_vm_native_attr_at,
    .create_state = kiln_vm_native_create_state,
    .free_state = kiln_vm_native_free_state,
    .resolve_import = kiln_vm_native_resolve_import,
    .call = kiln_vm_native_call,
};

kiln_status_t kiln_vm_native_module_create(
    kiln_vm_instance_t* instance,
    const kiln_vm_native_module_descriptor_t* descriptor, void* user_data,
    kiln_allocator_t allocator, kiln_vm_module_t** out_module) {
  *out_module = NULL;
  if (!descriptor || !descriptor->name || !descriptor->name[0]) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "native module descriptor needs a name");
  }
  kiln_vm_native_module_t* m = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*m), (void**)&m));
  kiln_status_t status = kiln_allocator_calloc(
      allocator, sizeof(kiln_vm_signature_t) * (descriptor->function_count + 1),
      (void**)&m->sigs);
  if (!status) {
    status = kiln_allocator_calloc(
        allocator, sizeof(kiln_vm_signature_t) * (descriptor->import_count + 1),
        (void**)&m->import_sigs);
  }
  for (size_t i = 0; !status && i < descriptor->function_count; ++i) {
    const kiln_vm_native_function_t* fn = &descriptor->functions[i];
    if (!fn->name || !fn->signature || !fn->fn) {
      status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "native module '%s': function %zu lacks a "
                                "name, signature or implementation",
                                descriptor->name, i);
      break;
    }
    status = kiln_status_annotate_f(
        kiln_vm_signature_parse(kiln_make_cstring_view(fn->signature),
                                &m->sigs[i]),
        "native function '%s.%s'", descriptor->name, fn->name);
  }
  for (size_t i = 0; !status && i < descriptor->import_count; ++i) {
    status = kiln_status_annotate_f(
        kiln_vm_signature_parse(
            kiln_make_cstring_view(descriptor->imports[i].signature),
            &m->import_sigs[i]),
        "import '%s' of native module '%s'", descriptor->imports[i].full_name,
        descriptor->name);
  }
  if (status) {
    kiln_allocator_free(allocator, m->sigs);
    kiln_allocator_free(allocator, m->import_sigs);
    kiln_allocator_free(allocator, m);
    return status;
  }
  kiln_vm_module_initialize(&m->base, &kiln_vm_native_module_vtable, allocator);
  m->descriptor = descriptor;
  m->user_data = user_data;
  *out_module = &m->base;
  return kiln_ok_status();
}

void* kiln_vm_native_module_user_data(kiln_vm_module_t* module) {
  if (module->vtable != &kiln_vm_native_module_vtable) return NULL;
  return ((kiln_vm_native_module_t*)module)->user_data;
}

kiln_status_t kiln_vm_native_call_import(kiln_vm_native_call_t* call,
                                         uint32_t import_ordinal,
                                         const kiln_vm_value_t* args,
                                         size_t arg_count,
                                         kiln_vm_value_t* results,
                                         size_t result_count) {
  kiln_vm_native_module_t* m = (kiln_vm_native_module_t*)call->function.module;
  kiln_vm_native_state_t* state = (kiln_vm_native_state_t*)call->reserved;
  if (!state || m->base.vtable != &kiln_vm_native_module_vtable ||
      import_ordinal >= m->descriptor->import_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "import %u is not available to this call",
                            import_ordinal);
  }
  kiln_vm_native_binding_t* binding = &state->imports[import_ordinal];
  if (!binding->target.module) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "import '%s' is not resolved",
                            m->descriptor->imports[import_ordinal].full_name);
  }
  kiln_vm_native_call_t inner;
  memset(&inner, 0, sizeof(inner));
  inner.function = binding->target;
  inner.args = args;
  inner.arg_count = arg_count;
  for (size_t i = 0; i < result_count; ++i) {
    results[i] = kiln_vm_value_make_none();
  }
  inner.results = results;
  inner.result_count = result_count;
  inner.deadline_ns = call->deadline_ns;
  inner.max_call_depth = call->max_call_depth;
  inner.trace_execution = call->trace_execution;
  kiln_vm_module_t* target = binding->target.module;
  kiln_status_t status =
      target->vtable->call(target, binding->target_state, &inner);
  if (!status) {
    status = kiln_vm_check_results(
        kiln_make_cstring_view(
            m->descriptor->imports[import_ordinal].full_name),
        &m->import_sigs[import_ordinal], results, result_count);
  }
  if (!status && inner.wait.wait) {
    status = inner.wait.wait(inner.wait.object,
                             call->deadline_ns ? call->deadline_ns : INT64_MAX);
  }
  if (status) kiln_vm_values_release(results, result_count);
  return status;
}

kiln_status_t kiln_vm_native_call_arg_ref(const kiln_vm_native_call_t* call,
                                          size_t index,
                                          const kiln_ref_type_t* type,
                                          bool allow_null,
                                          kiln_ref_object_t** out_ref) {
  *out_ref = NULL;
  kiln_string_view_t name = kiln_vm_function_name(&call->function);
  if (index >= call->arg_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "'%.*s' expects an argument %zu, got %zu "
                            "arguments",
                            KILN_SV_ARG(name), index, call->arg_count);
  }
  const kiln_vm_value_t* v = &call->args[index];
  if (v->type != KILN_VM_VALUE_TYPE_REF) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "argument %zu of '%.*s' must be a ref, got %s",
                            index, KILN_SV_ARG(name),
                            kiln_vm_value_type_name(v->type));
  }
  if (!v->ref) {
    if (allow_null) return kiln_ok_status();
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "argument %zu of '%.*s' must not be null", index,
                            KILN_SV_ARG(name));
  }
  if (type && v->ref->type != type) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "argument %zu of '%.*s' must be %s, got %s", index,
                            KILN_SV_ARG(name), type->name, v->ref->type->name);
  }
  *out_ref = v->ref;
  return kiln_ok_status();
}
