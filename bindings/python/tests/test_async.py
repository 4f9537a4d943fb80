# kiln.runtime with coarse-fences (async-external) modules: direct calls
# wait for the work, call_async returns a fence, a call can wait on another's
# fence; results checked against numpy.
import threading

import numpy as np
import pytest

import kiln.compiler
import kiln.runtime as rt

MLIR = """
func.func @mul_add(%a: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<256xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<256xf32>
  %1 = stablehlo.add %0, %a : tensor<256xf32>
  return %1 : tensor<256xf32>
}
"""


@pytest.fixture(scope="module", params=["vmvx", "llvm-cpu"])
def async_bytes(request):
    return kiln.compiler.compile_str(
        MLIR, target_backends=[request.param],
        extra_args=["--iree-execution-model=async-external"])


@pytest.fixture(params=["local-sync", "local-task"])
def context(request, async_bytes):
    ctx = rt.SystemContext(config=rt.Config(request.param))
    ctx.add_vm_module(rt.VmModule.copy_buffer(rt.VmInstance(), async_bytes))
    return ctx


def inputs():
    rng = np.random.default_rng(11)
    a = rng.standard_normal(256).astype(np.float32)
    b = rng.standard_normal(256).astype(np.float32)
    return a, b, a * b + a


def test_direct_call_waits_for_the_work(context):
    f = context.modules.module.mul_add
    assert f.is_async
    a, b, expected = inputs()
    np.testing.assert_allclose(f(a, b).to_host(), expected, rtol=1e-6)


def test_call_async_returns_a_fence(context):
    f = context.modules.module.mul_add
    a, b, expected = inputs()
    result, done = f.call_async(a, b)
    assert isinstance(done, rt.HalFence)
    done.wait(timeout=60)
    assert done.reached
    np.testing.assert_allclose(result.to_host(), expected, rtol=1e-6)


def test_chained_calls(context):
    f = context.modules.module.mul_add
    a, b, _ = inputs()
    first, first_done = f.call_async(a, b)
    # The second call's input is the first's result, ordered by its fence.
    second, second_done = f.call_async(first, b, wait_fence=first_done)
    second_done.wait(timeout=60)
    x = a * b + a
    np.testing.assert_allclose(second.to_host(), x * b + x, rtol=1e-5)


def test_work_waits_for_a_fence_signalled_after_the_call(context):
    # The caller signals the input fence only after call_async returned: on
    # local-sync the work is deferred (a blocking submit would deadlock
    # here) and runs when the fence is signalled.
    f = context.modules.module.mul_add
    a, b, expected = inputs()
    ready = context.create_fence()
    result, done = f.call_async(a, b, wait_fence=ready)
    assert not done.reached
    ready.signal()
    done.wait(timeout=60)
    assert done.reached
    np.testing.assert_allclose(result.to_host(), expected, rtol=1e-6)


def test_fences_on_a_synchronous_function_are_refused():
    data = kiln.compiler.compile_str(MLIR, target_backends=["vmvx"])
    ctx = rt.SystemContext(config=rt.Config("local-sync"))
    ctx.add_vm_module(rt.VmModule.copy_buffer(rt.VmInstance(), data))
    f = ctx.modules.module.mul_add
    assert not f.is_async
    a, b, _ = inputs()
    with pytest.raises(rt.KilnError, match="coarse-fences"):
        f.call_async(a, b)
    with pytest.raises(TypeError, match="wait_fence"):
        ctx._session.invoke(0, 0, (a, b), wait_fence=object())
