// Passes and the pass manager.
//
// A pass is a name, a one-line description and a run function over the
// module. A registry maps names to passes (compiler/pipeline registers its
// passes there; kiln-opt lists them in --help and enables each with
// --<name>). A pass manager runs an ordered list of passes, verifying after
// each one, optionally printing the IR after each pass and timing them.
#ifndef KILN_COMPILER_IR_PASS_H_
#define KILN_COMPILER_IR_PASS_H_

#include <stdio.h>

#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_ir_pass_t {
  const char* name;         // "canonicalize" (flag --canonicalize)
  const char* description;  // one line
  // Runs over |module| (a builtin.module op).
  kiln_status_t (*run)(kiln_ir_context_t* context, kiln_ir_op_t* module,
                       void* user_data);
  void* user_data;
} kiln_ir_pass_t;

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

typedef struct kiln_ir_pass_registry_t kiln_ir_pass_registry_t;

kiln_status_t kiln_ir_pass_registry_create(
    kiln_allocator_t allocator, kiln_ir_pass_registry_t** out_registry);
void kiln_ir_pass_registry_destroy(kiln_ir_pass_registry_t* registry);
// Registers |pass| (copied; its strings must be static). Duplicate names
// are ALREADY_EXISTS.
kiln_status_t kiln_ir_pass_registry_add(kiln_ir_pass_registry_t* registry,
                                        const kiln_ir_pass_t* pass);
const kiln_ir_pass_t* kiln_ir_pass_registry_lookup(
    const kiln_ir_pass_registry_t* registry, kiln_string_view_t name);
size_t kiln_ir_pass_registry_count(const kiln_ir_pass_registry_t* registry);
const kiln_ir_pass_t* kiln_ir_pass_registry_get(
    const kiln_ir_pass_registry_t* registry, size_t index);

//===----------------------------------------------------------------------===//
// Pass manager
//===----------------------------------------------------------------------===//

typedef struct kiln_ir_pass_manager_options_t {
  bool verify_each;         // verify after every pass (default true)
  bool print_ir_after_all;  // print "// -----// IR Dump After X //----- //"
  // Comma-separated pass names (MLIR's --mlir-print-ir-before= / -after=):
  // the IR is printed before / after each of them. NULL: none.
  const char* print_ir_before;
  const char* print_ir_after;
  bool timing;          // per-pass wall time report
  FILE* print_stream;   // where IR dumps go (NULL: stderr)
  FILE* timing_stream;  // where the timing report goes (NULL: stderr)
  kiln_ir_print_options_t print_options;
} kiln_ir_pass_manager_options_t;

typedef struct kiln_ir_pass_manager_t kiln_ir_pass_manager_t;

kiln_status_t kiln_ir_pass_manager_create(
    kiln_allocator_t allocator, const kiln_ir_pass_manager_options_t* options,
    kiln_ir_pass_manager_t** out_pm);
void kiln_ir_pass_manager_destroy(kiln_ir_pass_manager_t* pm);
kiln_status_t kiln_ir_pass_manager_add(kiln_ir_pass_manager_t* pm,
                                       const kiln_ir_pass_t* pass);
// Adds passes from a comma-separated list of registered names
// ("canonicalize,cse"); an unknown name (a pass with `{options}` included)
// is NOT_FOUND naming it. MLIR's anchors `builtin.module(...)`,
// `func.func(...)` and `util.func(...)` may nest around names: kiln's
// passes run over the whole module, every function included.
kiln_status_t kiln_ir_pass_manager_parse_pipeline(
    kiln_ir_pass_manager_t* pm, const kiln_ir_pass_registry_t* registry,
    kiln_string_view_t pipeline);
// Runs every pass in order on |module|; stops at the first failure
// (annotated with the pass name).
kiln_status_t kiln_ir_pass_manager_run(kiln_ir_pass_manager_t* pm,
                                       kiln_ir_context_t* context,
                                       kiln_ir_op_t* module);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_PASS_H_
