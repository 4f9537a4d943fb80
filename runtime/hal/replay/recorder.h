// Replay recording: a device that wraps another one, forwards everything to
// it and records the HAL work of the run (buffers with their contents when
// first used, executables with their data, command buffers with their
// commands, queue operations in submission order, named scopes and the
// buffers the program returned) into a replay file (format.h, replay.md).
//
//   kiln_hal_replay_recorder_t* recorder = NULL;
//   kiln_hal_replay_recorder_create(&options, allocator, &recorder);
//   kiln_hal_device_t* recording = NULL;
//   kiln_hal_replay_recorder_wrap_device(recorder, device, &recording);
//   ... use |recording| as the device (hal module, tools) ...
//   kiln_hal_replay_recorder_begin_scope(recorder, "execute");
//   ... the measured work ...
//   kiln_hal_replay_recorder_end_scope(recorder);
//   kiln_hal_replay_recorder_record_result(recorder, output_view);
//   kiln_hal_replay_recorder_write_file(recorder, "run.krpl");
//
// What is recorded, and what is not:
//   - A buffer's contents are captured when a queue operation (or a result)
//     first uses it; later host writes into a buffer the device already
//     used are not seen (compiled kiln programs never do that: inputs are
//     written before the call, outputs read after).
//   - Read-only buffers over a file mapping (module rodata used in place)
//     follow the file policy: referenced by path and offset, captured
//     (used ranges or whole), or refused.
//   - Executables must come from the recording device's executable caches.
//   - Queue operations are replayed one after another in submission order
//     (the local drivers' semantics); fences are not recorded.
#ifndef KILN_RUNTIME_HAL_REPLAY_RECORDER_H_
#define KILN_RUNTIME_HAL_REPLAY_RECORDER_H_

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/hal/api.h"
#include "runtime/hal/replay/format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_replay_recorder_t kiln_hal_replay_recorder_t;

// How buffers backed by a read-only file mapping are recorded
// (--device_replay_file_policy).
typedef enum kiln_hal_replay_file_policy_e {
  // By path, offset and length; checked with the validation mode on replay.
  KILN_HAL_REPLAY_FILE_POLICY_REFERENCE = 0,
  // The byte ranges the recorded work used are captured into the replay.
  KILN_HAL_REPLAY_FILE_POLICY_CAPTURE_RANGES = 1,
  // The whole buffer is captured into the replay.
  KILN_HAL_REPLAY_FILE_POLICY_CAPTURE_ALL = 2,
  // Using such a buffer fails the operation (FAILED_PRECONDITION).
  KILN_HAL_REPLAY_FILE_POLICY_FAIL = 3,
} kiln_hal_replay_file_policy_t;

typedef struct kiln_hal_replay_recorder_options_t {
  kiln_hal_replay_file_policy_t file_policy;
  kiln_replay_validation_t file_validation;  // for POLICY_REFERENCE
} kiln_hal_replay_recorder_options_t;

// Parses "reference", "capture-ranges", "capture-all", "fail";
// INVALID_ARGUMENT listing them otherwise.
kiln_status_t kiln_hal_replay_parse_file_policy(
    const char* text, kiln_hal_replay_file_policy_t* out_policy);
// Parses "identity", "digest"; INVALID_ARGUMENT listing them otherwise.
kiln_status_t kiln_hal_replay_parse_file_validation(
    const char* text, kiln_replay_validation_t* out_validation);

// Creates an empty recording. The recorder is reference counted: a wrapping
// device keeps it alive.
kiln_status_t kiln_hal_replay_recorder_create(
    const kiln_hal_replay_recorder_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_replay_recorder_t** out_recorder);

void kiln_hal_replay_recorder_retain(kiln_hal_replay_recorder_t* recorder);
void kiln_hal_replay_recorder_release(kiln_hal_replay_recorder_t* recorder);

// Returns a new device that forwards to |device| (retained) and records into
// |recorder|. Its id and allocator are |device|'s. A recorder records one
// device: wrapping a second is FAILED_PRECONDITION.
kiln_status_t kiln_hal_replay_recorder_wrap_device(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_device_t* device,
    kiln_hal_device_t** out_device);

// Opens a named scope (e.g. "execute" around a measured body); scopes do not
// nest: FAILED_PRECONDITION when one is open.
kiln_status_t kiln_hal_replay_recorder_begin_scope(
    kiln_hal_replay_recorder_t* recorder, const char* name);
// Closes the open scope; FAILED_PRECONDITION when none is.
kiln_status_t kiln_hal_replay_recorder_end_scope(
    kiln_hal_replay_recorder_t* recorder);

// Records that the program returned |view|. Consecutive results form one
// group; a player's results are the last group.
kiln_status_t kiln_hal_replay_recorder_record_result(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_buffer_view_t* view);

// Writes the replay file to |path| (the recording continues and may be
// written again). Fails with the first recording error, if any happened.
kiln_status_t kiln_hal_replay_recorder_write_file(
    kiln_hal_replay_recorder_t* recorder, const char* path);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_REPLAY_RECORDER_H_
