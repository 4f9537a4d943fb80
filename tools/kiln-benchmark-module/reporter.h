// The reporter of kiln-benchmark-module: Google Benchmark's console, JSON
// and CSV reporters behind one display reporter that can buffer.
//
// Google Benchmark 1.7.1 (Debian's) has no ProfilerManager, so the
// --dispatch_statistics pass runs after RunSpecifiedBenchmarks. To print its
// rows under their benchmark's row, in every format, this reporter buffers
// all runs, lets the tool add rows, then replays everything to the real
// reporters (--benchmark_format on stdout, --benchmark_out in
// --benchmark_out_format). Without extra rows it forwards as it goes.
// It also remembers which benchmarks ran and whether any failed, so that the
// tool can exit non-zero after running the others.
#ifndef KILN_TOOLS_KILN_BENCHMARK_MODULE_REPORTER_H_
#define KILN_TOOLS_KILN_BENCHMARK_MODULE_REPORTER_H_

#include <benchmark/benchmark.h>

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln_benchmark {

//===----------------------------------------------------------------------===//
// ReporterOptions
//===----------------------------------------------------------------------===//

// Google Benchmark's output flags, which the tool takes over from the
// library so that its rows can be merged into every output.
struct ReporterOptions {
  std::string format = "console";   // --benchmark_format
  std::string out_path;             // --benchmark_out ("" = none)
  std::string out_format = "json";  // --benchmark_out_format
  std::string color = "auto";       // --benchmark_color
  bool counters_tabular = false;    // --benchmark_counters_tabular
  bool buffer = false;              // hold everything until Flush
};

//===----------------------------------------------------------------------===//
// Reporter
//===----------------------------------------------------------------------===//

class Reporter : public benchmark::BenchmarkReporter {
 public:
  // What the tool needs to know about each benchmark that produced rows.
  struct Summary {
    std::string name;  // Run::run_name.function_name, e.g. "BM_abs"
    int64_t family_index = 0;
    int64_t iterations = 0;  // of its first iteration row
    benchmark::TimeUnit time_unit = benchmark::kMillisecond;
    bool error = false;
  };

  // Validates the formats and opens --benchmark_out. Returns "" or an error
  // message naming the bad value or the path.
  std::string Open(const ReporterOptions& options);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& report) override;
  void Finalize() override;

  // Adds |rows| right after the last row of benchmark |name| (buffered mode).
  void AddRowsAfter(const std::string& name, std::vector<Run> rows);

  // Buffered mode: replays the context and every row (with the added ones)
  // to the real reporters and finalizes them. No-op otherwise.
  void Flush();

  // Benchmarks in the order they first reported.
  const std::vector<Summary>& summaries() const {
    return summaries_;
  }
  // True when any row carried an error (a failing benchmark).
  bool any_error() const {
    return any_error_;
  }

 private:
  void Record(const std::vector<Run>& report);

  ReporterOptions options_;
  std::unique_ptr<benchmark::BenchmarkReporter> display_;
  std::unique_ptr<benchmark::BenchmarkReporter> file_;
  std::ofstream file_stream_;
  size_t name_field_width_ = 0;
  std::vector<Run> runs_;  // buffered mode
  std::map<std::string, std::vector<Run>> extra_rows_;
  std::vector<Summary> summaries_;
  bool any_error_ = false;
};

}  // namespace kiln_benchmark

#endif  // KILN_TOOLS_KILN_BENCHMARK_MODULE_REPORTER_H_
