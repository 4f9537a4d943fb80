// kiln-compile: MLIR (StableHLO / linalg) -> .kmod module, like
// iree-compile. A thin main over the embedding API (compiler/api).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/api/compiler_api.h"
#include "runtime/tooling/trace_output.h"

static void print_help(void) {
  printf(
      "OVERVIEW: kiln compiler: MLIR -> kiln module (.kmod)\n\n"
      "USAGE: kiln-compile [options] <input.mlir | ->\n\n"
      "OPTIONS:\n"
      "  -o <file>                        Output file ('-' = stdout; "
      "default: stdout)\n"
      "  --target-backends=llvm-cpu|vmvx  Executable target (aliases "
      "--iree-hal-target-backends,\n"
      "                                   "
      "--iree-hal-local-target-device-backends); default: llvm-cpu\n"
      "                                   for the host where a C compiler "
      "is found, else vmvx\n"
      "  --cc=PATH                        llvm-cpu: the C compiler (default "
      "$CC, else cc)\n"
      "  --iree-opt-level=O0|O1|O2|O3     llvm-cpu: the C compiler's -O level "
      "(default O3; results\n"
      "                                   are the same at every level, O0 "
      "compiles fastest)\n"
      "  --iree-llvmcpu-target-cpu=host|generic|x86-64-v2|x86-64-v3|"
      "x86-64-v4|<cpu>[,...]\n"
      "                                   llvm-cpu: ISA variants, best "
      "first (default host)\n"
      "  --iree-llvmcpu-target-cpu-features=+f,-f\n"
      "                                   llvm-cpu: CPU features added (+) or "
      "removed (-)\n"
      "  --iree-llvmcpu-target-triple=T   llvm-cpu: x86_64-* or aarch64-* "
      "(default: the host)\n"
      "  --kiln-conv-channels-last=true|false|no-depthwise\n"
      "                                   Run NCHW convolutions channels-last "
      "(default true;\n"
      "                                   no-depthwise keeps depthwise ones "
      "NCHW)\n"
      "  --kiln-llvmcpu-winograd=true|false|always\n"
      "                                   llvm-cpu: Winograd F(4x4,3x3) for "
      "3x3 stride-1 convs\n"
      "                                   (default true: where it pays; "
      "false: im2col + mmt4d;\n"
      "                                   always: also on small images)\n"
      "  --kiln-llvmcpu-compile-jobs=N    llvm-cpu: C compiler processes at "
      "once (default 0:\n"
      "                                   one per CPU, for large modules)\n"
      "  --iree-hal-dump-executable-sources-to=DIR\n"
      "                                   llvm-cpu: keep the generated C in "
      "DIR\n"
      "  --iree-hal-dump-executable-binaries-to=DIR\n"
      "                                   llvm-cpu: keep the shared object in "
      "DIR\n"
      "  --target-device=local            Target device (alias "
      "--iree-hal-target-device)\n"
      "  --input-type=auto|stablehlo|tosa|linalg\n"
      "                                   Input dialect (alias "
      "--iree-input-type)\n"
      "  --execution-model=sync|async-external\n"
      "                                   Export ABI (alias "
      "--iree-execution-model);\n"
      "                                   async-external: coarse-fences "
      "(wait, signal fence args)\n"
      "  --iree-parameter-export=[scope=]FILE.irpa\n"
      "                                   Move dense constants into an IREE "
      "parameter archive;\n"
      "                                   the module references them (run "
      "with --parameters=)\n"
      "  --iree-parameter-export-minimum-size=N\n"
      "                                   Export only constants of at least N "
      "bytes (default 0)\n"
      "  --iree-parameter-splat=FILE.irpa\n"
      "                                   Write an archive of zero splats, "
      "one per parameter\n"
      "  --output-format=module|vm-asm|mlir\n"
      "                                   What to write (default module)\n"
      "  --compile-to=input|structured|form-dispatch-regions|vmvx-codegen|"
      "schedule\n"
      "                                   Stop after a phase and print MLIR\n"
      "  --mlir-print-ir-after-all        Print the IR after each pass "
      "(stderr)\n"
      "  --mlir-print-ir-before=P,Q       Print the IR before the named "
      "passes (stderr)\n"
      "  --mlir-print-ir-after=P,Q        Print the IR after the named "
      "passes (stderr)\n"
      "  --mlir-print-debuginfo           Print locations (loc(...)) in MLIR "
      "output and dumps\n"
      "  --mlir-print-op-generic          Print ops in the generic form\n"
      "  --mlir-elide-elementsattrs-if-larger=N\n"
      "                                   Print constants above N elements "
      "as dense_resource<__elided__>\n"
      "  --allow-unregistered-dialect     Parse unknown ops (passes that "
      "meet one still fail)\n"
      "  --dump-compilation-phases-to=DIR\n"
      "                                   The IR after each phase: "
      "DIR/<stem>.<n>.<phase>.mlir\n"
      "  --compile-from=PHASE             The input is that phase's IR (a "
      "dump); start after it\n"
      "  --timing                         Per-pass timing table (stderr; "
      "alias --mlir-timing)\n"
      "  --trace_output=FILE              Chrome trace-event JSON of the "
      "compilation\n"
      "                                   (phases, passes; open in "
      "ui.perfetto.dev)\n"
      "  --export-benchmark-funcs         Add a no-argument <fn>_benchmark "
      "wrapper per function\n"
      "                                   (alias "
      "--iree-flow-export-benchmark-funcs)\n"
      "  --dump-executable-benchmarks-to=DIR\n"
      "                                   One dispatch benchmark module per "
      "executable (alias\n"
      "                                   "
      "--iree-hal-dump-executable-benchmarks-to)\n"
      "  --benchmark-dispatch-repeat-count=N\n"
      "                                   Record every dispatch N times "
      "(alias\n"
      "                                   "
      "--iree-hal-benchmark-dispatch-repeat-count)\n"
      "  --iree-flow-dispatch-linalg-on-tensors-enable-fusion[=true|false]\n"
      "                                   IREE's former dispatch tuning "
      "flag: checked, unused\n"
      "  --iree-flow-dispatch-linalg-on-tensors-tile-sizes=N,N\n"
      "                                   IREE's former dispatch tuning "
      "flag: checked, unused\n"
      "                                   (kiln forms and tiles its own "
      "dispatches)\n"
      "  --version                        kiln's version and target "
      "backends\n"
      "  --iree-llvmcpu-list-targets      The CPU targets llvm-cpu builds "
      "for\n"
      "  --help                           This help\n");
}

static void print_backend_name(void* user_data, const char* name) {
  int* count = (int*)user_data;
  printf("%s%s", (*count)++ ? ", " : "", name);
}

static void print_version(void) {
  printf("kiln %s: kiln-compile\n  target backends: ", KILN_VERSION);
  int count = 0;
  kiln_compiler_enumerate_target_backends(print_backend_name, &count);
  printf("\n");
}

// IREE lists LLVM's registered targets; kiln's are the architectures its
// cpu backend writes C for, with the CPU names each accepts.
static void print_cpu_targets(void) {
  printf(
      "llvm-cpu targets (--iree-llvmcpu-target-triple):\n"
      "  x86_64-*   --iree-llvmcpu-target-cpu=host|generic|x86-64-v2|"
      "x86-64-v3|x86-64-v4|<-march name>\n"
      "  aarch64-*  --iree-llvmcpu-target-cpu=host|generic|armv8.N-a|"
      "<-mcpu core name>\n"
      "             (with --cc=aarch64-linux-gnu-gcc or another cross "
      "compiler)\n");
}

// Parses the command line into |session|, |*input|, |*output| and
// |*trace_output|. Returns the exit code for a bad command line (2) or a
// finished one (--help: 0), or -1 to go on compiling.
static int kiln_compile_parse_args(int argc, char** argv,
                                   kiln_compiler_session_t* session,
                                   const char** input, const char** output,
                                   const char** trace_output) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (!strcmp(a, "--version")) {
      print_version();
      return 0;
    }
    if (!strcmp(a, "--iree-llvmcpu-list-targets")) {
      print_cpu_targets();
      return 0;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      print_help();
      return 0;
    } else if (!strcmp(a, "-o")) {
      if (++i >= argc) {
        fprintf(stderr, "kiln-compile: -o needs a file name\n");
        return 2;
      }
      *output = argv[i];
    } else if (!strncmp(a, "--trace_output=", 15)) {
      *trace_output = a + 15;
    } else if (!strncmp(a, "-o", 2) && a[2] && a[1] == 'o') {
      *output = a + 2;
    } else if (a[0] == '-' && a[1] == '-') {
      kiln_status_t status = kiln_compiler_session_set_flags(session, 1, &a);
      if (status) {
        if (kiln_status_code(status) == KILN_STATUS_NOT_FOUND) {
          fprintf(stderr, "kiln-compile: unknown flag '%s' (see --help)\n", a);
        } else {
          fprintf(stderr, "kiln-compile: %s\n", kiln_status_message(status));
        }
        kiln_status_free(status);
        return 2;
      }
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "kiln-compile: unknown flag '%s' (see --help)\n", a);
      return 2;
    } else if (!*input) {
      *input = a;
    } else {
      fprintf(stderr, "kiln-compile: more than one input ('%s', '%s')\n",
              *input, a);
      return 2;
    }
  }
  if (!*input) {
    fprintf(stderr, "kiln-compile: no input file (see --help)\n");
    return 2;
  }
  return -1;
}

// Parses |input| and runs the pipeline into |module| (memory), so that a
// failed compilation never touches the output file.
static kiln_status_t kiln_compile(kiln_compiler_session_t* session,
                                  const char* input,
                                  kiln_compiler_output_t* module) {
  kiln_compiler_source_t* source = NULL;
  kiln_compiler_invocation_t* invocation = NULL;
  kiln_status_t status =
      kiln_compiler_source_open_file(session, input, &source);
  if (!status) status = kiln_compiler_invocation_create(session, &invocation);
  if (!status) {
    status = kiln_compiler_invocation_parse_source(invocation, source);
  }
  if (!status) status = kiln_compiler_invocation_run_pipeline(invocation);
  if (!status) status = kiln_compiler_invocation_output(invocation, module);
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  return status;
}

// Writes the compiled bytes to |path| ("-": stdout).
static kiln_status_t kiln_compile_write(const char* path,
                                        kiln_compiler_output_t* module) {
  const void* data = NULL;
  size_t length = 0;
  KILN_RETURN_IF_ERROR(kiln_compiler_output_map_memory(module, &data, &length));
  kiln_compiler_output_t* file = NULL;
  KILN_RETURN_IF_ERROR(kiln_compiler_output_open_file(path, &file));
  kiln_status_t status = kiln_compiler_output_write(file, data, length);
  kiln_status_t close_status = kiln_compiler_output_close(file);
  if (!status) {
    status = close_status;
  } else {
    kiln_status_free(close_status);
  }
  kiln_compiler_output_destroy(file);
  return status;
}

int main(int argc, char** argv) {
  kiln_allocator_t allocator = kiln_allocator_system();
  kiln_compiler_session_t* session = NULL;
  kiln_status_t status = kiln_compiler_global_initialize();
  if (!status) status = kiln_compiler_session_create(allocator, &session);
  if (status) {
    fprintf(stderr, "kiln-compile: error: %s\n", kiln_status_message(status));
    kiln_status_free(status);
    kiln_compiler_global_shutdown();
    return 1;
  }
  const char* input = NULL;
  const char* output = "-";
  const char* trace_output = NULL;
  int exit_code = kiln_compile_parse_args(argc, argv, session, &input, &output,
                                          &trace_output);
  kiln_compiler_output_t* module = NULL;
  if (exit_code < 0) {
    status = kiln_tooling_trace_start(trace_output, "kiln-compile");
    if (!status) status = kiln_compiler_output_open_memory(allocator, &module);
    if (!status) status = kiln_compile(session, input, module);
    kiln_status_t trace_status = kiln_tooling_trace_finish();
    if (!status) {
      status = trace_status;
    } else {
      kiln_status_free(trace_status);
    }
    if (status) {
      // Diagnostics with file:line:col were already printed; the status
      // says which phase failed.
      fprintf(stderr, "kiln-compile: error: %s\n", kiln_status_message(status));
      kiln_status_free(status);
      exit_code = 1;
    }
  }
  if (exit_code < 0) {
    status = kiln_compile_write(output, module);
    if (status) {
      fprintf(stderr, "kiln-compile: %s\n", kiln_status_message(status));
      kiln_status_free(status);
      exit_code = 1;
    } else {
      exit_code = 0;
    }
  }
  kiln_compiler_output_destroy(module);
  kiln_compiler_session_destroy(session);
  kiln_compiler_global_shutdown();
  return exit_code;
}
