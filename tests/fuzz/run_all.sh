#!/usr/bin/env bash
# `make fuzz`: runs every fuzz target of BUILD (an ASan build with
# KILN_BUILD_FUZZERS) for SECONDS each, one after the other at nice 19, on
# corpora kept in BUILD/tests/fuzz/corpus/<target> (they grow run after
# run), then prints one line per target from libFuzzer's final statistics:
# executions, executions per second, coverage (edges) and features, and the
# corpus size. Exits non-zero when a target found a crash, leak, timeout or
# OOM (its reproducer is in BUILD/tests/fuzz/corpus/<target>/).
# Each run's CPU time (user + system, which at nice 19 can be far less than
# the wall time) is appended to BUILD/tests/fuzz/corpus/ledger.tsv, and the
# summary gives each target's CPU hours over every run in that ledger: the
# number a reliability claim ("an hour per target") rests on.
# FUZZ_LEDGER=FILE keeps the ledger elsewhere: the project's record of
# fuzzing done so far is tests/fuzz/ledger.tsv (build folders do not
# outlive a machine; the hours must).
# FUZZ_TARGETS (space-separated names) runs a subset, e.g. to run two
# halves side by side on a two-core machine.
# Usage: run_all.sh BUILD SECONDS
set -u
build=$1 seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
fuzz_dir="$build/tests/fuzz"
declare -A dicts=([mlir_compile_fuzzer]=mlir.dict [npy_fuzzer]=npy.dict
                  [input_fuzzer]=input.dict [vm_assembler_fuzzer]=vmasm.dict
                  [flagfile_fuzzer]=flagfile.dict)
declare -A seeds=([module_loader_fuzzer]=module [mlir_compile_fuzzer]=mlir
                  [npy_fuzzer]=npy [input_fuzzer]=input
                  [vm_assembler_fuzzer]=vmasm [flagfile_fuzzer]=flagfile
                  [onnx_import_fuzzer]=onnx [tensor_proto_fuzzer]=pb)
status=0
summary=()
all_targets="module_loader_fuzzer mlir_compile_fuzzer npy_fuzzer input_fuzzer
             vm_assembler_fuzzer flagfile_fuzzer onnx_import_fuzzer
             tensor_proto_fuzzer"
ledger="${FUZZ_LEDGER:-$fuzz_dir/corpus/ledger.tsv}"
# Columns: time, target, CPU seconds, executions, exit status, commit.
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
for name in ${FUZZ_TARGETS:-$all_targets}; do
  binary="$fuzz_dir/$name"
  if [ ! -x "$binary" ]; then
    echo "run_all.sh: $binary is missing (build $build with clang and KILN_SANITIZER=asan)" >&2
    exit 2
  fi
  dict=none
  if [ -n "${dicts[$name]:-}" ]; then dict="$here/${dicts[$name]}"; fi
  log="$fuzz_dir/corpus/$name.log"
  mkdir -p "$fuzz_dir/corpus"
  echo "== $name: ${seconds}s"
  cpu_file=$(mktemp)
  TIMEFORMAT='%U %S'
  { time "$here/run_fuzzer.sh" "$binary" "$fuzz_dir/seeds/${seeds[$name]}" "$dict" \
      "$seconds" "$fuzz_dir/corpus/$name" >"$log" 2>&1; } 2>"$cpu_file"
  code=$?
  cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$cpu_file")
  rm -f "$cpu_file"
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
  # The last status line ("#N DONE cov: C ft: F corp: K/...") has coverage.
  done_line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$done_line")
  execs=$(stat number_of_executed_units)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$cpu" \
    "${execs:-0}" "$code" "$commit" >>"$ledger"
  total_h=$(awk -v n="$name" '$2 == n { s += $3 } END { printf "%.2f", s / 3600 }' "$ledger")
  line=$(printf '%-22s %10s execs %7s/s  cov %6s  ft %6s  corpus %5s  cpu %5ss (%sh in all)  %s' \
    "$name" "${execs:-?}" "$(stat average_exec_per_sec)" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "$cpu" "$total_h" "$([ $code -eq 0 ] && echo ok || echo "FAILED (exit $code, see $log)")")
  echo "$line"
  summary+=("$line")
  if [ $code -ne 0 ]; then
    status=1
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5
  fi
done
echo
echo "fuzzed ${seconds}s per target:"
printf '%s\n' "${summary[@]}"
exit $status
