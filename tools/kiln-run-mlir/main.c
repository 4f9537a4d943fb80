// kiln-run-mlir: compiles an MLIR file in memory and runs one of its
// functions, as iree-run-mlir does. Takes kiln-run-module's flags; compiler
// flags are passed as --Xcompiler,flag=value (e.g.
// --Xcompiler,iree-hal-target-backends=vmvx).
#include <stdio.h>
#include <string.h>

#include "compiler/driver/driver.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/trace_output.h"
#include "tools/common/run_context.h"

KILN_FLAG(string, function, "",
          "Name of the function to run. May be omitted when the program "
          "exports exactly one function.");
KILN_FLAG(bool, print_statistics, false,
          "Prints the device allocator statistics on exit.");
KILN_FLAG_FORWARD_LIST(Xcompiler,
                       "Compiler flag, e.g. "
                       "--Xcompiler,iree-hal-target-backends=vmvx or "
                       "--Xcompiler,execution-model=sync.");

// Compiles |path| with the --Xcompiler flags into a module image.
static kiln_status_t kiln_run_mlir_compile(const char* path, uint8_t** bytes,
                                           size_t* length) {
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  for (size_t i = 0; i < kiln_flag_Xcompiler.count; ++i) {
    bool consumed = false;
    KILN_RETURN_IF_ERROR(kiln_compiler_options_parse_flag(
        &options, kiln_flag_Xcompiler.values[i], &consumed));
    if (!consumed) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unknown compiler flag '%s' (from --Xcompiler)",
                              kiln_flag_Xcompiler.values[i]);
    }
  }
  options.output_format = KILN_COMPILER_OUTPUT_MODULE;
  return kiln_compiler_compile_file(&options, path, kiln_allocator_system(),
                                    bytes, length);
}

int main(int argc, char** argv) {
  bool done = false;
  kiln_status_t status = kiln_flags_parse_command_line(
      "kiln-run-mlir",
      "Compiles an MLIR program in memory and runs one of its functions.\n"
      "Usage: kiln-run-mlir program.mlir [--function=NAME] "
      "[--device=local-task] [--input=...] [--Xcompiler,flag=value]\n",
      1, "one MLIR file to run", &argc, &argv, &done);
  if (!status && !done)
    status = kiln_tooling_trace_start_from_flags("kiln-run-mlir");
  uint8_t* bytes = NULL;
  size_t length = 0;
  if (!status && !done)
    status = kiln_run_mlir_compile(argv[1], &bytes, &length);
  kiln_tools_run_context_t context = {0};
  if (!status && !done) {
    status = kiln_tools_run_context_initialize_from_memory(
        kiln_allocator_system(), bytes, length, &context);
  }
  kiln_allocator_free(kiln_allocator_system(), bytes);
  int exit_code = 0;
  if (!status && !done) {
    status = kiln_tools_run_context_run_named(
        &context, kiln_flag_function, kiln_flag_print_statistics, &exit_code);
  }
  fflush(stdout);
  kiln_tools_run_context_deinitialize(&context);
  // After the device is gone: its worker threads have finished their zones.
  kiln_status_t trace_status = kiln_tooling_trace_finish();
  if (!status) {
    status = trace_status;
  } else {
    kiln_status_free(trace_status);
  }
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  return exit_code;
}
