#!/usr/bin/python3
"""External data past 2 GiB and 4 GiB: a model whose initializers live in a
weights file larger than 4 GiB (sparse, so it costs no disk), at offsets
past 2^31 and 2^32, where a 32-bit offset or length would wrap. The
importer maps the pages it needs (nothing copies the file), and the
compiled module gives numpy's results on both backends. The same path
serves a model whose weights really are over 2 GB (checked by hand: a
2.68 GB Gather table compiles and runs; too heavy for `make test`).

Also: an offset whose range ends past the end of the 4 GiB file, and a
length that does not fit the initializer, fail with an error naming them.

Usage: external_data_test.py BIN_DIR
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]
OFFSETS = {"w_2g": (1 << 31) + 12, "w_4g": (1 << 32) + 4100}
FILE_SIZE = (1 << 32) + 65536


def external(name, array, offset, length=None):
    """An initializer whose data is at |offset| in weights.bin."""
    t = numpy_helper.from_array(array, name)
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "weights.bin"), ("offset", str(offset)),
                       ("length", str(length if length is not None
                                      else array.nbytes))):
        entry = t.external_data.add()
        entry.key = key
        entry.value = value
    return t


def write_model(work, initializers):
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w_2g"], ["y"]),
         helper.make_node("Mul", ["y", "w_4g"], ["z"])],
        "external_past_4g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])],
        initializer=initializers)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    path = os.path.join(work, "model.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return path


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def main():
    rng = np.random.default_rng(7)
    w = {k: rng.standard_normal((2, 3)).astype(np.float32) for k in OFFSETS}
    x = rng.standard_normal((2, 3)).astype(np.float32)
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "weights.bin"), "wb") as f:
            f.truncate(FILE_SIZE)
            for name, offset in OFFSETS.items():
                f.seek(offset)
                f.write(w[name].tobytes())
        model = write_model(
            work, [external(k, w[k], off) for k, off in OFFSETS.items()])
        np.save(os.path.join(work, "x.npy"), x)
        np.save(os.path.join(work, "want.npy"), (x + w["w_2g"]) * w["w_4g"])
        for backend in ("vmvx", "llvm-cpu"):
            kmod = os.path.join(work, backend + ".kmod")
            p = run([os.path.join(BIN, "kiln-compile"),
                     "--iree-hal-target-backends=" + backend, model, "-o",
                     kmod])
            if p.returncode:
                sys.exit("FAILED: compile (%s): %s" % (backend, p.stderr))
            # The module holds the two small initializers, not the file.
            if os.path.getsize(kmod) > (16 << 20):
                sys.exit("FAILED: %s module is %d bytes" %
                         (backend, os.path.getsize(kmod)))
            p = run([os.path.join(BIN, "kiln-run-module"), "--module=" + kmod,
                     "--device=local-sync", "--function=external_past_4g",
                     "--input=@" + os.path.join(work, "x.npy"),
                     "--expected_output=@" + os.path.join(work, "want.npy")])
            if p.returncode:
                sys.exit("FAILED: run (%s): %s%s" % (backend, p.stdout,
                                                      p.stderr))
        # A range past the end of the file, beyond 4 GiB.
        past = FILE_SIZE - 8
        write_model(work, [external("w_2g", w["w_2g"], OFFSETS["w_2g"]),
                           external("w_4g", w["w_4g"], past)])
        p = run([os.path.join(BIN, "kiln-compile"), model, "-o",
                 os.path.join(work, "bad.kmod")])
        want = "external data range [%d, %d) is past the end" % (past,
                                                                 past + 24)
        if p.returncode != 1 or want not in p.stderr:
            sys.exit("FAILED: past the end: want exit 1 and %r, got %d:\n%s" %
                     (want, p.returncode, p.stderr))
        # A length of 2^32 + 24 must not wrap to the 24 bytes the shape needs.
        write_model(work, [external("w_2g", w["w_2g"], 0, (1 << 32) + 24),
                           external("w_4g", w["w_4g"], OFFSETS["w_4g"])])
        p = run([os.path.join(BIN, "kiln-compile"), model, "-o",
                 os.path.join(work, "bad.kmod")])
        want = "external data length %d does not match its shape (24 bytes)" \
            % ((1 << 32) + 24)
        if p.returncode != 1 or want not in p.stderr:
            sys.exit("FAILED: wrapped length: want exit 1 and %r, got %d:\n%s"
                     % (want, p.returncode, p.stderr))
    print("external_data_test: passed")


if __name__ == "__main__":
    main()
