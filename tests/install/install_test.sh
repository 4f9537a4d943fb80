#!/bin/sh
# Installs kiln into a temporary prefix and builds the embedding sample out
# of tree against it twice, with CMake (find_package(kiln), static library)
# and with pkg-config (shared library), then runs both on a module the
# installed kiln-as-module assembles.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
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

# pkg-config: one compiler line; the shared library is found at run time
# through the rpath the line sets.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -o "$tmp/pc-sample" "$src/samples/embedding/main.c" \
  $(pkg-config --cflags --libs kiln-runtime) \
  -Wl,-rpath,"$(pkg-config --variable=libdir kiln-runtime)"
"$tmp/pc-sample" "$tmp/identity.kmod" local-sync identity
echo "install_test: ok"
