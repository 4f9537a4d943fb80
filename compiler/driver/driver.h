// kiln_compiler_driver: the whole compiler as one in-process call.
//
//   MLIR text -> parse -> default pipeline (lower-to-structured, canonicalize,
//   cse, const-eval, dce) -> form-dispatch-regions -> vmvx-codegen ->
//   schedule -> vm-emission -> VM assembly -> kiln_vm_assemble -> .kmod bytes
//
// Used by kiln-compile and, in-process, by kiln-run-mlir. Never linked into
// a runtime library.
#ifndef KILN_COMPILER_DRIVER_DRIVER_H_
#define KILN_COMPILER_DRIVER_DRIVER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/codegen/benchmark/benchmark.h"
#include "compiler/codegen/vm/vm_emission.h"
#include "compiler/ir/pass.h"
#include "compiler/targets/target_backend.h"
#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kiln_compiler_input_type_e {
  KILN_COMPILER_INPUT_AUTO = 0,
  KILN_COMPILER_INPUT_STABLEHLO = 1,
  KILN_COMPILER_INPUT_TOSA = 2,
  KILN_COMPILER_INPUT_LINALG = 3,
} kiln_compiler_input_type_t;

typedef enum kiln_compiler_output_format_e {
  KILN_COMPILER_OUTPUT_MODULE = 0,  // .kmod bytes
  KILN_COMPILER_OUTPUT_VM_ASM = 1,  // the host module's VM assembly text
  KILN_COMPILER_OUTPUT_MLIR = 2,    // MLIR text after |compile_to|
} kiln_compiler_output_format_t;

typedef struct kiln_compiler_options_t {
  kiln_compiler_input_type_t input_type;
  kiln_execution_model_t execution_model;
  // The target backend's name (compiler/targets/registry.c: "vmvx",
  // "llvm-cpu" or an alias); NULL: the host default
  // (kiln_target_backend_default: llvm-cpu where a C compiler is found,
  // else vmvx).
  const char* target_backends;
  // Options of the backends (--iree-llvmcpu-*, --cc, dump directories).
  kiln_target_options_t target;
  kiln_compiler_output_format_t output_format;
  // With OUTPUT_MLIR: the last pass to run ("input", "structured",
  // "form-dispatch-regions", "vmvx-codegen", "schedule"); NULL: schedule.
  const char* compile_to;
  // --compile-from=PHASE: the input is the IR a phase wrote (a --compile-to
  // or --dump-compilation-phases-to dump); the passes before it are skipped.
  // NULL: "input".
  const char* compile_from;
  bool print_ir_after_all;  // IR after each pass to |dump_stream|
  // --mlir-print-ir-before= / --mlir-print-ir-after=: comma-separated pass
  // names (kiln-compile --timing lists them); NULL: none.
  const char* print_ir_before;
  const char* print_ir_after;
  // --mlir-print-debuginfo (locations) and --mlir-print-op-generic, for
  // MLIR output and IR dumps.
  kiln_ir_print_options_t print_options;
  // --dump-compilation-phases-to=DIR: the IR after each phase as
  // DIR/<input stem>.<n>.<phase>.mlir (NULL: none).
  const char* dump_compilation_phases_to;
  // --allow-unregistered-dialect: parse ops kiln does not know (generic
  // form); a pass that meets one still fails, naming it.
  bool allow_unregistered_dialect;
  bool timing;        // per-pass timing table to |dump_stream|
  FILE* dump_stream;  // NULL: stderr
  // Where diagnostics ("file:line:col: error: ...") are printed; NULL:
  // stderr.
  FILE* diagnostic_stream;
  // --export-benchmark-funcs, --dump-executable-benchmarks-to,
  // --benchmark-dispatch-repeat-count (compiler/codegen/benchmark).
  kiln_benchmark_options_t benchmark;
  // --iree-parameter-export=[scope=]file.irpa,
  // --iree-parameter-export-minimum-size=N, --iree-parameter-splat=file.irpa
  // (kiln_vm_emission_options_t says what they do). NULL: off.
  const char* parameter_export;
  int64_t parameter_export_minimum_size;
  const char* parameter_splat;
  // --kiln-conv-channels-last=false|no-depthwise: skip the pass that runs
  // NCHW convolutions channels-last, or keep depthwise ones in NCHW.
  bool no_conv_channels_last;
  bool conv_channels_last_no_depthwise;
} kiln_compiler_options_t;

// Defaults: auto input, sync, vmvx, module output.
void kiln_compiler_options_initialize(kiln_compiler_options_t* options);

// Applies one command-line flag ("--target-backends=vmvx", IREE's aliases
// such as "--iree-hal-target-backends=vmvx", "--timing", ...) to |options|.
// Sets |*out_consumed| to false (and returns OK) for flags that are not
// compiler options, so that tools can handle their own flags; a compiler
// flag with a bad value is INVALID_ARGUMENT naming the flag and the choices.
// Shared by kiln-compile and kiln-run-mlir (--Xcompiler,flag=value).
kiln_status_t kiln_compiler_options_parse_flag(kiln_compiler_options_t* options,
                                               const char* arg,
                                               bool* out_consumed);

// Compiles |length| bytes of MLIR |text| named |filename|. On success
// |*out_bytes| (from |allocator|; free with kiln_allocator_free) holds the
// module image, VM assembly or MLIR text per |output_format|. Errors are
// printed as diagnostics and returned as a status.
kiln_status_t kiln_compiler_compile_buffer(
    const kiln_compiler_options_t* options, const char* filename,
    const char* text, size_t length, kiln_allocator_t allocator,
    uint8_t** out_bytes, size_t* out_length);

// The phases a compilation runs through, in order: "input", "structured",
// "form-dispatch-regions", "vmvx-codegen", "schedule" (--compile-to), then
// "end" (serialize and vm-emission: what a module or VM assembly needs).
#define KILN_COMPILER_PHASE_END 5
// The index of a phase name (0 for "input" .. KILN_COMPILER_PHASE_END for
// "end"), or -1 when unknown.
int kiln_compiler_phase_lookup(const char* phase);
// The phase kiln-compile stops after for |options|: --compile-to (default
// "schedule") for MLIR output, else the end.
int kiln_compiler_options_last_phase(const kiln_compiler_options_t* options);

// One compilation in stages: parse, run the pipeline to a phase, emit. The
// embedding API (compiler/api) runs one job per invocation;
// kiln_compiler_compile_buffer runs all three stages. A job holds its own IR
// context and touches no mutable global state, so jobs on different
// threads run concurrently; one job is used by one thread at a time.
typedef struct kiln_compiler_job_t kiln_compiler_job_t;

// Copies |*options| (NULL: defaults); the strings it points at must outlive
// the job. UNIMPLEMENTED for an unknown target backend.
kiln_status_t kiln_compiler_job_create(const kiln_compiler_options_t* options,
                                       kiln_allocator_t allocator,
                                       kiln_compiler_job_t** out_job);
void kiln_compiler_job_destroy(kiln_compiler_job_t* job);
// Diagnostics go to |handler| (called on the thread running the stage)
// instead of being printed to the options' diagnostic stream; NULL restores
// printing.
void kiln_compiler_job_set_diagnostic_handler(
    kiln_compiler_job_t* job, kiln_ir_diagnostic_handler_t handler,
    void* user_data);
// Replaces the options' diagnostic and dump streams (NULL: stderr).
void kiln_compiler_job_set_streams(kiln_compiler_job_t* job,
                                   FILE* diagnostic_stream, FILE* dump_stream);
// Parses and verifies |length| bytes of MLIR (or ONNX) |text| named
// |filename|; the text is not kept.
kiln_status_t kiln_compiler_job_parse(kiln_compiler_job_t* job,
                                      const char* filename, const char* text,
                                      size_t length);
// Runs the passes from --compile-from up to |last_phase| (see
// kiln_compiler_phase_lookup) on the parsed module.
kiln_status_t kiln_compiler_job_run(kiln_compiler_job_t* job, int last_phase);
// Writes the result as |format| into |*out_bytes| (from |allocator|, one
// NUL past |*out_length|; free with kiln_allocator_free). MLIR is the IR as
// it stands (after parse or run); a module or VM assembly needs the run to
// have reached the end. May be called more than once.
kiln_status_t kiln_compiler_job_emit(kiln_compiler_job_t* job,
                                     kiln_compiler_output_format_t format,
                                     kiln_allocator_t allocator,
                                     uint8_t** out_bytes, size_t* out_length);
// A stage that fails leaves the job failed (later stages are
// FAILED_PRECONDITION); when diagnostics were reported its status is
// "compilation failed (N errors reported)".

// Reads all of |path| ("-" is stdin) into |*out_text| (owned by the caller,
// released with |allocator|); NOT_FOUND when it cannot be opened.
kiln_status_t kiln_compiler_read_file(const char* path,
                                      kiln_allocator_t allocator,
                                      char** out_text, size_t* out_size);

// Reads |path| ("-" is stdin) and compiles it.
kiln_status_t kiln_compiler_compile_file(const kiln_compiler_options_t* options,
                                         const char* path,
                                         kiln_allocator_t allocator,
                                         uint8_t** out_bytes,
                                         size_t* out_length);

// Registers the backend ops (kiln.dispatch.*, hal.executable) into a
// context and the backend passes (form-dispatch-regions, vmvx-codegen,
// schedule, vm-emission) into a registry (for kiln-opt).
kiln_status_t kiln_backend_register_ops(kiln_ir_context_t* context);
kiln_status_t kiln_backend_register_passes(kiln_ir_pass_registry_t* registry);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DRIVER_DRIVER_H_
