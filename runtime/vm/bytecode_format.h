// The .kmod binary layout and the bytecode instruction set, shared by the
// loader, verifier, interpreter, disassembler, writer and assembler.
// docs/website/docs/developers/design-docs/module-format.md and vm-bytecode.md
// describe both in prose; this header is the single source of truth for the
// numbers.
#ifndef KILN_RUNTIME_VM_BYTECODE_FORMAT_H_
#define KILN_RUNTIME_VM_BYTECODE_FORMAT_H_

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// File layout (all integers little-endian)
//===----------------------------------------------------------------------===//

#define KILN_VM_MODULE_MAGIC "KILNMOD\0"
#define KILN_VM_MODULE_MAGIC_SIZE 8

// Header (64 bytes at offset 0):
//   0 magic[8]  8 u16 major  10 u16 minor  12 u32 flags (0)
//   16 u64 file_length  24 u32 crc32 (of the file with this field zeroed)
//   28 u32 section_count  32 u64 section_table_offset
//   40 u32 module name (string index)  44..64 reserved (0)
#define KILN_VM_HEADER_SIZE 64
#define KILN_VM_HEADER_CRC_OFFSET 24

// Section table entry (24 bytes): u32 kind, u32 reserved, u64 offset,
// u64 length. Offsets are from the start of the file.
#define KILN_VM_SECTION_ENTRY_SIZE 24
typedef enum kiln_vm_section_kind_e {
  KILN_VM_SECTION_STRINGS = 1,
  KILN_VM_SECTION_IMPORTS = 2,
  KILN_VM_SECTION_EXPORTS = 3,
  KILN_VM_SECTION_FUNCTIONS = 4,
  KILN_VM_SECTION_BYTECODE = 5,
  KILN_VM_SECTION_RODATA = 6,
  KILN_VM_SECTION_EXECUTABLES = 7,
  KILN_VM_SECTION_GLOBALS = 8,           // format 1.1
  KILN_VM_SECTION_RODATA_CHECKSUMS = 9,  // optional, see below
  KILN_VM_SECTION_KIND_MAX = 9,
} kiln_vm_section_kind_t;

// STRINGS: u32 count, count x {u32 offset, u32 length} (offsets from the
// section start), then the bytes.
// IMPORTS: u32 count, count x {u32 name, u32 signature} (string indices).
// EXPORTS: u32 export_count, u32 attr_count,
//   export_count x {u32 name, u32 function, u32 first_attr, u32 attr_count},
//   attr_count x {u32 key, u32 value}.
// FUNCTIONS: u32 count, count x {u32 name, u32 signature, u16 regs[5],
//   u16 reserved, u32 code_offset (in BYTECODE), u32 code_length,
//   u32 reserved} (32 bytes).
// BYTECODE: raw instructions.
// RODATA: u32 count, u32 reserved, count x {u32 name, u32 alignment,
//   u64 offset (FILE offset, multiple of alignment), u64 length} (24 bytes),
//   data within the section. Format 1.2: bit 31 of the alignment word
//   (KILN_VM_RODATA_FLAG_SPLAT) marks a splat, whose data is {u64 length,
//   pattern (1..64 bytes)}: the entry stands for |length| bytes repeating the
//   pattern (a multiple of its size), built when a context is created, so
//   that a constant of 10^9 equal elements is a few bytes in the file.
// EXECUTABLES: u32 count, u32 entry_count, count x {u32 name, u32 format,
//   u32 first_entry, u32 entry_count, u64 data_offset (FILE offset, 64-byte
//   aligned), u64 data_length, u32 flags (bit 0: has digest), u32 reserved,
//   u8 sha256[32]} (72 bytes), entry_count x {u32 name, u32 wg_x, u32 wg_y,
//   u32 wg_z, u32 local_memory_bytes, u32 source_location} (24 bytes).
// GLOBALS (format 1.1, optional): u32 count, count x {u32 name (string
//   index), u32 bank (kiln_vm_bank_t)} (8 bytes). Each context holds its own
//   zero / null initialized value per global.
// RODATA_CHECKSUMS (optional; readers that do not know it skip it, so it
//   changes no version): u32 structure_crc32, u32 count (the RODATA
//   count), count x u32 crc32 of each rodata entry's bytes as stored.
//   structure_crc32 covers the file minus three ranges: the header's crc32
//   field, the structure_crc32 field itself, and the RODATA section's data
//   (from the end of its entry table to the section's end). A reader that
//   knows the section checks the structure at load and each entry before
//   its first use, so that loading reads no weights; the header's crc32
//   still covers the whole file, for older readers and as the fallback.
#define KILN_VM_RODATA_CHECKSUMS_HEADER_SIZE 8
#define KILN_VM_IMPORT_ENTRY_SIZE 8
#define KILN_VM_EXPORT_ENTRY_SIZE 16
#define KILN_VM_ATTR_ENTRY_SIZE 8
#define KILN_VM_FUNCTION_ENTRY_SIZE 32
#define KILN_VM_RODATA_ENTRY_SIZE 24
#define KILN_VM_RODATA_FLAG_SPLAT 0x80000000u
// Format 1.3: bit 30 marks a parameter, whose data is {u32 scope, u32 key
// (string indices), u64 length}: the bytes live in a parameter file
// (.irpa / safetensors) bound after loading.
#define KILN_VM_RODATA_FLAG_PARAMETER 0x40000000u
#define KILN_VM_RODATA_PARAMETER_DATA_SIZE 16
#define KILN_VM_RODATA_MAX_SPLAT_PATTERN 64
#define KILN_VM_EXECUTABLE_ENTRY_SIZE 72
#define KILN_VM_ENTRY_POINT_ENTRY_SIZE 24
#define KILN_VM_GLOBAL_ENTRY_SIZE 8
#define KILN_VM_EXECUTABLE_FLAG_HAS_DIGEST 1u
#define KILN_VM_DATA_ALIGNMENT 64
#define KILN_VM_MAX_ALIGNMENT 65536

// Register banks, in the order of the function table's regs[5] and of the
// bank byte in register lists (bank + 1 == kiln_vm_value_type_t).
typedef enum kiln_vm_bank_e {
  KILN_VM_BANK_I32 = 0,
  KILN_VM_BANK_I64 = 1,
  KILN_VM_BANK_F32 = 2,
  KILN_VM_BANK_F64 = 3,
  KILN_VM_BANK_REF = 4,
  KILN_VM_BANK_COUNT = 5,
} kiln_vm_bank_t;

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//
// An instruction is a u16 opcode followed by its operands in the order given
// by the operand format string, each character one operand:
//   i l f d r  register of bank i32/i64/f32/f64/ref: u16 index
//   I L F D    immediate i32/i64/f32/f64: 4/8/4/8 bytes
//   B          branch target: u32 byte offset from the function's start
//   R S C M    u32 index of a rodata entry / string / internal function /
//              import
//   E          u32 index of an executable (executable.ref)
//   G          u32 index of a global (its bank must match the opcode's)
//   A          register list: u8 count, count x {u8 bank, u16 index}
//   W          branch table: u16 count, count x u32 branch target
// The first operand is the destination where there is one.

#define KILN_VM_OPCODES(X)                                                     \
  X(CONST_I32, "const.i32", "iI")                  /* 1 */                     \
  X(CONST_I64, "const.i64", "lL")                  /* 2 */                     \
  X(CONST_F32, "const.f32", "fF")                  /* 3 */                     \
  X(CONST_F64, "const.f64", "dD")                  /* 4 */                     \
  X(CONST_REF_NULL, "const.ref.null", "r")         /* 5 */                     \
  X(RODATA_REF, "rodata.ref", "rR")                /* 6 */                     \
  X(MOV_I32, "mov.i32", "ii")                      /* 7 */                     \
  X(MOV_I64, "mov.i64", "ll")                      /* 8 */                     \
  X(MOV_F32, "mov.f32", "ff")                      /* 9 */                     \
  X(MOV_F64, "mov.f64", "dd")                      /* 10 */                    \
  X(MOV_REF, "mov.ref", "rr")                      /* 11 */                    \
  X(SELECT_I32, "select.i32", "iiii")              /* 12 */                    \
  X(SELECT_I64, "select.i64", "lill")              /* 13 */                    \
  X(SELECT_F32, "select.f32", "fiff")              /* 14 */                    \
  X(SELECT_F64, "select.f64", "didd")              /* 15 */                    \
  X(SELECT_REF, "select.ref", "rirr")              /* 16 */                    \
  X(ADD_I32, "add.i32", "iii")                     /* 17 */                    \
  X(SUB_I32, "sub.i32", "iii")                     /* 18 */                    \
  X(MUL_I32, "mul.i32", "iii")                     /* 19 */                    \
  X(DIV_S_I32, "div.s.i32", "iii")                 /* 20 */                    \
  X(DIV_U_I32, "div.u.i32", "iii")                 /* 21 */                    \
  X(REM_S_I32, "rem.s.i32", "iii")                 /* 22 */                    \
  X(REM_U_I32, "rem.u.i32", "iii")                 /* 23 */                    \
  X(AND_I32, "and.i32", "iii")                     /* 24 */                    \
  X(OR_I32, "or.i32", "iii")                       /* 25 */                    \
  X(XOR_I32, "xor.i32", "iii")                     /* 26 */                    \
  X(SHL_I32, "shl.i32", "iii")                     /* 27 */                    \
  X(SHR_S_I32, "shr.s.i32", "iii")                 /* 28 */                    \
  X(SHR_U_I32, "shr.u.i32", "iii")                 /* 29 */                    \
  X(MIN_S_I32, "min.s.i32", "iii")                 /* 30 */                    \
  X(MAX_S_I32, "max.s.i32", "iii")                 /* 31 */                    \
  X(MIN_U_I32, "min.u.i32", "iii")                 /* 32 */                    \
  X(MAX_U_I32, "max.u.i32", "iii")                 /* 33 */                    \
  X(NOT_I32, "not.i32", "ii")                      /* 34 */                    \
  X(NEG_I32, "neg.i32", "ii")                      /* 35 */                    \
  X(ABS_I32, "abs.i32", "ii")                      /* 36 */                    \
  X(CTLZ_I32, "ctlz.i32", "ii")                    /* 37 */                    \
  X(POPCNT_I32, "popcnt.i32", "ii")                /* 38 */                    \
  X(CMP_EQ_I32, "cmp.eq.i32", "iii")               /* 39 */                    \
  X(CMP_NE_I32, "cmp.ne.i32", "iii")               /* 40 */                    \
  X(CMP_LT_S_I32, "cmp.lt.s.i32", "iii")           /* 41 */                    \
  X(CMP_LE_S_I32, "cmp.le.s.i32", "iii")           /* 42 */                    \
  X(CMP_GT_S_I32, "cmp.gt.s.i32", "iii")           /* 43 */                    \
  X(CMP_GE_S_I32, "cmp.ge.s.i32", "iii")           /* 44 */                    \
  X(CMP_LT_U_I32, "cmp.lt.u.i32", "iii")           /* 45 */                    \
  X(CMP_LE_U_I32, "cmp.le.u.i32", "iii")           /* 46 */                    \
  X(CMP_GT_U_I32, "cmp.gt.u.i32", "iii")           /* 47 */                    \
  X(CMP_GE_U_I32, "cmp.ge.u.i32", "iii")           /* 48 */                    \
  X(ADD_I64, "add.i64", "lll")                     /* 49 */                    \
  X(SUB_I64, "sub.i64", "lll")                     /* 50 */                    \
  X(MUL_I64, "mul.i64", "lll")                     /* 51 */                    \
  X(DIV_S_I64, "div.s.i64", "lll")                 /* 52 */                    \
  X(DIV_U_I64, "div.u.i64", "lll")                 /* 53 */                    \
  X(REM_S_I64, "rem.s.i64", "lll")                 /* 54 */                    \
  X(REM_U_I64, "rem.u.i64", "lll")                 /* 55 */                    \
  X(AND_I64, "and.i64", "lll")                     /* 56 */                    \
  X(OR_I64, "or.i64", "lll")                       /* 57 */                    \
  X(XOR_I64, "xor.i64", "lll")                     /* 58 */                    \
  X(SHL_I64, "shl.i64", "lll")                     /* 59 */                    \
  X(SHR_S_I64, "shr.s.i64", "lll")                 /* 60 */                    \
  X(SHR_U_I64, "shr.u.i64", "lll")                 /* 61 */                    \
  X(MIN_S_I64, "min.s.i64", "lll")                 /* 62 */                    \
  X(MAX_S_I64, "max.s.i64", "lll")                 /* 63 */                    \
  X(MIN_U_I64, "min.u.i64", "lll")                 /* 64 */                    \
  X(MAX_U_I64, "max.u.i64", "lll")                 /* 65 */                    \
  X(NOT_I64, "not.i64", "ll")                      /* 66 */                    \
  X(NEG_I64, "neg.i64", "ll")                      /* 67 */                    \
  X(ABS_I64, "abs.i64", "ll")                      /* 68 */                    \
  X(CTLZ_I64, "ctlz.i64", "ll")                    /* 69 */                    \
  X(POPCNT_I64, "popcnt.i64", "ll")                /* 70 */                    \
  X(CMP_EQ_I64, "cmp.eq.i64", "ill")               /* 71 */                    \
  X(CMP_NE_I64, "cmp.ne.i64", "ill")               /* 72 */                    \
  X(CMP_LT_S_I64, "cmp.lt.s.i64", "ill")           /* 73 */                    \
  X(CMP_LE_S_I64, "cmp.le.s.i64", "ill")           /* 74 */                    \
  X(CMP_GT_S_I64, "cmp.gt.s.i64", "ill")           /* 75 */                    \
  X(CMP_GE_S_I64, "cmp.ge.s.i64", "ill")           /* 76 */                    \
  X(CMP_LT_U_I64, "cmp.lt.u.i64", "ill")           /* 77 */                    \
  X(CMP_LE_U_I64, "cmp.le.u.i64", "ill")           /* 78 */                    \
  X(CMP_GT_U_I64, "cmp.gt.u.i64", "ill")           /* 79 */                    \
  X(CMP_GE_U_I64, "cmp.ge.u.i64", "ill")           /* 80 */                    \
  X(ADD_F32, "add.f32", "fff")                     /* 81 */                    \
  X(SUB_F32, "sub.f32", "fff")                     /* 82 */                    \
  X(MUL_F32, "mul.f32", "fff")                     /* 83 */                    \
  X(DIV_F32, "div.f32", "fff")                     /* 84 */                    \
  X(REM_F32, "rem.f32", "fff")                     /* 85 */                    \
  X(MIN_F32, "min.f32", "fff")                     /* 86 */                    \
  X(MAX_F32, "max.f32", "fff")                     /* 87 */                    \
  X(COPYSIGN_F32, "copysign.f32", "fff")           /* 88 */                    \
  X(ATAN2_F32, "atan2.f32", "fff")                 /* 89 */                    \
  X(POW_F32, "pow.f32", "fff")                     /* 90 */                    \
  X(NEG_F32, "neg.f32", "ff")                      /* 91 */                    \
  X(ABS_F32, "abs.f32", "ff")                      /* 92 */                    \
  X(SQRT_F32, "sqrt.f32", "ff")                    /* 93 */                    \
  X(RSQRT_F32, "rsqrt.f32", "ff")                  /* 94 */                    \
  X(EXP_F32, "exp.f32", "ff")                      /* 95 */                    \
  X(EXP2_F32, "exp2.f32", "ff")                    /* 96 */                    \
  X(EXPM1_F32, "expm1.f32", "ff")                  /* 97 */                    \
  X(LOG_F32, "log.f32", "ff")                      /* 98 */                    \
  X(LOG2_F32, "log2.f32", "ff")                    /* 99 */                    \
  X(LOG10_F32, "log10.f32", "ff")                  /* 100 */                   \
  X(LOG1P_F32, "log1p.f32", "ff")                  /* 101 */                   \
  X(SIN_F32, "sin.f32", "ff")                      /* 102 */                   \
  X(COS_F32, "cos.f32", "ff")                      /* 103 */                   \
  X(TAN_F32, "tan.f32", "ff")                      /* 104 */                   \
  X(ASIN_F32, "asin.f32", "ff")                    /* 105 */                   \
  X(ACOS_F32, "acos.f32", "ff")                    /* 106 */                   \
  X(ATAN_F32, "atan.f32", "ff")                    /* 107 */                   \
  X(SINH_F32, "sinh.f32", "ff")                    /* 108 */                   \
  X(COSH_F32, "cosh.f32", "ff")                    /* 109 */                   \
  X(TANH_F32, "tanh.f32", "ff")                    /* 110 */                   \
  X(ASINH_F32, "asinh.f32", "ff")                  /* 111 */                   \
  X(ACOSH_F32, "acosh.f32", "ff")                  /* 112 */                   \
  X(ATANH_F32, "atanh.f32", "ff")                  /* 113 */                   \
  X(FLOOR_F32, "floor.f32", "ff")                  /* 114 */                   \
  X(CEIL_F32, "ceil.f32", "ff")                    /* 115 */                   \
  X(ROUND_F32, "round.f32", "ff")                  /* 116 */                   \
  X(ROUNDEVEN_F32, "roundeven.f32", "ff")          /* 117 */                   \
  X(TRUNC_F32, "trunc.f32", "ff")                  /* 118 */                   \
  X(ERF_F32, "erf.f32", "ff")                      /* 119 */                   \
  X(FMA_F32, "fma.f32", "ffff")                    /* 120 */                   \
  X(ISNAN_F32, "isnan.f32", "if")                  /* 121 */                   \
  X(ISINF_F32, "isinf.f32", "if")                  /* 122 */                   \
  X(CMP_OEQ_F32, "cmp.oeq.f32", "iff")             /* 123 */                   \
  X(CMP_ONE_F32, "cmp.one.f32", "iff")             /* 124 */                   \
  X(CMP_OLT_F32, "cmp.olt.f32", "iff")             /* 125 */                   \
  X(CMP_OLE_F32, "cmp.ole.f32", "iff")             /* 126 */                   \
  X(CMP_OGT_F32, "cmp.ogt.f32", "iff")             /* 127 */                   \
  X(CMP_OGE_F32, "cmp.oge.f32", "iff")             /* 128 */                   \
  X(CMP_UEQ_F32, "cmp.ueq.f32", "iff")             /* 129 */                   \
  X(CMP_UNE_F32, "cmp.une.f32", "iff")             /* 130 */                   \
  X(CMP_ULT_F32, "cmp.ult.f32", "iff")             /* 131 */                   \
  X(CMP_ULE_F32, "cmp.ule.f32", "iff")             /* 132 */                   \
  X(CMP_UGT_F32, "cmp.ugt.f32", "iff")             /* 133 */                   \
  X(CMP_UGE_F32, "cmp.uge.f32", "iff")             /* 134 */                   \
  X(CMP_ORD_F32, "cmp.ord.f32", "iff")             /* 135 */                   \
  X(CMP_UNO_F32, "cmp.uno.f32", "iff")             /* 136 */                   \
  X(ADD_F64, "add.f64", "ddd")                     /* 137 */                   \
  X(SUB_F64, "sub.f64", "ddd")                     /* 138 */                   \
  X(MUL_F64, "mul.f64", "ddd")                     /* 139 */                   \
  X(DIV_F64, "div.f64", "ddd")                     /* 140 */                   \
  X(REM_F64, "rem.f64", "ddd")                     /* 141 */                   \
  X(MIN_F64, "min.f64", "ddd")                     /* 142 */                   \
  X(MAX_F64, "max.f64", "ddd")                     /* 143 */                   \
  X(COPYSIGN_F64, "copysign.f64", "ddd")           /* 144 */                   \
  X(ATAN2_F64, "atan2.f64", "ddd")                 /* 145 */                   \
  X(POW_F64, "pow.f64", "ddd")                     /* 146 */                   \
  X(NEG_F64, "neg.f64", "dd")                      /* 147 */                   \
  X(ABS_F64, "abs.f64", "dd")                      /* 148 */                   \
  X(SQRT_F64, "sqrt.f64", "dd")                    /* 149 */                   \
  X(RSQRT_F64, "rsqrt.f64", "dd")                  /* 150 */                   \
  X(EXP_F64, "exp.f64", "dd")                      /* 151 */                   \
  X(EXP2_F64, "exp2.f64", "dd")                    /* 152 */                   \
  X(EXPM1_F64, "expm1.f64", "dd")                  /* 153 */                   \
  X(LOG_F64, "log.f64", "dd")                      /* 154 */                   \
  X(LOG2_F64, "log2.f64", "dd")                    /* 155 */                   \
  X(LOG10_F64, "log10.f64", "dd")                  /* 156 */                   \
  X(LOG1P_F64, "log1p.f64", "dd")                  /* 157 */                   \
  X(SIN_F64, "sin.f64", "dd")                      /* 158 */                   \
  X(COS_F64, "cos.f64", "dd")                      /* 159 */                   \
  X(TAN_F64, "tan.f64", "dd")                      /* 160 */                   \
  X(ASIN_F64, "asin.f64", "dd")                    /* 161 */                   \
  X(ACOS_F64, "acos.f64", "dd")                    /* 162 */                   \
  X(ATAN_F64, "atan.f64", "dd")                    /* 163 */                   \
  X(SINH_F64, "sinh.f64", "dd")                    /* 164 */                   \
  X(COSH_F64, "cosh.f64", "dd")                    /* 165 */                   \
  X(TANH_F64, "tanh.f64", "dd")                    /* 166 */                   \
  X(ASINH_F64, "asinh.f64", "dd")                  /* 167 */                   \
  X(ACOSH_F64, "acosh.f64", "dd")                  /* 168 */                   \
  X(ATANH_F64, "atanh.f64", "dd")                  /* 169 */                   \
  X(FLOOR_F64, "floor.f64", "dd")                  /* 170 */                   \
  X(CEIL_F64, "ceil.f64", "dd")                    /* 171 */                   \
  X(ROUND_F64, "round.f64", "dd")                  /* 172 */                   \
  X(ROUNDEVEN_F64, "roundeven.f64", "dd")          /* 173 */                   \
  X(TRUNC_F64, "trunc.f64", "dd")                  /* 174 */                   \
  X(ERF_F64, "erf.f64", "dd")                      /* 175 */                   \
  X(FMA_F64, "fma.f64", "dddd")                    /* 176 */                   \
  X(ISNAN_F64, "isnan.f64", "id")                  /* 177 */                   \
  X(ISINF_F64, "isinf.f64", "id")                  /* 178 */                   \
  X(CMP_OEQ_F64, "cmp.oeq.f64", "idd")             /* 179 */                   \
  X(CMP_ONE_F64, "cmp.one.f64", "idd")             /* 180 */                   \
  X(CMP_OLT_F64, "cmp.olt.f64", "idd")             /* 181 */                   \
  X(CMP_OLE_F64, "cmp.ole.f64", "idd")             /* 182 */                   \
  X(CMP_OGT_F64, "cmp.ogt.f64", "idd")             /* 183 */                   \
  X(CMP_OGE_F64, "cmp.oge.f64", "idd")             /* 184 */                   \
  X(CMP_UEQ_F64, "cmp.ueq.f64", "idd")             /* 185 */                   \
  X(CMP_UNE_F64, "cmp.une.f64", "idd")             /* 186 */                   \
  X(CMP_ULT_F64, "cmp.ult.f64", "idd")             /* 187 */                   \
  X(CMP_ULE_F64, "cmp.ule.f64", "idd")             /* 188 */                   \
  X(CMP_UGT_F64, "cmp.ugt.f64", "idd")             /* 189 */                   \
  X(CMP_UGE_F64, "cmp.uge.f64", "idd")             /* 190 */                   \
  X(CMP_ORD_F64, "cmp.ord.f64", "idd")             /* 191 */                   \
  X(CMP_UNO_F64, "cmp.uno.f64", "idd")             /* 192 */                   \
  X(EXT_I32_I64_S, "ext.i32.i64.s", "li")          /* 193 */                   \
  X(EXT_I32_I64_U, "ext.i32.i64.u", "li")          /* 194 */                   \
  X(TRUNC_I64_I32, "trunc.i64.i32", "il")          /* 195 */                   \
  X(CAST_SI32_F32, "cast.si32.f32", "fi")          /* 196 */                   \
  X(CAST_UI32_F32, "cast.ui32.f32", "fi")          /* 197 */                   \
  X(CAST_SI64_F32, "cast.si64.f32", "fl")          /* 198 */                   \
  X(CAST_UI64_F32, "cast.ui64.f32", "fl")          /* 199 */                   \
  X(CAST_SI32_F64, "cast.si32.f64", "di")          /* 200 */                   \
  X(CAST_UI32_F64, "cast.ui32.f64", "di")          /* 201 */                   \
  X(CAST_SI64_F64, "cast.si64.f64", "dl")          /* 202 */                   \
  X(CAST_UI64_F64, "cast.ui64.f64", "dl")          /* 203 */                   \
  X(CAST_F32_SI32, "cast.f32.si32", "if")          /* 204 */                   \
  X(CAST_F32_UI32, "cast.f32.ui32", "if")          /* 205 */                   \
  X(CAST_F32_SI64, "cast.f32.si64", "lf")          /* 206 */                   \
  X(CAST_F32_UI64, "cast.f32.ui64", "lf")          /* 207 */                   \
  X(CAST_F64_SI32, "cast.f64.si32", "id")          /* 208 */                   \
  X(CAST_F64_UI32, "cast.f64.ui32", "id")          /* 209 */                   \
  X(CAST_F64_SI64, "cast.f64.si64", "ld")          /* 210 */                   \
  X(CAST_F64_UI64, "cast.f64.ui64", "ld")          /* 211 */                   \
  X(EXT_F32_F64, "ext.f32.f64", "df")              /* 212 */                   \
  X(TRUNC_F64_F32, "trunc.f64.f32", "fd")          /* 213 */                   \
  X(BITCAST_I32_F32, "bitcast.i32.f32", "fi")      /* 214 */                   \
  X(BITCAST_F32_I32, "bitcast.f32.i32", "if")      /* 215 */                   \
  X(BITCAST_I64_F64, "bitcast.i64.f64", "dl")      /* 216 */                   \
  X(BITCAST_F64_I64, "bitcast.f64.i64", "ld")      /* 217 */                   \
  X(CAST_F32_F16, "cast.f32.f16", "if")            /* 218 */                   \
  X(CAST_F16_F32, "cast.f16.f32", "fi")            /* 219 */                   \
  X(CAST_F32_BF16, "cast.f32.bf16", "if")          /* 220 */                   \
  X(CAST_BF16_F32, "cast.bf16.f32", "fi")          /* 221 */                   \
  X(BUFFER_LOAD_I8_S, "buffer.load.i8.s", "irl")   /* 222 */                   \
  X(BUFFER_LOAD_I8_U, "buffer.load.i8.u", "irl")   /* 223 */                   \
  X(BUFFER_LOAD_I16_S, "buffer.load.i16.s", "irl") /* 224 */                   \
  X(BUFFER_LOAD_I16_U, "buffer.load.i16.u", "irl") /* 225 */                   \
  X(BUFFER_LOAD_I32, "buffer.load.i32", "irl")     /* 226 */                   \
  X(BUFFER_LOAD_I64, "buffer.load.i64", "lrl")     /* 227 */                   \
  X(BUFFER_LOAD_F32, "buffer.load.f32", "frl")     /* 228 */                   \
  X(BUFFER_LOAD_F64, "buffer.load.f64", "drl")     /* 229 */                   \
  X(BUFFER_STORE_I8, "buffer.store.i8", "rli")     /* 230 */                   \
  X(BUFFER_STORE_I16, "buffer.store.i16", "rli")   /* 231 */                   \
  X(BUFFER_STORE_I32, "buffer.store.i32", "rli")   /* 232 */                   \
  X(BUFFER_STORE_I64, "buffer.store.i64", "rll")   /* 233 */                   \
  X(BUFFER_STORE_F32, "buffer.store.f32", "rlf")   /* 234 */                   \
  X(BUFFER_STORE_F64, "buffer.store.f64", "rld")   /* 235 */                   \
  X(BUFFER_LENGTH, "buffer.length", "lr")          /* 236 */                   \
  X(BUFFER_ALLOC, "buffer.alloc", "rl")            /* 237 */                   \
  X(BUFFER_COPY, "buffer.copy", "rlrll")           /* 238 */                   \
  X(BUFFER_FILL_I8, "buffer.fill.i8", "rlli")      /* 239 */                   \
  X(LIST_ALLOC, "list.alloc", "ri")                /* 240 */                   \
  X(LIST_SIZE, "list.size", "ir")                  /* 241 */                   \
  X(LIST_RESIZE, "list.resize", "ri")              /* 242 */                   \
  X(LIST_GET_I32, "list.get.i32", "iri")           /* 243 */                   \
  X(LIST_GET_I64, "list.get.i64", "lri")           /* 244 */                   \
  X(LIST_GET_F32, "list.get.f32", "fri")           /* 245 */                   \
  X(LIST_GET_F64, "list.get.f64", "dri")           /* 246 */                   \
  X(LIST_GET_REF, "list.get.ref", "rri")           /* 247 */                   \
  X(LIST_SET_I32, "list.set.i32", "rii")           /* 248 */                   \
  X(LIST_SET_I64, "list.set.i64", "ril")           /* 249 */                   \
  X(LIST_SET_F32, "list.set.f32", "rif")           /* 250 */                   \
  X(LIST_SET_F64, "list.set.f64", "rid")           /* 251 */                   \
  X(LIST_SET_REF, "list.set.ref", "rir")           /* 252 */                   \
  X(REF_IS_NULL, "ref.is_null", "ir")              /* 253 */                   \
  X(REF_EQ, "ref.eq", "irr")                       /* 254 */                   \
  X(BR, "br", "B")                                 /* 255 */                   \
  X(BR_COND, "br.cond", "iBB")                     /* 256 */                   \
  X(BR_TABLE, "br.table", "iBW")                   /* 257 */                   \
  X(CALL, "call", "CAA")                           /* 258 */                   \
  X(CALL_IMPORT, "call.import", "MAA")             /* 259 */                   \
  X(RET, "ret", "A")                               /* 260 */                   \
  X(FAIL, "fail", "iS")                            /* 261 */                   \
  X(TRACE, "trace", "SA")                          /* 262 */                   \
  X(EXECUTABLE_REF, "executable.ref", "rE")        /* 263 */                   \
  X(GLOBAL_LOAD_I32, "global.load.i32", "iG")      /* 264 */                   \
  X(GLOBAL_LOAD_I64, "global.load.i64", "lG")      /* 265 */                   \
  X(GLOBAL_LOAD_F32, "global.load.f32", "fG")      /* 266 */                   \
  X(GLOBAL_LOAD_F64, "global.load.f64", "dG")      /* 267 */                   \
  X(GLOBAL_LOAD_REF, "global.load.ref", "rG")      /* 268 */                   \
  X(GLOBAL_STORE_I32, "global.store.i32", "Gi")    /* 269 */                   \
  X(GLOBAL_STORE_I64, "global.store.i64", "Gl")    /* 270 */                   \
  X(GLOBAL_STORE_F32, "global.store.f32", "Gf")    /* 271 */                   \
  X(GLOBAL_STORE_F64, "global.store.f64", "Gd")    /* 272 */                   \
  X(GLOBAL_STORE_REF, "global.store.ref", "Gr")    /* 273 */                   \
  /* store_if_null: if the global is null store the source in it; either */    \
  /* way the destination gets the global's (winning) value. */                 \
  X(GLOBAL_STORE_IF_NULL_REF, "global.store_if_null.ref", "rGr") /* 274 */     \
  /* Appended after the globals so that existing opcode numbers stay. */       \
  X(ERFC_F32, "erfc.f32", "ff")                       /* 275 */                \
  X(ERFC_F64, "erfc.f64", "dd")                       /* 276 */                \
  X(CAST_F32_F8E4M3FN, "cast.f32.f8e4m3fn", "if")     /* 277 */                \
  X(CAST_F8E4M3FN_F32, "cast.f8e4m3fn.f32", "fi")     /* 278 */                \
  X(CAST_F32_F8E5M2, "cast.f32.f8e5m2", "if")         /* 279 */                \
  X(CAST_F8E5M2_F32, "cast.f8e5m2.f32", "fi")         /* 280 */                \
  X(CAST_F32_F8E4M3FNUZ, "cast.f32.f8e4m3fnuz", "if") /* 281 */                \
  X(CAST_F8E4M3FNUZ_F32, "cast.f8e4m3fnuz.f32", "fi") /* 282 */                \
  X(CAST_F32_F8E5M2FNUZ, "cast.f32.f8e5m2fnuz", "if") /* 283 */                \
  X(CAST_F8E5M2FNUZ_F32, "cast.f8e5m2fnuz.f32", "fi") /* 284 */                \
  X(CAST_F32_F8E8M0FNU, "cast.f32.f8e8m0fnu", "if")   /* 285 */                \
  X(CAST_F8E8M0FNU_F32, "cast.f8e8m0fnu.f32", "fi")   /* 286 */                \
  X(CAST_F32_F4E2M1FN, "cast.f32.f4e2m1fn", "if")     /* 287 */                \
  X(CAST_F4E2M1FN_F32, "cast.f4e2m1fn.f32", "fi")     /* 288 */                \
  /* dot.f32 dst, acc, a, a_index, a_stride, b, b_index, b_stride, count: */   \
  /* dst = acc + a[a_index + i a_stride] * b[b_index + i b_stride] summed */   \
  /* for i = 0..count-1 in order, each product and sum rounded to f32 (a */    \
  /* contraction's innermost loop in one instruction; f32 elements). */        \
  X(DOT_F32, "dot.f32", "ffrllrlll") /* 289 */                                 \
  /* dot.f16: the same over f16 elements, the accumulator an f32 register */   \
  /* holding an f16 value; each product and sum is rounded to f16 (via f32, */ \
  /* as cast.f32.f16 after mul.f32 / add.f32). */                              \
  X(DOT_F16, "dot.f16", "ffrllrlll") /* 290 */                                 \
  /* dot8.f16 acc0..acc7, a, a_index, a_stride, a_step, b, b_index, */         \
  /* b_stride, b_step, count: eight dot.f16 in place, accumulator q */         \
  /* reading a at a_index + q a_step + i a_stride, b likewise (8 adjacent */   \
  /* outputs of an f16 contraction: their rounding chains interleave). */      \
  X(DOT8_F16, "dot8.f16", "ffffffffrlllrllll") /* 291 */                       \
  /* end */

typedef enum kiln_vm_opcode_e {
  KILN_VM_OP_INVALID = 0,
#define KILN_VM_OP_ENUM_(name, mnemonic, format) KILN_VM_OP_##name,
  KILN_VM_OPCODES(KILN_VM_OP_ENUM_)
#undef KILN_VM_OP_ENUM_
      KILN_VM_OP_COUNT_,
} kiln_vm_opcode_t;

typedef struct kiln_vm_opcode_info_t {
  const char* mnemonic;
  const char* format;  // operand format string
} kiln_vm_opcode_info_t;

// CRC-32 of |length| bytes of |image| without the header's crc32 field, the
// 4 bytes at |field_offset| and [data_begin, data_end) (ranges may come in
// any order, overlap or reach past the end): the RODATA_CHECKSUMS
// structure_crc32, computed alike by the writer and the loader.
uint32_t kiln_vm_structure_crc32(const uint8_t* image, uint64_t length,
                                 uint64_t field_offset, uint64_t data_begin,
                                 uint64_t data_end);

// Info of |opcode| or NULL if it is not a valid opcode.
const kiln_vm_opcode_info_t* kiln_vm_opcode_info(uint32_t opcode);

// Looks up an opcode by mnemonic (length |length|); 0 if unknown.
uint32_t kiln_vm_opcode_lookup(const char* mnemonic, size_t length);

// True for opcodes after which control never falls through.
static inline int kiln_vm_opcode_is_terminator(uint32_t opcode) {
  return opcode == KILN_VM_OP_BR || opcode == KILN_VM_OP_BR_COND ||
         opcode == KILN_VM_OP_BR_TABLE || opcode == KILN_VM_OP_RET ||
         opcode == KILN_VM_OP_FAIL;
}

// True for global.load.* / global.store.* / global.store_if_null.ref.
static inline int kiln_vm_opcode_is_global(uint32_t opcode) {
  return opcode >= KILN_VM_OP_GLOBAL_LOAD_I32 &&
         opcode <= KILN_VM_OP_GLOBAL_STORE_IF_NULL_REF;
}

// Bank of a register operand character ('i' -> I32, ...); -1 otherwise.
static inline int kiln_vm_bank_of_operand(char c) {
  switch (c) {
    case 'i':
      return KILN_VM_BANK_I32;
    case 'l':
      return KILN_VM_BANK_I64;
    case 'f':
      return KILN_VM_BANK_F32;
    case 'd':
      return KILN_VM_BANK_F64;
    case 'r':
      return KILN_VM_BANK_REF;
    default:
      return -1;
  }
}
// Register prefix in assembly per bank: %i %l %f %d %r.
static inline char kiln_vm_bank_prefix(int bank) {
  return "ilfdr"[bank];
}
// Opcode suffix per bank (mov.i32, mov.ref, ...).
static inline const char* kiln_vm_bank_suffix(int bank) {
  static const char* const kSuffix[] = {"i32", "i64", "f32", "f64", "ref"};
  return kSuffix[bank];
}
// Bank of a signature type character ('i','I','f','F','r'); -1 otherwise.
static inline int kiln_vm_bank_of_type_char(char c) {
  switch (c) {
    case 'i':
      return KILN_VM_BANK_I32;
    case 'I':
      return KILN_VM_BANK_I64;
    case 'f':
      return KILN_VM_BANK_F32;
    case 'F':
      return KILN_VM_BANK_F64;
    case 'r':
      return KILN_VM_BANK_REF;
    default:
      return -1;
  }
}

//===----------------------------------------------------------------------===//
// Little-endian access (the runtime supports little-endian hosts only)
//===----------------------------------------------------------------------===//

static inline uint16_t kiln_vm_rd16(const uint8_t* p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}
static inline uint32_t kiln_vm_rd32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t kiln_vm_rd64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

//===----------------------------------------------------------------------===//
// Operand sizes: the one place that knows how many bytes each operand
// character of a format string occupies (the verifier, the disassembler and
// --trace_execution all walk instructions with these).
//===----------------------------------------------------------------------===//

// Bytes of an operand of kind |c| that can be read before its size is known:
// the whole operand for fixed-size kinds, the count field for 'A' and 'W'.
static inline uint32_t kiln_vm_operand_head_size(char c) {
  switch (c) {
    case 'L':
    case 'D':
      return 8;
    case 'I':
    case 'F':
    case 'B':
    case 'R':
    case 'E':
    case 'G':
    case 'S':
    case 'C':
    case 'M':
      return 4;
    case 'A':
      return 1;
    default:  // registers, and the count of a 'W' branch table
      return 2;
  }
}

// Whole size of the operand of kind |c| at |at|; for 'A' and 'W' the count
// field must be readable (the verifier checks the rest is in bounds).
static inline uint32_t kiln_vm_operand_size(char c, const uint8_t* at) {
  switch (c) {
    case 'A':
      return 1u + 3u * at[0];
    case 'W':
      return 2u + 4u * kiln_vm_rd16(at);
    default:
      return kiln_vm_operand_head_size(c);
  }
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_BYTECODE_FORMAT_H_
