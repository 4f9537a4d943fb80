#include "compiler/dispatch/conv2d.h"

#include <string.h>

#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"

// A map result as a sum of coefficient * dim terms (at most two: the image
// index of a spatial dim is stride * out + dilation * window).
typedef struct kiln_conv2d_terms_t {
  int count;
  int64_t dim[2];
  int64_t coeff[2];
} kiln_conv2d_terms_t;

static bool kiln_conv2d_add_terms(const kiln_ir_affine_expr_t* e,
                                  kiln_conv2d_terms_t* t) {
  if (!e) return false;
  switch (e->kind) {
    case KILN_IR_AFFINE_DIM:
      if (t->count == 2) return false;
      t->dim[t->count] = e->value;
      t->coeff[t->count++] = 1;
      return true;
    case KILN_IR_AFFINE_ADD:
      return kiln_conv2d_add_terms(e->lhs, t) &&
             kiln_conv2d_add_terms(e->rhs, t);
    case KILN_IR_AFFINE_FLOORDIV:
      // A grouped convolution's channel (d floordiv 1 with one channel per
      // group) is the plain dim.
      return e->rhs && e->rhs->kind == KILN_IR_AFFINE_CONSTANT &&
             e->rhs->value == 1 && kiln_conv2d_add_terms(e->lhs, t);
    case KILN_IR_AFFINE_MUL: {
      const kiln_ir_affine_expr_t* d = e->lhs;
      const kiln_ir_affine_expr_t* c = e->rhs;
      if (d->kind == KILN_IR_AFFINE_CONSTANT) {
        const kiln_ir_affine_expr_t* tmp = d;
        d = c;
        c = tmp;
      }
      if (d->kind != KILN_IR_AFFINE_DIM || c->kind != KILN_IR_AFFINE_CONSTANT ||
          c->value <= 0 || t->count == 2) {
        return false;
      }
      t->dim[t->count] = d->value;
      t->coeff[t->count++] = c->value;
      return true;
    }
    default:
      return false;
  }
}

static bool kiln_conv2d_is_f32(const kiln_ir_type_t* t, size_t rank) {
  return kiln_ir_type_is_ranked_tensor(t) && kiln_ir_type_has_static_shape(t) &&
         t->shaped.rank == rank && kiln_ir_type_is_float(t->shaped.element) &&
         t->shaped.element->flt.kind == KILN_IR_F32;
}

// Row-major element strides of a static 4-D shape.
static void kiln_conv2d_strides(const kiln_ir_type_t* t, int64_t out[4]) {
  int64_t s = 1;
  for (int i = 3; i >= 0; --i) {
    out[i] = s;
    s *= t->shaped.dims[i];
  }
}

bool kiln_conv2d_map_terms(const kiln_ir_affine_expr_t* e, int* count,
                           int64_t dim[2], int64_t coeff[2]) {
  kiln_conv2d_terms_t t = {0, {0, 0}, {0, 0}};
  if (!kiln_conv2d_add_terms(e, &t)) return false;
  *count = t.count;
  for (int i = 0; i < 2; ++i) dim[i] = t.dim[i], coeff[i] = t.coeff[i];
  return true;
}

bool kiln_conv2d_body_is_mul_add(kiln_ir_block_t* body) {
  if (!body || body->num_args != 3) return false;
  kiln_ir_op_t* mul = body->first_op;
  kiln_ir_op_t* add = mul ? mul->next : NULL;
  kiln_ir_op_t* yield = add ? add->next : NULL;
  if (!yield || yield->next || !kiln_ir_op_is(mul, "arith.mulf") ||
      !kiln_ir_op_is(add, "arith.addf") ||
      !kiln_ir_op_is(yield, "linalg.yield")) {
    return false;
  }
  if (mul->num_operands != 2 || add->num_operands != 2 ||
      yield->num_operands != 1) {
    return false;
  }
  kiln_ir_value_t* a = kiln_ir_op_operand(mul, 0);
  kiln_ir_value_t* b = kiln_ir_op_operand(mul, 1);
  bool ins = (a == body->args[0] && b == body->args[1]) ||
             (a == body->args[1] && b == body->args[0]);
  kiln_ir_value_t* x = kiln_ir_op_operand(add, 0);
  kiln_ir_value_t* y = kiln_ir_op_operand(add, 1);
  kiln_ir_value_t* prod = &mul->results[0];
  bool acc =
      (x == body->args[2] && y == prod) || (y == body->args[2] && x == prod);
  return ins && acc && kiln_ir_op_operand(yield, 0) == &add->results[0];
}

bool kiln_conv2d_match(kiln_ir_context_t* context, kiln_ir_op_t* op,
                       kiln_conv2d_t* out) {
  kiln_conv2d_t cv;
  memset(&cv, 0, sizeof(cv));
  if (out) memset(out, 0, sizeof(*out));
  if (!kiln_ir_op_is(op, "linalg.generic") || op->num_results != 1 ||
      kiln_ir_op_num_regular_operands(op) != 3) {
    return false;
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (!kiln_conv2d_is_f32(kiln_ir_op_operand(op, i)->type, 4)) return false;
  }
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, op, &s)) return false;
  if (s.num_ins != 2 || s.num_outs != 1 || s.num_dims != 7 ||
      !kiln_conv2d_body_is_mul_add(s.body)) {
    return false;
  }
  const kiln_ir_affine_map_t* img_map = s.maps[0];
  const kiln_ir_affine_map_t* flt_map = s.maps[1];
  const kiln_ir_affine_map_t* out_map = s.maps[2];
  if (img_map->num_results != 4 || flt_map->num_results != 4 ||
      out_map->num_results != 4 || img_map->num_symbols ||
      flt_map->num_symbols || out_map->num_symbols) {
    return false;
  }
  // Where each loop dim appears: bit 0 filter, bit 1 output.
  int where[7] = {0};
  int64_t flt_pos[7], out_pos[7];
  for (int d = 0; d < 7; ++d) flt_pos[d] = out_pos[d] = -1;
  for (size_t r = 0; r < 4; ++r) {
    int64_t d;
    if (!kiln_ir_affine_map_result_is_dim(flt_map, r, &d) || d < 0 || d >= 7 ||
        flt_pos[d] >= 0) {
      return false;
    }
    flt_pos[d] = (int64_t)r, where[d] |= 1;
    if (!kiln_ir_affine_map_result_is_dim(out_map, r, &d) || d < 0 || d >= 7 ||
        out_pos[d] >= 0 || s.is_reduction[d]) {
      return false;
    }
    out_pos[d] = (int64_t)r, where[d] |= 2;
  }
  int64_t is[4], fs[4], os[4];
  kiln_conv2d_strides(kiln_ir_op_operand(op, 0)->type, is);
  kiln_conv2d_strides(kiln_ir_op_operand(op, 1)->type, fs);
  kiln_conv2d_strides(kiln_ir_op_operand(op, 2)->type, os);
  const int64_t* img_dims = kiln_ir_op_operand(op, 0)->type->shaped.dims;
  // Each image dim is the batch (a parallel dim the filter lacks), the
  // input channel (a reduction the filter has) or a spatial window.
  int seen = 0;  // bit per loop dim
  int spatial = 0;
  bool have_n = false, have_c = false;
  for (size_t r = 0; r < 4; ++r) {
    kiln_conv2d_terms_t t = {0, {0, 0}, {0, 0}};
    if (!kiln_conv2d_add_terms(img_map->results[r], &t)) return false;
    for (int i = 0; i < t.count; ++i) {
      if (t.dim[i] < 0 || t.dim[i] >= 7 || (seen & (1 << t.dim[i]))) {
        return false;
      }
      seen |= 1 << t.dim[i];
    }
    if (t.count == 1) {
      int64_t d = t.dim[0];
      if (t.coeff[0] != 1) return false;
      if (!s.is_reduction[d] && where[d] == 2 && !have_n) {
        have_n = true;
        cv.n = s.ranges[d];
        cv.img_n = is[r];
        cv.out_n = os[out_pos[d]];
      } else if (s.is_reduction[d] && where[d] == 1 && !have_c) {
        have_c = true;
        cv.c = s.ranges[d];
        cv.img_c = is[r];
        cv.flt_c = fs[flt_pos[d]];
      } else {
        return false;
      }
      continue;
    }
    // out * stride + window * dilation, in either order.
    int o = s.is_reduction[t.dim[0]] ? 1 : 0;
    int k = 1 - o;
    int64_t od = t.dim[o], kd = t.dim[k];
    if (s.is_reduction[od] || !s.is_reduction[kd] || where[od] != 2 ||
        where[kd] != 1 || spatial == 2) {
      return false;
    }
    if (spatial == 0) {
      cv.h = img_dims[r], cv.oh = s.ranges[od], cv.kh = s.ranges[kd];
      cv.sh = t.coeff[o], cv.dh = t.coeff[k];
      cv.img_h = is[r], cv.out_h = os[out_pos[od]], cv.flt_h = fs[flt_pos[kd]];
    } else {
      cv.w = img_dims[r], cv.ow = s.ranges[od], cv.kw = s.ranges[kd];
      cv.sw = t.coeff[o], cv.dw = t.coeff[k];
      cv.img_w = is[r], cv.out_w = os[out_pos[od]], cv.flt_w = fs[flt_pos[kd]];
    }
    ++spatial;
  }
  if (!have_n || !have_c || spatial != 2) return false;
  // The output channel: the one loop dim in the filter and the output only.
  int nf = 0;
  for (int d = 0; d < 7; ++d) {
    if (seen & (1 << d)) continue;
    if (where[d] != 3 || s.is_reduction[d]) return false;
    cv.f = s.ranges[d];
    cv.flt_f = fs[flt_pos[d]];
    cv.out_f = os[out_pos[d]];
    ++nf;
  }
  if (nf != 1) return false;
  // The window stays inside the image (padding is a separate producer).
  if ((cv.oh - 1) * cv.sh + (cv.kh - 1) * cv.dh >= cv.h ||
      (cv.ow - 1) * cv.sw + (cv.kw - 1) * cv.dw >= cv.w) {
    return false;
  }
  if (out) *out = cv;
  return true;
}
