#include "compiler/targets/cpu/c_emitter.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_module.h"
#include "runtime/vm/numerics.h"

// Loads and stores go through memcpy (bindings are only as aligned as their
// offsets); compilers turn them into plain vector loads. There are no
// per-element bounds checks: the host code asserts every buffer view's
// shape before it dispatches, and the loop program indexes within those
// shapes by construction (native code is trusted code).
const char kiln_cpu_c_prelude[] =
    "typedef struct kiln_cpu_ref_t {\n"
    "  uint8_t* p;\n"
    "  uint64_t n;\n"
    "} kiln_cpu_ref_t;\n"
    "#define KILN_CPU_LOAD(T, ref, index, out) \\\n"
    "  do { T v_; memcpy(&v_, (ref).p + (uint64_t)(index) * sizeof(T), "
    "sizeof(T)); (out) = v_; } while (0)\n"
    "#define KILN_CPU_STORE(T, ref, index, value) \\\n"
    "  do { T v_ = (T)(value); memcpy((ref).p + (uint64_t)(index) * "
    "sizeof(T), &v_, sizeof(T)); } while (0)\n"
    "// Non-zero dispatch results (the runtime reports which entry failed).\n"
    "#define KILN_CPU_FAIL_DIVISION_BY_ZERO 2\n"
    "#define KILN_CPU_FAIL_BINDING 3\n"
    "#define KILN_CPU_FAIL_PROGRAM 4\n";

typedef struct kiln_cpu_emitter_t {
  kiln_ir_string_builder_t* out;
  const uint8_t* code;
  uint32_t length;
  uint8_t* is_target;  // [length]: a branch lands here
} kiln_cpu_emitter_t;

static char kiln_cpu_bank_char(int bank) {
  return "ilfdr"[bank];
}

// Byte size of the operand |c| at |p| (register lists and tables vary).
static uint32_t kiln_cpu_operand_size(char c, const uint8_t* p) {
  switch (c) {
    case 'i':
    case 'l':
    case 'f':
    case 'd':
    case 'r':
      return 2;
    case 'L':
    case 'D':
      return 8;
    case 'A':
      return 1 + 3u * p[0];
    case 'W':
      return 2 + 4u * kiln_vm_rd16(p);
    default:
      return 4;
  }
}

// Offsets of the operands of the instruction at |ip| (at most 8 used).
static uint32_t kiln_cpu_decode(const uint8_t* ip, uint32_t offsets[8]) {
  const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(kiln_vm_rd16(ip));
  uint32_t p = 2, n = 0;
  memset(offsets, 0, 8 * sizeof(uint32_t));
  for (const char* c = info->format; *c; ++c) {
    if (n < 8) offsets[n++] = p;
    p += kiln_cpu_operand_size(*c, ip + p);
  }
  return p;
}

#define R16(k) kiln_vm_rd16(ip + off[k])
#define U32(k) kiln_vm_rd32(ip + off[k])

static void kiln_cpu_emit(kiln_cpu_emitter_t* e, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
static void kiln_cpu_emit(kiln_cpu_emitter_t* e, const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  kiln_ir_sb_append(e->out, "  ", 2);
  kiln_ir_sb_append(
      e->out, line,
      n < 0 ? 0 : ((size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1));
  kiln_ir_sb_append(e->out, "\n", 1);
}

//===----------------------------------------------------------------------===//
// Opcode tables from numerics.h
//===----------------------------------------------------------------------===//

typedef struct kiln_cpu_expr_row_t {
  uint32_t opcode;
  const char* expr;
  int arity;       // operands a, b, c
  int dst_bank;    // bank of the destination
  int src_bank;    // bank of the operands
  bool predicate;  // the value is a truth value, stored as 0 or 1
} kiln_cpu_expr_row_t;

#define KILN_CPU_F2_(NAME, EXPR, ...)                       \
  {KILN_VM_OP_##NAME##_F32, #EXPR, 2, KILN_VM_BANK_F32,     \
   KILN_VM_BANK_F32,        false},                         \
      {KILN_VM_OP_##NAME##_F64, #EXPR, 2, KILN_VM_BANK_F64, \
       KILN_VM_BANK_F64,        false},
#define KILN_CPU_F1_(NAME, EXPR, ...)                       \
  {KILN_VM_OP_##NAME##_F32, #EXPR, 1, KILN_VM_BANK_F32,     \
   KILN_VM_BANK_F32,        false},                         \
      {KILN_VM_OP_##NAME##_F64, #EXPR, 1, KILN_VM_BANK_F64, \
       KILN_VM_BANK_F64,        false},
#define KILN_CPU_F3_(NAME, EXPR, ...)                       \
  {KILN_VM_OP_##NAME##_F32, #EXPR, 3, KILN_VM_BANK_F32,     \
   KILN_VM_BANK_F32,        false},                         \
      {KILN_VM_OP_##NAME##_F64, #EXPR, 3, KILN_VM_BANK_F64, \
       KILN_VM_BANK_F64,        false},
#define KILN_CPU_P1_(NAME, EXPR, ...)                       \
  {                                                         \
      KILN_VM_OP_##NAME##_F32, #EXPR, 1, KILN_VM_BANK_I32,  \
      KILN_VM_BANK_F32,        true},                       \
      {KILN_VM_OP_##NAME##_F64, #EXPR, 1, KILN_VM_BANK_I32, \
       KILN_VM_BANK_F64,        true},
#define KILN_CPU_P2_(NAME, EXPR, ...)                       \
  {                                                         \
      KILN_VM_OP_##NAME##_F32, #EXPR, 2, KILN_VM_BANK_I32,  \
      KILN_VM_BANK_F32,        true},                       \
      {KILN_VM_OP_##NAME##_F64, #EXPR, 2, KILN_VM_BANK_I32, \
       KILN_VM_BANK_F64,        true},
#define KILN_CPU_CONV_(NAME, DST, SRC, EXPR) \
  {KILN_VM_OP_##NAME, #EXPR, 1, KILN_VM_BANK_##DST, KILN_VM_BANK_##SRC, false},

static const kiln_cpu_expr_row_t kiln_cpu_expr_rows[] = {
    KILN_VM_FLOAT_BINARY_OPS(KILN_CPU_F2_, _) KILN_VM_FLOAT_UNARY_OPS(
        KILN_CPU_F1_, _) KILN_VM_FLOAT_TERNARY_OPS(KILN_CPU_F3_, _)
        KILN_VM_FLOAT_PREDICATE_UNARY_OPS(KILN_CPU_P1_, _)
            KILN_VM_FLOAT_COMPARE_OPS(KILN_CPU_P2_, _)
                KILN_VM_CONVERSION_OPS(KILN_CPU_CONV_)};

static const char* const kiln_cpu_bank_ctype[] = {"int32_t", "int64_t", "float",
                                                  "double"};

static const kiln_cpu_expr_row_t* kiln_cpu_find_expr(uint32_t opcode) {
  for (size_t i = 0;
       i < sizeof(kiln_cpu_expr_rows) / sizeof(kiln_cpu_expr_rows[0]); ++i) {
    if (kiln_cpu_expr_rows[i].opcode == opcode) return &kiln_cpu_expr_rows[i];
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Integer opcodes (same semantics as the interpreter's INT_OPS: arithmetic
// wraps, shifts take the count modulo the width, division by zero fails)
//===----------------------------------------------------------------------===//

// Emits integer opcode |opcode| if it is one; returns false otherwise.
static bool kiln_cpu_emit_int(kiln_cpu_emitter_t* e, uint32_t opcode,
                              const uint8_t* ip, const uint32_t* off) {
  for (int w = 0; w < 2; ++w) {
    // Opcode numbers of each family are laid out identically for i32 and
    // i64 (ADD..CMP_GE_U), so one table covers both.
    uint32_t base = w == 0 ? KILN_VM_OP_ADD_I32 : KILN_VM_OP_ADD_I64;
    uint32_t last = w == 0 ? KILN_VM_OP_CMP_GE_U_I32 : KILN_VM_OP_CMP_GE_U_I64;
    if (opcode < base || opcode > last) continue;
    char p = w == 0 ? 'i' : 'l';
    const char* S = w == 0 ? "int32_t" : "int64_t";
    const char* U = w == 0 ? "uint32_t" : "uint64_t";
    int bits = w == 0 ? 32 : 64;
    uint32_t k = opcode - base;
    uint16_t d = R16(0), a = R16(1), b = R16(2);
    static const char* const kWrap[] = {"+", "-", "*"};
    switch (k + KILN_VM_OP_ADD_I32) {
      case KILN_VM_OP_ADD_I32:
      case KILN_VM_OP_SUB_I32:
      case KILN_VM_OP_MUL_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)((%s)%c_%u %s (%s)%c_%u);", p, d, S, U, p,
                      a, kWrap[k], U, p, b);
        return true;
      case KILN_VM_OP_DIV_S_I32:
        kiln_cpu_emit(e,
                      "if (%c_%u == 0) return KILN_CPU_FAIL_DIVISION_BY_ZERO; "
                      "%c_%u = %c_%u == -1 ? (%s)(0 - (%s)%c_%u) : %c_%u / "
                      "%c_%u;",
                      p, b, p, d, p, b, S, U, p, a, p, a, p, b);
        return true;
      case KILN_VM_OP_DIV_U_I32:
        kiln_cpu_emit(e,
                      "if (%c_%u == 0) return KILN_CPU_FAIL_DIVISION_BY_ZERO; "
                      "%c_%u = (%s)((%s)%c_%u / (%s)%c_%u);",
                      p, b, p, d, S, U, p, a, U, p, b);
        return true;
      case KILN_VM_OP_REM_S_I32:
        kiln_cpu_emit(e,
                      "if (%c_%u == 0) return KILN_CPU_FAIL_DIVISION_BY_ZERO; "
                      "%c_%u = %c_%u == -1 ? 0 : %c_%u %% %c_%u;",
                      p, b, p, d, p, b, p, a, p, b);
        return true;
      case KILN_VM_OP_REM_U_I32:
        kiln_cpu_emit(e,
                      "if (%c_%u == 0) return KILN_CPU_FAIL_DIVISION_BY_ZERO; "
                      "%c_%u = (%s)((%s)%c_%u %% (%s)%c_%u);",
                      p, b, p, d, S, U, p, a, U, p, b);
        return true;
      case KILN_VM_OP_AND_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u & %c_%u;", p, d, p, a, p, b);
        return true;
      case KILN_VM_OP_OR_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u | %c_%u;", p, d, p, a, p, b);
        return true;
      case KILN_VM_OP_XOR_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u ^ %c_%u;", p, d, p, a, p, b);
        return true;
      case KILN_VM_OP_SHL_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)((%s)%c_%u << ((%s)%c_%u & %d));", p, d,
                      S, U, p, a, U, p, b, bits - 1);
        return true;
      case KILN_VM_OP_SHR_S_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u >> ((%s)%c_%u & %d);", p, d, p, a, U, p,
                      b, bits - 1);
        return true;
      case KILN_VM_OP_SHR_U_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)((%s)%c_%u >> ((%s)%c_%u & %d));", p, d,
                      S, U, p, a, U, p, b, bits - 1);
        return true;
      case KILN_VM_OP_MIN_S_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u < %c_%u ? %c_%u : %c_%u;", p, d, p, a,
                      p, b, p, a, p, b);
        return true;
      case KILN_VM_OP_MAX_S_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u > %c_%u ? %c_%u : %c_%u;", p, d, p, a,
                      p, b, p, a, p, b);
        return true;
      case KILN_VM_OP_MIN_U_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)((%s)%c_%u < (%s)%c_%u ? %c_%u : %c_%u);",
                      p, d, S, U, p, a, U, p, b, p, a, p, b);
        return true;
      case KILN_VM_OP_MAX_U_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)((%s)%c_%u > (%s)%c_%u ? %c_%u : %c_%u);",
                      p, d, S, U, p, a, U, p, b, p, a, p, b);
        return true;
      case KILN_VM_OP_NOT_I32:
        kiln_cpu_emit(e, "%c_%u = ~%c_%u;", p, d, p, a);
        return true;
      case KILN_VM_OP_NEG_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)(0 - (%s)%c_%u);", p, d, S, U, p, a);
        return true;
      case KILN_VM_OP_ABS_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u < 0 ? (%s)(0 - (%s)%c_%u) : %c_%u;", p,
                      d, p, a, S, U, p, a, p, a);
        return true;
      case KILN_VM_OP_CTLZ_I32:
        kiln_cpu_emit(e, "%c_%u = %c_%u ? (%s)%s((%s)%c_%u) : %d;", p, d, p, a,
                      S, w == 0 ? "__builtin_clz" : "__builtin_clzll", U, p, a,
                      bits);
        return true;
      case KILN_VM_OP_POPCNT_I32:
        kiln_cpu_emit(e, "%c_%u = (%s)%s((%s)%c_%u);", p, d, S,
                      w == 0 ? "__builtin_popcount" : "__builtin_popcountll", U,
                      p, a);
        return true;
      default:
        break;
    }
    // Comparisons write an i32.
    static const char* const kCmp[] = {"==", "!=", "<",  "<=", ">",
                                       ">=", "<",  "<=", ">",  ">="};
    uint32_t c = k + KILN_VM_OP_ADD_I32 - KILN_VM_OP_CMP_EQ_I32;
    if (c < 10) {
      const char* cast = c >= 6 ? U : S;
      kiln_cpu_emit(e, "i_%u = ((%s)%c_%u %s (%s)%c_%u) ? 1 : 0;", d, cast, p,
                    a, kCmp[c], cast, p, b);
      return true;
    }
    return false;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The function
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_cpu_unsupported(uint32_t opcode) {
  const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(opcode);
  return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                          "cpu backend: dispatch uses VM opcode '%s', which "
                          "the C emitter does not translate",
                          info ? info->mnemonic : "?");
}

static kiln_status_t kiln_cpu_emit_instruction(kiln_cpu_emitter_t* e,
                                               const uint8_t* ip,
                                               const uint32_t* off) {
  uint32_t opcode = kiln_vm_rd16(ip);
  const kiln_cpu_expr_row_t* row = kiln_cpu_find_expr(opcode);
  if (row) {
    char s = kiln_cpu_bank_char(row->src_bank);
    char d = kiln_cpu_bank_char(row->dst_bank);
    const char* t = kiln_cpu_bank_ctype[row->src_bank];
    // As the interpreter: truth values become exactly 0 or 1 (glibc's isinf
    // returns -1 for -inf).
    const char* tail = row->predicate ? " ? 1 : 0" : "";
    if (row->arity == 1) {
      kiln_cpu_emit(e, "{ %s a = %c_%u; %c_%u = (%s)%s; }", t, s, R16(1), d,
                    R16(0), row->expr, tail);
    } else if (row->arity == 2) {
      kiln_cpu_emit(e, "{ %s a = %c_%u, b = %c_%u; %c_%u = (%s)%s; }", t, s,
                    R16(1), s, R16(2), d, R16(0), row->expr, tail);
    } else {
      kiln_cpu_emit(
          e, "{ %s a = %c_%u, b = %c_%u, c = %c_%u; %c_%u = (%s)%s; }", t, s,
          R16(1), s, R16(2), s, R16(3), d, R16(0), row->expr, tail);
    }
    return kiln_ok_status();
  }
  if (kiln_cpu_emit_int(e, opcode, ip, off)) return kiln_ok_status();
  switch (opcode) {
    case KILN_VM_OP_CONST_I32:
      kiln_cpu_emit(e, "i_%u = (int32_t)0x%08" PRIx32 "u;", R16(0), U32(1));
      return kiln_ok_status();
    case KILN_VM_OP_CONST_I64:
      kiln_cpu_emit(e, "l_%u = (int64_t)0x%016" PRIx64 "ull;", R16(0),
                    kiln_vm_rd64(ip + off[1]));
      return kiln_ok_status();
    case KILN_VM_OP_CONST_F32:
      kiln_cpu_emit(e, "f_%u = kiln_vm_bits_to_f32(0x%08" PRIx32 "u);", R16(0),
                    U32(1));
      return kiln_ok_status();
    case KILN_VM_OP_CONST_F64:
      kiln_cpu_emit(e, "d_%u = kiln_vm_bits_to_f64(0x%016" PRIx64 "ull);",
                    R16(0), kiln_vm_rd64(ip + off[1]));
      return kiln_ok_status();
    case KILN_VM_OP_CONST_REF_NULL:
      kiln_cpu_emit(e, "r_%u.p = 0; r_%u.n = 0;", R16(0), R16(0));
      return kiln_ok_status();
    case KILN_VM_OP_MOV_I32:
    case KILN_VM_OP_MOV_I64:
    case KILN_VM_OP_MOV_F32:
    case KILN_VM_OP_MOV_F64:
    case KILN_VM_OP_MOV_REF: {
      char b = "ilfdr"[opcode - KILN_VM_OP_MOV_I32];
      kiln_cpu_emit(e, "%c_%u = %c_%u;", b, R16(0), b, R16(1));
      return kiln_ok_status();
    }
    case KILN_VM_OP_SELECT_I32:
    case KILN_VM_OP_SELECT_I64:
    case KILN_VM_OP_SELECT_F32:
    case KILN_VM_OP_SELECT_F64:
    case KILN_VM_OP_SELECT_REF: {
      char b = "ilfdr"[opcode - KILN_VM_OP_SELECT_I32];
      kiln_cpu_emit(e, "%c_%u = i_%u ? %c_%u : %c_%u;", b, R16(0), R16(1), b,
                    R16(2), b, R16(3));
      return kiln_ok_status();
    }
    case KILN_VM_OP_BUFFER_LOAD_I8_S:
    case KILN_VM_OP_BUFFER_LOAD_I8_U:
    case KILN_VM_OP_BUFFER_LOAD_I16_S:
    case KILN_VM_OP_BUFFER_LOAD_I16_U:
    case KILN_VM_OP_BUFFER_LOAD_I32:
    case KILN_VM_OP_BUFFER_LOAD_I64:
    case KILN_VM_OP_BUFFER_LOAD_F32:
    case KILN_VM_OP_BUFFER_LOAD_F64: {
      static const char* const kType[] = {"int8_t",   "uint8_t", "int16_t",
                                          "uint16_t", "int32_t", "int64_t",
                                          "float",    "double"};
      static const char kDst[] = "iiiiilfd";
      uint32_t k = opcode - KILN_VM_OP_BUFFER_LOAD_I8_S;
      kiln_cpu_emit(e, "KILN_CPU_LOAD(%s, r_%u, l_%u, %c_%u);", kType[k],
                    R16(1), R16(2), kDst[k], R16(0));
      return kiln_ok_status();
    }
    case KILN_VM_OP_BUFFER_STORE_I8:
    case KILN_VM_OP_BUFFER_STORE_I16:
    case KILN_VM_OP_BUFFER_STORE_I32:
    case KILN_VM_OP_BUFFER_STORE_I64:
    case KILN_VM_OP_BUFFER_STORE_F32:
    case KILN_VM_OP_BUFFER_STORE_F64: {
      static const char* const kType[] = {"uint8_t", "uint16_t", "int32_t",
                                          "int64_t", "float",    "double"};
      static const char kSrc[] = "iiilfd";
      uint32_t k = opcode - KILN_VM_OP_BUFFER_STORE_I8;
      kiln_cpu_emit(e, "KILN_CPU_STORE(%s, r_%u, l_%u, %c_%u);", kType[k],
                    R16(0), R16(1), kSrc[k], R16(2));
      return kiln_ok_status();
    }
    case KILN_VM_OP_BUFFER_LENGTH:
      kiln_cpu_emit(e, "l_%u = (int64_t)r_%u.n;", R16(0), R16(1));
      return kiln_ok_status();
    case KILN_VM_OP_LIST_SIZE:
      if (R16(1) != 2) break;
      kiln_cpu_emit(e, "i_%u = (int32_t)ds->binding_count;", R16(0));
      return kiln_ok_status();
    case KILN_VM_OP_LIST_GET_REF:
      // Only the bindings list (argument r2) exists in a dispatch.
      if (R16(1) != 2) break;
      kiln_cpu_emit(
          e,
          "if ((uint32_t)i_%u >= ds->binding_count) return "
          "KILN_CPU_FAIL_BINDING; r_%u.p = (uint8_t*)"
          "ds->binding_ptrs[i_%u]; r_%u.n = ds->binding_lengths[i_%u];",
          R16(2), R16(0), R16(2), R16(0), R16(2));
      return kiln_ok_status();
    case KILN_VM_OP_BR:
      kiln_cpu_emit(e, "goto L_%u;", U32(0));
      return kiln_ok_status();
    case KILN_VM_OP_BR_COND:
      kiln_cpu_emit(e, "if (i_%u) goto L_%u; else goto L_%u;", R16(0), U32(1),
                    U32(2));
      return kiln_ok_status();
    case KILN_VM_OP_BR_TABLE: {
      const uint8_t* table = ip + off[2];
      uint16_t count = kiln_vm_rd16(table);
      kiln_cpu_emit(e, "switch (i_%u) {", R16(0));
      for (uint16_t t = 0; t < count; ++t) {
        kiln_cpu_emit(e, "  case %u: goto L_%u;", t,
                      kiln_vm_rd32(table + 2 + 4 * t));
      }
      kiln_cpu_emit(e, "  default: goto L_%u;", U32(1));
      kiln_cpu_emit(e, "}");
      return kiln_ok_status();
    }
    case KILN_VM_OP_RET:
      // Entry points return nothing (the verifier checked the signature).
      kiln_cpu_emit(e, "return 0;");
      return kiln_ok_status();
    case KILN_VM_OP_FAIL:
      kiln_cpu_emit(e, "return KILN_CPU_FAIL_PROGRAM;");
      return kiln_ok_status();
    default:
      break;
  }
  return kiln_cpu_unsupported(opcode);
}

kiln_status_t kiln_cpu_emit_entry_c(kiln_vm_module_t* module, uint32_t ordinal,
                                    const char* c_name,
                                    kiln_ir_string_builder_t* out) {
  kiln_cpu_emitter_t e;
  memset(&e, 0, sizeof(e));
  e.out = out;
  uint16_t regs[5];
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_module_function_registers(module, ordinal, regs));
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_module_function_code(
      module, ordinal, &e.code, &e.length));
  if (regs[KILN_VM_BANK_I32] < 6 || regs[KILN_VM_BANK_REF] < 3) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "cpu backend: dispatch program does not take the "
                            "dispatch arguments (rrriiiiii)");
  }
  e.is_target = (uint8_t*)calloc(e.length + 1, 1);
  if (!e.is_target) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  // Pass 1: branch targets get labels.
  uint32_t off[8];
  for (uint32_t pc = 0; pc < e.length;) {
    const uint8_t* ip = e.code + pc;
    uint32_t size = kiln_cpu_decode(ip, off);
    const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(kiln_vm_rd16(ip));
    for (uint32_t k = 0; info->format[k]; ++k) {
      if (info->format[k] == 'B') {
        uint32_t target = kiln_vm_rd32(ip + off[k]);
        if (target <= e.length) e.is_target[target] = 1;
      } else if (info->format[k] == 'W') {
        const uint8_t* table = ip + off[k];
        for (uint16_t t = 0; t < kiln_vm_rd16(table); ++t) {
          uint32_t target = kiln_vm_rd32(table + 2 + 4 * t);
          if (target <= e.length) e.is_target[target] = 1;
        }
      }
    }
    pc += size;
  }
  // The function: typed locals per register, arguments bound from the ABI.
  kiln_ir_sb_printf(
      out,
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n",
      c_name);
  for (int bank = 0; bank < KILN_VM_BANK_COUNT; ++bank) {
    for (uint32_t r = 0; r < regs[bank]; ++r) {
      if (bank == KILN_VM_BANK_REF && r == 2) continue;  // the bindings list
      if (bank == KILN_VM_BANK_REF) {
        kiln_ir_sb_printf(out, "  kiln_cpu_ref_t r_%u = {0, 0};\n", r);
      } else {
        kiln_ir_sb_printf(out, "  %s %c_%u = 0;\n", kiln_cpu_bank_ctype[bank],
                          kiln_cpu_bank_char(bank), r);
      }
    }
  }
  kiln_ir_sb_printf(
      out,
      "  r_0.p = (uint8_t*)wg->local_memory; r_0.n = wg->local_memory_size;\n"
      "  r_1.p = (uint8_t*)ds->constants; r_1.n = (uint64_t)ds->constant_count "
      "* 4;\n"
      "  i_0 = (int32_t)wg->workgroup_id_x; i_1 = (int32_t)wg->workgroup_id_y;"
      " i_2 = (int32_t)wg->workgroup_id_z;\n"
      "  i_3 = (int32_t)ds->workgroup_count_x; i_4 = "
      "(int32_t)ds->workgroup_count_y; i_5 = "
      "(int32_t)ds->workgroup_count_z;\n");
  kiln_status_t status = kiln_ok_status();
  for (uint32_t pc = 0; pc < e.length && !status;) {
    const uint8_t* ip = e.code + pc;
    uint32_t size = kiln_cpu_decode(ip, off);
    if (e.is_target[pc]) kiln_ir_sb_printf(out, "L_%u:;\n", pc);
    status = kiln_cpu_emit_instruction(&e, ip, off);
    pc += size;
  }
  if (!status && e.is_target[e.length]) {
    kiln_ir_sb_printf(out, "L_%u:;\n  return 0;\n", e.length);
  }
  kiln_ir_sb_printf(out, "}\n\n");
  free(e.is_target);
  if (!status && out->failed) {
    status = kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory emitting C");
  }
  return status;
}
