#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS on a working corpus (WORK/corpus,
# kept between runs, seeded from SEEDS), at the lowest CPU priority, and
# prints libFuzzer's final statistics (executions, coverage). Exit status:
# libFuzzer's (non-zero when it found a crash, leak, timeout or OOM; the
# reproducer is left in WORK/).
# FUZZ_NICE=N runs it at another priority (e.g. 0, to fuzz while keeping
# both cores busy beside a `make test` that must pass on a loaded machine).
# With "fresh" (the ctest smoke runs) the working corpus starts empty, so
# that a smoke run costs the same every time.
# Usage: run_fuzzer.sh FUZZER SEEDS DICT|none SECONDS WORK [fresh]
set -u
fuzzer=$1 seeds=$2 dict=$3 seconds=$4 work=$5 fresh=${6:-}
if [ "$fresh" = fresh ]; then rm -rf "$work/corpus"; fi
mkdir -p "$work/corpus"
# libFuzzer's -timeout is wall-clock time, and these runs are at nice 19:
# on a busy machine (ctest -j2 beside the smoke runs) a normal input can
# wait seconds for a CPU. The smoke runs only catch hangs (120 s); longer
# runs flag inputs slower than 30 s.
per_input=30
if [ "$fresh" = fresh ]; then per_input=120; fi
args=(-max_total_time="$seconds" -timeout="$per_input" -rss_limit_mb=2048
      -print_final_stats=1 -artifact_prefix="$work/" -close_fd_mask=1)
if [ "$dict" != none ]; then args+=(-dict="$dict"); fi
# allocator_may_return_null: a refused malloc is an error the code handles,
# not a report; LSan still reports leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:allocator_may_return_null=1:detect_leaks=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:print_stacktrace=1:halt_on_error=1"
exec nice -n "${FUZZ_NICE:-19}" "$fuzzer" "${args[@]}" "$work/corpus" "$seeds"
