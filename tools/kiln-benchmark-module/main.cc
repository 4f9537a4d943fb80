// kiln-benchmark-module: benchmarks exported functions of a module with
// Google Benchmark, measuring the whole user-visible invocation (VM call,
// allocations, dispatches, waits), as iree-benchmark-module does.
//
// Which functions run (discovery, without --function):
//   - exports with iree.benchmark = "entry" (compiler-made wrappers) and
//     iree.benchmark = "dispatch" (one dispatch repeated N times) always;
//   - other exports taking no arguments (coarse-fences functions: only their
//     wait and signal fences), unless the name starts with "__" or has '$'.
// With --function, that function, fed by --input.
//
// How each runs (told apart by reflection attributes):
//   sync      one VM call per measured batch of --batch_size iterations
//             (--batch_size=1: one call per iteration; pair a larger value
//             with the compiler's --benchmark-dispatch-repeat-count);
//   async     iree.abi.model = "coarse-fences": --batch_size calls per batch
//             spread round-robin over --batch_concurrency timelines, each
//             waiting on the previous call of its timeline, one wait on all
//             timelines at the end; fence setup is not timed;
//   dispatch  iree.benchmark = "dispatch": one call per batch taking the
//             batch size as its repeat count.
// Rows are BM_<function>/process_time/real_time with items processed.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tools/kiln-benchmark-module/dispatch_statistics.h"
#include "tools/kiln-benchmark-module/reporter.h"

extern "C" {
#include "runtime/hal/replay/recorder.h"
#include "runtime/tooling/device_util.h"
#include "runtime/tooling/flags.h"
#include "runtime/tooling/function_io.h"
#include "runtime/tooling/trace_output.h"
#include "tools/common/run_context.h"
}

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

extern "C" {
KILN_FLAG(string, function, "",
          "Exported function to benchmark; without it every exported "
          "function taking no arguments (and every iree.benchmark wrapper) "
          "is benchmarked.");
KILN_FLAG(int32, batch_size, 1,
          "Iterations per measured batch: calls per batch for coarse-fences "
          "functions, the repeat count passed to dispatch benchmarks, and "
          "for sync functions the number of logical iterations one call "
          "performs (match --benchmark-dispatch-repeat-count of the "
          "compiler).");
KILN_FLAG(int32, batch_concurrency, 1,
          "Number of concurrent timelines the calls of a batch of a "
          "coarse-fences function are spread over (the batch is rounded up "
          "to a multiple of it).");
KILN_FLAG(string, time_unit, "",
          "Time unit of the results: ns, us or ms (default ms, us for "
          "dispatch benchmarks).");
KILN_FLAG(bool, print_statistics, false,
          "Prints the allocator statistics of the device (live and peak "
          "bytes, allocations and frees) to stderr on exit.");
KILN_FLAG(bool, dispatch_statistics, false,
          "After the measured runs, reruns each benchmark (untimed) under a "
          "HAL profiling session and adds one row per dispatch function "
          "under its row: BM_<fn>/<dispatch>, with real time and summed "
          "worker CPU time per iteration and counters calls, percent and "
          "workers.");
KILN_FLAG(bool, enable_output_processing, false,
          "Keeps the outputs of the last measured iteration and prints them, "
          "writes them (--output) or checks them (--expected_output) as "
          "kiln-run-module does; needs exactly one function.");
KILN_FLAG(bool, agents_md, false,
          "Prints guidance for automated users of this tool and exits.");
KILN_FLAG(string, device_replay_output, "",
          "Records the HAL work of the run (allocations, transfers, "
          "executables, command buffers, dispatches, queue operations) to "
          "this replay file, with an 'execute' scope around each measured "
          "batch; replay it with kiln-run-replay, kiln-benchmark-replay, "
          "print it with kiln-dump-replay.");
KILN_FLAG(string, device_replay_file_policy, "reference",
          "How replay capture treats file-backed buffers: reference, "
          "capture-ranges, capture-all or fail.");
KILN_FLAG(string, device_replay_file_validation, "identity",
          "How replay validates referenced files: identity or digest.");
}  // extern "C"

KILN_FLAG_LIST_DECLARE(input);
KILN_FLAG_LIST_DECLARE(output);
KILN_FLAG_LIST_DECLARE(expected_output);

namespace {

// The replay recorder when --device_replay_output is given.
kiln_hal_replay_recorder_t* g_recorder = nullptr;

using kiln_benchmark::DispatchCollector;
using kiln_benchmark::DispatchStatistic;
using kiln_benchmark::Reporter;
using kiln_benchmark::ReporterOptions;

const char kAgentsMd[] =
    "# kiln-benchmark-module: notes for automated users\n"
    "\n"
    "- Measures whole invocations of exported functions of a compiled "
    "module\n"
    "  (VM call, allocations, dispatches, waits), not kernels alone. Rows "
    "are\n"
    "  `BM_<function>/process_time/real_time`; time is wall time per "
    "iteration,\n"
    "  CPU is process CPU (all threads). Default unit ms (us for dispatch\n"
    "  benchmarks); change with --time_unit=ns|us|ms.\n"
    "- Machine-readable output: --benchmark_format=json (stdout) or\n"
    "  --benchmark_out=FILE --benchmark_out_format=json|csv|console.\n"
    "  Keep runs short with --benchmark_min_time=0.05; repeat with\n"
    "  --benchmark_repetitions=N for mean/median/stddev/cv rows.\n"
    "- Without --function every no-argument export runs (and compiler-made\n"
    "  wrappers: kiln-compile --export-benchmark-funcs, or dispatch modules "
    "from\n"
    "  --dump-executable-benchmarks-to=DIR). With --function=NAME pass each\n"
    "  argument with --input=... (same syntax as kiln-run-module).\n"
    "- Coarse-fences modules (kiln-compile --execution-model=async-external):\n"
    "  --batch_size=N calls per batch over --batch_concurrency=K timelines;\n"
    "  reported time stays per call.\n"
    "- Per-dispatch breakdown: --dispatch_statistics adds rows\n"
    "  BM_<fn>/<dispatch> with counters calls, percent and workers.\n"
    "- Check correctness while benchmarking: --enable_output_processing\n"
    "  with --expected_output=... (one function only).\n"
    "- Exit status is non-zero when any benchmark failed; the others still\n"
    "  run and the failure is that row's error_message.\n"
    "- Replay capture: --device_replay_output=FILE records the HAL work "
    "(one\n"
    "  'execute' scope per measured batch); kiln-run-replay FILE "
    "--output=@x.bin\n"
    "  re-executes it, kiln-benchmark-replay FILE --replay_scope=execute "
    "times it,\n"
    "  kiln-dump-replay FILE prints it. Not with --dispatch_statistics.\n";

//===----------------------------------------------------------------------===//
// Benchmark cases
//===----------------------------------------------------------------------===//

enum class Kind { kSync, kAsync, kDispatch };

// One registered benchmark.
struct BenchmarkCase {
  std::string name;  // "BM_<function>"
  Kind kind = Kind::kSync;
  kiln_tools_run_context_t* context = nullptr;
  kiln_vm_function_t function = {};
  std::vector<kiln_vm_value_t> inputs;  // owned (the fences not included)
  size_t result_count = 0;
  int32_t batch_size = 1;         // rounded up for async
  int32_t batch_concurrency = 1;  // async only
  bool keep_outputs = false;
  kiln_vm_list_t* outputs = nullptr;  // owned copy of the last results
  // VM calls made by the measured loop of the current run (the benchmark
  // thread only): reported per iteration as the "invocations" counter, so
  // tests can check the batch arithmetic without timing anything.
  int64_t invocations = 0;
};

std::string StatusToString(kiln_status_t status) {
  std::string message = kiln_status_message(status);
  kiln_status_free(status);
  return message;
}

// Deep-copies |value| (buffer views get a new buffer holding the same
// bytes) so that later runs cannot change what output processing sees.
kiln_status_t CopyValue(kiln_hal_allocator_t* device_allocator,
                        kiln_allocator_t host_allocator,
                        const kiln_vm_value_t* value, kiln_vm_value_t* out) {
  *out = *value;
  if (value->type != KILN_VM_VALUE_TYPE_REF || !value->ref) return nullptr;
  if (value->ref->type != &kiln_hal_buffer_view_type) {
    kiln_ref_retain(value->ref);
    return nullptr;
  }
  kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)value->ref;
  uint64_t length = kiln_hal_buffer_view_byte_length(view);
  std::vector<uint8_t> bytes(length);
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_map_read(
      kiln_hal_buffer_view_buffer(view), kiln_hal_buffer_view_byte_offset(view),
      bytes.data(), length));
  kiln_hal_buffer_t* buffer = nullptr;
  KILN_RETURN_IF_ERROR(kiln_hal_allocator_allocate_buffer(
      device_allocator, nullptr, length, &buffer));
  kiln_status_t status =
      kiln_hal_buffer_map_write(buffer, 0, bytes.data(), length);
  kiln_hal_buffer_view_t* copy = nullptr;
  if (!status) {
    status = kiln_hal_buffer_view_create(
        buffer, kiln_hal_buffer_view_shape_rank(view),
        kiln_hal_buffer_view_shape_dims(view),
        kiln_hal_buffer_view_element_type(view),
        kiln_hal_buffer_view_encoding_type(view), host_allocator, &copy);
  }
  kiln_hal_buffer_release(buffer);
  if (status) return status;
  *out = kiln_vm_value_make_ref(copy);
  return nullptr;
}

// Replaces |bench|'s kept outputs with copies of |results|.
kiln_status_t KeepOutputs(BenchmarkCase* bench,
                          const std::vector<kiln_vm_value_t>& results) {
  kiln_tools_run_context_t* context = bench->context;
  kiln_vm_list_t* list = nullptr;
  KILN_RETURN_IF_ERROR(
      kiln_vm_list_create(results.size(), context->allocator, &list));
  kiln_status_t status = nullptr;
  for (size_t i = 0; i < results.size() && !status; ++i) {
    kiln_vm_value_t copy;
    status = CopyValue(kiln_hal_device_allocator(context->device),
                       context->allocator, &results[i], &copy);
    if (!status) status = kiln_vm_list_push_value_move(list, &copy);
  }
  if (status) {
    kiln_ref_release(list);
    return status;
  }
  if (bench->outputs) kiln_ref_release(bench->outputs);
  bench->outputs = list;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Running one batch
//===----------------------------------------------------------------------===//

// Runs one batch of |bench| (batch_size logical iterations). With |state|
// the untimed parts (fence setup and teardown) pause its timer; the timer
// is running again when this returns. |last_results| receives the results
// of the batch's last call (previous contents released).
kiln_status_t RunSyncBatch(BenchmarkCase* bench,
                           std::vector<kiln_vm_value_t>* last_results) {
  kiln_vm_values_release(last_results->data(), last_results->size());
  kiln_vm_value_t dispatch_count = kiln_vm_value_make_i32(bench->batch_size);
  const kiln_vm_value_t* args = bench->inputs.data();
  size_t arg_count = bench->inputs.size();
  if (bench->kind == Kind::kDispatch) {
    args = &dispatch_count;
    arg_count = 1;
  }
  ++bench->invocations;
  kiln_status_t status =
      kiln_vm_invoke(bench->context->context, bench->function, args, arg_count,
                     last_results->data(), last_results->size(), nullptr);
  if (status) {
    for (kiln_vm_value_t& value : *last_results) {
      value = kiln_vm_value_make_none();
    }
  }
  return status;
}

// The fences of one async batch, made before the timed part.
struct AsyncBatch {
  std::vector<kiln_hal_semaphore_t*> timelines;
  std::vector<kiln_hal_fence_t*> signal_fences;  // one per call
  kiln_hal_fence_t* completion = nullptr;

  ~AsyncBatch() {
    for (kiln_hal_fence_t* fence : signal_fences) kiln_hal_fence_release(fence);
    if (completion) kiln_hal_fence_release(completion);
    for (kiln_hal_semaphore_t* s : timelines) kiln_hal_semaphore_release(s);
  }

  kiln_status_t Prepare(BenchmarkCase* bench) {
    kiln_hal_device_t* device = bench->context->device;
    kiln_allocator_t allocator = bench->context->allocator;
    int32_t concurrency = bench->batch_concurrency;
    int32_t rounds = bench->batch_size / concurrency;
    for (int32_t j = 0; j < concurrency; ++j) {
      kiln_hal_semaphore_t* semaphore = nullptr;
      KILN_RETURN_IF_ERROR(
          kiln_hal_device_create_semaphore(device, 0, &semaphore));
      timelines.push_back(semaphore);
    }
    KILN_RETURN_IF_ERROR(
        kiln_hal_fence_create(concurrency, allocator, &completion));
    for (int32_t i = 0; i < rounds; ++i) {
      for (int32_t j = 0; j < concurrency; ++j) {
        kiln_hal_fence_t* fence = nullptr;
        KILN_RETURN_IF_ERROR(kiln_hal_fence_create_at(
            timelines[j], (uint64_t)i + 1, allocator, &fence));
        signal_fences.push_back(fence);
        if (i == rounds - 1) {
          KILN_RETURN_IF_ERROR(
              kiln_hal_fence_insert(completion, timelines[j], (uint64_t)i + 1));
        }
      }
    }
    return nullptr;
  }
};

kiln_status_t RunAsyncBatch(BenchmarkCase* bench, benchmark::State* state,
                            std::vector<kiln_vm_value_t>* last_results) {
  if (state) state->PauseTiming();
  kiln_vm_values_release(last_results->data(), last_results->size());
  for (kiln_vm_value_t& value : *last_results)
    value = kiln_vm_value_make_none();
  std::unique_ptr<AsyncBatch> batch(new AsyncBatch());
  kiln_status_t status = batch->Prepare(bench);
  std::vector<kiln_vm_value_t> results(bench->result_count);
  if (state) state->ResumeTiming();
  if (status) return status;
  int32_t concurrency = bench->batch_concurrency;
  for (int32_t i = 0; i < bench->batch_size && !status; ++i) {
    kiln_hal_fence_t* wait =
        i >= concurrency ? batch->signal_fences[i - concurrency] : nullptr;
    ++bench->invocations;
    status = kiln_runtime_session_call_async(
        bench->context->session, bench->function, bench->inputs.data(),
        bench->inputs.size(), wait, batch->signal_fences[i], results.data(),
        results.size());
    if (status) break;
    if (i + 1 == bench->batch_size) {
      last_results->swap(results);
    } else {
      kiln_vm_values_release(results.data(), results.size());
    }
  }
  if (!status) {
    status = kiln_hal_fence_wait(batch->completion, KILN_HAL_INFINITE_DEADLINE);
  } else {
    // Calls already scheduled must finish before their fences go away.
    kiln_status_free(kiln_hal_device_queue_flush(bench->context->device));
  }
  if (state) state->PauseTiming();
  batch.reset();
  if (state) state->ResumeTiming();
  return status;
}

kiln_status_t RunBatch(BenchmarkCase* bench, benchmark::State* state,
                       std::vector<kiln_vm_value_t>* last_results) {
  if (bench->kind == Kind::kAsync) {
    return RunAsyncBatch(bench, state, last_results);
  }
  return RunSyncBatch(bench, last_results);
}

// The measured body registered with Google Benchmark.
void RunBenchmark(benchmark::State& state, BenchmarkCase* bench) {
  std::vector<kiln_vm_value_t> last_results(bench->result_count,
                                            kiln_vm_value_make_none());
  kiln_status_t status = nullptr;
  bench->invocations = 0;
  while (state.KeepRunningBatch(bench->batch_size)) {
    if (g_recorder) {
      status = kiln_hal_replay_recorder_begin_scope(g_recorder, "execute");
      if (status) break;
    }
    status = RunBatch(bench, &state, &last_results);
    if (g_recorder) {
      kiln_status_t end = kiln_hal_replay_recorder_end_scope(g_recorder);
      if (!status) {
        status = end;
      } else {
        kiln_status_free(end);
      }
      for (size_t i = 0; i < last_results.size() && !status; ++i) {
        const kiln_vm_value_t& value = last_results[i];
        if (value.type == KILN_VM_VALUE_TYPE_REF && value.ref &&
            value.ref->type == &kiln_hal_buffer_view_type) {
          status = kiln_hal_replay_recorder_record_result(
              g_recorder, (kiln_hal_buffer_view_t*)value.ref);
        }
      }
    }
    if (status) break;
  }
  if (!status && bench->keep_outputs) status = KeepOutputs(bench, last_results);
  kiln_vm_values_release(last_results.data(), last_results.size());
  if (status) {
    std::string message = StatusToString(status);
    state.SkipWithError(message.c_str());
    return;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["invocations"] = benchmark::Counter(
      state.iterations() ? (double)bench->invocations / state.iterations()
                         : 0.0);
}

//===----------------------------------------------------------------------===//
// Discovery and registration
//===----------------------------------------------------------------------===//

bool HasAttr(const kiln_vm_function_t* function, const char* key,
             const char* value) {
  kiln_string_view_t attr;
  return kiln_vm_function_reflection_attr(function, key, &attr) &&
         kiln_string_view_equal_cstr(attr, value);
}

std::string FunctionName(const kiln_vm_function_t* function) {
  kiln_string_view_t name = kiln_vm_function_name(function);
  return std::string(name.data, name.size);
}

// Fills |bench| for |function| of |kind|; |with_inputs| parses --input.
kiln_status_t MakeCase(kiln_tools_run_context_t* context,
                       kiln_vm_function_t function, Kind kind, bool with_inputs,
                       BenchmarkCase* bench) {
  std::string name = FunctionName(&function);
  bench->name = "BM_" + name;
  bench->kind = kind;
  bench->context = context;
  bench->function = function;
  kiln_string_view_t signature_text = kiln_vm_function_signature(&function);
  kiln_vm_signature_t signature;
  KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(signature_text, &signature));
  bench->result_count = signature.results.size;
  kiln_string_view_t args = signature.args;
  if (kind == Kind::kAsync) {
    if (args.size < 2 || args.data[args.size - 1] != 'r' ||
        args.data[args.size - 2] != 'r') {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "function '%s' is marked coarse-fences but its signature '%.*s' "
          "does not end with the wait and signal fences",
          name.c_str(), KILN_SV_ARG(signature_text));
    }
    args.size -= 2;
  }
  if (kind == Kind::kDispatch) {
    if (kiln_flag_input.count) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "function '%s' is a dispatch benchmark (iree.benchmark = "
          "\"dispatch\"): it takes only its repeat count (--batch_size), "
          "not --input values",
          name.c_str());
    }
    if (!kiln_string_view_equal_cstr(args, "i")) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "dispatch benchmark '%s' must take one i32 (the repeat count); "
          "its signature is '%.*s'",
          name.c_str(), KILN_SV_ARG(signature_text));
    }
    return nullptr;
  }
  if (args.size && !kiln_flag_input.count) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "function '%s' takes %zu input%s (signature '%.*s') but no --input "
        "was given; pass one --input=... per argument (e.g. "
        "--input=2x2xf32=1 2 3 4)",
        name.c_str(), args.size, args.size == 1 ? "" : "s",
        KILN_SV_ARG(signature_text));
  }
  if (!with_inputs) return nullptr;
  kiln_vm_list_t* list = nullptr;
  KILN_RETURN_IF_ERROR(kiln_tooling_parse_values(
      kiln_vm_function_name(&function), args, kiln_flag_input.values,
      kiln_flag_input.count, "input", /*allow_ignored=*/false,
      kiln_hal_device_allocator(context->device), context->allocator, &list));
  kiln_status_t status = nullptr;
  for (size_t i = 0; i < kiln_vm_list_size(list) && !status; ++i) {
    kiln_vm_value_t value;
    status = kiln_vm_list_get_value(list, i, &value);
    if (status) break;
    if (value.type == KILN_VM_VALUE_TYPE_REF && value.ref) {
      kiln_ref_retain(value.ref);  // the list only lends it
    }
    bench->inputs.push_back(value);
  }
  kiln_ref_release(list);
  return status;
}

// The kind of |function| from its reflection attributes.
Kind KindOf(const kiln_vm_function_t* function) {
  if (HasAttr(function, "iree.benchmark", "dispatch")) return Kind::kDispatch;
  if (kiln_runtime_function_is_async(function)) return Kind::kAsync;
  return Kind::kSync;
}

kiln_status_t CollectCases(kiln_tools_run_context_t* context,
                           std::vector<std::unique_ptr<BenchmarkCase>>* cases) {
  if (kiln_flag_function && kiln_flag_function[0]) {
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(
        kiln_tools_run_context_lookup(context, kiln_flag_function, &function));
    std::unique_ptr<BenchmarkCase> bench(new BenchmarkCase());
    KILN_RETURN_IF_ERROR(MakeCase(context, function, KindOf(&function),
                                  /*with_inputs=*/true, bench.get()));
    cases->push_back(std::move(bench));
    return nullptr;
  }
  if (kiln_flag_input.count) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "--input is given without --function; inputs feed one function: "
        "pass --function=NAME");
  }
  kiln_vm_module_t* module = context->user_module;
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_function_t function;
    KILN_RETURN_IF_ERROR(kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_EXPORT, (uint32_t)i, &function));
    kiln_string_view_t name = kiln_vm_function_name(&function);
    bool wrapper = HasAttr(&function, "iree.benchmark", "entry") ||
                   HasAttr(&function, "iree.benchmark", "dispatch");
    if (!wrapper) {
      if (kiln_string_view_starts_with(name, kiln_make_cstring_view("__")) ||
          kiln_string_view_find_char(name, '$', 0) != SIZE_MAX) {
        continue;  // internal or special functions
      }
      kiln_vm_signature_t signature;
      KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(
          kiln_vm_function_signature(&function), &signature));
      const char* expected =
          kiln_runtime_function_is_async(&function) ? "rr" : "";
      if (!kiln_string_view_equal_cstr(signature.args, expected)) continue;
    }
    std::unique_ptr<BenchmarkCase> bench(new BenchmarkCase());
    KILN_RETURN_IF_ERROR(MakeCase(context, function, KindOf(&function),
                                  /*with_inputs=*/false, bench.get()));
    cases->push_back(std::move(bench));
  }
  if (cases->empty()) {
    return kiln_make_status(
        KILN_STATUS_NOT_FOUND,
        "module '%.*s' exports no function without arguments to benchmark; "
        "pass --function=NAME with --input=... values",
        KILN_SV_ARG(kiln_vm_module_name(module)));
  }
  return nullptr;
}

kiln_status_t ParseTimeUnit(const char* text, bool* out_set,
                            benchmark::TimeUnit* out_unit) {
  *out_set = text && text[0];
  if (!*out_set) return nullptr;
  if (!strcmp(text, "ns")) {
    *out_unit = benchmark::kNanosecond;
  } else if (!strcmp(text, "us")) {
    *out_unit = benchmark::kMicrosecond;
  } else if (!strcmp(text, "ms")) {
    *out_unit = benchmark::kMillisecond;
  } else {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unsupported --time_unit '%s'; expected ns, us "
                            "or ms",
                            text);
  }
  return nullptr;
}

// --benchmark_min_time=Nx (IREE's newer form): a fixed iteration count,
// which Google Benchmark 1.7 takes per benchmark, not as a flag; 0 = unset.
int64_t g_min_iterations = 0;

void RegisterCase(BenchmarkCase* bench, bool unit_set,
                  benchmark::TimeUnit unit) {
  benchmark::TimeUnit default_unit = bench->kind == Kind::kDispatch
                                         ? benchmark::kMicrosecond
                                         : benchmark::kMillisecond;
  benchmark::internal::Benchmark* registered =
      benchmark::RegisterBenchmark(
          bench->name.c_str(),
          [bench](benchmark::State& state) { RunBenchmark(state, bench); })
          // All threads' CPU time (workers included), not just this thread's.
          ->MeasureProcessCPUTime()
          // Wall time decides the iteration count, so single- and
          // multi-threaded runs compare.
          ->UseRealTime()
          // Repetitions report mean, median, stddev and cv (built in).
          ->Unit(unit_set ? unit : default_unit);
  if (g_min_iterations > 0) registered->Iterations(g_min_iterations);
}

//===----------------------------------------------------------------------===//
// --dispatch_statistics
//===----------------------------------------------------------------------===//

// True when the user module imports any hal function (uses a HAL device).
bool UsesHalDevice(kiln_vm_module_t* module) {
  size_t count =
      kiln_vm_module_function_count(module, KILN_VM_FUNCTION_LINKAGE_IMPORT);
  for (size_t i = 0; i < count; ++i) {
    kiln_vm_function_t function;
    kiln_status_t status = kiln_vm_module_function_at(
        module, KILN_VM_FUNCTION_LINKAGE_IMPORT, (uint32_t)i, &function);
    if (status) {
      kiln_status_free(status);
      continue;
    }
    if (kiln_string_view_starts_with(kiln_vm_function_name(&function),
                                     kiln_make_cstring_view("hal."))) {
      return true;
    }
  }
  return false;
}

double NsToUnitSeconds(int64_t ns) {
  return (double)ns * 1e-9;
}

// Reruns |bench| under a profiling session and returns its rows, or "" with
// |*warning| set when no row could be made.
kiln_status_t ProfileCase(BenchmarkCase* bench,
                          const Reporter::Summary& summary,
                          std::vector<benchmark::BenchmarkReporter::Run>* rows,
                          std::string* warning) {
  // A few batches: enough to average, cheap next to the measured run.
  int64_t batches = summary.iterations / bench->batch_size;
  if (batches < 1) batches = 1;
  if (batches > 16) batches = 16;
  DispatchCollector collector;
  kiln_hal_profiling_sink_t sink = collector.sink();
  kiln_hal_device_t* device = bench->context->device;
  KILN_RETURN_IF_ERROR(kiln_hal_device_profiling_begin(device, &sink));
  std::vector<kiln_vm_value_t> results(bench->result_count,
                                       kiln_vm_value_make_none());
  kiln_status_t status = nullptr;
  for (int64_t i = 0; i < batches && !status; ++i) {
    status = RunBatch(bench, nullptr, &results);
  }
  kiln_vm_values_release(results.data(), results.size());
  kiln_status_t end_status = kiln_hal_device_profiling_end(device);
  if (status) {
    kiln_status_free(end_status);
    return status;
  }
  KILN_RETURN_IF_ERROR(end_status);
  int64_t iterations = batches * bench->batch_size;
  std::vector<DispatchStatistic> stats = collector.Sorted();
  if (collector.dropped()) {
    *warning += "warning: --dispatch_statistics: " +
                std::to_string(collector.dropped()) +
                " dispatch record(s) of " + summary.name + " were dropped\n";
  }
  if (stats.empty()) {
    *warning += "warning: --dispatch_statistics: " + summary.name +
                " executed no dispatch; no rows added for it\n";
    return nullptr;
  }
  int64_t total_ns = 0;
  for (const DispatchStatistic& s : stats) {
    total_ns += s.real_ns;
    // Rows are scaled to one logical iteration. A dispatch whose call count
    // is not a whole multiple of the profiled iterations (data-dependent
    // control flow, say) cannot be scaled per call: its row is an average.
    if (s.calls % iterations != 0) {
      *warning += "warning: --dispatch_statistics: " + summary.name + "/" +
                  s.name + " ran " + std::to_string(s.calls) + " times in " +
                  std::to_string(iterations) +
                  " iterations; its row is an unscaled average\n";
    }
  }
  for (const DispatchStatistic& s : stats) {
    benchmark::BenchmarkReporter::Run row;
    row.run_name.function_name = summary.name + "/" + s.name;
    row.family_index = summary.family_index;
    row.per_family_instance_index = 0;
    row.run_type = benchmark::BenchmarkReporter::Run::RT_Iteration;
    row.iterations = iterations;
    row.threads = 1;
    row.repetitions = 1;
    row.repetition_index = 0;
    row.time_unit = summary.time_unit;
    row.real_accumulated_time = NsToUnitSeconds(s.real_ns);
    row.cpu_accumulated_time = NsToUnitSeconds(s.worker_ns);
    row.counters["calls"] = benchmark::Counter((double)s.calls / iterations);
    row.counters["workers"] = benchmark::Counter((double)s.max_workers);
    row.counters["percent"] = benchmark::Counter(
        total_ns ? 100.0 * (double)s.real_ns / (double)total_ns : 0.0);
    rows->push_back(row);
  }
  return nullptr;
}

// Runs the profiling pass for every benchmark that ran without error and
// adds its rows to |reporter|. Warnings go to stderr.
void AddDispatchStatistics(
    const std::vector<std::unique_ptr<BenchmarkCase>>& cases,
    Reporter* reporter, bool* out_failed) {
  std::string warnings;
  for (const Reporter::Summary& summary : reporter->summaries()) {
    BenchmarkCase* bench = nullptr;
    for (const auto& c : cases) {
      if (c->name == summary.name) bench = c.get();
    }
    if (!bench) continue;
    if (summary.error) {
      warnings += "warning: --dispatch_statistics: " + summary.name +
                  " failed; no dispatch rows for it\n";
      continue;
    }
    std::vector<benchmark::BenchmarkReporter::Run> rows;
    kiln_status_t status = ProfileCase(bench, summary, &rows, &warnings);
    if (status) {
      warnings += "error: --dispatch_statistics pass of " + summary.name +
                  " failed: " + StatusToString(status) + "\n";
      *out_failed = true;
      continue;
    }
    reporter->AddRowsAfter(summary.name, std::move(rows));
  }
  if (!warnings.empty()) std::fputs(warnings.c_str(), stderr);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

bool StartsWith(const char* text, const char* prefix) {
  return !strncmp(text, prefix, strlen(prefix));
}

// Value of "--name=value" when |arg| is that flag (also "--name" alone for
// booleans: "true").
bool TakeFlag(const char* arg, const char* name, std::string* value) {
  size_t n = strlen(name);
  if (strncmp(arg, "--", 2) || strncmp(arg + 2, name, n)) return false;
  const char* rest = arg + 2 + n;
  if (*rest == '=') {
    *value = rest + 1;
    return true;
  }
  if (*rest == 0) {
    *value = "true";
    return true;
  }
  return false;
}

bool IsTrue(const std::string& value) {
  return value == "true" || value == "1" || value == "yes" || value == "on";
}

// Splits argv: Google Benchmark's --benchmark_* flags go to |gb_args|
// (except the output flags, which the tool handles: |reporter_options|);
// everything else stays for kiln's flag parser in |kiln_args|.
void SplitArguments(int argc, char** argv, std::vector<char*>* gb_args,
                    std::vector<char*>* kiln_args,
                    ReporterOptions* reporter_options, bool* help,
                    std::string* min_time_error) {
  gb_args->push_back(argv[0]);
  kiln_args->push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    std::string value;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) *help = true;
    if (TakeFlag(arg, "benchmark_format", &value)) {
      reporter_options->format = value;
    } else if (TakeFlag(arg, "benchmark_out_format", &value)) {
      reporter_options->out_format = value;
    } else if (TakeFlag(arg, "benchmark_out", &value)) {
      reporter_options->out_path = value;
    } else if (TakeFlag(arg, "benchmark_min_time", &value)) {
      // Google Benchmark 1.7 takes seconds only: "0.5s" becomes 0.5 and
      // "20x" becomes a fixed iteration count (RegisterCase).
      static std::vector<std::string> rewritten;
      rewritten.reserve(argc);
      if (!value.empty() && value.back() == 'x') {
        char* end = nullptr;
        long long n = strtoll(value.c_str(), &end, 10);
        if (n <= 0 || end != value.c_str() + value.size() - 1) {
          *min_time_error = "invalid --benchmark_min_time '" + value +
                            "'; expected SECONDS, SECONDSs or COUNTx";
        }
        g_min_iterations = n;
      } else {
        if (!value.empty() && value.back() == 's') value.pop_back();
        rewritten.push_back("--benchmark_min_time=" + value);
        gb_args->push_back(&rewritten.back()[0]);
      }
    } else if (StartsWith(arg, "--benchmark_")) {
      if (TakeFlag(arg, "benchmark_counters_tabular", &value)) {
        reporter_options->counters_tabular = IsTrue(value);
      } else if (TakeFlag(arg, "benchmark_color", &value)) {
        reporter_options->color = value;
      }
      gb_args->push_back(argv[i]);
    } else {
      kiln_args->push_back(argv[i]);
    }
  }
  gb_args->push_back(nullptr);
  kiln_args->push_back(nullptr);
}

kiln_status_t ValidateFlags() {
  if (kiln_flag_batch_size <= 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--batch_size must be at least 1, got %d",
                            kiln_flag_batch_size);
  }
  if (kiln_flag_batch_concurrency <= 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--batch_concurrency must be at least 1, got %d",
                            kiln_flag_batch_concurrency);
  }
  if (kiln_flag_dispatch_statistics && kiln_flag_device_replay_output[0]) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "--dispatch_statistics and --device_replay_output cannot be used "
        "together: the profiling pass would be recorded into the replay; "
        "run them separately");
  }
  kiln_hal_replay_file_policy_t policy;
  KILN_RETURN_IF_ERROR(kiln_hal_replay_parse_file_policy(
      kiln_flag_device_replay_file_policy, &policy));
  kiln_replay_validation_t validation;
  KILN_RETURN_IF_ERROR(kiln_hal_replay_parse_file_validation(
      kiln_flag_device_replay_file_validation, &validation));
  if ((kiln_flag_output.count || kiln_flag_expected_output.count) &&
      !kiln_flag_enable_output_processing) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "--output and --expected_output need --enable_output_processing");
  }
  return nullptr;
}

kiln_status_t WrapDeviceForReplay(void* user_data, kiln_hal_device_t* device,
                                  kiln_hal_device_t** out_device) {
  return kiln_hal_replay_recorder_wrap_device(
      (kiln_hal_replay_recorder_t*)user_data, device, out_device);
}

kiln_status_t CreateRecorder() {
  kiln_hal_replay_recorder_options_t options = {};
  KILN_RETURN_IF_ERROR(kiln_hal_replay_parse_file_policy(
      kiln_flag_device_replay_file_policy, &options.file_policy));
  KILN_RETURN_IF_ERROR(kiln_hal_replay_parse_file_validation(
      kiln_flag_device_replay_file_validation, &options.file_validation));
  return kiln_hal_replay_recorder_create(&options, kiln_allocator_system(),
                                         &g_recorder);
}

std::string CaseNames(
    const std::vector<std::unique_ptr<BenchmarkCase>>& cases) {
  std::string names;
  for (const auto& c : cases) {
    if (!names.empty()) names += ", ";
    names += c->name.substr(3);
  }
  return names;
}

void PrintHelp() {
  kiln_flags_print_help(stdout);
  std::printf(
      "\n# Google Benchmark flags are accepted too:\n"
      "#   --benchmark_filter=REGEX --benchmark_repetitions=N\n"
      "#   --benchmark_min_time=SECONDS|SECONDSs|COUNTx "
      "--benchmark_format=console|json|csv\n"
      "#   --benchmark_out=FILE --benchmark_out_format=console|json|csv\n"
      "#   --benchmark_counters_tabular=true --benchmark_list_tests=true\n"
      "#   --benchmark_report_aggregates_only=true "
      "--benchmark_color=auto|true|false\n");
}

}  // namespace

int main(int argc, char** argv) {
  kiln_flags_set_usage(
      "kiln-benchmark-module",
      "Benchmarks functions of a compiled kiln module with Google "
      "Benchmark.\n"
      "Usage: kiln-benchmark-module --module=file.kmod [--function=NAME "
      "--input=...] [--device=local-task] [--batch_size=N] "
      "[--benchmark_* flags]\n");
  std::vector<char*> gb_args;
  std::vector<char*> kiln_args;
  ReporterOptions reporter_options;
  bool help = false;
  std::string min_time_error;
  SplitArguments(argc, argv, &gb_args, &kiln_args, &reporter_options, &help,
                 &min_time_error);
  if (!min_time_error.empty()) {
    std::fprintf(stderr, "error: %s\n", min_time_error.c_str());
    return 1;
  }
  if (help) {
    PrintHelp();
    return 0;
  }
  int gb_argc = (int)gb_args.size() - 1;
  benchmark::Initialize(&gb_argc, gb_args.data());
  if (gb_argc > 1) {
    std::fprintf(stderr, "error: unrecognized benchmark flag '%s'\n",
                 gb_args[1]);
    return 1;
  }
  int kiln_argc = (int)kiln_args.size() - 1;
  char** kiln_argv = kiln_args.data();
  kiln_status_t status = kiln_flags_parse(&kiln_argc, &kiln_argv, nullptr);
  if (!status && kiln_flag_agents_md) {
    std::fputs(kAgentsMd, stdout);
    kiln_flags_reset();
    return 0;
  }
  if (!status && kiln_argc > 1) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "unexpected argument '%s'", kiln_argv[1]);
  }
  if (!status && kiln_tooling_print_device_info_from_flags(stdout)) {
    kiln_flags_reset();
    return 0;
  }
  bool unit_set = false;
  benchmark::TimeUnit unit = benchmark::kMillisecond;
  if (!status) status = ParseTimeUnit(kiln_flag_time_unit, &unit_set, &unit);
  if (!status) status = ValidateFlags();
  if (!status) {
    status = kiln_tooling_trace_start_from_flags("kiln-benchmark-module");
  }
  Reporter reporter;
  if (!status) {
    reporter_options.buffer = kiln_flag_dispatch_statistics;
    std::string error = reporter.Open(reporter_options);
    if (!error.empty()) {
      status =
          kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "%s", error.c_str());
    }
  }
  kiln_tools_run_context_t context = {};
  if (!status && kiln_flag_device_replay_output[0]) status = CreateRecorder();
  if (!status) {
    status = g_recorder ? kiln_tools_run_context_initialize_from_flags_wrapped(
                              kiln_allocator_system(), WrapDeviceForReplay,
                              g_recorder, &context)
                        : kiln_tools_run_context_initialize_from_flags(
                              kiln_allocator_system(), &context);
  }
  if (!status && kiln_flag_dispatch_statistics &&
      !UsesHalDevice(context.user_module)) {
    status = kiln_make_status(
        KILN_STATUS_FAILED_PRECONDITION,
        "--dispatch_statistics: module '%.*s' uses no HAL device (it "
        "imports no hal function), so it has no dispatches to profile",
        KILN_SV_ARG(kiln_vm_module_name(context.user_module)));
  }
  std::vector<std::unique_ptr<BenchmarkCase>> cases;
  if (!status) status = CollectCases(&context, &cases);
  if (!status && kiln_flag_enable_output_processing && cases.size() != 1) {
    status = kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "--enable_output_processing needs exactly one function, but %zu are "
        "benchmarked (%s); pass --function=NAME",
        cases.size(), CaseNames(cases).c_str());
  }
  bool failed = false;
  if (!status) {
    for (auto& bench : cases) {
      bench->batch_size = kiln_flag_batch_size;
      if (bench->kind == Kind::kAsync) {
        int32_t c = kiln_flag_batch_concurrency;
        bench->batch_concurrency = c;
        bench->batch_size = (bench->batch_size + c - 1) / c * c;
      }
      bench->keep_outputs = kiln_flag_enable_output_processing;
      RegisterCase(bench.get(), unit_set, unit);
    }
    benchmark::RunSpecifiedBenchmarks(&reporter);
    if (kiln_flag_dispatch_statistics) {
      AddDispatchStatistics(cases, &reporter, &failed);
    }
    reporter.Flush();
    benchmark::Shutdown();
    if (reporter.any_error()) failed = true;
    if (g_recorder) {
      status = kiln_hal_replay_recorder_write_file(
          g_recorder, kiln_flag_device_replay_output);
    }
  }
  int exit_code = 0;
  if (!status && kiln_flag_enable_output_processing && !failed) {
    BenchmarkCase* bench = cases[0].get();
    if (!bench->outputs) {
      status = kiln_make_status(
          KILN_STATUS_FAILED_PRECONDITION,
          "--enable_output_processing: %s did not run (check "
          "--benchmark_filter), so there are no outputs to process",
          bench->name.c_str());
    } else {
      status =
          kiln_tooling_process_results(&bench->function, bench->outputs, stdout,
                                       context.allocator, &exit_code);
    }
  }
  for (auto& bench : cases) {
    kiln_vm_values_release(bench->inputs.data(), bench->inputs.size());
    if (bench->outputs) kiln_ref_release(bench->outputs);
  }
  // Statistics after everything the program allocated was released.
  kiln_hal_allocator_t* device_allocator =
      context.device ? kiln_hal_device_allocator(context.device) : nullptr;
  if (device_allocator) kiln_hal_allocator_retain(device_allocator);
  kiln_tools_run_context_deinitialize(&context);
  // After the device is gone: its worker threads have finished their zones.
  kiln_status_t trace_status = kiln_tooling_trace_finish();
  if (!status) {
    status = trace_status;
  } else {
    kiln_status_free(trace_status);
  }
  if (g_recorder) kiln_hal_replay_recorder_release(g_recorder);
  g_recorder = nullptr;
  if (device_allocator) {
    if (!status && kiln_flag_print_statistics) {
      kiln_hal_allocator_statistics_fprint(stderr, device_allocator);
    }
    kiln_hal_allocator_release(device_allocator);
  }
  kiln_flags_reset();
  if (status) return kiln_status_report_and_exit_code(status);
  if (failed) {
    std::fprintf(stderr,
                 "error: at least one benchmark failed (see its "
                 "error_message)\n");
    return 1;
  }
  return exit_code;
}
