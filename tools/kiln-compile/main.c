// kiln-compile: MLIR (StableHLO / linalg) -> .kmod module, like
// iree-compile. A thin main over kiln_compiler_driver.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver/driver.h"
#include "compiler/targets/target_backend.h"
#include "runtime/tooling/trace_output.h"

// Nothing but whitespace: no program (kiln-opt accepts it, a compiler that
// emitted an empty module for it would hide a wrong path or a failed pipe).
static bool kiln_compile_is_blank(const char* text, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (!isspace((unsigned char)text[i])) return false;
  }
  return true;
}

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
      "  --version                        kiln's version and target "
      "backends\n"
      "  --iree-llvmcpu-list-targets      The CPU targets llvm-cpu builds "
      "for\n"
      "  --help                           This help\n");
}

static void print_version(void) {
  printf("kiln %s: kiln-compile\n  target backends: %s\n", KILN_VERSION,
         kiln_target_backend_names());
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

int main(int argc, char** argv) {
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  const char* input = NULL;
  const char* output = "-";
  const char* trace_output = NULL;
  bool have_output_format = false;
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
      output = argv[i];
    } else if (!strncmp(a, "--trace_output=", 15)) {
      trace_output = a + 15;
    } else if (!strncmp(a, "-o", 2) && a[2] && a[1] == 'o') {
      output = a + 2;
    } else if (a[0] == '-' && a[1] == '-') {
      bool consumed = false;
      kiln_status_t status =
          kiln_compiler_options_parse_flag(&options, a, &consumed);
      if (status) {
        fprintf(stderr, "kiln-compile: %s\n", kiln_status_message(status));
        kiln_status_free(status);
        return 2;
      }
      if (!consumed) {
        fprintf(stderr, "kiln-compile: unknown flag '%s' (see --help)\n", a);
        return 2;
      }
      if (!strncmp(a, "--output-format=", 16)) have_output_format = true;
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "kiln-compile: unknown flag '%s' (see --help)\n", a);
      return 2;
    } else if (!input) {
      input = a;
    } else {
      fprintf(stderr, "kiln-compile: more than one input ('%s', '%s')\n", input,
              a);
      return 2;
    }
  }
  if (!input) {
    fprintf(stderr, "kiln-compile: no input file (see --help)\n");
    return 2;
  }
  if (options.compile_to && !have_output_format) {
    options.output_format = KILN_COMPILER_OUTPUT_MLIR;
  }
  if (options.compile_to &&
      options.output_format != KILN_COMPILER_OUTPUT_MLIR) {
    fprintf(stderr,
            "kiln-compile: --compile-to prints MLIR "
            "(--output-format=mlir)\n");
    return 2;
  }
  uint8_t* bytes = NULL;
  size_t length = 0;
  kiln_allocator_t allocator = kiln_allocator_system();
  char* text = NULL;
  size_t text_size = 0;
  const char* filename = strcmp(input, "-") == 0 ? "<stdin>" : input;
  kiln_status_t status = kiln_tooling_trace_start(trace_output, "kiln-compile");
  if (!status) {
    status = kiln_compiler_read_file(input, allocator, &text, &text_size);
  }
  if (!status && kiln_compile_is_blank(text, text_size)) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "input '%s' is empty", filename);
  }
  if (!status) {
    status = kiln_compiler_compile_buffer(&options, filename, text, text_size,
                                          allocator, &bytes, &length);
  }
  kiln_allocator_free(allocator, text);
  kiln_status_t trace_status = kiln_tooling_trace_finish();
  if (!status) {
    status = trace_status;
  } else {
    kiln_status_free(trace_status);
  }
  if (status) {
    // Diagnostics with file:line:col were already printed; the status says
    // which phase failed.
    fprintf(stderr, "kiln-compile: error: %s\n", kiln_status_message(status));
    kiln_status_free(status);
    return 1;
  }
  FILE* out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
  if (!out) {
    fprintf(stderr, "kiln-compile: cannot open '%s' for writing\n", output);
    kiln_allocator_free(allocator, bytes);
    return 1;
  }
  bool ok = fwrite(bytes, 1, length, out) == length;
  if (out != stdout) {
    ok = fclose(out) == 0 && ok;
  } else {
    ok = fflush(out) == 0 && ok;
  }
  kiln_allocator_free(allocator, bytes);
  if (!ok) {
    fprintf(stderr, "kiln-compile: error writing '%s'\n", output);
    return 1;
  }
  return 0;
}
