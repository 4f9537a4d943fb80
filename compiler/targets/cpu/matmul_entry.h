// Matmul dispatches of the cpu backend: a dispatch region that is an f32
// linalg.matmul / batch_matmul of its operands (zero-initialized), or a
// linalg.generic computing one (any number of batch loops, either operand
// transposed: what a rank-4 ONNX MatMul becomes), possibly
// followed by an elementwise epilogue (epilogue.h), becomes a C entry point
// that packs its tiles and runs the runtime's mmt4d micro-kernel
// (runtime/builtins/ukernel) through the executable's import table, instead of
// the scalar loop program.
#ifndef KILN_COMPILER_TARGETS_CPU_MATMUL_ENTRY_H_
#define KILN_COMPILER_TARGETS_CPU_MATMUL_ENTRY_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/printer.h"
#include "compiler/targets/cpu/epilogue.h"

#ifdef __cplusplus
extern "C" {
#endif

// The imports matmul entries call, in the library's import table order.
// (Winograd entries, winograd_entry.h, also call the fifth and sixth; the
// direct depthwise entries the seventh, depthwise_entry.h.)
#define KILN_CPU_MATMUL_IMPORTS                                       \
  {                                                                   \
    "kiln_ukernel_pack", "kiln_ukernel_mmt4d", "kiln_ukernel_unpack", \
        "kiln_ukernel_pack_window", "kiln_ukernel_winograd_input",    \
        "kiln_ukernel_winograd_output", "kiln_ukernel_bias_act"       \
  }
#define KILN_CPU_MATMUL_IMPORT_COUNT 7

typedef struct kiln_cpu_matmul_t {
  int64_t batch;  // 1 for linalg.matmul; all batch loops of a generic, flat
  int64_t m, n, k;
  uint32_t lhs_binding, rhs_binding, out_binding;
  // Element strides in the bindings (f32 elements): LHS (m, k) at
  // m * lhs_stride + k, or k * lhs_stride + m when lhs_transposed; RHS (k, n)
  // at k * rhs_stride + n, or n * rhs_stride + k when rhs_transposed; batch
  // b at b * batch stride.
  int64_t lhs_stride, lhs_batch_stride, rhs_stride, rhs_batch_stride;
  bool lhs_transposed, rhs_transposed;
  const char* epilogue;  // kiln_cpu_epilogue_build's statements, or NULL
  const kiln_ir_type_t* epilogue_type;  // the kernel's result type
  // The epilogue is a bias add and clamp mmt4d can apply (epilogue.h).
  bool bias_clamp;
  kiln_cpu_epilogue_bias_clamp_t bc;
} kiln_cpu_matmul_t;

// One operand of a packed matmul problem, as stored in its binding (all
// sizes and strides in f32 elements). A plain operand is a strided matrix:
// logical element (r, c) lies at r * stride + c, or at c * stride + r when
// |transposed|. A window operand is the im2col view of a convolution image:
// row r is output pixel r (at image offset (r / ow) * pix_h + (r % ow) *
// pix_w) and column c = (c0 * ext[1] + c1) * ext[2] + c2 is a window tap at
// offset c0 * step[0] + c1 * step[1] + c2 * step[2]; nothing is materialized:
// the entry gathers it straight into the packed tile layout.
typedef struct kiln_cpu_gemm_operand_t {
  uint32_t binding;
  int64_t offset;        // elements before the operand in its binding
  int64_t batch_stride;  // elements between batches
  int64_t stride;
  bool transposed;
  bool window;
  // An RHS packed at compile time (kiln_cpu_gemm_pack_constant_rhs): 16
  // columns per panel, element (n, k) at (n / 16) * K * 16 + k * 16 + n % 16,
  // zero past N (the mmt4d RHS layout of a 16x1 tile; 8-column tiles read
  // it with a row stride of 16), batches |batch_stride| apart.
  bool panels;
  int64_t ow, pix_h, pix_w;
  int64_t ext[3], step[3];
} kiln_cpu_gemm_operand_t;

// out = init + lhs x rhs^T, batched: LHS is M x K, RHS is N x K (the
// transposed B of out = A * B, as the packed layout stores it), OUT and INIT
// are M x N and never transposed or windows.
typedef struct kiln_cpu_gemm_t {
  int64_t batch, m, n, k;
  kiln_cpu_gemm_operand_t lhs, rhs, out;
  bool has_init;  // else the result starts from zero
  kiln_cpu_gemm_operand_t init;
  // With has_init: init is a vector broadcast along the rows (element (r, c)
  // is init[c]) or along the columns (init[r]), e.g. a per-channel bias.
  bool init_per_column, init_per_row;
  const char* what;  // one line for the entry's comment
  // Elementwise consumers run on each unpacked output block (epilogue.h),
  // or NULL.
  const char* epilogue;
  const kiln_ir_type_t* epilogue_type;  // the kernel's result type
  // The epilogue is a bias along the last dim and a clamp, which mmt4d
  // applies to the tiles it writes (KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP) on
  // the in-place path (row-major OUT) instead of a pass over each block.
  bool bias_clamp;
  kiln_cpu_epilogue_bias_clamp_t bc;
} kiln_cpu_gemm_t;

// True when |v| is a zero-filled tensor: a splat 0.0 constant or a
// linalg.fill of a 0.0 constant.
bool kiln_cpu_value_is_zero(kiln_ir_value_t* v);

// True when |region| is such a matmul; fills |out|.
bool kiln_cpu_match_matmul(kiln_ir_context_t* context, kiln_ir_op_t* region,
                           kiln_cpu_matmul_t* out);

// The packed problem of |mm|.
void kiln_cpu_matmul_gemm(const kiln_cpu_matmul_t* mm, kiln_cpu_gemm_t* out);

// The RHS panel width of kiln_cpu_gemm_operand_t.panels.
#define KILN_CPU_MATMUL_PANEL 16

// When the RHS of |region| (problem |g|: a matmul's B, a convolution's
// filter) is an f32 constant used by this region alone, replaces it by a
// constant holding its panels (the panel layout of kiln_cpu_gemm_operand_t)
// and sets g->rhs to read them: the weight is packed once, here, instead of
// on every call. The region's body keeps its logical types: only the native
// entry reads the operand. Leaves |g| alone otherwise.
kiln_status_t kiln_cpu_gemm_pack_constant_rhs(kiln_ir_context_t* context,
                                              kiln_ir_op_t* region,
                                              kiln_cpu_gemm_t* g);

// Replaces operand |binding| of |region|, produced by the arith.constant
// |def| (used by the region alone), by a new constant of |type| holding
// |attr| (a weight laid out at compile time for the entry), and erases
// |def|.
kiln_status_t kiln_cpu_replace_region_constant(kiln_ir_context_t* context,
                                               kiln_ir_op_t* region,
                                               uint32_t binding,
                                               kiln_ir_op_t* def,
                                               const kiln_ir_type_t* type,
                                               const kiln_ir_attribute_t* attr);

// The dispatch grid of |g| (row blocks x column blocks x batch) and the
// per-worker local memory its entry point needs.
void kiln_cpu_gemm_workgroups(const kiln_cpu_gemm_t* g, int64_t out_count[3]);
uint32_t kiln_cpu_gemm_local_memory(const kiln_cpu_gemm_t* g);

// Appends the entry point |c_name| for |g| to |out|: it packs its tiles
// (gathering window operands) and runs the runtime's mmt4d micro-kernel
// through the imports KILN_CPU_MATMUL_IMPORTS.
void kiln_cpu_emit_gemm_entry(const kiln_cpu_gemm_t* g, const char* c_name,
                              kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_MATMUL_ENTRY_H_
