"""kiln.compiler: compile MLIR (StableHLO, TOSA, linalg) and ONNX models
into kiln modules, in-process (kiln's compiler driver, compiler/driver).

Shaped like iree.compiler: compile_str / compile_file with
target_backends, input_type, output_file, output_format and extra_args
(kiln-compile's flags). Failures raise CompilerToolError carrying the
driver's diagnostics ("file:line:col: error: ...").
"""

import os
import sys

from . import _compiler

__all__ = [
    "CompilerToolError",
    "InputType",
    "OutputFormat",
    "compile_file",
    "compile_str",
]


class CompilerToolError(Exception):
    """Compilation failed. |message| is kiln's status, |diagnostics| the
    diagnostics the driver printed (may be empty); str() holds both."""

    def __init__(self, message, diagnostics=""):
        super().__init__(message, diagnostics)
        self.message = message
        self.diagnostics = diagnostics

    def __str__(self):
        text = f"kiln compilation failed: {self.message}"
        if self.diagnostics.strip():
            text += "\nDiagnostics:\n" + self.diagnostics.rstrip()
        return text


class InputType:
    """Values of input_type (kiln-compile --iree-input-type)."""
    AUTO = "auto"
    STABLEHLO = "stablehlo"
    TOSA = "tosa"
    LINALG = "linalg"
    NONE = "none"


class OutputFormat:
    """Values of output_format (kiln-compile --output-format)."""
    FLATBUFFER_BINARY = "module"
    MODULE = "module"
    VM_ASM = "vm-asm"
    MLIR_TEXT = "mlir"


def _flags(target_backends, input_type, output_format, extra_args):
    flags = []
    if isinstance(target_backends, str):
        target_backends = [target_backends]
    backends = list(target_backends or ())
    if len(backends) > 1:
        raise CompilerToolError(
            "kiln compiles for one target backend at a time, got "
            f"{backends}")
    if backends:
        flags.append(f"--iree-hal-target-backends={backends[0]}")
    if input_type is not None:
        flags.append(f"--iree-input-type={getattr(input_type, 'value', input_type)}")
    if output_format is not None:
        flags.append(f"--output-format={getattr(output_format, 'value', output_format)}")
    flags += [str(a) for a in extra_args or ()]
    return flags


def _compile(source, filename, output_file, **options):
    try:
        result, log = _compiler.compile(source, filename, _flags(**options))
    except _compiler.CompilerError as e:
        raise CompilerToolError(*e.args) from None
    if log:
        # Warnings and requested dumps (--timing, --mlir-print-ir-*), where
        # kiln-compile prints them.
        sys.stderr.write(log)
    if output_file is not None:
        with open(output_file, "wb") as f:
            f.write(result)
        return None
    return result


def compile_str(input_str, *, target_backends=(), input_type=None,
                output_file=None, output_format=None, extra_args=(),
                filename="<string>"):
    """Compiles |input_str| (MLIR text as str or bytes, or ONNX model
    bytes); returns the output bytes, or None after writing output_file."""
    source = input_str.encode() if isinstance(input_str, str) else bytes(input_str)
    return _compile(source, filename, output_file,
                    target_backends=target_backends, input_type=input_type,
                    output_format=output_format, extra_args=extra_args)


def compile_file(input_file, *, target_backends=(), input_type=None,
                 output_file=None, output_format=None, extra_args=()):
    """Compiles the file |input_file| (.mlir, or an ONNX model: .onnx or
    ONNX bytes); diagnostics name it."""
    path = os.fspath(input_file)
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        raise CompilerToolError(f"cannot read '{path}': {e.strerror}") from None
    if not source.strip():
        raise CompilerToolError(f"input '{path}' is empty")
    return _compile(source, path, output_file,
                    target_backends=target_backends, input_type=input_type,
                    output_format=output_format, extra_args=extra_args)
