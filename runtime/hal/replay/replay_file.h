// Loading a replay file (format.h): the whole file is read into memory and
// validated once (header, version, length, CRC, every record's bounds, every
// count, offset, length and object id), so that the player and the dumper
// can trust it. A bad file yields DATA_LOSS / INVALID_ARGUMENT naming the
// record and its file offset, never a crash.
#ifndef KILN_RUNTIME_HAL_REPLAY_REPLAY_FILE_H_
#define KILN_RUNTIME_HAL_REPLAY_REPLAY_FILE_H_

#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/api.h"
#include "runtime/hal/replay/format.h"

#ifdef __cplusplus
extern "C" {
#endif

// A buffer operand of a command: |buffer| is a buffer id, or
// KILN_REPLAY_NO_BUFFER for binding table slot |slot|.
typedef struct kiln_hal_replay_ref_t {
  uint32_t buffer;
  uint32_t slot;
  uint64_t offset;
  uint64_t length;
} kiln_hal_replay_ref_t;

typedef struct kiln_hal_replay_blob_t {
  const uint8_t* data;  // points into the loaded file
  uint64_t length;
} kiln_hal_replay_blob_t;

typedef struct kiln_hal_replay_file_ref_t {
  kiln_string_view_t path;
  uint64_t size;
  int64_t mtime_ns;
} kiln_hal_replay_file_ref_t;

typedef struct kiln_hal_replay_range_t {
  uint64_t offset;
  uint64_t length;
  uint32_t blob;
} kiln_hal_replay_range_t;

typedef struct kiln_hal_replay_buffer_t {
  uint64_t length;
  kiln_replay_buffer_origin_t origin;
  kiln_hal_buffer_params_t params;
  kiln_replay_contents_t contents;
  uint32_t blob;  // CONTENTS_BLOB
  uint32_t file;  // CONTENTS_FILE
  kiln_replay_validation_t validation;
  uint64_t file_offset;
  const uint8_t* digest;  // 32 bytes (CONTENTS_FILE)
  uint32_t range_count;   // CONTENTS_RANGES
  kiln_hal_replay_range_t* ranges;
} kiln_hal_replay_buffer_t;

typedef struct kiln_hal_replay_executable_t {
  kiln_string_view_t format;
  uint32_t blob;          // checked against |digest| when the file is opened
  const uint8_t* digest;  // SHA-256 of the blob, 32 bytes (format >= 1.1)
  size_t entry_point_count;
  kiln_hal_executable_entry_point_info_t* entry_points;
  size_t constant_count;
  uint32_t* constants;
} kiln_hal_replay_executable_t;

typedef struct kiln_hal_replay_command_t {
  kiln_replay_command_type_t type;
  kiln_hal_replay_ref_t target;  // fill, update, copy (target)
  kiln_hal_replay_ref_t source;  // copy
  uint32_t pattern;              // fill
  uint32_t pattern_length;
  uint64_t length;             // update (source bytes), copy
  const uint8_t* update_data;  // update
  uint32_t executable;         // dispatch
  uint32_t entry_point;
  uint32_t workgroup_count[3];
  uint32_t constant_count;
  uint32_t* constants;
  uint32_t binding_count;
  kiln_hal_replay_ref_t* bindings;
} kiln_hal_replay_command_t;

typedef struct kiln_hal_replay_command_buffer_t {
  kiln_hal_command_buffer_mode_t mode;
  uint32_t binding_capacity;
  uint32_t command_count;
  kiln_hal_replay_command_t* commands;
} kiln_hal_replay_command_buffer_t;

// One binding table entry of an EXECUTE (buffer KILN_REPLAY_NO_BUFFER when
// the slot is empty).
typedef struct kiln_hal_replay_binding_t {
  uint32_t buffer;
  uint64_t offset;
  uint64_t length;
} kiln_hal_replay_binding_t;

typedef struct kiln_hal_replay_execution_t {
  uint32_t command_buffer;
  uint32_t binding_count;
  kiln_hal_replay_binding_t* bindings;
} kiln_hal_replay_execution_t;

// One record in replay order after the up-front definitions (blobs, files,
// executables): a buffer or command buffer definition, or an operation.
typedef struct kiln_hal_replay_op_t {
  kiln_replay_record_type_t type;
  uint64_t file_offset;           // of the record, for messages
  uint32_t id;                    // BUFFER / COMMAND_BUFFER: the id defined;
                                  // ALLOCA / DEALLOCA / RESULT: the buffer;
                                  // RELEASE: the object
  uint32_t release_kind;          // RELEASE
  kiln_string_view_t scope_name;  // SCOPE_BEGIN
  uint32_t execution_count;       // EXECUTE
  kiln_hal_replay_execution_t* executions;
  uint64_t offset;  // RESULT: range in the buffer
  uint64_t length;
  kiln_hal_element_type_t element_type;
  kiln_hal_encoding_type_t encoding;
  uint32_t rank;
  kiln_hal_dim_t* dims;
} kiln_hal_replay_op_t;

// A loaded, validated replay.
typedef struct kiln_hal_replay_file_t {
  kiln_allocator_t allocator;
  uint8_t* data;  // the whole file (owned)
  uint64_t length;
  uint16_t major_version;
  uint16_t minor_version;
  uint32_t record_count;
  char device_id[24];  // the device it was recorded on
  size_t blob_count;
  kiln_hal_replay_blob_t* blobs;
  size_t file_count;
  kiln_hal_replay_file_ref_t* files;
  size_t buffer_count;
  kiln_hal_replay_buffer_t* buffers;
  size_t executable_count;
  kiln_hal_replay_executable_t* executables;
  size_t command_buffer_count;
  kiln_hal_replay_command_buffer_t* command_buffers;
  size_t op_count;
  kiln_hal_replay_op_t* ops;
  size_t scope_count;  // SCOPE_BEGIN records
} kiln_hal_replay_file_t;

// Reads and validates |path|. Errors name the file.
kiln_status_t kiln_hal_replay_file_load(const char* path,
                                        kiln_allocator_t allocator,
                                        kiln_hal_replay_file_t** out_file);

// Validates |length| bytes at |data| (copied).
kiln_status_t kiln_hal_replay_file_load_memory(
    const void* data, size_t length, kiln_allocator_t allocator,
    kiln_hal_replay_file_t** out_file);

void kiln_hal_replay_file_free(kiln_hal_replay_file_t* file);

// The name of a record type ("EXECUTE"), "?" if unknown.
const char* kiln_hal_replay_record_type_name(uint32_t type);

// Prints the replay as kiln-dump-replay does: the header, then one line per
// record (definitions with their contents, commands indented under their
// command buffer, operations in order), then a summary.
void kiln_hal_replay_file_fprint(FILE* stream,
                                 const kiln_hal_replay_file_t* file);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_REPLAY_REPLAY_FILE_H_
