// Matmul dispatches of the cpu backend: a dispatch region that is exactly
// an f32 linalg.matmul / batch_matmul of its operands (zero-initialized,
// consumers left to other dispatches: form-dispatch-regions'
// matmuls_alone) becomes a C entry point that packs its tiles and runs the
// runtime's mmt4d micro-kernel (runtime/builtins/ukernel) through the
// executable's import table, instead of the scalar loop program.
#ifndef KILN_COMPILER_TARGETS_CPU_MATMUL_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_MATMUL_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"

#ifdef __cplusplus
extern "C" {
#endif

// The imports matmul entries call, in the library's import table order.
#define KILN_CPU_MATMUL_IMPORTS \
  { "kiln_ukernel_pack", "kiln_ukernel_mmt4d", "kiln_ukernel_unpack" }
#define KILN_CPU_MATMUL_IMPORT_COUNT 3

typedef struct kiln_cpu_matmul_t {
  int64_t batch;  // 1 for linalg.matmul
  int64_t m, n, k;
  uint32_t lhs_binding, rhs_binding, out_binding;
} kiln_cpu_matmul_t;

// True when |region| is such a matmul; fills |out|.
bool kiln_cpu_match_matmul(kiln_ir_context_t* context, kiln_ir_op_t* region,
                           kiln_cpu_matmul_t* out);

// The dispatch grid of |mm| (row blocks x column blocks x batch) and the
// per-worker local memory its entry point needs.
void kiln_cpu_matmul_workgroups(const kiln_cpu_matmul_t* mm,
                                int64_t out_count[3]);
uint32_t kiln_cpu_matmul_local_memory(const kiln_cpu_matmul_t* mm);

// Appends the entry point |c_name| for |mm| to |out|.
void kiln_cpu_emit_matmul_entry(const kiln_cpu_matmul_t* mm, const char* c_name,
                                kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_MATMUL_ENTRY_H_
