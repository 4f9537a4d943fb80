#!/usr/bin/python3
"""ONNX sequences, optionals and Loop through the importer, against numpy:

  * a sequence graph input and output (SequenceProto test data, one
    argument/result per element: kiln-import-onnx --inputs-like, then
    kiln-run-module sequence=@file.pb), SequenceInsert/Erase/At with
    constant positions, SequenceLength, ConcatFromSequence (new_axis) and
    SplitToSequence (scalar split);
  * an optional graph input (OptionalProto) read by OptionalHasElement and
    OptionalGetElement;
  * Loop unrolled (a constant trip count) carrying a sequence, Loop with a
    run-time trip count as stablehlo.while (a loop-carried tensor and a
    scan output of the declared type), and as predicated iterations over
    the declared scan length when the body slices at the iteration number;
    a trip count other than the declared scan length fails at run time;
  * clean import errors: a constant position out of range, a sequence input
    without sample data, a run-time Loop with an undeclared scan output and
    one that carries a sequence.

llvm-cpu and vmvx.

Usage: sequence_loop_test.py BIN_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]
OPSET = [helper.make_opsetid("", 16)]
F = TensorProto.FLOAT


def tool(name, *args):
    return subprocess.run([os.path.join(BIN, name)] + list(args),
                          capture_output=True, text=True)


def seq_info(name, shape=None):
    elem = helper.make_tensor_type_proto(F, shape)
    return helper.make_value_info(name, helper.make_sequence_type_proto(elem))


def write(path, proto):
    with open(path, "wb") as fh:
        fh.write(proto.SerializeToString())


def run_model(work, model, function, inputs, want, inputs_like=False):
    """Imports (with the inputs as samples when |inputs_like|), compiles
    and runs |model| on both backends; |inputs| are (spec prefix, proto)
    pairs; |want| the expected results, one array per function result, or
    a string: the run fails (exit 1) with that in its message."""
    path = os.path.join(work, function + ".onnx")
    write(path, model)
    data = os.path.join(work, function + "_data")
    os.makedirs(data, exist_ok=True)
    specs = []
    for k, (prefix, proto) in enumerate(inputs):
        pb = os.path.join(data, "input_%d.pb" % k)
        write(pb, proto)
        specs.append("--input=%s@%s" % (prefix, pb))
    source = path
    if inputs_like:
        source = os.path.join(work, function + ".mlir")
        r = tool("kiln-import-onnx", "--inputs-like=" + data, path, "-o",
                 source)
        if r.returncode:
            sys.exit("FAILED: import %s: %s" % (function, r.stderr))
    for backend in ("llvm-cpu", "vmvx"):
        kmod = os.path.join(work, function + ".kmod")
        r = tool("kiln-compile", "--iree-hal-target-backends=" + backend,
                 source, "-o", kmod)
        if r.returncode:
            sys.exit("FAILED: compile %s (%s): %s" % (function, backend,
                                                      r.stderr))
        if isinstance(want, str):
            r = tool("kiln-run-module", "--module=" + kmod,
                     "--device=local-sync", "--function=" + function, *specs)
            if r.returncode != 1 or want not in r.stderr:
                sys.exit("FAILED: run %s (%s): want exit 1 and %r, got %d: "
                         "%s%s" % (function, backend, want, r.returncode,
                                   r.stdout, r.stderr))
            continue
        outs = [os.path.join(work, "%s_o%d.npy" % (function, i))
                for i in range(len(want))]
        r = tool("kiln-run-module", "--module=" + kmod, "--device=local-sync",
                 "--function=" + function, *specs,
                 *["--output=@" + o for o in outs])
        if r.returncode:
            sys.exit("FAILED: run %s (%s): %s%s" % (function, backend,
                                                    r.stdout, r.stderr))
        for i, (o, y) in enumerate(zip(outs, want)):
            got = np.load(o)
            if got.shape != y.shape or not np.allclose(got, y, rtol=1e-6):
                sys.exit("FAILED: %s (%s) result %d: %r, want %r" % (
                    function, backend, i, got, y))


def expect_import_error(work, model, name, message, inputs_like=None):
    path = os.path.join(work, name + ".onnx")
    write(path, model)
    args = ["--inputs-like=" + inputs_like] if inputs_like else []
    r = tool("kiln-import-onnx", *args, path)
    if r.returncode == 0 or message not in r.stderr:
        sys.exit("FAILED: %s: want an import error with %r, got rc %d: %s" %
                 (name, message, r.returncode, r.stderr))
    if len(r.stderr.strip().splitlines()) != 1:
        sys.exit("FAILED: %s: the error is not one line: %s" % (name,
                                                               r.stderr))


def const_i64(name, value):
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(
        name + "_v", TensorProto.INT64, [], [value]))


def sequences(work, rng):
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((2, 3)).astype(np.float32)
    t = rng.standard_normal((2, 3)).astype(np.float32)
    nodes = [
        const_i64("one", 1),
        const_i64("last", -1),
        # [a, b] -> [a, t, b] -> erase the last -> [a, t]
        helper.make_node("SequenceInsert", ["s", "t", "one"], ["s1"]),
        helper.make_node("SequenceErase", ["s1", "last"], ["s2"]),
        helper.make_node("SequenceAt", ["s2", "last"], ["at"]),
        helper.make_node("SequenceLength", ["s1"], ["len"]),
        helper.make_node("ConcatFromSequence", ["s1"], ["stacked"], axis=-1,
                         new_axis=1),
        helper.make_node("Constant", [], ["two"], value=helper.make_tensor(
            "two_v", TensorProto.INT64, [], [2])),
        helper.make_node("SplitToSequence", ["t", "two"], ["parts"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "seq", [seq_info("s"), helper.make_tensor_value_info(
            "t", F, [2, 3])],
        [seq_info("s2"), helper.make_tensor_value_info("at", F, [2, 3]),
         helper.make_tensor_value_info("len", TensorProto.INT64, []),
         helper.make_tensor_value_info("stacked", F, [2, 3, 3]),
         seq_info("parts")])
    model = helper.make_model(graph, opset_imports=OPSET)
    inputs = [("sequence=", numpy_helper.from_list([a, b], "s")),
              ("", numpy_helper.from_array(t, "t"))]
    want = [a, t, t, np.array(3, np.int64), np.stack([a, t, b], axis=-1),
            t[:, 0:2], t[:, 2:3]]
    run_model(work, model, "seq", inputs, want, inputs_like=True)
    # Without sample data the sequence input is refused, naming the option.
    expect_import_error(work, model, "seq_no_samples", "--inputs-like")


def optionals(work, rng):
    x = rng.standard_normal((4,)).astype(np.float32)
    opt = helper.make_value_info("o", helper.make_optional_type_proto(
        helper.make_tensor_type_proto(F, [4])))
    nodes = [helper.make_node("OptionalHasElement", ["o"], ["has"]),
             helper.make_node("OptionalGetElement", ["o"], ["x"]),
             helper.make_node("Neg", ["x"], ["y"])]
    graph = helper.make_graph(
        nodes, "opt", [opt],
        [helper.make_tensor_value_info("has", TensorProto.BOOL, []),
         helper.make_tensor_value_info("y", F, [4])])
    model = helper.make_model(graph, opset_imports=OPSET)
    run_model(work, model, "opt",
              [("optional=", numpy_helper.from_optional(x, "o"))],
              [np.array(True), -x], inputs_like=True)


def loop_body(carry_info, nodes, outputs):
    return helper.make_graph(
        nodes, "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         carry_info], outputs)


def loops(work, rng):
    # Unrolled: trip count 3 (a constant), a sequence carried, each
    # iteration appends x * i.
    x = rng.standard_normal((2,)).astype(np.float32)
    body = loop_body(seq_info("acc"), [
        helper.make_node("Identity", ["c"], ["c_out"]),
        helper.make_node("Cast", ["i"], ["fi"], to=F),
        helper.make_node("Mul", ["x", "fi"], ["xi"]),
        helper.make_node("SequenceInsert", ["acc", "xi"], ["acc_out"]),
    ], [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
        seq_info("acc_out")])
    nodes = [const_i64("m", 3),
             helper.make_node("Constant", [], ["true"],
                              value=helper.make_tensor(
                                  "t_v", TensorProto.BOOL, [], [1])),
             helper.make_node("SequenceEmpty", [], ["empty"], dtype=F),
             helper.make_node("Loop", ["m", "true", "empty"], ["seq"],
                              body=body)]
    graph = helper.make_graph(nodes, "unrolled",
                              [helper.make_tensor_value_info("x", F, [2])],
                              [seq_info("seq")])
    model = helper.make_model(graph, opset_imports=OPSET)
    run_model(work, model, "unrolled", [("", numpy_helper.from_array(x, "x"))],
              [x * 0, x * 1, x * 2])

    # stablehlo.while: a run-time trip count, y += x each iteration, the
    # running y as a scan output of the declared 4x2 type.
    y0 = rng.standard_normal((2,)).astype(np.float32)
    body = loop_body(helper.make_tensor_value_info("y", F, [2]), [
        helper.make_node("Identity", ["c"], ["c_out"]),
        helper.make_node("Add", ["y", "x"], ["y_out"]),
        helper.make_node("Identity", ["y_out"], ["scan"]),
    ], [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
        helper.make_tensor_value_info("y_out", F, [2]),
        helper.make_tensor_value_info("scan", F, [2])])

    def while_model(scan_shape):
        graph = helper.make_graph(
            [helper.make_node("Loop", ["m", "", "y0"], ["y", "ys"],
                              body=body)], "runtime",
            [helper.make_tensor_value_info("m", TensorProto.INT64, []),
             helper.make_tensor_value_info("x", F, [2]),
             helper.make_tensor_value_info("y0", F, [2])],
            [helper.make_tensor_value_info("y", F, [2]),
             helper.make_tensor_value_info("ys", F, scan_shape)])
        return helper.make_model(graph, opset_imports=OPSET)

    ys = np.stack([y0 + x * (k + 1) for k in range(4)])
    run_model(work, while_model([4, 2]), "runtime",
              [("", numpy_helper.from_array(np.array(4, np.int64), "m")),
               ("", numpy_helper.from_array(x, "x")),
               ("", numpy_helper.from_array(y0, "y0"))], [ys[-1], ys])
    # Another trip count than the declared 4 rows fails at run time.
    for m in (3, 5):
        run_model(work, while_model([4, 2]), "runtime",
                  [("", numpy_helper.from_array(np.array(m, np.int64), "m")),
                   ("", numpy_helper.from_array(x, "x")),
                   ("", numpy_helper.from_array(y0, "y0"))],
                  "(Loop): the number of iterations run (scan output 0) does "
                  "not match the declared result type tensor<4x2xf32>")
    expect_import_error(work, while_model(None), "while_undeclared_scan",
                        "declares no static type for 'ys'")

    # The body slices a constant at the iteration number, which stablehlo.
    # while cannot know at import: T = 4 predicated iterations for the
    # declared 4x1 scan output, all of which run for M = 4; M = 3 (ONNX
    # gives 3 rows) or 5 disagree with the declared type and fail.
    table = np.array([1, 2, 4, 8, 16], np.float32)
    body = loop_body(helper.make_tensor_value_info("y", F, [1]), [
        helper.make_node("Identity", ["c"], ["c_out"]),
        helper.make_node("Constant", [], ["table"],
                         value=numpy_helper.from_array(table, "table_v")),
        const_i64("one", 1),
        helper.make_node("Add", ["i", "one"], ["end"]),
        helper.make_node("Unsqueeze", ["i"], ["lo"], axes=[0]),
        helper.make_node("Unsqueeze", ["end"], ["hi"], axes=[0]),
        helper.make_node("Slice", ["table", "lo", "hi"], ["entry"]),
        helper.make_node("Add", ["y", "entry"], ["y_out"]),
        helper.make_node("Identity", ["y_out"], ["scan"]),
    ], [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
        helper.make_tensor_value_info("y_out", F, [1]),
        helper.make_tensor_value_info("scan", F, [1])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "", "y0"], ["y", "ys"], body=body)],
        "predicated",
        [helper.make_tensor_value_info("m", TensorProto.INT64, []),
         helper.make_tensor_value_info("y0", F, [1])],
        [helper.make_tensor_value_info("y", F, [1]),
         helper.make_tensor_value_info("ys", F, [4, 1])])
    y1 = np.array([0.5], np.float32)
    sums = y1[0] + np.cumsum(table[:4])
    ys = sums.reshape(4, 1).astype(np.float32)
    predicated = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 11)])
    run_model(work, predicated, "predicated",
              [("", numpy_helper.from_array(np.array(4, np.int64), "m")),
               ("", numpy_helper.from_array(y1, "y0"))],
              [np.array([sums[3]], np.float32), ys])
    for m in (3, 5):
        run_model(work, predicated, "predicated",
                  [("", numpy_helper.from_array(np.array(m, np.int64), "m")),
                   ("", numpy_helper.from_array(y1, "y0"))],
                  "(Loop): the number of iterations run (scan output 0) does "
                  "not match the declared result type tensor<4x1xf32>")

    # A run-time trip count cannot grow a sequence (its length would be
    # known only at run time).
    body = loop_body(seq_info("acc"), [
        helper.make_node("Identity", ["c"], ["c_out"]),
        helper.make_node("SequenceInsert", ["acc", "x"], ["acc_out"]),
    ], [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
        seq_info("acc_out")])
    graph = helper.make_graph(
        [helper.make_node("SequenceEmpty", [], ["empty"], dtype=F),
         helper.make_node("Loop", ["m", "", "empty"], ["seq"], body=body)],
        "seq_loop",
        [helper.make_tensor_value_info("m", TensorProto.INT64, []),
         helper.make_tensor_value_info("x", F, [2])], [seq_info("seq")])
    expect_import_error(
        work, helper.make_model(graph, opset_imports=OPSET), "while_seq",
        "node 'seq' (Loop, opset 16): loop-carried value 0 is sequence")


def position_error(work):
    graph = helper.make_graph(
        [helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
         const_i64("p", 5),
         helper.make_node("SequenceAt", ["s", "p"], ["y"])], "bad_position",
        [helper.make_tensor_value_info("x", F, [2])],
        [helper.make_tensor_value_info("y", F, [2])])
    expect_import_error(
        work, helper.make_model(graph, opset_imports=OPSET), "bad_position",
        "node 'y' (SequenceAt, opset 16): position 5 is out of range for a "
        "sequence of length 2")


def main():
    rng = np.random.default_rng(11)
    with tempfile.TemporaryDirectory() as work:
        sequences(work, rng)
        optionals(work, rng)
        loops(work, rng)
        position_error(work)
    print("sequence_loop_test: passed")


if __name__ == "__main__":
    main()
