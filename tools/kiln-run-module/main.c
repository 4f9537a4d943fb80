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

static kiln_status_t kiln_run_module_pick_function(
    kiln_tools_run_context_t* context, kiln_vm_function_t* out_function) {
  if (kiln_flag_function && kiln_flag_function[0]) {
    return kiln_tools_run_context_lookup(context, kiln_flag_function,
                                         out_function);
  }
  kiln_vm_module_t* module = context->user_module;
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  if (count == 1) {
    return kiln_vm_module_function_at(module, KILN_VM_FUNCTION_LINKAGE_EXPORT,
                                      0, out_function);
  }
  // Let the lookup error list the exports.
  kiln_status_t status =
      kiln_tools_run_context_lookup(context, "", out_function);
  return kiln_status_annotate_f(status, "pass --function=NAME to choose one");
}

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
    status = kiln_run_module_pick_function(&context, &function);
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
