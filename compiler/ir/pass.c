#include "compiler/ir/pass.h"

#include <string.h>
#include <time.h>

#include "compiler/ir/verifier.h"
#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"

struct kiln_ir_pass_registry_t {
  kiln_allocator_t allocator;
  size_t count;
  size_t capacity;
  kiln_ir_pass_t* passes;
};

kiln_status_t kiln_ir_pass_registry_create(
    kiln_allocator_t allocator, kiln_ir_pass_registry_t** out_registry) {
  kiln_ir_pass_registry_t* r = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*r), (void**)&r));
  r->allocator = allocator;
  *out_registry = r;
  return kiln_ok_status();
}

void kiln_ir_pass_registry_destroy(kiln_ir_pass_registry_t* r) {
  if (!r) return;
  kiln_allocator_free(r->allocator, r->passes);
  kiln_allocator_free(r->allocator, r);
}

kiln_status_t kiln_ir_pass_registry_add(kiln_ir_pass_registry_t* r,
                                        const kiln_ir_pass_t* pass) {
  if (kiln_ir_pass_registry_lookup(r, kiln_make_cstring_view(pass->name))) {
    return kiln_make_status(KILN_STATUS_ALREADY_EXISTS,
                            "pass '%s' is already registered", pass->name);
  }
  if (r->count == r->capacity) {
    size_t cap = r->capacity ? r->capacity * 2 : 16;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        r->allocator, cap * sizeof(*r->passes), (void**)&r->passes));
    r->capacity = cap;
  }
  r->passes[r->count++] = *pass;
  return kiln_ok_status();
}

const kiln_ir_pass_t* kiln_ir_pass_registry_lookup(
    const kiln_ir_pass_registry_t* r, kiln_string_view_t name) {
  for (size_t i = 0; i < r->count; ++i) {
    if (kiln_string_view_equal_cstr(name, r->passes[i].name)) {
      return &r->passes[i];
    }
  }
  return NULL;
}

size_t kiln_ir_pass_registry_count(const kiln_ir_pass_registry_t* r) {
  return r->count;
}

const kiln_ir_pass_t* kiln_ir_pass_registry_get(
    const kiln_ir_pass_registry_t* r, size_t index) {
  return index < r->count ? &r->passes[index] : NULL;
}

struct kiln_ir_pass_manager_t {
  kiln_allocator_t allocator;
  kiln_ir_pass_manager_options_t options;
  size_t count;
  size_t capacity;
  kiln_ir_pass_t* passes;
};

kiln_status_t kiln_ir_pass_manager_create(
    kiln_allocator_t allocator, const kiln_ir_pass_manager_options_t* options,
    kiln_ir_pass_manager_t** out_pm) {
  kiln_ir_pass_manager_t* pm = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*pm), (void**)&pm));
  pm->allocator = allocator;
  if (options) {
    pm->options = *options;
  } else {
    pm->options.verify_each = true;
  }
  *out_pm = pm;
  return kiln_ok_status();
}

void kiln_ir_pass_manager_destroy(kiln_ir_pass_manager_t* pm) {
  if (!pm) return;
  kiln_allocator_free(pm->allocator, pm->passes);
  kiln_allocator_free(pm->allocator, pm);
}

kiln_status_t kiln_ir_pass_manager_add(kiln_ir_pass_manager_t* pm,
                                       const kiln_ir_pass_t* pass) {
  if (pm->count == pm->capacity) {
    size_t cap = pm->capacity ? pm->capacity * 2 : 16;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        pm->allocator, cap * sizeof(*pm->passes), (void**)&pm->passes));
    pm->capacity = cap;
  }
  pm->passes[pm->count++] = *pass;
  return kiln_ok_status();
}

// The length of the element of |list| that starts it: up to the first
// comma outside parentheses and braces (MLIR's nesting and pass options).
static size_t kiln_ir_pipeline_element(kiln_string_view_t list) {
  int depth = 0;
  for (size_t i = 0; i < list.size; ++i) {
    char c = list.data[i];
    if (c == '(' || c == '{') ++depth;
    if ((c == ')' || c == '}') && depth > 0) --depth;
    if (c == ',' && depth == 0) return i;
  }
  return list.size;
}

// Adds the passes of |list|: names, and MLIR's op anchors around them.
// `builtin.module(...)` holds module passes; `func.func(...)` and
// `util.func(...)` hold passes MLIR runs on every function, which kiln's
// passes (each over the whole module) already are.
static kiln_status_t kiln_ir_pass_manager_add_list(
    kiln_ir_pass_manager_t* pm, const kiln_ir_pass_registry_t* registry,
    kiln_string_view_t list) {
  static const char* const anchors[] = {"builtin.module(", "func.func(",
                                        "util.func("};
  while (list.size) {
    size_t n = kiln_ir_pipeline_element(list);
    kiln_string_view_t name =
        kiln_string_view_trim(kiln_string_view_substr(list, 0, n));
    list = n < list.size ? kiln_string_view_substr(list, n + 1, list.size - n)
                         : kiln_string_view_substr(list, list.size, 0);
    if (!name.size) continue;
    bool nested = false;
    for (size_t a = 0; a < sizeof(anchors) / sizeof(anchors[0]); ++a) {
      kiln_string_view_t prefix = kiln_make_cstring_view(anchors[a]);
      if (kiln_string_view_starts_with(name, prefix) &&
          kiln_string_view_ends_with(name, kiln_make_cstring_view(")"))) {
        KILN_RETURN_IF_ERROR(kiln_ir_pass_manager_add_list(
            pm, registry,
            kiln_string_view_substr(name, prefix.size,
                                    name.size - prefix.size - 1)));
        nested = true;
        break;
      }
    }
    if (nested) continue;
    const kiln_ir_pass_t* pass = kiln_ir_pass_registry_lookup(registry, name);
    if (!pass) {
      return kiln_make_status(KILN_STATUS_NOT_FOUND,
                              "unknown pass '%.*s' in pipeline",
                              KILN_SV_ARG(name));
    }
    KILN_RETURN_IF_ERROR(kiln_ir_pass_manager_add(pm, pass));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_ir_pass_manager_parse_pipeline(
    kiln_ir_pass_manager_t* pm, const kiln_ir_pass_registry_t* registry,
    kiln_string_view_t pipeline) {
  return kiln_ir_pass_manager_add_list(pm, registry,
                                       kiln_string_view_trim(pipeline));
}

static double kiln_ir_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Whether |name| is one of the comma-separated names in |list|.
static bool kiln_ir_pass_name_listed(const char* list, const char* name) {
  size_t n = strlen(name);
  for (const char* p = list; p && *p;) {
    const char* end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return true;
    if (!end) break;
    p = end + 1;
  }
  return false;
}

kiln_status_t kiln_ir_pass_manager_run(kiln_ir_pass_manager_t* pm,
                                       kiln_ir_context_t* context,
                                       kiln_ir_op_t* module) {
  FILE* print_stream =
      pm->options.print_stream ? pm->options.print_stream : stderr;
  FILE* timing_stream =
      pm->options.timing_stream ? pm->options.timing_stream : stderr;
  double total = 0.0;
  double* times = NULL;
  if (pm->options.timing && pm->count) {
    KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
        pm->allocator, pm->count * sizeof(double), (void**)&times));
  }
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < pm->count && !status; ++i) {
    const kiln_ir_pass_t* pass = &pm->passes[i];
    if (kiln_ir_pass_name_listed(pm->options.print_ir_before, pass->name)) {
      fprintf(print_stream, "// -----// IR Dump Before %s //----- //\n",
              pass->name);
      status = kiln_ir_print_op(context, module, &pm->options.print_options,
                                print_stream);
      fputc('\n', print_stream);
      if (status) break;
    }
    double start = kiln_ir_now_seconds();
    KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, pass->name, strlen(pass->name));
    status = pass->run(context, module, pass->user_data);
    if (!status) status = kiln_ir_context_take_error(context);
    if (!status && pm->options.verify_each) {
      KILN_TRACE_ZONE_BEGIN_NAMED(z1, KILN_TRACE_ZONE_VERIFY);
      status = kiln_ir_verify(context, module);
      KILN_TRACE_ZONE_END(z1);
    }
    KILN_TRACE_ZONE_END(z0);
    double elapsed = kiln_ir_now_seconds() - start;
    total += elapsed;
    if (times) times[i] = elapsed;
    if (status) {
      status = kiln_status_annotate_f(status, "in pass '%s'", pass->name);
      break;
    }
    if (pm->options.print_ir_after_all ||
        kiln_ir_pass_name_listed(pm->options.print_ir_after, pass->name)) {
      fprintf(print_stream, "// -----// IR Dump After %s //----- //\n",
              pass->name);
      status = kiln_ir_print_op(context, module, &pm->options.print_options,
                                print_stream);
      fputc('\n', print_stream);
    }
  }
  if (times) {
    fprintf(timing_stream,
            "===-------------------------------------------------------------"
            "------------===\n"
            "                         ... Execution time report ...\n"
            "===-------------------------------------------------------------"
            "------------===\n"
            "  Total Execution Time: %.4f seconds\n\n"
            "  ----Wall Time----  ----Name----\n",
            total);
    for (size_t i = 0; i < pm->count; ++i) {
      fprintf(timing_stream, "    %.4f (%5.1f%%)  %s\n", times[i],
              total > 0 ? 100.0 * times[i] / total : 0.0, pm->passes[i].name);
    }
    fprintf(timing_stream, "    %.4f (100.0%%)  Total\n", total);
    kiln_allocator_free(pm->allocator, times);
  }
  return status;
}
