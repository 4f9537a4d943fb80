"""kiln.runtime: load and call compiled kiln modules from Python.

Shaped like iree.runtime (Config, VmInstance, VmModule, SystemContext,
load_vm_module, DeviceArray, benchmark_module), so that porting a script is
mostly renaming the import. Arguments are numpy arrays (or anything
numpy.asarray accepts), DeviceArrays and Python scalars; array results are
DeviceArrays. Errors raise KilnError with kiln's message.

Threading: objects may be used from several threads; calls on one context
run one at a time (the GIL is released while kiln runs).
"""

import json
import mmap as _mmap
import os
import shutil
import subprocess
import tempfile
import weakref

import numpy as np

from . import _runtime

KilnError = _runtime.KilnError


class FunctionNotFoundError(KilnError, KeyError):
    """module["name"] of a function the module does not export: a KilnError
    with kiln's message, and a KeyError as in iree.runtime."""
    __str__ = BaseException.__str__


class BenchmarkToolError(KilnError):
    """kiln-benchmark-module failed; the message holds its output."""


class BenchmarkTimeoutError(KilnError):
    """kiln-benchmark-module ran past benchmark_module's timeout."""

__all__ = [
    "BenchmarkResult",
    "BenchmarkTimeoutError",
    "BenchmarkToolError",
    "FunctionNotFoundError",
    "BoundModule",
    "HalFence",
    "Config",
    "DeviceArray",
    "KilnError",
    "SystemContext",
    "VmFunction",
    "VmInstance",
    "VmModule",
    "benchmark_module",
    "load_vm_flatbuffer",
    "load_vm_flatbuffer_file",
    "load_vm_module",
    "load_vm_modules",
]

# numpy dtype -> kiln's element type name. Integers map to signless types,
# the ones the compiler's tensors (tensor<4xi32>) check for.
_ELEMENT_TYPE_NAMES = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "cf64",
    np.dtype(np.complex128): "cf128",
}
_ELEMENT_TYPES = {
    dtype: _runtime.parse_element_type(name)
    for dtype, name in _ELEMENT_TYPE_NAMES.items()
}


class Config:
    """Which device a context runs on: a URI, "local-task" (default) or
    "local-sync", as iree.runtime.Config(driver_name).

    worker_count: local-task's threads per dispatch, the calling (or queue)
    thread included, so worker_count - 1 pool threads; 0 = one per CPU.
    parameters: parameter files (.irpa, .safetensors) as "scope=path" or
    "path", what the run tools' --parameters take; contexts made with this
    config resolve their modules' parameters from them.

    allow_native_executables: run llvm-cpu modules (native code, trusted as
    the compiler's output is). Default True: a module compiled by
    kiln.compiler for llvm-cpu runs as it does in iree.runtime.
    """

    def __init__(self, driver_name=None, *, device=None, worker_count=0,
                 allow_native_executables=True, parameters=()):
        if device is not None and driver_name is not None:
            raise ValueError("give driver_name or device, not both")
        uri = device if device is not None else driver_name
        # iree.runtime takes "a,b" meaning the first available: every kiln
        # driver is, so the first one.
        self.device_uri = (uri or "local-task").split(",")[0].strip()
        self.driver_name = self.device_uri
        self.worker_count = int(worker_count)
        self.allow_native_executables = bool(allow_native_executables)
        # Parameter files, as the run tools' --parameters: "scope=path" or
        # "path" (the empty scope).
        self.parameters = [str(p) for p in parameters]

    def __repr__(self):
        return f"<kiln.runtime.Config device={self.device_uri!r}>"


class VmInstance:
    """The VM's root object. kiln's instances hold no state a module needs,
    so this exists for iree.runtime's call shapes (VmModule.mmap(instance,
    path))."""


class VmModule:
    """A validated module image (.kmod). Build with mmap, copy_buffer or
    from_buffer; a module whose bytes are not a kiln module raises
    KilnError."""

    def __init__(self, raw, image):
        self._raw = raw
        self._image = image  # the bytes |raw| borrows

    @staticmethod
    def mmap(instance, path, destroy_callback=None):
        """Maps |path| read-only; the mapping lives as long as the module.
        |destroy_callback| (no arguments) runs once the module is gone."""
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size == 0:
                data = b""  # mmap refuses empty files; kiln names the error
            else:
                data = _mmap.mmap(f.fileno(), 0, access=_mmap.ACCESS_READ)
        try:
            module = VmModule(_runtime.Module(data), data)
        except KilnError as e:
            raise KilnError(f"{e} (module file '{path}')") from None
        if destroy_callback is not None:
            weakref.finalize(module, destroy_callback)
        return module

    @staticmethod
    def copy_buffer(instance, buffer):
        """Copies |buffer| (bytes-like) and loads the copy."""
        data = bytes(buffer)
        return VmModule(_runtime.Module(data), data)

    @staticmethod
    def from_buffer(instance, buffer, warn_if_copy=True):
        """Loads |buffer| in place: it must stay unchanged (the module keeps
        a reference to it)."""
        return VmModule(_runtime.Module(buffer), buffer)

    from_flatbuffer = from_buffer

    @property
    def name(self):
        return self._raw.name

    @property
    def function_names(self):
        return self._raw.function_names

    def __repr__(self):
        return (f"<kiln.runtime.VmModule {self.name} "
                f"functions={self.function_names}>")


def _dtype_of(element_type):
    for dtype, code in _ELEMENT_TYPES.items():
        if code == element_type:
            return dtype
    return None


class HalFence:
    """A HAL fence: a set of semaphore timepoints, the unit in which async
    (coarse-fences) functions wait and signal. Made by
    SystemContext.create_fence() or returned by VmFunction.call_async."""

    def __init__(self, raw):
        self._raw = raw

    def wait(self, timeout=None):
        """Blocks until the fence is reached (the GIL is released). Raises
        KilnError DEADLINE_EXCEEDED after |timeout| seconds, or the error of
        the work that was to signal it."""
        self._raw.wait(timeout)

    def signal(self):
        """Marks the fence reached (e.g. a wait fence handed to a call)."""
        self._raw.signal()

    @property
    def reached(self):
        return self._raw.reached

    def __repr__(self):
        return f"<kiln.runtime.HalFence reached={self.reached}>"


class DeviceArray:
    """An array result in device memory. numpy.asarray(a), a.to_host() and
    numpy operations on it read the device memory in place (kiln's devices
    are CPU devices), so no copy happens until numpy makes one. A result of
    VmFunction.call_async waits for its call's fence before it is read."""

    def __init__(self, raw, ready_fence=None):
        self._raw = raw
        self._ready_fence = ready_fence

    @property
    def shape(self):
        return self._raw.shape

    @property
    def dtype(self):
        return self.to_host().dtype

    @property
    def ndim(self):
        return len(self._raw.shape)

    @property
    def size(self):
        return int(np.prod(self._raw.shape, dtype=np.int64))

    @property
    def element_type(self):
        """kiln's element type name ("f32", "i32", ...)."""
        return self._raw.element_type_name

    def to_host(self):
        """A numpy array viewing the result's memory (kept alive by it)."""
        if self._ready_fence is not None:
            self._ready_fence.wait()
            self._ready_fence = None
        return np.asarray(self._raw)

    def __array__(self, dtype=None, copy=None):
        # |copy| is numpy 2's keyword: True asks for an array of its own.
        host = self.to_host()
        if dtype is not None:
            host = host.astype(dtype, copy=False)
        return host.copy() if copy else host

    def __len__(self):
        return self._raw.shape[0] if self._raw.shape else 0

    def __getitem__(self, index):
        return self.to_host()[index]

    def astype(self, dtype):
        return self.to_host().astype(dtype)

    def tolist(self):
        return self.to_host().tolist()

    def __repr__(self):
        dims = "".join(f"{d}x" for d in self.shape)
        return f"<kiln.runtime.DeviceArray {dims}{self.element_type}>"

    def __str__(self):
        return str(self.to_host())


class VmFunction:
    """An exported function bound to a context: call it with the function's
    arguments, get its results (one value, a tuple of several, or None)."""

    def __init__(self, session, name, module_index, ordinal, signature,
                 is_async=False):
        self._session = session
        self.name = name
        self._module_index = module_index
        self._ordinal = ordinal
        self.signature = signature
        self._arg_types = signature.split("->")[0]
        self._is_async = is_async

    def _convert(self, value, expected):
        if isinstance(value, DeviceArray):
            return value._raw
        if expected in ("i", "I", "f", "F") and isinstance(
                value, (bool, int, float, np.number)) and np.ndim(value) == 0:
            return value.item() if isinstance(value, np.number) else value
        if isinstance(value, (bool, np.generic)):
            array = np.asarray(value)  # numpy scalars keep their dtype
        elif isinstance(value, int):
            array = np.asarray(value, dtype=np.int32)
        elif isinstance(value, float):
            array = np.asarray(value, dtype=np.float32)
        else:
            array = np.asarray(value)
        if array.dtype.byteorder == ">":
            array = array.astype(array.dtype.newbyteorder("<"))
        # Strided views and Fortran order are copied, never refused
        # (np.ascontiguousarray would also turn 0-d arrays into 1-d ones).
        if not array.flags.c_contiguous:
            array = array.copy(order="C")
        element_type = _ELEMENT_TYPES.get(array.dtype)
        if element_type is None:
            raise TypeError(
                f"kiln: arrays of dtype {array.dtype} are not supported "
                f"(supported: {', '.join(str(d) for d in _ELEMENT_TYPES)})")
        return (array, element_type)

    @property
    def is_async(self):
        """True for a coarse-fences function (iree.abi.model = "coarse-fences",
        e.g. compiled with --iree-execution-model=async-external): its last
        two arguments are a wait and a signal fence, which calls supply."""
        return self._is_async

    def _invoke(self, args, **fences):
        converted = tuple(
            self._convert(a, self._arg_types[i] if i < len(self._arg_types)
                          else "")
            for i, a in enumerate(args))
        return self._session.invoke(self._module_index, self._ordinal,
                                    converted, **fences)

    @staticmethod
    def _pack(results, ready_fence=None):
        results = tuple(
            DeviceArray(r, ready_fence) if isinstance(r, _runtime.BufferView)
            else r for r in results)
        if not results:
            return None
        return results[0] if len(results) == 1 else results

    def __call__(self, *args):
        """Calls the function and returns once its results are ready (an
        async function gets the fences it needs and is waited for)."""
        return self._pack(self._invoke(args))

    def call_async(self, *args, wait_fence=None):
        """Calls a coarse-fences function without waiting: the work starts
        once |wait_fence| (a HalFence, or None for now) is reached. Returns
        (results, done): |done| is the HalFence the work signals; the
        results' DeviceArrays wait for it when they are first read."""
        if not self._is_async:
            raise KilnError(
                f"INVALID_ARGUMENT: '{self.name}' does not use the "
                "coarse-fences ABI (compile with "
                "--iree-execution-model=async-external); call it directly")
        done = HalFence(self._session.create_fence())
        results = self._invoke(
            args, wait_fence=wait_fence._raw if wait_fence else None,
            signal_fence=done._raw)
        return self._pack(results, done), done

    def __repr__(self):
        return f"<kiln.runtime.VmFunction {self.name}({self.signature})>"


class BoundModule:
    """A module linked into a context: its functions as attributes
    (ctx.modules.module.main) or items (ctx.modules.module["main"])."""

    def __init__(self, context, vm_module):
        self._context = context
        self._vm_module = vm_module
        self._functions = {}

    @property
    def name(self):
        return self._vm_module.name

    def __getitem__(self, name):
        function = self._functions.get(name)
        if function is None:
            # Qualified: only this module, even where others export |name|.
            try:
                index, ordinal, signature, is_async = (
                    self._context._session.lookup(f"{self.name}.{name}"))
            except KilnError as e:
                if not str(e).startswith("NOT_FOUND"):
                    raise
                raise FunctionNotFoundError(str(e)) from None
            function = VmFunction(self._context._session, name, index,
                                  ordinal, signature, is_async)
            self._functions[name] = function
        return function

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except FunctionNotFoundError as e:
            raise AttributeError(str(e)) from None

    def __dir__(self):
        return list(self._vm_module.function_names)

    def __repr__(self):
        return f"<kiln.runtime.BoundModule {self.name}>"


class _Modules(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(
                f"no module '{name}' in the context (modules: "
                f"{', '.join(self) or 'none'})") from None


class SystemContext:
    """A device plus the modules linked on it, in order: a later module's
    imports resolve against earlier modules' exports, and all of them share
    the device. ctx.modules.<name> gives a module's BoundModule. Module names
    must differ (`module @name` in the source). Adding a module relinks the
    context, so earlier modules' state (their globals) starts afresh."""

    def __init__(self, vm_modules=None, config=None):
        self.config = config or Config()
        self._session = _runtime.Session(
            self.config.device_uri, self.config.worker_count,
            self.config.allow_native_executables)
        for value in self.config.parameters:
            self._session.add_parameters(value)
        self.modules = _Modules()
        for m in vm_modules or ():
            self.add_vm_module(m)

    def add_vm_module(self, vm_module):
        self._session.load(vm_module._raw)
        bound = BoundModule(self, vm_module)
        self.modules[vm_module.name] = bound
        return bound

    def add_parameters(self, value):
        """Adds a parameter file (.irpa or .safetensors) as `--parameters`
        does ("scope=path" or "path"): modules added afterwards resolve
        their #flow.parameter.named globals from it."""
        self._session.add_parameters(str(value))

    def add_vm_modules(self, vm_modules):
        for m in vm_modules:
            self.add_vm_module(m)

    def create_fence(self):
        """A HalFence on a new semaphore of the context's device: hand it to
        VmFunction.call_async as a wait fence and signal() it to start."""
        return HalFence(self._session.create_fence())

    def __repr__(self):
        return (f"<kiln.runtime.SystemContext {self.config.device_uri} "
                f"modules={list(self.modules)}>")


def load_vm_module(vm_module, config=None):
    """Links |vm_module| into a new context; returns its BoundModule."""
    return SystemContext(config=config).add_vm_module(vm_module)


def load_vm_modules(*vm_modules, config=None):
    """Links |vm_modules| in order into one new context; returns their
    BoundModules."""
    context = SystemContext(config=config)
    return [context.add_vm_module(m) for m in vm_modules]


def load_vm_flatbuffer(buffer, *, driver=None, backend=None):
    """Copies the module bytes |buffer| and loads them on |driver|."""
    return load_vm_module(VmModule.copy_buffer(VmInstance(), buffer),
                          Config(driver))


def load_vm_flatbuffer_file(path, *, driver=None, backend=None):
    return load_vm_module(VmModule.mmap(VmInstance(), path), Config(driver))


#===-------------------------------------------------------------------===#
# Benchmarking (kiln-benchmark-module)
#===-------------------------------------------------------------------===#


class BenchmarkResult:
    def __init__(self, benchmark_name, time, cpu_time, iterations, user_counters):
        self.benchmark_name = benchmark_name
        self.time = time
        self.cpu_time = cpu_time
        self.iterations = iterations
        self.user_counters = user_counters

    def __repr__(self):
        return (f"<BenchmarkResult {self.benchmark_name} time={self.time} "
                f"iterations={self.iterations}>")


def _find_tool(name):
    """kiln's tools: $KILN_TOOLS_DIR, the install's bin/ beside the
    package (PREFIX/lib/python3.X/site-packages/kiln), then PATH."""
    candidates = []
    if os.environ.get("KILN_TOOLS_DIR"):
        candidates.append(os.path.join(os.environ["KILN_TOOLS_DIR"], name))
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "..", "..", "..", "..", "bin", name))
    candidates.append(os.path.join(here, "..", "..", "bin", name))  # build/
    for c in candidates:
        if os.access(c, os.X_OK):
            return os.path.normpath(c)
    found = shutil.which(name)
    if found:
        return found
    raise KilnError(f"NOT_FOUND: {name} not found (set KILN_TOOLS_DIR)")


def _input_flag(value):
    array = np.asarray(value)
    name = _ELEMENT_TYPE_NAMES.get(array.dtype)
    if name is None:
        raise TypeError(f"kiln: benchmark inputs of dtype {array.dtype} are "
                        "not supported")
    dims = "x".join(str(d) for d in array.shape)
    values = " ".join(repr(v) for v in array.reshape(-1).tolist())
    if array.dtype == np.bool_:
        values = " ".join("1" if v else "0" for v in array.reshape(-1))
    return f"--input={dims + 'x' if dims else ''}{name}={values}"


def benchmark_module(module, entry_function=None, inputs=(), timeout=None,
                     device="local-task", **kwargs):
    """Benchmarks |entry_function| of |module| (a VmModule or a .kmod path)
    with kiln-benchmark-module; returns a list of BenchmarkResult. |inputs|
    are arrays, scalars or kiln's input strings ("4xf32=1 2 3 4"); further
    keyword arguments become --key=value flags."""
    tool = _find_tool("kiln-benchmark-module")
    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(module, VmModule):
            path = os.path.join(tmp, "module.kmod")
            with open(path, "wb") as f:
                f.write(memoryview(module._image))
        else:
            path = os.fspath(module)
        args = [tool, f"--module={path}", f"--device={device}",
                "--benchmark_format=json"]
        if entry_function:
            args.append(f"--function={entry_function}")
        args += [f"--input={v}" if isinstance(v, str) else _input_flag(v)
                 for v in inputs or ()]
        args += [f"--{k}={v}" for k, v in kwargs.items()]
        try:
            run = subprocess.run(args, capture_output=True, text=True,
                                 timeout=timeout)
        except subprocess.TimeoutExpired:
            raise BenchmarkTimeoutError(
                f"DEADLINE_EXCEEDED: kiln-benchmark-module ran past "
                f"{timeout} s") from None
    if run.returncode != 0:
        raise BenchmarkToolError(
            f"kiln-benchmark-module failed: "
            f"{run.stderr.strip() or run.stdout.strip()}")
    report = json.loads(run.stdout[run.stdout.index("{"):])
    return [
        BenchmarkResult(b["name"], f"{b['real_time']} {b['time_unit']}",
                        f"{b['cpu_time']} {b['time_unit']}", b["iterations"],
                        {k: v for k, v in b.items() if k not in (
                            "name", "real_time", "cpu_time", "time_unit",
                            "iterations")})
        for b in report.get("benchmarks", [])
    ]
