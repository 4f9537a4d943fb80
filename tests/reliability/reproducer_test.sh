#!/usr/bin/env bash
# Runs one reproducer of ../shared/reliability (inputs that once crashed,
# hung or exhausted the tools) and checks that it now ends in a clean error
# (or a normal result): the expected exit code (never a signal, >= 128),
# output matching PATTERN, within 1 GB of address space, and not hung: each
# command is killed after 60 s. (The issue's 10 s is what these take on an
# idle machine, about 2.5 s at most; a busy CI machine must not turn that
# into a failure, so the kill limit only catches hangs.) With
# --no-memory-limit (sanitizer builds: their shadow memory needs the address
# space, and their code runs several times slower) there is no memory bound
# and the kill limit is 120 s.
# Usage: reproducer_test.sh BIN_DIR REPRO_DIR [--no-memory-limit] NAME
set -u
bin=$1 repro=$2
shift 2
limit_memory=1 time_limit=60
if [ "${1:-}" = "--no-memory-limit" ]; then
  limit_memory=0 time_limit=120
  shift
fi
name=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# bounded WANT_CODE PATTERN -- command...: runs the command with the time and
# memory bounds, checks its exit code and that its output (stdout and stderr;
# long lines cut to 2000 characters) matches the extended regex PATTERN.
bounded() {
  local want_code=$1 pattern=$2
  shift 3
  local out code
  out=$(
    if [ "$limit_memory" = 1 ]; then ulimit -v 1048576; fi
    timeout -s KILL "$time_limit" "$@" 2>&1 | cut -c1-2000
    exit "${PIPESTATUS[0]}"
  )
  code=$?
  if [ "$code" -ne "$want_code" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAILED: $name: $* (exit $code, wanted $want_code; pattern '$pattern')"
    echo "$out" | head -20
    failed=1
  fi
}

# A module from VM assembly; the assembler itself is bounded too.
assemble() {
  bounded 0 '' -- "$bin/kiln-as-module" "$repro/$1" -o "$work/m.kmod"
}

compile_error() {  # FILE PATTERN: kiln-compile (and kiln-opt) reject FILE
  bounded 1 "$2" -- "$bin/kiln-compile" "$repro/$1" -o "$work/x.kmod"
  if [ -e "$work/x.kmod" ]; then
    echo "FAILED: $name: kiln-compile left $work/x.kmod after an error"
    failed=1
  fi
}

case "$name" in
  remainder_expect_eq_wrong_lhs | almost_eq_wrong_lhs)
    # check.expect_eq / expect_almost_eq given a non-view first argument.
    function=tensor_int check=expect_eq
    if [ "$name" = almost_eq_wrong_lhs ]; then
      function=arith_float_more check=expect_almost_eq
    fi
    assemble "$name.vmasm"
    for device in local-sync local-task; do
      bounded 1 "error: argument 1 of '$check' must be hal.buffer_view, got .*while invoking 'module.$function' \(INVALID_ARGUMENT\)" -- \
        "$bin/kiln-run-module" --module="$work/m.kmod" --device=$device \
        --function=$function
    done
    bounded 1 "FAILED|failed" -- "$bin/kiln-check-module" --module="$work/m.kmod"
    ;;
  gather_index_vector_dim_40)
    compile_error "$name.mlir" "error: 'stablehlo.gather' op index_vector_dim 40 is out of range" ;;
  gather_offset_dims_40)
    compile_error "$name.mlir" "error: 'stablehlo.gather' op offset_dims must be increasing dimensions of the rank-2 result" ;;
  gather_oob)
    compile_error "$name.mlir" "error: 'stablehlo.gather' op start_index_map must be distinct dimensions of the rank-2 operand" ;;
  scatter_dims_oob | scatter_dims_oob_40 | scatter_rank1_dim5)
    compile_error "$name.mlir" "error: 'stablehlo.scatter' op scatter_dims_to_operand_dims must be distinct dimensions of the rank-[12] input" ;;
  scatter_wrong_result_type)
    compile_error "$name.mlir" "error: 'stablehlo.scatter' op result #0 must have the type of input #0" ;;
  dim_overflow)
    compile_error "$name.mlir" "dim_overflow.mlir:2:28: error: dimension '18446744073709551615' is too large" ;;
  F3_min)
    compile_error "$name.mlir" "F3_min.mlir:1:15: error: dimension '42222222222222222222' is too large" ;;
  nested_module_3000 | nested_tuple_20000 | nested_if_10k)
    compile_error "$name.mlir" "$name.mlir:[0-9]+:[0-9]+: error: nesting deeper than 256 levels"
    bounded 1 "$name.mlir:[0-9]+:[0-9]+: error: nesting deeper than 256 levels" -- \
      "$bin/kiln-opt" "$repro/$name.mlir"
    ;;
  dispatch_spin)
    # A vmvx workgroup that loops forever: --function_timeout_ms reaches the
    # dispatch on both devices, and the tool then exits (the device releases).
    assemble "$name.vmasm"
    # local-sync runs the dispatch inside the call; on local-task the call
    # waits on the fence, which times out or fails with the dispatch first.
    bounded 1 "error: invocation deadline exceeded.*in dispatch of 'spin_entry'.*while invoking 'spin.main' \(DEADLINE_EXCEEDED\)" -- \
      "$bin/kiln-run-module" --module="$work/m.kmod" --device=local-sync \
      --function=main --function_timeout_ms=500
    bounded 1 "error: .*invocation deadline exceeded.*calling import 'hal.fence.await'.*while invoking 'spin.main' \(DEADLINE_EXCEEDED\)" -- \
      "$bin/kiln-run-module" --module="$work/m.kmod" --device=local-task \
      --function=main --function_timeout_ms=500
    # kiln-check-module takes the flag too: the test fails, the tool ends.
    bounded 1 "invocation deadline exceeded.*while invoking 'spin.main'$" -- \
      "$bin/kiln-check-module" --module="$work/m.kmod" --function_timeout_ms=500
    ;;
  huge_alloc)
    # What a module may allocate is capped (--allocation_limit_mb, 8 GiB by
    # default): each function ends in a clean error, at the default limit and
    # at a small one.
    assemble "$name.vmasm"
    limit_error="error: allocating [0-9]+ bytes would exceed the allocation limit of"
    for limit in "" --allocation_limit_mb=64; do
      for function in vm_buffer_8g vm_buffer_1t list_2g list_resize_2g hal_alloc_1t; do
        bounded 1 "$limit_error .*\(--allocation_limit_mb; .*while invoking 'huge.$function' \(RESOURCE_EXHAUSTED\)" -- \
          "$bin/kiln-run-module" --module="$work/m.kmod" --function=$function $limit
      done
    done
    bounded 1 "error: buffer.alloc: bad length -1.*\(INVALID_ARGUMENT\)" -- \
      "$bin/kiln-run-module" --module="$work/m.kmod" --function=vm_buffer_neg
    bounded 1 "error: buffer length must be non-negative, got -1.*\(INVALID_ARGUMENT\)" -- \
      "$bin/kiln-run-module" --module="$work/m.kmod" --function=hal_alloc_neg
    bounded 1 "error: call stack overflow: depth 1024 exceeded calling 'recurse'.*\(RESOURCE_EXHAUSTED\)" -- \
      "$bin/kiln-run-module" --module="$work/m.kmod" --function=recurse
    ;;
  splat_100000000 | splat_1000000000)
    # A splat is one element and a shape into the module: compiling is
    # instant and the module small, whatever the shape.
    bounded 0 '' -- "$bin/kiln-compile" "$repro/$name.mlir" -o "$work/s.kmod"
    size=$(stat -c %s "$work/s.kmod" 2>/dev/null || echo missing)
    if [ "$size" = missing ] || [ "$size" -ge 16384 ]; then
      echo "FAILED: $name: module of $size bytes (wanted < 16384)"
      failed=1
    fi
    bounded 0 "splat ${name#splat_} x hex \"01000000\"" -- \
      "$bin/kiln-dump-module" "$work/s.kmod"
    if [ "$name" = splat_100000000 ]; then
      # 400 MB expanded when the context is created: runs within the bounds.
      bounded 0 '^100000000xi32=1 1 1\.\.\.$' -- "$bin/kiln-run-module" \
        --module="$work/s.kmod" --print_max_element_count=3
    else
      # 4 GB: past a 512 MiB limit, a clean error naming it.
      bounded 1 "error: allocating 4000000000 bytes would exceed the allocation limit of 536870912 bytes \(--allocation_limit_mb.*expanding splat rodata" -- \
        "$bin/kiln-run-module" --module="$work/s.kmod" --allocation_limit_mb=512
    fi
    ;;
  *)
    echo "reproducer_test.sh: unknown reproducer '$name'" >&2
    exit 2
    ;;
esac
if [ "$failed" = 0 ]; then echo "PASSED: $name"; fi
exit "$failed"
