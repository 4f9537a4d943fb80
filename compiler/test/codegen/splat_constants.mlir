// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// RUN: kiln-compile %s -o %t.kmod
// RUN: python3 -c "import os, sys; n = os.path.getsize(sys.argv[1]); sys.exit(0 if n < 16384 else 'module of %%d bytes' %% n)" %t.kmod
// RUN: kiln-dump-module %t.kmod | FileCheck %s --check-prefix=DUMP
// A splat constant stays one element and a shape into the module: its
// rodata is a splat entry (expanded when a context is created), so neither
// the module nor the compile time grows with its 4 GB of elements.
// CHECK: rodata @__rodata_{{[0-9]+}} align 64 : splat 1000000000 x hex "07000000"
// DUMP: # format version 1.2
// DUMP: splat 1000000000 x hex "07000000"  # 4000000000 bytes
func.func @main() -> tensor<1000000000xi32> {
  %c = stablehlo.constant dense<7> : tensor<1000000000xi32>
  return %c : tensor<1000000000xi32>
}
