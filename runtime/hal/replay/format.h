// The replay file format (.krpl): a recording of the HAL work of a run
// (buffers with their initial contents, executables, command buffers, queue
// operations, scopes and returned buffers), written by the recorder
// (recorder.h) and read by the loader (replay_file.h). The full description
// with every field is docs/website/docs/developers/design-docs/replay.md;
// this header holds the constants both sides share.
//
// Layout: a 64-byte header, then records, each 8-byte aligned:
//   { u32 type, u32 flags (0), u64 payload_length, payload, zero padding }
// All integers are little endian. Objects (blobs, files, buffers,
// executables, command buffers) are numbered in the order their definition
// records appear, per kind, from 0; a record may only name objects defined
// before it. Operation records are replayed in file order.
#ifndef KILN_RUNTIME_HAL_REPLAY_FORMAT_H_
#define KILN_RUNTIME_HAL_REPLAY_FORMAT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

#define KILN_REPLAY_MAGIC "KILNRPL"  // 8 bytes with the NUL
#define KILN_REPLAY_MAJOR_VERSION 1
#define KILN_REPLAY_MINOR_VERSION 1
#define KILN_REPLAY_HEADER_SIZE 64
#define KILN_REPLAY_RECORD_HEADER_SIZE 16
#define KILN_REPLAY_RECORD_ALIGNMENT 8

// Header fields (byte offsets).
#define KILN_REPLAY_HEADER_MAGIC 0          // u8[8]
#define KILN_REPLAY_HEADER_MAJOR 8          // u16
#define KILN_REPLAY_HEADER_MINOR 10         // u16
#define KILN_REPLAY_HEADER_FLAGS 12         // u32, 0
#define KILN_REPLAY_HEADER_FILE_LENGTH 16   // u64
#define KILN_REPLAY_HEADER_CRC32 24         // u32, of the file with this 0
#define KILN_REPLAY_HEADER_RECORD_COUNT 28  // u32
#define KILN_REPLAY_HEADER_DEVICE_ID 32     // u8[24], NUL padded
#define KILN_REPLAY_HEADER_RESERVED 56      // u8[8], 0

//===----------------------------------------------------------------------===//
// Record types
//===----------------------------------------------------------------------===//

typedef enum kiln_replay_record_type_e {
  // Definitions.
  KILN_REPLAY_RECORD_BLOB = 1,            // raw bytes (the whole payload)
  KILN_REPLAY_RECORD_FILE = 2,            // a file referenced by buffers
  KILN_REPLAY_RECORD_BUFFER = 3,          // a root buffer and its contents
  KILN_REPLAY_RECORD_EXECUTABLE = 4,      // format, data blob, entry points
  KILN_REPLAY_RECORD_COMMAND_BUFFER = 5,  // recorded commands
  // Operations (replayed in order).
  KILN_REPLAY_RECORD_EXECUTE = 16,      // queue_execute
  KILN_REPLAY_RECORD_ALLOCA = 17,       // queue_alloca of a buffer
  KILN_REPLAY_RECORD_DEALLOCA = 18,     // queue_dealloca
  KILN_REPLAY_RECORD_SCOPE_BEGIN = 19,  // named scope ("execute")
  KILN_REPLAY_RECORD_SCOPE_END = 20,
  KILN_REPLAY_RECORD_RESULT = 21,   // a buffer range the program returned
  KILN_REPLAY_RECORD_RELEASE = 22,  // an object's last use has passed
} kiln_replay_record_type_t;

// Record types at or above this value are optional: readers that do not
// know them skip them (a minor version may add them).
#define KILN_REPLAY_RECORD_OPTIONAL_BASE 1024

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// Where a buffer comes from.
typedef enum kiln_replay_buffer_origin_e {
  // Allocated (or wrapped) by the host before its first use; the player
  // creates it when its definition is replayed.
  KILN_REPLAY_BUFFER_ORIGIN_HOST = 0,
  // Returned by a queue_alloca; created by the ALLOCA operation.
  KILN_REPLAY_BUFFER_ORIGIN_ALLOCA = 1,
} kiln_replay_buffer_origin_t;

// What a buffer holds when it is first used.
typedef enum kiln_replay_contents_e {
  // Not recorded: device work writes it before reading (alloca buffers).
  KILN_REPLAY_CONTENTS_UNDEFINED = 0,
  // Every byte zero (captured, stored without a blob).
  KILN_REPLAY_CONTENTS_ZERO = 1,
  // The whole buffer captured in one blob.
  KILN_REPLAY_CONTENTS_BLOB = 2,
  // A range of a file (rodata mapped from a module file), validated when
  // replayed (--device_replay_file_policy=reference).
  KILN_REPLAY_CONTENTS_FILE = 3,
  // Only the ranges the recorded work used, each in a blob; the rest is
  // zero (--device_replay_file_policy=capture-ranges).
  KILN_REPLAY_CONTENTS_RANGES = 4,
} kiln_replay_contents_t;

// How a referenced file is checked before its bytes are used.
typedef enum kiln_replay_validation_e {
  // The file's size and modification time must equal the recorded ones.
  KILN_REPLAY_VALIDATION_IDENTITY = 1,
  // The SHA-256 of the referenced range must equal the recorded digest.
  KILN_REPLAY_VALIDATION_DIGEST = 2,
} kiln_replay_validation_t;

//===----------------------------------------------------------------------===//
// Commands (inside COMMAND_BUFFER records)
//===----------------------------------------------------------------------===//

// Same values as kiln_hal_command_type_t.
typedef enum kiln_replay_command_type_e {
  KILN_REPLAY_COMMAND_BARRIER = 0,
  KILN_REPLAY_COMMAND_FILL = 1,
  KILN_REPLAY_COMMAND_UPDATE = 2,
  KILN_REPLAY_COMMAND_COPY = 3,
  KILN_REPLAY_COMMAND_DISPATCH = 4,
} kiln_replay_command_type_t;

// A buffer id meaning "none": a binding table slot in a buffer ref, a
// missing binding in a binding table.
#define KILN_REPLAY_NO_BUFFER 0xFFFFFFFFu

// Size of an encoded buffer ref: u32 buffer, u32 slot, u64 offset,
// u64 length.
#define KILN_REPLAY_BUFFER_REF_SIZE 24

// RELEASE record kinds.
#define KILN_REPLAY_RELEASE_BUFFER 1u
#define KILN_REPLAY_RELEASE_COMMAND_BUFFER 2u

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_REPLAY_FORMAT_H_
