// libFuzzer target: flagfiles (--flagfile=path) with the run tools' flags
// registered. The input is written to a temporary file and parsed; every
// flag is reset afterwards.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/tooling/flags.h"
#include "tools/common/run_context.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  // Nested --flagfile= would read other files: only this one is fuzzed.
  static const char kNested[] = "flagfile";
  for (size_t i = 0; i + sizeof(kNested) - 1 <= size; ++i) {
    if (memcmp(data + i, kNested, sizeof(kNested) - 1) == 0) return 0;
  }
  char path[] = "/tmp/kiln-flagfile-fuzz-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  bool written = write(fd, data, size) == (ssize_t)size;
  close(fd);
  if (written) kiln_status_free(kiln_flags_parse_file(path));
  // Links the run tools' flags in (and reads one the file may have set).
  (void)kiln_tools_function_deadline_ns();
  unlink(path);
  kiln_flags_reset();
  return 0;
}
