// kiln-opt: parses MLIR, verifies it, runs passes, prints it (mlir-opt).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver/driver.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/pass.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/text/parser.h"
#include "compiler/ir/verifier.h"
#if defined(KILN_HAVE_DIALECTS)
#include "compiler/dialects/registration.h"
#endif
#if defined(KILN_HAVE_PIPELINE)
#include "compiler/pipeline/registration.h"
#endif

typedef struct options_t {
  const char* input;
  const char* output;
  bool generic;
  bool debuginfo;
  bool print_after_all;
  bool timing;
  bool split;
  bool allow_unregistered;
  bool verify_diagnostics;
  const char* pipeline;
} options_t;

static void print_help(kiln_ir_pass_registry_t* registry) {
  printf(
      "OVERVIEW: kiln modular optimizer driver\n\n"
      "USAGE: kiln-opt [options] <input file>\n\n"
      "OPTIONS:\n"
      "  -o <file>                    Output file (default stdout)\n"
      "  --pass-pipeline=<p>          Comma separated pass names\n"
      "  --<pass-name>                Add a registered pass\n"
      "  --mlir-print-op-generic      Print ops in generic form\n"
      "  --mlir-print-debuginfo       Print locations\n"
      "  --mlir-print-ir-after-all    Print IR after each pass (stderr)\n"
      "  --timing / --mlir-timing     Print per-pass wall time (stderr)\n"
      "  --split-input-file           Process '// -----' chunks separately\n"
      "  --allow-unregistered-dialect Keep unknown ops in generic form\n"
      "  --verify-diagnostics         Accepted; diagnostics are printed\n"
      "  --list-ops                   List registered ops (name, traits,\n"
      "                               summary; tab separated) and exit\n\n"
      "Registered passes:\n");
  for (size_t i = 0; i < kiln_ir_pass_registry_count(registry); ++i) {
    const kiln_ir_pass_t* pass = kiln_ir_pass_registry_get(registry, i);
    printf("  --%-28s %s\n", pass->name, pass->description);
  }
}

static kiln_status_t register_everything(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_mlir_register_builtin_ops(context));
  KILN_RETURN_IF_ERROR(kiln_mlir_register_example_ops(context));
#if defined(KILN_HAVE_DIALECTS)
  KILN_RETURN_IF_ERROR(kiln_dialects_register_all(context));
#endif
  // The backend's ops (kiln.dispatch.*, hal.executable), so that every
  // phase of kiln-compile can be run and printed alone.
  KILN_RETURN_IF_ERROR(kiln_backend_register_ops(context));
  return kiln_ok_status();
}

// --list-ops: one line per registered op, "name<TAB>traits<TAB>summary",
// in registration order (the docs site's op reference is generated from it).
static void print_op_def(void* user_data, const kiln_ir_op_def_t* def) {
  static const struct {
    uint32_t bit;
    const char* name;
  } kTraits[] = {
      {KILN_IR_TRAIT_PURE, "pure"},
      {KILN_IR_TRAIT_SIDE_EFFECTING, "side-effecting"},
      {KILN_IR_TRAIT_TERMINATOR, "terminator"},
      {KILN_IR_TRAIT_COMMUTATIVE, "commutative"},
      {KILN_IR_TRAIT_ISOLATED_FROM_ABOVE, "isolated-from-above"},
      {KILN_IR_TRAIT_SYMBOL, "symbol"},
      {KILN_IR_TRAIT_SYMBOL_TABLE, "symbol-table"},
      {KILN_IR_TRAIT_NO_TERMINATOR, "no-terminator"},
      {KILN_IR_TRAIT_CONSTANT_LIKE, "constant-like"},
      {KILN_IR_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE, "same-type"},
      {KILN_IR_TRAIT_SINGLE_BLOCK, "single-block"},
      {KILN_IR_TRAIT_RETURN_LIKE, "return-like"},
      {KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, "dynamic-shapes"},
  };
  FILE* out = (FILE*)user_data;
  fprintf(out, "%s\t", def->name);
  bool first = true;
  for (size_t i = 0; i < sizeof(kTraits) / sizeof(kTraits[0]); ++i) {
    if (def->traits & kTraits[i].bit) {
      fprintf(out, "%s%s", first ? "" : ",", kTraits[i].name);
      first = false;
    }
  }
  if (first) fprintf(out, "-");
  fprintf(out, "\t%s\n", def->summary ? def->summary : "");
}

static int list_ops(void) {
  kiln_ir_context_t* context = NULL;
  kiln_status_t st = kiln_ir_context_create(kiln_allocator_system(), &context);
  if (!st) st = register_everything(context);
  if (!st) kiln_ir_for_each_op_def(context, print_op_def, stdout);
  kiln_ir_context_destroy(context);
  return st ? kiln_status_report_and_exit_code(st) : 0;
}

static void print_diag(void* user_data, kiln_ir_context_t* context,
                       const kiln_ir_diagnostic_t* diagnostic) {
  kiln_ir_diagnostic_print(context, diagnostic, stderr);
}

// Processes one buffer; returns 0 on success.
static int process(const options_t* o, kiln_ir_pass_registry_t* registry,
                   const char** pass_names, size_t num_passes, const char* text,
                   size_t size, uint32_t first_line, FILE* out) {
  kiln_ir_context_t* context = NULL;
  kiln_status_t st = kiln_ir_context_create(kiln_allocator_system(), &context);
  if (st) return kiln_status_report_and_exit_code(st);
  kiln_ir_context_set_allow_unregistered_ops(context, o->allow_unregistered);
  kiln_ir_context_set_diagnostic_handler(context, print_diag, NULL);
  kiln_ir_pass_manager_t* pm = NULL;
  kiln_ir_op_t* module = NULL;
  st = register_everything(context);
  if (!st) {
    kiln_mlir_parse_options_t popts = {first_line};
    st = kiln_mlir_parse_source(context, kiln_make_cstring_view(o->input), text,
                                size, &popts, &module);
  }
  if (!st) st = kiln_ir_verify(context, module);
  if (!st) {
    kiln_ir_pass_manager_options_t pmo;
    memset(&pmo, 0, sizeof(pmo));
    pmo.verify_each = true;
    pmo.print_ir_after_all = o->print_after_all;
    pmo.timing = o->timing;
    pmo.print_options.generic = o->generic;
    pmo.print_options.print_locations = o->debuginfo;
    st = kiln_ir_pass_manager_create(kiln_allocator_system(), &pmo, &pm);
  }
  if (!st && o->pipeline) {
    st = kiln_ir_pass_manager_parse_pipeline(
        pm, registry, kiln_make_cstring_view(o->pipeline));
  }
  for (size_t i = 0; !st && i < num_passes; ++i) {
    const kiln_ir_pass_t* pass = kiln_ir_pass_registry_lookup(
        registry, kiln_make_cstring_view(pass_names[i]));
    st = kiln_ir_pass_manager_add(pm, pass);
  }
  if (!st) st = kiln_ir_pass_manager_run(pm, context, module);
  if (!st) {
    kiln_ir_print_options_t popts = {o->generic, o->debuginfo, 0};
    st = kiln_ir_print_op(context, module, &popts, out);
  }
  int rc = 0;
  if (st) {
    // Diagnostics were already printed by the handler; print the status
    // only when it carries no diagnostic of its own.
    if (kiln_ir_context_error_count(context) == 0) {
      rc = kiln_status_report_and_exit_code(st);
    } else {
      kiln_status_free(st);
      rc = 1;
    }
  }
  kiln_ir_pass_manager_destroy(pm);
  kiln_ir_context_destroy(context);
  return rc;
}

int main(int argc, char** argv) {
  options_t o;
  memset(&o, 0, sizeof(o));
  kiln_ir_pass_registry_t* registry = NULL;
  kiln_status_t st =
      kiln_ir_pass_registry_create(kiln_allocator_system(), &registry);
#if defined(KILN_HAVE_PIPELINE)
  if (!st) st = kiln_pipeline_register_passes(registry);
#endif
  if (!st) st = kiln_backend_register_passes(registry);
  if (st) return kiln_status_report_and_exit_code(st);
  const char** pass_names = (const char**)calloc((size_t)argc, sizeof(char*));
  size_t num_passes = 0;
  int rc = 0;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      print_help(registry);
      goto done;
    } else if (!strcmp(a, "--list-ops")) {
      rc = list_ops();
      goto done;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      o.output = argv[++i];
    } else if (!strcmp(a, "--mlir-print-op-generic")) {
      o.generic = true;
    } else if (!strcmp(a, "--mlir-print-debuginfo")) {
      o.debuginfo = true;
    } else if (!strcmp(a, "--mlir-print-ir-after-all")) {
      o.print_after_all = true;
    } else if (!strcmp(a, "--timing") || !strcmp(a, "--mlir-timing")) {
      o.timing = true;
    } else if (!strcmp(a, "--split-input-file")) {
      o.split = true;
    } else if (!strcmp(a, "--allow-unregistered-dialect")) {
      o.allow_unregistered = true;
    } else if (!strcmp(a, "--verify-diagnostics")) {
      o.verify_diagnostics = true;
    } else if (!strncmp(a, "--pass-pipeline=", 16)) {
      o.pipeline = a + 16;
    } else if (a[0] == '-' && a[1] == '-' &&
               kiln_ir_pass_registry_lookup(registry,
                                            kiln_make_cstring_view(a + 2))) {
      pass_names[num_passes++] = a + 2;
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "kiln-opt: unknown option '%s' (see --help)\n", a);
      rc = 1;
      goto done;
    } else {
      o.input = a;
    }
  }
  if (!o.input) o.input = "-";
  {
    FILE* f = strcmp(o.input, "-") == 0 ? stdin : fopen(o.input, "rb");
    if (!f) {
      fprintf(stderr, "kiln-opt: cannot open '%s'\n", o.input);
      rc = 1;
      goto done;
    }
    size_t cap = 1 << 16, size = 0;
    char* text = (char*)malloc(cap);
    for (;;) {
      size += fread(text + size, 1, cap - size, f);
      if (size < cap) break;
      cap *= 2;
      text = (char*)realloc(text, cap);
    }
    if (f != stdin) fclose(f);
    FILE* out = o.output ? fopen(o.output, "w") : stdout;
    if (!out) {
      fprintf(stderr, "kiln-opt: cannot write '%s'\n", o.output);
      free(text);
      rc = 1;
      goto done;
    }
    if (!o.split) {
      rc = process(&o, registry, pass_names, num_passes, text, size, 1, out);
    } else {
      // Chunks separated by lines starting with `// -----`.
      size_t start = 0;
      uint32_t line = 1, chunk_line = 1;
      bool first = true;
      for (size_t pos = 0; pos <= size;) {
        bool at_sep = pos < size && (pos == 0 || text[pos - 1] == '\n') &&
                      size - pos >= 8 && !strncmp(text + pos, "// -----", 8);
        if (at_sep || pos == size) {
          if (!first) fprintf(out, "// -----\n");
          first = false;
          rc |= process(&o, registry, pass_names, num_passes, text + start,
                        pos - start, chunk_line, out);
          if (pos == size) break;
          while (pos < size && text[pos] != '\n') ++pos;
          if (pos < size) ++pos;
          ++line;
          start = pos;
          chunk_line = line;
          continue;
        }
        if (text[pos] == '\n') ++line;
        ++pos;
      }
    }
    if (out != stdout) fclose(out);
    free(text);
  }
done:
  free(pass_names);
  kiln_ir_pass_registry_destroy(registry);
  return rc;
}
