// kiln-run-mlir: compiles an MLIR file in memory and runs one of its
// functions, as iree-run-mlir does. Takes kiln-run-module's flags; compiler
// flags are passed as --Xcompiler,flag=value (e.g.
// --Xcompiler,iree-hal-target-backends=vmvx), after a `--`, or as they are
// (--iree-hal-target-backends=vmvx: any flag of kiln-compile's that is not
// a runtime flag); runtime flags may also be written --Xruntime,flag=value
// (IREE's command-line forms).
#include <stdio.h>
#include <string.h>

#include "compiler/api/compiler_api.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/trace_output.h"
#include "tools/common/run_context.h"

KILN_FLAG(string, function, "",
          "Name of the function to run. Without it every exported function "
          "runs, in order, with the same inputs (as iree-run-mlir).");
KILN_FLAG(bool, print_statistics, false,
          "Prints the device allocator statistics on exit.");
KILN_FLAG_FORWARD_LIST(Xcompiler,
                       "Compiler flag, e.g. "
                       "--Xcompiler,iree-hal-target-backends=vmvx or "
                       "--Xcompiler,execution-model=sync.");

// Compiles |path| with the --Xcompiler flags into |module| (memory), with
// the embedding API.
static kiln_status_t kiln_run_mlir_compile(const char* path,
                                           kiln_compiler_output_t* module) {
  kiln_compiler_session_t* session = NULL;
  kiln_compiler_source_t* source = NULL;
  kiln_compiler_invocation_t* invocation = NULL;
  kiln_status_t status =
      kiln_compiler_session_create(kiln_allocator_system(), &session);
  for (size_t i = 0; !status && i < kiln_flag_Xcompiler.count; ++i) {
    const char* flag = kiln_flag_Xcompiler.values[i];
    status = kiln_compiler_session_set_flags(session, 1, &flag);
    if (status && kiln_status_code(status) == KILN_STATUS_NOT_FOUND) {
      kiln_status_free(status);
      status = kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "unknown compiler flag '%s' (given with --Xcompiler or after --)",
          flag);
    }
  }
  if (!status) status = kiln_compiler_source_open_file(session, path, &source);
  if (!status) status = kiln_compiler_invocation_create(session, &invocation);
  // A module to run, whatever --compile-to or --output-format say.
  if (!status) {
    status = kiln_compiler_invocation_set_compile_to_phase(invocation, "end");
  }
  if (!status) {
    status = kiln_compiler_invocation_parse_source(invocation, source);
  }
  if (!status) status = kiln_compiler_invocation_run_pipeline(invocation);
  if (!status) {
    status = kiln_compiler_invocation_output_module(invocation, module);
  }
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  kiln_compiler_session_destroy(session);
  return status;
}

// True for "--name[=value]" when `name` is no runtime flag but one of
// kiln-compile's: iree-run-mlir takes the compiler's flags beside its own
// (IREE's RUN lines write `iree-run-mlir --iree-input-type=stablehlo ...`).
// A name both know stays the runtime's.
static bool kiln_run_mlir_is_bare_compiler_flag(const char* arg) {
  if (strncmp(arg, "--", 2) != 0) return false;
  size_t length = strcspn(arg + 2, "=");
  char name[128];
  if (length == 0 || length >= sizeof(name)) return false;
  memcpy(name, arg + 2, length);
  name[length] = 0;
  return !kiln_flag_lookup(name) && kiln_compiler_is_compiler_flag(arg);
}

// Rewrites IREE's routing forms into the flags kiln's parser knows, in a new
// argv (|out_argv|, NULL-terminated; entries that are not argv's own are in
// |out_owned|, released by kiln_run_mlir_release_args):
//   --Xruntime,flag=v  -> --flag=v      --Xruntime ARG   -> ARG
//   --Xcompiler ARG    -> --Xcompiler,ARG (without its leading dashes)
//   -- then --flag=v   -> --Xcompiler,flag=v (everything after `--` that is a
//                         flag goes to the compiler; other words stay
//                         positional, e.g. the program's file name)
//   --flag=v           -> --Xcompiler,flag=v when the compiler knows `flag`
//                         and the runtime does not
//   --function-input=v -> --input=v (iree-run-mlir's former name)
static kiln_status_t kiln_run_mlir_route_args(int argc, char** argv,
                                              char*** out_argv,
                                              char*** out_owned) {
  kiln_allocator_t allocator = kiln_allocator_system();
  char** routed = NULL;
  char** owned = NULL;
  size_t bytes = sizeof(char*) * ((size_t)argc + 1);
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(allocator, bytes, (void**)&routed));
  kiln_status_t status =
      kiln_allocator_malloc(allocator, bytes, (void**)&owned);
  if (status) {
    kiln_allocator_free(allocator, routed);
    return status;
  }
  memset(owned, 0, bytes);
  int count = 0, owned_count = 0;
  bool to_compiler = false;
  for (int i = 0; i < argc && !status; ++i) {
    const char* arg = argv[i];
    const char* compiler_flag = NULL;  // a flag to forward, without dashes
    if (i == 0) {
      routed[count++] = argv[i];
    } else if (strcmp(arg, "--") == 0 && !to_compiler) {
      to_compiler = true;
    } else if (strncmp(arg, "--Xruntime,", 11) == 0 ||
               strncmp(arg, "-Xruntime,", 10) == 0) {
      // Points into argv: "--Xruntime,device=x" -> "--device=x" by writing
      // the dashes over the prefix's tail.
      char* rest = strchr(argv[i], ',') + 1;
      rest[-1] = '-';
      rest[-2] = '-';
      routed[count++] = rest - 2;
    } else if (strncmp(arg, "--function-input=", 17) == 0 ||
               strncmp(arg, "--function_input=", 17) == 0) {
      // iree-run-mlir's former name of --input, as IREE's older RUN lines
      // spell it: "--function-input=v" -> "--input=v", in place.
      char* rest = argv[i] + 11;
      rest[-1] = '-';
      rest[-2] = '-';
      routed[count++] = rest - 2;
    } else if ((strcmp(arg, "--Xruntime") == 0 ||
                strcmp(arg, "-Xruntime") == 0) &&
               i + 1 < argc) {
      routed[count++] = argv[++i];
    } else if ((strcmp(arg, "--Xcompiler") == 0 ||
                strcmp(arg, "-Xcompiler") == 0) &&
               i + 1 < argc) {
      compiler_flag = argv[++i];
    } else if ((to_compiler && arg[0] == '-') ||
               kiln_run_mlir_is_bare_compiler_flag(arg)) {
      compiler_flag = arg;
    } else {
      routed[count++] = argv[i];
    }
    if (compiler_flag) {
      while (*compiler_flag == '-') ++compiler_flag;
      size_t length = strlen(compiler_flag);
      char* flag = NULL;
      status = kiln_allocator_malloc(allocator, length + sizeof("--Xcompiler,"),
                                     (void**)&flag);
      if (!status) {
        memcpy(flag, "--Xcompiler,", 12);
        memcpy(flag + 12, compiler_flag, length + 1);
        owned[owned_count++] = flag;
        routed[count++] = flag;
      }
    }
  }
  routed[count] = NULL;
  *out_argv = routed;
  *out_owned = owned;
  return status;
}

static void kiln_run_mlir_release_args(char** routed, char** owned) {
  kiln_allocator_t allocator = kiln_allocator_system();
  for (size_t i = 0; owned && owned[i]; ++i)
    kiln_allocator_free(allocator, owned[i]);
  kiln_allocator_free(allocator, owned);
  kiln_allocator_free(allocator, routed);
}

int main(int argc, char** argv) {
  bool done = false;
  char** routed_argv = NULL;
  char** owned_args = NULL;
  kiln_status_t status =
      kiln_run_mlir_route_args(argc, argv, &routed_argv, &owned_args);
  if (!status) {
    argv = routed_argv;
    argc = 0;
    while (routed_argv[argc]) ++argc;
  }
  if (!status)
    status = kiln_flags_parse_command_line(
        "kiln-run-mlir",
        "Compiles an MLIR program in memory and runs one of its functions.\n"
        "Usage: kiln-run-mlir program.mlir [--function=NAME] "
        "[--device=local-task] [--input=...] [--Xcompiler,flag=value] "
        "[-- compiler flags...]\n"
        "Runtime flags may be written --Xruntime,flag=value, compiler flags "
        "--Xcompiler,flag=value, after --, or as they are (a kiln-compile "
        "flag that is no runtime flag goes to the compiler).\n",
        1, "one MLIR file to run", &argc, &argv, &done);
  if (!status && !done)
    status = kiln_tooling_trace_start_from_flags("kiln-run-mlir");
  kiln_compiler_output_t* module = NULL;
  bool compiler_initialized = false;
  if (!status && !done) {
    status = kiln_compiler_global_initialize();
    compiler_initialized = !status;
  }
  if (!status && !done) {
    status = kiln_compiler_output_open_memory(kiln_allocator_system(), &module);
  }
  if (!status && !done) status = kiln_run_mlir_compile(argv[1], module);
  kiln_tools_run_context_t context = {0};
  if (!status && !done) {
    const void* bytes = NULL;
    size_t length = 0;
    status = kiln_compiler_output_map_memory(module, &bytes, &length);
    if (!status) {
      status = kiln_tools_run_context_initialize_from_memory(
          kiln_allocator_system(), (const uint8_t*)bytes, length, &context);
    }
  }
  kiln_compiler_output_destroy(module);
  if (compiler_initialized) kiln_compiler_global_shutdown();
  int exit_code = 0;
  if (!status && !done) {
    status = kiln_flag_function[0]
                 ? kiln_tools_run_context_run_named(
                       &context, kiln_flag_function, kiln_flag_print_statistics,
                       &exit_code)
                 : kiln_tools_run_context_run_all(
                       &context, kiln_flag_print_statistics, &exit_code);
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
  kiln_run_mlir_release_args(routed_argv, owned_args);
  if (status) return kiln_status_report_and_exit_code(status);
  return exit_code;
}
