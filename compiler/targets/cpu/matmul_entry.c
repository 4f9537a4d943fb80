#include "compiler/targets/cpu/matmul_entry.h"

#include <inttypes.h>
#include <string.h>

#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"

// A workgroup computes a KILN_CPU_MATMUL_MB x KILN_CPU_MATMUL_NB block of
// the output, packing KILN_CPU_MATMUL_KB columns of K at a time so that the
// packed panels stay in the L2 cache; K is never split across workgroups,
// so results do not depend on the worker count.
#define KILN_CPU_MATMUL_MB 64
#define KILN_CPU_MATMUL_NB 256
#define KILN_CPU_MATMUL_KB 512
// The largest M0/N0 of any tile (ukernel_abi.h's tile table).
#define KILN_CPU_MATMUL_MAX_TILE 16

static bool kiln_cpu_is_f32(const kiln_ir_type_t* t) {
  return kiln_ir_type_is_ranked_tensor(t) && kiln_ir_type_has_static_shape(t) &&
         kiln_ir_type_is_float(t->shaped.element) &&
         t->shaped.element->flt.kind == KILN_IR_F32;
}

// True when |v| is a zero-filled tensor: a splat 0.0 constant or a
// linalg.fill of a 0.0 constant.
static bool kiln_cpu_is_zero(kiln_ir_value_t* v) {
  kiln_ir_op_t* def = v->defining_op;
  if (!def) return false;
  if (kiln_ir_op_is(def, "linalg.fill") && def->num_operands >= 1) {
    return kiln_cpu_is_zero(kiln_ir_op_operand(def, 0));
  }
  if (!kiln_ir_op_is(def, "arith.constant")) return false;
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(def, "value");
  if (!value) return false;
  double d = 1.0;
  if (value->kind == KILN_IR_ATTR_FLOAT) {
    d = value->f.value;
  } else if (value->kind == KILN_IR_ATTR_DENSE_ELEMENTS && value->dense.splat) {
    if (!kiln_ir_dense_get_double(value, 0, &d)) return false;
  } else {
    return false;
  }
  return d == 0.0;
}

bool kiln_cpu_match_matmul(kiln_ir_context_t* context, kiln_ir_op_t* region,
                           kiln_cpu_matmul_t* out) {
  (void)context;
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* ret = body ? body->last_op : NULL;
  if (!ret || !kiln_ir_op_is(ret, KILN_DISPATCH_RETURN_OP) ||
      ret->num_operands != 1 || region->num_results != 1) {
    return false;
  }
  kiln_ir_op_t* mm = kiln_ir_op_operand(ret, 0)->defining_op;
  if (!mm) return false;
  bool batched = kiln_ir_op_is(mm, "linalg.batch_matmul");
  if (!batched && !kiln_ir_op_is(mm, "linalg.matmul")) return false;
  // Plain named matmuls only (no indexing_maps: transposed forms are
  // generics or carry maps).
  if (kiln_ir_op_get_attr(mm, "indexing_maps")) return false;
  if (mm->num_operands != 3 || mm->num_results != 1) return false;
  kiln_ir_value_t* lhs = kiln_ir_op_operand(mm, 0);
  kiln_ir_value_t* rhs = kiln_ir_op_operand(mm, 1);
  kiln_ir_value_t* init = kiln_ir_op_operand(mm, 2);
  if (lhs->kind != KILN_IR_VALUE_BLOCK_ARG || lhs->owner_block != body ||
      rhs->kind != KILN_IR_VALUE_BLOCK_ARG || rhs->owner_block != body) {
    return false;
  }
  if (!kiln_cpu_is_f32(lhs->type) || !kiln_cpu_is_f32(rhs->type) ||
      !kiln_cpu_is_f32(init->type) || !kiln_cpu_is_zero(init)) {
    return false;
  }
  const int64_t* a = lhs->type->shaped.dims;
  const int64_t* b = rhs->type->shaped.dims;
  size_t rank = batched ? 3 : 2;
  if (lhs->type->shaped.rank != rank || rhs->type->shaped.rank != rank) {
    return false;
  }
  out->batch = batched ? a[0] : 1;
  out->m = a[rank - 2];
  out->k = a[rank - 1];
  out->n = b[rank - 1];
  if (b[rank - 2] != out->k || (batched && b[0] != a[0])) return false;
  if (out->m <= 0 || out->n <= 0 || out->k <= 0 || out->batch <= 0) {
    return false;
  }
  out->lhs_binding = lhs->index;
  out->rhs_binding = rhs->index;
  out->out_binding = kiln_ir_op_num_regular_operands(region);
  return true;
}

void kiln_cpu_matmul_workgroups(const kiln_cpu_matmul_t* mm,
                                int64_t out_count[3]) {
  out_count[0] = (mm->m + KILN_CPU_MATMUL_MB - 1) / KILN_CPU_MATMUL_MB;
  out_count[1] = (mm->n + KILN_CPU_MATMUL_NB - 1) / KILN_CPU_MATMUL_NB;
  out_count[2] = mm->batch;
}

uint32_t kiln_cpu_matmul_local_memory(const kiln_cpu_matmul_t* mm) {
  (void)mm;
  // Packed LHS block, packed RHS block, accumulator tiles; rows and columns
  // rounded up to the largest tile.
  uint32_t rows = KILN_CPU_MATMUL_MB, cols = KILN_CPU_MATMUL_NB;
  uint32_t kb = KILN_CPU_MATMUL_KB;
  return 4u * (rows * kb + cols * kb + rows * cols) + 64u;
}

void kiln_cpu_emit_matmul_entry(const kiln_cpu_matmul_t* mm, const char* c_name,
                                kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(
      out,
      "// f32 matmul %" PRId64 " x %" PRId64 " x %" PRId64 " (batch %" PRId64
      "): packed tiles through the runtime's mmt4d micro-kernel.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  const int64_t M = %" PRId64 ", N = %" PRId64 ", K = %" PRId64
      ";\n"
      "  const int64_t MB = %d, NB = %d, KB = %d;\n"
      "  if (env->import_count < 3 || ds->binding_count <= %u) return "
      "KILN_CPU_FAIL_BINDING;\n"
      "  uint64_t features = env->cpu_features;\n"
      "  kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(\n"
      "      KILN_UKERNEL_MMT4D_F32F32F32, features, KILN_UKERNEL_ISA_NATIVE, "
      "M);\n"
      "  if (t.M0 <= 0 || t.M0 > %d || t.N0 <= 0 || t.N0 > %d || t.K0 <= 0 "
      "|| KB %% t.K0) return KILN_CPU_FAIL_PROGRAM;\n"
      "  int64_t m0 = (int64_t)wg->workgroup_id_x * MB;\n"
      "  int64_t n0 = (int64_t)wg->workgroup_id_y * NB;\n"
      "  int64_t b = wg->workgroup_id_z;\n"
      "  if (m0 >= M || n0 >= N) return 0;\n"
      "  int64_t rows = M - m0 < MB ? M - m0 : MB;\n"
      "  int64_t cols = N - n0 < NB ? N - n0 : NB;\n"
      "  const float* lhs = (const float*)ds->binding_ptrs[%u] + b * M * K;\n"
      "  const float* rhs = (const float*)ds->binding_ptrs[%u] + b * K * N;\n"
      "  float* out = (float*)ds->binding_ptrs[%u] + b * M * N;\n"
      "  int64_t M1 = (rows + t.M0 - 1) / t.M0, N1 = (cols + t.N0 - 1) / "
      "t.N0;\n"
      "  uint8_t* scratch = (uint8_t*)wg->local_memory;\n"
      "  size_t need = 4 * (size_t)(M1 * t.M0 * KB + N1 * t.N0 * KB + M1 * "
      "t.M0 * N1 * t.N0);\n"
      "  if (!scratch || wg->local_memory_size < need) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "  float* lhs_p = (float*)scratch;\n"
      "  float* rhs_p = lhs_p + M1 * t.M0 * KB;\n"
      "  float* acc = rhs_p + N1 * t.N0 * KB;\n"
      "  for (int64_t k0 = 0; k0 < K; k0 += KB) {\n"
      "    int64_t kc = K - k0 < KB ? K - k0 : KB;\n"
      "    int64_t K1 = (kc + t.K0 - 1) / t.K0;\n"
      "    kiln_ukernel_pack_params_t pl;\n"
      "    memset(&pl, 0, sizeof(pl));\n"
      "    pl.in = lhs + m0 * K + k0; pl.out = lhs_p; pl.in_stride0 = K;\n"
      "    pl.out_stride0 = K1 * t.M0 * t.K0; pl.in_size0 = rows; "
      "pl.in_size1 = kc;\n"
      "    pl.out_size0 = M1; pl.out_size1 = K1; pl.tile_size0 = t.M0; "
      "pl.tile_size1 = t.K0;\n"
      "    pl.elem_type = KILN_UKERNEL_ELEM_F32; pl.cpu_features = features;\n"
      "    if (env->import_funcs[0](env->import_contexts[0], &pl, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "    kiln_ukernel_pack_params_t pr = pl;\n"
      "    pr.in = rhs + k0 * N + n0; pr.out = rhs_p; pr.in_stride0 = N;\n"
      "    pr.out_stride0 = K1 * t.N0 * t.K0; pr.in_size0 = cols; "
      "pr.in_size1 = kc;\n"
      "    pr.out_size0 = N1; pr.out_size1 = K1; pr.tile_size0 = t.N0; "
      "pr.tile_size1 = t.K0;\n"
      "    pr.flags = KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE;\n"
      "    if (env->import_funcs[0](env->import_contexts[0], &pr, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "    kiln_ukernel_mmt4d_params_t mp;\n"
      "    memset(&mp, 0, sizeof(mp));\n"
      "    mp.lhs = lhs_p; mp.rhs = rhs_p; mp.out = acc;\n"
      "    mp.lhs_stride0 = K1 * t.M0 * t.K0; mp.rhs_stride0 = K1 * t.N0 * "
      "t.K0;\n"
      "    mp.out_stride0 = N1 * t.M0 * t.N0; mp.M1 = M1; mp.N1 = N1; mp.K1 = "
      "K1;\n"
      "    mp.M0 = t.M0; mp.N0 = t.N0; mp.K0 = t.K0;\n"
      "    mp.type = KILN_UKERNEL_MMT4D_F32F32F32;\n"
      "    mp.flags = k0 ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0;\n"
      "    mp.cpu_features = features;\n"
      "    if (env->import_funcs[1](env->import_contexts[1], &mp, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "  }\n"
      "  kiln_ukernel_unpack_params_t up;\n"
      "  memset(&up, 0, sizeof(up));\n"
      "  up.in = acc; up.out = out + m0 * N + n0; up.in_stride0 = N1 * t.M0 * "
      "t.N0;\n"
      "  up.out_stride0 = N; up.out_size0 = rows; up.out_size1 = cols;\n"
      "  up.tile_size0 = t.M0; up.tile_size1 = t.N0; up.elem_type = "
      "KILN_UKERNEL_ELEM_F32;\n"
      "  up.cpu_features = features;\n"
      "  if (env->import_funcs[2](env->import_contexts[2], &up, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "  return 0;\n"
      "}\n\n",
      mm->m, mm->k, mm->n, mm->batch, c_name, mm->m, mm->n, mm->k,
      KILN_CPU_MATMUL_MB, KILN_CPU_MATMUL_NB, KILN_CPU_MATMUL_KB,
      mm->out_binding, KILN_CPU_MATMUL_MAX_TILE, KILN_CPU_MATMUL_MAX_TILE,
      mm->lhs_binding, mm->rhs_binding, mm->out_binding);
}
