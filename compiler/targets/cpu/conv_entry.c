#include "compiler/targets/cpu/conv_entry.h"

#include <string.h>

#include "compiler/dispatch/conv2d.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"
#include "compiler/targets/cpu/epilogue.h"

// A reduction role of the convolution: one of the three K sub-dims.
typedef struct kiln_cpu_conv_tap_t {
  int64_t extent;
  int64_t filter_stride;
  int64_t image_step;
} kiln_cpu_conv_tap_t;

// Orders the taps (input channel, window row, window column) so that K
// flattens into one filter stride: extent-1 taps outermost (their stride is
// irrelevant), the rest by decreasing filter stride. Returns the stride of
// one K step in the filter, or 0 when the filter does not flatten.
static int64_t kiln_cpu_conv_order_taps(kiln_cpu_conv_tap_t taps[3]) {
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      bool unit_i = taps[i].extent == 1, unit_j = taps[j].extent == 1;
      bool swap =
          (!unit_i && unit_j) ||
          (unit_i == unit_j && taps[j].filter_stride > taps[i].filter_stride);
      if (swap) {
        kiln_cpu_conv_tap_t tmp = taps[i];
        taps[i] = taps[j];
        taps[j] = tmp;
      }
    }
  }
  int64_t step = 0, expect = 0;
  for (int i = 2; i >= 0; --i) {
    if (taps[i].extent == 1) continue;
    if (!step) {
      step = expect = taps[i].filter_stride;
    } else if (taps[i].filter_stride != expect) {
      return 0;
    }
    expect *= taps[i].extent;
  }
  return step ? step : 1;
}

// The filter as a plain |rows| x K operand (rows are output channels):
// element (f, k) at f * flt_f + k * step.
static bool kiln_cpu_conv_filter_operand(const kiln_conv2d_t* cv, int64_t step,
                                         uint32_t binding,
                                         kiln_cpu_gemm_operand_t* o) {
  memset(o, 0, sizeof(*o));
  o->binding = binding;
  // The pack kernel wants strides of at least a row (any for one row).
  int64_t k = cv->c * cv->kh * cv->kw;
  if (step == 1 && (cv->flt_f >= k || cv->f == 1)) {
    o->stride = cv->f == 1 ? k : cv->flt_f;
  } else if ((cv->flt_f == 1 || cv->f == 1) && step >= cv->f) {
    o->stride = step;
    o->transposed = true;
  } else {
    return false;
  }
  return true;
}

// The image as a pixels x K operand: plain for a 1x1 stride-1 convolution
// whose pixels are contiguous rows or columns, else an im2col window.
static void kiln_cpu_conv_image_operand(const kiln_conv2d_t* cv,
                                        const kiln_cpu_conv_tap_t taps[3],
                                        uint32_t binding,
                                        kiln_cpu_gemm_operand_t* o) {
  memset(o, 0, sizeof(*o));
  o->binding = binding;
  o->batch_stride = cv->img_n;
  bool pointwise = cv->kh == 1 && cv->kw == 1 && cv->sh == 1 && cv->sw == 1 &&
                   cv->oh == cv->h && cv->ow == cv->w &&
                   cv->img_h == cv->w * cv->img_w;
  int64_t pixels = cv->oh * cv->ow;
  if (pointwise && cv->img_c == 1 && (cv->img_w >= cv->c || pixels == 1)) {
    // NHWC: pixel rows of C channels.
    o->stride = pixels == 1 ? cv->c : cv->img_w;
    return;
  }
  if (pointwise && cv->img_w == 1 && cv->img_c >= pixels) {
    o->stride = cv->img_c;  // NCHW: channel planes of pixels
    o->transposed = true;
    return;
  }
  o->window = true;
  // Merge the two inner taps when they are one run in the image (NHWC with
  // unit column dilation: window column x channel is contiguous), so that
  // pack_window transposes runs of KW * C elements, not of C (3 in a stem).
  kiln_cpu_conv_tap_t t[3] = {taps[0], taps[1], taps[2]};
  if (t[1].image_step == t[2].extent * t[2].image_step) {
    t[2].extent *= t[1].extent;
    t[1].extent = 1;
  }
  if (t[1].extent == 1 && t[0].image_step == t[2].extent * t[2].image_step) {
    t[2].extent *= t[0].extent;
    t[0].extent = 1;
  }
  o->ow = cv->ow;
  o->pix_h = cv->sh * cv->img_h;
  o->pix_w = cv->sw * cv->img_w;
  for (int i = 0; i < 3; ++i) {
    o->ext[i] = t[i].extent;
    o->step[i] = t[i].image_step;
  }
}

// The per-channel vector |init| broadcasts (tosa.conv2d's bias): a
// generic in |body| copying a 1-D argument of F elements along the output
// channel dim to every output element; NULL if |init| is not one.
static kiln_ir_value_t* kiln_cpu_conv_bias(kiln_ir_context_t* context,
                                           kiln_ir_block_t* body,
                                           const kiln_conv2d_t* cv,
                                           kiln_ir_value_t* init) {
  kiln_ir_op_t* def = init->defining_op;
  if (!def || !kiln_ir_op_is(def, "linalg.generic") || def->num_results != 1) {
    return NULL;
  }
  kiln_structured_op_t s;
  kiln_status_t status = kiln_structured_op_get(context, def, &s);
  if (status) {
    kiln_status_free(status);
    return NULL;
  }
  if (s.num_ins != 1 || s.num_outs != 1 || s.num_dims != 4 ||
      !kiln_structured_op_all_parallel(&s) ||
      !kiln_ir_affine_map_is_identity(s.maps[1]) || !s.body ||
      s.body->num_args != 2 || !s.body->first_op ||
      s.body->first_op != s.body->last_op ||
      !kiln_ir_op_is(s.body->first_op, "linalg.yield") ||
      s.body->first_op->num_operands != 1 ||
      kiln_ir_op_operand(s.body->first_op, 0) != s.body->args[0]) {
    return NULL;
  }
  kiln_ir_value_t* v = kiln_ir_op_operand(def, 0);
  const kiln_ir_type_t* t = v->type;
  int64_t d;
  if (v->kind != KILN_IR_VALUE_BLOCK_ARG || v->owner_block != body ||
      !kiln_ir_type_is_ranked_tensor(t) || !kiln_ir_type_has_static_shape(t) ||
      t->shaped.rank != 1 || t->shaped.dims[0] != cv->f ||
      !kiln_ir_type_is_float(t->shaped.element) ||
      t->shaped.element->flt.kind != KILN_IR_F32 ||
      s.maps[0]->num_results != 1 ||
      !kiln_ir_affine_map_result_is_dim(s.maps[0], 0, &d) || d < 0 || d >= 4) {
    return NULL;
  }
  // The broadcast dim is the output channel: its extent and stride match.
  const kiln_ir_type_t* ot = init->type;
  int64_t stride = 1;
  for (int64_t i = 3; i > d; --i) stride *= ot->shaped.dims[i];
  if (cv->f > 1 && (ot->shaped.dims[d] != cv->f || stride != cv->out_f)) {
    return NULL;
  }
  return v;
}

// kiln_cpu_match_conv, and with |out_pad| non-NULL also a root whose image
// is a folded padding (window_pad.h) of a region operand: then *out_pad
// describes it and |out|'s image binding is the unpadded source's (its
// geometry stays the padded one: only entries that read through the
// padding's bounds may use such a match).
static bool kiln_cpu_match_conv_impl(kiln_ir_context_t* context,
                                     kiln_ir_op_t* region, kiln_cpu_gemm_t* out,
                                     kiln_window_pad_t* out_pad) {
  memset(out, 0, sizeof(*out));
  if (out_pad) memset(out_pad, 0, sizeof(*out_pad));
  kiln_ir_block_t* body = kiln_dispatch_region_body(region);
  kiln_ir_op_t* op = kiln_cpu_epilogue_root(context, region);
  kiln_conv2d_t cv;
  if (!op || !kiln_conv2d_match(context, op, &cv)) return false;
  kiln_ir_value_t* img = kiln_ir_op_operand(op, 0);
  if (out_pad && img->kind != KILN_IR_VALUE_BLOCK_ARG && img->defining_op &&
      kiln_window_pad_match(context, img->defining_op, out_pad)) {
    img = out_pad->source;
  } else if (out_pad) {
    out_pad->source = NULL;
  }
  kiln_ir_value_t* flt = kiln_ir_op_operand(op, 1);
  kiln_ir_value_t* init = kiln_ir_op_operand(op, 2);
  if (img->kind != KILN_IR_VALUE_BLOCK_ARG || img->owner_block != body ||
      flt->kind != KILN_IR_VALUE_BLOCK_ARG || flt->owner_block != body) {
    return false;
  }
  bool init_arg =
      init->kind == KILN_IR_VALUE_BLOCK_ARG && init->owner_block == body;
  kiln_ir_value_t* bias = NULL;
  if (!init_arg && !kiln_cpu_value_is_zero(init)) {
    bias = kiln_cpu_conv_bias(context, body, &cv, init);
    if (!bias) return false;
  }

  kiln_cpu_conv_tap_t taps[3] = {
      {cv.c, cv.flt_c, cv.img_c},
      {cv.kh, cv.flt_h, cv.dh * cv.img_h},
      {cv.kw, cv.flt_w, cv.dw * cv.img_w},
  };
  int64_t step = kiln_cpu_conv_order_taps(taps);
  if (!step) return false;
  int64_t pixels = cv.oh * cv.ow;
  // The output as pixels x channels (channels innermost) or channels x
  // pixels (pixels innermost, row-major).
  bool pixel_rows = cv.out_f == 1 && cv.out_h == cv.ow * cv.out_w;
  bool channel_rows = cv.out_w == 1 && cv.out_h == cv.ow;
  if (!pixel_rows && !channel_rows) return false;
  kiln_cpu_gemm_operand_t image, filter;
  if (!kiln_cpu_conv_filter_operand(&cv, step, flt->index, &filter)) {
    return false;
  }
  kiln_cpu_conv_image_operand(&cv, taps, img->index, &image);
  out->batch = cv.n;
  out->k = cv.c * cv.kh * cv.kw;
  out->out.binding = kiln_dispatch_num_tensor_operands(region);
  out->out.batch_stride = cv.out_n;
  if (pixel_rows) {
    out->m = pixels, out->n = cv.f;
    out->lhs = image, out->rhs = filter;
    // One pixel: the row stride is free (H = W = 1 makes NCHW and NHWC the
    // same bytes), and unpack wants at least a row.
    out->out.stride = pixels == 1 ? cv.f : cv.out_w;
  } else {
    out->m = cv.f, out->n = pixels;
    out->lhs = filter, out->rhs = image;
    out->out.stride = cv.f == 1 ? pixels : cv.out_f;
  }
  if (init_arg) {
    out->has_init = true;
    out->init = out->out;
    out->init.binding = init->index;
  } else if (bias) {
    out->has_init = true;
    out->init.binding = bias->index;
    out->init_per_column = pixel_rows;
    out->init_per_row = !pixel_rows;
  }
  out->what = image.window ? "f32 convolution" : "f32 1x1 convolution";
  bool ok = false;
  out->epilogue = kiln_cpu_epilogue_build(context, region, op, &ok);
  out->epilogue_type = op->results[0].type;
  out->bias_clamp = out->epilogue && kiln_cpu_epilogue_match_bias_clamp(
                                         context, region, op, &out->bc);
  return ok;
}

bool kiln_cpu_match_conv(kiln_ir_context_t* context, kiln_ir_op_t* region,
                         kiln_cpu_gemm_t* out) {
  return kiln_cpu_match_conv_impl(context, region, out, NULL);
}

bool kiln_cpu_match_conv_padded(kiln_ir_context_t* context,
                                kiln_ir_op_t* region, kiln_cpu_gemm_t* out,
                                kiln_window_pad_t* out_pad) {
  return kiln_cpu_match_conv_impl(context, region, out, out_pad);
}
