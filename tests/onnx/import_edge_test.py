#!/usr/bin/python3
"""ONNX import edge cases found by onnx_import_fuzzer, each a small model
written here with python3-onnx and compiled by kiln-compile (in the ASan
build too, label "tools", so undefined behaviour fails the test):

  * a float constant far outside int64's range cast to INT64 at import
    (shape folding): saturates as arith.fptosi does (NaN -> 0), instead of
    an undefined conversion.
  * a graph input with a symbolic (dim_param) or unknown dimension: kiln
    compiles static shapes only, so the import fails (exit 1) with one line
    naming the input and the dimension.
  * a Reshape shape whose entries overflow int64 when multiplied.
  * a Trilu of a complex tensor: its zero constant was written as a 16-byte
    integer from an 8-byte one (stack read overflow in ASan); now a complex
    zero, and the import fails cleanly at the complex select.

Usage: import_edge_test.py BIN_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]


def main():
    with tempfile.TemporaryDirectory() as work:
        values = np.array([3.4e33, -3.4e33, np.nan, 7.9], np.float32)
        nodes = [
            helper.make_node("Constant", [], ["c"],
                             value=numpy_helper.from_array(values, "v")),
            helper.make_node("Cast", ["c"], ["y"], to=TensorProto.INT64),
        ]
        graph = helper.make_graph(
            nodes, "cast_out_of_range", [],
            [helper.make_tensor_value_info("y", TensorProto.INT64, [4])])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 17)])
        path = os.path.join(work, "m.onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
        kmod = os.path.join(work, "m.kmod")
        p = subprocess.run([os.path.join(BIN, "kiln-compile"),
                            "--iree-hal-target-backends=vmvx", path, "-o",
                            kmod], capture_output=True, text=True)
        if p.returncode:
            sys.exit("FAILED: compile: " + p.stderr)
        p = subprocess.run([os.path.join(BIN, "kiln-run-module"),
                            "--module=" + kmod, "--device=local-sync",
                            "--function=cast_out_of_range"],
                           capture_output=True, text=True)
        want = "4xi64=9223372036854775807 -9223372036854775808 0 7"
        if p.returncode or want not in p.stdout:
            sys.exit("FAILED: run: want %r in:\n%s%s" % (want, p.stdout,
                                                         p.stderr))
        for dims, want in (
            (["n", 3], "'X': symbolic dimension 'n' (dim 0) is not supported yet"),
            ([2, None], "'X': unknown dimension 1 is not supported yet")):
            graph = helper.make_graph(
                [helper.make_node("Abs", ["X"], ["Y"])], "symbolic",
                [helper.make_tensor_value_info("X", TensorProto.FLOAT, dims)],
                [helper.make_tensor_value_info("Y", TensorProto.FLOAT, dims)])
            model = helper.make_model(
                graph, opset_imports=[helper.make_opsetid("", 17)])
            with open(path, "wb") as f:
                f.write(model.SerializeToString())
            p = subprocess.run([os.path.join(BIN, "kiln-compile"), path, "-o",
                                kmod], capture_output=True, text=True)
            if p.returncode != 1 or want not in p.stderr:
                sys.exit("FAILED: dims %r: want exit 1 and %r, got %d:\n%s" %
                         (dims, want, p.returncode, p.stderr))
    print("import_edge_test: passed")


def expect_import_error(work, graph, label, want):
    """Compiles |graph| (opset 17) and expects exit 1 with |want| in the
    error."""
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    path = os.path.join(work, "m.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    p = subprocess.run([os.path.join(BIN, "kiln-compile"),
                        "--iree-hal-target-backends=vmvx", path, "-o",
                        os.path.join(work, "m.kmod")],
                       capture_output=True, text=True)
    if p.returncode != 1 or want not in p.stderr:
        sys.exit("FAILED: %s: want exit 1 and %r, got %d:\n%s"
                 % (label, want, p.returncode, p.stderr))


def empty_attribute_lists():
    """Attribute lists of the wrong length, found by onnx_import_fuzzer: an
    ints attribute present but empty (Transpose perm=[]: its copy read a
    NULL array), a ConvTranspose output_shape shorter than the spatial rank
    (indexed at -1), a 2-D DequantizeLinear scale (read past its one
    broadcast dimension). Each is an error naming it."""
    with tempfile.TemporaryDirectory() as work:
        node = helper.make_node("Transpose", ["X"], ["Y"])
        perm = node.attribute.add()
        perm.name = "perm"
        perm.type = onnx.AttributeProto.INTS
        expect_import_error(work, helper.make_graph(
            [node], "empty_perm",
            [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [3, 2])]),
            "empty perm", "perm has 0 entries for rank 2")
        expect_import_error(work, helper.make_graph(
            [helper.make_node("ConvTranspose", ["X", "W"], ["Y"],
                              output_shape=[5])], "short_output_shape",
            [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 1, 3, 3]),
             helper.make_tensor_value_info("W", TensorProto.FLOAT, [1, 1, 2, 2])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 1, 5, 5])]),
            "short output_shape", "output_shape has 1 entries for 2 spatial dims")
        scale = numpy_helper.from_array(np.ones((2, 3), np.float32), "s")
        expect_import_error(work, helper.make_graph(
            [helper.make_node("DequantizeLinear", ["X", "s"], ["Y"])],
            "scale_2d",
            [helper.make_tensor_value_info("X", TensorProto.INT8, [2, 3])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])],
            initializer=[scale]),
            "2-D scale", "must be a scalar or 1-D with one value per slice")


def reshape_shape_overflow():
    """A Reshape whose constant shape's entries multiply past 2^63 (found by
    onnx_import_fuzzer: signed overflow in the known-elements product,
    undefined behaviour that UBSan reports): an error naming the entry."""
    with tempfile.TemporaryDirectory() as work:
        shape = numpy_helper.from_array(
            np.array([-1, 13194139533309, 4194303, 1000], np.int64), "shape")
        expect_import_error(work, helper.make_graph(
            [helper.make_node("Reshape", ["X", "shape"], ["Y"])],
            "reshape_overflow",
            [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [6])],
            initializer=[shape]),
            "reshape overflow",
            "the shape's element count overflows 64 bits (entry 2 is 4194303)")


def trilu_complex():
    """Trilu of complex64 and complex128 (found by onnx_import_fuzzer in a
    CI smoke run): the masked-out zero is a complex constant; select on
    complex tensors is not lowered yet, which is the error (exit 1)."""
    with tempfile.TemporaryDirectory() as work:
        for t in (TensorProto.COMPLEX64, TensorProto.COMPLEX128):
            expect_import_error(work, helper.make_graph(
                [helper.make_node("Trilu", ["X"], ["Y"], upper=0)],
                "trilu_complex",
                [helper.make_tensor_value_info("X", t, [2, 3])],
                [helper.make_tensor_value_info("Y", t, [2, 3])]),
                "trilu complex",
                "'stablehlo.select' op on complex tensors is not supported")


if __name__ == "__main__":
    trilu_complex()
    reshape_shape_overflow()
    empty_attribute_lists()
    main()
