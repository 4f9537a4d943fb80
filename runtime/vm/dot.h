// The kernels of the VM's dot8.f16 instruction: eight f16 dot products at
// once, over eight adjacent outputs of a contraction. Each output is one
// dot.f16 (acc + a[i] * b[i] for i in order, every product and every sum
// rounded to f16), so its rounding chain is sequential: one output's step
// waits for the previous rounded sum. Eight outputs have eight independent
// chains that run side by side, in the bits of eight dot.f16.
#ifndef KILN_RUNTIME_VM_DOT_H_
#define KILN_RUNTIME_VM_DOT_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Outputs one dot8.f16 computes.
#define KILN_VM_DOT8_LANES 8

// acc[q] (an f16 value in an f32) plus the products a[i * sa + q * oa] *
// b[i * sb + q * ob] for i < |count| in order, for q < 8, the elements f16
// bits (strides and steps in elements, every element inside its buffer:
// the caller checks). Picks the F16C kernel where the host has one.
void kiln_vm_dot8_f16(float* acc, const uint8_t* a, int64_t sa, int64_t oa,
                      const uint8_t* b, int64_t sb, int64_t ob, int64_t count);

// The same in portable C (every host).
void kiln_vm_dot8_f16_portable(float* acc, const uint8_t* a, int64_t sa,
                               int64_t oa, const uint8_t* b, int64_t sb,
                               int64_t ob, int64_t count);

// Whether kiln_vm_dot8_f16_f16c runs here (x86-64 with AVX and F16C).
bool kiln_vm_dot8_f16c_supported(void);

// The same with x86's F16C conversions (IEEE round to nearest even, as the
// portable rounding); only where kiln_vm_dot8_f16c_supported().
void kiln_vm_dot8_f16_f16c(float* acc, const uint8_t* a, int64_t sa, int64_t oa,
                           const uint8_t* b, int64_t sb, int64_t ob,
                           int64_t count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_DOT_H_
