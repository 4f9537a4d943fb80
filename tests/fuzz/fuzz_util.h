// What the fuzz targets share.
#ifndef KILN_TESTS_FUZZ_FUZZ_UTIL_H_
#define KILN_TESTS_FUZZ_FUZZ_UTIL_H_

#include <stdio.h>

// /dev/null as a stream for diagnostics and dumps, opened once: it lives as
// long as the fuzzer process.
static inline FILE* kiln_fuzz_null_stream(void) {
  static FILE* stream = NULL;
  if (!stream) stream = fopen("/dev/null", "w");
  return stream;
}

#endif  // KILN_TESTS_FUZZ_FUZZ_UTIL_H_
