#!/usr/bin/python3
"""Run-time checks of shape-like operands (python3-onnx writes the models):
a node whose shape operand is a graph input, so only known at run time, is
compiled for the graph's declared result type and checks the operand when
it runs (cf.assert). Inputs that agree give numpy's result; inputs that
disagree fail the invocation (exit 1) with a message naming the node, on
vmvx and llvm-cpu, local-sync and local-task. Cases: Reshape (with 0 and
-1 entries), Expand (with 1 entries), Range (ceiling lengths, negative
delta), Pad, Slice (negative starts, steps and axes), Tile,
ConstantOfShape, Unsqueeze, Squeeze, Split and ReduceSum's axes; the Loop scan length is in
sequence_loop_test.py.

Usage: runtime_check_test.py BIN_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper

BIN = sys.argv[1]
BACKENDS = ("vmvx", "llvm-cpu")
DEVICES = ("local-sync", "local-task")
failures = []


def value_info(name, array_or_dtype, dims):
    return helper.make_tensor_value_info(name, array_or_dtype, dims)


def compile_model(work, name, node, inputs, output):
    graph = helper.make_graph([node], name, inputs, [output])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 18)])
    path = os.path.join(work, name + ".onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    modules = {}
    for backend in BACKENDS:
        kmod = os.path.join(work, "%s_%s.kmod" % (name, backend))
        p = subprocess.run([os.path.join(BIN, "kiln-compile"),
                            "--iree-hal-target-backends=" + backend, path,
                            "-o", kmod], capture_output=True, text=True)
        if p.returncode:
            sys.exit("FAILED: compile %s (%s): %s" % (name, backend,
                                                       p.stderr))
        modules[backend] = kmod
    return modules


def run(work, modules, name, args):
    """Runs |name| with the numpy |args| on every backend and device;
    yields (label, process, output path)."""
    flags = []
    for i, a in enumerate(args):
        if a.dtype == np.int64:
            # Text form: .npy int64 reads back as signed si64, which an
            # i64 parameter does not take.
            dims = "".join("%dx" % d for d in a.shape)
            flags.append("--input=%si64=%s" %
                         (dims, " ".join(str(v) for v in a.ravel())))
            continue
        path = os.path.join(work, "in%d.npy" % i)
        np.save(path, a)
        flags.append("--input=@" + path)
    for backend, kmod in modules.items():
        for device in DEVICES:
            out = os.path.join(work, "out.npy")
            if os.path.exists(out):
                os.remove(out)
            p = subprocess.run([os.path.join(BIN, "kiln-run-module"),
                                "--module=" + kmod, "--device=" + device,
                                "--function=" + name, "--output=@" + out] +
                               flags, capture_output=True, text=True)
            yield "%s %s/%s" % (name, backend, device), p, out


def expect_result(work, modules, name, args, want):
    for label, p, out in run(work, modules, name, args):
        if p.returncode:
            failures.append("%s %r: exit %d: %s" % (label, args, p.returncode,
                                                    p.stderr))
            continue
        got = np.load(out)
        if got.shape != want.shape or not np.allclose(got, want):
            failures.append("%s %r: got %r, want %r" % (label, args, got,
                                                        want))


def expect_failure(work, modules, name, args, message):
    for label, p, _ in run(work, modules, name, args):
        if p.returncode != 1 or message not in p.stderr or \
                "INVALID_ARGUMENT" not in p.stderr:
            failures.append("%s %r: want exit 1 and %r, got %d: %s%s" %
                            (label, args, message, p.returncode, p.stdout,
                             p.stderr))


def i64(*values):
    return np.array(values, np.int64)


def split_case(work, rng):
    """Split 4x3 along axis 0 into declared 1x3 and 3x3 outputs: the
    run-time split must be [1, 3]."""
    x = rng.standard_normal((4, 3)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Split", ["X", "S"], ["A", "B"], name="split_9")],
        "split",
        [value_info("X", TensorProto.FLOAT, [4, 3]),
         value_info("S", TensorProto.INT64, [2])],
        [value_info("A", TensorProto.FLOAT, [1, 3]),
         value_info("B", TensorProto.FLOAT, [3, 3])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 18)])
    path = os.path.join(work, "split.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    np.save(os.path.join(work, "split_x.npy"), x)
    np.save(os.path.join(work, "split_a.npy"), x[:1])
    np.save(os.path.join(work, "split_b.npy"), x[1:])
    for backend in BACKENDS:
        kmod = os.path.join(work, "split_%s.kmod" % backend)
        p = subprocess.run([os.path.join(BIN, "kiln-compile"),
                            "--iree-hal-target-backends=" + backend, path,
                            "-o", kmod], capture_output=True, text=True)
        if p.returncode:
            sys.exit("FAILED: compile split (%s): %s" % (backend, p.stderr))
        for device in DEVICES:
            for split, good in (("1 3", True), ("2 2", False),
                                ("3 1", False)):
                p = subprocess.run(
                    [os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                     "--device=" + device, "--function=split",
                     "--input=@" + os.path.join(work, "split_x.npy"),
                     "--input=2xi64=" + split,
                     "--expected_output=@" + os.path.join(work, "split_a.npy"),
                     "--expected_output=@" + os.path.join(work, "split_b.npy")],
                    capture_output=True, text=True)
                want = ("node 'split_9' (Split): run-time split does not "
                        "match the declared result type tensor<1x3xf32>")
                if good and p.returncode:
                    failures.append("split %s/%s [%s]: exit %d: %s%s" % (
                        backend, device, split, p.returncode, p.stdout,
                        p.stderr))
                if not good and (p.returncode != 1 or want not in p.stderr):
                    failures.append("split %s/%s [%s]: want exit 1 and %r, "
                                    "got %d: %s" % (backend, device, split,
                                                    want, p.returncode,
                                                    p.stderr))


def main():
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as work:
        # Reshape 2x3x4 -> declared 2x12; the shape is an input.
        x = rng.standard_normal((2, 3, 4)).astype(np.float32)
        m = compile_model(
            work, "reshape",
            helper.make_node("Reshape", ["X", "S"], ["Y"], name="reshape_3"),
            [value_info("X", TensorProto.FLOAT, [2, 3, 4]),
             value_info("S", TensorProto.INT64, [2])],
            value_info("Y", TensorProto.FLOAT, [2, 12]))
        for shape in (i64(2, 12), i64(0, -1), i64(-1, 12), i64(2, -1)):
            expect_result(work, m, "reshape", [x, shape], x.reshape(2, 12))
        for shape in (i64(3, 8), i64(12, 2), i64(-1, 8)):
            expect_failure(work, m, "reshape", [x, shape],
                           "node 'reshape_3' (Reshape): run-time shape does "
                           "not match the declared result type "
                           "tensor<2x12xf32>")

        # Expand 3x1 -> declared 3x4.
        x = rng.standard_normal((3, 1)).astype(np.float32)
        m = compile_model(
            work, "expand",
            helper.make_node("Expand", ["X", "S"], ["Y"], name="expand_1"),
            [value_info("X", TensorProto.FLOAT, [3, 1]),
             value_info("S", TensorProto.INT64, [2])],
            value_info("Y", TensorProto.FLOAT, [3, 4]))
        for shape in (i64(3, 4), i64(1, 4)):
            expect_result(work, m, "expand", [x, shape],
                          np.broadcast_to(x, (3, 4)))
        for shape in (i64(3, 5), i64(3, 1)):
            expect_failure(work, m, "expand", [x, shape],
                           "node 'expand_1' (Expand): run-time shape does not "
                           "match the declared result type tensor<3x4xf32>")

        # Range with a declared length of 5.
        m = compile_model(
            work, "range",
            helper.make_node("Range", ["A", "B", "D"], ["Y"], name="range_0"),
            [value_info(v, TensorProto.INT64, []) for v in "ABD"],
            value_info("Y", TensorProto.INT64, [5]))
        for start, limit, delta in ((0, 10, 2), (0, 9, 2), (10, 0, -2),
                                    (-3, 2, 1)):
            expect_result(work, m, "range",
                          [i64(start).reshape(()),
                           i64(limit).reshape(()), i64(delta).reshape(())],
                          np.arange(start, limit, delta, dtype=np.int64))
        for start, limit, delta in ((0, 12, 2), (0, 8, 2), (5, 0, 1)):
            expect_failure(work, m, "range",
                           [i64(start).reshape(()), i64(limit).reshape(()),
                            i64(delta).reshape(())],
                           "node 'range_0' (Range): the run-time length does "
                           "not match the declared result type "
                           "tensor<5xi64>")

        # Pad 2x3 -> declared 3x6 (constant 0).
        x = rng.standard_normal((2, 3)).astype(np.float32)
        m = compile_model(
            work, "pad",
            helper.make_node("Pad", ["X", "P"], ["Y"], name="pad_2"),
            [value_info("X", TensorProto.FLOAT, [2, 3]),
             value_info("P", TensorProto.INT64, [4])],
            value_info("Y", TensorProto.FLOAT, [3, 6]))
        for pads in (i64(1, 1, 0, 2), i64(0, 3, 1, 0)):
            want = np.pad(x, ((pads[0], pads[2]), (pads[1], pads[3])))
            expect_result(work, m, "pad", [x, pads], want)
        for pads in (i64(1, 0, 0, 2), i64(2, 1, 0, 2)):
            expect_failure(work, m, "pad", [x, pads],
                           "node 'pad_2' (Pad): run-time pads does not match "
                           "the declared result type tensor<3x6xf32>")
        # Slice of 6x4 along axis 0 -> declared 2x4; all operands inputs.
        x = rng.standard_normal((6, 4)).astype(np.float32)
        m = compile_model(
            work, "slice",
            helper.make_node("Slice", ["X", "B", "E", "A", "S"], ["Y"],
                             name="slice_5"),
            [value_info("X", TensorProto.FLOAT, [6, 4])] +
            [value_info(v, TensorProto.INT64, [1]) for v in "BEAS"],
            value_info("Y", TensorProto.FLOAT, [2, 4]))
        for b, e, a, st in ((1, 3, 0, 1), (4, 0, 0, -2), (-2, 100, -2, 1),
                            (5, -100, 0, -4)):
            expect_result(work, m, "slice", [x, i64(b), i64(e), i64(a),
                                             i64(st)],
                          x[b:e:st])
        for b, e, a, st in ((0, 3, 0, 1), (5, -100, 0, -2), (1, 3, 1, 1)):
            expect_failure(work, m, "slice", [x, i64(b), i64(e), i64(a),
                                              i64(st)],
                           "node 'slice_5' (Slice): the run-time slice does "
                           "not match the declared result type "
                           "tensor<2x4xf32>")

        # Tile 2x3 -> declared 4x3.
        x = rng.standard_normal((2, 3)).astype(np.float32)
        m = compile_model(
            work, "tile",
            helper.make_node("Tile", ["X", "R"], ["Y"], name="tile_4"),
            [value_info("X", TensorProto.FLOAT, [2, 3]),
             value_info("R", TensorProto.INT64, [2])],
            value_info("Y", TensorProto.FLOAT, [4, 3]))
        expect_result(work, m, "tile", [x, i64(2, 1)], np.tile(x, (2, 1)))
        for reps in (i64(1, 1), i64(2, 2)):
            expect_failure(work, m, "tile", [x, reps],
                           "node 'tile_4' (Tile): run-time repeats does not "
                           "match the declared result type tensor<4x3xf32>")

        # ConstantOfShape -> declared 2x3 (f32 zeros).
        m = compile_model(
            work, "fill",
            helper.make_node("ConstantOfShape", ["S"], ["Y"], name="fill_6"),
            [value_info("S", TensorProto.INT64, [2])],
            value_info("Y", TensorProto.FLOAT, [2, 3]))
        expect_result(work, m, "fill", [i64(2, 3)],
                      np.zeros((2, 3), np.float32))
        expect_failure(work, m, "fill", [i64(3, 2)],
                       "node 'fill_6' (ConstantOfShape): run-time shape does "
                       "not match the declared result type tensor<2x3xf32>")

        # Unsqueeze 3x1 -> declared 1x3x1x1: the axes [0, 3], [0, 2] (the
        # same shape) or negative ones agree; [1, 2] gives 3x1x1x1.
        x = rng.standard_normal((3, 1)).astype(np.float32)
        m = compile_model(
            work, "unsqueeze",
            helper.make_node("Unsqueeze", ["X", "A"], ["Y"], name="unsq_7"),
            [value_info("X", TensorProto.FLOAT, [3, 1]),
             value_info("A", TensorProto.INT64, [2])],
            value_info("Y", TensorProto.FLOAT, [1, 3, 1, 1]))
        for axes in (i64(0, 3), i64(0, 2), i64(-4, -1)):
            expect_result(work, m, "unsqueeze", [x, axes],
                          np.expand_dims(x, tuple(axes)))
        for axes in (i64(1, 2), i64(0, 0), i64(1, 3)):
            expect_failure(work, m, "unsqueeze", [x, axes],
                           "node 'unsq_7' (Unsqueeze): run-time axes does not "
                           "match the declared result type "
                           "tensor<1x3x1x1xf32>")

        # Squeeze 1x3x1 -> declared 3x1: only axis 0 (or -3) agrees.
        x = rng.standard_normal((1, 3, 1)).astype(np.float32)
        m = compile_model(
            work, "squeeze",
            helper.make_node("Squeeze", ["X", "A"], ["Y"], name="sq_8"),
            [value_info("X", TensorProto.FLOAT, [1, 3, 1]),
             value_info("A", TensorProto.INT64, [1])],
            value_info("Y", TensorProto.FLOAT, [3, 1]))
        for axes in (i64(0), i64(-3)):
            expect_result(work, m, "squeeze", [x, axes],
                          np.squeeze(x, tuple(axes)))
        for axes in (i64(2), i64(-1)):
            expect_failure(work, m, "squeeze", [x, axes],
                           "node 'sq_8' (Squeeze): run-time axes does not "
                           "match the declared result type tensor<3x1xf32>")

        # ReduceSum 2x3x4, keepdims -> declared 2x1x4: axes [1] or [-2]
        # agree; [0] and [2] reduce other dims.
        x = rng.standard_normal((2, 3, 4)).astype(np.float32)
        m = compile_model(
            work, "rsum",
            helper.make_node("ReduceSum", ["X", "A"], ["Y"], name="rsum_10",
                             keepdims=1),
            [value_info("X", TensorProto.FLOAT, [2, 3, 4]),
             value_info("A", TensorProto.INT64, [1])],
            value_info("Y", TensorProto.FLOAT, [2, 1, 4]))
        for axes in (i64(1), i64(-2)):
            expect_result(work, m, "rsum", [x, axes],
                          x.sum(axis=1, keepdims=True))
        for axes in (i64(0), i64(2)):
            expect_failure(work, m, "rsum", [x, axes],
                           "node 'rsum_10' (ReduceSum): run-time axes does "
                           "not match the declared result type "
                           "tensor<2x1x4xf32>")

        split_case(work, rng)

    if failures:
        print("\n".join(failures))
        sys.exit("runtime_check_test: %d failures" % len(failures))
    print("runtime_check_test: passed")


if __name__ == "__main__":
    main()
