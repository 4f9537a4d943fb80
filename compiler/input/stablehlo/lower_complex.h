// Complex tensors -> structured form on real tensors (called from
// lower-to-structured). A tensor<S x complex<fN>> is represented by its
// "pairs" tensor<S x 2 x fN> (real, imaginary interleaved: the same bytes as
// the complex buffer). `kiln.complex_view` reinterprets one as the other
// where a complex value must keep its type (function arguments, results,
// branch operands); it aliases the buffer. Lowered here:
//   - stablehlo.real / imag / complex, add / subtract / multiply / negate on
//     complex tensors, complex constants (stablehlo.constant,
//     arith.constant, util.unfoldable_constant);
//   - stablehlo.fft (FFT, IFFT, RFFT, IRFFT over the trailing fft_length
//     dims) as one DFT reduction generic per transformed dim, accumulated in
//     f64 (twiddles from (k * n mod N) so large indices keep their
//     accuracy), then truncated to the result's element type;
//   - check ops with complex operands compare the pairs tensors.
// See docs/website/docs/developers/design-docs/structured-form.md.
#ifndef KILN_COMPILER_PIPELINE_LOWER_COMPLEX_H_
#define KILN_COMPILER_PIPELINE_LOWER_COMPLEX_H_

#include <stdbool.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// When |op| is one of the ops above (or has complex tensor operands or
// results that this file handles), replaces it with its structured form
// built at |b| (positioned before |op|), erases it if it was an input op and
// sets *out_handled. Unsupported complex ops return a diagnostic located at
// |op| that names the op and the reason.
kiln_status_t kiln_lower_complex_op(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    bool* out_handled);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_COMPLEX_H_
