// kiln-dump-replay: prints a replay file (recorded with kiln-benchmark-module
// --device_replay_output): header, blobs, files, executables with their
// entry points, then every buffer, command buffer (with its commands) and
// operation in replay order, and a summary line. The file is validated
// first; a bad file is reported, never printed half.
#include <stdio.h>

#include "runtime/hal/replay/replay_file.h"
#include "runtime/tooling/flags.h"

int main(int argc, char** argv) {
  bool help = false;
  kiln_status_t status = kiln_flags_parse_command_line(
      "kiln-dump-replay",
      "Prints a kiln replay file.\n"
      "Usage: kiln-dump-replay FILE.krpl\n",
      1, "one replay file (FILE.krpl)", &argc, &argv, &help);
  if (!status && help) {
    kiln_flags_reset();
    return 0;
  }
  kiln_hal_replay_file_t* file = NULL;
  if (!status) {
    status = kiln_hal_replay_file_load(argv[1], kiln_allocator_system(), &file);
  }
  if (!status) kiln_hal_replay_file_fprint(stdout, file);
  kiln_hal_replay_file_free(file);
  fflush(stdout);
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  return 0;
}
