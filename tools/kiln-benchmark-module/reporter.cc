#include "tools/kiln-benchmark-module/reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace kiln_benchmark {

namespace {

// A reporter for |format|, or NULL when the name is unknown.
std::unique_ptr<benchmark::BenchmarkReporter> CreateReporter(
    const std::string& format,
    benchmark::ConsoleReporter::OutputOptions console_options) {
  if (format == "console") {
    return std::unique_ptr<benchmark::BenchmarkReporter>(
        new benchmark::ConsoleReporter(console_options));
  }
  if (format == "json") {
    return std::unique_ptr<benchmark::BenchmarkReporter>(
        new benchmark::JSONReporter());
  }
  if (format == "csv") {
    // Deprecated upstream but still what --benchmark_format=csv prints.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return std::unique_ptr<benchmark::BenchmarkReporter>(
        new benchmark::CSVReporter());
#pragma GCC diagnostic pop
  }
  return nullptr;
}

bool ColorEnabled(const std::string& color) {
  if (color == "true" || color == "yes" || color == "1" || color == "on") {
    return true;
  }
  if (color == "auto") return isatty(fileno(stdout)) != 0;
  return false;
}

}  // namespace

std::string Reporter::Open(const ReporterOptions& options) {
  options_ = options;
  int console = benchmark::ConsoleReporter::OO_None;
  if (ColorEnabled(options.color))
    console |= benchmark::ConsoleReporter::OO_Color;
  if (options.counters_tabular) {
    console |= benchmark::ConsoleReporter::OO_Tabular;
  }
  display_ = CreateReporter(options.format,
                            (benchmark::ConsoleReporter::OutputOptions)console);
  if (!display_) {
    return "unknown --benchmark_format '" + options.format +
           "'; expected console, json or csv";
  }
  if (!options.out_path.empty()) {
    file_ =
        CreateReporter(options.out_format, benchmark::ConsoleReporter::OO_None);
    if (!file_) {
      return "unknown --benchmark_out_format '" + options.out_format +
             "'; expected console, json or csv";
    }
    file_stream_.open(options.out_path);
    if (!file_stream_.is_open()) {
      return "cannot open --benchmark_out file '" + options.out_path +
             "' for writing";
    }
    file_->SetOutputStream(&file_stream_);
    file_->SetErrorStream(&file_stream_);
  }
  return "";
}

bool Reporter::ReportContext(const Context& context) {
  name_field_width_ = context.name_field_width;
  if (options_.buffer) return true;
  bool ok = display_->ReportContext(context);
  if (file_) ok = file_->ReportContext(context) && ok;
  return ok;
}

void Reporter::Record(const std::vector<Run>& report) {
  for (const Run& run : report) {
    if (run.error_occurred) any_error_ = true;
    const std::string& name = run.run_name.function_name;
    auto it = std::find_if(summaries_.begin(), summaries_.end(),
                           [&](const Summary& s) { return s.name == name; });
    if (it == summaries_.end()) {
      Summary summary;
      summary.name = name;
      summary.family_index = run.family_index;
      summary.iterations = run.iterations;
      summary.time_unit = run.time_unit;
      summaries_.push_back(summary);
      it = summaries_.end() - 1;
    }
    if (run.error_occurred) it->error = true;
  }
}

void Reporter::ReportRuns(const std::vector<Run>& report) {
  Record(report);
  if (options_.buffer) {
    runs_.insert(runs_.end(), report.begin(), report.end());
    return;
  }
  display_->ReportRuns(report);
  if (file_) file_->ReportRuns(report);
}

void Reporter::Finalize() {
  if (options_.buffer) return;
  display_->Finalize();
  if (file_) file_->Finalize();
}

void Reporter::AddRowsAfter(const std::string& name, std::vector<Run> rows) {
  std::vector<Run>& extra = extra_rows_[name];
  for (Run& row : rows) extra.push_back(std::move(row));
}

void Reporter::Flush() {
  if (!options_.buffer) return;
  // Rows in their final order: each benchmark's added rows follow its last
  // row (after its aggregates when repeated).
  std::map<std::string, size_t> last_index;
  for (size_t i = 0; i < runs_.size(); ++i) {
    last_index[runs_[i].run_name.function_name] = i;
  }
  std::vector<Run> all;
  size_t width = name_field_width_;
  for (size_t i = 0; i < runs_.size(); ++i) {
    all.push_back(runs_[i]);
    const std::string& name = runs_[i].run_name.function_name;
    if (last_index[name] != i) continue;
    auto extra = extra_rows_.find(name);
    if (extra == extra_rows_.end()) continue;
    for (const Run& row : extra->second) {
      width = std::max(width, row.benchmark_name().size());
      all.push_back(row);
    }
  }
  Context context;
  context.name_field_width = width;
  display_->ReportContext(context);
  if (file_) file_->ReportContext(context);
  // One call per reporter: the CSV reporter takes its header (the counter
  // columns) from the first call only.
  if (!all.empty()) {
    display_->ReportRuns(all);
    if (file_) file_->ReportRuns(all);
  }
  display_->Finalize();
  if (file_) file_->Finalize();
  runs_.clear();
}

}  // namespace kiln_benchmark
