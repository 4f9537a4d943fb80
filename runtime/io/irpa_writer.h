// Writes IREE parameter archives (.irpa, version 0): what kiln-compile's
// --iree-parameter-export and --iree-parameter-splat produce, and what tests
// build archives with. Format notes in parameter_index.c.
#ifndef KILN_RUNTIME_IO_IRPA_WRITER_H_
#define KILN_RUNTIME_IO_IRPA_WRITER_H_

#include <stdint.h>

#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_io_irpa_entry_t {
  kiln_string_view_t key;
  // A data entry: |length| bytes at |data| (stored 64-byte aligned).
  const void* data;
  uint64_t length;
  // A splat entry when |splat_pattern_length| is 1, 2, 4, 8 or 16: |length|
  // bytes repeating the pattern (|data| unused).
  uint8_t splat_pattern[16];
  uint8_t splat_pattern_length;
} kiln_io_irpa_entry_t;

// Writes |count| entries to |path| (replacing it).
kiln_status_t kiln_io_irpa_write_file(const char* path,
                                      const kiln_io_irpa_entry_t* entries,
                                      size_t count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_IO_IRPA_WRITER_H_
