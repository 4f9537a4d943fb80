// kiln-benchmark-module: benchmarks exported functions of a module with
// Google Benchmark, measuring the whole user-visible invocation (VM call,
// allocations, dispatches, waits), as iree-benchmark-module does.
//
// Without --function, every exported function that takes no arguments is
// registered (names starting with "__" or containing '$' are internal).
// With --function, that function is benchmarked with the --input values.
// Rows are named BM_<function> and report process CPU time, real time and
// items processed (one item per invocation).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "runtime/tooling/flags.h"
#include "runtime/tooling/function_io.h"
#include "tools/common/run_context.h"
}

extern "C" {
KILN_FLAG(string, function, "",
          "Exported function to benchmark; without it every exported "
          "function taking no arguments is benchmarked.");
KILN_FLAG(bool, print_statistics, false,
          "Prints the device allocator statistics on exit.");
}

namespace {

// One registered benchmark: the function and its parsed inputs (shared by
// every iteration; the program does not modify its inputs).
struct BenchmarkCase {
  kiln_tools_run_context_t* context;
  kiln_vm_function_t function;
  kiln_vm_list_t* inputs;  // owned; NULL when the function takes none
  size_t result_count;
};

void RunBenchmark(benchmark::State& state, BenchmarkCase* bench) {
  std::vector<kiln_vm_value_t> results(bench->result_count);
  size_t input_count = bench->inputs ? kiln_vm_list_size(bench->inputs) : 0;
  std::vector<kiln_vm_value_t> inputs(input_count);
  for (size_t i = 0; i < input_count; ++i) {
    kiln_status_t status = kiln_vm_list_get_value(bench->inputs, i, &inputs[i]);
    if (status) {
      state.SkipWithError(kiln_status_message(status));
      kiln_status_free(status);
      return;
    }
  }
  for (auto _ : state) {
    kiln_status_t status =
        kiln_vm_invoke(bench->context->context, bench->function, inputs.data(),
                       inputs.size(), results.data(), results.size(), NULL);
    if (status) {
      state.SkipWithError(kiln_status_message(status));
      kiln_status_free(status);
      break;
    }
    kiln_vm_values_release(results.data(), results.size());
  }
  // The input values are borrowed from bench->inputs, which owns them.
  state.SetItemsProcessed(state.iterations());
}

bool IsDiscoverable(kiln_string_view_t name, kiln_string_view_t signature) {
  if (kiln_string_view_starts_with(name, kiln_make_cstring_view("__")))
    return false;
  if (kiln_string_view_find_char(name, '$', 0) != SIZE_MAX) return false;
  return kiln_string_view_starts_with(signature, kiln_make_cstring_view("->"));
}

kiln_status_t AddCase(kiln_tools_run_context_t* context,
                      kiln_vm_function_t function, bool with_inputs,
                      std::vector<BenchmarkCase>* cases) {
  BenchmarkCase bench = {context, function, NULL, 0};
  kiln_vm_signature_t signature;
  KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(
      kiln_vm_function_signature(&function), &signature));
  bench.result_count = signature.results.size;
  if (with_inputs) {
    KILN_RETURN_IF_ERROR(kiln_tooling_parse_function_inputs_from_flags(
        &function, kiln_hal_device_allocator(context->device),
        context->allocator, &bench.inputs));
  }
  cases->push_back(bench);
  return kiln_ok_status();
}

kiln_status_t CollectCases(kiln_tools_run_context_t* context,
                           std::vector<BenchmarkCase>* cases) {
  if (kiln_flag_function && kiln_flag_function[0]) {
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(
        kiln_tools_run_context_lookup(context, kiln_flag_function, &function));
    return AddCase(context, function, /*with_inputs=*/true, cases);
  }
  kiln_vm_module_t* module = context->user_module;
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, (uint32_t)i, &function));
    if (!IsDiscoverable(kiln_vm_function_name(&function),
                        kiln_vm_function_signature(&function))) {
      continue;
    }
    KILN_RETURN_IF_ERROR(AddCase(context, function, false, cases));
  }
  if (cases->empty()) {
    return kiln_make_status(
        KILN_STATUS_NOT_FOUND,
        "module '%.*s' exports no function without arguments to benchmark; "
        "pass --function=NAME with --input=... values",
        KILN_SV_ARG(kiln_vm_module_name(module)));
  }
  return kiln_ok_status();
}

}  // namespace

int main(int argc, char** argv) {
  // Google Benchmark takes its own --benchmark_* flags first; ours follow.
  benchmark::Initialize(&argc, argv);
  kiln_flags_set_usage(
      "kiln-benchmark-module",
      "Benchmarks functions of a compiled kiln module with Google "
      "Benchmark.\n"
      "Usage: kiln-benchmark-module --module=file.kmod [--function=NAME "
      "--input=...] [--device=local-task] [--benchmark_* flags]\n");
  bool help = false;
  kiln_status_t status = kiln_flags_parse(&argc, &argv, &help);
  if (!status && help) {
    std::printf(
        "\nGoogle Benchmark flags (--benchmark_filter, "
        "--benchmark_repetitions, --benchmark_min_time, "
        "--benchmark_format, --benchmark_out, --benchmark_out_format, ...) "
        "are accepted too.\n");
    kiln_flags_reset();
    return 0;
  }
  if (!status && argc > 1) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unexpected argument '%s'", argv[1]);
  }
  kiln_tools_run_context_t context = {};
  if (!status) {
    status = kiln_tools_run_context_initialize_from_flags(
        kiln_allocator_system(), &context);
  }
  std::vector<BenchmarkCase> cases;
  if (!status) status = CollectCases(&context, &cases);
  if (!status) {
    cases.reserve(cases.size());
    for (BenchmarkCase& bench : cases) {
      kiln_string_view_t name = kiln_vm_function_name(&bench.function);
      std::string row = "BM_" + std::string(name.data, name.size);
      benchmark::RegisterBenchmark(row.c_str(), RunBenchmark, &bench)
          ->MeasureProcessCPUTime()
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  if (!status && kiln_flag_print_statistics) {
    kiln_tools_run_context_print_statistics(&context, stderr);
  }
  for (BenchmarkCase& bench : cases) {
    if (bench.inputs) kiln_ref_release(bench.inputs);
  }
  kiln_tools_run_context_deinitialize(&context);
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  return 0;
}
