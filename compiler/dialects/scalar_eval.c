// Scalar semantics of arith and math ops (see scalar_eval.h).
#include "compiler/dialects/scalar_eval.h"

#include <math.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Value canonicalization
//===----------------------------------------------------------------------===//

static uint32_t kiln_scalar_int_width(const kiln_ir_type_t* type) {
  if (type->kind == KILN_IR_TYPE_INDEX) return 64;
  return type->integer.width;
}

static bool kiln_scalar_is_unsigned(const kiln_ir_type_t* type) {
  return type->kind == KILN_IR_TYPE_INTEGER &&
         (type->integer.signedness == KILN_IR_UNSIGNED ||
          type->integer.width == 1);
}

static uint64_t kiln_scalar_mask(uint32_t width) {
  return width >= 64 ? ~0ull : ((1ull << width) - 1);
}

// The low |width| bits of |v| sign-extended.
static int64_t kiln_scalar_sext(uint64_t v, uint32_t width) {
  if (width >= 64) return (int64_t)v;
  v &= kiln_scalar_mask(width);
  uint64_t sign = 1ull << (width - 1);
  return (int64_t)((v ^ sign) - sign);
}

int64_t kiln_scalar_canon_int(const kiln_ir_type_t* type, int64_t value) {
  uint32_t width = kiln_scalar_int_width(type);
  if (kiln_scalar_is_unsigned(type)) {
    return (int64_t)((uint64_t)value & kiln_scalar_mask(width));
  }
  return kiln_scalar_sext((uint64_t)value, width);
}

double kiln_scalar_round_float(const kiln_ir_type_t* type, double value) {
  switch (type->flt.kind) {
    case KILN_IR_F64:
      return value;
    case KILN_IR_F32:
      return (double)(float)value;
    default:
      return kiln_ir_float_from_bits(
          type->flt.kind, kiln_ir_float_to_bits(type->flt.kind, value));
  }
}

// The smallest positive normal value of float |type|.
static double kiln_scalar_min_normal(const kiln_ir_type_t* type) {
  switch (type->flt.kind) {
    case KILN_IR_F16:
      return 0x1p-14;
    case KILN_IR_F64:
      return 0x1p-1022;
    case KILN_IR_F8E4M3FN:
    case KILN_IR_F4E2M1FN:
    case KILN_IR_F8E5M2:
    case KILN_IR_F8E4M3FNUZ:
    case KILN_IR_F8E5M2FNUZ:
    case KILN_IR_F8E8M0FNU:  // the smallest normal: encoding 0x08 / 0x04 ...
      return kiln_ir_float_from_bits(
          type->flt.kind, type->flt.kind == KILN_IR_F8E8M0FNU  ? 0
                          : type->flt.kind == KILN_IR_F4E2M1FN ? 0x2
                          : type->flt.kind == KILN_IR_F8E5M2 ||
                                  type->flt.kind == KILN_IR_F8E5M2FNUZ
                              ? 0x4
                              : 0x8);
    default:  // f32 and bf16 share f32's exponent range
      return 0x1p-126;
  }
}

static bool kiln_is_int(const kiln_ir_type_t* t) {
  return t &&
         (t->kind == KILN_IR_TYPE_INTEGER || t->kind == KILN_IR_TYPE_INDEX);
}
static bool kiln_is_float(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_FLOAT;
}

// Unsigned view of an integer value of |type|.
static uint64_t kiln_scalar_uval(const kiln_ir_type_t* type, int64_t v) {
  return (uint64_t)v & kiln_scalar_mask(kiln_scalar_int_width(type));
}
// Signed view of an integer value of |type|.
static int64_t kiln_scalar_sval(const kiln_ir_type_t* type, int64_t v) {
  return kiln_scalar_sext((uint64_t)v, kiln_scalar_int_width(type));
}

//===----------------------------------------------------------------------===//
// Predicates
//===----------------------------------------------------------------------===//

static const char* const kiln_cmpi_names[] = {
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
static const char* const kiln_cmpf_names[] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};

const char* kiln_cmpi_predicate_name(int64_t predicate) {
  if (predicate < 0 || predicate >= 10) return NULL;
  return kiln_cmpi_names[predicate];
}
const char* kiln_cmpf_predicate_name(int64_t predicate) {
  if (predicate < 0 || predicate >= 16) return NULL;
  return kiln_cmpf_names[predicate];
}
int64_t kiln_cmpi_predicate_lookup(kiln_string_view_t name) {
  for (int64_t i = 0; i < 10; ++i) {
    if (kiln_string_view_equal_cstr(name, kiln_cmpi_names[i])) return i;
  }
  return -1;
}
int64_t kiln_cmpf_predicate_lookup(kiln_string_view_t name) {
  for (int64_t i = 0; i < 16; ++i) {
    if (kiln_string_view_equal_cstr(name, kiln_cmpf_names[i])) return i;
  }
  return -1;
}

int kiln_scalar_op_arity(kiln_scalar_op_t op) {
  if (op >= KILN_SCALAR_ADDI && op <= KILN_SCALAR_FPOWI) return 2;
  if (op == KILN_SCALAR_FMA || op == KILN_SCALAR_SELECT) return 3;
  if (op == KILN_SCALAR_CMPI || op == KILN_SCALAR_CMPF) return 2;
  return 1;
}

//===----------------------------------------------------------------------===//
// Helpers for float ops
//===----------------------------------------------------------------------===//

static double kiln_round_half_even(double x) {
  if (!isfinite(x)) return x;
  double r = floor(x);
  double diff = x - r;
  if (diff > 0.5) {
    r += 1.0;
  } else if (diff == 0.5) {
    if (fmod(r, 2.0) != 0.0) r += 1.0;
  }
  return copysign(r, x);  // keeps -0 for small negatives
}

static double kiln_minimumf(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0.0 && b == 0.0) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static double kiln_maximumf(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0.0 && b == 0.0) return signbit(a) ? b : a;
  return a > b ? a : b;
}

static int64_t kiln_fp_to_int(double f, uint32_t width, bool is_signed) {
  if (isnan(f)) return 0;
  f = trunc(f);
  if (is_signed) {
    if (width >= 64) {
      if (f >= 9223372036854775808.0) return INT64_MAX;
      if (f < -9223372036854775808.0) return INT64_MIN;
      return (int64_t)f;
    }
    double max = ldexp(1.0, (int)width - 1) - 1.0;
    double min = -ldexp(1.0, (int)width - 1);
    if (f > max) f = max;
    if (f < min) f = min;
    return (int64_t)f;
  }
  if (f <= 0.0) return 0;
  if (width >= 64) {
    if (f >= 18446744073709551616.0) return (int64_t)UINT64_MAX;
    return (int64_t)(uint64_t)f;
  }
  double max = ldexp(1.0, (int)width) - 1.0;
  if (f > max) f = max;
  return (int64_t)(uint64_t)f;
}

static bool kiln_cmpf(int64_t predicate, double a, double b) {
  bool unordered = isnan(a) || isnan(b);
  switch (predicate) {
    case KILN_CMPF_FALSE:
      return false;
    case KILN_CMPF_OEQ:
      return !unordered && a == b;
    case KILN_CMPF_OGT:
      return !unordered && a > b;
    case KILN_CMPF_OGE:
      return !unordered && a >= b;
    case KILN_CMPF_OLT:
      return !unordered && a < b;
    case KILN_CMPF_OLE:
      return !unordered && a <= b;
    case KILN_CMPF_ONE:
      return !unordered && a != b;
    case KILN_CMPF_ORD:
      return !unordered;
    case KILN_CMPF_UEQ:
      return unordered || a == b;
    case KILN_CMPF_UGT:
      return unordered || a > b;
    case KILN_CMPF_UGE:
      return unordered || a >= b;
    case KILN_CMPF_ULT:
      return unordered || a < b;
    case KILN_CMPF_ULE:
      return unordered || a <= b;
    case KILN_CMPF_UNE:
      return unordered || a != b;
    case KILN_CMPF_UNO:
      return unordered;
    case KILN_CMPF_TRUE:
      return true;
    default:
      return false;
  }
}

static bool kiln_cmpi(int64_t predicate, int64_t sa, int64_t sb, uint64_t ua,
                      uint64_t ub, bool* out) {
  switch (predicate) {
    case KILN_CMPI_EQ:
      *out = ua == ub;
      return true;
    case KILN_CMPI_NE:
      *out = ua != ub;
      return true;
    case KILN_CMPI_SLT:
      *out = sa < sb;
      return true;
    case KILN_CMPI_SLE:
      *out = sa <= sb;
      return true;
    case KILN_CMPI_SGT:
      *out = sa > sb;
      return true;
    case KILN_CMPI_SGE:
      *out = sa >= sb;
      return true;
    case KILN_CMPI_ULT:
      *out = ua < ub;
      return true;
    case KILN_CMPI_ULE:
      *out = ua <= ub;
      return true;
    case KILN_CMPI_UGT:
      *out = ua > ub;
      return true;
    case KILN_CMPI_UGE:
      *out = ua >= ub;
      return true;
    default:
      return false;
  }
}

//===----------------------------------------------------------------------===//
// Integer ops
//===----------------------------------------------------------------------===//

static bool kiln_eval_int_binary(kiln_scalar_op_t op, const kiln_ir_type_t* t,
                                 int64_t a, int64_t b, int64_t* out) {
  uint32_t w = kiln_scalar_int_width(t);
  int64_t sa = kiln_scalar_sval(t, a), sb = kiln_scalar_sval(t, b);
  uint64_t ua = kiln_scalar_uval(t, a), ub = kiln_scalar_uval(t, b);
  int64_t smin = kiln_scalar_sext(1ull << (w - 1), w);
  uint64_t r = 0;
  switch (op) {
    case KILN_SCALAR_ADDI:
      r = ua + ub;
      break;
    case KILN_SCALAR_SUBI:
      r = ua - ub;
      break;
    case KILN_SCALAR_MULI:
      r = ua * ub;
      break;
    case KILN_SCALAR_DIVSI:
    case KILN_SCALAR_CEILDIVSI:
    case KILN_SCALAR_FLOORDIVSI:
      if (sb == 0) {
        r = ~0ull;
      } else if (sa == smin && sb == -1) {
        r = (uint64_t)smin;
      } else {
        int64_t q = sa / sb;
        int64_t rem = sa % sb;
        if (rem != 0) {
          bool neg = (rem < 0) != (sb < 0);
          if (op == KILN_SCALAR_CEILDIVSI && !neg) q += 1;
          if (op == KILN_SCALAR_FLOORDIVSI && neg) q -= 1;
        }
        r = (uint64_t)q;
      }
      break;
    case KILN_SCALAR_DIVUI:
      r = ub == 0 ? ~0ull : ua / ub;
      break;
    case KILN_SCALAR_CEILDIVUI:
      r = ub == 0 ? ~0ull : ua / ub + (ua % ub != 0);
      break;
    case KILN_SCALAR_REMSI:
      if (sb == 0) {
        r = (uint64_t)sa;
      } else if (sb == -1) {
        r = 0;
      } else {
        r = (uint64_t)(sa % sb);
      }
      break;
    case KILN_SCALAR_REMUI:
      r = ub == 0 ? ua : ua % ub;
      break;
    case KILN_SCALAR_ANDI:
      r = ua & ub;
      break;
    case KILN_SCALAR_ORI:
      r = ua | ub;
      break;
    case KILN_SCALAR_XORI:
      r = ua ^ ub;
      break;
    case KILN_SCALAR_SHLI:
      r = ub >= w ? 0 : ua << ub;
      break;
    case KILN_SCALAR_SHRUI:
      r = ub >= w ? 0 : ua >> ub;
      break;
    case KILN_SCALAR_SHRSI:
      if (ub >= w) {
        r = sa < 0 ? ~0ull : 0;
      } else {
        // Arithmetic shift without relying on implementation-defined >>.
        r = sa < 0 ? ~(~(uint64_t)sa >> ub) : ((uint64_t)sa >> ub);
      }
      break;
    case KILN_SCALAR_MINSI:
      r = (uint64_t)(sa < sb ? sa : sb);
      break;
    case KILN_SCALAR_MAXSI:
      r = (uint64_t)(sa > sb ? sa : sb);
      break;
    case KILN_SCALAR_MINUI:
      r = ua < ub ? ua : ub;
      break;
    case KILN_SCALAR_MAXUI:
      r = ua > ub ? ua : ub;
      break;
    case KILN_SCALAR_IPOWI: {
      if (sb < 0) {
        if (sa == 1) {
          r = 1;
        } else if (sa == -1) {
          r = (sb & 1) ? ~0ull : 1;
        } else {
          r = 0;
        }
        break;
      }
      uint64_t base = ua, result = 1, e = (uint64_t)sb;
      while (e) {
        if (e & 1) result *= base;
        base *= base;
        e >>= 1;
      }
      r = result;
      break;
    }
    default:
      return false;
  }
  *out = kiln_scalar_canon_int(t, (int64_t)r);
  return true;
}

static bool kiln_eval_int_unary(kiln_scalar_op_t op, const kiln_ir_type_t* t,
                                int64_t a, int64_t* out) {
  uint32_t w = kiln_scalar_int_width(t);
  uint64_t ua = kiln_scalar_uval(t, a);
  int64_t sa = kiln_scalar_sval(t, a);
  uint64_t r = 0;
  switch (op) {
    case KILN_SCALAR_ABSI:
      r = sa < 0 ? (uint64_t)0 - (uint64_t)sa : (uint64_t)sa;
      break;
    case KILN_SCALAR_CTLZ: {
      uint64_t n = 0;
      for (int64_t bit = (int64_t)w - 1; bit >= 0; --bit) {
        if (ua & (1ull << bit)) break;
        ++n;
      }
      r = n;
      break;
    }
    case KILN_SCALAR_CTTZ: {
      uint64_t n = 0;
      for (uint32_t bit = 0; bit < w; ++bit) {
        if (ua & (1ull << bit)) break;
        ++n;
      }
      r = n;
      break;
    }
    case KILN_SCALAR_CTPOP: {
      uint64_t n = 0;
      for (uint32_t bit = 0; bit < w; ++bit) n += (ua >> bit) & 1;
      r = n;
      break;
    }
    default:
      return false;
  }
  *out = kiln_scalar_canon_int(t, (int64_t)r);
  return true;
}

//===----------------------------------------------------------------------===//
// Float ops
//===----------------------------------------------------------------------===//

static bool kiln_eval_float(kiln_scalar_op_t op, double a, double b, double c,
                            double* out) {
  double r;
  switch (op) {
    case KILN_SCALAR_ADDF:
      r = a + b;
      break;
    case KILN_SCALAR_SUBF:
      r = a - b;
      break;
    case KILN_SCALAR_MULF:
      r = a * b;
      break;
    case KILN_SCALAR_DIVF:
      r = a / b;
      break;
    case KILN_SCALAR_REMF:
      r = fmod(a, b);
      break;
    case KILN_SCALAR_MINIMUMF:
      r = kiln_minimumf(a, b);
      break;
    case KILN_SCALAR_MAXIMUMF:
      r = kiln_maximumf(a, b);
      break;
    case KILN_SCALAR_MINNUMF:
      r = fmin(a, b);
      break;
    case KILN_SCALAR_MAXNUMF:
      r = fmax(a, b);
      break;
    case KILN_SCALAR_POWF:
      r = pow(a, b);
      break;
    case KILN_SCALAR_ATAN2:
      r = atan2(a, b);
      break;
    case KILN_SCALAR_COPYSIGN:
      r = copysign(a, b);
      break;
    case KILN_SCALAR_NEGF:
      r = -a;
      break;
    case KILN_SCALAR_ABSF:
      r = fabs(a);
      break;
    case KILN_SCALAR_SQRT:
      r = sqrt(a);
      break;
    case KILN_SCALAR_RSQRT:
      r = 1.0 / sqrt(a);
      break;
    case KILN_SCALAR_CBRT:
      r = cbrt(a);
      break;
    case KILN_SCALAR_EXP:
      r = exp(a);
      break;
    case KILN_SCALAR_EXP2:
      r = exp2(a);
      break;
    case KILN_SCALAR_EXPM1:
      r = expm1(a);
      break;
    case KILN_SCALAR_LOG:
      r = log(a);
      break;
    case KILN_SCALAR_LOG2:
      r = log2(a);
      break;
    case KILN_SCALAR_LOG10:
      r = log10(a);
      break;
    case KILN_SCALAR_LOG1P:
      r = log1p(a);
      break;
    case KILN_SCALAR_SIN:
      r = sin(a);
      break;
    case KILN_SCALAR_COS:
      r = cos(a);
      break;
    case KILN_SCALAR_TAN:
      r = tan(a);
      break;
    case KILN_SCALAR_ASIN:
      r = asin(a);
      break;
    case KILN_SCALAR_ACOS:
      r = acos(a);
      break;
    case KILN_SCALAR_ATAN:
      r = atan(a);
      break;
    case KILN_SCALAR_SINH:
      r = sinh(a);
      break;
    case KILN_SCALAR_COSH:
      r = cosh(a);
      break;
    case KILN_SCALAR_TANH:
      r = tanh(a);
      break;
    case KILN_SCALAR_ERF:
      r = erf(a);
      break;
    case KILN_SCALAR_ERFC:
      r = erfc(a);
      break;
    case KILN_SCALAR_ASINH:
      r = asinh(a);
      break;
    case KILN_SCALAR_ACOSH:
      r = acosh(a);
      break;
    case KILN_SCALAR_ATANH:
      r = atanh(a);
      break;
    case KILN_SCALAR_FLOOR:
      r = floor(a);
      break;
    case KILN_SCALAR_CEIL:
      r = ceil(a);
      break;
    case KILN_SCALAR_ROUND:
      r = round(a);
      break;
    case KILN_SCALAR_ROUNDEVEN:
      r = kiln_round_half_even(a);
      break;
    case KILN_SCALAR_TRUNC:
      r = trunc(a);
      break;
    case KILN_SCALAR_FMA:
      r = fma(a, b, c);
      break;
    default:
      return false;
  }
  *out = r;
  return true;
}

//===----------------------------------------------------------------------===//
// kiln_scalar_eval
//===----------------------------------------------------------------------===//

bool kiln_scalar_eval(kiln_scalar_op_t op, int64_t predicate,
                      const kiln_ir_type_t* operand_type,
                      const kiln_ir_type_t* result_type,
                      const kiln_scalar_t* args, kiln_scalar_t* out_result) {
  const kiln_ir_type_t* ot = operand_type;
  const kiln_ir_type_t* rt = result_type;
  if (!ot || !rt) return false;
  switch (op) {
    case KILN_SCALAR_CMPI: {
      if (!kiln_is_int(ot)) return false;
      bool r;
      if (!kiln_cmpi(predicate, kiln_scalar_sval(ot, args[0].i),
                     kiln_scalar_sval(ot, args[1].i),
                     kiln_scalar_uval(ot, args[0].i),
                     kiln_scalar_uval(ot, args[1].i), &r)) {
        return false;
      }
      out_result->i = r ? 1 : 0;
      return true;
    }
    case KILN_SCALAR_CMPF:
      if (!kiln_is_float(ot) || predicate < 0 || predicate > 15) return false;
      out_result->i = kiln_cmpf(predicate, args[0].f, args[1].f) ? 1 : 0;
      return true;
    case KILN_SCALAR_SELECT:
      *out_result = (args[0].i & 1) ? args[1] : args[2];
      return true;
    case KILN_SCALAR_ISFINITE:
    case KILN_SCALAR_ISINF:
    case KILN_SCALAR_ISNAN:
      if (!kiln_is_float(ot)) return false;
      out_result->i = op == KILN_SCALAR_ISFINITE ? isfinite(args[0].f) != 0
                      : op == KILN_SCALAR_ISINF  ? isinf(args[0].f) != 0
                                                 : isnan(args[0].f) != 0;
      return true;
    case KILN_SCALAR_ISNORMAL:
      // Normal in the operand's own type: |x| at least its smallest normal
      // (the value is kept as a double, where an f32 subnormal is normal).
      if (!kiln_is_float(ot)) return false;
      out_result->i =
          isfinite(args[0].f) && fabs(args[0].f) >= kiln_scalar_min_normal(ot);
      return true;
    case KILN_SCALAR_FPOWI:
      // The exponent is an integer of its own type, canonical in |i|.
      if (!kiln_is_float(ot) || !kiln_is_float(rt)) return false;
      out_result->f =
          kiln_scalar_round_float(rt, pow(args[0].f, (double)args[1].i));
      return true;
    case KILN_SCALAR_EXTSI:
    case KILN_SCALAR_INDEX_CAST:
      if (!kiln_is_int(ot) || !kiln_is_int(rt)) return false;
      out_result->i =
          kiln_scalar_canon_int(rt, kiln_scalar_sval(ot, args[0].i));
      return true;
    case KILN_SCALAR_EXTUI:
    case KILN_SCALAR_INDEX_CASTUI:
      if (!kiln_is_int(ot) || !kiln_is_int(rt)) return false;
      out_result->i =
          kiln_scalar_canon_int(rt, (int64_t)kiln_scalar_uval(ot, args[0].i));
      return true;
    case KILN_SCALAR_TRUNCI:
      if (!kiln_is_int(ot) || !kiln_is_int(rt)) return false;
      out_result->i = kiln_scalar_canon_int(rt, args[0].i);
      return true;
    case KILN_SCALAR_SITOFP:
      if (!kiln_is_int(ot) || !kiln_is_float(rt)) return false;
      out_result->f =
          kiln_scalar_round_float(rt, (double)kiln_scalar_sval(ot, args[0].i));
      return true;
    case KILN_SCALAR_UITOFP:
      if (!kiln_is_int(ot) || !kiln_is_float(rt)) return false;
      out_result->f =
          kiln_scalar_round_float(rt, (double)kiln_scalar_uval(ot, args[0].i));
      return true;
    case KILN_SCALAR_FPTOSI:
    case KILN_SCALAR_FPTOUI:
      if (!kiln_is_float(ot) || !kiln_is_int(rt)) return false;
      out_result->i = kiln_scalar_canon_int(
          rt, kiln_fp_to_int(args[0].f, kiln_scalar_int_width(rt),
                             op == KILN_SCALAR_FPTOSI));
      return true;
    case KILN_SCALAR_EXTF:
    case KILN_SCALAR_TRUNCF:
      if (!kiln_is_float(ot) || !kiln_is_float(rt)) return false;
      out_result->f = kiln_scalar_round_float(rt, args[0].f);
      return true;
    case KILN_SCALAR_BITCAST:
      if (kiln_ir_type_bit_width(ot) != kiln_ir_type_bit_width(rt)) {
        return false;
      }
      if (kiln_is_float(ot) && kiln_is_int(rt)) {
        out_result->i = kiln_scalar_canon_int(
            rt, (int64_t)kiln_ir_float_to_bits(ot->flt.kind, args[0].f));
      } else if (kiln_is_int(ot) && kiln_is_float(rt)) {
        out_result->f = kiln_ir_float_from_bits(
            rt->flt.kind, kiln_scalar_uval(ot, args[0].i));
      } else if (kiln_is_int(ot) && kiln_is_int(rt)) {
        out_result->i = kiln_scalar_canon_int(rt, args[0].i);
      } else if (kiln_is_float(ot) && kiln_is_float(rt)) {
        out_result->f = kiln_ir_float_from_bits(
            rt->flt.kind, kiln_ir_float_to_bits(ot->flt.kind, args[0].f));
      } else {
        return false;
      }
      return true;
    default:
      break;
  }
  if (kiln_is_int(rt)) {
    if (!kiln_is_int(ot)) return false;
    if (kiln_scalar_op_arity(op) == 2) {
      return kiln_eval_int_binary(op, rt, args[0].i, args[1].i, &out_result->i);
    }
    return kiln_eval_int_unary(op, rt, args[0].i, &out_result->i);
  }
  if (kiln_is_float(rt)) {
    if (!kiln_is_float(ot)) return false;
    int arity = kiln_scalar_op_arity(op);
    double r;
    if (!kiln_eval_float(op, args[0].f, arity > 1 ? args[1].f : 0.0,
                         arity > 2 ? args[2].f : 0.0, &r)) {
      return false;
    }
    out_result->f = kiln_scalar_round_float(rt, r);
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Attributes <-> scalars
//===----------------------------------------------------------------------===//

bool kiln_scalar_from_attr(const kiln_ir_attribute_t* attr, int64_t index,
                           const kiln_ir_type_t* element_type,
                           kiln_scalar_t* out_value) {
  if (!attr || !element_type) return false;
  bool want_float = kiln_is_float(element_type);
  bool want_int = kiln_is_int(element_type);
  switch (attr->kind) {
    case KILN_IR_ATTR_INTEGER:
    case KILN_IR_ATTR_BOOL:
      if (!want_int) return false;
      out_value->i = kiln_scalar_canon_int(element_type, attr->i);
      return true;
    case KILN_IR_ATTR_FLOAT:
      if (!want_float) return false;
      out_value->f = kiln_scalar_round_float(element_type, attr->f.value);
      return true;
    case KILN_IR_ATTR_DENSE_ELEMENTS: {
      if (want_float) {
        double v;
        if (!kiln_ir_dense_get_double(attr, index, &v)) return false;
        out_value->f = kiln_scalar_round_float(element_type, v);
        return true;
      }
      if (want_int) {
        int64_t v;
        if (!kiln_ir_dense_get_int(attr, index, &v)) return false;
        out_value->i = kiln_scalar_canon_int(element_type, v);
        return true;
      }
      return false;
    }
    default:
      return false;
  }
}

const kiln_ir_attribute_t* kiln_scalar_to_attr(kiln_ir_context_t* context,
                                               const kiln_ir_type_t* type,
                                               kiln_scalar_t value) {
  if (kiln_is_float(type))
    return kiln_ir_float_attr_get(context, type, value.f);
  if (type->kind == KILN_IR_TYPE_INTEGER && type->integer.width == 1) {
    return kiln_ir_bool_attr_get(context, (value.i & 1) != 0);
  }
  return kiln_ir_integer_attr_get(context, type, value.i);
}

// Writes |value| of |type| into |dst| in dense storage layout.
static void kiln_scalar_store(const kiln_ir_type_t* type, kiln_scalar_t value,
                              uint8_t* dst, size_t bytes) {
  uint64_t bits;
  if (kiln_is_float(type)) {
    bits = kiln_ir_float_to_bits(type->flt.kind, value.f);
  } else {
    bits = (uint64_t)value.i;
  }
  for (size_t b = 0; b < bytes; ++b) dst[b] = (uint8_t)(bits >> (8 * b));
}

bool kiln_scalar_equal(const kiln_ir_type_t* type, kiln_scalar_t a,
                       kiln_scalar_t b) {
  if (kiln_is_float(type)) {
    return kiln_ir_float_to_bits(type->flt.kind, a.f) ==
           kiln_ir_float_to_bits(type->flt.kind, b.f);
  }
  return a.i == b.i;
}

const kiln_ir_attribute_t* kiln_scalar_dense_attr(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type,
    int64_t count, const kiln_scalar_t* values) {
  const kiln_ir_type_t* element = kiln_ir_type_element(shaped_type);
  size_t bytes = kiln_ir_type_storage_bytes(element);
  if (bytes == 0 || count < 1) return NULL;
  bool splat = true;
  for (int64_t i = 1; i < count && splat; ++i) {
    splat = kiln_scalar_equal(element, values[0], values[i]);
  }
  if (splat) return kiln_scalar_splat_attr(context, shaped_type, values[0]);
  uint8_t* data = kiln_ir_arena_alloc(context, bytes * (size_t)count);
  if (!data) return NULL;
  for (int64_t i = 0; i < count; ++i) {
    kiln_scalar_store(element, values[i], data + bytes * (size_t)i, bytes);
  }
  return kiln_ir_dense_elements_attr_get(context, shaped_type, false, data,
                                         bytes * (size_t)count);
}

const kiln_ir_attribute_t* kiln_scalar_splat_attr(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type,
    kiln_scalar_t value) {
  const kiln_ir_type_t* element = kiln_ir_type_element(shaped_type);
  size_t bytes = kiln_ir_type_storage_bytes(element);
  if (bytes == 0 || bytes > 8) return NULL;
  uint8_t data[8];
  kiln_scalar_store(element, value, data, bytes);
  return kiln_ir_dense_elements_attr_get(context, shaped_type, true, data,
                                         bytes);
}
