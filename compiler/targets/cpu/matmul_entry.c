#include "compiler/targets/cpu/matmul_entry.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/epilogue.h"

// A workgroup computes a KILN_CPU_MATMUL_WM x KILN_CPU_MATMUL_NB block of
// the output, accumulated in packed tiles. Per block of KILN_CPU_MATMUL_KB
// columns of K it packs its RHS panel once (kept in the L2 cache) and then
// packs and multiplies KILN_CPU_MATMUL_MB rows of the LHS at a time: every
// RHS element is packed once per WM rows, every LHS element once per NB
// columns (packing a large weight once per 64 rows cost as much as the
// FMAs). K is never split across workgroups, so results do not depend on
// the worker count. NB is 12 tiles of 16 columns: the AVX-512 kernels take
// three tiles per pass and fall back to one-tile passes (17 loads per 16
// FMAs against 11 per 24) for the rest; 128 (8 tiles: 2 three-tile + 2
// one-tile passes) made BERT 12% and ResNet-50 / MobileNetV2 4-7% slower
// on one thread; 288 and 384 measured the same as 192. KB is 1024: each
// mmt4d call loads and stores its accumulators and sets up its loops once
// per K block, and against 256 BERT ran 131 instead of 142 ms (median, 1
// thread; 72 instead of 75 ms on 2), ResNet-50 and SqueezeNet 2-4% faster
// (interleaved A/B, same models); the packed LHS block (256 KiB) then lives
// in L2, not L1, which measured no slower.
#define KILN_CPU_MATMUL_WM 256
#define KILN_CPU_MATMUL_MB 64
#define KILN_CPU_MATMUL_NB 192
#define KILN_CPU_MATMUL_KB 1024
// The largest M0/N0 of any tile (ukernel_abi.h's tile table).
#define KILN_CPU_MATMUL_MAX_TILE 16

bool kiln_cpu_value_is_zero(kiln_ir_value_t* v) {
  kiln_ir_op_t* def = v->defining_op;
  if (!def) return false;
  if (kiln_ir_op_is(def, "linalg.fill") && def->num_operands >= 1) {
    return kiln_cpu_value_is_zero(kiln_ir_op_operand(def, 0));
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

// Element strides, per loop dim, of the row-major operand |t| indexed by
// |map| (0 for dims the map does not use). False unless every result is a
// distinct plain loop dim.
static bool kiln_cpu_map_strides(const kiln_ir_affine_map_t* map,
                                 const kiln_ir_type_t* t, uint32_t num_dims,
                                 int64_t strides[KILN_STRUCTURED_MAX_DIMS]) {
  if (map->num_symbols || map->num_results != t->shaped.rank) return false;
  for (uint32_t d = 0; d < num_dims; ++d) strides[d] = 0;
  int64_t stride = 1;
  for (size_t r = map->num_results; r-- > 0;) {
    int64_t d;
    if (!kiln_ir_affine_map_result_is_dim(map, r, &d) || d < 0 ||
        d >= (int64_t)num_dims || strides[d]) {
      return false;
    }
    strides[d] = stride;
    stride *= t->shaped.dims[r];
  }
  return true;
}

// The stride of the flat batch index in an operand whose batch loop
// |batch_dims[i]| (extent |extents[i]|) has element stride |strides[..]|:
// the loops of extent > 1 must step it by batch_stride * (extent of the
// later batch loops), so that batch b sits at b * batch_stride.
static bool kiln_cpu_flat_batch_stride(const int64_t* strides,
                                       const int64_t* batch_dims,
                                       const int64_t* extents, size_t count,
                                       int64_t* out_stride) {
  int64_t stride = -1, weight = 1;
  for (size_t i = count; i-- > 0;) {
    if (extents[i] > 1) {
      int64_t s = strides[batch_dims[i]];
      if (stride < 0) stride = s / weight;
      if (s != stride * weight) return false;
    }
    weight *= extents[i];
  }
  *out_stride = stride < 0 ? 0 : stride;
  return true;
}

// A linalg.generic computing out[b.., m, n] += lhs[.., m, k] * rhs[.., k, n]
// with plain dims in any operand order (rank-4 ONNX MatMuls, transposed
// operands): one reduction loop, f32 mul-add body, batch loops that fold
// into one flat batch index for every operand.
static bool kiln_cpu_match_generic_matmul(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op,
                                          kiln_cpu_matmul_t* out) {
  if (!kiln_ir_op_is(op, "linalg.generic")) return false;
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, op, &s)) return false;
  if (s.num_ins != 2 || s.num_outs != 1 || s.num_dims < 3 ||
      kiln_structured_num_reductions(&s) != 1 ||
      !kiln_conv2d_body_is_mul_add(s.body)) {
    return false;
  }
  const kiln_ir_type_t* types[3];
  int64_t strides[3][KILN_STRUCTURED_MAX_DIMS];
  for (int i = 0; i < 3; ++i) {
    types[i] = kiln_ir_op_operand(op, (uint32_t)i)->type;
    if (!kiln_cpu_is_static_f32_tensor(types[i], -1) ||
        !kiln_cpu_map_strides(s.maps[i], types[i], s.num_dims, strides[i])) {
      return false;
    }
  }
  // The output holds every parallel loop: (batch.., m, n).
  const kiln_ir_affine_map_t* om = s.maps[2];
  if (om->num_results != s.num_dims - 1 || om->num_results < 2) return false;
  int64_t dk = -1, dm, dn;
  for (uint32_t d = 0; d < s.num_dims; ++d) {
    if (s.is_reduction[d]) dk = d;
  }
  if (dk < 0 ||
      !kiln_ir_affine_map_result_is_dim(om, om->num_results - 2, &dm) ||
      !kiln_ir_affine_map_result_is_dim(om, om->num_results - 1, &dn)) {
    return false;
  }
  const int64_t* ls = strides[0];
  const int64_t* rs = strides[1];
  if (ls[dn] || rs[dm] || !ls[dk] || !rs[dk] || !ls[dm] || !rs[dn]) {
    return false;
  }
  int64_t batch_dims[KILN_STRUCTURED_MAX_DIMS],
      extents[KILN_STRUCTURED_MAX_DIMS];
  size_t nb = om->num_results - 2;
  out->batch = 1;
  for (size_t i = 0; i < nb; ++i) {
    if (!kiln_ir_affine_map_result_is_dim(om, i, &batch_dims[i])) return false;
    extents[i] = s.ranges[batch_dims[i]];
    out->batch *= extents[i];
  }
  int64_t out_batch_stride;
  if (!kiln_cpu_flat_batch_stride(ls, batch_dims, extents, nb,
                                  &out->lhs_batch_stride) ||
      !kiln_cpu_flat_batch_stride(rs, batch_dims, extents, nb,
                                  &out->rhs_batch_stride) ||
      !kiln_cpu_flat_batch_stride(strides[2], batch_dims, extents, nb,
                                  &out_batch_stride)) {
    return false;
  }
  out->m = s.ranges[dm], out->n = s.ranges[dn], out->k = s.ranges[dk];
  if (out->batch > 1 && out_batch_stride != out->m * out->n) return false;
  // Unit-extent dims may have any stride: pick the plain layout then.
  if (ls[dk] == 1 || out->k == 1) {
    out->lhs_stride = out->m == 1 ? out->k : ls[dm];
  } else if (ls[dm] == 1 || out->m == 1) {
    out->lhs_transposed = true;
    out->lhs_stride = ls[dk];
  } else {
    return false;
  }
  if (rs[dn] == 1 || out->n == 1) {
    out->rhs_stride = out->k == 1 ? out->n : rs[dk];
  } else if (rs[dk] == 1 || out->k == 1) {
    out->rhs_transposed = true;
    out->rhs_stride = rs[dn];
  } else {
    return false;
  }
  return true;
}

bool kiln_cpu_match_matmul(kiln_ir_context_t* context, kiln_ir_op_t* region,
                           kiln_cpu_matmul_t* out) {
  memset(out, 0, sizeof(*out));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* mm = kiln_cpu_epilogue_root(context, region);
  if (!mm) return false;
  bool batched = kiln_ir_op_is(mm, "linalg.batch_matmul");
  bool named = batched || kiln_ir_op_is(mm, "linalg.matmul");
  // Plain named matmuls (transposed forms carry indexing_maps) or generics.
  if (named && kiln_ir_op_get_attr(mm, "indexing_maps")) return false;
  if (mm->num_operands != 3 || mm->num_results != 1) return false;
  kiln_ir_value_t* lhs = kiln_ir_op_operand(mm, 0);
  kiln_ir_value_t* rhs = kiln_ir_op_operand(mm, 1);
  kiln_ir_value_t* init = kiln_ir_op_operand(mm, 2);
  if (lhs->kind != KILN_IR_VALUE_BLOCK_ARG || lhs->owner_block != body ||
      rhs->kind != KILN_IR_VALUE_BLOCK_ARG || rhs->owner_block != body) {
    return false;
  }
  if (!kiln_cpu_is_static_f32_tensor(lhs->type, -1) ||
      !kiln_cpu_is_static_f32_tensor(rhs->type, -1) ||
      !kiln_cpu_is_static_f32_tensor(init->type, -1) ||
      !kiln_cpu_value_is_zero(init)) {
    return false;
  }
  if (named) {
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
    out->lhs_stride = out->k;
    out->lhs_batch_stride = out->m * out->k;
    out->rhs_stride = out->n;
    out->rhs_batch_stride = out->k * out->n;
  } else if (!kiln_cpu_match_generic_matmul(context, mm, out)) {
    return false;
  }
  if (out->m <= 0 || out->n <= 0 || out->k <= 0 || out->batch <= 0) {
    return false;
  }
  out->lhs_binding = lhs->index;
  out->rhs_binding = rhs->index;
  out->out_binding = kiln_dispatch_num_tensor_operands(region);
  bool ok = false;
  out->epilogue = kiln_cpu_epilogue_build(context, region, mm, &ok);
  out->epilogue_type = mm->results[0].type;
  out->bias_clamp = out->epilogue && kiln_cpu_epilogue_match_bias_clamp(
                                         context, region, mm, &out->bc);
  return ok;
}

void kiln_cpu_matmul_gemm(const kiln_cpu_matmul_t* mm, kiln_cpu_gemm_t* out) {
  memset(out, 0, sizeof(*out));
  out->batch = mm->batch;
  out->m = mm->m, out->n = mm->n, out->k = mm->k;
  out->lhs.binding = mm->lhs_binding;
  out->lhs.batch_stride = mm->lhs_batch_stride;
  out->lhs.stride = mm->lhs_stride;
  out->lhs.transposed = mm->lhs_transposed;
  // A plain B is K x N row-major: element (n, k) of the N x K RHS is at
  // k * stride + n, the gemm's transposed RHS.
  out->rhs.binding = mm->rhs_binding;
  out->rhs.batch_stride = mm->rhs_batch_stride;
  out->rhs.stride = mm->rhs_stride;
  out->rhs.transposed = !mm->rhs_transposed;
  out->out.binding = mm->out_binding;
  out->out.batch_stride = mm->m * mm->n;
  out->out.stride = mm->n;
  out->what = "f32 matmul";
  out->epilogue = mm->epilogue;
  out->epilogue_type = mm->epilogue_type;
  out->bias_clamp = mm->bias_clamp;
  out->bc = mm->bc;
}

kiln_status_t kiln_cpu_replace_region_constant(
    kiln_ir_context_t* context, kiln_ir_op_t* region, uint32_t binding,
    kiln_ir_op_t* def, const kiln_ir_type_t* type,
    const kiln_ir_attribute_t* attr) {
  kiln_ir_builder_t b = kiln_ir_builder_make(context);
  kiln_ir_builder_set_before(&b, def);
  kiln_ir_named_attribute_t named = kiln_ir_named_attr(context, "value", attr);
  kiln_ir_op_t* constant = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      &b, "arith.constant", 0, NULL, 1, &type, 1, &named, &constant));
  kiln_ir_op_set_operand(region, binding, kiln_ir_op_result(constant, 0));
  kiln_ir_op_erase(def);
  return kiln_ok_status();
}

kiln_status_t kiln_cpu_gemm_pack_constant_rhs(kiln_ir_context_t* context,
                                              kiln_ir_op_t* region,
                                              kiln_cpu_gemm_t* g) {
  const kiln_cpu_gemm_operand_t* o = &g->rhs;
  if (o->window || o->panels ||
      o->binding >= kiln_dispatch_num_tensor_operands(region)) {
    return kiln_ok_status();
  }
  kiln_ir_value_t* weight = kiln_ir_op_operand(region, o->binding);
  kiln_ir_op_t* def = weight->defining_op;
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  if (!def || !kiln_ir_op_is(def, "arith.constant") ||
      kiln_ir_value_num_uses(weight) != 1 || !body ||
      kiln_ir_value_num_uses(body->args[o->binding]) != 1) {
    return kiln_ok_status();
  }
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(def, "value");
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS ||
      value->dense.splat || !kiln_cpu_is_static_f32_tensor(weight->type, -1)) {
    return kiln_ok_status();
  }
  const int64_t P = KILN_CPU_MATMUL_PANEL;
  const int64_t K = g->k, N = g->n;
  const int64_t batches = o->batch_stride ? g->batch : 1;
  const int64_t np = (N + P - 1) / P * P;
  const int64_t count = kiln_ir_dense_num_elements(value);
  if (value->dense.size != (size_t)count * 4 ||
      batches * np * K > (1ll << 36) || o->offset < 0) {
    return kiln_ok_status();
  }
  // Element (n, k) of the logical N x K RHS of batch bi.
#define KILN_CPU_RHS_AT(bi, n, k)     \
  (o->offset + (bi)*o->batch_stride + \
   (o->transposed ? (k)*o->stride + (n) : (n)*o->stride + (k)))
  // The last element the logical view reads must lie inside the data.
  if (KILN_CPU_RHS_AT(batches - 1, N - 1, K - 1) >= count) {
    return kiln_ok_status();
  }
  // Packed straight into the attribute's arena storage (a model's
  // weights are hundreds of MB: no staging copy), panel by panel so the
  // writes are sequential; columns past N are the zero padding.
  int64_t dims[1] = {batches * np * K};
  const kiln_ir_type_t* type = kiln_ir_tensor_type_get(
      context, 1, dims, weight->type->shaped.element, NULL);
  uint8_t* packed_bytes = NULL;
  const kiln_ir_attribute_t* attr =
      type ? kiln_ir_dense_elements_attr_get_uninitialized(
                 context, type, false, (size_t)dims[0] * 4, &packed_bytes)
           : NULL;
  if (!attr || !packed_bytes) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory packing a %" PRId64 " x %" PRId64
                            " matmul weight",
                            K, N);
  }
  float* packed = (float*)packed_bytes;
  const uint8_t* src = value->dense.data;
  for (int64_t bi = 0; bi < batches; ++bi) {
    if (o->transposed) {
      // A K x N row-major weight (an ONNX MatMul's B): each K row holds
      // one P-column row of every panel. Rows in blocks of 64, so the
      // source block (64 rows) stays in cache while each panel gets 64
      // contiguous rows: BERT's 340 MB of weights packed in 0.2 s instead
      // of 1.5 s element by element.
      for (int64_t k0 = 0; k0 < K; k0 += 64) {
        const int64_t k_end = K - k0 < 64 ? K : k0 + 64;
        for (int64_t n0 = 0; n0 < np; n0 += P) {
          const int64_t width = N - n0 < P ? N - n0 : P;
          float* panel = packed + bi * np * K + n0 * K;
          for (int64_t k = k0; k < k_end; ++k) {
            memcpy(panel + k * P, src + 4 * KILN_CPU_RHS_AT(bi, n0, k),
                   (size_t)width * 4);
            if (width < P) {
              memset(panel + k * P + width, 0, (size_t)(P - width) * 4);
            }
          }
        }
      }
      continue;
    }
    for (int64_t n0 = 0; n0 < np; n0 += P) {
      float* panel = packed + bi * np * K + n0 * K;
      for (int64_t k = 0; k < K; ++k) {
        for (int64_t j = 0; j < P; ++j) {
          const int64_t n = n0 + j;
          float v = 0.0f;
          if (n < N) memcpy(&v, src + 4 * KILN_CPU_RHS_AT(bi, n, k), 4);
          panel[k * P + j] = v;
        }
      }
    }
  }
#undef KILN_CPU_RHS_AT
  KILN_RETURN_IF_ERROR(kiln_cpu_replace_region_constant(
      context, region, o->binding, def, type, attr));
  g->rhs.panels = true;
  g->rhs.transposed = false;
  g->rhs.offset = 0;
  g->rhs.stride = K * P;
  g->rhs.batch_stride = batches > 1 ? np * K : 0;
  return kiln_ok_status();
}

// Workgroups a grid should at least have so that a few threads (2-8) each
// get work and the uneven last block costs a fraction of the dispatch.
#define KILN_CPU_MATMUL_MIN_WORKGROUPS 8

// Output columns per workgroup: KILN_CPU_MATMUL_NB, halved once (to 96,
// still whole three-tile passes) while even 64-row blocks would give the
// grid fewer than KILN_CPU_MATMUL_MIN_WORKGROUPS workgroups: ResNet-50's
// 7x7 layers (49 rows, 512 columns) had 3 workgroups, so two threads split
// them 2:1. Not below 96: an im2col LHS is packed once per column block.
static int64_t kiln_cpu_gemm_nb(const kiln_cpu_gemm_t* g) {
  int64_t nb = KILN_CPU_MATMUL_NB;
  int64_t min_row_blocks =
      (g->m + KILN_CPU_MATMUL_MB - 1) / KILN_CPU_MATMUL_MB * g->batch;
  if (min_row_blocks * ((g->n + nb - 1) / nb) <
      KILN_CPU_MATMUL_MIN_WORKGROUPS) {
    // Blocks of at most half the width, of equal widths (in 16-column
    // tiles): N = 128 was 96 + 32 columns, so of two threads one did three
    // quarters of the work (DenseNet-121's 7x7 layers).
    const int64_t blocks = (g->n + nb / 2 - 1) / (nb / 2);
    const int64_t width = (g->n + blocks - 1) / blocks;
    nb = (width + 15) / 16 * 16;
  }
  return nb;
}

// Output rows per workgroup: KILN_CPU_MATMUL_WM, halved (down to one
// 16-row tile) while the grid has fewer than KILN_CPU_MATMUL_MIN_WORKGROUPS
// workgroups. A late convnet layer (13 x 13 pixels, <= 128 channels) was
// one workgroup, so one thread ran it while the others idled; DenseNet-121's
// 7x7 layers (49 x 1152 x 32) stayed one workgroup with row blocks of 64.
// Smaller row blocks only repack the RHS panel more often (not at all when
// it is packed at compile time); K is not split, so every output element
// sums in the same order as before. The choice depends on shapes only, not
// on the worker count.
static int64_t kiln_cpu_gemm_wm(const kiln_cpu_gemm_t* g) {
  int64_t nb = kiln_cpu_gemm_nb(g);
  int64_t col_blocks = (g->n + nb - 1) / nb * g->batch;
  int64_t wm = KILN_CPU_MATMUL_WM;
  while (wm > KILN_CPU_MATMUL_MAX_TILE &&
         (g->m + wm - 1) / wm * col_blocks < KILN_CPU_MATMUL_MIN_WORKGROUPS) {
    wm /= 2;
  }
  return wm;
}

// Which grid dimension walks the row blocks. A thread's contiguous part of
// the grid (task executor) should split the larger operand between the
// threads and keep the smaller one shared: with more rows than columns
// (convolutions: activations larger than the filter) rows are the slower
// dimension (workgroup y), so each thread owns a band of whole output rows,
// the rows the next dispatch reads (ResNet-50 at 2 threads: 31.1-33.8 ->
// 28.5-29.9 ms); otherwise (BERT's matmuls: 128 rows, 768-3072 columns of
// weights) rows are the faster one (workgroup x) and each thread streams its
// own half of the weights (the other order made BERT 4-8% slower on 1 and
// 2 threads: every thread read every weight panel).
static bool kiln_cpu_gemm_rows_outer(const kiln_cpu_gemm_t* g) {
  return g->m > g->n;
}

void kiln_cpu_gemm_workgroups(const kiln_cpu_gemm_t* g, int64_t out_count[3]) {
  int64_t wm = kiln_cpu_gemm_wm(g);
  int64_t rows = (g->m + wm - 1) / wm;
  int64_t nb = kiln_cpu_gemm_nb(g);
  int64_t cols = (g->n + nb - 1) / nb;
  bool rows_outer = kiln_cpu_gemm_rows_outer(g);
  out_count[0] = rows_outer ? cols : rows;
  out_count[1] = rows_outer ? rows : cols;
  out_count[2] = g->batch;
}

uint32_t kiln_cpu_gemm_local_memory(const kiln_cpu_gemm_t* g) {
  // Packed LHS rows, packed RHS panel, accumulator tiles (rows and columns
  // rounded up to the largest tile).
  uint32_t rows = KILN_CPU_MATMUL_MB, cols = (uint32_t)kiln_cpu_gemm_nb(g);
  uint32_t kb = KILN_CPU_MATMUL_KB, wm = (uint32_t)kiln_cpu_gemm_wm(g);
  // The skinny tail tile row is at most 8 rows (the next power of two
  // below a 16-row tile).
  return 4u * (rows * kb + cols * kb + (wm + 8u) * cols) + 64u;
}

// Whether the in-place path hands |g|'s epilogue to mmt4d: a bias along
// the output rows' columns (the result's last dim is the gemm's N and each
// output row is one run of N) and a clamp.
static bool kiln_cpu_gemm_bias_clamp(const kiln_cpu_gemm_t* g) {
  const kiln_ir_type_t* t = g->epilogue_type;
  return g->bias_clamp && g->epilogue && !g->has_init && !g->out.offset &&
         g->out.stride == g->n && t && t->shaped.rank >= 1 &&
         t->shaped.dims[t->shaped.rank - 1] == g->n;
}

static void kiln_cpu_emit_operand_pointer(const char* name,
                                          const kiln_cpu_gemm_operand_t* o,
                                          bool writable,
                                          kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(out,
                    "  %sfloat* %s = (%sfloat*)ds->binding_ptrs[%u] + %" PRId64
                    " + b * %" PRId64 ";\n",
                    writable ? "" : "const ", name, writable ? "" : "const ",
                    o->binding, o->offset, o->batch_stride);
}

// Packs K block [k0, k0 + kc) of the rows [r0, r0 + count) of operand |o|
// into |dst| (|tiles| tiles of T0 x K0 rows): the pack micro-kernel for a
// strided matrix, pack_window (import 3) for an im2col window.
static void kiln_cpu_emit_operand_pack(const char* src,
                                       const kiln_cpu_gemm_operand_t* o,
                                       const char* dst, const char* r0,
                                       const char* count, const char* tiles,
                                       const char* t0,
                                       kiln_ir_string_builder_t* out) {
  if (o->window) {
    kiln_ir_sb_printf(
        out,
        "    memset(&pw, 0, sizeof(pw));\n"
        "    pw.in = %s; pw.out = %s; pw.out_stride0 = K1 * %s;\n"
        "    pw.out_size0 = %s; pw.r0 = %s; pw.rows = %s; pw.k0 = k0; pw.kc = "
        "kc;\n"
        "    pw.ow = %" PRId64 "; pw.pix_h = %" PRId64 "; pw.pix_w = %" PRId64
        ";\n"
        "    pw.ext[0] = %" PRId64 "; pw.ext[1] = %" PRId64
        "; pw.ext[2] = %" PRId64
        ";\n"
        "    pw.step[0] = %" PRId64 "; pw.step[1] = %" PRId64
        "; pw.step[2] = %" PRId64
        ";\n"
        "    pw.tile_size0 = %s; pw.elem_type = KILN_UKERNEL_ELEM_F32;\n"
        "    pw.cpu_features = features;\n"
        "    if (env->import_funcs[3](env->import_contexts[3], &pw, 0)) return "
        "KILN_CPU_FAIL_PROGRAM;\n",
        src, dst, t0, tiles, r0, count, o->ow, o->pix_h, o->pix_w, o->ext[0],
        o->ext[1], o->ext[2], o->step[0], o->step[1], o->step[2], t0);
    return;
  }
  kiln_ir_sb_printf(
      out,
      "    memset(&pp, 0, sizeof(pp));\n"
      "    pp.in = %s + %s(%s); pp.out = %s; pp.in_stride0 = %" PRId64
      ";\n"
      "    pp.out_stride0 = K1 * %s * t.K0; pp.in_size0 = %s; pp.in_size1 = "
      "kc;\n"
      "    pp.out_size0 = %s; pp.out_size1 = K1; pp.tile_size0 = %s; "
      "pp.tile_size1 = t.K0;\n"
      "    pp.elem_type = KILN_UKERNEL_ELEM_F32; pp.cpu_features = features;\n"
      "    pp.flags = %s;\n"
      "    if (env->import_funcs[0](env->import_contexts[0], &pp, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n",
      src, o->transposed ? "k0 * S + " : "k0 + S * ", r0, dst, o->stride, t0,
      count, tiles, t0,
      o->transposed ? "KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE" : "0");
}

// The elementwise consumers of |g| on output rows [begin, end) (C
// expressions) and the block's columns [n0, n0 + cols).
static void kiln_cpu_emit_gemm_epilogue(const kiln_cpu_gemm_t* g,
                                        const char* begin, const char* end,
                                        kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(
      out,
      "  {\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u] + %" PRId64
      ";\n"
      "  const int64_t BS_ = %" PRId64 ", RS_ = %" PRId64
      ";\n"
      "  for (int64_t r = %s; r < %s; ++r) {\n"
      "    for (int64_t c = n0; c < n0 + cols; ++c) {\n",
      g->out.binding, g->out.offset, g->out.batch_stride, g->out.stride, begin,
      end);
  kiln_cpu_epilogue_emit_element(g->epilogue_type, g->out.batch_stride,
                                 g->out.stride, g->epilogue, out);
  kiln_ir_sb_printf(out,
                    "    }\n"
                    "  }\n"
                    "  }\n");
}

void kiln_cpu_emit_gemm_entry(const kiln_cpu_gemm_t* g, const char* c_name,
                              kiln_ir_string_builder_t* out) {
  bool window = g->lhs.window || g->rhs.window;
  uint32_t max_binding = g->out.binding;
  if (g->lhs.binding > max_binding) max_binding = g->lhs.binding;
  if (g->rhs.binding > max_binding) max_binding = g->rhs.binding;
  if (g->has_init && g->init.binding > max_binding) {
    max_binding = g->init.binding;
  }
  kiln_ir_sb_printf(
      out,
      "// %s %" PRId64 " x %" PRId64 " x %" PRId64 " (batch %" PRId64
      "%s%s): packed tiles through the runtime's mmt4d micro-kernel.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  const int64_t M = %" PRId64 ", N = %" PRId64 ", K = %" PRId64
      ";\n"
      "  const int64_t WM = %d, MB = %d, NB = %d, KB = %d;\n"
      "  if (env->import_count < %d || ds->binding_count <= %u) return "
      "KILN_CPU_FAIL_BINDING;\n"
      "  uint64_t features = env->cpu_features;\n"
      "  kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(\n"
      "      KILN_UKERNEL_MMT4D_F32F32F32, features, KILN_UKERNEL_ISA_NATIVE, "
      "M);\n"
      "  if (t.M0 <= 0 || t.M0 > %d || t.N0 <= 0 || t.N0 > %d || t.K0 <= 0 "
      "|| KB %% t.K0%s%s) return KILN_CPU_FAIL_PROGRAM;\n"
      "  int64_t m0 = (int64_t)wg->workgroup_id_%c * WM;\n"
      "  int64_t n0 = (int64_t)wg->workgroup_id_%c * NB;\n"
      "  int64_t b = wg->workgroup_id_z;\n"
      "  if (m0 >= M || n0 >= N) return 0;\n"
      "  int64_t rows = M - m0 < WM ? M - m0 : WM;\n"
      "  int64_t cols = N - n0 < NB ? N - n0 : NB;\n",
      g->what, g->m, g->k, g->n, g->batch, window ? ", im2col" : "",
      g->rhs.panels ? ", RHS packed at compile time" : "", c_name, g->m, g->n,
      g->k, (int)kiln_cpu_gemm_wm(g), KILN_CPU_MATMUL_MB,
      (int)kiln_cpu_gemm_nb(g), KILN_CPU_MATMUL_KB, window ? 4 : 3, max_binding,
      KILN_CPU_MATMUL_MAX_TILE, KILN_CPU_MATMUL_MAX_TILE,
      window ? " || t.K0 != 1" : "",
      g->rhs.panels ? " || t.K0 != 1 || 16 % t.N0" : "",
      kiln_cpu_gemm_rows_outer(g) ? 'y' : 'x',
      kiln_cpu_gemm_rows_outer(g) ? 'x' : 'y');
  kiln_cpu_emit_operand_pointer("lhs", &g->lhs, false, out);
  kiln_cpu_emit_operand_pointer("rhs", &g->rhs, false, out);
  kiln_cpu_emit_operand_pointer("out", &g->out, true, out);
  if (g->has_init) kiln_cpu_emit_operand_pointer("init", &g->init, false, out);
  kiln_ir_sb_printf(
      out,
      // Rows past the last full tile get a skinny tile (same N0 and K0) of
      // their own, multiplied against the same RHS panels: 49 pixels compute
      // 48 + 1 rows, not 64.
      "  kiln_ukernel_tile_sizes_t tt = t;\n"
      "  int64_t tail_rows = 0;\n"
      "  if (rows > t.M0 && rows %% t.M0) {\n"
      "    tt = kiln_ukernel_mmt4d_tile_sizes(KILN_UKERNEL_MMT4D_F32F32F32, "
      "features,\n"
      "        KILN_UKERNEL_ISA_NATIVE, rows %% t.M0);\n"
      "    if (tt.M0 < t.M0 && tt.N0 == t.N0 && tt.K0 == t.K0) tail_rows = "
      "rows %% t.M0;\n"
      "  }\n"
      "  const int64_t main_rows = rows - tail_rows;\n"
      "  int64_t M1 = (main_rows + t.M0 - 1) / t.M0, N1 = (cols + t.N0 - 1) / "
      "t.N0;\n"
      "  uint8_t* scratch = (uint8_t*)wg->local_memory;\n"
      "  size_t need = 4 * (size_t)(MB * KB + N1 * t.N0 * KB + (M1 * "
      "t.M0 + (tail_rows ? tt.M0 : 0)) * N1 * t.N0);\n"
      "  if (!scratch || wg->local_memory_size < need) return "
      "KILN_CPU_FAIL_PROGRAM;\n"
      "  float* lhs_p = (float*)scratch;\n"
      "  float* rhs_p = lhs_p + MB * KB;\n"
      "  float* acc = rhs_p + N1 * t.N0 * KB;\n"
      "  float* acc_tail = acc + M1 * t.M0 * N1 * t.N0;\n"
      "%s"
      "  kiln_ukernel_pack_params_t pp;\n",
      window ? "  kiln_ukernel_pack_window_params_t pw;\n" : "");
  // Where every tile of the block is whole (full column tiles, row tiles
  // that fit: the skinny tail's M0 is exactly the remainder), mmt4d writes
  // the output rows in place (rm: no accumulator tiles, no unpack) and, for
  // a plain row-major LHS, reads its rows in place too (lrm: no LHS pack).
  // An init starts in the output rows instead of the tiles. The K order of
  // every sum is the same, so results are bit-identical to the packed path.
  // In place, the rows past the last full tile run as skinny tiles of
  // decreasing powers of two (169 rows: 10 x 16 + 8 + 1), each exactly
  // filled; the packed path pads one tile instead (a 9-15 row remainder
  // used to send SqueezeNet's 169- and 729-row layers down it).
  bool lhs_row_major = !g->lhs.window && !g->lhs.transposed;
  kiln_ir_sb_printf(
      out,
      "  const int64_t full_rows = rows / t.M0 * t.M0;\n"
      "  int pieces_whole = 1;\n"
      "  for (int64_t rem = rows - full_rows; rem > 0;) {\n"
      "    int64_t p = 1;\n"
      "    while (p * 2 <= rem) p *= 2;\n"
      "    const kiln_ukernel_tile_sizes_t ps = "
      "kiln_ukernel_mmt4d_tile_sizes(\n"
      "        KILN_UKERNEL_MMT4D_F32F32F32, features, "
      "KILN_UKERNEL_ISA_NATIVE, "
      "p);\n"
      "    if (ps.M0 != p || ps.N0 != t.N0 || ps.K0 != t.K0) {\n"
      "      pieces_whole = 0;\n"
      "      break;\n"
      "    }\n"
      "    rem -= p;\n"
      "  }\n"
      "  const int rm = t.K0 == 1 && cols %% t.N0 == 0 && pieces_whole;\n"
      "  const int lrm = %d && rm;\n",
      lhs_row_major ? 1 : 0);
  if (g->has_init) {
    const char* init_at = g->init_per_column ? "init[c]"
                          : g->init_per_row  ? "init[r]"
                                             : "init[r * IS_ + c]";
    kiln_ir_sb_printf(out,
                      "  if (rm) {\n"
                      "    const int64_t OS_ = %" PRId64 ", IS_ = %" PRId64
                      ";\n"
                      "    (void)IS_;\n"
                      "    for (int64_t r = m0; r < m0 + rows; ++r) {\n"
                      "      for (int64_t c = n0; c < n0 + cols; ++c) {\n"
                      "        out[r * OS_ + c] = %s;\n"
                      "      }\n"
                      "    }\n"
                      "  }\n",
                      g->out.stride, g->init.stride, init_at);
    kiln_ir_sb_printf(out,
                      "  for (int part = 0; part < 2 && !rm; ++part) {\n"
                      "  const kiln_ukernel_tile_sizes_t pt = part ? tt : t;\n"
                      "  const int64_t prow0 = part ? main_rows : 0;\n"
                      "  const int64_t pcount = part ? tail_rows : main_rows;\n"
                      "  const int64_t pm1 = part ? 1 : M1;\n"
                      "  float* pacc = part ? acc_tail : acc;\n"
                      "  if (!pcount) continue;\n");
  }
  if (g->has_init && (g->init_per_column || g->init_per_row)) {
    // The broadcast vector fills the accumulator tiles (padding lanes get
    // 0: unpack never writes them).
    kiln_ir_sb_printf(
        out,
        "  for (int64_t m1 = 0; m1 < pm1; ++m1) {\n"
        "    for (int64_t n1 = 0; n1 < N1; ++n1) {\n"
        "      float* tile = pacc + (m1 * N1 + n1) * pt.M0 * t.N0;\n"
        "      for (int64_t i = 0; i < pt.M0; ++i) {\n"
        "        for (int64_t j = 0; j < t.N0; ++j) {\n"
        "          int64_t r = m1 * pt.M0 + i, c = n1 * t.N0 + j;\n"
        "          tile[i * t.N0 + j] = r < pcount && c < cols ? init[%s] : "
        "0.0f;\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  }\n",
        g->init_per_column ? "n0 + c" : "m0 + prow0 + r");
  } else if (g->has_init) {
    // The init block becomes the accumulator tiles; every K block adds.
    kiln_ir_sb_printf(
        out,
        "  memset(&pp, 0, sizeof(pp));\n"
        "  pp.in = init + (m0 + prow0) * %" PRId64
        " + n0; pp.out = pacc; pp.in_stride0 = %" PRId64
        ";\n"
        "  pp.out_stride0 = N1 * pt.M0 * t.N0; pp.in_size0 = pcount; "
        "pp.in_size1 = cols;\n"
        "  pp.out_size0 = pm1; pp.out_size1 = N1; pp.tile_size0 = pt.M0; "
        "pp.tile_size1 = t.N0;\n"
        "  pp.elem_type = KILN_UKERNEL_ELEM_F32; pp.cpu_features = features;\n"
        "  if (env->import_funcs[0](env->import_contexts[0], &pp, 0)) return "
        "KILN_CPU_FAIL_PROGRAM;\n",
        g->init.stride, g->init.stride);
  }
  if (g->has_init) kiln_ir_sb_printf(out, "  }\n");
  kiln_ir_sb_printf(out,
                    "  if (MB %% t.M0) return KILN_CPU_FAIL_PROGRAM;\n"
                    "  for (int64_t k0 = 0; k0 < K; k0 += KB) {\n"
                    "    int64_t kc = K - k0 < KB ? K - k0 : KB;\n"
                    "    int64_t K1 = (kc + t.K0 - 1) / t.K0;\n");
  // A row-major K x N RHS (a matmul's B, an HWCF filter) is read in place
  // by mmt4d (rhs_stride1) for its full column tiles; only a partial last
  // tile is packed. Otherwise the RHS panel of this K block is packed once.
  bool direct = !g->rhs.window && !g->rhs.panels && g->rhs.transposed &&
                g->rhs.stride <= (int64_t)UINT32_MAX;
  if (g->rhs.panels) {
    // Packed at compile time: nothing to pack.
  } else if (direct) {
    kiln_ir_sb_printf(out,
                      "    const int64_t S = %" PRId64
                      ";\n"
                      "    int64_t nfull = t.K0 == 1 ? cols / t.N0 : 0;\n"
                      "    if (nfull < N1) {\n"
                      "    int64_t tail0 = n0 + nfull * t.N0;\n"
                      "    int64_t tail_cols = cols - nfull * t.N0;\n"
                      "    int64_t tail_tiles = N1 - nfull;\n",
                      g->rhs.stride);
    kiln_cpu_emit_operand_pack("rhs", &g->rhs, "rhs_p", "tail0", "tail_cols",
                               "tail_tiles", "t.N0", out);
    kiln_ir_sb_printf(out, "    }\n");
  } else {
    kiln_ir_sb_printf(out, "    const int64_t nfull = 0;\n    {\n");
    if (!g->rhs.window) {
      kiln_ir_sb_printf(out, "    const int64_t S = %" PRId64 ";\n",
                        g->rhs.stride);
    }
    kiln_cpu_emit_operand_pack("rhs", &g->rhs, "rhs_p", "n0", "cols", "N1",
                               "t.N0", out);
    kiln_ir_sb_printf(out, "    }\n");
  }
  kiln_ir_sb_printf(out,
                    "    for (int64_t ms = 0; ms < rows;) {\n"
                    "    const int is_tail = ms >= main_rows;\n"
                    "    kiln_ukernel_tile_sizes_t tm = is_tail ? tt : t;\n"
                    "    int64_t mrows = is_tail ? tail_rows : main_rows - ms "
                    "< MB ? main_rows - ms : MB;\n"
                    "    if (rm && ms < full_rows) {\n"
                    "      tm = t;\n"
                    "      mrows = full_rows - ms < MB ? full_rows - ms : MB;\n"
                    "    } else if (rm) {\n"
                    "      int64_t p = 1;\n"
                    "      while (p * 2 <= rows - ms) p *= 2;\n"
                    "      tm = kiln_ukernel_mmt4d_tile_sizes(\n"
                    "          KILN_UKERNEL_MMT4D_F32F32F32, features, "
                    "KILN_UKERNEL_ISA_NATIVE, p);\n"
                    "      mrows = p;\n"
                    "    }\n"
                    "    int64_t mt = (mrows + tm.M0 - 1) / tm.M0;\n"
                    "    int64_t r0 = m0 + ms;\n"
                    "    float* acc_row = is_tail ? acc_tail : acc + (ms / "
                    "t.M0) * N1 * t.M0 * t.N0;\n"
                    "    ms += mrows;\n"
                    "    if (!lrm) {\n");
  if (!g->lhs.window) {
    kiln_ir_sb_printf(out, "    const int64_t S = %" PRId64 ";\n",
                      g->lhs.stride);
  }
  kiln_cpu_emit_operand_pack("lhs", &g->lhs, "lhs_p", "r0", "mrows", "mt",
                             "tm.M0", out);
  kiln_ir_sb_printf(
      out,
      "    }\n"
      "    kiln_ukernel_mmt4d_params_t mp;\n"
      "    memset(&mp, 0, sizeof(mp));\n"
      "    mp.M1 = mt; mp.K1 = K1;\n"
      "    mp.M0 = tm.M0; mp.N0 = t.N0; mp.K0 = t.K0;\n"
      "    mp.type = KILN_UKERNEL_MMT4D_F32F32F32;\n"
      "    mp.flags = %s ? KILN_UKERNEL_MMT4D_FLAG_ACCUMULATE : 0;\n"
      "    mp.cpu_features = features;\n"
      // The output tiles: packed in acc_row (ot elements apart) or the
      // output rows themselves.
      "    float* const out_row = rm ? out + r0 * %" PRId64
      " + n0 : acc_row;\n"
      "    const int64_t ot = rm ? t.N0 : tm.M0 * t.N0;\n"
      "    if (lrm) {\n"
      "      mp.flags |= KILN_UKERNEL_MMT4D_FLAG_LHS_ROW_MAJOR;\n"
      "      mp.lhs = lhs + r0 * %" PRId64 " + k0; mp.lhs_stride1 = %" PRId64
      "; mp.lhs_stride0 = tm.M0 * %" PRId64
      ";\n"
      "    } else {\n"
      "      mp.lhs = lhs_p; mp.lhs_stride0 = K1 * tm.M0 * t.K0;\n"
      "    }\n"
      "    if (rm) {\n"
      "      mp.flags |= KILN_UKERNEL_MMT4D_FLAG_OUT_ROW_MAJOR;\n"
      "      mp.out_stride1 = %" PRId64 "; mp.out_stride0 = tm.M0 * %" PRId64
      ";\n"
      "    } else {\n"
      "      mp.out_stride0 = N1 * tm.M0 * t.N0;\n"
      "    }\n",
      g->has_init ? "1" : "k0", g->out.stride, g->lhs.stride, g->lhs.stride,
      g->lhs.stride, g->out.stride, g->out.stride);
  const bool bias_clamp = kiln_cpu_gemm_bias_clamp(g);
  if (bias_clamp) {
    // The epilogue (a bias, then a clamp or SiLU) on each tile as mmt4d
    // writes it, on the last K block of the in-place path; the column of a
    // call's first tile picks its bias.
    kiln_ir_sb_printf(out,
                      "    const float* const bias = (const float*)"
                      "ds->binding_ptrs[%u] + n0;\n"
                      "    if (rm && k0 + kc >= K) {\n"
                      "      mp.flags |= KILN_UKERNEL_MMT4D_FLAG_BIAS_%s;\n",
                      g->bc.bias_binding, g->bc.silu ? "SILU" : "CLAMP");
    if (!g->bc.silu) {
      uint32_t lo_bits, hi_bits;
      memcpy(&lo_bits, &g->bc.lo, sizeof(lo_bits));
      memcpy(&hi_bits, &g->bc.hi, sizeof(hi_bits));
      kiln_ir_sb_printf(out,
                        "      mp.clamp_lo = kiln_vm_bits_to_f32(0x%08" PRIx32
                        "u);\n"
                        "      mp.clamp_hi = kiln_vm_bits_to_f32(0x%08" PRIx32
                        "u);\n",
                        lo_bits, hi_bits);
    }
    kiln_ir_sb_printf(out, "    }\n");
  }
  if (direct) {
    kiln_ir_sb_printf(
        out,
        "    if (nfull) {\n"
        "      mp.rhs = rhs + k0 * S + n0; mp.rhs_stride0 = t.N0;\n"
        "      mp.rhs_stride1 = (uint32_t)S; mp.N1 = nfull; mp.out = "
        "out_row;\n"
        "%s"
        "      if (env->import_funcs[1](env->import_contexts[1], &mp, 0)) "
        "return KILN_CPU_FAIL_PROGRAM;\n"
        "    }\n",
        bias_clamp ? "      mp.bias = bias;\n" : "");
  }
  if (g->rhs.panels) {
    // A 16-column panel holds 16 / N0 tiles: one call for all tiles when
    // N0 is 16 (panels K * 16 apart), else one per panel (tiles N0 apart,
    // K steps 16 apart).
    kiln_ir_sb_printf(
        out,
        "    const int64_t tpp = 16 / t.N0;\n"
        "    for (int64_t j = 0; j < N1; j += tpp) {\n"
        "      mp.rhs = rhs + ((n0 + j * t.N0) / 16) * (K * 16) + k0 * 16;\n"
        "      mp.rhs_stride0 = tpp == 1 ? K * 16 : t.N0;\n"
        "      mp.rhs_stride1 = tpp == 1 ? 0 : 16;\n"
        "      mp.N1 = tpp == 1 ? N1 : N1 - j < tpp ? N1 - j : tpp;\n"
        "      mp.out = out_row + j * ot;\n"
        "%s"
        "      if (env->import_funcs[1](env->import_contexts[1], &mp, 0)) "
        "return KILN_CPU_FAIL_PROGRAM;\n"
        "      if (tpp == 1) break;\n"
        "    }\n",
        bias_clamp ? "      mp.bias = bias + j * t.N0;\n" : "");
  } else {
    kiln_ir_sb_printf(
        out,
        "    if (nfull < N1) {\n"
        "      mp.rhs = rhs_p; mp.rhs_stride0 = K1 * t.N0 * t.K0; "
        "mp.rhs_stride1 "
        "= 0;\n"
        "      mp.N1 = N1 - nfull; mp.out = out_row + nfull * ot;\n"
        "%s"
        "      if (env->import_funcs[1](env->import_contexts[1], &mp, 0)) "
        "return "
        "KILN_CPU_FAIL_PROGRAM;\n"
        "    }\n",
        bias_clamp ? "      mp.bias = bias + nfull * t.N0;\n" : "");
  }
  if (g->epilogue && !bias_clamp) {
    // In place, the consumers run on each row chunk once its last K block
    // is done, while the chunk is still in the L1/L2 cache.
    kiln_ir_sb_printf(out, "    if (rm && k0 + kc >= K) {\n");
    kiln_cpu_emit_gemm_epilogue(g, "r0", "r0 + mrows", out);
    kiln_ir_sb_printf(out, "    }\n");
  }
  kiln_ir_sb_printf(out,
                    "    }\n"
                    "  }\n");
  kiln_ir_sb_printf(
      out,
      "  for (int part = 0; part < 2; ++part) {\n"
      "  const kiln_ukernel_tile_sizes_t pt = part ? tt : t;\n"
      "  const int64_t prow0 = part ? main_rows : 0;\n"
      "  const int64_t pcount = part ? tail_rows : main_rows;\n"
      "  if (!pcount || rm) continue;\n"
      "  kiln_ukernel_unpack_params_t up;\n"
      "  memset(&up, 0, sizeof(up));\n"
      "  up.in = part ? acc_tail : acc; up.out = out + (m0 + prow0) * %" PRId64
      " + n0;\n"
      "  up.in_stride0 = N1 * pt.M0 * t.N0;\n"
      "  up.out_stride0 = %" PRId64
      "; up.out_size0 = pcount; up.out_size1 = cols;\n"
      "  up.tile_size0 = pt.M0; up.tile_size1 = t.N0; up.elem_type = "
      "KILN_UKERNEL_ELEM_F32;\n"
      "  up.cpu_features = features;\n"
      "  if (env->import_funcs[2](env->import_contexts[2], &up, 0)) return "
      "KILN_CPU_FAIL_PROGRAM;\n",
      g->out.stride, g->out.stride);
  if (g->epilogue) {
    // The block's elementwise consumers, while it is in cache.
    kiln_cpu_emit_gemm_epilogue(g, "m0 + prow0", "m0 + prow0 + pcount", out);
  }
  kiln_ir_sb_printf(out,
                    "  }\n"
                    "  return 0;\n"
                    "}\n\n");
}
