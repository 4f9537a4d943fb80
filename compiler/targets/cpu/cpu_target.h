// The cpu target backend ("llvm-cpu" in IREE's spelling): every dispatch of
// a module becomes a C function of the CPU dispatch ABI; all of them are
// one translation unit, built by the system C compiler into a PIC shared
// object that is embedded in the module as one native executable.
//
// Threading: kiln_cpu_target_serialize touches only its arguments and the
// temporary files it creates; calls on different modules may run at once.
#ifndef KILN_COMPILER_TARGETS_CPU_CPU_TARGET_H_
#define KILN_COMPILER_TARGETS_CPU_CPU_TARGET_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_cpu_target_options_t {
  // The C compiler: NULL for $CC, else "cc".
  const char* cc;
  // --iree-llvmcpu-target-cpu: NULL or "host" (this machine's ISA),
  // "generic", "x86-64-v2", "x86-64-v3", "x86-64-v4", or a CPU name the C
  // compiler knows (-march=NAME).
  const char* target_cpu;
  // --iree-llvmcpu-target-cpu-features: "+avx512f,+fma,-avx2" (NULL: none).
  const char* target_cpu_features;
  // --iree-llvmcpu-target-triple: NULL for the host, else e.g.
  // "aarch64-linux-gnu" (pair it with a cross compiler in |cc|).
  const char* target_triple;
  // Where to write the generated C / the shared object (NULL: nowhere).
  const char* dump_sources_to;
  const char* dump_binaries_to;
  // --iree-opt-level=O<n>: the C compiler's -O<n> (0-3). kiln's graph
  // passes do the same at every level (they never change results), so the
  // level trades compile time for the speed of the native code only; 0
  // (the zero-initialized value) means kiln's default, 3.
  int opt_level_plus_one;
  // --kiln-llvmcpu-winograd=false: compute 3x3 stride-1 convolutions
  // directly (im2col + mmt4d) instead of with Winograd F(4x4, 3x3)
  // (winograd_entry.h); =always: use Winograd also on images too small for
  // it to pay (tests of small shapes).
  bool disable_winograd;
  bool force_winograd;
  // --kiln-llvmcpu-compile-jobs=N: C compiler processes at once, each
  // compiling a part of the dispatch functions; 0 (the default) is one per
  // online CPU, splitting only translation units of 64 KiB or more per
  // part. The module is the same whatever N is, up to code layout.
  int compile_jobs;
} kiln_cpu_target_options_t;

// Replaces the module's vmvx-bytecode hal.executable ops (made by
// vmvx-codegen, which fixes each dispatch's tiling and loop program) by one
// native executable, and points every dispatch at its entry point in it.
kiln_status_t kiln_cpu_target_serialize(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_cpu_target_options_t* options);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_CPU_TARGET_H_
