#!/usr/bin/env bash
# Runs one libFuzzer target on a working corpus (WORK/corpus, kept between
# runs, seeded from SEEDS), at the lowest CPU priority, and prints
# libFuzzer's final statistics (executions, coverage). Exit status:
# libFuzzer's (non-zero when it found a crash, leak, timeout or OOM; the
# reproducer is left in WORK/).
# FUZZ_NICE=N runs it at another priority (e.g. 0, to fuzz while keeping
# both cores busy beside a `make test` that must pass on a loaded machine).
# LIMIT is seconds of exploration (a random seed each run), except with
# "smoke" (the ctest smoke runs): then the working corpus starts empty, the
# seed is fixed and LIMIT is a number of executions, so that a smoke run
# executes the same inputs on every machine and at every load: `make test`
# passes or fails on the code, never on the luck of a random seed or the
# speed of the machine. New inputs are `make fuzz`'s job.
# Usage: run_fuzzer.sh FUZZER SEEDS DICT|none LIMIT WORK [smoke]
set -u
fuzzer=$1 seeds=$2 dict=$3 limit=$4 work=$5 mode=${6:-}
if [ "$mode" = smoke ]; then rm -rf "$work/corpus"; fi
mkdir -p "$work/corpus"
# libFuzzer's -timeout is wall-clock time, and these runs are at nice 19:
# on a busy machine (ctest -j2 beside the smoke runs) a normal input can
# wait seconds for a CPU. The smoke runs only catch hangs (120 s); longer
# runs flag inputs slower than 30 s.
args=(-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/"
      -close_fd_mask=1)
if [ "$mode" = smoke ]; then
  args+=(-runs="$limit" -seed=1 -timeout=120)
else
  args+=(-max_total_time="$limit" -timeout=30)
fi
if [ "$dict" != none ]; then args+=(-dict="$dict"); fi
# allocator_may_return_null: a refused malloc is an error the code handles,
# not a report; LSan still reports leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:allocator_may_return_null=1:detect_leaks=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:print_stacktrace=1:halt_on_error=1"
exec nice -n "${FUZZ_NICE:-19}" "$fuzzer" "${args[@]}" "$work/corpus" "$seeds"
