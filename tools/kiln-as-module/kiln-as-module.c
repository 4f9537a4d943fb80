// kiln-as-module: assembles VM assembly (.vmasm) into a module (.kmod).
//   kiln-as-module input.vmasm -o out.kmod    ('-' for stdin/stdout)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/allocator.h"
#include "runtime/vm/assembler.h"

static void print_usage(FILE* stream) {
  fprintf(stream,
          "Usage: kiln-as-module <input.vmasm> [-o <output.kmod>]\n"
          "\n"
          "Assembles kiln VM assembly (see docs/website/docs/developers/\n"
          "design-docs/vm-bytecode.md) into a module file.\n"
          "\n"
          "  <input.vmasm>   assembly source, '-' for standard input\n"
          "  -o <file>       output module (default: standard output; '-' "
          "too)\n"
          "  --help          show this help\n");
}

static int read_all(FILE* file, char** out_data, size_t* out_size) {
  size_t capacity = 1 << 16, size = 0;
  char* data = malloc(capacity);
  if (!data) return 0;
  size_t n;
  while ((n = fread(data + size, 1, capacity - size, file)) > 0) {
    size += n;
    if (size == capacity) {
      capacity *= 2;
      char* grown = realloc(data, capacity);
      if (!grown) {
        free(data);
        return 0;
      }
      data = grown;
    }
  }
  *out_data = data;
  *out_size = size;
  return 1;
}

int main(int argc, char** argv) {
  const char* input = NULL;
  const char* output = "-";
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      print_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      output = argv[++i];
    } else if (strncmp(argv[i], "-o", 2) == 0 && argv[i][2]) {
      output = argv[i] + 2;
    } else if (argv[i][0] == '-' && argv[i][1] != 0) {
      fprintf(stderr, "Error: unknown flag '%s' (see --help)\n", argv[i]);
      return 1;
    } else if (!input) {
      input = argv[i];
    } else {
      fprintf(stderr, "Error: more than one input given (see --help)\n");
      return 1;
    }
  }
  if (!input) {
    print_usage(stderr);
    return 1;
  }
  FILE* in = strcmp(input, "-") == 0 ? stdin : fopen(input, "rb");
  if (!in) {
    fprintf(stderr, "Error: cannot open '%s'\n", input);
    return 1;
  }
  char* text = NULL;
  size_t length = 0;
  int ok = read_all(in, &text, &length);
  if (in != stdin) fclose(in);
  if (!ok) {
    fprintf(stderr, "Error: cannot read '%s'\n", input);
    return 1;
  }
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t size = 0;
  kiln_status_t status = kiln_vm_assemble(
      text, length, strcmp(input, "-") == 0 ? "<stdin>" : input, allocator,
      &bytes, &size);
  free(text);
  if (status) return kiln_status_report_and_exit_code(status);
  FILE* out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
  if (!out) {
    fprintf(stderr, "Error: cannot create '%s'\n", output);
    kiln_allocator_free(allocator, bytes);
    return 1;
  }
  size_t written = fwrite(bytes, 1, size, out);
  int close_failed = out != stdout ? fclose(out) : fflush(out);
  kiln_allocator_free(allocator, bytes);
  if (written != size || close_failed) {
    fprintf(stderr, "Error: writing '%s' failed\n", output);
    return 1;
  }
  return 0;
}
