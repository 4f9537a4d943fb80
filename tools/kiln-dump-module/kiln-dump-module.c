// kiln-dump-module: prints every part of a module file (header, sections,
// imports, exports with reflection attributes, functions with register counts
// and disassembly, rodata, executables; nested vmvx modules recursively).
#include <stdio.h>
#include <string.h>

#include "runtime/base/allocator.h"
#include "runtime/vm/api.h"

static void print_usage(FILE* stream) {
  fprintf(stream,
          "Usage: kiln-dump-module <module.kmod>\n"
          "\n"
          "Prints a kiln module in VM assembly syntax, with its layout as\n"
          "'#' comments. '-' reads the module from standard input.\n"
          "\n"
          "  --output=disassembly   everything, with each function's "
          "instructions (default)\n"
          "  --output=metadata      sections, imports, exports, signatures, "
          "executables;\n"
          "                         no instructions\n"
          "  --function=NAME        only this function (its name or an "
          "export's)\n"
          "  --help                 show this help\n");
}

int main(int argc, char** argv) {
  const char* input = NULL;
  kiln_vm_bytecode_dump_options_t options = {true, NULL};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      print_usage(stdout);
      return 0;
    } else if (strncmp(argv[i], "--output=", 9) == 0) {
      // IREE's iree-dump-module spellings; its FlatBuffer forms have no
      // kiln equivalent (the module is not a FlatBuffer).
      const char* v = argv[i] + 9;
      if (strcmp(v, "disassembly") == 0) {
        options.function_bodies = true;
      } else if (strcmp(v, "metadata") == 0) {
        options.function_bodies = false;
      } else {
        fprintf(stderr,
                "Error: unknown --output='%s' (metadata, disassembly; "
                "kiln modules are not FlatBuffers, so IREE's "
                "flatbuffer-binary and flatbuffer-json do not apply)\n",
                v);
        return 1;
      }
    } else if (strncmp(argv[i], "--function=", 11) == 0 && argv[i][11]) {
      options.function = argv[i] + 11;
    } else if (argv[i][0] == '-' && argv[i][1] != 0) {
      fprintf(stderr, "Error: unknown flag '%s' (see --help)\n", argv[i]);
      return 1;
    } else if (!input) {
      input = argv[i];
    } else {
      fprintf(stderr, "Error: more than one module given (see --help)\n");
      return 1;
    }
  }
  if (!input) {
    print_usage(stderr);
    return 1;
  }
  kiln_allocator_t allocator = kiln_allocator_system();
  kiln_vm_instance_t* instance = NULL;
  kiln_status_t status = kiln_vm_instance_create(allocator, &instance);
  kiln_vm_module_t* module = NULL;
  if (!status) {
    status = kiln_vm_bytecode_module_load_file(instance, input, 0, allocator,
                                               &module);
  }
  if (!status) {
    status =
        kiln_vm_bytecode_module_dump_with_options(module, &options, stdout);
  }
  kiln_vm_module_release(module);
  kiln_vm_instance_release(instance);
  return kiln_status_report_and_exit_code(status);
}
