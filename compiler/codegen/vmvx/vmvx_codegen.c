#include "compiler/codegen/vmvx/vmvx_codegen.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "compiler/codegen/vm/asm_function.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/ptr_map.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"

//===----------------------------------------------------------------------===//
// Values in registers
//===----------------------------------------------------------------------===//

// An index (i64) that is either a compile-time constant or a register.
typedef struct kiln_idx_t {
  bool is_const;
  int64_t c;
  uint32_t reg;
} kiln_idx_t;

// A scalar in a register: |bank| and |reg|.
typedef struct kiln_sval_t {
  int bank;
  uint32_t reg;
} kiln_sval_t;

#define KILN_CG_MAX_CACHE 1024
// Results of one structured op (every output may be one), and how many
// an op may have for its values to be kept in the cache.
#define KILN_CG_MAX_RESULTS KILN_STRUCTURED_MAX_OPERANDS
#define KILN_CG_MAX_CACHED_RESULTS 8
#define KILN_CG_MAX_PUSH 64

typedef struct kiln_cg_cache_entry_t {
  kiln_ir_op_t* op;
  uint32_t num_dims;
  kiln_idx_t point[KILN_STRUCTURED_MAX_DIMS];
  kiln_sval_t results[KILN_CG_MAX_CACHED_RESULTS];
  int scope;
} kiln_cg_cache_entry_t;

#define KILN_CG_NO_COUNT UINT32_MAX

typedef struct kiln_cg_t {
  kiln_ir_context_t* ctx;
  kiln_asm_function_t* f;
  const kiln_vmvx_codegen_options_t* options;
  kiln_ir_op_t* region;
  kiln_ir_block_t* body;
  uint32_t num_bindings;
  uint32_t* binding_regs;  // ref register per binding
  // Per binding of a run-time sized operand: the i64 register of its element
  // count (read once; loads past it read 0), else KILN_CG_NO_COUNT.
  uint32_t* binding_counts;
  kiln_ir_op_t* root;
  kiln_structured_op_t root_s;
  kiln_sval_t root_acc[KILN_CG_MAX_RESULTS];
  int scope;
  size_t cache_count;
  kiln_cg_cache_entry_t* cache;
  // Dynamic dims of the region's operands: push constant k holds dim
  // push_dims[2k+1] of operand push_dims[2k], loaded into dim_regs[k].
  uint32_t num_push;
  int64_t push_dims[2 * KILN_CG_MAX_PUSH];
  uint32_t dim_regs[KILN_CG_MAX_PUSH];
} kiln_cg_t;

static kiln_status_t kiln_cg_error(kiln_cg_t* cg, kiln_ir_op_t* op,
                                   const char* what) {
  return kiln_ir_op_emit_error(op, cg->ctx, "vmvx-codegen: %s", what);
}

static int kiln_bank_of(const kiln_ir_type_t* t) {
  if (kiln_ir_type_is_float(t)) {
    return t->flt.kind == KILN_IR_F64 ? KILN_VM_BANK_F64 : KILN_VM_BANK_F32;
  }
  if (kiln_ir_type_is_index(t)) return KILN_VM_BANK_I64;
  if (kiln_ir_type_is_integer(t)) {
    return t->integer.width > 32 ? KILN_VM_BANK_I64 : KILN_VM_BANK_I32;
  }
  return -1;
}

static const char* kiln_bank_suffix(int bank) {
  return kiln_vm_bank_suffix(bank);
}

static char kiln_p(int bank) {
  return kiln_vm_bank_prefix(bank);
}

static uint32_t kiln_idx_reg(kiln_cg_t* cg, kiln_idx_t i) {
  return i.is_const ? kiln_asm_const_i64(cg->f, i.c) : i.reg;
}

static kiln_idx_t kiln_idx_const(int64_t c) {
  kiln_idx_t i = {true, c, 0};
  return i;
}

static kiln_idx_t kiln_idx_binary(kiln_cg_t* cg, kiln_ir_affine_kind_t kind,
                                  kiln_idx_t a, kiln_idx_t b) {
  if (a.is_const && b.is_const) {
    int64_t v = 0;
    switch (kind) {
      case KILN_IR_AFFINE_ADD:
        v = a.c + b.c;
        break;
      case KILN_IR_AFFINE_MUL:
        v = a.c * b.c;
        break;
      case KILN_IR_AFFINE_MOD:
        v = b.c ? ((a.c % b.c) + b.c) % b.c : 0;
        break;
      case KILN_IR_AFFINE_FLOORDIV:
        v = b.c ? (a.c / b.c - ((a.c % b.c != 0) && ((a.c < 0) != (b.c < 0))))
                : 0;
        break;
      case KILN_IR_AFFINE_CEILDIV:
        v = b.c ? (a.c / b.c + ((a.c % b.c != 0) && ((a.c < 0) == (b.c < 0))))
                : 0;
        break;
      default:
        break;
    }
    return kiln_idx_const(v);
  }
  if (kind == KILN_IR_AFFINE_ADD) {
    if (a.is_const && a.c == 0) return b;
    if (b.is_const && b.c == 0) return a;
  }
  if (kind == KILN_IR_AFFINE_MUL) {
    if (a.is_const && a.c == 1) return b;
    if (b.is_const && b.c == 1) return a;
    if ((a.is_const && a.c == 0) || (b.is_const && b.c == 0)) {
      return kiln_idx_const(0);
    }
  }
  const char* mnemonic = "add.i64";
  switch (kind) {
    case KILN_IR_AFFINE_ADD:
      mnemonic = "add.i64";
      break;
    case KILN_IR_AFFINE_MUL:
      mnemonic = "mul.i64";
      break;
    case KILN_IR_AFFINE_MOD:
      mnemonic = "rem.s.i64";
      break;
    case KILN_IR_AFFINE_FLOORDIV:
      mnemonic = "div.s.i64";
      break;
    case KILN_IR_AFFINE_CEILDIV: {
      // (a + b - 1) / b for the non-negative indices loops produce.
      kiln_idx_t bm1 =
          kiln_idx_binary(cg, KILN_IR_AFFINE_ADD, b, kiln_idx_const(-1));
      a = kiln_idx_binary(cg, KILN_IR_AFFINE_ADD, a, bm1);
      mnemonic = "div.s.i64";
      break;
    }
    default:
      break;
  }
  uint32_t ra = kiln_idx_reg(cg, a), rb = kiln_idx_reg(cg, b);
  kiln_idx_t r = {false, 0, kiln_asm_reg(cg->f, KILN_VM_BANK_I64)};
  kiln_asm_emit(cg->f, "%s %%l%u, %%l%u, %%l%u", mnemonic, r.reg, ra, rb);
  return r;
}

static kiln_idx_t kiln_eval_expr(kiln_cg_t* cg, const kiln_ir_affine_expr_t* e,
                                 const kiln_idx_t* point) {
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
      return point[e->value];
    case KILN_IR_AFFINE_CONSTANT:
      return kiln_idx_const(e->value);
    case KILN_IR_AFFINE_SYMBOL:
      return kiln_idx_const(0);
    default: {
      kiln_idx_t a = kiln_eval_expr(cg, e->lhs, point);
      kiln_idx_t b = kiln_eval_expr(cg, e->rhs, point);
      return kiln_idx_binary(cg, e->kind, a, b);
    }
  }
}

static void kiln_eval_map(kiln_cg_t* cg, const kiln_ir_affine_map_t* map,
                          const kiln_idx_t* point, kiln_idx_t* out) {
  for (size_t r = 0; r < map->num_results; ++r) {
    out[r] = kiln_eval_expr(cg, map->results[r], point);
  }
}

//===----------------------------------------------------------------------===//
// Dynamic dims
//===----------------------------------------------------------------------===//

// Where a dim of a tensor inside the region comes from: the constant
// |value| (operand < 0), or dim |dim| of region operand |operand| (read from
// a push constant at run time).
typedef struct kiln_dim_src_t {
  int64_t value;
  int32_t operand;
  uint32_t dim;
} kiln_dim_src_t;

static bool kiln_dim_source(kiln_cg_t* cg, kiln_ir_value_t* v, size_t j,
                            int depth, kiln_dim_src_t* out);

// Dim |dim| of a source that is a scalar operand (a run-time size the host
// computed) rather than a tensor's dim.
#define KILN_DIM_SRC_SCALAR UINT32_MAX

// The source of index value |v| of the region: a constant, or a scalar
// operand of the region (its block argument).
static bool kiln_scalar_source(kiln_cg_t* cg, kiln_ir_value_t* v,
                               kiln_dim_src_t* out) {
  if (v->kind == KILN_IR_VALUE_BLOCK_ARG && v->owner_block == cg->body &&
      !kiln_ir_type_is_shaped(v->type)) {
    out->operand = (int32_t)v->index;
    out->dim = KILN_DIM_SRC_SCALAR;
    out->value = 0;
    return true;
  }
  const kiln_ir_attribute_t* c = kiln_ir_constant_value(v);
  if (!c || c->kind != KILN_IR_ATTR_INTEGER) return false;
  out->value = c->i;
  out->operand = -1;
  return true;
}

// The source of the extent of loop |d| of structured op |op|: an operand
// indexed by exactly d at some position, static extents first.
static bool kiln_loop_source(kiln_cg_t* cg, kiln_ir_op_t* op, uint32_t d,
                             int depth, kiln_dim_src_t* out) {
  kiln_structured_op_t s;
  if (kiln_structured_op_get(cg->ctx, op, &s)) return false;
  if (s.ranges[d] != KILN_IR_DYNAMIC_DIM) {
    out->value = s.ranges[d];
    out->operand = -1;
    return true;
  }
  for (uint32_t i = 0; i < s.num_ins + s.num_outs; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    if (!kiln_ir_type_is_shaped(v->type)) continue;
    for (size_t r = 0; r < s.maps[i]->num_results; ++r) {
      int64_t pos;
      if (kiln_ir_affine_map_result_is_dim(s.maps[i], r, &pos) &&
          pos == (int64_t)d && kiln_dim_source(cg, v, r, depth + 1, out)) {
        return true;
      }
    }
  }
  return false;
}

static bool kiln_dim_source(kiln_cg_t* cg, kiln_ir_value_t* v, size_t j,
                            int depth, kiln_dim_src_t* out) {
  const kiln_ir_type_t* t = v->type;
  if (depth > 32 || !kiln_ir_type_is_ranked_tensor(t) || j >= t->shaped.rank) {
    return false;
  }
  if (t->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) {
    out->value = t->shaped.dims[j];
    out->operand = -1;
    return true;
  }
  if (v->kind == KILN_IR_VALUE_BLOCK_ARG && v->owner_block == cg->body) {
    out->operand = (int32_t)v->index;
    out->dim = (uint32_t)j;
    out->value = 0;
    return true;
  }
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (def && kiln_ir_op_is(def, "tensor.empty")) {
    kiln_ir_value_t* size = kiln_structured_empty_size(def, j);
    return size && kiln_scalar_source(cg, size, out);
  }
  if (!def || !kiln_structured_op_is(def)) return false;
  kiln_structured_op_t s;
  if (kiln_structured_op_get(cg->ctx, def, &s)) return false;
  int64_t pos;
  if (!kiln_ir_affine_map_result_is_dim(s.maps[s.num_ins + v->index], j,
                                        &pos)) {
    return false;
  }
  return kiln_loop_source(cg, def, (uint32_t)pos, depth, out);
}

// The value of a dim source in this executable.
static kiln_idx_t kiln_dim_value(kiln_cg_t* cg, kiln_dim_src_t src) {
  if (src.operand < 0) return kiln_idx_const(src.value);
  for (uint32_t k = 0; k < cg->num_push; ++k) {
    int64_t dim = src.dim == KILN_DIM_SRC_SCALAR ? -1 : (int64_t)src.dim;
    if (cg->push_dims[2 * k] == src.operand &&
        cg->push_dims[2 * k + 1] == dim) {
      kiln_idx_t r = {false, 0, cg->dim_regs[k]};
      return r;
    }
  }
  return kiln_idx_const(0);  // unreachable: every operand dim is pushed
}

// Dim |j| of tensor |v| of the region (a constant when static).
static kiln_status_t kiln_dim_of(kiln_cg_t* cg, kiln_ir_op_t* at,
                                 kiln_ir_value_t* v, size_t j,
                                 kiln_idx_t* out) {
  const kiln_ir_type_t* t = v->type;
  if (t->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) {
    *out = kiln_idx_const(t->shaped.dims[j]);
    return kiln_ok_status();
  }
  kiln_dim_src_t src;
  if (!kiln_dim_source(cg, v, j, 0, &src)) {
    return kiln_ir_op_emit_error(
        at, cg->ctx,
        "vmvx-codegen: cannot find the run-time size of dynamic dim %zu of a "
        "tensor in this dispatch",
        j);
  }
  *out = kiln_dim_value(cg, src);
  return kiln_ok_status();
}

// Row-major element index of |coords| in tensor |v|.
static kiln_status_t kiln_linearize(kiln_cg_t* cg, kiln_ir_op_t* at,
                                    kiln_ir_value_t* v,
                                    const kiln_idx_t* coords, kiln_idx_t* out) {
  const kiln_ir_type_t* type = v->type;
  kiln_idx_t index = kiln_idx_const(0);
  kiln_idx_t stride = kiln_idx_const(1);
  for (size_t d = type->shaped.rank; d-- > 0;) {
    kiln_idx_t term =
        kiln_idx_binary(cg, KILN_IR_AFFINE_MUL, coords[d], stride);
    index = kiln_idx_binary(cg, KILN_IR_AFFINE_ADD, index, term);
    if (d > 0) {
      kiln_idx_t dim;
      KILN_RETURN_IF_ERROR(kiln_dim_of(cg, at, v, d, &dim));
      stride = kiln_idx_binary(cg, KILN_IR_AFFINE_MUL, stride, dim);
    }
  }
  *out = index;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Loads, stores, constants
//===----------------------------------------------------------------------===//

// The VM opcode suffix of an 8/4-bit float kind ("f8e4m3fn").
static const char* kiln_small_float_suffix(kiln_ir_float_kind_t k) {
  static const char* const names[] = {"f8e4m3fn",   "f8e5m2",    "f8e4m3fnuz",
                                      "f8e5m2fnuz", "f8e8m0fnu", "f4e2m1fn"};
  return names[k - KILN_IR_F8E4M3FN];
}

// The VM cast suffix of a float type held in an f32 register in a narrower
// encoding ("f16", "bf16", "f8e4m3fn", ...), or NULL.
static const char* kiln_narrow_float_suffix(const kiln_ir_type_t* t) {
  if (!kiln_ir_type_is_float(t)) return NULL;
  if (kiln_ir_float_kind_is_small(t->flt.kind)) {
    return kiln_small_float_suffix(t->flt.kind);
  }
  if (t->flt.kind == KILN_IR_F16) return "f16";
  if (t->flt.kind == KILN_IR_BF16) return "bf16";
  return NULL;
}

// Rounds an f32 register to f16/bf16/8-/4-bit precision when |t| is one of
// those.
static void kiln_round_narrow_float(kiln_cg_t* cg, const kiln_ir_type_t* t,
                                    uint32_t reg) {
  if (!kiln_ir_type_is_float(t)) return;
  const char* to = NULL;
  const char* from = NULL;
  if (kiln_ir_float_kind_is_small(t->flt.kind)) {
    const char* sfx = kiln_small_float_suffix(t->flt.kind);
    uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    kiln_asm_emit(cg->f, "cast.f32.%s %%i%u, %%f%u", sfx, bits, reg);
    kiln_asm_emit(cg->f, "cast.%s.f32 %%f%u, %%i%u", sfx, reg, bits);
    return;
  }
  if (t->flt.kind == KILN_IR_F16) {
    to = "cast.f32.f16";
    from = "cast.f16.f32";
  } else if (t->flt.kind == KILN_IR_BF16) {
    to = "cast.f32.bf16";
    from = "cast.bf16.f32";
  } else {
    return;
  }
  uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
  kiln_asm_emit(cg->f, "%s %%i%u, %%f%u", to, bits, reg);
  kiln_asm_emit(cg->f, "%s %%f%u, %%i%u", from, reg, bits);
}

// Keeps a narrow integer canonical: sign-extended from its width (i1: 0/1).
static void kiln_normalize_int(kiln_cg_t* cg, const kiln_ir_type_t* t,
                               uint32_t reg) {
  if (!kiln_ir_type_is_integer(t) || t->integer.width >= 32) return;
  uint32_t w = t->integer.width;
  if (w == 1) {
    kiln_asm_emit(cg->f, "and.i32 %%i%u, %%i%u, %%i%u", reg, reg,
                  kiln_asm_const_i32(cg->f, 1));
    return;
  }
  uint32_t sh = kiln_asm_const_i32(cg->f, (int32_t)(32 - w));
  kiln_asm_emit(cg->f, "shl.i32 %%i%u, %%i%u, %%i%u", reg, reg, sh);
  if (t->integer.signedness == KILN_IR_UNSIGNED) {
    kiln_asm_emit(cg->f, "shr.u.i32 %%i%u, %%i%u, %%i%u", reg, reg, sh);
  } else {
    kiln_asm_emit(cg->f, "shr.s.i32 %%i%u, %%i%u, %%i%u", reg, reg, sh);
  }
}

// A zero-extended copy of a narrow integer (for unsigned ops).
static uint32_t kiln_zext_narrow(kiln_cg_t* cg, const kiln_ir_type_t* t,
                                 uint32_t reg) {
  if (!kiln_ir_type_is_integer(t) || t->integer.width >= 32) return reg;
  uint32_t r = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
  int32_t mask = (int32_t)((1u << t->integer.width) - 1u);
  kiln_asm_emit(cg->f, "and.i32 %%i%u, %%i%u, %%i%u", r, reg,
                kiln_asm_const_i32(cg->f, mask));
  return r;
}

static kiln_status_t kiln_emit_load(kiln_cg_t* cg, kiln_ir_op_t* at,
                                    const kiln_ir_type_t* t, uint32_t buffer,
                                    kiln_idx_t index, kiln_sval_t* out) {
  uint32_t ir = kiln_idx_reg(cg, index);
  int bank = kiln_bank_of(t);
  if (bank < 0) return kiln_cg_error(cg, at, "unsupported element type");
  out->bank = bank;
  out->reg = kiln_asm_reg(cg->f, bank);
  if (kiln_ir_type_is_float(t)) {
    switch (t->flt.kind) {
      case KILN_IR_F32:
        kiln_asm_emit(cg->f, "buffer.load.f32 %%f%u, %%r%u, %%l%u", out->reg,
                      buffer, ir);
        return kiln_ok_status();
      case KILN_IR_F64:
        kiln_asm_emit(cg->f, "buffer.load.f64 %%d%u, %%r%u, %%l%u", out->reg,
                      buffer, ir);
        return kiln_ok_status();
      case KILN_IR_F16:
      case KILN_IR_BF16: {
        uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
        kiln_asm_emit(cg->f, "buffer.load.i16.u %%i%u, %%r%u, %%l%u", bits,
                      buffer, ir);
        kiln_asm_emit(
            cg->f, "%s %%f%u, %%i%u",
            t->flt.kind == KILN_IR_F16 ? "cast.f16.f32" : "cast.bf16.f32",
            out->reg, bits);
        return kiln_ok_status();
      }
      default: {  // 8/4-bit kinds: one per byte
        uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
        kiln_asm_emit(cg->f, "buffer.load.i8.u %%i%u, %%r%u, %%l%u", bits,
                      buffer, ir);
        kiln_asm_emit(cg->f, "cast.%s.f32 %%f%u, %%i%u",
                      kiln_small_float_suffix(t->flt.kind), out->reg, bits);
        return kiln_ok_status();
      }
    }
  }
  uint32_t width = kiln_ir_type_is_index(t) ? 64 : t->integer.width;
  bool is_unsigned = kiln_ir_type_is_integer(t) &&
                     (t->integer.signedness == KILN_IR_UNSIGNED || width == 1);
  const char* mnemonic = NULL;
  if (width <= 8) {
    mnemonic = is_unsigned ? "buffer.load.i8.u" : "buffer.load.i8.s";
  } else if (width <= 16) {
    mnemonic = is_unsigned ? "buffer.load.i16.u" : "buffer.load.i16.s";
  } else if (width <= 32) {
    mnemonic = "buffer.load.i32";
  } else {
    mnemonic = "buffer.load.i64";
  }
  kiln_asm_emit(cg->f, "%s %%%c%u, %%r%u, %%l%u", mnemonic, kiln_p(bank),
                out->reg, buffer, ir);
  if (width == 1) kiln_normalize_int(cg, t, out->reg);
  return kiln_ok_status();
}

static kiln_status_t kiln_emit_store(kiln_cg_t* cg, kiln_ir_op_t* at,
                                     const kiln_ir_type_t* t, uint32_t buffer,
                                     kiln_idx_t index, kiln_sval_t v) {
  uint32_t ir = kiln_idx_reg(cg, index);
  if (kiln_ir_type_is_float(t)) {
    switch (t->flt.kind) {
      case KILN_IR_F32:
        kiln_asm_emit(cg->f, "buffer.store.f32 %%r%u, %%l%u, %%f%u", buffer, ir,
                      v.reg);
        return kiln_ok_status();
      case KILN_IR_F64:
        kiln_asm_emit(cg->f, "buffer.store.f64 %%r%u, %%l%u, %%d%u", buffer, ir,
                      v.reg);
        return kiln_ok_status();
      case KILN_IR_F16:
      case KILN_IR_BF16: {
        uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
        kiln_asm_emit(
            cg->f, "%s %%i%u, %%f%u",
            t->flt.kind == KILN_IR_F16 ? "cast.f32.f16" : "cast.f32.bf16", bits,
            v.reg);
        kiln_asm_emit(cg->f, "buffer.store.i16 %%r%u, %%l%u, %%i%u", buffer, ir,
                      bits);
        return kiln_ok_status();
      }
      default: {  // 8/4-bit kinds: one per byte
        uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
        kiln_asm_emit(cg->f, "cast.f32.%s %%i%u, %%f%u",
                      kiln_small_float_suffix(t->flt.kind), bits, v.reg);
        kiln_asm_emit(cg->f, "buffer.store.i8 %%r%u, %%l%u, %%i%u", buffer, ir,
                      bits);
        return kiln_ok_status();
      }
    }
  }
  if (!kiln_ir_type_is_integer(t) && !kiln_ir_type_is_index(t)) {
    return kiln_cg_error(cg, at, "unsupported element type");
  }
  uint32_t width = kiln_ir_type_is_index(t) ? 64 : t->integer.width;
  const char* mnemonic = width <= 8    ? "buffer.store.i8"
                         : width <= 16 ? "buffer.store.i16"
                         : width <= 32 ? "buffer.store.i32"
                                       : "buffer.store.i64";
  kiln_asm_emit(cg->f, "%s %%r%u, %%l%u, %%%c%u", mnemonic, buffer, ir,
                kiln_p(v.bank), v.reg);
  return kiln_ok_status();
}

// A register holding element |index| of a dense attribute.
static kiln_status_t kiln_emit_dense_element(kiln_cg_t* cg, kiln_ir_op_t* at,
                                             const kiln_ir_attribute_t* attr,
                                             int64_t index,
                                             const kiln_ir_type_t* elem,
                                             kiln_sval_t* out) {
  int bank = kiln_bank_of(elem);
  if (bank < 0) return kiln_cg_error(cg, at, "unsupported constant type");
  out->bank = bank;
  if (kiln_ir_type_is_float(elem)) {
    double v = 0;
    if (!kiln_ir_dense_get_double(attr, index, &v)) {
      return kiln_cg_error(cg, at, "bad float constant");
    }
    out->reg = bank == KILN_VM_BANK_F64 ? kiln_asm_const_f64(cg->f, v)
                                        : kiln_asm_const_f32(cg->f, (float)v);
  } else {
    int64_t v = 0;
    if (!kiln_ir_dense_get_int(attr, index, &v)) {
      return kiln_cg_error(cg, at, "bad integer constant");
    }
    out->reg = bank == KILN_VM_BANK_I64 ? kiln_asm_const_i64(cg->f, v)
                                        : kiln_asm_const_i32(cg->f, (int32_t)v);
  }
  return kiln_ok_status();
}

// A scalar constant from an INTEGER/FLOAT/BOOL attribute of type |t|.
static kiln_status_t kiln_emit_scalar_attr(kiln_cg_t* cg, kiln_ir_op_t* at,
                                           const kiln_ir_attribute_t* attr,
                                           const kiln_ir_type_t* t,
                                           kiln_sval_t* out) {
  int bank = kiln_bank_of(t);
  if (bank < 0 || !attr) return kiln_cg_error(cg, at, "unsupported constant");
  if (attr->kind == KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_emit_dense_element(cg, at, attr, 0, t, out);
  }
  out->bank = bank;
  double fv = 0;
  int64_t iv = 0;
  if (attr->kind == KILN_IR_ATTR_FLOAT) {
    fv = attr->f.value;
    // Only used for integer banks; no conversion of inf/nan/huge values.
    iv = (fv > -9.2e18 && fv < 9.2e18) ? (int64_t)fv : 0;
  } else if (attr->kind == KILN_IR_ATTR_INTEGER ||
             attr->kind == KILN_IR_ATTR_BOOL) {
    iv = attr->i;
    fv = (double)iv;
  } else {
    return kiln_cg_error(cg, at, "unsupported constant attribute");
  }
  switch (bank) {
    case KILN_VM_BANK_I32:
      out->reg = kiln_asm_const_i32(cg->f, (int32_t)iv);
      break;
    case KILN_VM_BANK_I64:
      out->reg = kiln_asm_const_i64(cg->f, iv);
      break;
    case KILN_VM_BANK_F32:
      out->reg = kiln_asm_const_f32(cg->f, (float)fv);
      break;
    default:
      out->reg = kiln_asm_const_f64(cg->f, fv);
      break;
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Scalar body ops
//===----------------------------------------------------------------------===//

typedef struct kiln_name_pair_t {
  const char* op;
  const char* vm;
} kiln_name_pair_t;

static const kiln_name_pair_t kFloatBinary[] = {
    {"arith.addf", "add"},     {"arith.subf", "sub"},
    {"arith.mulf", "mul"},     {"arith.divf", "div"},
    {"arith.remf", "rem"},     {"arith.maximumf", "max"},
    {"arith.minimumf", "min"}, {"arith.maxnumf", "max"},
    {"arith.minnumf", "min"},  {"math.copysign", "copysign"},
    {"math.atan2", "atan2"},   {"math.powf", "pow"},
};
static const kiln_name_pair_t kFloatUnary[] = {
    {"arith.negf", "neg"},
    {"math.absf", "abs"},
    {"math.sqrt", "sqrt"},
    {"math.rsqrt", "rsqrt"},
    {"math.exp", "exp"},
    {"math.exp2", "exp2"},
    {"math.expm1", "expm1"},
    {"math.log", "log"},
    {"math.log2", "log2"},
    {"math.log10", "log10"},
    {"math.log1p", "log1p"},
    {"math.sin", "sin"},
    {"math.cos", "cos"},
    {"math.tan", "tan"},
    {"math.asin", "asin"},
    {"math.acos", "acos"},
    {"math.atan", "atan"},
    {"math.sinh", "sinh"},
    {"math.cosh", "cosh"},
    {"math.tanh", "tanh"},
    {"math.asinh", "asinh"},
    {"math.acosh", "acosh"},
    {"math.atanh", "atanh"},
    {"math.floor", "floor"},
    {"math.ceil", "ceil"},
    {"math.round", "round"},
    {"math.roundeven", "roundeven"},
    {"math.trunc", "trunc"},
    {"math.erf", "erf"},
    {"math.erfc", "erfc"},
};
static const kiln_name_pair_t kIntBinary[] = {
    {"arith.addi", "add"},    {"arith.subi", "sub"},
    {"arith.muli", "mul"},    {"arith.divsi", "div.s"},
    {"arith.divui", "div.u"}, {"arith.remsi", "rem.s"},
    {"arith.remui", "rem.u"}, {"arith.andi", "and"},
    {"arith.ori", "or"},      {"arith.xori", "xor"},
    {"arith.shli", "shl"},    {"arith.shrsi", "shr.s"},
    {"arith.shrui", "shr.u"}, {"arith.maxsi", "max.s"},
    {"arith.minsi", "min.s"}, {"arith.maxui", "max.u"},
    {"arith.minui", "min.u"},
};
static const kiln_name_pair_t kIntUnary[] = {
    {"math.absi", "abs"},
    {"math.ctlz", "ctlz"},
    {"math.ctpop", "popcnt"},
};

static const char* kiln_lookup_name(const kiln_name_pair_t* table, size_t n,
                                    const kiln_ir_op_t* op) {
  for (size_t i = 0; i < n; ++i) {
    if (kiln_ir_op_is(op, table[i].op)) return table[i].vm;
  }
  return NULL;
}
#define KILN_LOOKUP(table, op) \
  kiln_lookup_name(table, sizeof(table) / sizeof(table[0]), op)

// Predicate name of arith.cmpf/cmpi from an integer or textual attribute.
static const char* kiln_predicate(kiln_ir_op_t* op, bool is_float) {
  static const char* const kF[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                   "one",   "ord", "ueq", "ugt", "uge", "ult",
                                   "ule",   "une", "uno", "true"};
  static const char* const kI[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                   "sge", "ult", "ule", "ugt", "uge"};
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "predicate");
  if (!a) return NULL;
  if (a->kind == KILN_IR_ATTR_INTEGER) {
    int64_t v = a->i;
    if (is_float) return v >= 0 && v < 16 ? kF[v] : NULL;
    return v >= 0 && v < 10 ? kI[v] : NULL;
  }
  kiln_string_view_t text = kiln_string_view_empty();
  if (a->kind == KILN_IR_ATTR_STRING || a->kind == KILN_IR_ATTR_KEYWORD) {
    text = a->str;
  } else if (a->kind == KILN_IR_ATTR_DIALECT) {
    text = kiln_ir_dialect_attr_keyword(a);
  }
  const char* const* names = is_float ? kF : kI;
  size_t count = is_float ? 16 : 10;
  for (size_t i = 0; i < count; ++i) {
    if (kiln_string_view_equal_cstr(text, names[i])) return names[i];
  }
  return NULL;
}

typedef struct kiln_body_env_t {
  kiln_ptr_map_t values;  // kiln_ir_value_t* -> kiln_sval_t*
  const kiln_idx_t* point;
  uint32_t num_dims;
} kiln_body_env_t;

static kiln_status_t kiln_env_get(kiln_cg_t* cg, kiln_body_env_t* env,
                                  kiln_ir_op_t* user, kiln_ir_value_t* v,
                                  kiln_sval_t* out);

static kiln_status_t kiln_env_put(kiln_cg_t* cg, kiln_body_env_t* env,
                                  kiln_ir_value_t* v, kiln_sval_t s) {
  kiln_sval_t* slot =
      (kiln_sval_t*)kiln_ir_arena_alloc(cg->ctx, sizeof(kiln_sval_t));
  if (!slot || !kiln_ptr_map_put(&env->values, v, slot)) {
    return kiln_ir_context_take_error(cg->ctx);
  }
  *slot = s;
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_element(kiln_cg_t* cg, kiln_ir_op_t* at,
                                         kiln_ir_value_t* v,
                                         const kiln_idx_t* coords,
                                         kiln_sval_t* out);

// Conversion ops (arith.ext*/trunc*/*tofp/fpto*/bitcast/index_cast).
static kiln_status_t kiln_emit_cast(kiln_cg_t* cg, kiln_ir_op_t* op,
                                    kiln_sval_t in, kiln_sval_t* out) {
  const kiln_ir_type_t* from = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* to = op->results[0].type;
  int tb = kiln_bank_of(to);
  if (tb < 0) return kiln_cg_error(cg, op, "unsupported cast type");
  out->bank = tb;
  out->reg = kiln_asm_reg(cg->f, tb);
  int fb = in.bank;
  bool is_unsigned_src = kiln_ir_op_is(op, "arith.uitofp") ||
                         kiln_ir_op_is(op, "arith.extui") ||
                         kiln_ir_op_is(op, "arith.index_castui");
  if (kiln_ir_op_is(op, "arith.bitcast")) {
    // 16/8/4-bit floats live in f32 registers: their bits are the encoding
    // of the (already rounded) value.
    const char* narrow_from = kiln_narrow_float_suffix(from);
    const char* narrow_to = kiln_narrow_float_suffix(to);
    if (narrow_from && tb == KILN_VM_BANK_I32) {
      kiln_asm_emit(cg->f, "cast.f32.%s %%i%u, %%f%u", narrow_from, out->reg,
                    in.reg);
      kiln_normalize_int(cg, to, out->reg);
      return kiln_ok_status();
    }
    if (narrow_to && fb == KILN_VM_BANK_I32) {
      uint32_t src = kiln_zext_narrow(cg, from, in.reg);
      kiln_asm_emit(cg->f, "cast.%s.f32 %%f%u, %%i%u", narrow_to, out->reg,
                    src);
      return kiln_ok_status();
    }
    if (fb == tb) {
      kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(tb),
                    kiln_p(tb), out->reg, kiln_p(fb), in.reg);
    } else if (fb == KILN_VM_BANK_I32 && tb == KILN_VM_BANK_F32) {
      kiln_asm_emit(cg->f, "bitcast.i32.f32 %%f%u, %%i%u", out->reg, in.reg);
    } else if (fb == KILN_VM_BANK_F32 && tb == KILN_VM_BANK_I32) {
      kiln_asm_emit(cg->f, "bitcast.f32.i32 %%i%u, %%f%u", out->reg, in.reg);
    } else if (fb == KILN_VM_BANK_I64 && tb == KILN_VM_BANK_F64) {
      kiln_asm_emit(cg->f, "bitcast.i64.f64 %%d%u, %%l%u", out->reg, in.reg);
    } else if (fb == KILN_VM_BANK_F64 && tb == KILN_VM_BANK_I64) {
      kiln_asm_emit(cg->f, "bitcast.f64.i64 %%l%u, %%d%u", out->reg, in.reg);
    } else {
      return kiln_cg_error(cg, op, "unsupported bitcast");
    }
    return kiln_ok_status();
  }
  bool from_float = kiln_ir_type_is_float(from);
  bool to_float = kiln_ir_type_is_float(to);
  if (from_float && to_float) {
    if (fb == tb) {
      kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(tb),
                    kiln_p(tb), out->reg, kiln_p(fb), in.reg);
    } else if (fb == KILN_VM_BANK_F32) {
      kiln_asm_emit(cg->f, "ext.f32.f64 %%d%u, %%f%u", out->reg, in.reg);
    } else {
      kiln_asm_emit(cg->f, "trunc.f64.f32 %%f%u, %%d%u", out->reg, in.reg);
    }
    kiln_round_narrow_float(cg, to, out->reg);
    return kiln_ok_status();
  }
  if (!from_float && to_float) {
    uint32_t src = in.reg;
    if (is_unsigned_src) src = kiln_zext_narrow(cg, from, src);
    bool narrow_unsigned = is_unsigned_src && fb == KILN_VM_BANK_I32 &&
                           kiln_ir_type_is_integer(from) &&
                           from->integer.width < 32;
    kiln_asm_emit(cg->f, "cast.%s%s.%s %%%c%u, %%%c%u",
                  (is_unsigned_src && !narrow_unsigned) ? "ui" : "si",
                  fb == KILN_VM_BANK_I64 ? "64" : "32", kiln_bank_suffix(tb),
                  kiln_p(tb), out->reg, kiln_p(fb), src);
    kiln_round_narrow_float(cg, to, out->reg);
    return kiln_ok_status();
  }
  if (from_float && !to_float) {
    bool to_unsigned = kiln_ir_op_is(op, "arith.fptoui");
    kiln_asm_emit(cg->f, "cast.%s.%s%s %%%c%u, %%%c%u", kiln_bank_suffix(fb),
                  to_unsigned ? "ui" : "si",
                  tb == KILN_VM_BANK_I64 ? "64" : "32", kiln_p(tb), out->reg,
                  kiln_p(fb), in.reg);
    if (kiln_ir_type_is_integer(to) && to->integer.width < 32) {
      // Saturate to the narrow range, as for the wide types.
      uint32_t w = to->integer.width;
      if (to_unsigned) {
        kiln_asm_emit(cg->f, "min.u.i32 %%i%u, %%i%u, %%i%u", out->reg,
                      out->reg,
                      kiln_asm_const_i32(cg->f, (int32_t)((1u << w) - 1u)));
      } else {
        kiln_asm_emit(
            cg->f, "min.s.i32 %%i%u, %%i%u, %%i%u", out->reg, out->reg,
            kiln_asm_const_i32(cg->f, (int32_t)((1u << (w - 1)) - 1u)));
        kiln_asm_emit(cg->f, "max.s.i32 %%i%u, %%i%u, %%i%u", out->reg,
                      out->reg,
                      kiln_asm_const_i32(cg->f, -(int32_t)(1u << (w - 1))));
      }
    }
    kiln_normalize_int(cg, to, out->reg);
    return kiln_ok_status();
  }
  // Integer <-> integer (index included).
  if (fb == tb) {
    uint32_t src = in.reg;
    if (is_unsigned_src) src = kiln_zext_narrow(cg, from, src);
    kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(tb),
                  kiln_p(tb), out->reg, kiln_p(fb), src);
    kiln_normalize_int(cg, to, out->reg);
  } else if (fb == KILN_VM_BANK_I32) {
    uint32_t src =
        is_unsigned_src ? kiln_zext_narrow(cg, from, in.reg) : in.reg;
    kiln_asm_emit(cg->f, "ext.i32.i64.%s %%l%u, %%i%u",
                  is_unsigned_src ? "u" : "s", out->reg, src);
  } else {
    kiln_asm_emit(cg->f, "trunc.i64.i32 %%i%u, %%l%u", out->reg, in.reg);
    kiln_normalize_int(cg, to, out->reg);
  }
  return kiln_ok_status();
}

static bool kiln_is_cast(kiln_ir_op_t* op) {
  static const char* const kCasts[] = {
      "arith.extf",       "arith.truncf",  "arith.sitofp",
      "arith.uitofp",     "arith.fptosi",  "arith.fptoui",
      "arith.extsi",      "arith.extui",   "arith.trunci",
      "arith.index_cast", "arith.bitcast", "arith.index_castui"};
  for (size_t i = 0; i < sizeof(kCasts) / sizeof(kCasts[0]); ++i) {
    if (kiln_ir_op_is(op, kCasts[i])) return true;
  }
  return false;
}

// A sign-extended copy of a narrow integer (for signed views of unsigned
// types, whose registers hold the zero-extended value).
static uint32_t kiln_sext_narrow(kiln_cg_t* cg, const kiln_ir_type_t* t,
                                 uint32_t reg) {
  if (!kiln_ir_type_is_integer(t) || t->integer.width >= 32) return reg;
  uint32_t r = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
  uint32_t sh = kiln_asm_const_i32(cg->f, (int32_t)(32 - t->integer.width));
  kiln_asm_emit(cg->f, "shl.i32 %%i%u, %%i%u, %%i%u", r, reg, sh);
  kiln_asm_emit(cg->f, "shr.s.i32 %%i%u, %%i%u, %%i%u", r, r, sh);
  return r;
}

// Width in bits of integer (or index) type |t|.
static uint32_t kiln_int_width(const kiln_ir_type_t* t) {
  return kiln_ir_type_is_index(t) ? 64 : t->integer.width;
}

// A constant of integer bank |bank|.
static uint32_t kiln_const_int(kiln_cg_t* cg, int bank, int64_t v) {
  return bank == KILN_VM_BANK_I64 ? kiln_asm_const_i64(cg->f, v)
                                  : kiln_asm_const_i32(cg->f, (int32_t)v);
}

// An i32 0/1 register widened to integer bank |bank|.
static uint32_t kiln_flag_to_bank(kiln_cg_t* cg, int bank, uint32_t flag) {
  if (bank == KILN_VM_BANK_I32) return flag;
  uint32_t r = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
  kiln_asm_emit(cg->f, "ext.i32.i64.u %%l%u, %%i%u", r, flag);
  return r;
}

// Integer ops whose VM opcode differs from the reference semantics
// (compiler/dialects/scalar_eval.c) or that have no opcode: division and
// remainder (by zero: -1 / the dividend, never a trap), floor/ceil
// division, shifts by >= the width, cttz, ipowi. Returns false when |op| is
// none of these.
static bool kiln_emit_int_special(kiln_cg_t* cg, kiln_ir_op_t* op,
                                  const kiln_sval_t* a, uint32_t n,
                                  const kiln_ir_type_t* rt, kiln_sval_t r) {
  if (!kiln_ir_type_is_integer(rt) && !kiln_ir_type_is_index(rt)) return false;
  int b = r.bank;
  const char* S = kiln_bank_suffix(b);
  char p = kiln_p(b);
  uint32_t w = kiln_int_width(rt);
  uint32_t reg_bits = b == KILN_VM_BANK_I64 ? 64 : 32;
  bool is_div = kiln_ir_op_is(op, "arith.divsi") ||
                kiln_ir_op_is(op, "arith.divui") ||
                kiln_ir_op_is(op, "arith.floordivsi") ||
                kiln_ir_op_is(op, "arith.ceildivsi") ||
                kiln_ir_op_is(op, "arith.ceildivui");
  bool is_rem =
      kiln_ir_op_is(op, "arith.remsi") || kiln_ir_op_is(op, "arith.remui");
  if ((is_div || is_rem) && n == 2) {
    bool ceil_unsigned = kiln_ir_op_is(op, "arith.ceildivui");
    bool is_unsigned = kiln_ir_op_is(op, "arith.divui") ||
                       kiln_ir_op_is(op, "arith.remui") || ceil_unsigned;
    uint32_t x = a[0].reg, y = a[1].reg;
    if (is_unsigned) {
      x = kiln_zext_narrow(cg, rt, x);
      y = kiln_zext_narrow(cg, rt, y);
    } else if (kiln_ir_type_is_integer(rt) &&
               rt->integer.signedness == KILN_IR_UNSIGNED) {
      x = kiln_sext_narrow(cg, rt, x);
      y = kiln_sext_narrow(cg, rt, y);
    }
    uint32_t zero = kiln_const_int(cg, b, 0);
    uint32_t is_zero = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t safe = kiln_asm_reg(cg->f, b);
    kiln_asm_emit(cg->f, "cmp.eq.%s %%i%u, %%%c%u, %%%c%u", S, is_zero, p, y, p,
                  zero);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, safe,
                  is_zero, p, kiln_const_int(cg, b, 1), p, y);
    const char* sign = is_unsigned ? "u" : "s";
    uint32_t q = kiln_asm_reg(cg->f, b);
    kiln_asm_emit(cg->f, "%s.%s.%s %%%c%u, %%%c%u, %%%c%u",
                  is_div ? "div" : "rem", sign, S, p, q, p, x, p, safe);
    if (kiln_ir_op_is(op, "arith.floordivsi") ||
        kiln_ir_op_is(op, "arith.ceildivsi")) {
      bool floor = kiln_ir_op_is(op, "arith.floordivsi");
      uint32_t rm = kiln_asm_reg(cg->f, b);
      kiln_asm_emit(cg->f, "rem.s.%s %%%c%u, %%%c%u, %%%c%u", S, p, rm, p, x, p,
                    safe);
      uint32_t nz = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
      uint32_t rneg = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
      uint32_t yneg = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
      uint32_t adj = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
      kiln_asm_emit(cg->f, "cmp.ne.%s %%i%u, %%%c%u, %%%c%u", S, nz, p, rm, p,
                    zero);
      kiln_asm_emit(cg->f, "cmp.lt.s.%s %%i%u, %%%c%u, %%%c%u", S, rneg, p, rm,
                    p, zero);
      kiln_asm_emit(cg->f, "cmp.lt.s.%s %%i%u, %%%c%u, %%%c%u", S, yneg, p,
                    safe, p, zero);
      // Signs differ: the quotient was rounded up (toward zero from below).
      kiln_asm_emit(cg->f, "xor.i32 %%i%u, %%i%u, %%i%u", adj, rneg, yneg);
      if (!floor) {
        kiln_asm_emit(cg->f, "xor.i32 %%i%u, %%i%u, %%i%u", adj, adj,
                      kiln_asm_const_i32(cg->f, 1));
      }
      kiln_asm_emit(cg->f, "and.i32 %%i%u, %%i%u, %%i%u", adj, adj, nz);
      uint32_t adj_b = kiln_flag_to_bank(cg, b, adj);
      kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u, %%%c%u",
                    floor ? "sub" : "add", S, p, q, p, q, p, adj_b);
    }
    if (ceil_unsigned) {
      // Round up when the unsigned division left a remainder.
      uint32_t rm = kiln_asm_reg(cg->f, b);
      kiln_asm_emit(cg->f, "rem.u.%s %%%c%u, %%%c%u, %%%c%u", S, p, rm, p, x, p,
                    safe);
      uint32_t nz = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
      kiln_asm_emit(cg->f, "cmp.ne.%s %%i%u, %%%c%u, %%%c%u", S, nz, p, rm, p,
                    zero);
      uint32_t adj_b = kiln_flag_to_bank(cg, b, nz);
      kiln_asm_emit(cg->f, "add.%s %%%c%u, %%%c%u, %%%c%u", S, p, q, p, q, p,
                    adj_b);
    }
    uint32_t on_zero = is_div ? kiln_const_int(cg, b, -1) : x;
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, r.reg,
                  is_zero, p, on_zero, p, q);
    kiln_normalize_int(cg, rt, r.reg);
    return true;
  }
  bool shl = kiln_ir_op_is(op, "arith.shli");
  bool shrs = kiln_ir_op_is(op, "arith.shrsi");
  bool shru = kiln_ir_op_is(op, "arith.shrui");
  if ((shl || shrs || shru) && n == 2) {
    uint32_t x = a[0].reg;
    uint32_t y = kiln_zext_narrow(cg, rt, a[1].reg);
    if (shru) x = kiln_zext_narrow(cg, rt, x);
    if (shrs) x = kiln_sext_narrow(cg, rt, x);
    uint32_t big = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    kiln_asm_emit(cg->f, "cmp.ge.u.%s %%i%u, %%%c%u, %%%c%u", S, big, p, y, p,
                  kiln_const_int(cg, b, w));
    uint32_t shifted = kiln_asm_reg(cg->f, b);
    kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u, %%%c%u",
                  shl ? "shl" : (shrs ? "shr.s" : "shr.u"), S, p, shifted, p, x,
                  p, y);
    uint32_t fill = kiln_const_int(cg, b, 0);
    if (shrs) {
      fill = kiln_asm_reg(cg->f, b);
      kiln_asm_emit(cg->f, "shr.s.%s %%%c%u, %%%c%u, %%%c%u", S, p, fill, p, x,
                    p, kiln_const_int(cg, b, reg_bits - 1));
    }
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, r.reg,
                  big, p, fill, p, shifted);
    kiln_normalize_int(cg, rt, r.reg);
    return true;
  }
  if (kiln_ir_op_is(op, "math.cttz") && n == 1) {
    // popcount((x & -x) - 1), at most the width (x == 0).
    uint32_t x = kiln_zext_narrow(cg, rt, a[0].reg);
    uint32_t t = kiln_asm_reg(cg->f, b);
    kiln_asm_emit(cg->f, "neg.%s %%%c%u, %%%c%u", S, p, t, p, x);
    kiln_asm_emit(cg->f, "and.%s %%%c%u, %%%c%u, %%%c%u", S, p, t, p, t, p, x);
    kiln_asm_emit(cg->f, "sub.%s %%%c%u, %%%c%u, %%%c%u", S, p, t, p, t, p,
                  kiln_const_int(cg, b, 1));
    kiln_asm_emit(cg->f, "popcnt.%s %%%c%u, %%%c%u", S, p, t, p, t);
    kiln_asm_emit(cg->f, "min.u.%s %%%c%u, %%%c%u, %%%c%u", S, p, r.reg, p, t,
                  p, kiln_const_int(cg, b, w));
    kiln_normalize_int(cg, rt, r.reg);
    return true;
  }
  if (kiln_ir_op_is(op, "math.ipowi") && n == 2) {
    // Square-and-multiply over the exponent's bits; negative exponents:
    // 1 for a base of 1, +-1 for -1, else 0.
    uint32_t base = kiln_asm_reg(cg->f, b);
    uint32_t e = kiln_asm_reg(cg->f, b);
    uint32_t res = kiln_asm_reg(cg->f, b);
    uint32_t sa = kiln_sext_narrow(cg, rt, a[0].reg);
    uint32_t sb = kiln_sext_narrow(cg, rt, a[1].reg);
    uint32_t zero = kiln_const_int(cg, b, 0);
    uint32_t one = kiln_const_int(cg, b, 1);
    uint32_t eneg = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", S, p, base, p, a[0].reg);
    kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", S, p, res, p, one);
    kiln_asm_emit(cg->f, "cmp.lt.s.%s %%i%u, %%%c%u, %%%c%u", S, eneg, p, sb, p,
                  zero);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, e,
                  eneg, p, zero, p, kiln_zext_narrow(cg, rt, a[1].reg));
    uint32_t head = kiln_asm_label(cg->f), body = kiln_asm_label(cg->f),
             done = kiln_asm_label(cg->f);
    uint32_t c = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t bit = kiln_asm_reg(cg->f, b);
    uint32_t odd = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t prod = kiln_asm_reg(cg->f, b);
    kiln_asm_place_label(cg->f, head);
    kiln_asm_emit(cg->f, "cmp.ne.%s %%i%u, %%%c%u, %%%c%u", S, c, p, e, p,
                  zero);
    kiln_asm_emit(cg->f, "br.cond %%i%u, ^L%u, ^L%u", c, body, done);
    kiln_asm_place_label(cg->f, body);
    kiln_asm_emit(cg->f, "and.%s %%%c%u, %%%c%u, %%%c%u", S, p, bit, p, e, p,
                  one);
    kiln_asm_emit(cg->f, "cmp.ne.%s %%i%u, %%%c%u, %%%c%u", S, odd, p, bit, p,
                  zero);
    kiln_asm_emit(cg->f, "mul.%s %%%c%u, %%%c%u, %%%c%u", S, p, prod, p, res, p,
                  base);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, res,
                  odd, p, prod, p, res);
    kiln_asm_emit(cg->f, "mul.%s %%%c%u, %%%c%u, %%%c%u", S, p, base, p, base,
                  p, base);
    kiln_asm_emit(cg->f, "shr.u.%s %%%c%u, %%%c%u, %%%c%u", S, p, e, p, e, p,
                  one);
    kiln_asm_emit(cg->f, "br ^L%u", head);
    kiln_asm_place_label(cg->f, done);
    uint32_t is1 = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t ism1 = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t bodd = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t m1 = kiln_const_int(cg, b, -1);
    uint32_t neg = kiln_asm_reg(cg->f, b);
    kiln_asm_emit(cg->f, "cmp.eq.%s %%i%u, %%%c%u, %%%c%u", S, is1, p, sa, p,
                  one);
    kiln_asm_emit(cg->f, "cmp.eq.%s %%i%u, %%%c%u, %%%c%u", S, ism1, p, sa, p,
                  m1);
    kiln_asm_emit(cg->f, "and.%s %%%c%u, %%%c%u, %%%c%u", S, p, bit, p, sb, p,
                  one);
    kiln_asm_emit(cg->f, "cmp.ne.%s %%i%u, %%%c%u, %%%c%u", S, bodd, p, bit, p,
                  zero);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, neg,
                  bodd, p, m1, p, one);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, neg,
                  ism1, p, neg, p, zero);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, neg,
                  is1, p, one, p, neg);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, r.reg,
                  eneg, p, neg, p, res);
    kiln_normalize_int(cg, rt, r.reg);
    return true;
  }
  return false;
}

// Float ops without a VM opcode of the same semantics: maxnumf/minnumf
// (NaN operands are ignored) and cbrt. Returns false for other ops.
static bool kiln_emit_float_special(kiln_cg_t* cg, kiln_ir_op_t* op,
                                    const kiln_sval_t* a, uint32_t n,
                                    const kiln_ir_type_t* rt, kiln_sval_t r) {
  if (!kiln_ir_type_is_float(rt)) return false;
  int b = r.bank;
  const char* S = kiln_bank_suffix(b);
  char p = kiln_p(b);
  bool maxnum = kiln_ir_op_is(op, "arith.maxnumf");
  bool minnum = kiln_ir_op_is(op, "arith.minnumf");
  if ((maxnum || minnum) && n == 2) {
    uint32_t t = kiln_asm_reg(cg->f, b);
    uint32_t nan_a = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t nan_b = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u, %%%c%u", maxnum ? "max" : "min",
                  S, p, t, p, a[0].reg, p, a[1].reg);
    kiln_asm_emit(cg->f, "isnan.%s %%i%u, %%%c%u", S, nan_a, p, a[0].reg);
    kiln_asm_emit(cg->f, "isnan.%s %%i%u, %%%c%u", S, nan_b, p, a[1].reg);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, t,
                  nan_b, p, a[0].reg, p, t);
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u", S, p, r.reg,
                  nan_a, p, a[1].reg, p, t);
    return true;
  }
  if (kiln_ir_op_is(op, "math.fpowi") && n == 2) {
    // pow with the exponent converted exactly (|e| < 2^24 in f32; beyond
    // that the result is 0, 1 or inf whatever the rounding, save the
    // parity of a -1 base).
    const kiln_ir_type_t* et = kiln_ir_op_operand(op, 1)->type;
    bool wide = a[1].bank == KILN_VM_BANK_I64;
    uint32_t e = kiln_asm_reg(cg->f, b);
    kiln_asm_emit(cg->f, "cast.si%s.%s %%%c%u, %%%c%u", wide ? "64" : "32", S,
                  p, e, wide ? 'l' : 'i',
                  wide ? a[1].reg : kiln_sext_narrow(cg, et, a[1].reg));
    kiln_asm_emit(cg->f, "pow.%s %%%c%u, %%%c%u, %%%c%u", S, p, r.reg, p,
                  a[0].reg, p, e);
    kiln_round_narrow_float(cg, rt, r.reg);
    return true;
  }
  if (kiln_ir_op_is(op, "math.cbrt") && n == 1) {
    // In f64: y = copysign(pow(|x|, 1/3), x), then one Newton step
    // y -= (y^3 - x) / (3 y^2) (kept only when finite: x = 0, inf, nan).
    uint32_t x = a[0].reg;
    if (b == KILN_VM_BANK_F32) {
      x = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
      kiln_asm_emit(cg->f, "ext.f32.f64 %%d%u, %%f%u", x, a[0].reg);
    }
    uint32_t ax = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
    uint32_t y = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
    uint32_t t = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
    uint32_t d = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
    uint32_t ny = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
    uint32_t bad = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    kiln_asm_emit(cg->f, "abs.f64 %%d%u, %%d%u", ax, x);
    kiln_asm_emit(cg->f, "pow.f64 %%d%u, %%d%u, %%d%u", y, ax,
                  kiln_asm_const_f64(cg->f, 1.0 / 3.0));
    kiln_asm_emit(cg->f, "mul.f64 %%d%u, %%d%u, %%d%u", t, y, y);
    kiln_asm_emit(cg->f, "mul.f64 %%d%u, %%d%u, %%d%u", d, t,
                  kiln_asm_const_f64(cg->f, 3.0));
    kiln_asm_emit(cg->f, "mul.f64 %%d%u, %%d%u, %%d%u", t, t, y);
    kiln_asm_emit(cg->f, "sub.f64 %%d%u, %%d%u, %%d%u", t, t, ax);
    kiln_asm_emit(cg->f, "div.f64 %%d%u, %%d%u, %%d%u", t, t, d);
    kiln_asm_emit(cg->f, "sub.f64 %%d%u, %%d%u, %%d%u", ny, y, t);
    kiln_asm_emit(cg->f, "isnan.f64 %%i%u, %%d%u", bad, ny);
    kiln_asm_emit(cg->f, "select.f64 %%d%u, %%i%u, %%d%u, %%d%u", y, bad, y,
                  ny);
    kiln_asm_emit(cg->f, "copysign.f64 %%d%u, %%d%u, %%d%u", y, y, x);
    if (b == KILN_VM_BANK_F32) {
      kiln_asm_emit(cg->f, "trunc.f64.f32 %%f%u, %%d%u", r.reg, y);
      kiln_round_narrow_float(cg, rt, r.reg);
    } else {
      kiln_asm_emit(cg->f, "mov.f64 %%d%u, %%d%u", r.reg, y);
    }
    return true;
  }
  return false;
}

static kiln_status_t kiln_emit_scalar_op(kiln_cg_t* cg, kiln_body_env_t* env,
                                         kiln_ir_op_t* op) {
  kiln_sval_t a[4];
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (kiln_ir_op_is(op, "arith.constant")) {
    kiln_sval_t r = {0, 0};
    KILN_RETURN_IF_ERROR(kiln_emit_scalar_attr(
        cg, op, kiln_ir_op_get_attr(op, "value"), op->results[0].type, &r));
    return kiln_env_put(cg, env, &op->results[0], r);
  }
  if (kiln_ir_op_is(op, "linalg.index")) {
    const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dim");
    if (!dim || dim->kind != KILN_IR_ATTR_INTEGER || dim->i < 0 ||
        (uint64_t)dim->i >= env->num_dims) {
      return kiln_cg_error(cg, op, "bad linalg.index dim");
    }
    kiln_sval_t r = {KILN_VM_BANK_I64, kiln_idx_reg(cg, env->point[dim->i])};
    return kiln_env_put(cg, env, &op->results[0], r);
  }
  if (kiln_ir_op_is(op, "tensor.extract")) {
    kiln_ir_value_t* t = kiln_ir_op_operand(op, 0);
    kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS];
    if (n - 1 > KILN_STRUCTURED_MAX_DIMS) {
      return kiln_cg_error(cg, op, "rank too large");
    }
    for (uint32_t i = 1; i < n; ++i) {
      kiln_sval_t s;
      KILN_RETURN_IF_ERROR(
          kiln_env_get(cg, env, op, kiln_ir_op_operand(op, i), &s));
      coords[i - 1].is_const = false;
      coords[i - 1].reg = s.reg;
    }
    kiln_sval_t r = {0, 0};
    KILN_RETURN_IF_ERROR(kiln_tensor_element(cg, op, t, coords, &r));
    return kiln_env_put(cg, env, &op->results[0], r);
  }
  if (n > 4 || op->num_results != 1) {
    return kiln_cg_error(cg, op, "unsupported op in a dispatch body");
  }
  for (uint32_t i = 0; i < n; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_env_get(cg, env, op, kiln_ir_op_operand(op, i), &a[i]));
  }
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* at = n ? kiln_ir_op_operand(op, 0)->type : rt;
  kiln_sval_t r = {0, 0};
  if (kiln_is_cast(op)) {
    KILN_RETURN_IF_ERROR(kiln_emit_cast(cg, op, a[0], &r));
    return kiln_env_put(cg, env, &op->results[0], r);
  }
  bool scaling_ext = kiln_ir_op_is(op, "arith.scaling_extf");
  if ((scaling_ext || kiln_ir_op_is(op, "arith.scaling_truncf")) && n == 2) {
    // Value and scale are held as f32 (both narrower): one f32 multiply or
    // divide, then one rounding to the result type.
    if (kiln_bank_of(rt) != KILN_VM_BANK_F32 || a[0].bank != KILN_VM_BANK_F32 ||
        a[1].bank != KILN_VM_BANK_F32) {
      return kiln_cg_error(cg, op, "supports f32 and narrower floats only");
    }
    r.bank = KILN_VM_BANK_F32;
    r.reg = kiln_asm_reg(cg->f, KILN_VM_BANK_F32);
    kiln_asm_emit(cg->f, "%s.f32 %%f%u, %%f%u, %%f%u",
                  scaling_ext ? "mul" : "div", r.reg, a[0].reg, a[1].reg);
    kiln_round_narrow_float(cg, rt, r.reg);
    return kiln_env_put(cg, env, &op->results[0], r);
  }
  int rb = kiln_bank_of(rt);
  if (rb < 0) return kiln_cg_error(cg, op, "unsupported result type");
  r.bank = rb;
  r.reg = kiln_asm_reg(cg->f, rb);
  const char* name = NULL;
  if (kiln_emit_int_special(cg, op, a, n, rt, r) ||
      kiln_emit_float_special(cg, op, a, n, rt, r)) {
    // Emitted.
  } else if (kiln_ir_op_is(op, "arith.select")) {
    kiln_asm_emit(cg->f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u",
                  kiln_bank_suffix(rb), kiln_p(rb), r.reg, a[0].reg, kiln_p(rb),
                  a[1].reg, kiln_p(rb), a[2].reg);
  } else if (kiln_ir_op_is(op, "arith.cmpf")) {
    const char* pred = kiln_predicate(op, true);
    if (!pred) return kiln_cg_error(cg, op, "unknown cmpf predicate");
    int ab = a[0].bank;
    if (!strcmp(pred, "true") || !strcmp(pred, "false")) {
      r.reg = kiln_asm_const_i32(cg->f, pred[0] == 't');
    } else {
      kiln_asm_emit(cg->f, "cmp.%s.%s %%i%u, %%%c%u, %%%c%u", pred,
                    kiln_bank_suffix(ab), r.reg, kiln_p(ab), a[0].reg,
                    kiln_p(ab), a[1].reg);
    }
  } else if (kiln_ir_op_is(op, "arith.cmpi")) {
    const char* pred = kiln_predicate(op, false);
    if (!pred) return kiln_cg_error(cg, op, "unknown cmpi predicate");
    int ab = a[0].bank;
    uint32_t x = a[0].reg, y = a[1].reg;
    char mn[32];
    if (pred[0] == 'u') {
      x = kiln_zext_narrow(cg, at, x);
      y = kiln_zext_narrow(cg, at, y);
      snprintf(mn, sizeof(mn), "cmp.%s.u", pred + 1);
    } else if (pred[0] == 's') {
      snprintf(mn, sizeof(mn), "cmp.%s.s", pred + 1);
    } else {
      snprintf(mn, sizeof(mn), "cmp.%s", pred);
    }
    kiln_asm_emit(cg->f, "%s.%s %%i%u, %%%c%u, %%%c%u", mn,
                  kiln_bank_suffix(ab), r.reg, kiln_p(ab), x, kiln_p(ab), y);
  } else if ((name = KILN_LOOKUP(kFloatBinary, op)) != NULL && n == 2) {
    kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u, %%%c%u", name,
                  kiln_bank_suffix(rb), kiln_p(rb), r.reg, kiln_p(rb), a[0].reg,
                  kiln_p(rb), a[1].reg);
    kiln_round_narrow_float(cg, rt, r.reg);
  } else if ((name = KILN_LOOKUP(kFloatUnary, op)) != NULL && n == 1) {
    kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u", name, kiln_bank_suffix(rb),
                  kiln_p(rb), r.reg, kiln_p(rb), a[0].reg);
    kiln_round_narrow_float(cg, rt, r.reg);
  } else if (kiln_ir_op_is(op, "math.fma") && n == 3) {
    kiln_asm_emit(cg->f, "fma.%s %%%c%u, %%%c%u, %%%c%u, %%%c%u",
                  kiln_bank_suffix(rb), kiln_p(rb), r.reg, kiln_p(rb), a[0].reg,
                  kiln_p(rb), a[1].reg, kiln_p(rb), a[2].reg);
    kiln_round_narrow_float(cg, rt, r.reg);
  } else if ((kiln_ir_op_is(op, "math.isnan") ||
              kiln_ir_op_is(op, "math.isinf")) &&
             n == 1) {
    kiln_asm_emit(cg->f, "%s.%s %%i%u, %%%c%u",
                  kiln_ir_op_is(op, "math.isnan") ? "isnan" : "isinf",
                  kiln_bank_suffix(a[0].bank), r.reg, kiln_p(a[0].bank),
                  a[0].reg);
  } else if (kiln_ir_op_is(op, "math.isfinite") && n == 1) {
    uint32_t t1 = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t t2 = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    const char* s = kiln_bank_suffix(a[0].bank);
    char p = kiln_p(a[0].bank);
    kiln_asm_emit(cg->f, "isnan.%s %%i%u, %%%c%u", s, t1, p, a[0].reg);
    kiln_asm_emit(cg->f, "isinf.%s %%i%u, %%%c%u", s, t2, p, a[0].reg);
    kiln_asm_emit(cg->f, "or.i32 %%i%u, %%i%u, %%i%u", t1, t1, t2);
    kiln_asm_emit(cg->f, "xor.i32 %%i%u, %%i%u, %%i%u", r.reg, t1,
                  kiln_asm_const_i32(cg->f, 1));
  } else if (kiln_ir_op_is(op, "math.isnormal") && n == 1) {
    // min_normal <= |x| < inf; NaN fails both ordered compares.
    const kiln_ir_type_t* ft = at;
    int ab = a[0].bank;
    const char* s = kiln_bank_suffix(ab);
    char p = kiln_p(ab);
    uint32_t m = kiln_asm_reg(cg->f, ab);
    uint32_t lo = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    uint32_t hi = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    double min_normal = ft->flt.kind == KILN_IR_F16   ? 0x1p-14
                        : ft->flt.kind == KILN_IR_F64 ? 0x1p-1022
                                                      : 0x1p-126;
    uint32_t cmin = ab == KILN_VM_BANK_F64
                        ? kiln_asm_const_f64(cg->f, min_normal)
                        : kiln_asm_const_f32(cg->f, (float)min_normal);
    uint32_t cinf = ab == KILN_VM_BANK_F64
                        ? kiln_asm_const_f64(cg->f, (double)INFINITY)
                        : kiln_asm_const_f32(cg->f, INFINITY);
    kiln_asm_emit(cg->f, "abs.%s %%%c%u, %%%c%u", s, p, m, p, a[0].reg);
    kiln_asm_emit(cg->f, "cmp.oge.%s %%i%u, %%%c%u, %%%c%u", s, lo, p, m, p,
                  cmin);
    kiln_asm_emit(cg->f, "cmp.olt.%s %%i%u, %%%c%u, %%%c%u", s, hi, p, m, p,
                  cinf);
    kiln_asm_emit(cg->f, "and.i32 %%i%u, %%i%u, %%i%u", r.reg, lo, hi);
  } else if ((name = KILN_LOOKUP(kIntBinary, op)) != NULL && n == 2) {
    uint32_t x = a[0].reg, y = a[1].reg;
    if (strstr(name, ".u")) {
      x = kiln_zext_narrow(cg, rt, x);
      y = kiln_zext_narrow(cg, rt, y);
    }
    kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u, %%%c%u", name,
                  kiln_bank_suffix(rb), kiln_p(rb), r.reg, kiln_p(rb), x,
                  kiln_p(rb), y);
    kiln_normalize_int(cg, rt, r.reg);
  } else if ((name = KILN_LOOKUP(kIntUnary, op)) != NULL && n == 1) {
    uint32_t x = kiln_zext_narrow(cg, rt, a[0].reg);
    if (!strcmp(name, "abs")) x = a[0].reg;
    kiln_asm_emit(cg->f, "%s.%s %%%c%u, %%%c%u", name, kiln_bank_suffix(rb),
                  kiln_p(rb), r.reg, kiln_p(rb), x);
    if (!strcmp(name, "ctlz") && rb == KILN_VM_BANK_I32 &&
        kiln_ir_type_is_integer(rt) && rt->integer.width < 32) {
      kiln_asm_emit(
          cg->f, "sub.i32 %%i%u, %%i%u, %%i%u", r.reg, r.reg,
          kiln_asm_const_i32(cg->f, (int32_t)(32 - rt->integer.width)));
    }
    kiln_normalize_int(cg, rt, r.reg);
  } else {
    return kiln_ir_op_emit_error(op, cg->ctx,
                                 "vmvx-codegen: unsupported op '%.*s' in a "
                                 "dispatch body",
                                 (int)op->name.size, op->name.data);
  }
  return kiln_env_put(cg, env, &op->results[0], r);
}

//===----------------------------------------------------------------------===//
// Structured ops at a point
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_op_at_point(kiln_cg_t* cg, kiln_ir_op_t* op,
                                      const kiln_idx_t* point,
                                      kiln_sval_t* results);

static kiln_status_t kiln_env_get(kiln_cg_t* cg, kiln_body_env_t* env,
                                  kiln_ir_op_t* user, kiln_ir_value_t* v,
                                  kiln_sval_t* out) {
  kiln_sval_t* slot = (kiln_sval_t*)kiln_ptr_map_get(&env->values, v);
  if (slot) {
    *out = *slot;
    return kiln_ok_status();
  }
  // A scalar operand of the region: its push constant.
  if (v->kind == KILN_IR_VALUE_BLOCK_ARG && v->owner_block == cg->body &&
      !kiln_ir_type_is_shaped(v->type)) {
    for (uint32_t k = 0; k < cg->num_push; ++k) {
      if (cg->push_dims[2 * k] != (int64_t)v->index ||
          cg->push_dims[2 * k + 1] != -1) {
        continue;
      }
      if (kiln_ir_type_is_index(v->type) ||
          (kiln_ir_type_is_integer(v->type) && v->type->integer.width > 32)) {
        out->bank = KILN_VM_BANK_I64;
        out->reg = cg->dim_regs[k];
      } else {
        out->bank = KILN_VM_BANK_I32;
        out->reg = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
        kiln_asm_emit(cg->f, "trunc.i64.i32 %%i%u, %%l%u", out->reg,
                      cg->dim_regs[k]);
      }
      return kiln_ok_status();
    }
  }
  // A value from outside the body: a scalar constant cloned into the region.
  if (v->kind == KILN_IR_VALUE_RESULT && v->defining_op &&
      kiln_ir_op_is(v->defining_op, "arith.constant") &&
      !kiln_ir_type_is_shaped(v->type)) {
    return kiln_emit_scalar_attr(cg, v->defining_op,
                                 kiln_ir_op_get_attr(v->defining_op, "value"),
                                 v->type, out);
  }
  return kiln_cg_error(cg, user,
                       "operand is not available in the dispatch (scalar "
                       "captures are not supported yet)");
}

static bool kiln_points_equal(const kiln_idx_t* a, const kiln_idx_t* b,
                              uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (a[i].is_const != b[i].is_const) return false;
    if (a[i].is_const ? a[i].c != b[i].c : a[i].reg != b[i].reg) return false;
  }
  return true;
}

// Element |coords| of tensor |v| (a binding, a constant, a fill, an
// elementwise producer or the root of the region).
static kiln_status_t kiln_tensor_element(kiln_cg_t* cg, kiln_ir_op_t* at,
                                         kiln_ir_value_t* v,
                                         const kiln_idx_t* coords,
                                         kiln_sval_t* out) {
  const kiln_ir_type_t* t = v->type;
  if (!kiln_ir_type_is_ranked_tensor(t)) {
    return kiln_cg_error(cg, at, "expected a ranked tensor operand");
  }
  const kiln_ir_type_t* elem = t->shaped.element;
  if (v->kind == KILN_IR_VALUE_BLOCK_ARG && v->owner_block == cg->body) {
    kiln_idx_t index;
    KILN_RETURN_IF_ERROR(kiln_linearize(cg, at, v, coords, &index));
    uint32_t buffer = cg->binding_regs[v->index];
    uint32_t count = cg->binding_counts[v->index];
    if (count == KILN_CG_NO_COUNT) {
      return kiln_emit_load(cg, at, elem, buffer, index, out);
    }
    // A run-time sized operand may be empty while a body still reads it
    // (the value then selected away, as concatenate and pad do): an index
    // past its run-time length reads 0 instead of the buffer.
    int bank = kiln_bank_of(elem);
    if (bank < 0) return kiln_cg_error(cg, at, "unsupported element type");
    uint32_t inside = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    kiln_asm_emit(cg->f, "cmp.lt.u.i64 %%i%u, %%l%u, %%l%u", inside,
                  kiln_idx_reg(cg, index), count);
    out->bank = bank;
    out->reg = kiln_asm_reg(cg->f, bank);
    uint32_t zero = bank == KILN_VM_BANK_F32   ? kiln_asm_const_f32(cg->f, 0)
                    : bank == KILN_VM_BANK_F64 ? kiln_asm_const_f64(cg->f, 0)
                                               : kiln_const_int(cg, bank, 0);
    kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(bank),
                  kiln_p(bank), out->reg, kiln_p(bank), zero);
    uint32_t load = kiln_asm_label(cg->f), done = kiln_asm_label(cg->f);
    kiln_asm_emit(cg->f, "br.cond %%i%u, ^L%u, ^L%u", inside, load, done);
    kiln_asm_place_label(cg->f, load);
    kiln_sval_t loaded = {0, 0};
    KILN_RETURN_IF_ERROR(kiln_emit_load(cg, at, elem, buffer, index, &loaded));
    kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(bank),
                  kiln_p(bank), out->reg, kiln_p(bank), loaded.reg);
    kiln_asm_emit(cg->f, "br ^L%u", done);
    kiln_asm_place_label(cg->f, done);
    return kiln_ok_status();
  }
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (!def) return kiln_cg_error(cg, at, "unsupported tensor operand");
  if (kiln_ir_op_is(def, "arith.constant")) {
    const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(def, "value");
    if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS ||
        !value->dense.splat) {
      return kiln_cg_error(cg, def, "non-splat constant inside a dispatch");
    }
    return kiln_emit_dense_element(cg, def, value, 0, elem, out);
  }
  if (kiln_ir_op_is(def, "tensor.empty")) {
    // Undefined contents: read as zero.
    kiln_ir_attribute_t zero = {0};
    zero.kind =
        kiln_ir_type_is_float(elem) ? KILN_IR_ATTR_FLOAT : KILN_IR_ATTR_INTEGER;
    return kiln_emit_scalar_attr(cg, def, &zero, elem, out);
  }
  if (def == cg->root) {
    *out = cg->root_acc[v->index];
    return kiln_ok_status();
  }
  if (!kiln_structured_op_is(def)) {
    return kiln_ir_op_emit_error(def, cg->ctx,
                                 "vmvx-codegen: unsupported op '%.*s' inside a "
                                 "dispatch region",
                                 (int)def->name.size, def->name.data);
  }
  kiln_structured_op_t s;
  KILN_RETURN_IF_ERROR(kiln_structured_op_get(cg->ctx, def, &s));
  // The producer's point: invert its (permutation) output map.
  const kiln_ir_affine_map_t* m = s.maps[s.num_ins + v->index];
  kiln_idx_t point[KILN_STRUCTURED_MAX_DIMS];
  for (uint32_t d = 0; d < s.num_dims; ++d) point[d] = kiln_idx_const(0);
  for (size_t r = 0; r < m->num_results; ++r) {
    int64_t pos;
    if (!kiln_ir_affine_map_result_is_dim(m, r, &pos)) {
      return kiln_cg_error(cg, def,
                           "fused producer output map is not a "
                           "permutation");
    }
    point[pos] = coords[r];
  }
  kiln_sval_t results[KILN_CG_MAX_RESULTS];
  KILN_RETURN_IF_ERROR(kiln_op_at_point(cg, def, point, results));
  *out = results[v->index];
  return kiln_ok_status();
}

// Value of operand |i| of |s| at |point|.
static kiln_status_t kiln_operand_at(kiln_cg_t* cg, kiln_structured_op_t* s,
                                     uint32_t i, const kiln_idx_t* point,
                                     kiln_sval_t* out) {
  kiln_ir_value_t* v = kiln_ir_op_operand(s->op, i);
  if (!kiln_ir_type_is_shaped(v->type)) {
    // A scalar operand (linalg.fill's value, or a scalar generic input).
    kiln_body_env_t env = {kiln_ptr_map_make(cg->ctx), point, s->num_dims};
    return kiln_env_get(cg, &env, s->op, v, out);
  }
  kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS];
  kiln_eval_map(cg, s->maps[i], point, coords);
  return kiln_tensor_element(cg, s->op, v, coords, out);
}

// Emits the body of |s| at |point| with the given out-argument values
// (NULL: read from the outs operands) and returns the yielded values.
static kiln_status_t kiln_emit_body(kiln_cg_t* cg, kiln_structured_op_t* s,
                                    const kiln_idx_t* point,
                                    const kiln_sval_t* outs,
                                    kiln_sval_t* results) {
  if (s->kind == KILN_STRUCTURED_FILL) {
    return kiln_operand_at(cg, s, 0, point, &results[0]);
  }
  if (s->kind == KILN_STRUCTURED_MATMUL ||
      s->kind == KILN_STRUCTURED_BATCH_MATMUL) {
    kiln_sval_t a, b, c;
    KILN_RETURN_IF_ERROR(kiln_operand_at(cg, s, 0, point, &a));
    KILN_RETURN_IF_ERROR(kiln_operand_at(cg, s, 1, point, &b));
    if (outs) {
      c = outs[0];
    } else {
      KILN_RETURN_IF_ERROR(kiln_operand_at(cg, s, 2, point, &c));
    }
    const kiln_ir_type_t* ct = s->op->results[0].type->shaped.element;
    int cb = kiln_bank_of(ct);
    if (a.bank != cb || b.bank != cb) {
      return kiln_cg_error(cg, s->op, "mixed-type matmul is not supported yet");
    }
    uint32_t prod = kiln_asm_reg(cg->f, cb);
    results[0].bank = cb;
    results[0].reg = kiln_asm_reg(cg->f, cb);
    kiln_asm_emit(cg->f, "mul.%s %%%c%u, %%%c%u, %%%c%u", kiln_bank_suffix(cb),
                  kiln_p(cb), prod, kiln_p(cb), a.reg, kiln_p(cb), b.reg);
    kiln_round_narrow_float(cg, ct, prod);
    kiln_normalize_int(cg, ct, prod);
    kiln_asm_emit(cg->f, "add.%s %%%c%u, %%%c%u, %%%c%u", kiln_bank_suffix(cb),
                  kiln_p(cb), results[0].reg, kiln_p(cb), c.reg, kiln_p(cb),
                  prod);
    kiln_round_narrow_float(cg, ct, results[0].reg);
    kiln_normalize_int(cg, ct, results[0].reg);
    return kiln_ok_status();
  }
  kiln_body_env_t env = {kiln_ptr_map_make(cg->ctx), point, s->num_dims};
  kiln_ir_block_t* body = s->body;
  // Block arguments are loaded lazily: only those the body uses.
  for (uint32_t i = 0; i < body->num_args; ++i) {
    kiln_ir_value_t* arg = body->args[i];
    if (kiln_ir_value_use_empty(arg)) continue;
    kiln_sval_t v;
    if (i >= s->num_ins && outs) {
      v = outs[i - s->num_ins];
    } else {
      KILN_RETURN_IF_ERROR(kiln_operand_at(cg, s, i, point, &v));
    }
    KILN_RETURN_IF_ERROR(kiln_env_put(cg, &env, arg, v));
  }
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) {
    if (kiln_ir_op_is(op, "linalg.yield")) {
      for (uint32_t r = 0; r < op->num_operands && r < KILN_CG_MAX_RESULTS;
           ++r) {
        KILN_RETURN_IF_ERROR(
            kiln_env_get(cg, &env, op, kiln_ir_op_operand(op, r), &results[r]));
      }
      return kiln_ok_status();
    }
    KILN_RETURN_IF_ERROR(kiln_emit_scalar_op(cg, &env, op));
  }
  return kiln_cg_error(cg, s->op, "body without linalg.yield");
}

// Whether output |j| of the reduction |s| is a plain sum of f32, f16 or
// bf16 values, acc + x with x independent of acc and not a product. Such
// sums are carried in f64 and rounded once at the end, so a long reduction
// keeps the accuracy of its type (sequential f32 adds lose about a bit per
// doubling of the length: 40960 x 0.001 was off by 1e-2; an f16 sum of
// 0.001s stalled at 4), as IREE's vectorized reductions do. Contractions
// (acc + a * b: matmuls, dots, convolutions) accumulate in their
// accumulator type in loop order, the type the program asks for and what
// IREE's CPU matmul kernels compute (its tests expect those values).
static bool kiln_is_float_sum(const kiln_structured_op_t* s, uint32_t j) {
  const kiln_ir_type_t* et = s->op->results[j].type->shaped.element;
  if (et->kind != KILN_IR_TYPE_FLOAT || et->flt.kind == KILN_IR_F64) {
    return false;
  }
  if (s->kind != KILN_STRUCTURED_GENERIC || !s->body || !s->body->last_op) {
    return false;
  }
  kiln_ir_value_t* acc = s->body->args[s->num_ins + j];
  kiln_ir_op_t* yield = s->body->last_op;
  if (kiln_ir_value_num_uses(acc) != 1 || j >= yield->num_operands) {
    return false;
  }
  kiln_ir_value_t* y = kiln_ir_op_operand(yield, j);
  kiln_ir_op_t* add = y->kind == KILN_IR_VALUE_RESULT ? y->defining_op : NULL;
  if (!add || !kiln_ir_op_is(add, "arith.addf") ||
      kiln_ir_value_num_uses(y) != 1) {
    return false;
  }
  kiln_ir_value_t* x =
      kiln_ir_op_operand(add, 0) == acc   ? kiln_ir_op_operand(add, 1)
      : kiln_ir_op_operand(add, 1) == acc ? kiln_ir_op_operand(add, 0)
                                          : NULL;
  kiln_ir_op_t* def =
      x && x->kind == KILN_IR_VALUE_RESULT ? x->defining_op : NULL;
  return x && !(def && kiln_ir_op_is(def, "arith.mulf"));
}

static kiln_status_t kiln_op_at_point(kiln_cg_t* cg, kiln_ir_op_t* op,
                                      const kiln_idx_t* point,
                                      kiln_sval_t* results) {
  kiln_structured_op_t s;
  KILN_RETURN_IF_ERROR(kiln_structured_op_get(cg->ctx, op, &s));
  if (s.num_outs > KILN_CG_MAX_RESULTS) {
    return kiln_cg_error(cg, op, "too many results");
  }
  bool cached = s.num_outs <= KILN_CG_MAX_CACHED_RESULTS;
  for (size_t i = 0; cached && i < cg->cache_count; ++i) {
    kiln_cg_cache_entry_t* e = &cg->cache[i];
    if (e->op == op && e->num_dims == s.num_dims &&
        kiln_points_equal(e->point, point, s.num_dims)) {
      memcpy(results, e->results, sizeof(e->results));
      return kiln_ok_status();
    }
  }
  KILN_RETURN_IF_ERROR(kiln_emit_body(cg, &s, point, NULL, results));
  if (cached && cg->cache_count < KILN_CG_MAX_CACHE) {
    kiln_cg_cache_entry_t* e = &cg->cache[cg->cache_count++];
    e->op = op;
    e->num_dims = s.num_dims;
    memcpy(e->point, point, sizeof(kiln_idx_t) * s.num_dims);
    memcpy(e->results, results, sizeof(e->results));
    e->scope = cg->scope;
  }
  return kiln_ok_status();
}

static void kiln_pop_scope(kiln_cg_t* cg) {
  while (cg->cache_count && cg->cache[cg->cache_count - 1].scope >= cg->scope) {
    --cg->cache_count;
  }
  --cg->scope;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

typedef struct kiln_loop_t {
  uint32_t iv;  // i64 register
  uint32_t head, exit;
  uint32_t end;  // i64 register of the bound
  int64_t step;  // 1 unless the caller sets another (a divisor of the extent)
} kiln_loop_t;

static kiln_loop_t kiln_loop_begin(kiln_cg_t* cg, uint32_t start_reg,
                                   uint32_t end_reg) {
  kiln_loop_t l;
  l.iv = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
  l.head = kiln_asm_label(cg->f);
  uint32_t body = kiln_asm_label(cg->f);
  l.exit = kiln_asm_label(cg->f);
  l.end = end_reg;
  l.step = 1;
  kiln_asm_emit(cg->f, "mov.i64 %%l%u, %%l%u", l.iv, start_reg);
  kiln_asm_place_label(cg->f, l.head);
  uint32_t c = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
  kiln_asm_emit(cg->f, "cmp.lt.s.i64 %%i%u, %%l%u, %%l%u", c, l.iv, end_reg);
  kiln_asm_emit(cg->f, "br.cond %%i%u, ^L%u, ^L%u", c, body, l.exit);
  kiln_asm_place_label(cg->f, body);
  cg->scope++;
  return l;
}

static void kiln_loop_end(kiln_cg_t* cg, kiln_loop_t* l) {
  kiln_pop_scope(cg);
  kiln_asm_emit(cg->f, "add.i64 %%l%u, %%l%u, %%l%u", l->iv, l->iv,
                kiln_asm_const_i64(cg->f, l->step));
  kiln_asm_emit(cg->f, "br ^L%u", l->head);
  kiln_asm_place_label(cg->f, l->exit);
}

//===----------------------------------------------------------------------===//
// One region -> one executable
//===----------------------------------------------------------------------===//

// The extent of loop |d| of structured op |op| (a register when dynamic).
static kiln_status_t kiln_loop_extent(kiln_cg_t* cg, kiln_ir_op_t* op,
                                      uint32_t d, kiln_dim_src_t* src,
                                      kiln_idx_t* out) {
  if (!kiln_loop_source(cg, op, d, 0, src)) {
    return kiln_ir_op_emit_error(
        op, cg->ctx,
        "vmvx-codegen: cannot find the run-time extent of dynamic loop d%u", d);
  }
  *out = kiln_dim_value(cg, *src);
  return kiln_ok_status();
}

// The work one dynamic extent is assumed to have when sizing workgroups
// (the count is computed at run time; only the tile height uses this).
#define KILN_VMVX_DYNAMIC_EXTENT_ESTIMATE 64

// Lanes of a long float sum (see kiln_codegen_region), and the limits
// that keep the unrolled body small: short sums and big fused bodies stay
// in order.
#define KILN_VMVX_SUM_LANES 8
#define KILN_VMVX_SUM_MIN_EXTENT 64
#define KILN_VMVX_SUM_MAX_BODY_OPS 24

// Adjacent outputs one dot8.f16 computes (the VM's KILN_VM_DOT8_LANES).
#define KILN_VMVX_DOT8_LANES 8

// The shortest reduction a dot.f32 instruction replaces: below it the
// bases and strides it needs cost about what the loop does.
#define KILN_VMVX_DOT_MIN_EXTENT 8

// Whether |e| is linear in the loop dims (sums of dims times constants):
// then an operand's element index steps by a fixed stride along any loop.
static bool kiln_is_linear_expr(const kiln_ir_affine_expr_t* e) {
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
    case KILN_IR_AFFINE_CONSTANT:
      return true;
    case KILN_IR_AFFINE_ADD:
      return kiln_is_linear_expr(e->lhs) && kiln_is_linear_expr(e->rhs);
    case KILN_IR_AFFINE_MUL:
      return (e->lhs->kind == KILN_IR_AFFINE_CONSTANT ||
              e->rhs->kind == KILN_IR_AFFINE_CONSTANT) &&
             kiln_is_linear_expr(e->lhs) && kiln_is_linear_expr(e->rhs);
    default:
      return false;
  }
}

// Whether |v| is an arith.constant splat (read as one value in a dispatch).
static bool kiln_is_splat_constant(kiln_ir_value_t* v) {
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  const kiln_ir_attribute_t* value = def && kiln_ir_op_is(def, "arith.constant")
                                         ? kiln_ir_op_get_attr(def, "value")
                                         : NULL;
  return value && value->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
         value->dense.splat;
}

// Whether |v| is the product of the root's two input block arguments.
static bool kiln_is_input_product(const kiln_structured_op_t* rs,
                                  kiln_ir_value_t* v) {
  kiln_ir_op_t* mul = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (!mul || !kiln_ir_op_is(mul, "arith.mulf")) return false;
  kiln_ir_value_t* x = kiln_ir_op_operand(mul, 0);
  kiln_ir_value_t* y = kiln_ir_op_operand(mul, 1);
  kiln_ir_value_t** args = rs->body->args;
  return (x == args[0] && y == args[1]) || (x == args[1] && y == args[0]);
}

// The reduction loop of the root |rs| that one dot.f32 / dot.f16 can
// compute, or KILN_STRUCTURED_MAX_DIMS: |rs| must be an f32 or f16 (all
// operands alike) contraction of two
// operands of the region (acc + a * b, a matmul or a generic such as a
// convolution) read through linear maps. The loop is the innermost
// reduction, or, when that one is short (a convolution's kernel width),
// the longest static reduction, which then runs innermost (another
// summation order, as IREE's own kernels choose theirs).
static uint32_t kiln_dot_loop(kiln_cg_t* cg, const kiln_structured_op_t* rs) {
  const uint32_t none = KILN_STRUCTURED_MAX_DIMS;
  if (!cg->options->use_dot_ops || rs->num_ins != 2 || rs->num_outs != 1) {
    return none;
  }
  const kiln_ir_type_t* et = kiln_ir_type_element(rs->op->results[0].type);
  if (!et || et->kind != KILN_IR_TYPE_FLOAT ||
      (et->flt.kind != KILN_IR_F32 && et->flt.kind != KILN_IR_F16)) {
    return none;
  }
  for (uint32_t i = 0; i < 3; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(rs->op, i);
    const kiln_ir_type_t* t = v->type;
    if (!kiln_ir_type_is_ranked_tensor(t) || t->shaped.element != et) {
      return none;
    }
    // The inputs: bindings of statically shaped tensors or splat constants
    // (fused producers and run-time sized reads take the general path).
    if (i < 2 && !kiln_is_splat_constant(v) &&
        (v->kind != KILN_IR_VALUE_BLOCK_ARG || v->owner_block != cg->body ||
         cg->binding_counts[v->index] != KILN_CG_NO_COUNT)) {
      return none;
    }
    const kiln_ir_affine_map_t* m = rs->maps[i];
    for (uint32_t r = 0; r < m->num_results; ++r) {
      if (!kiln_is_linear_expr(m->results[r])) return none;
    }
  }
  if (rs->kind == KILN_STRUCTURED_GENERIC) {
    kiln_ir_op_t* add = rs->body->first_op;
    kiln_ir_op_t* yield = rs->body->last_op;
    if (!add || !yield || !kiln_ir_op_is(yield, "linalg.yield") ||
        yield->num_operands != 1) {
      return none;
    }
    // mulf, addf, yield in that order, nothing else.
    kiln_ir_op_t* mul = add;
    add = mul->next;
    if (!add || add->next != yield || !kiln_ir_op_is(add, "arith.addf") ||
        kiln_ir_op_operand(yield, 0) != &add->results[0]) {
      return none;
    }
    kiln_ir_value_t* acc = rs->body->args[2];
    kiln_ir_value_t* x = kiln_ir_op_operand(add, 0);
    kiln_ir_value_t* y = kiln_ir_op_operand(add, 1);
    if (!((x == acc && kiln_is_input_product(rs, y)) ||
          (y == acc && kiln_is_input_product(rs, x)))) {
      return none;
    }
  } else if (rs->kind != KILN_STRUCTURED_MATMUL &&
             rs->kind != KILN_STRUCTURED_BATCH_MATMUL) {
    return none;
  }
  uint32_t inner = none, longest = none;
  for (uint32_t d = 0; d < rs->num_dims; ++d) {
    if (!rs->is_reduction[d]) continue;
    inner = d;
    if (rs->ranges[d] != KILN_IR_DYNAMIC_DIM &&
        (longest == none || rs->ranges[d] >= rs->ranges[longest])) {
      longest = d;
    }
  }
  if (inner == none) return none;
  if (rs->ranges[inner] == KILN_IR_DYNAMIC_DIM ||
      rs->ranges[inner] >= KILN_VMVX_DOT_MIN_EXTENT) {
    return inner;
  }
  return longest != none && rs->ranges[longest] >= KILN_VMVX_DOT_MIN_EXTENT
             ? longest
             : none;
}

// The element index (i64 register) of input |i| of |rs| at |full|.
static kiln_status_t kiln_input_index(kiln_cg_t* cg, kiln_structured_op_t* rs,
                                      uint32_t i, const kiln_idx_t* full,
                                      uint32_t* out) {
  kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS], index;
  kiln_eval_map(cg, rs->maps[i], full, coords);
  KILN_RETURN_IF_ERROR(kiln_linearize(cg, rs->op, kiln_ir_op_operand(rs->op, i),
                                      coords, &index));
  *out = kiln_idx_reg(cg, index);
  return kiln_ok_status();
}

// Whether the contraction |rs| is over f16 (dot.f16) rather than f32.
static bool kiln_dot_is_f16(const kiln_structured_op_t* rs) {
  return kiln_ir_type_element(rs->op->results[0].type)->flt.kind == KILN_IR_F16;
}

// The buffers (ref registers) the dot reads the inputs of |rs| from: a
// binding's, or for a splat constant a one-element buffer holding its
// value, made once before the loops (read at stride 0).
static kiln_status_t kiln_dot_buffers(kiln_cg_t* cg, kiln_structured_op_t* rs,
                                      uint32_t* buffers) {
  for (uint32_t i = 0; i < 2; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(rs->op, i);
    if (!kiln_is_splat_constant(v)) {
      buffers[i] = cg->binding_regs[v->index];
      continue;
    }
    kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS];
    for (size_t d = 0; d < v->type->shaped.rank; ++d) {
      coords[d] = kiln_idx_const(0);
    }
    kiln_sval_t value;
    KILN_RETURN_IF_ERROR(kiln_tensor_element(cg, rs->op, v, coords, &value));
    buffers[i] = kiln_asm_reg(cg->f, KILN_VM_BANK_REF);
    uint32_t zero = kiln_asm_const_i64(cg->f, 0);
    bool f16 = kiln_dot_is_f16(rs);
    kiln_asm_emit(cg->f, "buffer.alloc %%r%u, %%l%u", buffers[i],
                  kiln_asm_const_i64(cg->f, f16 ? 2 : 4));
    if (f16) {
      uint32_t bits = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
      kiln_asm_emit(cg->f, "cast.f32.f16 %%i%u, %%f%u", bits, value.reg);
      kiln_asm_emit(cg->f, "buffer.store.i16 %%r%u, %%l%u, %%i%u", buffers[i],
                    zero, bits);
    } else {
      kiln_asm_emit(cg->f, "buffer.store.f32 %%r%u, %%l%u, %%f%u", buffers[i],
                    zero, value.reg);
    }
  }
  return kiln_ok_status();
}

// The element index of input |i| of |rs| at |full| with loop |dot| at 0
// (|*base|, an i64 register) and its stride along |dot| (index at 1 minus
// that); both 0 for a splat constant.
static kiln_status_t kiln_dot_base_stride(kiln_cg_t* cg,
                                          kiln_structured_op_t* rs, uint32_t i,
                                          uint32_t dot, kiln_idx_t* full,
                                          uint32_t* base, uint32_t* stride) {
  if (kiln_is_splat_constant(kiln_ir_op_operand(rs->op, i))) {
    *base = *stride = kiln_asm_const_i64(cg->f, 0);
    return kiln_ok_status();
  }
  uint32_t next = 0;
  full[dot] = kiln_idx_const(0);
  KILN_RETURN_IF_ERROR(kiln_input_index(cg, rs, i, full, base));
  full[dot] = kiln_idx_const(1);
  KILN_RETURN_IF_ERROR(kiln_input_index(cg, rs, i, full, &next));
  *stride = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
  kiln_asm_emit(cg->f, "sub.i64 %%l%u, %%l%u, %%l%u", *stride, next, *base);
  return kiln_ok_status();
}

// The extent of the dot loop |dot| of |rs| (a register when dynamic).
static kiln_status_t kiln_dot_count(kiln_cg_t* cg, kiln_structured_op_t* rs,
                                    uint32_t dot, uint32_t* out) {
  kiln_idx_t count = kiln_idx_const(rs->ranges[dot]);
  if (rs->ranges[dot] == KILN_IR_DYNAMIC_DIM) {
    kiln_dim_src_t src;
    KILN_RETURN_IF_ERROR(kiln_loop_extent(cg, rs->op, dot, &src, &count));
  }
  *out = kiln_idx_reg(cg, count);
  return kiln_ok_status();
}

// The contraction |rs| over its loop |dot| as one dot.f32 / dot.f16 from
// the accumulator |acc|, the other loops at |full|, the inputs in
// |buffers|.
static kiln_status_t kiln_emit_dot(kiln_cg_t* cg, kiln_structured_op_t* rs,
                                   uint32_t dot, const uint32_t* buffers,
                                   kiln_idx_t* full, kiln_sval_t acc,
                                   kiln_sval_t* out) {
  uint32_t base[2], stride[2], count;
  for (uint32_t i = 0; i < 2; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_dot_base_stride(cg, rs, i, dot, full, &base[i], &stride[i]));
  }
  KILN_RETURN_IF_ERROR(kiln_dot_count(cg, rs, dot, &count));
  out->bank = KILN_VM_BANK_F32;
  out->reg = kiln_asm_reg(cg->f, KILN_VM_BANK_F32);
  kiln_asm_emit(cg->f,
                "%s %%f%u, %%f%u, %%r%u, %%l%u, %%l%u, %%r%u, %%l%u, %%l%u, "
                "%%l%u",
                kiln_dot_is_f16(rs) ? "dot.f16" : "dot.f32", out->reg, acc.reg,
                buffers[0], base[0], stride[0], buffers[1], base[1], stride[1],
                count);
  return kiln_ok_status();
}

// Whether the f16 contraction root, which is also the sink, computes
// KILN_VM_DOT8_LANES adjacent outputs per dot8.f16: its only reduction is
// the dot loop |dot| and its innermost parallel loop (loop |rank| - 1 of the
// loop space, not the workgroup-split loop |split|) has a static extent of
// at least the lanes (the outputs past the last whole group of lanes take
// one dot.f16 each). Each output keeps dot.f16's order and rounding; eight
// interleaved chains run about eight times as fast as one.
static bool kiln_use_dot8(kiln_cg_t* cg, kiln_ir_op_t* sink, uint32_t dot,
                          uint32_t rank, uint32_t split,
                          const int64_t* ranges) {
  kiln_structured_op_t* rs = &cg->root_s;
  return cg->root && sink == cg->root && dot < KILN_STRUCTURED_MAX_DIMS &&
         kiln_dot_is_f16(rs) && rs->num_outs == 1 &&
         kiln_structured_num_reductions(rs) == 1 && rank >= 2 &&
         split != rank - 1 && ranges[rank - 1] != KILN_IR_DYNAMIC_DIM &&
         ranges[rank - 1] >= KILN_VMVX_DOT8_LANES;
}

// The root |rs| (the sink too, kiln_use_dot8) at the KILN_VMVX_DOT8_LANES
// points |point| + q along the innermost loop: each output's accumulator
// from its outs element, one dot8.f16 over the dot loop |dot|, then each
// result stored as the sink's |ret| operand 0 (binding |out_binding|).
static kiln_status_t kiln_emit_dot8(kiln_cg_t* cg, kiln_structured_op_t* rs,
                                    uint32_t dot, const uint32_t* buffers,
                                    const kiln_idx_t* point, uint32_t rank,
                                    uint32_t out_binding) {
  kiln_idx_t full[KILN_VMVX_DOT8_LANES][KILN_STRUCTURED_MAX_DIMS];
  uint32_t acc[KILN_VMVX_DOT8_LANES];
  for (uint32_t q = 0; q < KILN_VMVX_DOT8_LANES; ++q) {
    kiln_idx_t at[KILN_STRUCTURED_MAX_DIMS];
    memcpy(at, point, sizeof(kiln_idx_t) * rank);
    if (q > 0) {
      at[rank - 1].reg = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
      kiln_asm_emit(cg->f, "add.i64 %%l%u, %%l%u, %%l%u", at[rank - 1].reg,
                    point[rank - 1].reg, kiln_asm_const_i64(cg->f, q));
    }
    for (uint32_t d = 0, p = 0; d < rs->num_dims; ++d) {
      full[q][d] = rs->is_reduction[d] ? kiln_idx_const(0) : at[p++];
    }
    kiln_sval_t init;
    kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS];
    kiln_eval_map(cg, rs->maps[rs->num_ins], full[q], coords);
    KILN_RETURN_IF_ERROR(kiln_tensor_element(
        cg, rs->op, kiln_ir_op_operand(rs->op, rs->num_ins), coords, &init));
    acc[q] = kiln_asm_reg(cg->f, KILN_VM_BANK_F32);
    kiln_asm_emit(cg->f, "mov.f32 %%f%u, %%f%u", acc[q], init.reg);
  }
  // Lane 0's indices and strides; each input's step between lanes is lane
  // 1's index minus lane 0's (the maps are linear).
  uint32_t base[2], stride[2], step[2], count;
  for (uint32_t i = 0; i < 2; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_dot_base_stride(cg, rs, i, dot, full[0], &base[i], &stride[i]));
    if (kiln_is_splat_constant(kiln_ir_op_operand(rs->op, i))) {
      step[i] = base[i];  // 0
      continue;
    }
    uint32_t base1 = 0;
    full[1][dot] = kiln_idx_const(0);
    KILN_RETURN_IF_ERROR(kiln_input_index(cg, rs, i, full[1], &base1));
    step[i] = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    kiln_asm_emit(cg->f, "sub.i64 %%l%u, %%l%u, %%l%u", step[i], base1,
                  base[i]);
  }
  KILN_RETURN_IF_ERROR(kiln_dot_count(cg, rs, dot, &count));
  kiln_asm_emit(cg->f,
                "dot8.f16 %%f%u, %%f%u, %%f%u, %%f%u, %%f%u, %%f%u, %%f%u, "
                "%%f%u, %%r%u, %%l%u, %%l%u, %%l%u, %%r%u, %%l%u, %%l%u, "
                "%%l%u, %%l%u",
                acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7],
                buffers[0], base[0], stride[0], step[0], buffers[1], base[1],
                stride[1], step[1], count);
  kiln_ir_value_t* v = &rs->op->results[0];
  for (uint32_t q = 0; q < KILN_VMVX_DOT8_LANES; ++q) {
    kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS], index;
    kiln_eval_map(cg, rs->maps[rs->num_ins], full[q], coords);
    KILN_RETURN_IF_ERROR(kiln_linearize(cg, rs->op, v, coords, &index));
    kiln_sval_t value = {KILN_VM_BANK_F32, acc[q]};
    KILN_RETURN_IF_ERROR(kiln_emit_store(cg, rs->op, v->type->shaped.element,
                                         cg->binding_regs[out_binding], index,
                                         value));
  }
  return kiln_ok_status();
}

static uint32_t kiln_block_op_count(const kiln_ir_block_t* b) {
  uint32_t n = 0;
  for (const kiln_ir_op_t* op = b->first_op; op; op = op->next) ++n;
  return n;
}

// One term of a lane-split float sum: the body at index |index| (an i64
// register) of loop |inner|, widened and added to the f64 lane |acc|.
static kiln_status_t kiln_emit_sum_term(kiln_cg_t* cg, kiln_structured_op_t* rs,
                                        uint32_t inner, uint32_t index,
                                        kiln_idx_t* full, kiln_sval_t* body_acc,
                                        uint32_t acc) {
  full[inner].is_const = false;
  full[inner].reg = index;
  kiln_sval_t y[KILN_CG_MAX_RESULTS];
  KILN_RETURN_IF_ERROR(kiln_emit_body(cg, rs, full, body_acc, y));
  uint32_t x = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
  kiln_asm_emit(cg->f, "ext.f32.f64 %%d%u, %%f%u", x, y[0].reg);
  kiln_asm_emit(cg->f, "add.f64 %%d%u, %%d%u, %%d%u", acc, acc, x);
  return kiln_ok_status();
}

// The innermost reduction loop |inner| of the float sum |rs| (one output),
// split into KILN_VMVX_SUM_LANES interleaved f64 partial sums |acc|: a loop
// over whole groups of lanes, then the remaining elements into lane 0.
static kiln_status_t kiln_emit_sum_lanes(kiln_cg_t* cg,
                                         kiln_structured_op_t* rs,
                                         uint32_t inner, kiln_idx_t* full,
                                         kiln_sval_t* body_acc,
                                         const uint32_t* acc) {
  int64_t extent = rs->ranges[inner];
  int64_t groups = extent / KILN_VMVX_SUM_LANES;
  kiln_loop_t l = kiln_loop_begin(cg, kiln_asm_const_i64(cg->f, 0),
                                  kiln_asm_const_i64(cg->f, groups));
  uint32_t base = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
  kiln_asm_emit(cg->f, "mul.i64 %%l%u, %%l%u, %%l%u", base, l.iv,
                kiln_asm_const_i64(cg->f, KILN_VMVX_SUM_LANES));
  for (uint32_t k = 0; k < KILN_VMVX_SUM_LANES; ++k) {
    uint32_t i = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    kiln_asm_emit(cg->f, "add.i64 %%l%u, %%l%u, %%l%u", i, base,
                  kiln_asm_const_i64(cg->f, k));
    KILN_RETURN_IF_ERROR(
        kiln_emit_sum_term(cg, rs, inner, i, full, body_acc, acc[k]));
  }
  kiln_loop_end(cg, &l);
  if (extent % KILN_VMVX_SUM_LANES) {
    l = kiln_loop_begin(cg,
                        kiln_asm_const_i64(cg->f, groups * KILN_VMVX_SUM_LANES),
                        kiln_asm_const_i64(cg->f, extent));
    KILN_RETURN_IF_ERROR(
        kiln_emit_sum_term(cg, rs, inner, l.iv, full, body_acc, acc[0]));
    kiln_loop_end(cg, &l);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_codegen_region(kiln_cg_t* cg, kiln_ir_op_t* region,
                                         int64_t workgroup_count[3],
                                         kiln_dim_src_t* workgroup_src,
                                         int64_t* workgroup_rows) {
  kiln_ir_block_t* body = cg->body;
  kiln_ir_op_t* ret = body->last_op;
  if (!ret || !kiln_ir_op_is(ret, KILN_DISPATCH_RETURN_OP) ||
      ret->num_operands == 0) {
    return kiln_cg_error(cg, region, "malformed dispatch region");
  }
  // The sink produces the returned values; find the root (a structured op
  // with reductions or a non-permutation output).
  kiln_ir_value_t* first = kiln_ir_op_operand(ret, 0);
  kiln_ir_op_t* sink = first->defining_op;
  if (!sink || !kiln_structured_op_is(sink)) {
    return kiln_cg_error(cg, region,
                         "dispatch region result is not computed "
                         "by a structured op");
  }
  for (uint32_t r = 0; r < ret->num_operands; ++r) {
    if (kiln_ir_op_operand(ret, r)->defining_op != sink) {
      return kiln_cg_error(cg, region,
                           "dispatch region results come from several ops");
    }
  }
  cg->root = NULL;
  for (kiln_ir_op_t* op = body->first_op; op; op = op->next) {
    if (!kiln_structured_op_is(op)) continue;
    kiln_structured_op_t s;
    KILN_RETURN_IF_ERROR(kiln_structured_op_get(cg->ctx, op, &s));
    if (!kiln_structured_is_elementwise(&s)) {
      if (cg->root) {
        return kiln_cg_error(cg, op, "two reductions in one dispatch region");
      }
      cg->root = op;
      cg->root_s = s;
    }
  }
  kiln_structured_op_t sink_s;
  KILN_RETURN_IF_ERROR(kiln_structured_op_get(cg->ctx, sink, &sink_s));

  // Loop space: the root's parallel dims, or the sink's dims.
  uint32_t rank = 0;
  int64_t ranges[KILN_STRUCTURED_MAX_DIMS];
  uint32_t range_dims[KILN_STRUCTURED_MAX_DIMS];  // loop of the loop op
  kiln_ir_op_t* loop_op = cg->root ? cg->root : sink;
  int64_t inner_work = 1;
  if (cg->root) {
    for (uint32_t d = 0; d < cg->root_s.num_dims; ++d) {
      if (cg->root_s.is_reduction[d]) {
        int64_t n = cg->root_s.ranges[d] == KILN_IR_DYNAMIC_DIM
                        ? KILN_VMVX_DYNAMIC_EXTENT_ESTIMATE
                        : cg->root_s.ranges[d];
        inner_work *= n > 0 ? n : 1;
      } else {
        range_dims[rank] = d;
        ranges[rank++] = cg->root_s.ranges[d];
      }
    }
  } else {
    rank = sink_s.num_dims;
    memcpy(ranges, sink_s.ranges, sizeof(int64_t) * rank);
    for (uint32_t d = 0; d < rank; ++d) range_dims[d] = d;
  }
  // Dynamic dims of the tensor operands, then the scalar operands: one push
  // constant each (dim -1: the scalar itself), loaded up front.
  uint32_t num_operands = kiln_dispatch_num_tensor_operands(region);
  uint32_t num_all = kiln_ir_op_num_regular_operands(region);
  cg->num_push = 0;
  for (uint32_t i = 0; i < num_all && i < body->num_args; ++i) {
    const kiln_ir_type_t* t = body->args[i]->type;
    if (i >= num_operands) {
      if (!kiln_ir_type_is_index(t) &&
          !(kiln_ir_type_is_integer(t) && t->integer.width <= 32)) {
        return kiln_cg_error(cg, region,
                             "a scalar read by a dispatch must be an index "
                             "or an integer of at most 32 bits");
      }
      if (cg->num_push == KILN_CG_MAX_PUSH) {
        return kiln_cg_error(cg, region, "too many dynamic dims");
      }
      cg->push_dims[2 * cg->num_push] = i;
      cg->push_dims[2 * cg->num_push + 1] = -1;
      ++cg->num_push;
      continue;
    }
    if (!kiln_ir_type_is_ranked_tensor(t)) continue;
    for (size_t j = 0; j < t->shaped.rank; ++j) {
      if (t->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) continue;
      if (cg->num_push == KILN_CG_MAX_PUSH) {
        return kiln_cg_error(cg, region, "too many dynamic dims");
      }
      cg->push_dims[2 * cg->num_push] = i;
      cg->push_dims[2 * cg->num_push + 1] = (int64_t)j;
      ++cg->num_push;
    }
  }
  // Tiling: split the outermost loop so each workgroup does about
  // KILN_VMVX_TARGET_WORK_PER_WORKGROUP work items. Leading loops of extent
  // 1 (a batch of 1) are skipped: the first static loop past them is split
  // instead, else a batch-1 image got one workgroup and one worker.
  uint32_t split = 0;
  if (rank > 1 && ranges[0] == 1) {
    uint32_t d = 1;
    while (d < rank && ranges[d] == 1) ++d;
    if (d < rank && ranges[d] != KILN_IR_DYNAMIC_DIM && ranges[d] > 1) {
      split = d;
    }
  }
  int64_t rows_per_wg = 1;
  workgroup_count[0] = workgroup_count[1] = workgroup_count[2] = 1;
  if (rank > 0) {
    int64_t row_work = inner_work;
    for (uint32_t d = split + 1; d < rank; ++d) {
      row_work *= ranges[d] == KILN_IR_DYNAMIC_DIM
                      ? KILN_VMVX_DYNAMIC_EXTENT_ESTIMATE
                      : (ranges[d] ? ranges[d] : 1);
    }
    if (row_work < 1) row_work = 1;
    rows_per_wg =
        (KILN_VMVX_TARGET_WORK_PER_WORKGROUP + row_work - 1) / row_work;
    if (rows_per_wg < 1) rows_per_wg = 1;
    if (ranges[split] == KILN_IR_DYNAMIC_DIM) {
      // Computed by the host: ceil(dim / rows_per_wg) (split is 0 then).
      workgroup_count[0] = -1;
    } else if (ranges[split] > 0) {
      workgroup_count[0] = (ranges[split] + rows_per_wg - 1) / rows_per_wg;
    }
  }
  *workgroup_rows = rows_per_wg;
  // Bindings.
  for (uint32_t b = 0; b < cg->num_bindings; ++b) {
    cg->binding_regs[b] = kiln_asm_reg(cg->f, KILN_VM_BANK_REF);
    kiln_asm_emit(cg->f, "list.get.ref %%r%u, %%r2, %%i%u", cg->binding_regs[b],
                  kiln_asm_const_i32(cg->f, (int32_t)b));
    cg->binding_counts[b] = KILN_CG_NO_COUNT;
    const kiln_ir_type_t* t =
        b < cg->body->num_args ? cg->body->args[b]->type : NULL;
    size_t elem_bytes = t && kiln_ir_type_is_ranked_tensor(t)
                            ? kiln_ir_type_storage_bytes(t->shaped.element)
                            : 0;
    if (elem_bytes == 0 || kiln_ir_type_has_static_shape(t) ||
        t->shaped.encoding) {
      continue;
    }
    uint32_t length = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    cg->binding_counts[b] = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    kiln_asm_emit(cg->f, "buffer.length %%l%u, %%r%u", length,
                  cg->binding_regs[b]);
    kiln_asm_emit(cg->f, "div.u.i64 %%l%u, %%l%u, %%l%u", cg->binding_counts[b],
                  length, kiln_asm_const_i64(cg->f, (int64_t)elem_bytes));
  }
  for (uint32_t k = 0; k < cg->num_push; ++k) {
    uint32_t v = kiln_asm_reg(cg->f, KILN_VM_BANK_I32);
    cg->dim_regs[k] = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    kiln_asm_emit(cg->f, "buffer.load.i32 %%i%u, %%r1, %%l%u", v,
                  kiln_asm_const_i64(cg->f, k));
    kiln_asm_emit(cg->f, "ext.i32.i64.u %%l%u, %%i%u", cg->dim_regs[k], v);
  }
  kiln_idx_t extents[KILN_STRUCTURED_MAX_DIMS];
  for (uint32_t d = 0; d < rank; ++d) {
    if (ranges[d] != KILN_IR_DYNAMIC_DIM) {
      extents[d] = kiln_idx_const(ranges[d]);
      continue;
    }
    kiln_dim_src_t src;
    KILN_RETURN_IF_ERROR(
        kiln_loop_extent(cg, loop_op, range_dims[d], &src, &extents[d]));
    if (d == 0) *workgroup_src = src;
  }
  if (rank > 0 && ranges[0] == 0) {
    kiln_asm_emit(cg->f, "ret");
    return kiln_ok_status();
  }
  // A contraction's innermost reduction is one dot instruction; its
  // splat inputs are staged before the loops.
  uint32_t dot =
      cg->root ? kiln_dot_loop(cg, &cg->root_s) : KILN_STRUCTURED_MAX_DIMS;
  uint32_t dot_buffers[2] = {0, 0};
  if (dot < KILN_STRUCTURED_MAX_DIMS) {
    KILN_RETURN_IF_ERROR(kiln_dot_buffers(cg, &cg->root_s, dot_buffers));
  }
  bool dot8 = ret->num_operands == 1 &&
              kiln_use_dot8(cg, sink, dot, rank, split, ranges);
  // Outer loop bounds for this workgroup.
  kiln_idx_t point[KILN_STRUCTURED_MAX_DIMS];
  kiln_loop_t loops[KILN_STRUCTURED_MAX_DIMS];
  if (rank > 0) {
    uint32_t wg = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    uint32_t start = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    uint32_t end = kiln_asm_reg(cg->f, KILN_VM_BANK_I64);
    kiln_asm_emit(cg->f, "ext.i32.i64.u %%l%u, %%i0", wg);  // workgroup_id_x
    kiln_asm_emit(cg->f, "mul.i64 %%l%u, %%l%u, %%l%u", start, wg,
                  kiln_asm_const_i64(cg->f, rows_per_wg));
    kiln_asm_emit(cg->f, "add.i64 %%l%u, %%l%u, %%l%u", end, start,
                  kiln_asm_const_i64(cg->f, rows_per_wg));
    kiln_asm_emit(cg->f, "min.s.i64 %%l%u, %%l%u, %%l%u", end, end,
                  kiln_idx_reg(cg, extents[split]));
    for (uint32_t d = 0; d < rank; ++d) {
      // dot8: the innermost loop runs over the whole groups of lanes.
      uint32_t bound =
          dot8 && d == rank - 1
              ? kiln_asm_const_i64(cg->f,
                                   ranges[d] - ranges[d] % KILN_VMVX_DOT8_LANES)
              : kiln_idx_reg(cg, extents[d]);
      loops[d] = d == split
                     ? kiln_loop_begin(cg, start, end)
                     : kiln_loop_begin(cg, kiln_asm_const_i64(cg->f, 0), bound);
      point[d].is_const = false;
      point[d].reg = loops[d].iv;
    }
    if (dot8) loops[rank - 1].step = KILN_VMVX_DOT8_LANES;
  }
  if (dot8) {
    KILN_RETURN_IF_ERROR(kiln_emit_dot8(cg, &cg->root_s, dot, dot_buffers,
                                        point, rank, num_operands));
    int64_t tail = ranges[rank - 1] % KILN_VMVX_DOT8_LANES;
    if (tail == 0) {
      for (uint32_t d = rank; d-- > 0;) kiln_loop_end(cg, &loops[d]);
      kiln_asm_emit(cg->f, "ret");
      return kiln_ok_status();
    }
    // The outputs past the last group: the one-output path below, in a
    // loop of its own after the groups'.
    kiln_loop_end(cg, &loops[rank - 1]);
    loops[rank - 1] =
        kiln_loop_begin(cg, kiln_asm_const_i64(cg->f, ranges[rank - 1] - tail),
                        kiln_idx_reg(cg, extents[rank - 1]));
    point[rank - 1].reg = loops[rank - 1].iv;
  }
  // Root: accumulate over its reduction loops.
  if (cg->root) {
    kiln_structured_op_t* rs = &cg->root_s;
    kiln_idx_t full[KILN_STRUCTURED_MAX_DIMS];
    uint32_t p = 0;
    for (uint32_t d = 0; d < rs->num_dims; ++d) {
      full[d] = rs->is_reduction[d] ? kiln_idx_const(0) : point[p++];
    }
    // Initial accumulators from the outs operands.
    for (uint32_t j = 0; j < rs->num_outs; ++j) {
      kiln_sval_t init;
      kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS];
      kiln_eval_map(cg, rs->maps[rs->num_ins + j], full, coords);
      KILN_RETURN_IF_ERROR(kiln_tensor_element(
          cg, rs->op, kiln_ir_op_operand(rs->op, rs->num_ins + j), coords,
          &init));
      cg->root_acc[j].bank = init.bank;
      cg->root_acc[j].reg = kiln_asm_reg(cg->f, init.bank);
      kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(init.bank),
                    kiln_p(init.bank), cg->root_acc[j].reg, kiln_p(init.bank),
                    init.reg);
    }
    // f32 sums accumulate in f64 (kiln_is_float_sum); the body then sees -0.0
    // as its accumulator (x + -0.0 == x for every x) and yields the addend.
    uint32_t wide[KILN_CG_MAX_RESULTS] = {0};  // f64 register + 1, or 0
    kiln_sval_t body_acc[KILN_CG_MAX_RESULTS];
    memcpy(body_acc, cg->root_acc, sizeof(body_acc));
    if (kiln_structured_num_reductions(rs) > 0) {
      for (uint32_t j = 0; j < rs->num_outs; ++j) {
        if (!kiln_is_float_sum(rs, j)) continue;
        uint32_t w = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
        kiln_asm_emit(cg->f, "ext.f32.f64 %%d%u, %%f%u", w,
                      cg->root_acc[j].reg);
        wide[j] = w + 1;
        body_acc[j].reg = kiln_asm_const_f32(cg->f, -0.0f);
      }
    }
    // A long f32 sum keeps KILN_VMVX_SUM_LANES partial sums, element i of
    // the innermost reduction loop going to lane i % LANES, combined in a
    // fixed tree at the end: independent chains the C compiler vectorizes
    // (an in-order sum is one add's latency per element), and the same
    // order for every backend, ISA and worker count.
    uint32_t inner = KILN_STRUCTURED_MAX_DIMS;
    for (uint32_t d = 0; d < rs->num_dims; ++d) {
      if (rs->is_reduction[d]) inner = d;
    }
    bool lanes = rs->num_outs == 1 && wide[0] &&
                 inner < KILN_STRUCTURED_MAX_DIMS &&
                 rs->ranges[inner] != KILN_IR_DYNAMIC_DIM &&
                 rs->ranges[inner] >= KILN_VMVX_SUM_MIN_EXTENT &&
                 kiln_block_op_count(cg->body) <= KILN_VMVX_SUM_MAX_BODY_OPS;
    uint32_t lane_acc[KILN_VMVX_SUM_LANES];
    if (lanes) {
      lane_acc[0] = wide[0] - 1;
      for (uint32_t k = 1; k < KILN_VMVX_SUM_LANES; ++k) {
        lane_acc[k] = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
        kiln_asm_emit(cg->f, "mov.f64 %%d%u, %%d%u", lane_acc[k],
                      kiln_asm_const_f64(cg->f, -0.0));
      }
    }
    if (lanes || wide[0]) dot = KILN_STRUCTURED_MAX_DIMS;
    kiln_loop_t rloops[KILN_STRUCTURED_MAX_DIMS];
    uint32_t nr = 0;
    for (uint32_t d = 0; d < rs->num_dims; ++d) {
      if (!rs->is_reduction[d] || (lanes && d == inner) || d == dot) continue;
      kiln_idx_t extent = kiln_idx_const(rs->ranges[d]);
      if (rs->ranges[d] == KILN_IR_DYNAMIC_DIM) {
        kiln_dim_src_t src;
        KILN_RETURN_IF_ERROR(kiln_loop_extent(cg, rs->op, d, &src, &extent));
      }
      rloops[nr] = kiln_loop_begin(cg, kiln_asm_const_i64(cg->f, 0),
                                   kiln_idx_reg(cg, extent));
      full[d].is_const = false;
      full[d].reg = rloops[nr].iv;
      ++nr;
    }
    kiln_sval_t yielded[KILN_CG_MAX_RESULTS];
    if (lanes) {
      KILN_RETURN_IF_ERROR(
          kiln_emit_sum_lanes(cg, rs, inner, full, body_acc, lane_acc));
    } else if (dot < KILN_STRUCTURED_MAX_DIMS) {
      KILN_RETURN_IF_ERROR(kiln_emit_dot(cg, rs, dot, dot_buffers, full,
                                         body_acc[0], &yielded[0]));
    } else {
      KILN_RETURN_IF_ERROR(kiln_emit_body(cg, rs, full, body_acc, yielded));
    }
    for (uint32_t j = 0; j < rs->num_outs && !lanes; ++j) {
      int b = cg->root_acc[j].bank;
      if (wide[j]) {
        uint32_t x = kiln_asm_reg(cg->f, KILN_VM_BANK_F64);
        kiln_asm_emit(cg->f, "ext.f32.f64 %%d%u, %%f%u", x, yielded[j].reg);
        kiln_asm_emit(cg->f, "add.f64 %%d%u, %%d%u, %%d%u", wide[j] - 1,
                      wide[j] - 1, x);
        continue;
      }
      kiln_asm_emit(cg->f, "mov.%s %%%c%u, %%%c%u", kiln_bank_suffix(b),
                    kiln_p(b), cg->root_acc[j].reg, kiln_p(b), yielded[j].reg);
    }
    while (nr-- > 0) kiln_loop_end(cg, &rloops[nr]);
    if (lanes) {
      for (uint32_t step = 1; step < KILN_VMVX_SUM_LANES; step *= 2) {
        for (uint32_t k = 0; k + step < KILN_VMVX_SUM_LANES; k += 2 * step) {
          kiln_asm_emit(cg->f, "add.f64 %%d%u, %%d%u, %%d%u", lane_acc[k],
                        lane_acc[k], lane_acc[k + step]);
        }
      }
    }
    for (uint32_t j = 0; j < rs->num_outs; ++j) {
      if (!wide[j]) continue;
      kiln_asm_emit(cg->f, "trunc.f64.f32 %%f%u, %%d%u", cg->root_acc[j].reg,
                    wide[j] - 1);
      kiln_round_narrow_float(cg, rs->op->results[j].type->shaped.element,
                              cg->root_acc[j].reg);
    }
  }
  // Store the sink's results.
  kiln_sval_t results[KILN_CG_MAX_RESULTS];
  kiln_idx_t sink_point[KILN_STRUCTURED_MAX_DIMS];
  if (sink == cg->root) {
    memcpy(results, cg->root_acc, sizeof(results));
    uint32_t p = 0;
    for (uint32_t d = 0; d < sink_s.num_dims; ++d) {
      sink_point[d] = sink_s.is_reduction[d] ? kiln_idx_const(0) : point[p++];
    }
  } else {
    memcpy(sink_point, point, sizeof(kiln_idx_t) * rank);
    KILN_RETURN_IF_ERROR(kiln_op_at_point(cg, sink, sink_point, results));
  }
  for (uint32_t r = 0; r < ret->num_operands; ++r) {
    kiln_ir_value_t* v = kiln_ir_op_operand(ret, r);
    kiln_idx_t coords[KILN_STRUCTURED_MAX_DIMS];
    kiln_eval_map(cg, sink_s.maps[sink_s.num_ins + v->index], sink_point,
                  coords);
    kiln_idx_t index;
    KILN_RETURN_IF_ERROR(kiln_linearize(cg, sink, v, coords, &index));
    KILN_RETURN_IF_ERROR(kiln_emit_store(cg, sink, v->type->shaped.element,
                                         cg->binding_regs[num_operands + r],
                                         index, results[v->index]));
  }
  for (uint32_t d = rank; d-- > 0;) kiln_loop_end(cg, &loops[d]);
  kiln_asm_emit(cg->f, "ret");
  return kiln_ok_status();
}

// "file:line:col" of |loc| (or "").
static const char* kiln_location_string(kiln_ir_context_t* ctx,
                                        const kiln_ir_location_t* loc) {
  const kiln_ir_location_t* file = loc ? kiln_ir_location_find_file(loc) : NULL;
  if (!file) return "";
  return kiln_ir_arena_printf(ctx, "%.*s:%u:%u", (int)file->file.size,
                              file->file.data, file->line, file->column);
}

static kiln_status_t kiln_set_str_attr(kiln_ir_context_t* ctx, kiln_ir_op_t* op,
                                       const char* name, const char* value,
                                       size_t length) {
  return kiln_ir_op_set_attr(
      ctx, op, name,
      kiln_ir_string_attr_get(ctx, kiln_make_string_view(value, length)),
      false);
}

static kiln_status_t kiln_codegen_function(
    kiln_ir_context_t* ctx, kiln_ir_op_t* module, kiln_ir_op_t* func,
    const kiln_vmvx_codegen_options_t* options, kiln_ir_op_t** insert_before) {
  kiln_string_view_t fname = kiln_ir_symbol_name(func);
  uint32_t ordinal = 0;
  for (kiln_ir_block_t* b = func->regions[0].first_block; b; b = b->next) {
    for (kiln_ir_op_t* op = b->first_op; op; op = op->next) {
      if (!kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) continue;
      const kiln_ir_attribute_t* kind_attr = kiln_ir_op_get_attr(op, "kind");
      kiln_string_view_t kind =
          kind_attr && kind_attr->kind == KILN_IR_ATTR_STRING
              ? kind_attr->str
              : kiln_make_cstring_view("generic");
      const char* exe_name = kiln_ir_arena_printf(
          ctx, "%.*s_dispatch_%u", (int)fname.size, fname.data, ordinal);
      const char* entry_name = kiln_ir_arena_printf(ctx, "%s_%.*s", exe_name,
                                                    (int)kind.size, kind.data);
      ++ordinal;

      kiln_asm_function_t* f =
          (kiln_asm_function_t*)kiln_ir_arena_alloc(ctx, sizeof(*f));
      kiln_cg_t* cg = (kiln_cg_t*)kiln_ir_arena_alloc(ctx, sizeof(*cg));
      if (!f || !cg) return kiln_ir_context_take_error(ctx);
      kiln_asm_function_init(f, "rrriiiiii");
      cg->ctx = ctx;
      cg->options = options;
      cg->f = f;
      cg->region = op;
      cg->body = kiln_dispatch_region_body(op);
      cg->num_bindings =
          kiln_dispatch_num_tensor_operands(op) + op->num_results;
      cg->binding_regs = (uint32_t*)kiln_ir_arena_alloc(
          ctx, sizeof(uint32_t) * (cg->num_bindings + 1));
      cg->binding_counts = (uint32_t*)kiln_ir_arena_alloc(
          ctx, sizeof(uint32_t) * (cg->num_bindings + 1));
      cg->cache = (kiln_cg_cache_entry_t*)kiln_ir_arena_alloc(
          ctx, sizeof(kiln_cg_cache_entry_t) * KILN_CG_MAX_CACHE);
      if (!cg->binding_regs || !cg->binding_counts || !cg->cache) {
        kiln_asm_function_deinit(f);
        return kiln_ir_context_take_error(ctx);
      }
      int64_t wg[3], wg_rows = 1;
      kiln_dim_src_t wg_src = {0, -1, 0};
      kiln_status_t status = kiln_codegen_region(cg, op, wg, &wg_src, &wg_rows);
      if (!status && wg[0] < 0 && wg_src.operand < 0) {
        // A `?` dim whose size is a constant after all (a tensor.empty of
        // constant sizes): a static count.
        wg[0] = (wg_src.value + wg_rows - 1) / wg_rows;
      }
      kiln_ir_string_builder_t text = {0};
      if (!status) {
        kiln_ir_sb_printf(&text, "module @%s {\n", exe_name);
        kiln_asm_function_finish(f, entry_name, "rrriiiiii->", true, NULL,
                                 &text);
        kiln_ir_sb_printf(&text, "}\n");
        if (text.failed) {
          status = kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                    "out of memory emitting VM assembly");
        }
      }
      kiln_asm_function_deinit(f);
      if (status) {
        kiln_ir_sb_free(&text);
        return status;
      }
      // The executable op.
      kiln_ir_op_state_t state;
      kiln_ir_op_state_init(ctx, &state, KILN_HAL_EXECUTABLE_OP, op->location);
      kiln_ir_op_t* exe = NULL;
      status = kiln_ir_op_create(ctx, &state, &exe);
      if (!status) {
        const char* source = kiln_location_string(ctx, op->location);
        status =
            kiln_set_str_attr(ctx, exe, "sym_name", exe_name, strlen(exe_name));
        if (!status)
          status = kiln_set_str_attr(ctx, exe, "format", "vmvx-bytecode", 13);
        if (!status)
          status = kiln_set_str_attr(ctx, exe, "entry", entry_name,
                                     strlen(entry_name));
        if (!status)
          status =
              kiln_set_str_attr(ctx, exe, "source", source, strlen(source));
        if (!status)
          status = kiln_set_str_attr(ctx, exe, "vm_asm", text.data, text.size);
      }
      kiln_ir_sb_free(&text);
      KILN_RETURN_IF_ERROR(status);
      kiln_ir_op_insert_before(exe, *insert_before);
      KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
          ctx, op, "executable",
          kiln_ir_symbol_ref_attr_get(ctx, kiln_make_cstring_view(exe_name), 0,
                                      NULL),
          false));
      KILN_RETURN_IF_ERROR(
          kiln_set_str_attr(ctx, op, "entry", entry_name, strlen(entry_name)));
      KILN_RETURN_IF_ERROR(
          kiln_ir_op_set_attr(ctx, op, "workgroup_count",
                              kiln_ir_dense_i64_array_attr_get(
                                  ctx, kiln_ir_int_type(ctx, 64), 3, wg),
                              false));
      if (cg->num_push > 0) {
        // Dynamic shapes: push constant k is dim push_dims[2k+1] of operand
        // push_dims[2k]; a workgroup count of -1 is computed by the host as
        // ceil(dim workgroup_dim[1] of operand workgroup_dim[0] / rows).
        KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
            ctx, op, "push_dims",
            kiln_ir_dense_i64_array_attr_get(ctx, kiln_ir_int_type(ctx, 64),
                                             2 * cg->num_push, cg->push_dims),
            false));
      }
      // Dynamic results: the host sizes them before the dispatch from
      // result_dims, one (operand, dim) pair per dynamic dim of each result
      // in order (dim -1: the scalar operand itself; operand -1: the
      // constant dim).
      int64_t result_dims[2 * KILN_CG_MAX_PUSH];
      uint32_t num_result_dims = 0;
      kiln_ir_op_t* ret = cg->body->last_op;
      for (uint32_t r = 0; r < op->num_results; ++r) {
        const kiln_ir_type_t* t = op->results[r].type;
        for (size_t j = 0; j < t->shaped.rank; ++j) {
          if (t->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) continue;
          kiln_dim_src_t src;
          if (num_result_dims == KILN_CG_MAX_PUSH ||
              !kiln_dim_source(cg, kiln_ir_op_operand(ret, r), j, 0, &src)) {
            return kiln_ir_op_emit_error(
                op, ctx,
                "vmvx-codegen: cannot find the run-time size of dynamic dim "
                "%zu of result %u",
                j, r);
          }
          result_dims[2 * num_result_dims] = src.operand;
          result_dims[2 * num_result_dims + 1] =
              src.operand < 0                  ? src.value
              : src.dim == KILN_DIM_SRC_SCALAR ? -1
                                               : (int64_t)src.dim;
          ++num_result_dims;
        }
      }
      if (num_result_dims > 0) {
        KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
            ctx, op, "result_dims",
            kiln_ir_dense_i64_array_attr_get(ctx, kiln_ir_int_type(ctx, 64),
                                             2 * num_result_dims, result_dims),
            false));
      }
      if (wg[0] < 0) {
        int64_t src[3] = {
            wg_src.operand,
            wg_src.dim == KILN_DIM_SRC_SCALAR ? -1 : (int64_t)wg_src.dim,
            wg_rows};
        KILN_RETURN_IF_ERROR(
            kiln_ir_op_set_attr(ctx, op, "workgroup_dim",
                                kiln_ir_dense_i64_array_attr_get(
                                    ctx, kiln_ir_int_type(ctx, 64), 3, src),
                                false));
      }
    }
  }
  (void)module;
  return kiln_ok_status();
}

kiln_status_t kiln_vmvx_codegen(kiln_ir_context_t* context,
                                kiln_ir_op_t* module) {
  return kiln_vmvx_codegen_with(context, module, NULL);
}

kiln_status_t kiln_vmvx_codegen_with(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_vmvx_codegen_options_t* options) {
  static const kiln_vmvx_codegen_options_t kDefaults = {false};
  if (!options) options = &kDefaults;
  KILN_RETURN_IF_ERROR(kiln_dispatch_register_ops(context));
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (!kiln_ir_op_is(op, "func.func") || kiln_ir_func_is_declaration(op)) {
      continue;
    }
    kiln_ir_op_t* anchor = op;
    KILN_RETURN_IF_ERROR(
        kiln_codegen_function(context, module, op, options, &anchor));
  }
  return kiln_ir_context_take_error(context);
}

static kiln_status_t kiln_vmvx_codegen_run(kiln_ir_context_t* context,
                                           kiln_ir_op_t* module,
                                           void* user_data) {
  return kiln_vmvx_codegen_with(context, module,
                                (const kiln_vmvx_codegen_options_t*)user_data);
}

const kiln_ir_pass_t kiln_vmvx_codegen_pass = {
    .name = "vmvx-codegen",
    .description = "compile each dispatch region to a vmvx executable",
    .run = kiln_vmvx_codegen_run,
    .user_data = NULL,
};
