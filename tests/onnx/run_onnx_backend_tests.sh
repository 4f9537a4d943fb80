#!/usr/bin/env bash
# Runs ONNX's backend test cases (Debian's libonnx-testdata: node,
# pytorch-converted, pytorch-operator and simple cases, each a model.onnx
# with test_data_set_*/{input,output}_K.pb). Every case is compiled once per
# backend with kiln-compile and run on each device with kiln-run-module,
# comparing as ONNX's backend runner does: rtol 1e-3, atol 1e-7, NaN equal
# to NaN, integers and bools exact. A case passes when every data set
# matches on every backend/device pair.
#
# Prints one line per case that fails, a table by op (cases, passed,
# failed), and last "N passed, M failed". Writes JSON results to --results
# (default onnx-results.json). Fails (exit 1) when a case fails that
# --expected (default tests/onnx/expected_failures.txt) does not list, or a
# listed case passes. --write-expected=FILE writes the failures as a new
# list, grouped by reason. --shard=I/N runs every N-th case from the I-th.
#
# Usage: run_onnx_backend_tests.sh [--bin=DIR] [--data=DIR]
#          [--suites=node,pytorch-converted,pytorch-operator,simple]
#          [--target-backends=vmvx] [--devices=local-sync,local-task]
#          [--expected=FILE] [--write-expected=FILE] [--results=FILE]
#          [--shard=I/N] [--filter=REGEX] [--timeout=SECONDS]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/build/bin"
data="/usr/share/libonnx-testdata/data"
suites="node,pytorch-converted,pytorch-operator,simple"
backends="vmvx"
devices="local-sync,local-task"
expected="$here/expected_failures.txt"
write_expected=""
results="onnx-results.json"
shard="0/1"
filter=""
timeout_s=120
for arg in "$@"; do
  case "$arg" in
    --bin=*) bin=${arg#--bin=} ;;
    --data=*) data=${arg#--data=} ;;
    --suites=*) suites=${arg#--suites=} ;;
    --target-backends=*) backends=${arg#--target-backends=} ;;
    --devices=*) devices=${arg#--devices=} ;;
    --expected=*) expected=${arg#--expected=} ;;
    --write-expected=*) write_expected=${arg#--write-expected=} ;;
    --results=*) results=${arg#--results=} ;;
    --shard=*) shard=${arg#--shard=} ;;
    --filter=*) filter=${arg#--filter=} ;;
    --timeout=*) timeout_s=${arg#--timeout=} ;;
    --help|-h) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "run_onnx_backend_tests.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
shard_index=${shard%/*}
shard_count=${shard#*/}
if ! [[ "$shard_index" =~ ^[0-9]+$ && "$shard_count" =~ ^[1-9][0-9]*$ ]] ||
   [ "$shard_index" -ge "$shard_count" ]; then
  echo "run_onnx_backend_tests.sh: bad --shard '$shard' (want I/N, 0 <= I < N)" >&2
  exit 2
fi
if [ ! -d "$data" ]; then
  echo "run_onnx_backend_tests.sh: no test data at $data (install libonnx-testdata)" >&2
  exit 2
fi
for tool in kiln-compile kiln-run-module kiln-import-onnx; do
  if [ ! -x "$bin/$tool" ]; then
    echo "run_onnx_backend_tests.sh: $bin/$tool not found (build first, or pass --bin=)" >&2
    exit 2
  fi
done
declare -A listed=()
if [ -f "$expected" ]; then
  while read -r key _; do
    [[ -z "$key" || "$key" == \#* ]] && continue
    listed[$key]=1
  done < "$expected"
elif [ -z "$write_expected" ]; then
  echo "run_onnx_backend_tests.sh: no expected-failure list at $expected" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Sets $escaped to $1 escaped for a JSON string. No command substitution
# here or in the per-case loop: every fork costs milliseconds on a busy
# machine, and the loop runs 932 times per shard.
json_escape() {
  escaped=$1
  escaped=${escaped//\\/\\\\}
  escaped=${escaped//\"/\\\"}
  escaped=${escaped//$'\t'/ }
  escaped=${escaped//$'\r'/ }
}

# The first meaningful line of a tool's output, with the case's paths
# shortened so that messages read the same on every machine.
first_error() {
  local file=$1 dir=$2 line
  line=$(grep -m1 -E '\[FAILED\]|error|Error|ERROR' "$file" || head -n1 "$file")
  line=${line//"$dir"\//}
  line=${line//"$work"\//}
  line=${line#kiln-compile: error: }
  line=${line#kiln-import-onnx: error: }
  line=${line#Error: }
  printf '%s' "${line:0:300}"
}

# ONNX's test data stores bfloat16 tensors as UINT16 (numpy has no
# bfloat16): a bf16 argument or result reads its .pb as the model's type
# (TYPE=@file.pb takes the data as TYPE, same shape and width).
# Sequence and optional values are SequenceProto / OptionalProto files,
# passed as their tensors (sequence=@file.pb, optional=@file.pb).
# Sets $type_prefix to "TYPE=" for such a type, else to "".
typed_pb() {
  type_prefix=""
  if [[ "$1" == *xbf16 || "$1" == bf16 || "$1" == sequence || "$1" == optional ]]; then
    type_prefix="$1="
  fi
}

declare -A op_cases=() op_passed=()
ops_order=()
passed=0 failed=0 unexpected=0 index=0
json_rows=()
failure_lines=()
IFS=',' read -r -a suite_list <<< "$suites"
IFS=',' read -r -a backend_list <<< "$backends"
IFS=',' read -r -a device_list <<< "$devices"
for suite in "${suite_list[@]}"; do
  [ -d "$data/$suite" ] || continue
  for case_dir in "$data/$suite"/*/; do
    case_dir=${case_dir%/}
    name=${case_dir##*/}
    key="$suite/$name"
    if [ -n "$filter" ] && ! [[ "$key" =~ $filter ]]; then continue; fi
    this=$index
    index=$((index + 1))
    [ $((this % shard_count)) -eq "$shard_index" ] || continue
    model="$case_dir/model.onnx"
    function="" opset="" ops=() input_types=() output_types=()
    if "$bin/kiln-import-onnx" --describe "$model" > "$work/describe" 2>/dev/null; then
      while read -r kind value; do
        case "$kind" in
          function) function=$value ;;
          opset) opset=$value ;;
          op) ops+=("$value") ;;
          input) input_types+=("$value") ;;
          output) output_types+=("$value") ;;
        esac
      done < "$work/describe"
    fi
    status=passed stage="" reason=""
    # A graph input that is not a static tensor (symbolic dims, a sequence,
    # an optional) is specialized to the first data set's: the model is
    # imported with --inputs-like and the MLIR compiled.
    source="$model"
    for t in "${input_types[@]}"; do
      [[ "$t" == "?" || "$t" == sequence || "$t" == optional ]] || continue
      source="$work/model.mlir"
      if ! timeout "$timeout_s" "$bin/kiln-import-onnx" \
          --inputs-like="$case_dir/test_data_set_0" "$model" -o "$source" \
          > "$work/out" 2>&1; then
        status=failed stage=import
        reason=$(first_error "$work/out" "$case_dir")
      fi
      break
    done
    for backend in "${backend_list[@]}"; do
      [ "$status" = passed ] || break
      module="$work/model.kmod"
      if ! timeout "$timeout_s" "$bin/kiln-compile" --target-backends="$backend" \
          "$source" -o "$module" > "$work/out" 2>&1; then
        status=failed
        reason=$(first_error "$work/out" "$case_dir")
        # Importer errors read "model.onnx: ..."; later phases add line:col.
        if [[ "$reason" == model.onnx:\ * ]]; then stage=import; else stage=compile; fi
        break
      fi
      for set_dir in "$case_dir"/test_data_set_*/; do
        set_dir=${set_dir%/}
        args=()
        for ((k = 0; ; k++)); do
          [ -f "$set_dir/input_$k.pb" ] || break
          typed_pb "${input_types[$k]:-}"
          args+=("--input=$type_prefix@$set_dir/input_$k.pb")
        done
        for ((k = 0; ; k++)); do
          [ -f "$set_dir/output_$k.pb" ] || break
          typed_pb "${output_types[$k]:-}"
          args+=("--expected_output=$type_prefix@$set_dir/output_$k.pb")
        done
        for device in "${device_list[@]}"; do
          if ! timeout "$timeout_s" "$bin/kiln-run-module" --module="$module" \
              --device="$device" --function="$function" \
              --expected_f16_threshold=1e-7 --expected_bf16_threshold=1e-7 \
              --expected_f32_threshold=1e-7 --expected_f64_threshold=1e-7 \
              --expected_rtol=1e-3 "${args[@]}" > "$work/out" 2>&1; then
            status=failed
            if grep -q '\[FAILED\]' "$work/out"; then stage=mismatch; else stage=runtime; fi
            reason="$(first_error "$work/out" "$case_dir") ($backend, $device, ${set_dir##*/})"
            break 3
          fi
        done
      done
    done
    is_listed=${listed[$key]:-}
    if [ "$status" = passed ]; then
      passed=$((passed + 1))
      if [ -n "$is_listed" ]; then
        unexpected=$((unexpected + 1))
        echo "UNEXPECTED PASS $key (remove it from $(basename "$expected"))"
      fi
    else
      failed=$((failed + 1))
      failure_lines+=("$key $stage: $reason")
      if [ -z "$is_listed" ]; then
        unexpected=$((unexpected + 1))
        echo "UNEXPECTED FAIL $key $stage: $reason"
      fi
    fi
    # The node suite's table is by op; the model suites count as one row.
    if [ "$suite" = node ] && [ ${#ops[@]} -gt 0 ]; then
      row_ops=("${ops[@]}")
      # Expanded function bodies list many ops; the case is named after one.
      [ ${#row_ops[@]} -gt 1 ] && row_ops=("(expanded/multi-op)")
    else
      row_ops=("($suite)")
    fi
    for op in "${row_ops[@]}"; do
      if [ -z "${op_cases[$op]:-}" ]; then ops_order+=("$op"); op_cases[$op]=0; op_passed[$op]=0; fi
      op_cases[$op]=$((op_cases[$op] + 1))
      [ "$status" = passed ] && op_passed[$op]=$((op_passed[$op] + 1))
    done
    ops_json=""
    for op in "${ops[@]}"; do json_escape "$op"; ops_json+="${ops_json:+, }\"$escaped\""; done
    json_escape "$name"; name_json=$escaped
    json_escape "$reason"
    json_rows+=("    {\"suite\": \"$suite\", \"case\": \"$name_json\", \"opset\": ${opset:-null}, \"ops\": [$ops_json], \"status\": \"$status\", \"stage\": \"$stage\", \"reason\": \"$escaped\"}")
  done
done

printf '\n%-28s %6s %7s %7s\n' "op" "cases" "passed" "failed"
mapfile -t sorted_ops < <(printf '%s\n' "${ops_order[@]}" | LC_ALL=C sort)
for op in "${sorted_ops[@]}"; do
  [ -n "$op" ] || continue
  printf '%-28s %6d %7d %7d\n' "$op" "${op_cases[$op]}" "${op_passed[$op]}" \
    $((op_cases[$op] - op_passed[$op]))
done

{
  echo "{"
  echo "  \"target_backends\": \"$backends\", \"devices\": \"$devices\","
  echo "  \"passed\": $passed, \"failed\": $failed,"
  echo "  \"cases\": ["
  for i in "${!json_rows[@]}"; do
    sep=","; [ "$i" -eq $((${#json_rows[@]} - 1)) ] && sep=""
    echo "${json_rows[$i]}$sep"
  done
  echo "  ]"
  echo "}"
} > "$results"

if [ -n "$write_expected" ]; then
  # Grouped by category: the stage and the reason without node names.
  {
    echo "# ONNX backend test cases kiln does not pass yet, one per line:"
    echo "# '<suite>/<case> <stage>: <reason>'. Grouped by category; the runner"
    echo "# (run_onnx_backend_tests.sh) fails when a listed case passes or an"
    echo "# unlisted case fails. Regenerate with --write-expected=FILE."
    for line in "${failure_lines[@]}"; do
      reason=${line#* }
      category=$(printf '%s' "$reason" | sed -E \
        -e "s/^(import|compile): model.onnx: node '[^']*' \(([A-Za-z0-9]+), opset [0-9]+\): /\1: \2: /" \
        -e 's/^(import|compile): model.onnx: /\1: /' \
        -e "s/'[^']*'/'...'/g" -e 's/ \((vmvx|llvm-cpu)[^)]*\)$//' \
        -e 's/[0-9]+/N/g' -e 's/; (calling|at|while) .*//' | cut -c1-100)
      printf '%s\t%s\n' "$category" "$line"
    done | LC_ALL=C sort | awk -F'\t' '
      $1 != last { print ""; print "## " $1; last = $1 }
      { print $2 }'
  } > "$write_expected"
fi

if [ "$unexpected" -gt 0 ]; then
  echo "$unexpected unexpected result(s) against $(basename "$expected")"
fi
echo "$passed passed, $failed failed"
[ "$unexpected" -eq 0 ]
