# Shared fixtures: modules compiled once per session with kiln.compiler, and
# kiln's tools (KILN_TOOLS_DIR, set by ctest) for VM-assembly modules.
import os
import subprocess

import pytest

import kiln.compiler
import kiln.runtime

SOURCE_DIR = os.environ.get(
    "KILN_SOURCE_DIR",
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TOOLS_DIR = os.environ.get("KILN_TOOLS_DIR", "")

# The ASan build preloads ASan's runtime into this (uninstrumented)
# interpreter; kiln's tools started from the tests carry their own, and two
# runtimes in one process refuse to start.
os.environ.pop("LD_PRELOAD", None)

MLIR = """
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @addi(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @scale(%a: tensor<4xf32>, %s: tensor<f32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.multiply %a, %b : tensor<4xf32>
  %1 = stablehlo.add %a, %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
func.func @id(%a: tensor<64xf32>) -> tensor<64xf32> {
  return %a : tensor<64xf32>
}
func.func @matmul(%a: tensor<3x5xf32>, %b: tensor<5x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<3x5xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
"""

BACKENDS = ["vmvx", "llvm-cpu"]
DEVICES = ["local-sync", "local-task"]


@pytest.fixture(scope="session", params=BACKENDS)
def module_bytes(request):
    return kiln.compiler.compile_str(MLIR, target_backends=[request.param])


@pytest.fixture(scope="session")
def vmvx_bytes():
    return kiln.compiler.compile_str(MLIR, target_backends=["vmvx"])


@pytest.fixture(params=DEVICES)
def module(request, module_bytes):
    vm_module = kiln.runtime.VmModule.copy_buffer(kiln.runtime.VmInstance(),
                                                  module_bytes)
    return kiln.runtime.load_vm_module(vm_module,
                                       kiln.runtime.Config(request.param))


@pytest.fixture(scope="session")
def identity_vmasm_module(tmp_path_factory):
    """tests/tools/identity.vmasm: functions with i32/i64/f32/f64 scalars."""
    out = tmp_path_factory.mktemp("vmasm") / "identity.kmod"
    subprocess.run([os.path.join(TOOLS_DIR, "kiln-as-module"),
                    os.path.join(SOURCE_DIR, "tests/tools/identity.vmasm"),
                    "-o", str(out)], check=True)
    return out
