// kiln-run-module: runs one exported function of a compiled module, as
// iree-run-module does: inputs from --input, results printed, written with
// --output or checked with --expected_output.
#include <stdio.h>
#include <string.h>

#include "runtime/tooling/flags.h"
#include "tools/common/run_context.h"

KILN_FLAG(string, function, "",
          "Name of the exported function to run. May be omitted when the "
          "module exports exactly one function.");
KILN_FLAG(bool, print_statistics, false,
          "Prints the device allocator statistics (live and peak bytes, "
          "allocation and free counts) on exit.");

int main(int argc, char** argv) {
  kiln_flags_set_usage(
      "kiln-run-module",
      "Runs a function of a compiled kiln module.\n"
      "Usage: kiln-run-module --module=file.kmod --function=NAME "
      "[--device=local-task] [--input=2x2xf32=1 2 3 4 ...]\n");
  bool help = false;
  kiln_status_t status = kiln_flags_parse(&argc, &argv, &help);
  if (!status && help) {
    kiln_flags_reset();
    return 0;
  }
  if (!status && argc > 1) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unexpected argument '%s'; the module is given "
                              "with --module=",
                              argv[1]);
  }
  kiln_tools_run_context_t context = {0};
  if (!status) {
    status = kiln_tools_run_context_initialize_from_flags(
        kiln_allocator_system(), &context);
  }
  int exit_code = 0;
  if (!status) {
    kiln_vm_function_t function;
    status = kiln_tools_run_context_pick_function(&context, kiln_flag_function,
                                                  &function);
    if (!status) {
      status = kiln_tools_run_function(&context, function, stdout, &exit_code);
    }
  }
  if (!status && kiln_flag_print_statistics) {
    kiln_tools_run_context_print_statistics(&context, stderr);
  }
  fflush(stdout);
  kiln_tools_run_context_deinitialize(&context);
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  return exit_code;
}
