// kiln-benchmark-replay: times a replay file (recorded with
// kiln-benchmark-module --device_replay_output) with Google Benchmark.
//   --replay_scope=execute  one row BM_replay/execute/manual_time: the time
//                           per 'execute' scope (one measured batch of the
//                           recording), buffer creation excluded;
//   --replay_scope=all      one row BM_replay/all/real_time: the time of one
//                           whole replay (definitions included).
// Output formats and --benchmark_* flags are Google Benchmark's.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "runtime/hal/replay/player.h"
#include "runtime/session/session.h"
#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
}

extern "C" {
KILN_FLAG(string, replay_scope, "execute",
          "What is timed: 'execute' (the execute scopes, per scope) or 'all' "
          "(whole replays).");
}

namespace {

std::string StatusToString(kiln_status_t status) {
  std::string message = kiln_status_message(status);
  kiln_status_free(status);
  return message;
}

void RunExecuteScopes(benchmark::State& state,
                      kiln_hal_replay_player_t* player) {
  kiln_hal_replay_run_stats_t stats = {};
  // One untimed pass tells how many scopes a pass has.
  kiln_status_t status = kiln_hal_replay_player_run(player, "execute", &stats);
  if (!status && stats.scope_count == 0) {
    status = kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                              "the replay has no 'execute' scope; use "
                              "--replay_scope=all");
  }
  uint64_t scopes = stats.scope_count;
  while (!status && state.KeepRunningBatch((benchmark::IterationCount)scopes)) {
    status = kiln_hal_replay_player_run(player, "execute", &stats);
    if (!status) state.SetIterationTime((double)stats.scope_ns * 1e-9);
  }
  if (status) {
    state.SkipWithError(StatusToString(status).c_str());
    return;
  }
  state.counters["scopes_per_replay"] = (double)scopes;
  state.SetItemsProcessed(state.iterations());
}

void RunAll(benchmark::State& state, kiln_hal_replay_player_t* player) {
  kiln_status_t status = nullptr;
  for (auto _ : state) {
    status = kiln_hal_replay_player_run(player, nullptr, nullptr);
    if (status) break;
  }
  if (status) {
    state.SkipWithError(StatusToString(status).c_str());
    return;
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bool help = false;
  kiln_status_t status = kiln_flags_parse_command_line(
      "kiln-benchmark-replay",
      "Times a kiln replay file with Google Benchmark.\n"
      "Usage: kiln-benchmark-replay FILE.krpl [--replay_scope=execute|all] "
      "[--device=local-task] [--benchmark_* flags]\n",
      1, "one replay file (FILE.krpl)", &argc, &argv, &help);
  if (!status && help) {
    kiln_flags_reset();
    return 0;
  }
  bool execute = true;
  if (!status) {
    if (!strcmp(kiln_flag_replay_scope, "all")) {
      execute = false;
    } else if (strcmp(kiln_flag_replay_scope, "execute")) {
      status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "unknown --replay_scope '%s'; expected "
                                "execute or all",
                                kiln_flag_replay_scope);
    }
  }
  kiln_allocator_t allocator = kiln_allocator_system();
  kiln_hal_replay_file_t* file = nullptr;
  if (!status) status = kiln_hal_replay_file_load(argv[1], allocator, &file);
  kiln_runtime_session_t* session = nullptr;
  if (!status) {
    kiln_runtime_session_options_t options =
        kiln_runtime_session_options_default();
    options.device_uri = kiln_tooling_device_uri_from_flags();
    options.device_params = kiln_tooling_device_params_from_flags();
    status = kiln_runtime_session_create(&options, allocator, &session);
  }
  kiln_hal_replay_player_t* player = nullptr;
  if (!status) {
    status = kiln_hal_replay_player_create(
        file, kiln_runtime_session_device(session), allocator, &player);
  }
  bool failed = false;
  if (!status) {
    if (execute) {
      benchmark::RegisterBenchmark("BM_replay/execute",
                                   [player](benchmark::State& state) {
                                     RunExecuteScopes(state, player);
                                   })
          ->UseManualTime()
          ->MeasureProcessCPUTime()
          ->Unit(benchmark::kMicrosecond);
    } else {
      benchmark::RegisterBenchmark(
          "BM_replay/all",
          [player](benchmark::State& state) { RunAll(state, player); })
          ->UseRealTime()
          ->MeasureProcessCPUTime()
          ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  kiln_hal_replay_player_free(player);
  kiln_runtime_session_release(session);
  kiln_hal_replay_file_free(file);
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  return failed ? 1 : 0;
}
