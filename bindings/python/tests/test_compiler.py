# kiln.compiler: the in-process driver from Python; outputs run through
# kiln.runtime and are checked against numpy; failures carry diagnostics.
import os

import numpy as np
import pytest

import kiln.compiler as kc
import kiln.runtime as rt
from conftest import MLIR

ONNX_ABS = "/usr/share/libonnx-testdata/data/node/test_abs/model.onnx"


def run(module_bytes, function, *args):
    m = rt.load_vm_module(rt.VmModule.copy_buffer(None, module_bytes),
                          rt.Config("local-sync"))
    return m[function](*args)


@pytest.mark.parametrize("backend", ["vmvx", "llvm-cpu"])
def test_compile_str_runs(backend):
    module = kc.compile_str(MLIR, target_backends=[backend])
    assert isinstance(module, bytes) and module[:4]
    a = np.array([1, -2, 3, -4], np.float32)
    np.testing.assert_array_equal(run(module, "add", a, a), a * 2)


def test_compile_file_and_output_file(tmp_path):
    src = tmp_path / "model.mlir"
    src.write_text(MLIR)
    out = tmp_path / "model.kmod"
    assert kc.compile_file(str(src), target_backends=["vmvx"],
                           output_file=str(out)) is None
    m = rt.load_vm_flatbuffer_file(str(out), driver="local-task")
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.testing.assert_array_equal(m.addi(x, x), x * 2)


def test_output_formats():
    asm = kc.compile_str(MLIR, target_backends=["vmvx"],
                         output_format=kc.OutputFormat.VM_ASM)
    assert asm.startswith(b"module @module")
    mlir = kc.compile_str(MLIR, target_backends=["vmvx"],
                          extra_args=["--compile-to=input",
                                      "--output-format=mlir"])
    assert b"stablehlo.add" in mlir


@pytest.mark.skipif(not os.path.exists(ONNX_ABS),
                    reason="libonnx-testdata is not installed")
def test_onnx_file():
    module = kc.compile_file(ONNX_ABS, target_backends=["vmvx"])
    x = np.random.default_rng(3).standard_normal((3, 4, 5)).astype(np.float32)
    np.testing.assert_array_equal(run(module, "test_abs", x), np.abs(x))


def test_syntax_error_carries_diagnostics():
    with pytest.raises(kc.CompilerToolError) as info:
        kc.compile_str("func.func @f( {", filename="bad.mlir")
    assert "bad.mlir:1:15: error: expected type" in info.value.diagnostics
    assert "1 error reported" in info.value.message
    assert "bad.mlir:1:15" in str(info.value)


def test_input_type():
    module = kc.compile_str(MLIR, target_backends=["vmvx"],
                            input_type=kc.InputType.STABLEHLO)
    a = np.ones(4, np.float32)
    np.testing.assert_array_equal(run(module, "add", a, a), a * 2)
    with pytest.raises(kc.CompilerToolError, match="unknown input type 'onnx'"):
        kc.compile_str(MLIR, input_type="onnx")


def test_bad_options():
    with pytest.raises(kc.CompilerToolError, match="unsupported target backend 'nope'"):
        kc.compile_str(MLIR, target_backends=["nope"])
    with pytest.raises(kc.CompilerToolError, match="unknown compiler flag '--bogus'"):
        kc.compile_str(MLIR, extra_args=["--bogus"])
    with pytest.raises(kc.CompilerToolError, match="one target backend"):
        kc.compile_str(MLIR, target_backends=["vmvx", "llvm-cpu"])


def test_bad_inputs(tmp_path):
    with pytest.raises(kc.CompilerToolError, match="cannot read"):
        kc.compile_file(str(tmp_path / "missing.mlir"))
    empty = tmp_path / "empty.mlir"
    empty.write_text("  \n")
    with pytest.raises(kc.CompilerToolError, match="is empty"):
        kc.compile_file(str(empty))
    with pytest.raises(kc.CompilerToolError, match="not a valid ONNX model"):
        kc.compile_str(b"\x08\x07garbage", filename="x.onnx")


def test_dumps_go_to_stderr(capsys):
    kc.compile_str(MLIR, target_backends=["vmvx"], extra_args=["--timing"])
    assert "Total" in capsys.readouterr().err


def test_blank_source_is_an_error():
    # As in kiln-compile: an empty module would hide a wrong path.
    with pytest.raises(kc.CompilerToolError, match="input '<string>' is empty"):
        kc.compile_str(" \n\t")


def test_threads_compile_the_same_bytes():
    # The GIL is released while compiling: four threads compile at once and
    # each gets the module a lone compile gives.
    from concurrent.futures import ThreadPoolExecutor
    expected = kc.compile_str(MLIR, target_backends=["vmvx"])
    with ThreadPoolExecutor(max_workers=4) as pool:
        modules = list(pool.map(
            lambda _: kc.compile_str(MLIR, target_backends=["vmvx"]), range(8)))
    assert all(m == expected for m in modules)
