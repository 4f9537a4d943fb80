#!/usr/bin/env bash
# Model benchmark suite: kiln (llvm-cpu) against ONNX Runtime (npm's
# onnxruntime-node), 1 and 2 threads, interleaved rounds, outputs checked
# (rtol 1e-3). Not part of `make test` (speed is never asserted); run it with
# `make bench-models`. About 10-15 minutes on a 2-core machine.
#
# Usage: bench/models/run.sh [BUILD_DIR] [run.py flags...]
#   e.g. bench/models/run.sh build --models mlp,squeezenet --rounds 1
# Writes BUILD_DIR/bench/models/results.{json,md,png} and, for a run of all
# models, copies the table and chart into the website's benchmark page
# (docs/website/docs/developers/performance/benchmark-suites.md).
# ORT_VERSION picks the onnxruntime-node version (default 1.30.0).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
shift || true
case "$build" in /*) ;; *) build="$root/$build" ;; esac
all_models=mlp,squeezenet,mobilenetv2,efficientnet_b0,resnet50,densenet121,bert
models=$all_models
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --models) models=$2; shift 2 ;;
    --models=*) models=${1#--models=}; shift ;;
    *) rest+=("$1"); shift ;;
  esac
done

"$root/scripts/install-deps.sh" --bench-models

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target kiln-compile kiln-run-module \
  kiln-benchmark-module kiln_vm kiln_base >/dev/null

out="$build/bench/models"
mkdir -p "$out/models"
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$root" \
  "$root/bench/models/load_time.c" -o "$out/load_time" \
  "$build/runtime/vm/libkiln_vm.a" "$build/runtime/base/libkiln_base.a" \
  -lpthread -lm
# The FMA peak loop of the conv benchmark: both runtimes' speed as a share
# of the machine's.
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
  "$root/bench/conv/peak.c" -o "$out/peak"

# ONNX Runtime for node, in the build folder. Its install script would
# fetch CUDA binaries (from the network); the CPU build is in the package.
ort_version=${ORT_VERSION:-1.30.0}
ort="$out/ort"
if [ ! -f "$ort/node_modules/onnxruntime-node/package.json" ] ||
   [ "$(node -p "require('$ort/node_modules/onnxruntime-node/package.json').version")" != "$ort_version" ]; then
  mkdir -p "$ort"
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$ort" --no-audit \
    --no-fund --loglevel=error "onnxruntime-node@$ort_version" >/dev/null
fi

# The models: generated when missing or older than the generator.
missing=()
for m in ${models//,/ }; do
  if [ ! -f "$out/models/$m.onnx" ] ||
     [ "$root/bench/models/gen_models.py" -nt "$out/models/$m.onnx" ]; then
    missing+=("$m")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  /usr/bin/python3 "$root/bench/models/gen_models.py" "$out/models" "${missing[@]}"
fi

docs=()
if [ "$models" = "$all_models" ]; then
  page="$root/docs/website/docs/developers/performance"
  docs=(--docs-page "$page/benchmark-suites.md"
        --docs-png "$page/bench-models.png")
fi
# Debian's python3 (numpy, matplotlib), not a python3 earlier in PATH.
/usr/bin/python3 "$root/bench/models/run.py" --build "$build" --out "$out" \
  --src "$root/bench/models" --node-modules "$ort/node_modules" \
  --models "$models" --command "make bench-models" ${docs[@]+"${docs[@]}"} \
  ${rest[@]+"${rest[@]}"}
