#include "tools/kiln-benchmark-module/dispatch_statistics.h"

#include <algorithm>

namespace kiln_benchmark {

namespace {

// Small ids for executables in the order the tool first sees them. Only the
// tool's main thread and the device queue thread (one at a time, under a
// collector's mutex) touch it.
std::mutex g_executable_ids_mutex;
std::map<const void*, int> g_executable_ids;

int ExecutableId(const void* executable) {
  std::lock_guard<std::mutex> lock(g_executable_ids_mutex);
  auto it = g_executable_ids.find(executable);
  if (it != g_executable_ids.end()) return it->second;
  int id = (int)g_executable_ids.size();
  g_executable_ids[executable] = id;
  return id;
}

}  // namespace

kiln_hal_profiling_sink_t DispatchCollector::sink() {
  kiln_hal_profiling_sink_t sink;
  sink.record_dispatch = &DispatchCollector::RecordThunk;
  sink.user_data = this;
  return sink;
}

void DispatchCollector::RecordThunk(
    void* user_data, const kiln_hal_dispatch_profile_record_t* record) {
  static_cast<DispatchCollector*>(user_data)->Record(record);
}

void DispatchCollector::Record(
    const kiln_hal_dispatch_profile_record_t* record) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (record->end_ns < record->start_ns) {
    ++dropped_;
    return;
  }
  auto key =
      std::make_pair((const void*)record->executable, record->entry_point);
  auto it = table_.find(key);
  if (it == table_.end()) {
    if (table_.size() >= kMaxFunctions) {
      ++dropped_;
      return;
    }
    DispatchStatistic statistic;
    if (record->entry_point_name.size) {
      statistic.name.assign(record->entry_point_name.data,
                            record->entry_point_name.size);
    } else {
      statistic.name = "executable_" +
                       std::to_string(ExecutableId(record->executable)) +
                       "_function_" + std::to_string(record->entry_point);
    }
    it = table_.emplace(key, std::move(statistic)).first;
  }
  it->second.calls += 1;
  it->second.real_ns += record->end_ns - record->start_ns;
  it->second.worker_ns += record->worker_ns;
  it->second.max_workers =
      std::max(it->second.max_workers, record->workers_used);
}

std::vector<DispatchStatistic> DispatchCollector::Sorted() const {
  std::vector<DispatchStatistic> result;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : table_) result.push_back(entry.second);
  }
  std::sort(result.begin(), result.end(),
            [](const DispatchStatistic& a, const DispatchStatistic& b) {
              if (a.real_ns != b.real_ns) return a.real_ns > b.real_ns;
              return a.name < b.name;
            });
  return result;
}

int64_t DispatchCollector::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

}  // namespace kiln_benchmark
