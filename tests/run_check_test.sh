#!/usr/bin/env bash
# Runs one check test: builds the module from its source (.mlir with
# kiln-compile, .vmasm with kiln-as-module), then runs every test function
# with kiln-check-module on one device.
# Usage: run_check_test.sh BIN_DIR SOURCE DEVICE [extra compile flags...]
set -euo pipefail
bin=$1 source=$2 device=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$source" in
  *.mlir) "$bin/kiln-compile" "$@" "$source" -o "$work/test.kmod" ;;
  *.vmasm) "$bin/kiln-as-module" "$source" -o "$work/test.kmod" ;;
  *) echo "run_check_test.sh: unknown source kind: $source" >&2; exit 2 ;;
esac
"$bin/kiln-check-module" --module="$work/test.kmod" --device="$device"
