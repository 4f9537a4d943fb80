// kiln-run-module: runs one exported function of a compiled module, as
// iree-run-module does: inputs from --input, results printed, written with
// --output or checked with --expected_output.
#include <stdio.h>
#include <string.h>

#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/trace_output.h"
#include "tools/common/run_context.h"

KILN_FLAG(string, function, "",
          "Name of the exported function to run. May be omitted when the "
          "module exports exactly one function.");
KILN_FLAG(bool, print_statistics, false,
          "Prints the device allocator statistics (live and peak bytes, "
          "allocation and free counts) on exit.");

int main(int argc, char** argv) {
  bool done = false;
  kiln_status_t status = kiln_flags_parse_command_line(
      "kiln-run-module",
      "Runs a function of a compiled kiln module.\n"
      "Usage: kiln-run-module --module=file.kmod --function=NAME "
      "[--device=local-task] [--input=2x2xf32=1 2 3 4 ...]\n",
      0, "the module is given with --module=FILE", &argc, &argv, &done);
  if (!status && !done)
    status = kiln_tooling_trace_start_from_flags("kiln-run-module");
  if (!status && !done && kiln_tooling_print_device_info_from_flags(stdout)) {
    done = true;
  }
  kiln_tools_run_context_t context = {0};
  if (!status && !done) {
    status = kiln_tools_run_context_initialize_from_flags(
        kiln_allocator_system(), &context);
  }
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
