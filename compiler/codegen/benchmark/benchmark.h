// Benchmark support in the compiler, as IREE's flags provide it:
//
//   --export-benchmark-funcs (--iree-flow-export-benchmark-funcs)
//       adds, for each public function whose inputs all have static shapes,
//       an exported no-argument wrapper `<fn>_benchmark` (reflection
//       attribute iree.benchmark = "entry") that calls it on zero-filled
//       inputs (read-only rodata) and returns its results; for a
//       coarse-fences module the wrapper waits for the call itself.
//   --dump-executable-benchmarks-to=DIR
//   (--iree-hal-dump-executable-benchmarks-to)
//       writes DIR/<executable>.kmod per executable: one exported function
//       `<entry>_benchmark(i32 count)` (iree.benchmark = "dispatch") that
//       records the executable's dispatch |count| times (with barriers) on
//       buffers of the sizes of the first call site, then executes and
//       waits. kiln-benchmark-module --batch_size=N passes N.
//   --benchmark-dispatch-repeat-count=N
//   (--iree-hal-benchmark-dispatch-repeat-count)
//       records every dispatch of the program N times (barriers between),
//       to be paired with kiln-benchmark-module --batch_size=N.
//
// All three work on the host module's VM assembly and the scheduled IR
// after vm-emission, so the emission itself is unchanged: the driver calls
// kiln_benchmark_apply once, before assembling.
#ifndef KILN_COMPILER_CODEGEN_BENCHMARK_BENCHMARK_H_
#define KILN_COMPILER_CODEGEN_BENCHMARK_BENCHMARK_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

typedef struct kiln_benchmark_options_t {
  bool export_benchmark_funcs;
  const char* dump_executable_benchmarks_to;  // NULL: no dump
  int32_t dispatch_repeat_count;              // <= 1: unchanged
  bool async_external;  // set by the driver from its execution model
} kiln_benchmark_options_t;

// Applies one of the flags above ("--export-benchmark-funcs",
// "--iree-flow-export-benchmark-funcs", "--dump-executable-benchmarks-to=D",
// ...). |*out_consumed| is false for other flags; a bad value is
// INVALID_ARGUMENT naming the flag.
kiln_status_t kiln_benchmark_options_parse_flag(
    kiln_benchmark_options_t* options, const char* arg, bool* out_consumed);

// True when any option changes the output.
bool kiln_benchmark_options_active(const kiln_benchmark_options_t* options);

//===----------------------------------------------------------------------===//
// Applying
//===----------------------------------------------------------------------===//

// Given the scheduled |module| and the VM assembly |asm_text| vm-emission
// made of it, writes the dispatch benchmark modules (when asked) and returns
// in |*out_text| (from |allocator|; free with kiln_allocator_free) the
// assembly with the wrappers added and dispatches repeated. Errors name the
// function, executable or file.
kiln_status_t kiln_benchmark_apply(const kiln_benchmark_options_t* options,
                                   kiln_ir_context_t* context,
                                   kiln_ir_op_t* module, const char* asm_text,
                                   size_t asm_length,
                                   kiln_allocator_t allocator, char** out_text,
                                   size_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_CODEGEN_BENCHMARK_BENCHMARK_H_
