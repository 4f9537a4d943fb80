#!/usr/bin/env bash
# Installs the Debian 12 packages kiln needs to build and test, and only
# those that are missing, so that a second run costs nothing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkgconf clang clang-format libclang-rt-14-dev
  llvm-14-tools python3 python3-numpy libbenchmark-dev
  # The Python bindings (bindings/python) and their pytest tests.
  python3-dev python3-pytest
  # Tests that write small ONNX models (tests/onnx, tests/cpu_backend).
  python3-onnx
  # The ONNX importer (protobuf-c reader generated from Debian's onnx.proto)
  # and ONNX's backend test data (tests/onnx).
  libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata
)
if [ "${1:-}" = "--docs" ]; then
  packages+=(mkdocs mkdocs-material chromium)
fi
# bench/models/run.sh: ONNX models, the chart, node for onnxruntime-node.
if [ "${1:-}" = "--bench-models" ]; then
  packages+=(python3-onnx python3-matplotlib nodejs)
fi
# bench/matmul/run.sh: OpenBLAS as the reference, matplotlib for the plot.
if [ "${1:-}" = "--bench" ]; then
  packages+=(libopenblas-dev python3-matplotlib)
fi
# Optional: cross-compiling for aarch64 (Debian's cross compiler) and
# qemu-user to run what it builds; tests/cpu_backend/cross_aarch64_test.sh
# reports itself skipped without them, so `make test` never needs them.
if [ "${1:-}" = "--cross" ]; then
  packages+=(gcc-aarch64-linux-gnu qemu-user)
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
