# kiln.runtime: calls checked against numpy, on both backends and devices;
# bad input raises kiln's message; memory handed to kiln stays alive.
import gc
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import kiln.runtime as rt
from conftest import TOOLS_DIR


def test_add_matches_numpy(module):
    a = np.array([1.5, -2.0, 3.25, 0.0], np.float32)
    b = np.array([0.5, 4.0, -1.0, 7.0], np.float32)
    result = module.add(a, b)
    assert isinstance(result, rt.DeviceArray)
    assert result.shape == (4,) and result.dtype == np.float32
    np.testing.assert_array_equal(result.to_host(), a + b)
    np.testing.assert_array_equal(np.asarray(result), a + b)
    assert np.asarray(result, dtype=np.float64).dtype == np.float64
    assert np.shares_memory(np.asarray(result), result.to_host())
    assert not np.shares_memory(result.__array__(copy=True), result.to_host())


def test_int32_and_noncontiguous_inputs_are_copied(module):
    x = np.arange(12, dtype=np.int32).reshape(2, 6)[:, ::2]  # strided
    y = np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3) * 7)
    assert not x.flags.c_contiguous and not y.flags.c_contiguous
    result = module["addi"](x, y)
    assert result.dtype == np.int32
    np.testing.assert_array_equal(result.to_host(), x + y)


def test_matmul(module):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((3, 5)).astype(np.float32)
    b = rng.standard_normal((5, 2)).astype(np.float32)
    np.testing.assert_allclose(module.matmul(a, b), a @ b, rtol=1e-5,
                               atol=1e-5)


def test_python_scalar_and_multiple_results(module):
    a = np.array([1, 2, 3, 4], np.float32)
    product, total = module.scale(a, 2.5)
    np.testing.assert_array_equal(product, a * np.float32(2.5))
    np.testing.assert_array_equal(total, a + np.float32(2.5))


def test_device_array_feeds_another_call(module):
    a = np.array([1, 2, 3, 4], np.float32)
    once = module.add(a, a)
    twice = module.add(once, once)
    np.testing.assert_array_equal(twice, a * 4)
    assert np.add(twice, 1).tolist() == [5.0, 9.0, 13.0, 17.0]


def test_aligned_input_is_used_in_place_and_kept_alive(module):
    # A 64-byte aligned array is wrapped, not copied: the identity's result
    # views the caller's memory, which stays alive through the result.
    base = np.zeros(64 + 16, np.float32)
    offset = (-base.ctypes.data % 64) // 4
    a = base[offset:offset + 64]
    a[:] = np.arange(64)
    refs_before = sys.getrefcount(a)
    result = module.id(a)
    host = result.to_host()
    assert np.shares_memory(host, a)
    assert sys.getrefcount(a) > refs_before  # kiln holds the array
    del a, base, host
    gc.collect()
    np.testing.assert_array_equal(result.to_host(), np.arange(64))


def test_array_reference_dropped_after_call(module):
    a = np.ones(4, np.float32)
    refs_before = sys.getrefcount(a)
    module.add(a, a)
    gc.collect()
    assert sys.getrefcount(a) == refs_before


def test_wrong_dtype_raises_kiln_message(module):
    with pytest.raises(rt.KilnError, match="expected 4xf32 but got 4xf64"):
        module.add(np.ones(4), np.ones(4))


def test_wrong_shape_raises_kiln_message(module):
    with pytest.raises(rt.KilnError, match="expected 4xf32 but got 3xf32"):
        module.add(np.ones(3, np.float32), np.ones(3, np.float32))


def test_argument_count(module):
    a = np.ones(4, np.float32)
    with pytest.raises(rt.KilnError, match="expects 2 arguments, got 1"):
        module.add(a)
    with pytest.raises(rt.KilnError, match="expects 2 arguments, got 3"):
        module.add(a, a, a)


def test_unknown_function_lists_exports(module):
    with pytest.raises(rt.KilnError,
                       match="function 'module.nope' not found.*add, addi"):
        module["nope"]
    with pytest.raises(KeyError):  # as iree.runtime raises
        module["nope"]
    with pytest.raises(AttributeError, match="not found"):
        module.nope


def test_unsupported_argument_type(module):
    with pytest.raises(TypeError, match="dtype <U3 are not supported"):
        module.add("abc", np.ones(4, np.float32))
    with pytest.raises(TypeError, match="dtype object are not supported"):
        module.add(object(), np.ones(4, np.float32))


def test_not_a_module(tmp_path):
    with pytest.raises(rt.KilnError, match="not a kiln module"):
        rt.VmModule.copy_buffer(rt.VmInstance(), b"definitely not a module")
    bad = tmp_path / "bad.kmod"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(rt.KilnError, match="bad.kmod"):
        rt.VmModule.mmap(rt.VmInstance(), str(bad))
    empty = tmp_path / "empty.kmod"
    empty.write_bytes(b"")
    with pytest.raises(rt.KilnError):
        rt.VmModule.mmap(rt.VmInstance(), str(empty))


def test_mmap_module_and_system_context(tmp_path, vmvx_bytes):
    path = tmp_path / "m.kmod"
    path.write_bytes(vmvx_bytes)
    destroyed = []
    unused = rt.VmModule.mmap(None, str(path), lambda: destroyed.append(1))
    del unused
    gc.collect()
    assert destroyed == [1]
    vm_module = rt.VmModule.mmap(rt.VmInstance(), str(path))
    assert vm_module.name == "module"
    assert {"add", "addi", "scale"} <= set(vm_module.function_names)
    ctx = rt.SystemContext(vm_modules=[vm_module],
                           config=rt.Config("local-sync"))
    a = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(ctx.modules.module.add(a, a), a * 2)
    with pytest.raises(rt.KilnError, match="already holds a module named"):
        ctx.add_vm_module(rt.VmModule.copy_buffer(None, vmvx_bytes))


TWO_MODELS = ["""
module @double {
func.func @run(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}""", """
module @square {
func.func @run(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}"""]


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_two_models_share_one_device(device):
    import kiln.compiler
    modules = [rt.VmModule.copy_buffer(None, kiln.compiler.compile_str(
        src, target_backends=["vmvx"])) for src in TWO_MODELS]
    double, square = rt.load_vm_modules(*modules, config=rt.Config(device))
    a = np.array([1, -2, 3, 0.5], np.float32)
    # Same function name in both: each BoundModule calls its own.
    np.testing.assert_array_equal(square.run(double.run(a)), (a * 2) ** 2)
    np.testing.assert_array_equal(double.run(square.run(a)), a * a * 2)
    with pytest.raises(rt.KilnError,
                       match="'square.nope' not found in module 'square'; "
                             "exported functions: run"):
        square["nope"]


def test_later_module_imports_earlier_one(tmp_path):
    # VM assembly: @twice calls @inc's export through an import.
    inc = "module @inc\nfunc @add1 : i->i export {\n  const.i32 %i1, 1\n" \
          "  add.i32 %i0, %i0, %i1\n  ret %i0\n}\n"
    twice = "module @twice\nimport @inc.add1 : i->i\n" \
            "func @add2 : i->i export {\n" \
            "  call.import @inc.add1 (%i0) -> (%i1)\n" \
            "  call.import @inc.add1 (%i1) -> (%i2)\n  ret %i2\n}\n"
    paths = []
    for name, text in [("inc", inc), ("twice", twice)]:
        (tmp_path / f"{name}.vmasm").write_text(text)
        subprocess.run([os.path.join(TOOLS_DIR, "kiln-as-module"),
                        str(tmp_path / f"{name}.vmasm"), "-o",
                        str(tmp_path / f"{name}.kmod")], check=True)
        paths.append(str(tmp_path / f"{name}.kmod"))
    ctx = rt.SystemContext(config=rt.Config("local-sync"))
    # Alone, @twice's import is missing.
    with pytest.raises(rt.KilnError, match="inc.add1"):
        ctx.add_vm_module(rt.VmModule.mmap(None, paths[1]))
    for p in paths:
        ctx.add_vm_module(rt.VmModule.mmap(None, p))
    assert ctx.modules.twice.add2(40) == 42
    assert ctx.modules.inc.add1(1) == 2


def test_config():
    assert rt.Config().device_uri == "local-task"
    assert rt.Config("local-sync,local-task").device_uri == "local-sync"
    assert rt.Config(device="local-sync").device_uri == "local-sync"
    with pytest.raises(ValueError):
        rt.Config("local-sync", device="local-task")


def test_unknown_device():
    with pytest.raises(rt.KilnError, match="no-such-device"):
        rt.SystemContext(config=rt.Config("no-such-device"))


def test_primitive_scalars(identity_vmasm_module):
    m = rt.load_vm_flatbuffer_file(str(identity_vmasm_module),
                                   driver="local-sync")
    assert m.scalars(7, 1 << 40, 1.5, 2.25) == (7, 1 << 40, 1.5, 2.25)
    with pytest.raises(rt.KilnError, match="does not fit in i32"):
        m.scalars(1 << 40, 1, 1.0, 1.0)


def test_calls_from_threads(vmvx_bytes):
    m = rt.load_vm_flatbuffer(vmvx_bytes, driver="local-task")
    results = [None] * 4

    def work(i):
        a = np.full(4, i, np.float32)
        results[i] = m.add(a, a).to_host().copy()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r, np.full(4, 2 * i, np.float32))


@pytest.mark.skipif(
    not os.access(os.path.join(TOOLS_DIR, "kiln-benchmark-module"), os.X_OK),
    reason="kiln-benchmark-module is not built here (the ASan build has "
    "none); the main build runs this test")
def test_benchmark_module(tmp_path, vmvx_bytes):
    vm_module = rt.VmModule.copy_buffer(None, vmvx_bytes)
    results = rt.benchmark_module(
        vm_module, entry_function="add",
        inputs=[np.ones(4, np.float32), np.ones(4, np.float32)],
        device="local-sync", benchmark_min_time="1x")
    assert results and results[0].iterations >= 1
    assert "add" in results[0].benchmark_name
    # A path and kiln's input strings work too; failures raise.
    path = tmp_path / "m.kmod"
    path.write_bytes(vmvx_bytes)
    results = rt.benchmark_module(str(path), entry_function="add",
                                  inputs=["4xf32=1 2 3 4", "4xf32=1"],
                                  device="local-sync",
                                  benchmark_min_time="1x")
    assert results[0].iterations == 1
    with pytest.raises(rt.BenchmarkToolError, match="nope"):
        rt.benchmark_module(str(path), entry_function="nope",
                            device="local-sync")


def test_empty_array():
    import kiln.compiler
    src = """func.func @neg(%a: tensor<0xf32>) -> tensor<0xf32> {
  %0 = stablehlo.negate %a : tensor<0xf32>
  return %0 : tensor<0xf32>
}"""
    m = rt.load_vm_flatbuffer(kiln.compiler.compile_str(
        src, target_backends=["vmvx"]))
    result = m.neg(np.zeros(0, np.float32))
    assert result.shape == (0,) and result.to_host().size == 0


def test_uninitialized_objects_raise():
    from kiln import _runtime
    with pytest.raises(RuntimeError, match="Session is not initialized"):
        _runtime.Session.__new__(_runtime.Session).lookup("f")
    with pytest.raises(RuntimeError, match="Module is not initialized"):
        _runtime.Module.__new__(_runtime.Module).function_names
    with pytest.raises(TypeError, match="expects a kiln._runtime.Module"):
        _runtime.Session("local-sync").load(b"bytes")


PARAMETER_MODEL = """
util.global private @w = #flow.parameter.named<"model"::"w"> : tensor<3xf32>
func.func @scale(%x: tensor<3xf32>) -> tensor<3xf32> {
  %w = util.global.load @w : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
      affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%x, %w : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}"""


def test_parameters_from_safetensors(tmp_path):
    import json
    import struct
    import kiln.compiler
    w = np.array([2, -3, 0.5], np.float32)
    header = json.dumps({"w": {"dtype": "F32", "shape": [3],
                               "data_offsets": [0, 12]}}).encode()
    path = tmp_path / "w.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + w.tobytes())
    module = rt.VmModule.copy_buffer(None, kiln.compiler.compile_str(
        PARAMETER_MODEL, target_backends=["vmvx"]))
    x = np.array([1, 2, 3], np.float32)
    ctx = rt.SystemContext(config=rt.Config(
        "local-sync", parameters=[f"model={path}"]))
    bound = ctx.add_vm_module(module)
    np.testing.assert_array_equal(bound.scale(x), x * w)
    with pytest.raises(rt.KilnError, match="needs parameter 'model'::'w'"):
        rt.load_vm_module(module, rt.Config("local-sync"))
    ctx = rt.SystemContext(config=rt.Config("local-sync"))
    with pytest.raises(rt.KilnError, match="cannot open parameter file"):
        ctx.add_parameters(f"model={tmp_path / 'missing.irpa'}")
