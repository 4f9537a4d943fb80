// kiln-run-replay: re-executes a replay file (recorded with
// kiln-benchmark-module --device_replay_output) on a device and prints or
// writes the buffers the recorded program returned (the last group of
// results), with kiln-run-module's --output syntax (@f.bin, @f.npy, ...).
#include <stdio.h>
#include <string.h>

#include "runtime/hal/replay/player.h"
#include "runtime/session/session.h"
#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/function_io.h"
#include "runtime/tooling/trace_output.h"

KILN_FLAG(int32, repeat, 1, "Replays the file this many times.");
KILN_FLAG_LIST_DECLARE(output);
KILN_FLAG_DECLARE(int32, output_max_element_count);

static kiln_status_t kiln_run_replay(const char* path, int* out_exit_code) {
  kiln_allocator_t allocator = kiln_allocator_system();
  kiln_hal_replay_file_t* file = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_replay_file_load(path, allocator, &file));
  // A session gives the --device device with the vmvx loader registered.
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = kiln_tooling_device_uri_from_flags();
  options.device_params = kiln_tooling_device_params_from_flags();
  kiln_runtime_session_t* session = NULL;
  kiln_status_t status =
      kiln_runtime_session_create(&options, allocator, &session);
  kiln_hal_replay_player_t* player = NULL;
  if (!status) {
    status = kiln_hal_replay_player_create(
        file, kiln_runtime_session_device(session), allocator, &player);
  }
  for (int32_t i = 0; i < kiln_flag_repeat && !status; ++i) {
    status = kiln_hal_replay_player_run(player, NULL, NULL);
  }
  kiln_vm_list_t* list = NULL;
  if (!status) {
    size_t count = kiln_hal_replay_player_result_count(player);
    status = kiln_vm_list_create(count, allocator, &list);
    for (size_t i = 0; i < count && !status; ++i) {
      kiln_hal_buffer_view_t* view = NULL;
      status = kiln_hal_replay_player_result(player, i, &view);
      if (!status) {
        kiln_vm_value_t value = kiln_vm_value_make_ref(view);
        status = kiln_vm_list_push_value_move(list, &value);
      }
    }
  }
  if (!status) {
    size_t max = (size_t)kiln_flag_output_max_element_count;
    if (kiln_flag_output.count) {
      status = kiln_tooling_write_values(list, kiln_flag_output.values,
                                         kiln_flag_output.count, max, stdout);
    } else {
      status = kiln_tooling_print_values(stdout, "result", list, max);
    }
  }
  kiln_ref_release(list);
  kiln_hal_replay_player_free(player);
  kiln_runtime_session_release(session);
  kiln_hal_replay_file_free(file);
  *out_exit_code = 0;
  return status;
}

int main(int argc, char** argv) {
  bool help = false;
  kiln_status_t status = kiln_flags_parse_command_line(
      "kiln-run-replay",
      "Re-executes a replay file on a device and prints or writes the "
      "buffers the recorded program returned.\n"
      "Usage: kiln-run-replay FILE.krpl [--device=local-task] "
      "[--output=@result0.bin ...]\n",
      1, "one replay file (FILE.krpl)", &argc, &argv, &help);
  if (!status && help) {
    kiln_flags_reset();
    return 0;
  }
  int exit_code = 0;
  if (!status) status = kiln_tooling_trace_start_from_flags("kiln-run-replay");
  // kiln_run_replay releases its device before returning.
  if (!status) status = kiln_run_replay(argv[1], &exit_code);
  fflush(stdout);
  kiln_status_t trace_status = kiln_tooling_trace_finish();
  if (!status) {
    status = trace_status;
  } else {
    kiln_status_free(trace_status);
  }
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  return exit_code;
}
