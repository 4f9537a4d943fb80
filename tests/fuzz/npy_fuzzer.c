// libFuzzer target: .npy streams (what --input=@file.npy reads): every array
// of the stream through the header parser and the buffer view loader, and
// each loaded view printed back (bounded) as the tools print results.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/base/limited_allocator.h"
#include "runtime/hal/api.h"
#include "runtime/tooling/function_io.h"
#include "runtime/tooling/npy.h"
#include "runtime/tooling/string_builder.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // 64 MiB at most: a header or type may claim any shape, and a refused
  // allocation is the expected clean error.
  kiln_limited_allocator_t* limiter = NULL;
  if (kiln_limited_allocator_create(kiln_allocator_system(), 64 << 20,
                                    "the fuzzer's limit", &limiter)) {
    return 0;
  }
  kiln_allocator_t allocator = kiln_limited_allocator_allocator(limiter);
  kiln_hal_allocator_t* device_allocator = NULL;
  if (kiln_hal_allocator_create_heap(kiln_make_cstring_view("fuzz"), allocator,
                                     &device_allocator)) {
    kiln_limited_allocator_release(limiter);
    return 0;
  }
  FILE* stream = fmemopen((void*)data, size, "rb");
  for (int i = 0; stream && i < 8 && !kiln_npy_at_end(stream); ++i) {
    kiln_hal_buffer_view_t* view = NULL;
    kiln_status_t status =
        kiln_npy_load_buffer_view(stream, device_allocator, allocator, &view);
    if (status) {
      kiln_status_free(status);
      break;
    }
    kiln_string_builder_t builder;
    kiln_string_builder_initialize(allocator, &builder);
    kiln_status_free(kiln_tooling_append_buffer_view(view, 64, &builder));
    kiln_string_builder_deinitialize(&builder);
    kiln_hal_buffer_view_release(view);
  }
  if (stream) fclose(stream);
  kiln_hal_allocator_release(device_allocator);
  kiln_limited_allocator_release(limiter);
  return 0;
}
