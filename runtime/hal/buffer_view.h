// Buffer views: a buffer range interpreted as a dense tensor (shape, element
// type, encoding). This is what crosses the VM ABI for tensor arguments and
// results and what --input/--output parse and print.
#ifndef KILN_RUNTIME_HAL_BUFFER_VIEW_H_
#define KILN_RUNTIME_HAL_BUFFER_VIEW_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/element_type.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t kiln_hal_dim_t;

// Encodings (IREE's values): dense row-major is the only one kiln produces.
typedef uint32_t kiln_hal_encoding_type_t;
#define KILN_HAL_ENCODING_TYPE_OPAQUE 0u
#define KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR 1u

// Highest rank accepted (a sanity bound for untrusted inputs).
#define KILN_HAL_MAX_RANK 64

typedef struct kiln_hal_buffer_view_t kiln_hal_buffer_view_t;

// The ref type of buffer views ("hal.buffer_view").
extern const kiln_ref_type_t kiln_hal_buffer_view_type;

// Creates a view of all of |buffer| from byte 0 (the buffer may be larger
// than the tensor; the view's byte length is what the shape needs).
// |shape_rank| may be 0 (a scalar); dims must be >= 0. INVALID_ARGUMENT on a
// negative dim, element type NONE with a dense encoding, overflow, or a
// buffer too small for the shape (message names the shape and both sizes).
// The view retains |buffer|.
kiln_status_t kiln_hal_buffer_view_create(
    kiln_hal_buffer_t* buffer, size_t shape_rank, const kiln_hal_dim_t* shape,
    kiln_hal_element_type_t element_type,
    kiln_hal_encoding_type_t encoding_type, kiln_allocator_t host_allocator,
    kiln_hal_buffer_view_t** out_view);

// As kiln_hal_buffer_view_create, at |byte_offset| in |buffer|. With a dense
// encoding |byte_length| must equal what the shape needs (or be
// KILN_HAL_WHOLE_BUFFER to take exactly that); with an opaque encoding any
// length within the buffer is accepted.
kiln_status_t kiln_hal_buffer_view_create_at(
    kiln_hal_buffer_t* buffer, uint64_t byte_offset, uint64_t byte_length,
    size_t shape_rank, const kiln_hal_dim_t* shape,
    kiln_hal_element_type_t element_type,
    kiln_hal_encoding_type_t encoding_type, kiln_allocator_t host_allocator,
    kiln_hal_buffer_view_t** out_view);

void kiln_hal_buffer_view_retain(kiln_hal_buffer_view_t* view);
void kiln_hal_buffer_view_release(kiln_hal_buffer_view_t* view);

kiln_hal_buffer_t* kiln_hal_buffer_view_buffer(
    const kiln_hal_buffer_view_t* view);
uint64_t kiln_hal_buffer_view_byte_offset(const kiln_hal_buffer_view_t* view);
uint64_t kiln_hal_buffer_view_byte_length(const kiln_hal_buffer_view_t* view);
kiln_hal_element_type_t kiln_hal_buffer_view_element_type(
    const kiln_hal_buffer_view_t* view);
kiln_hal_encoding_type_t kiln_hal_buffer_view_encoding_type(
    const kiln_hal_buffer_view_t* view);
size_t kiln_hal_buffer_view_shape_rank(const kiln_hal_buffer_view_t* view);
// Pointer to |rank| dims (valid while the view lives).
const kiln_hal_dim_t* kiln_hal_buffer_view_shape_dims(
    const kiln_hal_buffer_view_t* view);
// Dim |index| (0 if out of range).
kiln_hal_dim_t kiln_hal_buffer_view_shape_dim(
    const kiln_hal_buffer_view_t* view, size_t index);
// Product of the dims (1 for rank 0).
uint64_t kiln_hal_buffer_view_element_count(const kiln_hal_buffer_view_t* view);
size_t kiln_hal_buffer_view_element_size(const kiln_hal_buffer_view_t* view);

// Computes the dense byte size of a shape: element count * element byte
// size. INVALID_ARGUMENT on negative dims or overflow.
kiln_status_t kiln_hal_compute_dense_byte_length(
    size_t shape_rank, const kiln_hal_dim_t* shape,
    kiln_hal_element_type_t element_type, uint64_t* out_byte_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_BUFFER_VIEW_H_
