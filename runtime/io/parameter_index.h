// Parameter index: named constants kept outside the module, as IREE's
// parameters are. Each file added to the index is mapped read-only and its
// entries are recorded under a scope (the `scope` of
// `--parameters=scope=path`; "" for `--parameters=path`). Two formats:
//   - IREE parameter archives (.irpa, format version 0): data entries (used
//     in place from the mapping) and splat entries (expanded on first
//     lookup, into memory the index owns);
//   - safetensors (u64 header length, a JSON header naming each tensor's
//     dtype, shape and data offsets, then the data).
// A file is untrusted input: every offset and length is checked, and a bad
// or truncated file gives one error naming the file and what is wrong.
#ifndef KILN_RUNTIME_IO_PARAMETER_INDEX_H_
#define KILN_RUNTIME_IO_PARAMETER_INDEX_H_

#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_io_parameter_index_t kiln_io_parameter_index_t;

// A ref-counted index (kiln_ref_retain / kiln_ref_release); its mappings live
// as long as it does.
kiln_status_t kiln_io_parameter_index_create(
    kiln_allocator_t allocator, kiln_io_parameter_index_t** out_index);

// Maps |path| and adds its entries under |scope|. The format is chosen by
// the file's first bytes ("IRPA" magic, else safetensors). ALREADY_EXISTS
// when a key of |scope| is already indexed.
kiln_status_t kiln_io_parameter_index_add_file(kiln_io_parameter_index_t* index,
                                               kiln_string_view_t scope,
                                               const char* path);

// Adds a `--parameters=` flag value: `scope=path`, or `path` (empty scope).
kiln_status_t kiln_io_parameter_index_add_flag(kiln_io_parameter_index_t* index,
                                               const char* value);

size_t kiln_io_parameter_index_count(const kiln_io_parameter_index_t* index);

typedef struct kiln_io_parameter_info_t {
  kiln_string_view_t scope;
  kiln_string_view_t key;
  uint64_t length;
  const char* path;  // the file it comes from
  bool is_splat;
} kiln_io_parameter_info_t;

kiln_status_t kiln_io_parameter_index_entry_at(
    const kiln_io_parameter_index_t* index, size_t ordinal,
    kiln_io_parameter_info_t* out_info);

// The bytes of (|scope|, |key|): in the file mapping, or (a splat) expanded
// into memory the index owns; valid while the index lives. NOT_FOUND naming
// the key and the files of its scope. Not thread-safe against concurrent
// lookups of one splat (modules bind their parameters once, at load).
kiln_status_t kiln_io_parameter_index_lookup(kiln_io_parameter_index_t* index,
                                             kiln_string_view_t scope,
                                             kiln_string_view_t key,
                                             const uint8_t** out_data,
                                             uint64_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_IO_PARAMETER_INDEX_H_
