# Cross-compiling kiln's runtime and run tools for 64-bit Arm Linux with
# Debian's cross compiler (apt-get install gcc-aarch64-linux-gnu), e.g.:
#   cmake -S . -B build-aarch64 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#     -DKILN_BUILD_COMPILER=OFF -DKILN_BUILD_TESTS=OFF \
#     -DKILN_BUILD_BENCHMARK_TOOL=OFF
# The binaries run on an aarch64 machine or, here, under qemu-user:
#   qemu-aarch64 -L /usr/aarch64-linux-gnu build-aarch64/bin/kiln-run-module
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(KILN_CROSS_PREFIX "aarch64-linux-gnu-" CACHE STRING
    "Prefix of the cross tools (gcc, g++)")
set(CMAKE_C_COMPILER ${KILN_CROSS_PREFIX}gcc)
# No C++: the runtime and run tools are C (configure with
# -DKILN_BUILD_BENCHMARK_TOOL=OFF; the benchmark tools are C++).

# Libraries and headers come from the target's sysroot only; programs (the
# build's own tools) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Tests built for the target run through qemu-user where ctest runs them.
find_program(KILN_QEMU_AARCH64 qemu-aarch64)
if(KILN_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      ${KILN_QEMU_AARCH64} -L ${CMAKE_FIND_ROOT_PATH})
endif()
