// kiln-check-module: runs every exported function of a check-test module
// as a test (IREE's iree-check-module), printing gtest-style lines and a
// summary; exits non-zero if any test failed.
#include <stdio.h>
#include <string.h>

#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/trace_output.h"
#include "tools/common/run_context.h"

// True for exports that are not tests: internal helpers ("__init") and
// benchmark wrappers take no part.
static bool kiln_check_module_is_test(kiln_string_view_t name,
                                      kiln_string_view_t signature) {
  if (kiln_string_view_starts_with(name, kiln_make_cstring_view("__"))) {
    return false;
  }
  // A test takes no arguments; anything else cannot be run without inputs.
  return kiln_string_view_starts_with(signature, kiln_make_cstring_view("->"));
}

static kiln_status_t kiln_check_module_run(kiln_tools_run_context_t* context,
                                           int* out_failed) {
  kiln_vm_module_t* module = context->user_module;
  kiln_string_view_t module_name = kiln_vm_module_name(module);
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  int ran = 0, failed = 0;
  char failed_names[4096];
  size_t failed_used = 0;
  failed_names[0] = 0;
  printf("[==========] Running tests from module '%.*s'.\n",
         KILN_SV_ARG(module_name));
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, (uint32_t)i, &function));
    kiln_string_view_t name = kiln_vm_function_name(&function);
    if (!kiln_check_module_is_test(name,
                                   kiln_vm_function_signature(&function))) {
      continue;
    }
    ++ran;
    printf("[ RUN      ] %.*s.%.*s\n", KILN_SV_ARG(module_name),
           KILN_SV_ARG(name));
    fflush(stdout);
    kiln_vm_value_t results[8];
    kiln_vm_signature_t signature;
    KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(
        kiln_vm_function_signature(&function), &signature));
    size_t result_count = signature.results.size;
    kiln_vm_invoke_options_t options = {0};
    options.deadline_ns = kiln_tools_function_deadline_ns();
    kiln_status_t status =
        result_count <= 8 ? kiln_vm_invoke(context->context, function, NULL, 0,
                                           results, result_count, &options)
                          : kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                                             "tests return at most 8 values");
    if (!status) kiln_vm_values_release(results, result_count);
    if (status) {
      ++failed;
      printf("%s\n", kiln_status_message(status));
      printf("[  FAILED  ] %.*s.%.*s\n", KILN_SV_ARG(module_name),
             KILN_SV_ARG(name));
      failed_used +=
          (size_t)snprintf(failed_names + failed_used,
                           failed_used < sizeof(failed_names)
                               ? sizeof(failed_names) - failed_used
                               : 0,
                           "[  FAILED  ] %.*s.%.*s\n", KILN_SV_ARG(module_name),
                           KILN_SV_ARG(name));
      if (failed_used >= sizeof(failed_names))
        failed_used = sizeof(failed_names);
      kiln_status_free(status);
    } else {
      printf("[       OK ] %.*s.%.*s\n", KILN_SV_ARG(module_name),
             KILN_SV_ARG(name));
    }
    fflush(stdout);
  }
  if (ran == 0) {
    // As iree-check-module (gtest with no tests): said once, not a failure.
    printf(
        "[==========] 0 tests ran: module '%.*s' exports no test "
        "functions (no-argument functions not starting with '__').\n",
        KILN_SV_ARG(module_name));
    *out_failed = 0;
    return kiln_ok_status();
  }
  printf("[==========] %d tests ran.\n", ran);
  printf("[  PASSED  ] %d tests.\n", ran - failed);
  if (failed) {
    printf("[  FAILED  ] %d tests, listed below:\n%s", failed, failed_names);
  }
  *out_failed = failed;
  return kiln_ok_status();
}

int main(int argc, char** argv) {
  bool done = false;
  kiln_status_t status = kiln_flags_parse_command_line(
      "kiln-check-module",
      "Runs every exported no-argument function of a module as a test.\n"
      "Usage: kiln-check-module --module=test.kmod [--device=local-task]\n",
      0, "the module is given with --module=FILE", &argc, &argv, &done);
  if (!status && !done)
    status = kiln_tooling_trace_start_from_flags("kiln-check-module");
  if (!status && !done && kiln_tooling_print_device_info_from_flags(stdout)) {
    done = true;
  }
  kiln_tools_run_context_t context = {0};
  if (!status && !done) {
    status = kiln_tools_run_context_initialize_from_flags(
        kiln_allocator_system(), &context);
  }
  int failed = 0;
  if (!status && !done) status = kiln_check_module_run(&context, &failed);
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
  return failed ? 1 : 0;
}
