// compiler-embedding-sample: compiles an MLIR file into a .kmod with the
// embedding compiler API (compiler/api/compiler_api.h), as an application
// that carries the compiler would.
//
//   compiler-embedding-sample INPUT.mlir OUTPUT.kmod [kiln-compile flags...]
//
// Diagnostics arrive through a callback, one line each.
#include <stdio.h>

#include "compiler/api/compiler_api.h"

static const char* severity_name(kiln_compiler_diagnostic_severity_t s) {
  switch (s) {
    case KILN_COMPILER_DIAGNOSTIC_ERROR:
      return "error";
    case KILN_COMPILER_DIAGNOSTIC_WARNING:
      return "warning";
    case KILN_COMPILER_DIAGNOSTIC_NOTE:
      return "note";
    default:
      return "remark";
  }
}

static void print_diagnostic(void* user_data,
                             const kiln_compiler_diagnostic_t* d) {
  fprintf((FILE*)user_data, "diagnostic: %s:%u:%u: %s: %s\n", d->file, d->line,
          d->column, severity_name(d->severity), d->message);
}

// Compiles |input| into |output| with |session|'s flags.
static kiln_status_t compile(kiln_compiler_session_t* session,
                             const char* input, const char* output) {
  kiln_compiler_source_t* source = NULL;
  kiln_compiler_invocation_t* invocation = NULL;
  kiln_compiler_output_t* file = NULL;
  kiln_status_t status =
      kiln_compiler_source_open_file(session, input, &source);
  if (!status) status = kiln_compiler_invocation_create(session, &invocation);
  if (!status) {
    kiln_compiler_invocation_set_diagnostic_callback(invocation,
                                                     print_diagnostic, stdout);
    status = kiln_compiler_invocation_parse_source(invocation, source);
  }
  if (!status) status = kiln_compiler_invocation_run_pipeline(invocation);
  if (!status) status = kiln_compiler_output_open_file(output, &file);
  if (!status) status = kiln_compiler_invocation_output(invocation, file);
  if (!status) status = kiln_compiler_output_close(file);
  kiln_compiler_output_destroy(file);
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  return status;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s INPUT.mlir OUTPUT.kmod [flags...]\n", argv[0]);
    return 2;
  }
  kiln_status_t status = kiln_compiler_global_initialize();
  kiln_compiler_session_t* session = NULL;
  if (!status) {
    status = kiln_compiler_session_create(kiln_allocator_system(), &session);
  }
  if (!status) {
    status = kiln_compiler_session_set_flags(session, argc - 3,
                                             (const char* const*)argv + 3);
  }
  if (!status) status = compile(session, argv[1], argv[2]);
  kiln_compiler_session_destroy(session);
  kiln_compiler_global_shutdown();
  if (status) return kiln_status_report_and_exit_code(status);
  printf("compiled %s into %s\n", argv[1], argv[2]);
  return 0;
}
