// ONNX TensorProto files (.pb), the format of ONNX's backend test data
// (test_data_set_0/input_0.pb): one serialized onnx.TensorProto per file.
//
// A small hand-written protobuf wire decoder (no protobuf library: the run
// tools stay free of it) that reads dims, data_type and the data from
// raw_data (little endian) or the typed fields (float_data, int32_data,
// int64_data, double_data, uint64_data). String tensors and external data
// are refused. Files are untrusted input: malformed varints, lengths past
// the end, unknown wire types, data shorter than the shape or an unknown
// data_type give INVALID_ARGUMENT / UNIMPLEMENTED, never a crash.
//
// Element types follow the compiler's ONNX importer: INT8..INT64 are
// signless (i8..i64), UINT* unsigned, BOOL i1 (one byte).
#ifndef KILN_RUNTIME_TOOLING_TENSOR_PROTO_H_
#define KILN_RUNTIME_TOOLING_TENSOR_PROTO_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/tooling/tensor_text.h"

#ifdef __cplusplus
extern "C" {
#endif

// Decodes |length| bytes of a TensorProto. On success |*out_data| (from
// |allocator|, NULL for 0 bytes; the caller frees it) holds |*out_length|
// dense row-major bytes of |*out_type|.
kiln_status_t kiln_tensor_proto_decode(const uint8_t* data, size_t length,
                                       kiln_allocator_t allocator,
                                       kiln_tooling_tensor_type_t* out_type,
                                       void** out_data, size_t* out_length);

// Reads the whole file |path| as a TensorProto into a new buffer view
// allocated from |device_allocator|. Errors name the file.
kiln_status_t kiln_tensor_proto_load_buffer_view(
    const char* path, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_hal_buffer_view_t** out_view);

// Receives one view of a container (takes ownership of |view|).
typedef kiln_status_t (*kiln_tensor_proto_view_fn_t)(
    void* user_data, kiln_hal_buffer_view_t* view);

// Reads the file |path| as an ONNX SequenceProto (|optional| false) or
// OptionalProto (true), the test-data form of sequence and optional
// values, calling |fn| with a new buffer view for each tensor it holds, in
// order: a sequence's elements (none when empty); an optional's tensor, or
// the elements of the sequence it holds, or nothing when it is absent.
// Maps, sparse tensors and nested optionals are refused. Errors name the
// file.
kiln_status_t kiln_tensor_proto_load_container(
    const char* path, bool optional, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_tensor_proto_view_fn_t fn,
    void* user_data);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_TENSOR_PROTO_H_
