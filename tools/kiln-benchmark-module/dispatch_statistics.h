// Per-dispatch statistics for kiln-benchmark-module --dispatch_statistics:
// a HAL profiling sink that sums, per dispatch function, how often it ran,
// its wall time (first workgroup start to last workgroup end) and the summed
// time of the workers that ran its workgroups. The tool reruns each
// benchmark (untimed) under one profiling session per benchmark and turns
// the sums into rows under the benchmark's row (reporter.h).
#ifndef KILN_TOOLS_KILN_BENCHMARK_MODULE_DISPATCH_STATISTICS_H_
#define KILN_TOOLS_KILN_BENCHMARK_MODULE_DISPATCH_STATISTICS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "runtime/hal/api.h"
}

namespace kiln_benchmark {

//===----------------------------------------------------------------------===//
// DispatchStatistic
//===----------------------------------------------------------------------===//

// Totals of one dispatch function over a profiling pass.
struct DispatchStatistic {
  std::string name;          // entry point name or executable_<id>_function_<n>
  int64_t calls = 0;         // dispatches recorded
  int64_t real_ns = 0;       // sum of (end - start)
  int64_t worker_ns = 0;     // sum of the workers' time in its workgroups
  uint32_t max_workers = 0;  // most workers that ran one of its dispatches
};

//===----------------------------------------------------------------------===//
// DispatchCollector
//===----------------------------------------------------------------------===//

// Receives profiling records (from the device's queue thread) and sums them
// per (executable, entry point). Executables get a stable small id the first
// time any collector sees them, so unnamed entry points are named
// executable_<id>_function_<ordinal> consistently across benchmarks.
class DispatchCollector {
 public:
  // Records beyond this many distinct dispatch functions are dropped (and
  // counted) so that a runaway program cannot grow the table without bound.
  static constexpr size_t kMaxFunctions = 4096;

  DispatchCollector() = default;
  DispatchCollector(const DispatchCollector&) = delete;
  DispatchCollector& operator=(const DispatchCollector&) = delete;

  // The sink to pass to kiln_hal_device_profiling_begin; valid while this
  // collector lives.
  kiln_hal_profiling_sink_t sink();

  // The totals sorted by real time, largest first (ties by name).
  std::vector<DispatchStatistic> Sorted() const;

  // Records that could not be kept (too many functions, or end < start).
  int64_t dropped() const;

 private:
  static void RecordThunk(void* user_data,
                          const kiln_hal_dispatch_profile_record_t* record);
  void Record(const kiln_hal_dispatch_profile_record_t* record);

  mutable std::mutex mutex_;
  std::map<std::pair<const void*, uint32_t>, DispatchStatistic> table_;
  int64_t dropped_ = 0;
};

}  // namespace kiln_benchmark

#endif  // KILN_TOOLS_KILN_BENCHMARK_MODULE_DISPATCH_STATISTICS_H_
