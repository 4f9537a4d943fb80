#!/usr/bin/env python3
"""Tests of kiln-benchmark-module: one ctest per case (the last argument).

Usage: benchmark_test.py TOOLS_DIR TESTDATA_DIR WORK_DIR CASE

Each case builds the modules it needs (kiln-as-module for the hand-written
VM assembly in testdata/, kiln-compile for MLIR), runs the tool with a short
--benchmark_min_time and asserts on its JSON output: row names, row counts,
counters, and how many calls each reported iteration stands for (counted,
never timed).
"""

import json
import os
import shutil
import subprocess
import sys

TOOLS, TESTDATA, WORK, CASE = sys.argv[1:5]
SAMPLES = os.path.normpath(os.path.join(TESTDATA, "..", "..", "..",
                                        "samples"))
MIN_TIME = "--benchmark_min_time=0.02"
os.makedirs(WORK, exist_ok=True)


def tool(name):
  return os.path.join(TOOLS, name)


def fail(message):
  print("FAILED: " + message)
  sys.exit(1)


def check(condition, message):
  if not condition:
    fail(message)


def assemble(name):
  out = os.path.join(WORK, name + ".kmod")
  subprocess.run([tool("kiln-as-module"),
                  os.path.join(TESTDATA, name + ".vmasm"), "-o", out],
                 check=True)
  return out


def compile_mlir(path, out_name, *flags):
  out = os.path.join(WORK, out_name + ".kmod")
  subprocess.run([tool("kiln-compile"), *flags, path, "-o", out], check=True)
  return out


def run(*args, expect_ok=True):
  """Runs the benchmark tool; returns (returncode, stdout, stderr)."""
  cmd = [tool("kiln-benchmark-module"), *args]
  p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
  if expect_ok and p.returncode != 0:
    fail("%s exited %d\nstdout:\n%s\nstderr:\n%s" %
         (" ".join(cmd), p.returncode, p.stdout, p.stderr))
  return p.returncode, p.stdout, p.stderr


def run_json(*args, expect_ok=True, min_time=MIN_TIME):
  """Runs with --benchmark_out=<json file>; returns (rc, rows, stderr)."""
  out = os.path.join(WORK, CASE + ".json")
  if os.path.exists(out):
    os.remove(out)
  rc, stdout, stderr = run(*args, "--benchmark_out=" + out,
                           "--benchmark_out_format=json", min_time,
                           expect_ok=expect_ok)
  with open(out) as f:
    data = json.load(f)
  return rc, data["benchmarks"], stderr


def names(rows):
  return [r["name"] for r in rows]


def iteration_rows(rows):
  return [r for r in rows if r.get("run_type") == "iteration"]


def error_case(args, needle):
  rc, stdout, stderr = run(*args, expect_ok=False)
  check(rc != 0, "expected a non-zero exit for %s" % (args,))
  check(needle in stdout + stderr,
        "expected '%s' in the output of %s, got:\n%s%s" %
        (needle, args, stdout, stderr))


#===----------------------------------------------------------------------===#
# Cases
#===----------------------------------------------------------------------===#


def case_discovery():
  module = assemble("discovery")
  _, rows, _ = run_json("--module=" + module)
  expected = [
      "BM_noargs/process_time/real_time",
      "BM_async_noargs/process_time/real_time",
      "BM_wrapped$entry/process_time/real_time",
      "BM___dispatch_0/process_time/real_time",
  ]
  check(names(rows) == expected, "rows %s != %s" % (names(rows), expected))
  for row in rows:
    check(row["items_per_second"] > 0, "no items_per_second in %s" % row)
    check(row["time_unit"] == ("us" if "dispatch" in row["name"] else "ms"),
          "unit of %s" % row["name"])
  # --function picks one; --benchmark_list_tests lists without running.
  _, rows, _ = run_json("--module=" + module, "--function=takes_arg",
                        "--input=5")
  check(names(rows) == ["BM_takes_arg/process_time/real_time"], names(rows))
  rc, stdout, _ = run("--module=" + module, "--benchmark_list_tests=true")
  check(stdout.split() == expected, "list_tests printed %r" % stdout)


def invocations_per_iteration(module, function, batch_size, *extra):
  """The tool's "invocations" counter: VM calls per reported iteration.

  A count, not a time: how reported time relates to --batch_size follows
  from it (Google Benchmark divides the measured time by the iterations), and
  no load on the machine can change it.
  """
  _, rows, _ = run_json("--module=" + module, "--function=" + function,
                        "--batch_size=%d" % batch_size, *extra)
  rows = iteration_rows(rows)
  check(len(rows) == 1, "one row expected, got %s" % names(rows))
  row = rows[0]
  check(row["iterations"] % batch_size == 0,
        "iterations %d not a multiple of the batch size %d" %
        (row["iterations"], batch_size))
  # items processed = iterations: items/s times time/iteration is 1.
  product = row["items_per_second"] * row["real_time"]
  product *= {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[row["time_unit"]]
  check(0.95 < product < 1.05, "items_per_second inconsistent: %s" % row)
  return row["invocations"]


def check_invocations(label, got, want):
  check(abs(got - want) < 1e-9, "%s: %g invocations per iteration, want %g" %
        (label, got, want))


def case_sync():
  # A sync function: one call per batch, so with --batch_size=4 each
  # reported iteration is a quarter of a call.
  module = assemble("spin")
  for batch in (1, 4):
    check_invocations(
        "sync, batch %d" % batch,
        invocations_per_iteration(module, "spin", batch, "--input=1000"),
        1.0 / batch)


def case_async():
  # Coarse-fences: --batch_size calls per batch; one call per iteration.
  module = assemble("spin")
  check_invocations(
      "async, batch 4 over 2 timelines",
      invocations_per_iteration(module, "spin_async", 4, "--input=1000",
                                "--batch_concurrency=2"), 1.0)
  # The batch is rounded up to a multiple of the concurrency (3 -> 4).
  _, rows, _ = run_json("--module=" + module, "--function=spin_async",
                        "--input=1000", "--batch_size=3",
                        "--batch_concurrency=2")
  check(rows[0]["iterations"] % 4 == 0, "not rounded up: %s" % rows[0])
  check_invocations("async, batch 3 -> 4", rows[0]["invocations"], 1.0)
  # A real compiled coarse-fences module with inputs.
  compiled = compile_mlir(os.path.join(SAMPLES, "simple_abs.mlir"),
                          "abs_async", "--execution-model=async-external")
  _, rows, _ = run_json("--module=" + compiled, "--function=abs",
                        "--input=f32=-2", "--batch_size=8",
                        "--batch_concurrency=3")
  check(names(rows) == ["BM_abs/process_time/real_time"], names(rows))
  check(rows[0]["iterations"] % 9 == 0, "batch 8 over 3 timelines -> 9")


def case_dispatch():
  # A dispatch benchmark takes the batch size as its repeat count: one call
  # per batch, each doing batch-size repetitions (the dispatch rows of
  # case_compiler_flags show one dispatch per iteration at any batch size).
  module = assemble("spin")
  for batch in (1, 8):
    check_invocations(
        "dispatch, batch %d" % batch,
        invocations_per_iteration(module, "spin_dispatch", batch), 1.0 / batch)


def case_benchmark_flags():
  module = assemble("discovery")
  # Filter + repetitions: 2 runs + mean, median, stddev, cv.
  _, rows, _ = run_json("--module=" + module, "--benchmark_filter=BM_noargs",
                        "--benchmark_repetitions=2")
  check(len(iteration_rows(rows)) == 2, names(rows))
  aggregates = [r["aggregate_name"] for r in rows
                if r["run_type"] == "aggregate"]
  check(aggregates == ["mean", "median", "stddev", "cv"], aggregates)
  check(all(r["name"].startswith("BM_noargs/") for r in rows), names(rows))
  # --time_unit applies to every row, dispatch benchmarks included.
  _, rows, _ = run_json("--module=" + module, "--time_unit=ns")
  check({r["time_unit"] for r in rows} == {"ns"}, rows)
  # Console, JSON and CSV on stdout.
  _, stdout, _ = run("--module=" + module, "--benchmark_filter=BM_noargs",
                     "--benchmark_format=json", MIN_TIME)
  check(json.loads(stdout)["benchmarks"][0]["name"] ==
        "BM_noargs/process_time/real_time", stdout)
  _, stdout, _ = run("--module=" + module, "--benchmark_filter=BM_noargs",
                     "--benchmark_format=csv", MIN_TIME)
  lines = stdout.strip().splitlines()
  check(lines[0].startswith("name,iterations,real_time"), stdout)
  check(lines[1].startswith('"BM_noargs/process_time/real_time"'), stdout)
  _, stdout, _ = run("--module=" + module, "--benchmark_filter=BM_noargs",
                     "--benchmark_counters_tabular=true", MIN_TIME)
  check("items_per_second" in stdout and "BM_noargs" in stdout, stdout)
  out = os.path.join(WORK, "out.csv")
  run("--module=" + module, "--benchmark_filter=BM_noargs",
      "--benchmark_out=" + out, "--benchmark_out_format=csv", MIN_TIME)
  with open(out) as f:
    # As with Google Benchmark, the context goes first (its error stream is
    # the file too), then the CSV rows.
    text = f.read()
  check("\nname,iterations" in text and "BM_noargs" in text, text)
  error_case(["--module=" + module, "--time_unit=s"], "unsupported --time_unit")
  error_case(["--module=" + module, "--benchmark_format=xml"],
             "unknown --benchmark_format")


def case_min_time_forms():
  module = assemble("discovery")
  # IREE's "Nx" form: exactly N iterations per repetition (counted).
  _, rows, _ = run_json("--module=" + module, "--benchmark_filter=BM_noargs",
                        min_time="--benchmark_min_time=7x")
  check([r["iterations"] for r in iteration_rows(rows)] == [7], rows)
  _, rows, _ = run_json("--module=" + module, "--benchmark_filter=BM_noargs",
                        "--benchmark_repetitions=2",
                        min_time="--benchmark_min_time=3x")
  check([r["iterations"] for r in iteration_rows(rows)] == [3, 3], rows)
  # The "0.01s" form is seconds, as the bare number is.
  _, rows, _ = run_json("--module=" + module, "--benchmark_filter=BM_noargs",
                        min_time="--benchmark_min_time=0.01s")
  check(len(iteration_rows(rows)) == 1, rows)
  error_case(["--module=" + module, "--benchmark_min_time=0x"],
             "invalid --benchmark_min_time")
  error_case(["--module=" + module, "--benchmark_min_time=x"],
             "invalid --benchmark_min_time")


def case_dispatch_statistics_unscaled():
  # A dispatch that runs on every other call cannot be scaled to one call
  # per iteration: its row has calls=0.5 and a warning says it is an
  # unscaled average.
  module = assemble("every_other")
  _, rows, stderr = run_json("--module=" + module, "--dispatch_statistics")
  dispatch = [r for r in rows if r["name"] == "BM_every_other/touch_one"]
  check(len(dispatch) == 1, names(rows))
  check(abs(dispatch[0]["calls"] - 0.5) < 1e-9, dispatch[0])
  check("BM_every_other/touch_one ran" in stderr and
        "unscaled average" in stderr, stderr)


def case_dispatch_statistics():
  abs_module = compile_mlir(os.path.join(SAMPLES, "simple_abs.mlir"), "abs")
  for fmt in ["json", "csv", "console"]:
    out = os.path.join(WORK, "stats." + fmt)
    rc, stdout, stderr = run("--module=" + abs_module, "--function=abs",
                             "--input=f32=-2", "--dispatch_statistics",
                             "--benchmark_out=" + out,
                             "--benchmark_out_format=" + fmt,
                             "--benchmark_format=" + fmt, MIN_TIME)
    with open(out) as f:
      text = f.read()
    if fmt == "csv":
      check(text.endswith(stdout), "file and stdout differ:\n%s\n%s" %
            (text, stdout))
    check("BM_abs/abs_dispatch_0_elementwise" in text, text)
    check("BM_abs/abs_dispatch_0_elementwise" in stdout, stdout)
  with open(os.path.join(WORK, "stats.json")) as f:
    rows = json.load(f)["benchmarks"]
  check(names(rows) == ["BM_abs/process_time/real_time",
                        "BM_abs/abs_dispatch_0_elementwise"], names(rows))
  dispatch = rows[1]
  check(dispatch["calls"] == 1.0, "one dispatch per call: %s" % dispatch)
  check(dispatch["percent"] == 100.0, dispatch)
  # Only positive: a timing bound is no test. (The dispatch row comes from
  # separate profiled iterations, which read the clock around each
  # dispatch; unprofiled calls no longer do, so a 1 us dispatch can take
  # longer profiled than a whole unprofiled call where a clock read is a
  # system call.)
  check(0 < dispatch["real_time"], "dispatch time must be positive: %s" % rows)
  check(dispatch["time_unit"] == rows[0]["time_unit"], dispatch)
  # Several dispatch functions: sorted by time, percentages add up to 100.
  mlp = compile_mlir(os.path.join(SAMPLES, "mlp.mlir"), "mlp")
  _, rows, _ = run_json("--module=" + mlp, "--function=mlp",
                        "--input=4x8xf32=1", "--dispatch_statistics",
                        "--benchmark_repetitions=2")
  sub = [r for r in rows if r["name"].startswith("BM_mlp/mlp_dispatch")]
  check(len(sub) >= 1, names(rows))
  check(rows[-len(sub):] == sub, "dispatch rows must follow the aggregates")
  times = [r["real_time"] for r in sub]
  check(times == sorted(times, reverse=True), "not sorted: %s" % times)
  check(abs(sum(r["percent"] for r in sub) - 100.0) < 1e-6, sub)
  # Refusals.
  error_case(["--module=" + abs_module, "--function=abs", "--input=f32=1",
              "--dispatch_statistics", "--device_replay_output=x.replay"],
             "cannot be used together")
  nohal = assemble("failing")
  error_case(["--module=" + nohal, "--dispatch_statistics"],
             "uses no HAL device")


def case_print_statistics():
  abs_module = compile_mlir(os.path.join(SAMPLES, "simple_abs.mlir"), "abs")
  _, _, stderr = run("--module=" + abs_module, "--function=abs",
                     "--input=f32=-2", "--print_statistics", MIN_TIME)
  check("memory statistics" in stderr, stderr)
  check("B peak /" in stderr and "B freed /" in stderr and "allocations /" in stderr and "frees" in stderr, stderr)


def case_output_processing():
  abs_module = compile_mlir(os.path.join(SAMPLES, "simple_abs.mlir"), "abs")
  base = ["--module=" + abs_module, "--function=abs", "--input=f32=-2.5",
          "--enable_output_processing", MIN_TIME]
  _, stdout, _ = run(*base, "--expected_output=f32=2.5")
  check("[SUCCESS] all function outputs matched their expected values." in
        stdout, stdout)
  rc, stdout, _ = run(*base, "--expected_output=f32=3", expect_ok=False)
  check(rc != 0 and "[FAILED]" in stdout, stdout)
  _, stdout, _ = run(*base)
  check("result[0]: hal.buffer_view" in stdout and "f32=2.5" in stdout,
        stdout)
  npy = os.path.join(WORK, "out.npy")
  run(*base, "--output=@" + npy)
  with open(npy, "rb") as f:
    data = f.read()
  check(data.startswith(b"\x93NUMPY"), "not an npy file")
  import struct
  check(struct.unpack("<f", data[-4:])[0] == 2.5, "npy holds %r" % data[-4:])
  # The async form keeps the outputs of its last call too.
  async_module = compile_mlir(os.path.join(SAMPLES, "simple_abs.mlir"),
                              "abs_async", "--execution-model=async-external")
  _, stdout, _ = run("--module=" + async_module, "--function=abs",
                     "--input=f32=-4", "--batch_size=4",
                     "--batch_concurrency=2", "--enable_output_processing",
                     "--expected_output=f32=4", MIN_TIME)
  check("[SUCCESS]" in stdout, stdout)


def case_errors():
  discovery = assemble("discovery")
  spin = assemble("spin")
  error_case(["--module=" + discovery, "--batch_size=0"],
             "--batch_size must be at least 1")
  error_case(["--module=" + discovery, "--batch_concurrency=-1"],
             "--batch_concurrency must be at least 1")
  error_case(["--module=" + os.path.join(WORK, "missing.kmod")],
             "missing.kmod")
  error_case([], "no module given")
  error_case(["--module=" + spin, "--function=spin"], "no --input was given")
  error_case(["--module=" + spin, "--function=spin_dispatch", "--input=1"],
             "dispatch benchmark")
  error_case(["--module=" + discovery, "--enable_output_processing"],
             "needs exactly one function")
  error_case(["--module=" + discovery, "--function=nope"], "not found")
  # A failing benchmark: reported as its error, the others still run, and
  # the exit code is non-zero.
  rc, rows, stderr = run_json("--module=" + assemble("failing"),
                              expect_ok=False)
  check(rc != 0, "exit code must be non-zero")
  by_name = {r["name"]: r for r in rows}
  works = by_name.get("BM_works/process_time/real_time")
  broken = by_name.get("BM_broken/process_time/real_time")
  check(works and not works.get("error_occurred") and works["iterations"] > 0,
        rows)
  check(broken and broken.get("error_occurred") and
        "broken on purpose" in broken["error_message"], rows)


def case_compiler_flags():
  mlp_source = os.path.join(SAMPLES, "mlp.mlir")
  # --export-benchmark-funcs (IREE alias): a no-argument entry wrapper is
  # discovered; the original (with inputs) is not.
  mlp = compile_mlir(mlp_source, "mlp_wrapped",
                     "--iree-flow-export-benchmark-funcs")
  _, rows, _ = run_json("--module=" + mlp)
  check(names(rows) == ["BM_mlp_benchmark/process_time/real_time"],
        names(rows))
  # Coarse-fences module: the wrapper waits for the call itself.
  abs_async = compile_mlir(os.path.join(SAMPLES, "simple_abs.mlir"),
                           "abs_async_wrapped", "--export-benchmark-funcs",
                           "--execution-model=async-external")
  _, rows, _ = run_json("--module=" + abs_async)
  check(names(rows) == ["BM_abs_benchmark/process_time/real_time"],
        names(rows))
  # --dump-executable-benchmarks-to: one module per executable, each with a
  # dispatch benchmark (us) whose profiled row shows one dispatch per
  # iteration at any batch size.
  # vmvx: one executable per dispatch (matmul + bias + relu fused); llvm-cpu:
  # one native executable whose micro-kernel matmuls run their bias and relu
  # as a fused epilogue, each entry benchmarked alone.
  for backend, expected in (
      ("vmvx", [("mlp_dispatch_0", "matmul"), ("mlp_dispatch_1", "matmul")]),
      ("llvm-cpu", [("mlp_dispatch_0", "matmul"),
                    ("mlp_dispatch_1", "matmul")])):
    dump_dir = os.path.join(WORK, "dumps_" + backend)
    shutil.rmtree(dump_dir, ignore_errors=True)  # WORK outlives a run
    compile_mlir(mlp_source, "mlp_dumped_" + backend,
                 "--iree-hal-target-backends=" + backend,
                 "--iree-hal-dump-executable-benchmarks-to=" + dump_dir)
    dumped = sorted(os.listdir(dump_dir))
    check(dumped == [n + ".kmod" for n, _ in expected], str(dumped))
    for name, kind in expected:
      _, rows, _ = run_json("--module=" + os.path.join(dump_dir,
                                                       name + ".kmod"),
                            "--batch_size=16", "--dispatch_statistics")
      entry = name + "_" + kind
      check(names(rows) == ["BM_%s_benchmark/process_time/real_time" % entry,
                            "BM_%s_benchmark/%s" % (entry, entry)],
            names(rows))
      check(rows[0]["time_unit"] == "us", rows[0])
      check(rows[0]["iterations"] % 16 == 0, rows[0])
      check(rows[1]["calls"] == 1.0, rows[1])
  # --benchmark-dispatch-repeat-count=8: 8 dispatches of each per call;
  # with --batch_size=8 one per reported iteration.
  repeated = compile_mlir(mlp_source, "mlp_r8",
                          "--iree-hal-benchmark-dispatch-repeat-count=8")
  for batch, calls in [(1, 8.0), (8, 1.0)]:
    _, rows, _ = run_json("--module=" + repeated, "--function=mlp",
                          "--input=4x8xf32=1", "--batch_size=%d" % batch,
                          "--dispatch_statistics")
    sub = rows[1:]
    check(len(sub) >= 2 and all(r["calls"] == calls for r in sub),
          "batch %d: %s" % (batch, sub))
  # A bad repeat count is a clear compiler error.
  p = subprocess.run([tool("kiln-compile"),
                      "--benchmark-dispatch-repeat-count=0", mlp_source,
                      "-o", os.path.join(WORK, "x.kmod")],
                     capture_output=True, text=True)
  check(p.returncode != 0 and "repeat count" in p.stderr + p.stdout,
        p.stderr)


def case_agents_md():
  rc, stdout, _ = run("--agents_md")
  check(rc == 0 and "kiln-benchmark-module" in stdout and
        "--benchmark_format=json" in stdout and "replay" in stdout, stdout)


CASES = {name[len("case_"):]: fn for name, fn in globals().items()
         if name.startswith("case_")}

if __name__ == "__main__":
  if CASE not in CASES:
    fail("unknown case '%s'; cases: %s" % (CASE, ", ".join(sorted(CASES))))
  CASES[CASE]()
  print("PASSED: " + CASE)
