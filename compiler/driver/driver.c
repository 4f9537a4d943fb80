#include "compiler/driver/driver.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/codegen/vmvx/vmvx_codegen.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/form_dispatch_regions.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/text/parser.h"
#include "compiler/ir/verifier.h"
#include "compiler/schedule/schedule.h"
#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"
#include "runtime/vm/assembler.h"
#if defined(KILN_HAVE_DIALECTS)
#include "compiler/dialects/registration.h"
#endif
#if defined(KILN_HAVE_PIPELINE)
#include "compiler/pipeline/registration.h"
#endif
#if defined(KILN_HAVE_ONNX)
#include "compiler/input/onnx/onnx_import.h"
#endif

void kiln_compiler_options_initialize(kiln_compiler_options_t* options) {
  memset(options, 0, sizeof(*options));
}

kiln_status_t kiln_backend_register_ops(kiln_ir_context_t* context) {
  return kiln_dispatch_register_ops(context);
}

kiln_status_t kiln_backend_register_passes(kiln_ir_pass_registry_t* registry) {
  KILN_RETURN_IF_ERROR(
      kiln_ir_pass_registry_add(registry, &kiln_form_dispatch_regions_pass));
  KILN_RETURN_IF_ERROR(
      kiln_ir_pass_registry_add(registry, &kiln_vmvx_codegen_pass));
  KILN_RETURN_IF_ERROR(
      kiln_ir_pass_registry_add(registry, &kiln_schedule_pass));
  return kiln_ir_pass_registry_add(registry, &kiln_vm_emission_pass);
}

// The backend's serialize stage as a pass (user_data: kiln_driver_serialize_t).
typedef struct kiln_driver_serialize_t {
  const kiln_target_backend_t* backend;
  const kiln_target_options_t* options;
} kiln_driver_serialize_t;

// form-dispatch-regions' window_pad_ok: the backend's, with its options
// (|user_data| is the job's kiln_driver_serialize_t).
static bool kiln_driver_window_pad_ok(kiln_ir_context_t* context,
                                      const void* user_data, kiln_ir_op_t* root,
                                      kiln_ir_op_t* pad) {
  const kiln_driver_serialize_t* s = (const kiln_driver_serialize_t*)user_data;
  return s->backend->window_pad_ok(context, s->options, root, pad);
}

static kiln_status_t kiln_driver_serialize_run(kiln_ir_context_t* context,
                                               kiln_ir_op_t* module,
                                               void* user_data) {
  const kiln_driver_serialize_t* s = (const kiln_driver_serialize_t*)user_data;
  if (!s || !s->backend->serialize) return kiln_ok_status();
  kiln_status_t status = s->backend->serialize(context, module, s->options);
  if (status) {
    status =
        kiln_status_annotate_f(status, "target backend '%s'", s->backend->name);
  }
  return status;
}

static const kiln_ir_pass_t kiln_driver_serialize_pass = {
    .name = "target-serialize",
    .description = "the target backend's serialize stage",
    .run = kiln_driver_serialize_run,
    .user_data = NULL,
};

// The phases in order (--compile-to, --compile-from,
// --dump-compilation-phases-to).
#define KILN_DRIVER_PHASE_COUNT 5
static const char* const kiln_driver_phases[KILN_DRIVER_PHASE_COUNT] = {
    "input", "structured", "form-dispatch-regions", "vmvx-codegen", "schedule"};

// The index of |phase| in kiln_driver_phases, or -1.
static int kiln_driver_phase_index(const char* phase) {
  for (int i = 0; i < KILN_DRIVER_PHASE_COUNT; ++i) {
    if (phase && strcmp(phase, kiln_driver_phases[i]) == 0) return i;
  }
  return -1;
}

// --dump-compilation-phases-to=DIR: after each phase, the IR as
// DIR/<stem>.<n>.<phase>.mlir (IREE's flag and naming).
typedef struct kiln_driver_phase_dump_t {
  const char* dir;
  const char* stem;
  int index;
  const char* phase;
} kiln_driver_phase_dump_t;

static kiln_status_t kiln_driver_phase_dump_run(kiln_ir_context_t* context,
                                                kiln_ir_op_t* module,
                                                void* user_data) {
  const kiln_driver_phase_dump_t* d =
      (const kiln_driver_phase_dump_t*)user_data;
  char path[4096];
  int n = snprintf(path, sizeof(path), "%s/%s.%d.%s.mlir", d->dir, d->stem,
                   d->index, d->phase);
  if (n < 0 || (size_t)n >= sizeof(path)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--dump-compilation-phases-to: path too long");
  }
  FILE* f = fopen(path, "w");
  if (!f) {
    return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                            "--dump-compilation-phases-to: cannot write '%s'",
                            path);
  }
  kiln_ir_print_options_t print_options = {false, false, 0};
  kiln_status_t status = kiln_ir_print_op(context, module, &print_options, f);
  if (fclose(f) != 0 && !status) {
    status =
        kiln_make_status(KILN_STATUS_DATA_LOSS,
                         "--dump-compilation-phases-to: writing '%s'", path);
  }
  return status;
}

// Adds the dump of phase |k| (when dumping).
static kiln_status_t kiln_driver_add_phase_dump(kiln_ir_pass_manager_t* pm,
                                                kiln_driver_phase_dump_t* dumps,
                                                int k) {
  if (!dumps) return kiln_ok_status();
  kiln_ir_pass_t pass = {.name = "dump-compilation-phase",
                         .description = "writes the IR after a phase",
                         .run = kiln_driver_phase_dump_run,
                         .user_data = &dumps[k]};
  return kiln_ir_pass_manager_add(pm, &pass);
}

int kiln_compiler_phase_lookup(const char* phase) {
  if (phase && strcmp(phase, "end") == 0) return KILN_COMPILER_PHASE_END;
  return kiln_driver_phase_index(phase);
}

int kiln_compiler_options_last_phase(const kiln_compiler_options_t* options) {
  // MLIR output stops after --compile-to (default schedule); the other
  // formats need the whole pipeline.
  if (options->output_format != KILN_COMPILER_OUTPUT_MLIR) {
    return KILN_COMPILER_PHASE_END;
  }
  return kiln_driver_phase_index(options->compile_to ? options->compile_to
                                                     : "schedule");
}

// Adds the passes from --compile-from up to phase |last| (an index into
// kiln_driver_phases, or KILN_COMPILER_PHASE_END for serialize and
// vm-emission too).
static kiln_status_t kiln_driver_build_pipeline(
    const kiln_compiler_options_t* o, int last, kiln_ir_pass_manager_t* pm,
    kiln_ir_pass_t* form_pass, kiln_ir_pass_t* codegen_pass,
    kiln_ir_pass_t* serialize_pass, kiln_ir_pass_t* emission_pass,
    kiln_driver_phase_dump_t* dumps, const void* channels_last) {
#if defined(KILN_HAVE_PIPELINE)
  const kiln_conv_channels_last_options_t* cl =
      (const kiln_conv_channels_last_options_t*)channels_last;
#else
  (void)channels_last;
#endif
  KILN_RETURN_IF_ERROR(kiln_driver_add_phase_dump(pm, dumps, 0));
  if (last == 0) return kiln_ok_status();
  // --compile-from=PHASE: the input is that phase's output (a dump), so
  // the passes up to it are skipped.
  int from = o->compile_from ? kiln_driver_phase_index(o->compile_from) : 0;
#if defined(KILN_HAVE_PIPELINE)
  // The dialect engineer's default input pipeline (lower-to-structured,
  // canonicalize, cse, const-eval, dce).
  if (from < 1) {
    KILN_RETURN_IF_ERROR(kiln_compiler_build_default_pipeline_with(pm, cl));
  }
#endif
  KILN_RETURN_IF_ERROR(kiln_driver_add_phase_dump(pm, dumps, 1));
  if (last == 1) return kiln_ok_status();
  const kiln_ir_pass_t* backend[] = {form_pass, codegen_pass,
                                     &kiln_schedule_pass};
  for (int i = 0; i < 3; ++i) {
    if (i + 2 <= from) continue;
    KILN_RETURN_IF_ERROR(kiln_ir_pass_manager_add(pm, backend[i]));
    KILN_RETURN_IF_ERROR(kiln_driver_add_phase_dump(pm, dumps, 2 + i));
    if (last == 2 + i) return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_ir_pass_manager_add(pm, serialize_pass));
  return kiln_ir_pass_manager_add(pm, emission_pass);
}

static kiln_status_t kiln_driver_copy_out(kiln_allocator_t allocator,
                                          const void* data, size_t length,
                                          uint8_t** out_bytes,
                                          size_t* out_length) {
  uint8_t* bytes = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(allocator, length + 1, (void**)&bytes));
  if (length) memcpy(bytes, data, length);
  bytes[length] = 0;
  *out_bytes = bytes;
  *out_length = length;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// kiln_compiler_job_t
//===----------------------------------------------------------------------===//

typedef enum kiln_driver_job_state_e {
  KILN_DRIVER_JOB_CREATED = 0,
  KILN_DRIVER_JOB_PARSED = 1,
  KILN_DRIVER_JOB_RAN = 2,
  KILN_DRIVER_JOB_FAILED = 3,
} kiln_driver_job_state_t;

struct kiln_compiler_job_t {
  kiln_allocator_t allocator;
  kiln_compiler_options_t options;
  const kiln_target_backend_t* backend;
  kiln_ir_context_t* context;
  kiln_ir_op_t* module;
  kiln_driver_job_state_t state;
  int last_phase;  // the phase the pipeline ran to (after RAN)
  kiln_ir_diagnostic_handler_t handler;
  void* handler_data;
  // What the pipeline's passes point at (user_data) while it runs.
  kiln_form_dispatch_regions_options_t form_options;
  kiln_vmvx_codegen_options_t codegen_options;
  kiln_driver_serialize_t serialize;
  kiln_vm_emission_options_t emission_options;
  kiln_driver_phase_dump_t dumps[KILN_DRIVER_PHASE_COUNT];
  char stem[256];
#if defined(KILN_HAVE_PIPELINE)
  kiln_conv_channels_last_options_t channels_last;
#endif
};

static void kiln_driver_job_diagnostic(void* user_data,
                                       kiln_ir_context_t* context,
                                       const kiln_ir_diagnostic_t* diagnostic) {
  kiln_compiler_job_t* job = (kiln_compiler_job_t*)user_data;
  if (job->handler) {
    job->handler(job->handler_data, context, diagnostic);
  } else {
    kiln_ir_diagnostic_print(context, diagnostic,
                             job->options.diagnostic_stream
                                 ? job->options.diagnostic_stream
                                 : stderr);
  }
}

kiln_status_t kiln_compiler_job_create(const kiln_compiler_options_t* options,
                                       kiln_allocator_t allocator,
                                       kiln_compiler_job_t** out_job) {
  *out_job = NULL;
  kiln_compiler_options_t defaults;
  if (!options) {
    kiln_compiler_options_initialize(&defaults);
    options = &defaults;
  }
  const kiln_target_backend_t* backend =
      options->target_backends
          ? kiln_target_backend_lookup(options->target_backends)
          : kiln_target_backend_default(&options->target);
  if (!backend) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "unsupported target backend '%s' (supported: %s)",
                            options->target_backends,
                            kiln_target_backend_names());
  }
  kiln_compiler_job_t* job = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*job), (void**)&job));
  job->allocator = allocator;
  job->options = *options;
  job->backend = backend;
  kiln_status_t status = kiln_ir_context_create(allocator, &job->context);
  if (!status) {
    kiln_ir_context_set_allow_unregistered_ops(
        job->context, options->allow_unregistered_dialect);
    kiln_ir_context_set_diagnostic_handler(job->context,
                                           kiln_driver_job_diagnostic, job);
    status = kiln_mlir_register_builtin_ops(job->context);
  }
  if (!status) status = kiln_mlir_register_example_ops(job->context);
#if defined(KILN_HAVE_DIALECTS)
  if (!status) status = kiln_dialects_register_all(job->context);
#endif
  if (!status) status = kiln_dispatch_register_ops(job->context);
  if (status) {
    kiln_compiler_job_destroy(job);
    return status;
  }
  *out_job = job;
  return kiln_ok_status();
}

void kiln_compiler_job_destroy(kiln_compiler_job_t* job) {
  if (!job) return;
  kiln_ir_context_destroy(job->context);
  kiln_allocator_free(job->allocator, job);
}

void kiln_compiler_job_set_diagnostic_handler(
    kiln_compiler_job_t* job, kiln_ir_diagnostic_handler_t handler,
    void* user_data) {
  job->handler = handler;
  job->handler_data = user_data;
}

void kiln_compiler_job_set_streams(kiln_compiler_job_t* job,
                                   FILE* diagnostic_stream, FILE* dump_stream) {
  job->options.diagnostic_stream = diagnostic_stream;
  job->options.dump_stream = dump_stream;
}

// A failed stage leaves the job failed. Errors already reported as
// diagnostics (file:line:col) are summarized so that tools do not print
// them twice.
static kiln_status_t kiln_driver_job_finish_stage(kiln_compiler_job_t* job,
                                                  kiln_status_t status) {
  if (!status) return status;
  job->state = KILN_DRIVER_JOB_FAILED;
  size_t error_count = kiln_ir_context_error_count(job->context);
  if (error_count > 0) {
    kiln_status_free(status);
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "compilation failed (%zu error%s reported)",
                              error_count, error_count == 1 ? "" : "s");
  }
  return status;
}

static kiln_status_t kiln_driver_job_expect(const kiln_compiler_job_t* job,
                                            kiln_driver_job_state_t state,
                                            const char* what) {
  if (job->state == state) return kiln_ok_status();
  return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION, "%s: %s", what,
                          job->state == KILN_DRIVER_JOB_FAILED
                              ? "an earlier stage failed"
                          : job->state < state ? "an earlier stage is missing"
                                               : "already done");
}

kiln_status_t kiln_compiler_job_parse(kiln_compiler_job_t* job,
                                      const char* filename, const char* text,
                                      size_t length) {
  KILN_RETURN_IF_ERROR(
      kiln_driver_job_expect(job, KILN_DRIVER_JOB_CREATED, "parse"));
  // The phase dumps are named after the input (--dump-compilation-phases-to).
  snprintf(job->stem, sizeof(job->stem), "module");
  const char* base = filename ? strrchr(filename, '/') : NULL;
  base = base ? base + 1 : (filename ? filename : "module");
  size_t n = strcspn(base, ".");
  if (n > 0 && n < sizeof(job->stem)) {
    memcpy(job->stem, base, n);
    job->stem[n] = 0;
  }
  kiln_status_t status = kiln_ok_status();
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_PARSE);
#if defined(KILN_HAVE_ONNX)
  if (kiln_onnx_should_import(filename, text, length)) {
    status =
        kiln_onnx_import(job->context, filename, text, length, &job->module);
  } else
#endif
    status = kiln_mlir_parse_source(
        job->context, kiln_make_cstring_view(filename ? filename : "<stdin>"),
        text, length, NULL, &job->module);
  KILN_TRACE_ZONE_END(z0);
  if (!status) status = kiln_ir_verify(job->context, job->module);
  if (!status) job->state = KILN_DRIVER_JOB_PARSED;
  return kiln_driver_job_finish_stage(job, status);
}

kiln_status_t kiln_compiler_job_run(kiln_compiler_job_t* job, int last_phase) {
  KILN_RETURN_IF_ERROR(
      kiln_driver_job_expect(job, KILN_DRIVER_JOB_PARSED, "run the pipeline"));
  if (last_phase < 0 || last_phase > KILN_COMPILER_PHASE_END) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "phase %d out of range", last_phase);
  }
  const kiln_compiler_options_t* options = &job->options;
  kiln_ir_pass_registry_t* registry = NULL;
  kiln_ir_pass_manager_t* pm = NULL;
  kiln_status_t status =
      kiln_ir_pass_registry_create(job->allocator, &registry);
#if defined(KILN_HAVE_PIPELINE)
  if (!status) status = kiln_pipeline_register_passes(registry);
#endif
  FILE* dump = options->dump_stream ? options->dump_stream : stderr;
  kiln_ir_pass_manager_options_t pm_options;
  memset(&pm_options, 0, sizeof(pm_options));
  pm_options.verify_each = true;
  pm_options.print_ir_after_all = options->print_ir_after_all;
  pm_options.print_ir_before = options->print_ir_before;
  pm_options.print_ir_after = options->print_ir_after;
  pm_options.print_options = options->print_options;
  pm_options.timing = options->timing;
  pm_options.print_stream = dump;
  pm_options.timing_stream = dump;
  if (!status) {
    status = kiln_ir_pass_manager_create(job->allocator, &pm_options, &pm);
  }
  job->serialize = (kiln_driver_serialize_t){job->backend, &options->target};
  job->form_options = (kiln_form_dispatch_regions_options_t){
      job->backend->matmuls_alone, job->backend->epilogue_op_ok,
      job->backend->window_pad_ok ? kiln_driver_window_pad_ok : NULL,
      &job->serialize};
  kiln_ir_pass_t form_pass = kiln_form_dispatch_regions_pass;
  form_pass.user_data = &job->form_options;
  job->codegen_options.use_dot_ops = job->backend->vm_dot_ops;
  kiln_ir_pass_t codegen_pass = kiln_vmvx_codegen_pass;
  codegen_pass.user_data = &job->codegen_options;
  kiln_ir_pass_t serialize_pass = kiln_driver_serialize_pass;
  serialize_pass.user_data = &job->serialize;
  job->emission_options.execution_model = options->execution_model;
  job->emission_options.parameter_export = options->parameter_export;
  job->emission_options.parameter_export_minimum_size =
      options->parameter_export_minimum_size;
  job->emission_options.parameter_splat = options->parameter_splat;
  kiln_ir_pass_t emission_pass = kiln_vm_emission_pass;
  emission_pass.user_data = &job->emission_options;
#if defined(KILN_HAVE_PIPELINE)
  job->channels_last.disabled = options->no_conv_channels_last;
  job->channels_last.no_depthwise = options->conv_channels_last_no_depthwise;
#endif
  if (options->dump_compilation_phases_to) {
    mkdir(options->dump_compilation_phases_to, 0777);  // may exist
    for (int k = 0; k < KILN_DRIVER_PHASE_COUNT; ++k) {
      job->dumps[k] =
          (kiln_driver_phase_dump_t){options->dump_compilation_phases_to,
                                     job->stem, k + 1, kiln_driver_phases[k]};
    }
  }
  if (!status) {
    status = kiln_driver_build_pipeline(
        options, last_phase, pm, &form_pass, &codegen_pass, &serialize_pass,
        &emission_pass, options->dump_compilation_phases_to ? job->dumps : NULL,
#if defined(KILN_HAVE_PIPELINE)
        &job->channels_last
#else
        NULL
#endif
    );
  }
  if (!status) status = kiln_ir_pass_manager_run(pm, job->context, job->module);
  kiln_ir_pass_manager_destroy(pm);
  kiln_ir_pass_registry_destroy(registry);
  if (!status) {
    job->state = KILN_DRIVER_JOB_RAN;
    job->last_phase = last_phase;
  }
  return kiln_driver_job_finish_stage(job, status);
}

// The host module's VM assembly as |format| wants it, then assembled for
// OUTPUT_MODULE.
static kiln_status_t kiln_driver_job_emit_vm(
    kiln_compiler_job_t* job, kiln_compiler_output_format_t format,
    kiln_allocator_t allocator, uint8_t** out_bytes, size_t* out_length) {
  const kiln_compiler_options_t* options = &job->options;
  kiln_status_t status = kiln_ok_status();
  size_t asm_length = 0;
  const char* asm_text = kiln_vm_emission_text(job->module, &asm_length);
  char* benchmark_text = NULL;  // owned when the benchmark flags apply
  char* inlined_text = NULL;    // owned: the text with its blobs as hex
  kiln_vm_asm_blob_t* blobs = NULL;
  size_t blob_count = 0;
  if (asm_text) {
    status =
        kiln_vm_emission_blobs(job->module, allocator, &blobs, &blob_count);
  }
  // Text that leaves the process (vm-asm output) or that the benchmark
  // rewrites stands alone: its constants are written out as hex.
  bool standalone = format == KILN_COMPILER_OUTPUT_VM_ASM ||
                    kiln_benchmark_options_active(&options->benchmark);
  if (!status && asm_text && blob_count && standalone) {
    size_t inlined_length = 0;
    status =
        kiln_vm_asm_inline_blobs(asm_text, asm_length, blobs, blob_count,
                                 allocator, &inlined_text, &inlined_length);
    if (!status) {
      asm_text = inlined_text;
      asm_length = inlined_length;
      blob_count = 0;
    }
  }
  if (status) {
    // Reported below.
  } else if (!asm_text) {
    status = kiln_make_status(KILN_STATUS_INTERNAL,
                              "vm-emission produced no assembly");
  } else if (kiln_benchmark_options_active(&options->benchmark)) {
    // Benchmark wrappers, repeated dispatches, dispatch modules.
    kiln_benchmark_options_t benchmark = options->benchmark;
    benchmark.async_external =
        options->execution_model == KILN_EXECUTION_MODEL_ASYNC_EXTERNAL;
    size_t text_length = 0;
    status = kiln_benchmark_apply(&benchmark, job->context, job->module,
                                  asm_text, asm_length, allocator,
                                  &benchmark_text, &text_length);
    if (!status) {
      asm_text = benchmark_text;
      asm_length = text_length;
    }
  }
  if (status || !asm_text) {
    // Reported above.
  } else if (format == KILN_COMPILER_OUTPUT_VM_ASM) {
    status = kiln_driver_copy_out(allocator, asm_text, asm_length, out_bytes,
                                  out_length);
  } else {
    status = kiln_vm_assemble_with_blobs(asm_text, asm_length, "<vm-emission>",
                                         blobs, blob_count, allocator,
                                         out_bytes, out_length);
    if (status) {
      status = kiln_status_annotate_f(
          status,
          "internal error: the generated VM assembly does not "
          "assemble (use --output-format=vm-asm to inspect it)");
    }
  }
  if (benchmark_text) kiln_allocator_free(allocator, benchmark_text);
  if (inlined_text) kiln_allocator_free(allocator, inlined_text);
  if (blobs) kiln_allocator_free(allocator, blobs);
  return status;
}

kiln_status_t kiln_compiler_job_emit(kiln_compiler_job_t* job,
                                     kiln_compiler_output_format_t format,
                                     kiln_allocator_t allocator,
                                     uint8_t** out_bytes, size_t* out_length) {
  *out_bytes = NULL;
  *out_length = 0;
  if (format == KILN_COMPILER_OUTPUT_MLIR) {
    // The IR as it stands: after parsing or after the pipeline.
    if (job->state != KILN_DRIVER_JOB_PARSED) {
      KILN_RETURN_IF_ERROR(
          kiln_driver_job_expect(job, KILN_DRIVER_JOB_RAN, "print the IR"));
    }
    char* printed = NULL;
    kiln_status_t status = kiln_ir_print_op_to_string(
        job->context, job->module, &job->options.print_options, &printed);
    if (!status) {
      status = kiln_driver_copy_out(allocator, printed, strlen(printed),
                                    out_bytes, out_length);
    }
    free(printed);
    return kiln_driver_job_finish_stage(job, status);
  }
  KILN_RETURN_IF_ERROR(
      kiln_driver_job_expect(job, KILN_DRIVER_JOB_RAN, "emit the module"));
  if (job->last_phase != KILN_COMPILER_PHASE_END) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "emit the module: the pipeline stopped after "
                            "'%s' (a module needs the whole pipeline)",
                            kiln_driver_phases[job->last_phase]);
  }
  return kiln_driver_job_finish_stage(
      job,
      kiln_driver_job_emit_vm(job, format, allocator, out_bytes, out_length));
}

static kiln_status_t kiln_compiler_compile_buffer_impl(
    const kiln_compiler_options_t* options, const char* filename,
    const char* text, size_t length, kiln_allocator_t allocator,
    uint8_t** out_bytes, size_t* out_length) {
  *out_bytes = NULL;
  *out_length = 0;
  kiln_compiler_options_t defaults;
  if (!options) {
    kiln_compiler_options_initialize(&defaults);
    options = &defaults;
  }
  kiln_compiler_job_t* job = NULL;
  KILN_RETURN_IF_ERROR(kiln_compiler_job_create(options, allocator, &job));
  kiln_status_t status = kiln_compiler_job_parse(job, filename, text, length);
  if (!status) {
    status =
        kiln_compiler_job_run(job, kiln_compiler_options_last_phase(options));
  }
  if (!status) {
    status = kiln_compiler_job_emit(job, options->output_format, allocator,
                                    out_bytes, out_length);
  }
  kiln_compiler_job_destroy(job);
  return status;
}

kiln_status_t kiln_compiler_compile_buffer(
    const kiln_compiler_options_t* options, const char* filename,
    const char* text, size_t length, kiln_allocator_t allocator,
    uint8_t** out_bytes, size_t* out_length) {
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_COMPILE);
  kiln_status_t status = kiln_compiler_compile_buffer_impl(
      options, filename, text, length, allocator, out_bytes, out_length);
  KILN_TRACE_ZONE_END(z0);
  return status;
}

kiln_status_t kiln_compiler_read_file(const char* path,
                                      kiln_allocator_t allocator,
                                      char** out_text, size_t* out_size) {
  *out_text = NULL;
  *out_size = 0;
  bool is_stdin = strcmp(path, "-") == 0;
  FILE* file = is_stdin ? stdin : fopen(path, "rb");
  if (!file) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND, "cannot open '%s'", path);
  }
  // A regular file is read into one buffer of its size (+1, so that the
  // read loop sees the end without growing): growing by doubling copied a
  // 340 MB model twice over.
  size_t capacity = 1 << 16, size = 0;
  struct stat st;
  if (!is_stdin && fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) &&
      (uint64_t)st.st_size < SIZE_MAX - 1) {
    capacity = (size_t)st.st_size + 1;
  }
  char* text = NULL;
  kiln_status_t status =
      kiln_allocator_malloc(allocator, capacity, (void**)&text);
  while (!status) {
    if (size == capacity) {
      void* grown = text;
      status = kiln_allocator_realloc(allocator, capacity * 2, &grown);
      if (status) break;
      text = (char*)grown;
      capacity *= 2;
    }
    size_t n = fread(text + size, 1, capacity - size, file);
    if (n == 0) break;
    size += n;
  }
  if (!status && ferror(file)) {
    status =
        kiln_make_status(KILN_STATUS_DATA_LOSS, "error reading '%s'", path);
  }
  if (!is_stdin) fclose(file);
  if (status) {
    kiln_allocator_free(allocator, text);
    return status;
  }
  *out_text = text;
  *out_size = size;
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_compile_file(const kiln_compiler_options_t* options,
                                         const char* path,
                                         kiln_allocator_t allocator,
                                         uint8_t** out_bytes,
                                         size_t* out_length) {
  char* text = NULL;
  size_t size = 0;
  KILN_RETURN_IF_ERROR(kiln_compiler_read_file(path, allocator, &text, &size));
  kiln_status_t status = kiln_compiler_compile_buffer(
      options, strcmp(path, "-") == 0 ? "<stdin>" : path, text, size, allocator,
      out_bytes, out_length);
  kiln_allocator_free(allocator, text);
  return status;
}

//===----------------------------------------------------------------------===//
// Command-line flags
//===----------------------------------------------------------------------===//

// True if |arg| is "<name>=<value>"; sets |*value|.
static bool kiln_compiler_flag_value(const char* arg, const char* name,
                                     const char** value) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) == 0 && arg[n] == '=') {
    *value = arg + n + 1;
    return true;
  }
  return false;
}

kiln_status_t kiln_compiler_options_parse_flag(kiln_compiler_options_t* options,
                                               const char* arg,
                                               bool* out_consumed) {
  const char* v = NULL;
  *out_consumed = true;
  if (kiln_compiler_flag_value(arg, "--target-device", &v) ||
      kiln_compiler_flag_value(arg, "--iree-hal-target-device", &v)) {
    // IREE's device-based spelling: `local` plus the local backends below.
    if (strcmp(v, "local") != 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unsupported target device '%s' (supported: "
                              "local)",
                              v);
    }
  } else if (kiln_compiler_flag_value(arg, "--target-backends", &v) ||
             kiln_compiler_flag_value(arg, "--iree-hal-target-backends", &v) ||
             kiln_compiler_flag_value(
                 arg, "--iree-hal-local-target-device-backends", &v)) {
    if (!kiln_target_backend_lookup(v)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unsupported target backend '%s' (supported: "
                              "%s)",
                              v, kiln_target_backend_names());
    }
    options->target_backends = v;
  } else if (kiln_compiler_flag_value(arg, "--iree-opt-level", &v) ||
             kiln_compiler_flag_value(arg, "--opt-level", &v)) {
    if (v[0] != 'O' || v[1] < '0' || v[1] > '3' || v[2]) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unknown optimization level '%s' for "
                              "--iree-opt-level (O0, O1, O2, O3)",
                              v);
    }
    options->target.cpu.opt_level_plus_one = v[1] - '0' + 1;
  } else if (kiln_compiler_flag_value(arg, "--cc", &v)) {
    options->target.cpu.cc = v;
  } else if (kiln_compiler_flag_value(arg, "--iree-llvmcpu-target-cpu", &v) ||
             kiln_compiler_flag_value(arg, "--target-cpu", &v)) {
    options->target.cpu.target_cpu = v;
  } else if (kiln_compiler_flag_value(arg, "--iree-llvmcpu-target-cpu-features",
                                      &v) ||
             kiln_compiler_flag_value(arg, "--target-cpu-features", &v)) {
    options->target.cpu.target_cpu_features = v;
  } else if (kiln_compiler_flag_value(arg, "--kiln-llvmcpu-winograd", &v)) {
    if (strcmp(v, "true") && strcmp(v, "false") && strcmp(v, "always")) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--kiln-llvmcpu-winograd=%s: expected true, "
                              "false or always",
                              v);
    }
    options->target.cpu.disable_winograd = !strcmp(v, "false");
    options->target.cpu.force_winograd = !strcmp(v, "always");
  } else if (kiln_compiler_flag_value(arg, "--kiln-llvmcpu-compile-jobs", &v)) {
    char* end = NULL;
    long jobs = strtol(v, &end, 10);
    if (!v[0] || *end || jobs < 0 || jobs > 64) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--kiln-llvmcpu-compile-jobs=%s: expected a "
                              "number of processes from 0 (one per CPU) to "
                              "64",
                              v);
    }
    options->target.cpu.compile_jobs = (int)jobs;
  } else if (kiln_compiler_flag_value(arg, "--iree-llvmcpu-target-triple",
                                      &v) ||
             kiln_compiler_flag_value(arg, "--target-triple", &v)) {
    options->target.cpu.target_triple = v;
  } else if (kiln_compiler_flag_value(
                 arg, "--iree-hal-dump-executable-sources-to", &v) ||
             kiln_compiler_flag_value(arg, "--dump-executable-sources-to",
                                      &v)) {
    options->target.cpu.dump_sources_to = v;
  } else if (kiln_compiler_flag_value(
                 arg, "--iree-hal-dump-executable-binaries-to", &v) ||
             kiln_compiler_flag_value(arg, "--dump-executable-binaries-to",
                                      &v)) {
    options->target.cpu.dump_binaries_to = v;
  } else if (kiln_compiler_flag_value(arg, "--input-type", &v) ||
             kiln_compiler_flag_value(arg, "--iree-input-type", &v)) {
    if (!strcmp(v, "auto") || !strcmp(v, "none")) {
      options->input_type = KILN_COMPILER_INPUT_AUTO;
    } else if (!strcmp(v, "stablehlo") || !strcmp(v, "mhlo")) {
      options->input_type = KILN_COMPILER_INPUT_STABLEHLO;
    } else if (!strcmp(v, "tosa")) {
      options->input_type = KILN_COMPILER_INPUT_TOSA;
    } else if (!strcmp(v, "linalg")) {
      options->input_type = KILN_COMPILER_INPUT_LINALG;
    } else {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unknown input type '%s' (auto, stablehlo, "
                              "tosa, linalg)",
                              v);
    }
  } else if (kiln_compiler_flag_value(arg, "--execution-model", &v) ||
             kiln_compiler_flag_value(arg, "--iree-execution-model", &v)) {
    if (!strcmp(v, "sync") || !strcmp(v, "host-only")) {
      options->execution_model = KILN_EXECUTION_MODEL_SYNC;
    } else if (!strcmp(v, "async-external")) {
      options->execution_model = KILN_EXECUTION_MODEL_ASYNC_EXTERNAL;
    } else {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unknown execution model '%s' (sync, "
                              "async-external)",
                              v);
    }
  } else if (kiln_compiler_flag_value(arg, "--output-format", &v)) {
    if (!strcmp(v, "module") || !strcmp(v, "vm-bytecode")) {
      options->output_format = KILN_COMPILER_OUTPUT_MODULE;
    } else if (!strcmp(v, "vm-asm")) {
      options->output_format = KILN_COMPILER_OUTPUT_VM_ASM;
    } else if (!strcmp(v, "mlir") || !strcmp(v, "mlir-after-schedule")) {
      options->output_format = KILN_COMPILER_OUTPUT_MLIR;
    } else {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unknown output format '%s' (module, vm-asm, "
                              "mlir)",
                              v);
    }
  } else if (kiln_compiler_flag_value(arg, "--dump-compilation-phases-to",
                                      &v)) {
    options->dump_compilation_phases_to = v;
  } else if (kiln_compiler_flag_value(arg, "--compile-to", &v) ||
             kiln_compiler_flag_value(arg, "--compile-from", &v)) {
    bool to = strncmp(arg, "--compile-to", 12) == 0;
    if (kiln_driver_phase_index(v) < 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unknown phase '%s' for %s (input, "
                              "structured, form-dispatch-regions, "
                              "vmvx-codegen, schedule)",
                              v, to ? "--compile-to" : "--compile-from");
    }
    if (to) {
      options->compile_to = v;
    } else {
      options->compile_from = v;
    }
  } else if (!strcmp(arg, "--mlir-print-ir-after-all")) {
    options->print_ir_after_all = true;
  } else if (kiln_compiler_flag_value(arg, "--mlir-print-ir-before", &v)) {
    options->print_ir_before = v;
  } else if (kiln_compiler_flag_value(arg, "--mlir-print-ir-after", &v)) {
    options->print_ir_after = v;
  } else if (!strcmp(arg, "--allow-unregistered-dialect")) {
    options->allow_unregistered_dialect = true;
  } else if (kiln_compiler_flag_value(arg, "--iree-parameter-export", &v)) {
    const char* path = strchr(v, '=') ? strchr(v, '=') + 1 : v;
    if (!path[0]) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--iree-parameter-export='%s' names no file "
                              "(expected [scope=]path.irpa)",
                              v);
    }
    options->parameter_export = v;
  } else if (kiln_compiler_flag_value(
                 arg, "--iree-parameter-export-minimum-size", &v)) {
    char* end = NULL;
    long long n = strtoll(v, &end, 10);
    if (!v[0] || *end || n < 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--iree-parameter-export-minimum-size='%s' is "
                              "not a non-negative byte count",
                              v);
    }
    options->parameter_export_minimum_size = n;
  } else if (kiln_compiler_flag_value(arg, "--iree-parameter-splat", &v)) {
    if (!v[0]) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--iree-parameter-splat= names no file");
    }
    options->parameter_splat = v;
  } else if (kiln_compiler_flag_value(
                 arg, "--mlir-elide-elementsattrs-if-larger", &v)) {
    char* end = NULL;
    long long n = strtoll(v, &end, 10);
    if (!v[0] || *end || n < 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--mlir-elide-elementsattrs-if-larger='%s' is "
                              "not a non-negative element count",
                              v);
    }
    options->print_options.elide_elements_larger_than = n;
  } else if (!strcmp(arg, "--mlir-print-debuginfo")) {
    options->print_options.print_locations = true;
  } else if (!strcmp(arg, "--mlir-print-op-generic")) {
    options->print_options.generic = true;
  } else if (kiln_compiler_flag_value(arg, "--kiln-conv-channels-last", &v)) {
    bool off = !strcmp(v, "false") || !strcmp(v, "0");
    bool no_dw = !strcmp(v, "no-depthwise");
    if (!off && !no_dw && strcmp(v, "true") && strcmp(v, "1")) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--kiln-conv-channels-last='%s' (true, false, "
                              "no-depthwise)",
                              v);
    }
    options->no_conv_channels_last = off;
    options->conv_channels_last_no_depthwise = no_dw;
  } else if (!strcmp(arg, "--timing") || !strcmp(arg, "--mlir-timing")) {
    options->timing = true;
  } else if (!strcmp(arg,
                     "--iree-flow-dispatch-linalg-on-tensors-enable-fusion") ||
             kiln_compiler_flag_value(
                 arg, "--iree-flow-dispatch-linalg-on-tensors-enable-fusion",
                 &v) ||
             kiln_compiler_flag_value(
                 arg, "--iree-flow-dispatch-linalg-on-tensors-tile-sizes",
                 &v)) {
    // IREE's former dispatch-formation knobs (fuse or not, tile sizes):
    // how IREE split its dispatches, never what they compute. kiln forms
    // and tiles its own dispatches, so the values are checked and unused.
    bool fusion = strstr(arg, "enable-fusion") != NULL;
    bool ok = true;
    if (fusion) {
      ok = !v || !strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "1") ||
           !strcmp(v, "0");
    } else {
      for (const char* c = v; ok && *c; ++c) {
        ok = (*c >= '0' && *c <= '9') || *c == ',';
      }
    }
    if (!ok) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT, "'%s': expected %s", arg,
          fusion ? "true or false" : "comma-separated tile sizes");
    }
  } else {
    return kiln_benchmark_options_parse_flag(&options->benchmark, arg,
                                             out_consumed);
  }
  return kiln_ok_status();
}
