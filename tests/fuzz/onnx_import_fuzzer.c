// libFuzzer target: ONNX model bytes through the importer (protobuf
// decoding, graph checks, shape folding, every op's lowering to StableHLO)
// and the verifier: the stage where a bad .onnx file must end in a clean
// error. It stops there: later passes see the same IR as MLIR input, which
// mlir_compile_fuzzer covers (and const-eval of big pooling windows takes
// seconds under ASan, too slow for a fuzzer). Diagnostics go to /dev/null.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/driver/driver.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Models past 256 KB only slow the search down.
  if (size > 262144) return 0;
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  options.diagnostic_stream = kiln_fuzz_null_stream();
  options.dump_stream = kiln_fuzz_null_stream();
  options.target_backends = "vmvx";
  options.output_format = KILN_COMPILER_OUTPUT_MLIR;
  options.compile_to = "input";
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  // The driver recognizes ONNX by content; the name only shows in errors.
  kiln_status_t status =
      kiln_compiler_compile_buffer(&options, "fuzz.onnx", (const char*)data,
                                   size, allocator, &bytes, &length);
  kiln_status_free(status);
  kiln_allocator_free(allocator, bytes);
  return 0;
}
