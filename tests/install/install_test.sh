#!/bin/sh
# Installs kiln into a temporary prefix and builds the embedding sample out
# of tree against it twice, with CMake (find_package(kiln), static library)
# and with pkg-config (shared library), then runs both on a module the
# installed kiln-as-module assembles.
# With PYTHON, the installed Python package compiles and runs a model too.
#   install_test.sh BUILD_DIR SOURCE_DIR [PYTHON]
set -eu
build=$1
src=$2
python=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/kiln-compile bin/kiln-run-module lib/libkiln_runtime.a \
         lib/libkiln_runtime.so include/kiln/runtime/session/session.h \
         lib/cmake/kiln/kilnConfig.cmake lib/pkgconfig/kiln-runtime.pc; do
  [ -e "$prefix/$f" ] || { echo "install_test: $f not installed"; exit 1; }
done
"$prefix/bin/kiln-as-module" "$src/tests/tools/identity.vmasm" -o "$tmp/identity.kmod"

# CMake: the sample's own project, only the prefix on CMAKE_PREFIX_PATH.
cmake -S "$src/samples/embedding" -B "$tmp/cmake-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/cmake-build" >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
"$tmp/cmake-build/embedding-sample" "$tmp/identity.kmod" local-task identity
# Two modules on the session's one device (the second imports the first).
"$prefix/bin/kiln-as-module" "$src/samples/embedding/wrapper.vmasm" -o "$tmp/wrapper.kmod"
"$tmp/cmake-build/embedding-sample" "$tmp/identity.kmod,$tmp/wrapper.kmod" local-task wrapped

# pkg-config: one compiler line; the shared library is found at run time
# through the rpath the line sets.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -o "$tmp/pc-sample" "$src/samples/embedding/main.c" \
  $(pkg-config --cflags --libs kiln-runtime) \
  -Wl,-rpath,"$(pkg-config --variable=libdir kiln-runtime)"
"$tmp/pc-sample" "$tmp/identity.kmod" local-sync identity

if [ -n "$python" ]; then
  site=$(dirname "$(find "$prefix/lib" -path '*-packages/kiln/runtime.py')")
  PYTHONPATH=$(dirname "$site") KILN_TOOLS_DIR= "$python" - <<'PY'
import numpy as np
import kiln.compiler, kiln.runtime
src = """func.func @neg(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.negate %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}"""
m = kiln.runtime.load_vm_flatbuffer(
    kiln.compiler.compile_str(src, target_backends=["vmvx"]))
assert "/prefix/" in kiln.runtime.__file__, kiln.runtime.__file__
print("python: neg =", m.neg(np.array([1, -2, 3], np.float32)).tolist())
PY
fi
echo "install_test: ok"
