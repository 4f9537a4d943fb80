// kiln-import-onnx: imports an ONNX model and prints the program as MLIR
// (stablehlo ops in one func.func named after the graph) that kiln-compile
// and kiln-opt read. A thin main over compiler/input/onnx.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/input/onnx/onnx_import.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/text/parser.h"
#include "compiler/ir/verifier.h"
#if defined(KILN_HAVE_DIALECTS)
#include "compiler/dialects/registration.h"
#endif

static void print_help(void) {
  printf(
      "OVERVIEW: kiln ONNX importer: model.onnx -> MLIR (stablehlo)\n\n"
      "USAGE: kiln-import-onnx [options] <model.onnx | ->\n\n"
      "OPTIONS:\n"
      "  -o <file>                Output file ('-' = stdout; default)\n"
      "  --describe               Print the graph name, opset, argument and\n"
      "                           result types and op types instead of\n"
      "                           importing\n"
      "  --list-ops               List the ONNX ops the importer lowers\n"
      "                           (op type and the opsets of its lowerings)\n"
      "  --inputs-like=DIR        Specialize graph inputs whose type is not\n"
      "                           a static tensor (symbolic dims, sequences,\n"
      "                           optionals) to the sample inputs\n"
      "                           DIR/input_<k>.pb (ONNX test data form)\n"
      "  --mlir-print-debuginfo   Print locations (the ONNX node names)\n"
      "  --help                   This help\n");
}

static int read_all(const char* path, char** out_data, size_t* out_size) {
  bool is_stdin = strcmp(path, "-") == 0;
  FILE* file = is_stdin ? stdin : fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "kiln-import-onnx: cannot open '%s'\n", path);
    return 1;
  }
  size_t capacity = 1 << 16, size = 0;
  char* data = (char*)malloc(capacity);
  while (data) {
    if (size == capacity) {
      capacity *= 2;
      char* grown = (char*)realloc(data, capacity);
      if (!grown) {
        free(data);
        data = NULL;
        break;
      }
      data = grown;
    }
    size_t n = fread(data + size, 1, capacity - size, file);
    if (n == 0) break;
    size += n;
  }
  bool failed = !data || ferror(file);
  if (!is_stdin) fclose(file);
  if (failed) {
    free(data);
    fprintf(stderr, "kiln-import-onnx: error reading '%s'\n", path);
    return 1;
  }
  *out_data = data;
  *out_size = size;
  return 0;
}

static void print_diagnostic(void* user_data, kiln_ir_context_t* context,
                             const kiln_ir_diagnostic_t* diagnostic) {
  (void)user_data;
  kiln_ir_diagnostic_print(context, diagnostic, stderr);
}

static kiln_status_t import_and_print(const char* path, const char* data,
                                      size_t size, bool debuginfo,
                                      const char* inputs_like, FILE* out) {
  kiln_ir_context_t* context = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_context_create(kiln_allocator_system(), &context));
  kiln_ir_context_set_diagnostic_handler(context, print_diagnostic, NULL);
  kiln_status_t status = kiln_mlir_register_builtin_ops(context);
#if defined(KILN_HAVE_DIALECTS)
  if (!status) status = kiln_dialects_register_all(context);
#endif
  kiln_ir_op_t* module = NULL;
  kiln_onnx_import_options_t import_options = {inputs_like};
  if (!status) {
    status = kiln_onnx_import_with_options(context, path, data, size,
                                           &import_options, &module);
  }
  if (!status) status = kiln_ir_verify(context, module);
  char* text = NULL;
  if (!status) {
    kiln_ir_print_options_t options = {false, debuginfo, 0};
    status = kiln_ir_print_op_to_string(context, module, &options, &text);
  }
  if (!status && fputs(text, out) < 0) {
    status = kiln_make_status(KILN_STATUS_DATA_LOSS, "error writing output");
  }
  free(text);
  kiln_ir_context_destroy(context);
  return status;
}

int main(int argc, char** argv) {
  const char* input = NULL;
  const char* output = "-";
  const char* inputs_like = NULL;
  bool describe = false, debuginfo = false;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      print_help();
      return 0;
    } else if (!strcmp(a, "-o")) {
      if (++i >= argc) {
        fprintf(stderr, "kiln-import-onnx: -o needs a file name\n");
        return 2;
      }
      output = argv[i];
    } else if (!strcmp(a, "--list-ops")) {
      kiln_onnx_list_ops(stdout);
      return fflush(stdout) == 0 ? 0 : 1;
    } else if (!strcmp(a, "--describe")) {
      describe = true;
    } else if (!strncmp(a, "--inputs-like=", 14) && a[14]) {
      inputs_like = a + 14;
    } else if (!strcmp(a, "--mlir-print-debuginfo")) {
      debuginfo = true;
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "kiln-import-onnx: unknown flag '%s' (see --help)\n", a);
      return 2;
    } else if (!input) {
      input = a;
    } else {
      fprintf(stderr, "kiln-import-onnx: more than one input\n");
      return 2;
    }
  }
  if (!input) {
    fprintf(stderr, "kiln-import-onnx: no input file (see --help)\n");
    return 2;
  }
  char* data = NULL;
  size_t size = 0;
  if (read_all(input, &data, &size)) return 1;
  FILE* out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
  if (!out) {
    fprintf(stderr, "kiln-import-onnx: cannot open '%s' for writing\n", output);
    free(data);
    return 1;
  }
  const char* name = strcmp(input, "-") == 0 ? "<stdin>" : input;
  kiln_status_t status =
      describe
          ? kiln_onnx_describe(name, data, size, out)
          : import_and_print(name, data, size, debuginfo, inputs_like, out);
  free(data);
  bool ok = out == stdout ? fflush(out) == 0 : fclose(out) == 0;
  if (status) {
    fprintf(stderr, "kiln-import-onnx: error: %s\n",
            kiln_status_message(status));
    kiln_status_free(status);
    return 1;
  }
  if (!ok) {
    fprintf(stderr, "kiln-import-onnx: error writing '%s'\n", output);
    return 1;
  }
  return 0;
}
