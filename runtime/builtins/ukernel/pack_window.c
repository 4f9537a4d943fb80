// pack_window: im2col tiles of a convolution image, gathered straight into
// the packed K0 = 1 layout (ukernel_abi.h). The portable loop takes any
// tile; on AVX-512, full 16-row tiles transpose 16 x 16 blocks of unit-step
// taps in registers (arch/x86_64/pack_x86_64_avx512.c).
#include <stdint.h>

#include "runtime/builtins/ukernel/ukernel_internal.h"

static int kiln_ukernel_pack_window_check(
    const kiln_ukernel_pack_window_params_t* p) {
  if (!p || kiln_ukernel_elem_size(p->elem_type) != 4 || p->flags ||
      p->reserved) {
    return 0;
  }
  if (p->tile_size0 < 1 || p->tile_size0 > 64 || p->out_size0 < 0 ||
      p->rows < 0 || p->r0 < 0 || p->k0 < 0 || p->kc < 0 || p->ow < 1) {
    return 0;
  }
  const int64_t max = KILN_UKERNEL_MAX_EXTENT;
  if (p->out_size0 > max || p->rows > max || p->r0 > max || p->k0 > max ||
      p->kc > max || p->ow > max || p->out_stride0 > max || p->pix_h > max ||
      p->pix_h < -max || p->pix_w > max || p->pix_w < -max) {
    return 0;
  }
  for (int i = 0; i < 3; ++i) {
    if (p->ext[i] < 1 || p->ext[i] > max || p->step[i] > max ||
        p->step[i] < -max) {
      return 0;
    }
  }
  if (p->rows > p->out_size0 * p->tile_size0) return 0;
  if (p->out_size0 == 0 || p->kc == 0) return 1;
  if (!p->out || p->out_stride0 < p->kc * p->tile_size0) return 0;
  if (p->rows && !p->in) return 0;
  return 1;
}

int kiln_ukernel_pack_window(const kiln_ukernel_pack_window_params_t* params) {
  if (!kiln_ukernel_pack_window_check(params)) {
    return KILN_UKERNEL_ERROR_INVALID_ARGUMENT;
  }
  const kiln_ukernel_pack_window_params_t* p = params;
  const uint32_t* in = (const uint32_t*)p->in;
  const int64_t t0 = p->tile_size0;
  for (int64_t i1 = 0; i1 < p->out_size0; ++i1) {
    uint32_t* out = (uint32_t*)p->out + i1 * p->out_stride0;
    int64_t first = i1 * t0;
    int64_t valid = p->rows - first;
    if (valid > t0) valid = t0;
    if (valid < 0) valid = 0;
    // Pixel offsets, stepping (row, column) instead of dividing per pixel.
    int64_t poff[64];
    int64_t r = p->r0 + first;
    int64_t oy = r / p->ow, ox = r % p->ow;
    for (int64_t i = 0; i < valid; ++i) {
      poff[i] = oy * p->pix_h + ox * p->pix_w;
      if (++ox == p->ow) ox = 0, ++oy;
    }
#if defined(__x86_64__)
    if (t0 == 16 && valid == 16 &&
        kiln_ukernel_has_features(p->cpu_features,
                                  KILN_UKERNEL_X86_64_AVX512_FEATURES)) {
      kiln_ukernel_pack_window_x32_16_avx512(p, poff, out);
      continue;
    }
#endif
    // The tap of column k0, then advanced one column at a time.
    int64_t c2 = p->k0 % p->ext[2];
    int64_t c1 = (p->k0 / p->ext[2]) % p->ext[1];
    int64_t c0 = p->k0 / (p->ext[2] * p->ext[1]);
    for (int64_t j = 0; j < p->kc; ++j) {
      const int64_t koff = c0 * p->step[0] + c1 * p->step[1] + c2 * p->step[2];
      uint32_t* dst = out + j * t0;
      for (int64_t i = 0; i < valid; ++i) dst[i] = in[poff[i] + koff];
      for (int64_t i = valid; i < t0; ++i) dst[i] = 0;
      if (++c2 == p->ext[2]) {
        c2 = 0;
        if (++c1 == p->ext[1]) c1 = 0, ++c0;
      }
    }
  }
  return KILN_UKERNEL_OK;
}

int kiln_ukernel_pack_window_import(void* context, void* params,
                                    void* reserved) {
  (void)context;
  (void)reserved;
  return kiln_ukernel_pack_window(
      (const kiln_ukernel_pack_window_params_t*)params);
}
