#!/usr/bin/env bash
# Runs IREE's end-to-end check tests: compiles every .mlir file under a
# folder (default ../shared/conformance/iree-e2e/) for each backend and runs
# its test functions with kiln-check-module on each device. Prints a table of
# files with passed/failed function counts, then "N passed, M failed"
# counting test functions (a function passes when it passes on every
# backend/device pair). Writes the same results as JSON (for the website's
# op reference) to --results=FILE (default conformance-results.json).
#
# Each kiln-check-module run is limited to --timeout=SECONDS (default 300);
# a run past it is reported as "timed out".
#
# Files written as lit tests (`// RUN: iree-run-mlir ... %s ... | FileCheck
# %s`, IREE's run tests) run their RUN lines instead, with kiln-run-mlir in
# place of iree-run-mlir (the same flags) and FileCheck, once per device (a
# line guarded by `[[ $IREE_<DRIVER>_DISABLE == 1 ]] ||` runs for vmvx and
# llvm-cpu only, as on a machine without the other drivers); a
# RUN line of another IREE tool (iree-opt, iree-compile: IR checks of
# IREE's own passes) fails the file, except iree-opt piped into
# iree-run-mlir, which runs kiln-opt (IREE passes that keep every value,
# such as iree-preprocessing-make-single-dispatch-for-function, are kiln-opt
# passes that leave the IR as it is). A file with neither test functions
# nor RUN lines passes when it compiles and loads (what IREE's check suite
# does with it).
#
# Usage: run_iree_e2e.sh [--bin=DIR] [--results=FILE] [--devices=a,b]
#                        [--backends=vmvx,llvm-cpu]
#                        [--timeout=SECONDS] [FOLDER]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/build/bin"
results="conformance-results.json"
devices="local-sync,local-task"
backends="vmvx"
timeout_s=300
folder="$root/../shared/conformance/iree-e2e"
for arg in "$@"; do
  case "$arg" in
    --bin=*) bin=${arg#--bin=} ;;
    --results=*) results=${arg#--results=} ;;
    --devices=*) devices=${arg#--devices=} ;;
    --backends=*) backends=${arg#--backends=} ;;
    --timeout=*) timeout_s=${arg#--timeout=} ;;
    --help|-h) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "run_iree_e2e.sh: unknown flag '$arg'" >&2; exit 2 ;;
    *) folder=$arg ;;
  esac
done
if [ ! -d "$folder" ]; then
  echo "run_iree_e2e.sh: no such folder: $folder" >&2
  exit 2
fi
for tool in kiln-compile kiln-check-module; do
  if [ ! -x "$bin/$tool" ]; then
    echo "run_iree_e2e.sh: $bin/$tool not found (build first, or pass --bin=)" >&2
    exit 2
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total_passed=0 total_failed=0
json_rows=()
printf '%-50s %9s %7s %7s  %s\n' "file" "functions" "passed" "failed" "first error"
filecheck=$(command -v FileCheck || command -v FileCheck-14 || true)

# The RUN lines of |file| (continuations joined), one per line, with %s
# replaced by the file's path.
run_lines() {
  sed -n 's|^//[[:space:]]*RUN:[[:space:]]*||p' "$1" |
    awk '{ if (sub(/\\[[:space:]]*$/, "")) { line = line $0 " " } else { print line $0; line = "" } }' |
    sed "s|%s|$1|g"
}

# Runs the RUN lines of |file| on each device; sets failed_all and
# first_error.
run_lit_file() {
  local file=$1 line cmd device code
  failed_all=0
  # IREE's guarded form `[[ $IREE_<DRIVER>_DISABLE == 1 ]] || (CMD)`: lit
  # runs CMD unless the CI machine disabled that driver, as IREE's CI does
  # for the drivers a machine lacks; kiln has the CPU ones only.
  # (The driver's case is ignored: one of IREE's files spells VULKAn.)
  local guard_re='^\[\[ *\$\{?IREE_([A-Za-z0-9_]+)_DISABLE\}? *== *1 *\]\] *\|\| *\((.*)\)$'
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    if [[ $line =~ $guard_re ]]; then
      case ${BASH_REMATCH[1]^^} in
        VMVX | LLVMAOT | LLVMCPU) line=${BASH_REMATCH[2]} ;;
        *) continue ;;
      esac
    fi
    # iree-opt piped into iree-run-mlir (a preprocessing pass, then a run)
    # runs kiln-opt, which knows the passes whose values kiln keeps; an
    # iree-opt line checking IREE's own IR with FileCheck fails the file.
    if [[ $line != iree-run-mlir* && $line != iree-opt*"| iree-run-mlir "* ]]; then
      failed_all=1
      [ -z "$first_error" ] && first_error="RUN line uses ${line%% *} (IREE's own tool)"
      continue
    fi
    if [ -z "$filecheck" ]; then
      failed_all=1
      first_error="FileCheck not found"
      continue
    fi
    for device in ${devices//,/ }; do
      cmd=${line//iree-opt /timeout $timeout_s $bin/kiln-opt }
      cmd=${cmd//iree-run-mlir /timeout $timeout_s $bin/kiln-run-mlir --device=$device }
      cmd=${cmd//FileCheck /$filecheck }
      bash -o pipefail -c "$cmd" >"$work/run.out" 2>&1
      code=$?
      if [ $code -ne 0 ]; then
        failed_all=1
        [ -z "$first_error" ] && first_error="$device: RUN line failed: $(grep -m1 -E 'error' "$work/run.out" | sed "s|$folder/||" | cut -c1-100)"
      fi
    done
  done < <(run_lines "$file")
}

while IFS= read -r file; do
  rel=${file#"$folder"/}
  # Test functions: public func.func definitions without arguments (IREE's
  # check tests), not the ones commented out with `//`.
  mapfile -t functions < <(grep -vE '^[[:space:]]*//' "$file" | grep -oE 'func\.func (public )?@[A-Za-z0-9_$.]+\(\)' | sed -E 's/func.func (public )?@//; s/\(\)$//')
  declare -A failed_fn=()
  first_error=""
  if grep -qE '^//[[:space:]]*RUN:' "$file" && [ ${#functions[@]} -eq 0 ]; then
    # A lit test: its public functions count, all passing or failing with
    # the file's RUN lines.
    mapfile -t functions < <(grep -vE '^[[:space:]]*//' "$file" | grep -oE 'func\.func (public )?@[A-Za-z0-9_$.]+' | sed -E 's/func.func (public )?@//')
    run_lit_file "$file"
    if [ "$failed_all" -ne 0 ]; then
      for fn in "${functions[@]}"; do failed_fn[$fn]=1; done
    fi
    backends_for_file=""
  else
    backends_for_file=$backends
  fi
  compile_only=0
  if [ -n "$backends_for_file" ] && [ ${#functions[@]} -eq 0 ]; then
    # No test functions: the file passes when it compiles and loads.
    mapfile -t functions < <(grep -vE '^[[:space:]]*//' "$file" | grep -oE 'func\.func (public )?@[A-Za-z0-9_$.]+' | sed -E 's/func.func (public )?@//')
    compile_only=1
  fi
  for backend in ${backends_for_file//,/ }; do
    module="$work/module.kmod"
    if ! "$bin/kiln-compile" --target-backends="$backend" "$file" -o "$module" 2>"$work/compile.err"; then
      for fn in "${functions[@]}"; do failed_fn[$fn]=1; done
      [ -z "$first_error" ] && first_error=$(grep -m1 'error:' "$work/compile.err" | sed "s|$folder/||")
      continue
    fi
    for device in ${devices//,/ }; do
      timeout "$timeout_s" "$bin/kiln-check-module" --module="$module" --device="$device" >"$work/run.out" 2>&1
      code=$?
      for fn in "${functions[@]}"; do
        if [ "$compile_only" -eq 1 ]; then
          [ $code -ne 0 ] && failed_fn[$fn]=1
        elif ! grep -qE "^\[       OK \] [^ ]*\.$fn\$" "$work/run.out"; then
          failed_fn[$fn]=1
        fi
      done
      if [ $code -eq 124 ] && [ -z "$first_error" ]; then
        first_error="$device: timed out after $timeout_s s"
      elif [ $code -ne 0 ] && [ -z "$first_error" ]; then
        first_error="$device: $(grep -m1 -vE '^\[' "$work/run.out" | cut -c1-100)"
      fi
    done
  done
  n=${#functions[@]}
  f=${#failed_fn[@]}
  p=$((n - f))
  total_passed=$((total_passed + p))
  total_failed=$((total_failed + f))
  printf '%-50s %9d %7d %7d  %s\n' "$rel" "$n" "$p" "$f" "${first_error:0:80}"
  esc=$(printf '%s' "$first_error" | sed 's/\\/\\\\/g; s/"/\\"/g')
  fails=""
  for fn in "${!failed_fn[@]}"; do fails+="\"$fn\","; done
  json_rows+=("{\"file\": \"$rel\", \"functions\": $n, \"passed\": $p, \"failed\": $f, \"failed_functions\": [${fails%,}], \"first_error\": \"$esc\"}")
  unset failed_fn
done < <(find "$folder" -name '*.mlir' | sort)

{
  echo "{\"backends\": \"$backends\", \"devices\": \"$devices\", \"passed\": $total_passed, \"failed\": $total_failed, \"files\": ["
  for i in "${!json_rows[@]}"; do
    sep=","; [ "$i" -eq $((${#json_rows[@]} - 1)) ] && sep=""
    echo "  ${json_rows[$i]}$sep"
  done
  echo "]}"
} >"$results"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
