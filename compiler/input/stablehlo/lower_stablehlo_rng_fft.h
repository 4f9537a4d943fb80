// StableHLO rng, rng_bit_generator and custom_call (fft and complex ops:
// lower_complex.h)
// -> structured form (linalg.generic with scalar arith/math bodies). The
// algorithms and the layout of results where StableHLO leaves them to the
// implementation follow IREE's lowerings (docs/website/docs/reference/rng.md).
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_RNG_FFT_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_RNG_FFT_H_

#include <stdbool.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// When |op| is one of the ops above, replaces it with its structured form
// built at |b| (positioned before |op| with its location), erases it and
// sets *out_handled. Unsupported forms return a diagnostic located at |op|.
kiln_status_t kiln_lower_stablehlo_rng_fft_op(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op,
                                              bool* out_handled);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_RNG_FFT_H_
