// libFuzzer target: ONNX TensorProto bytes (what --input=@file.pb and
// --expected_output=@file.pb read) through the decoder, under a 64 MiB
// allocation limit (a proto may claim any shape; a refused allocation is
// the expected clean error).
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/limited_allocator.h"
#include "runtime/tooling/tensor_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln_limited_allocator_t* limiter = NULL;
  if (kiln_limited_allocator_create(kiln_allocator_system(), 64 << 20,
                                    "the fuzzer's limit", &limiter)) {
    return 0;
  }
  kiln_allocator_t allocator = kiln_limited_allocator_allocator(limiter);
  kiln_tooling_tensor_type_t type;
  void* out = NULL;
  size_t out_length = 0;
  kiln_status_t status = kiln_tensor_proto_decode(data, size, allocator, &type,
                                                  &out, &out_length);
  if (!status && out_length > 0) {
    // The decoded bytes must be readable end to end.
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < out_length; i += 4096) sink ^= ((uint8_t*)out)[i];
    sink ^= ((uint8_t*)out)[out_length - 1];
    (void)sink;
  }
  kiln_status_free(status);
  kiln_allocator_free(allocator, out);
  kiln_limited_allocator_release(limiter);
  return 0;
}
