// The two runtime headers that generated C includes, embedded in the
// compiler at build time (compiler/targets/CMakeLists.txt) so that an
// installed kiln-compile needs no kiln source tree: the dispatch ABI
// (runtime/hal/local/executable_library.h), the VM's scalar semantics
// (runtime/vm/numerics.h) and the micro-kernels' ABI
// (runtime/builtins/ukernel/ukernel_abi.h).
#ifndef KILN_COMPILER_TARGETS_CPU_EMBEDDED_HEADERS_H_
#define KILN_COMPILER_TARGETS_CPU_EMBEDDED_HEADERS_H_

#include <stddef.h>

extern const char kiln_embedded_executable_library_h[];
extern const size_t kiln_embedded_executable_library_h_size;
extern const char kiln_embedded_numerics_h[];
extern const size_t kiln_embedded_numerics_h_size;
extern const char kiln_embedded_ukernel_abi_h[];
extern const size_t kiln_embedded_ukernel_abi_h_size;

#endif  // KILN_COMPILER_TARGETS_CPU_EMBEDDED_HEADERS_H_
