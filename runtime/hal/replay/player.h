// Replaying a loaded replay file (replay_file.h) on a device: executables
// are prepared once when the player is created (referenced files are opened,
// mapped and validated then too); each run replays every record in order:
// buffers are created with their recorded contents right before their first
// use, command buffers are recorded again with the same commands, queue
// operations are issued one after another (each waits for the previous one
// on a timeline of the player), objects are released after their last use,
// and the buffers of the last group of RESULT records are kept as results.
// Replaying a recording made on a kiln CPU device reproduces its results bit
// for bit (dispatches are deterministic for any worker count).
#ifndef KILN_RUNTIME_HAL_REPLAY_PLAYER_H_
#define KILN_RUNTIME_HAL_REPLAY_PLAYER_H_

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/hal/api.h"
#include "runtime/hal/replay/replay_file.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_replay_player_t kiln_hal_replay_player_t;

// Prepares |file| (borrowed; must outlive the player) for replay on |device|
// (retained). Fails when an executable cannot be loaded (e.g. native code
// on a device that does not allow it) or a referenced file is missing or
// fails its identity / digest check (DATA_LOSS naming the file).
kiln_status_t kiln_hal_replay_player_create(const kiln_hal_replay_file_t* file,
                                            kiln_hal_device_t* device,
                                            kiln_allocator_t host_allocator,
                                            kiln_hal_replay_player_t** out);

void kiln_hal_replay_player_free(kiln_hal_replay_player_t* player);

// What one run measured.
typedef struct kiln_hal_replay_run_stats_t {
  // Scopes whose name matched |scope_name| in kiln_hal_replay_player_run.
  uint64_t scope_count;
  // Wall time inside those scopes: from the scope's start (all earlier work
  // finished) to its end (all its work finished), not counting the time
  // spent creating buffers and recording command buffers.
  int64_t scope_ns;
} kiln_hal_replay_run_stats_t;

// Replays the whole file once and waits for all its work. Scopes named
// |scope_name| (NULL: none) are timed into |out_stats| (may be NULL).
// Errors name the record and its file offset.
kiln_status_t kiln_hal_replay_player_run(
    kiln_hal_replay_player_t* player, const char* scope_name,
    kiln_hal_replay_run_stats_t* out_stats);

// The results of the last run (the last group of RESULT records).
size_t kiln_hal_replay_player_result_count(
    const kiln_hal_replay_player_t* player);
// Result |index| as a new buffer view (release it).
kiln_status_t kiln_hal_replay_player_result(kiln_hal_replay_player_t* player,
                                            size_t index,
                                            kiln_hal_buffer_view_t** out_view);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_REPLAY_PLAYER_H_
