// Every phase of kiln-compile runs alone under kiln-opt and prints MLIR.
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=STRUCTURED
// RUN: kiln-opt --lower-to-structured --lower-host-ops --form-dispatch-regions %s | FileCheck %s --check-prefix=REGIONS
// RUN: kiln-opt --lower-to-structured --lower-host-ops --form-dispatch-regions --vmvx-codegen %s | FileCheck %s --check-prefix=CODEGEN
// RUN: kiln-opt --lower-to-structured --lower-host-ops --form-dispatch-regions --vmvx-codegen --schedule %s | FileCheck %s --check-prefix=SCHEDULE
// RUN: kiln-opt --lower-to-structured --lower-host-ops --form-dispatch-regions --vmvx-codegen --schedule --vm-emission %s | FileCheck %s --check-prefix=EMISSION

func.func @scale(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = stablehlo.multiply %x, %c : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// STRUCTURED: linalg.generic
// STRUCTURED: arith.mulf
// STRUCTURED: linalg.generic
// STRUCTURED: math.absf
// STRUCTURED-NOT: stablehlo.

// REGIONS: "kiln.dispatch.region"
// REGIONS: arith.mulf
// REGIONS: math.absf
// REGIONS: "kiln.dispatch.return"
// REGIONS-NOT: "kiln.dispatch.region"

// CODEGEN: "hal.executable"() {entry = "scale_dispatch_0_elementwise", format = "vmvx-bytecode"
// CODEGEN-SAME: mul.f32
// CODEGEN-SAME: abs.f32

// SCHEDULE: func.func @scale(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {kiln.transient_size = 0 : i64}

// EMISSION: builtin.module attributes {kiln.vm_asm = "module @module
// EMISSION-SAME: func @scale : r->r export
// EMISSION-SAME: call.import @hal.device.queue.execute
