// An empty (or blank) input is an error, not an empty module: it is most
// often a wrong path or a failed pipe.
// RUN: not kiln-compile /dev/null -o %t.kmod 2>&1 | FileCheck %s --check-prefix=DEVNULL
// DEVNULL: kiln-compile: error: input '/dev/null' is empty
// RUN: printf '' > %t.empty.mlir
// RUN: not kiln-compile %t.empty.mlir -o %t.kmod 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: kiln-compile: error: input '{{.*}}empty.mlir' is empty
// RUN: printf ' \n\t\n' | not kiln-compile - -o %t.kmod 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: kiln-compile: error: input '<stdin>' is empty
