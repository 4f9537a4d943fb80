// NumPy .npy files (https://numpy.org/doc/stable/reference/generated/
// numpy.lib.format.html): one or more arrays written back to back, as
// `np.save(f, a); np.save(f, b)` produces and as IREE's tools read and write.
//
// Supported: format versions 1.0, 2.0 and 3.0 (read; 1.0 or 2.0 written as
// numpy does), C order only, little-endian dtypes:
//   |b1 -> i1   <i1 <i2 <i4 <i8 -> si8..si64   <u1..<u8 -> ui8..ui64
//   <f2 <f4 <f8 -> f16 f32 f64   <c8 <c16 -> complex   |V<n> -> opaque
// On write signless integers use 'i' (numpy has no signless types), so they
// read back as si*, as in IREE. bf16 has no numpy dtype and is refused on
// write. Files are untrusted input: every malformed header, impossible shape
// or truncated payload yields INVALID_ARGUMENT / DATA_LOSS, never a crash.
#ifndef KILN_RUNTIME_TOOLING_NPY_H_
#define KILN_RUNTIME_TOOLING_NPY_H_

#include <stdbool.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/tooling/tensor_text.h"

#ifdef __cplusplus
extern "C" {
#endif

// True when |stream| has no more bytes (no array follows).
bool kiln_npy_at_end(FILE* stream);

// Reads one array header from |stream| and leaves the stream at the first
// data byte. Errors (INVALID_ARGUMENT unless noted) read as
// "not a valid .npy file (bad magic)", "... (truncated header)",
// "... (bad header: <what>)", "fortran_order arrays are not supported",
// "big-endian dtype '>f4' is not supported", UNIMPLEMENTED for other dtypes
// or versions, OUT_OF_RANGE "no more arrays" at end of file.
kiln_status_t kiln_npy_read_header(FILE* stream,
                                   kiln_tooling_tensor_type_t* out_type);

// Reads one whole array (header + data) into a new host block from
// |allocator| (|*out_data| may be NULL for 0 bytes; free it with
// kiln_allocator_free). DATA_LOSS "truncated data: needs N bytes, got M".
kiln_status_t kiln_npy_read_array(FILE* stream, kiln_allocator_t allocator,
                                  kiln_tooling_tensor_type_t* out_type,
                                  void** out_data, size_t* out_length);

// Reads one array into a new buffer view allocated from |device_allocator|.
kiln_status_t kiln_npy_load_buffer_view(FILE* stream,
                                        kiln_hal_allocator_t* device_allocator,
                                        kiln_allocator_t host_allocator,
                                        kiln_hal_buffer_view_t** out_view);

// Writes one array (header padded to 64 bytes, then |data|, |length| must be
// the dense byte length of |type|) at the stream's position.
kiln_status_t kiln_npy_write_array(FILE* stream,
                                   const kiln_tooling_tensor_type_t* type,
                                   const void* data, size_t length);

// Writes |view| (dense row-major) as one array.
kiln_status_t kiln_npy_save_buffer_view(FILE* stream,
                                        kiln_hal_buffer_view_t* view);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_NPY_H_
